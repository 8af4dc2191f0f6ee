"""Run the eval/compile cases of ../shared/conformance through puppet-ls and check.py.

Usable as a script (``python tests/eval/run_cases.py [category...] [-v] [-k substring]``) and as
a library (``run_all()``) by the conformance test.
"""
from __future__ import annotations

import collections
import importlib.util
import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("PUPPET_LS_SHARED", REPO.parent / "shared"))
CONFORMANCE = SHARED / "conformance"
MODES = ("eval", "compile")


def load_check():
    spec = importlib.util.spec_from_file_location("conformance_check", CONFORMANCE / "check.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def load_cases() -> list:
    path = CONFORMANCE / "cases.jsonl"
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as fh:
        return [c for c in map(json.loads, filter(str.strip, fh)) if c["mode"] in MODES]


def run_all(cases=None):
    from puppet_ls.language.eval.conformance import outcome
    check = load_check()
    cases = load_cases() if cases is None else cases
    results = {}
    for case in cases:
        try:
            out = outcome(case)
        except Exception as exc:  # noqa: BLE001 - a crash is a failure of the case (and a bug), reported with the others
            out = {"error": f"CRASH {type(exc).__name__}: {exc}", "phase": "crash"}
        ok, why = check.check(case, out)
        results[case["id"]] = (ok, why, out)
    return results


def main(argv):
    verbose = "-v" in argv
    argv = [a for a in argv if a != "-v"]
    sub = None
    if "-k" in argv:
        i = argv.index("-k")
        sub = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    cats = set(argv)
    cases = [c for c in load_cases() if (not cats or c["category"] in cats)
             and (sub is None or sub in c["source"] or sub in c["id"])]
    t0 = time.time()
    results = run_all(cases)
    dt = time.time() - t0
    per = collections.Counter()
    passed = collections.Counter()
    for c in cases:
        key = (c["category"], c["mode"])
        per[key] += 1
        ok, why, _out = results[c["id"]]
        if ok:
            passed[key] += 1
        elif verbose:
            print(f"FAIL {c['id']} [{c['category']}] {c['source'][:200]!r}\n    {why[:400]}")
    tot = sum(per.values())
    for key in sorted(per):
        print(f"{key[0]:28} {key[1]:8} {passed[key]:5}/{per[key]:<5}")
    print(f"TOTAL {sum(passed.values())}/{tot} in {dt:.1f}s ({tot / dt:.0f} cases/s)")


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    main(sys.argv[1:])
