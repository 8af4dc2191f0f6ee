"""The type-system cases of the shared conformance corpus, run against the type API.

fixtures/types/conformance.jsonl holds Puppet's expected answers (converted once by
convert_conformance.py). fixtures/types/conformance_failures.txt lists the ids we currently
get wrong; the test fails when a case outside that list fails, or when a listed case starts
passing (so the list stays honest). ``UPDATE_EXPECT=1`` rewrites the list.
"""
from __future__ import annotations

import collections
import json
import os
from pathlib import Path

from types_terms import run

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "fixtures/types/conformance.jsonl"
FAILURES = ROOT / "fixtures/types/conformance_failures.txt"


def check(case: dict) -> tuple:
    """(passed, got) for one converted case."""
    if "term" not in case:
        return False, "unconverted: " + case.get("unconverted", "")
    got = run(case["term"])
    return got == case["expect"]["value"], got


def test_conformance_cases():
    cases = [json.loads(line) for line in CASES.read_text().splitlines() if line.strip()]
    known = set()
    if FAILURES.exists():
        known = {ln.split("\t")[0] for ln in FAILURES.read_text().splitlines() if ln.strip()}
    per_cat = collections.Counter()
    passed = collections.Counter()
    failing = {}
    for case in cases:
        ok, got = check(case)
        per_cat[case["category"]] += 1
        if ok:
            passed[case["category"]] += 1
        else:
            failing[case["id"]] = (case["source"], case["expect"]["value"], got)
    summary = ", ".join(f"{c}: {passed[c]}/{n}" for c, n in sorted(per_cat.items()))
    print("conformance:", summary)
    if os.environ.get("UPDATE_EXPECT"):
        FAILURES.write_text("".join(f"{i}\t{s}\texpected {e}\tgot {g}\n"
                                    for i, (s, e, g) in sorted(failing.items())))
        return
    new = {i: v for i, v in failing.items() if i not in known}
    fixed = known - set(failing)
    assert not new, f"new conformance failures: {new}"
    assert not fixed, f"cases now pass, run with UPDATE_EXPECT=1: {sorted(fixed)}"
