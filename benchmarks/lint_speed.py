#!/usr/bin/env python3
"""What the style checks cost: the engine behind `puppet-ls check` (file_diagnostics, no
workspace index) over the corpus without lint, with the default checks and with every check,
median of N runs of CPU time of this process (the machine may be shared; CPU time is what the
checks cost), and puppet-lint over the same files (every check on) in the same run, in its CPU
time (user + system of the child) and wall time.

    python3 benchmarks/lint_speed.py [--runs 3] [--no-puppet-lint] [--files LIST]
"""
from __future__ import annotations

import argparse
import gc
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _corpus import corpus_files, engine_line, read_texts

from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.language.lint import CHECKS, all_checks, default_enabled


def engine(files: list[str], texts: list[str], lint) -> float:
    gc.collect()
    t0 = time.process_time()
    for path, text in zip(files, texts):
        file_diagnostics(parse_for_path(text, path), None, path=path, lint=lint)
    return time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-puppet-lint", action="store_true")
    ap.add_argument("--files")
    args = ap.parse_args()
    files = corpus_files(args.files)
    texts = read_texts(files)
    rows = []
    for label, lint in (("no style checks", None), ("default checks", default_enabled()),
                        ("every check", all_checks())):
        times = [engine(files, texts, lint) for _ in range(args.runs)]
        rows.append((label, statistics.median(times)))
    base = rows[0][1]
    print(f"{len(files)} files, median of {args.runs} runs (CPU seconds); {engine_line()}")
    for label, t in rows:
        print(f"  puppet-ls engine, {label:16} {t:7.2f} s  ({100 * (t - base) / base:+.0f}% over no style checks)")
    exe = shutil.which("puppet-lint")
    if exe and not args.no_puppet_lint:
        off = [f"--{c.name}-check" for c in CHECKS.values()
               if not c.enabled and c.name not in ("legacy_facts", "top_scope_facts")
               and not c.family.startswith("plugins_")]   # plugin gems are not installed
        cpu, wall = [], []
        for _ in range(args.runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run([exe, "--json", *off, *files], capture_output=True, check=False)
            wall.append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        t = statistics.median(cpu)
        print(f"  puppet-lint 3.0.1, every check   {t:7.2f} s  (wall {statistics.median(wall):.1f} s; "
              f"puppet-ls's whole engine with every check is {t / rows[2][1]:.1f}x less CPU)")


if __name__ == "__main__":
    main()
