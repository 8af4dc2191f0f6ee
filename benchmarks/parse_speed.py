#!/usr/bin/env python3
"""Whole-corpus parse throughput of puppet-ls against Puppet's own parser, in one run.

puppet-ls is timed on files already read into memory, in CPU time of this process
(time.process_time), as the median of N runs, for lexing alone, lex+parse, parse+validate,
and lex+parse with every result kept alive (as a server indexing a workspace would).  Puppet is timed as `puppet parser validate FILE...` over the same files in
one process, in that child's CPU time (getrusage(RUSAGE_CHILDREN) deltas), once raw and once
with the start-up cost of Ruby+Puppet (measured on an empty file) taken out.

    python3 benchmarks/parse_speed.py [--runs 5] [--puppet-runs 3] [--no-puppet] [--files LIST]
"""
from __future__ import annotations

import argparse
import gc
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _corpus import corpus_files, corpus_list_path, count_lines, engine_line, read_texts

from puppet_ls.language.syntax.lexer import lex
from puppet_ls.language.syntax.parser import parse
from puppet_ls.language.syntax.validate import validate


def _cpu(fn) -> float:
    """CPU seconds of one call; a collection first so one run's garbage is not billed to the next."""
    gc.collect()
    t0 = time.process_time()
    result = fn()
    elapsed = time.process_time() - t0
    del result  # freeing kept trees happens outside the timed region
    return elapsed


def time_puppet_ls(texts: list[str], runs: int) -> dict[str, list[float]]:
    def lex_all():
        for t in texts:
            lex(t)

    def parse_all():
        for t in texts:
            parse(t)

    def parse_validate_all():
        for t in texts:
            validate(parse(t))

    def parse_keep_all():
        # What a server indexing a workspace does: every tree stays alive.  The green trees are
        # made of many small tuples that the cyclic garbage collector keeps re-scanning while
        # the heap grows, so this row shows the cost of the collector, not of the parser.
        kept = [parse(t) for t in texts]
        return kept

    stages = {"lex": lex_all, "lex+parse": parse_all, "parse+validate": parse_validate_all,
              "parse, keep all": parse_keep_all}
    times: dict[str, list[float]] = {k: [] for k in stages}
    # Interleave the stages run by run so drift of the machine (frequency, other load) hits
    # every stage alike instead of biasing whichever ran last.
    for _ in range(runs):
        for name, fn in stages.items():
            times[name].append(_cpu(fn))
    return times


def _chunks(paths: list[str]) -> list[list[str]]:
    """Split the file list so each command line stays well under the kernel's ARG_MAX."""
    try:
        arg_max = os.sysconf("SC_ARG_MAX")
    except (ValueError, OSError):
        arg_max = 131072
    env_size = sum(len(k) + len(v) + 2 for k, v in os.environ.items())
    budget = max(16384, arg_max // 2 - env_size - 4096)
    out: list[list[str]] = []
    cur: list[str] = []
    size = 0
    for p in paths:
        n = len(p) + 1 + 8  # the string, its NUL, its argv pointer
        if cur and size + n > budget:
            out.append(cur)
            cur, size = [], 0
        cur.append(p)
        size += n
    if cur:
        out.append(cur)
    return out


def _run_puppet(puppet: str, files: list[str], modulepath: str) -> tuple[float, int, str]:
    """CPU seconds (user+sys) of one `puppet parser validate` process, its exit code, its stderr."""
    # The corpus lives in Puppet's default module path, where Puppet adds module-layout checks
    # ("unacceptable as a top level construct") that are not part of the language; an empty
    # base module path turns them off so both tools judge the same thing: the language.
    cmd = [puppet, "parser", "validate", "--color=false", f"--basemodulepath={modulepath}", *files]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, proc.returncode, proc.stderr


def time_puppet(puppet: str, paths: list[str], runs: int) -> dict | None:
    chunks = _chunks(paths)
    with tempfile.TemporaryDirectory(prefix="pls-bench-") as tmp:
        empty_mods = os.path.join(tmp, "modules")
        os.mkdir(empty_mods)
        empty = os.path.join(tmp, "empty.pp")
        open(empty, "w").close()
        startup = []
        totals = []
        errors = 0
        for _ in range(runs):
            startup.append(_run_puppet(puppet, [empty], empty_mods)[0])
            total = 0.0
            for chunk in chunks:
                cpu, rc, err = _run_puppet(puppet, chunk, empty_mods)
                total += cpu
                if rc != 0:
                    errors += sum(1 for line in err.splitlines() if line.startswith("Error:"))
            totals.append(total)
    return {"chunks": len(chunks), "startup": startup, "totals": totals, "errors": errors}


def _puppet_version(puppet: str) -> str:
    try:
        return subprocess.run([puppet, "--version"], capture_output=True, text=True, check=False, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "?"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="runs of each puppet-ls stage (median reported)")
    ap.add_argument("--puppet-runs", type=int, default=3, help="runs of `puppet parser validate` (median reported)")
    ap.add_argument("--no-puppet", action="store_true", help="time puppet-ls only")
    ap.add_argument("--files", help="file with one .pp path per line (default: the shared corpus list)")
    ns = ap.parse_args(argv)

    paths = corpus_files(ns.files)
    if not paths:
        print(f"no corpus files found (list: {corpus_list_path(ns.files)}); install it with "
              "../shared/corpus/corpus.sh")
        return 0
    texts = read_texts(paths)
    lines = sum(count_lines(t) for t in texts)
    nbytes = sum(len(t.encode("utf-8")) for t in texts)

    # A correctness guard: a throughput figure on input we get wrong would be meaningless.
    false_errors = sum(1 for t in texts if parse(t).errors)

    print(f"corpus: {len(paths)} files, {lines} lines, {nbytes / 1e6:.2f} MB "
          f"(files with puppet-ls syntax errors: {false_errors})")
    print(f"python {platform.python_version()} ({platform.python_implementation()}), "
          f"{platform.machine()}, runs={ns.runs}")
    print(engine_line())

    times = time_puppet_ls(texts, ns.runs)
    med = {k: statistics.median(v) for k, v in times.items()}
    print()
    print("puppet-ls (CPU time of this process, files in memory, median of runs)")
    for name, t in med.items():
        spread = f"min {min(times[name]):.3f} max {max(times[name]):.3f}"
        print(f"  {name:<15} {t:8.3f} s  {lines / t:10,.0f} lines/s   ({spread})")
    print(f"  {'parse only':<15} {med['lex+parse'] - med['lex']:8.3f} s  (lex+parse minus lex)")
    print(f"  {'validate only':<15} {med['parse+validate'] - med['lex+parse']:8.3f} s  (parse+validate minus lex+parse)")
    print(f"  ('parse, keep all' = lex+parse with all {len(texts)} results held in a list, as a server indexing a")
    print("   workspace would: the difference to lex+parse is the garbage collector re-scanning live trees)")

    puppet = shutil.which("puppet")
    print()
    if ns.no_puppet or puppet is None:
        why = "--no-puppet given" if ns.no_puppet else "`puppet` not found on PATH (apt-get install puppet-agent)"
        print(f"Puppet: skipped ({why})")
        return 0
    res = time_puppet(puppet, paths, ns.puppet_runs)
    p_total = statistics.median(res["totals"])
    p_start = statistics.median(res["startup"])
    p_net = p_total - p_start * res["chunks"]
    print(f"Puppet {_puppet_version(puppet)}: `puppet parser validate` over the same files "
          f"({res['chunks']} process(es) per run, CPU time of the child, median of {ns.puppet_runs})")
    print(f"  {'whole process':<15} {p_total:8.3f} s  {lines / p_total:10,.0f} lines/s")
    print(f"  {'start-up':<15} {p_start:8.3f} s  (the same command on one empty file)")
    print(f"  {'minus start-up':<15} {p_net:8.3f} s  {lines / p_net:10,.0f} lines/s")
    if res["errors"]:
        print(f"  note: Puppet reported {res['errors']} error line(s) on these files")

    ours = med["parse+validate"]
    print()
    print("ratio (Puppet CPU / puppet-ls CPU; > 1 means puppet-ls is faster per core)")
    print(f"  lex+parse      vs Puppet whole process: {p_total / med['lex+parse']:5.2f}x"
          f"   vs Puppet minus start-up: {p_net / med['lex+parse']:5.2f}x")
    print(f"  parse+validate vs Puppet whole process: {p_total / ours:5.2f}x"
          f"   vs Puppet minus start-up: {p_net / ours:5.2f}x")
    print("  (`puppet parser validate` parses and validates, so parse+validate is the like-for-like row)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
