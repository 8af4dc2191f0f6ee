"""The eval and compile cases of the shared conformance corpus, judged by its check.py.

fixtures/eval/conformance_expected.txt lists the ids that pass.  The test fails when a listed
case stops passing (a regression); newly passing cases only need ``UPDATE_EXPECT=1`` to be
recorded.  Per-category pass counts are printed (``pytest -s`` shows them).
"""
from __future__ import annotations

import collections
import os
from pathlib import Path

import pytest

from run_cases import load_cases, run_all

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = ROOT / "fixtures/eval/conformance_expected.txt"


@pytest.fixture(scope="module")
def results():
    cases = load_cases()
    if not cases:
        pytest.skip("the shared conformance corpus is not available")
    return cases, run_all(cases)


def test_conformance_pass_set(results):
    cases, res = results
    per = collections.Counter()
    passed = collections.Counter()
    for c in cases:
        key = f"{c['category']}/{c['mode']}"
        per[key] += 1
        if res[c["id"]][0]:
            passed[key] += 1
    for key in sorted(per):
        print(f"{key:40} {passed[key]:5}/{per[key]}")
    total = sum(passed.values())
    print(f"TOTAL {total}/{len(cases)} ({100.0 * total / len(cases):.1f}%)")
    passing = sorted(i for i, (ok, _, _) in res.items() if ok)
    if os.environ.get("UPDATE_EXPECT") == "1":
        EXPECTED.write_text("".join(f"{i}\n" for i in passing))
        return
    assert EXPECTED.exists(), f"{EXPECTED} is missing; run with UPDATE_EXPECT=1 to create it"
    expected = {ln.strip() for ln in EXPECTED.read_text().splitlines() if ln.strip()}
    regressions = sorted(i for i in expected if i in res and not res[i][0])
    assert not regressions, "conformance regressions:\n" + "\n".join(
        f"{i}: {res[i][1][:300]}" for i in regressions[:50])


def test_no_crashes(results):
    _cases, res = results
    crashes = [(i, out) for i, (_, _, out) in res.items()
               if "INTERNAL_ERROR" in str(out) or "Internal error" in str(out.get("error", ""))
               or out.get("phase") == "crash"]
    assert not crashes, f"evaluator crashed on {len(crashes)} cases: {crashes[:5]}"
