#!/usr/bin/env python3
"""`puppet-ls check` over the corpus against its peers, in one run (issue 13, acceptance 1 and 5;
issue 12, acceptance 3).

    python3 benchmarks/check_speed.py [--runs 3] [--jobs N] [--no-puppet-lint] [--files LIST]

The corpus modules are copied to a temporary folder first (so that one file can be changed, and
Puppet's default module path plays no part), and every timing is the wall clock of a fresh
process over the same 1,920 files, median of --runs, each peer measured in the same round:

  puppet parser validate          the reference (Puppet 7, one process)
  check, cold cache               `check --cache-dir EMPTY` (default --jobs: one per core)
  check, warm cache               the same again, nothing changed
  check, one file changed         a comment line added at the top of one manifest (a different
                                  one each round), which moves every definition in it
  check --no-cache --jobs 1       the whole engine on one core, for scale
  puppet-lint, every check        Debian's puppet-lint 3.0.1 with every check on
  check, every lint check         `run_check` with every style check, no cache, default --jobs
                                  (through a `python -c` process, as `check` has no option for
                                  it on this branch)

(also each one's CPU time, with its children's: on a loaded machine it says more than the
wall clock), and the peak of the summed RSS of `check --jobs 2 --no-cache` and its workers (sampled every
20 ms from /proc).  Ratios are printed against the targets; the exit status is 0 either way
(the figures are what matter).  The package's bytecode is compiled first, as `pip install`
does (this machine sets PYTHONDONTWRITEBYTECODE).  Timings are wall clock on a shared machine:
compare the figures of one run.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _corpus import REPO, corpus_files, engine_line

CHANGED = "apache/manifests/init.pp"    # changed in round 0; later rounds take other files
TARGETS = {"cold": 0.5, "warm": 0.1, "changed": 0.15}


def copy_corpus(files: list, dest: Path) -> list:
    """Copy the module folders holding ``files`` into ``dest`` and return the copied paths."""
    root = os.path.commonpath(files)
    while not os.path.isdir(os.path.join(root, os.path.relpath(files[0], root).split(os.sep)[0])):
        root = os.path.dirname(root)
    out = []
    copied: set = set()
    for f in files:
        rel = os.path.relpath(f, root)
        mod = rel.split(os.sep)[0]
        if mod not in copied:
            shutil.copytree(os.path.realpath(os.path.join(root, mod)), dest / mod, symlinks=True)
            copied.add(mod)
        out.append(str(dest / rel))
    return out


def env() -> dict:
    e = dict(os.environ)
    e.pop("PYTHONDONTWRITEBYTECODE", None)
    e.pop("PUPPET_LS_CACHE_DIR", None)
    return e


CPU: dict = {}      # command label -> CPU seconds of each run (user + system, with its children)


def timed(cmd: list, label: str = "") -> float:
    """Wall seconds of ``cmd``; its CPU seconds (and its workers') go to CPU[label]."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=False, env=env())
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.setdefault(label, []).append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return wall


def _tree_rss_kb(pid: int) -> int:
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                        break
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            pass
    return total


def peak_rss_mb(cmd: list) -> float:
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env())
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss_kb(proc.pid))
            time.sleep(0.02)

    t = threading.Thread(target=sample, daemon=True)
    t.start()
    proc.wait()
    done.set()
    t.join()
    return peak / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=0, help="check's --jobs (0: its default, one per core)")
    ap.add_argument("--no-puppet-lint", action="store_true")
    ap.add_argument("--files")
    a = ap.parse_args()
    files = corpus_files(a.files)
    if not files:
        sys.exit("no corpus: run ../shared/corpus/corpus.sh (or set PUPPET_LS_CORPUS)")
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "language"), str(REPO / "server")],
                   check=False, capture_output=True, env=env())
    work = Path(tempfile.mkdtemp(prefix="puppet-ls-check-speed-"))
    try:
        copies = copy_corpus(files, work / "modules")
        changeable = [p for p in copies if "/manifests/" in p]
        first = next((i for i, p in enumerate(changeable) if p.endswith(CHANGED)), 0)
        check = [sys.executable, "-m", "puppet_ls.server.cli", "check", "-q", "--jobs", str(a.jobs)]
        every_lint = [sys.executable, "-c",
                      ("import sys; from puppet_ls.language.lint import all_checks; "
                       "from puppet_ls.server.check_run import CheckOptions, run_check; "
                       "[None for _ in run_check(sys.argv[1:], [], CheckOptions(lint=all_checks(), "
                       f"jobs={a.jobs or os.cpu_count()}))]")]
        lint_exe = None if a.no_puppet_lint else shutil.which("puppet-lint")
        if lint_exe:
            from puppet_ls.language.lint import CHECKS
            # puppet-lint's --<name>-check turns on a check that is off by default
            # (as lint_speed.py does: the plugin checks' gems are not installed, and puppet-lint
            # stops at once on an option it does not know)
            lint_on = [f"--{c.name}-check" for c in CHECKS.values()
                       if not c.enabled and c.name not in ("legacy_facts", "top_scope_facts")
                       and not c.family.startswith("plugins_")]
        rows: dict = {k: [] for k in ("puppet", "cold", "warm", "changed", "one core", "puppet-lint", "every lint")}
        for r in range(a.runs):
            cache = work / f"cache{r}"
            rows["puppet"].append(timed(["puppet", "parser", "validate", *copies], "puppet"))
            rows["cold"].append(timed([*check, "--cache-dir", str(cache), *copies], "cold"))
            rows["warm"].append(timed([*check, "--cache-dir", str(cache), *copies], "warm"))
            target = changeable[(first + 97 * r) % len(changeable)]
            text = Path(target).read_text(encoding="utf-8")
            Path(target).write_text(f"# changed by check_speed.py, round {r}\n" + text, encoding="utf-8")
            rows["changed"].append(timed([*check, "--cache-dir", str(cache), *copies], "changed"))
            rows["one core"].append(timed([*check, "--no-cache", "--jobs", "1", *copies], "one core"))
            if lint_exe:
                rows["puppet-lint"].append(timed([lint_exe, *lint_on, *copies], "puppet-lint"))
                rows["every lint"].append(timed([*every_lint, *copies], "every lint"))
        rss = peak_rss_mb([*check, "--no-cache", "--jobs", "2", *copies])
    finally:
        shutil.rmtree(work, ignore_errors=True)

    med = {k: statistics.median(v) for k, v in rows.items() if v}
    cpu = {k: statistics.median(v) for k, v in CPU.items() if v}
    base = med["puppet"]
    print(f"{len(files)} files (copied to a temporary folder), median of {a.runs} runs, wall clock; "
          f"check --jobs {a.jobs or 'default'} ({os.cpu_count()} cores)")
    print(f"  {engine_line()}")
    print(f"  {'puppet parser validate':40} {base:7.2f} s  (CPU {cpu['puppet']:.2f} s)")
    labels = {"cold": "puppet-ls check, cold cache", "warm": "puppet-ls check, warm cache, unchanged",
              "changed": "puppet-ls check, one file changed", "one core": "puppet-ls check --no-cache --jobs 1"}
    for key, label in labels.items():
        ratio = med[key] / base
        target = TARGETS.get(key)
        verdict = f"  (target <= {target}: {'met' if ratio <= target else 'MISSED'})" if target else ""
        print(f"  {label:40} {med[key]:7.2f} s  {ratio:5.2f}x Puppet{verdict}  "
              f"(CPU {cpu[key]:.2f} s, {cpu[key] / cpu['puppet']:.2f}x Puppet's)")
    if "puppet-lint" in med:
        speedup = med["puppet-lint"] / med["every lint"]
        print(f"  {'puppet-lint 3.0.1, every check':40} {med['puppet-lint']:7.2f} s  (CPU {cpu['puppet-lint']:.2f} s)")
        print(f"  {'puppet-ls, every lint check, no cache':40} {med['every lint']:7.2f} s  "
              f"{speedup:5.1f}x faster than puppet-lint (target >= 10: {'met' if speedup >= 10 else 'MISSED'})  "
              f"(CPU {cpu['every lint']:.2f} s, {cpu['puppet-lint'] / cpu['every lint']:.1f}x less)")
    print(f"  check --jobs 2 --no-cache peak RSS, all processes: {rss:.0f} MB "
          f"(target <= 300: {'met' if rss <= 300 else 'MISSED'})")


if __name__ == "__main__":
    main()
