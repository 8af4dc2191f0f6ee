"""Throughput: evaluation of the conformance corpus' eval/compile cases per second, by
puppet-ls and by the real Puppet 7 (the oracle) in the same run.

Not a test (timings depend on the machine); run ``python tests/eval/bench_throughput.py``.
Both sides get the same sources as ``eval`` requests through the shared protocol; puppet-ls
additionally runs the full conformance outcome (eval or compile) per case.
"""
from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

from run_cases import load_cases


def main() -> None:
    from puppet_ls.language.eval import run_request
    from puppet_ls.language.eval.conformance import outcome
    cases = load_cases()
    reqs = [{"src": c["source"], "strict": (c.get("settings") or {}).get("strict", "error"),
             "strict_variables": (c.get("settings") or {}).get("strict_variables", True)}
            for c in cases]
    t = time.perf_counter()
    for c in cases:
        outcome(c)
    ours_outcome = time.perf_counter() - t
    t = time.perf_counter()
    for r in reqs:
        run_request(r)
    ours_protocol = time.perf_counter() - t
    n = len(cases)
    print(f"cases: {n}")
    print(f"puppet-ls conformance outcomes: {ours_outcome:.2f} s ({n / ours_outcome:.0f} cases/s)")
    print(f"puppet-ls protocol (run_request): {ours_protocol:.2f} s ({n / ours_protocol:.0f} cases/s)")
    oracle_dir = Path(os.environ.get("PUPPET_ORACLE_DIR", HERE.parents[2] / "shared" / "oracle"))
    if shutil.which("ruby") and shutil.which("puppet") and oracle_dir.is_dir():
        sys.path.insert(0, str(oracle_dir))
        from oracle import PuppetOracle
        with PuppetOracle() as o:
            t = time.perf_counter()
            o.many([{"op": "eval", **r} for r in reqs])
            theirs = time.perf_counter() - t
        print(f"Puppet 7 oracle (one process, pipelined): {theirs:.2f} s ({n / theirs:.0f} cases/s)")
        print(f"speed-up: {theirs / ours_protocol:.1f}x")
    else:
        print("oracle not installed: no comparison")


if __name__ == "__main__":
    main()
