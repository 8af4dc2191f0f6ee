#!/usr/bin/env python3
"""Evaluation throughput: the eval/compile cases of the shared conformance corpus per second,
by puppet-ls and by the real Puppet 7 (the oracle) in the same run.

Both sides get the same sources as ``eval`` requests of the shared protocol (with each case's
strictness); puppet-ls is also timed on the full conformance outcome (eval or compile mode per
case).  Each puppet-ls figure is the median of N runs (wall clock, after one warm-up run); the
oracle runs once, pipelined in one Ruby process, its start-up excluded.

    python3 benchmarks/eval_speed.py [--runs 5] [--no-puppet] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PUPPET_LS_SHARED", ROOT.parent / "shared"))


def load_cases() -> list:
    path = SHARED / "conformance" / "cases.jsonl"
    if not path.exists():
        sys.exit(f"conformance corpus not found at {path} (set PUPPET_LS_SHARED)")
    with open(path, encoding="utf-8") as fh:
        return [c for c in map(json.loads, filter(str.strip, fh)) if c["mode"] in ("eval", "compile")]


def requests(cases: list) -> list:
    out = []
    for c in cases:
        s = c.get("settings") or {}
        out.append({"src": c["source"], "strict": s.get("strict", "error"),
                    "strict_variables": s.get("strict_variables", True)})
    return out


def timed(fn, runs: int) -> float:
    fn()                                   # warm-up: caches, lazy imports
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-puppet", action="store_true")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args(argv)

    sys.path.insert(0, str(ROOT.parent))
    from puppet_ls.language.eval import run_request
    from puppet_ls.language.eval.conformance import outcome

    cases = load_cases()
    reqs = requests(cases)
    n = len(cases)
    res = {"cases": n, "python": platform.python_version(), "runs": args.runs}
    res["outcome_s"] = timed(lambda: [outcome(c) for c in cases], args.runs)
    res["protocol_s"] = timed(lambda: [run_request(r) for r in reqs], args.runs)
    oracle_dir = Path(os.environ.get("PUPPET_ORACLE_DIR", SHARED / "oracle"))
    if not args.no_puppet and shutil.which("ruby") and shutil.which("puppet") and oracle_dir.is_dir():
        sys.path.insert(0, str(oracle_dir))
        from oracle import PuppetOracle
        with PuppetOracle() as o:
            o.eval("1")                    # start-up and first-request cost left out
            t = time.perf_counter()
            o.many([{"op": "eval", **r} for r in reqs])
            res["oracle_s"] = time.perf_counter() - t
    if args.json:
        print(json.dumps(res))
        return
    print(f"cases: {n} (eval + compile cases of the conformance corpus), median of {args.runs} runs")
    print(f"puppet-ls conformance outcomes : {res['outcome_s']:.2f} s  "
          f"({n / res['outcome_s']:,.0f} cases/s)")
    print(f"puppet-ls protocol run_request : {res['protocol_s']:.2f} s  "
          f"({n / res['protocol_s']:,.0f} cases/s)")
    if "oracle_s" in res:
        print(f"Puppet 7 oracle (pipelined)    : {res['oracle_s']:.2f} s  "
              f"({n / res['oracle_s']:,.0f} cases/s)")
        print(f"speed-up (protocol vs oracle)  : {res['oracle_s'] / res['protocol_s']:.1f}x")
    else:
        print("Puppet 7 oracle: not installed (or --no-puppet), no comparison")


if __name__ == "__main__":
    main()
