"""Differential test of the function library, conversions, string formats and value arithmetic
against the real Puppet 7 (../shared/oracle).

The calls come from the tables of differential_calls.py (every function, every conversion
signature, every format letter per type, Timespan/Timestamp/SemVer operators).  For each call
the verdict must agree and, when both succeed, ``String(value)`` and the inferred type.  At least
1,000 calls, agreement >= 98%, and no disagreement outside the documented list
fixtures/eval/differential_calls_disagreements.txt (rewritten with ``UPDATE_EXPECT=1``; the
reasons are in docs/eval.md).  Skips cleanly when ``ruby``/``puppet`` are not installed.
"""
from __future__ import annotations

import collections
import json
import os
from pathlib import Path

import pytest

from differential_calls import generate
from test_differential import _oracle, compare
from puppet_ls.language.eval import run_request

ROOT = Path(__file__).resolve().parents[2]
KNOWN = ROOT / "fixtures/eval/differential_calls_disagreements.txt"

pytestmark = pytest.mark.oracle


def check(reqs: list, answers: list) -> tuple:
    """(per-family counts, agreeing counts, disagreement lines) for our answers vs Puppet's."""
    per, agree, lines = collections.Counter(), collections.Counter(), []
    for req, theirs in zip(reqs, answers):
        ours = run_request({k: v for k, v in req.items() if k != "family"})
        per[req["family"]] += 1
        diff = compare(ours, theirs)
        if diff is None:
            agree[req["family"]] += 1
        else:
            lines.append((json.dumps(req["src"], ensure_ascii=False), diff))
    return per, agree, lines


def test_calls_against_puppet():
    reqs = generate()
    assert len(reqs) >= 1000
    with _oracle() as oracle:
        answers = oracle.many([{"op": "eval", **{k: v for k, v in r.items() if k != "family"}}
                               for r in reqs])
    per, agree, lines = check(reqs, answers)
    for fam in per:
        print(f"{fam:12} {agree[fam]:5}/{per[fam]}")
    total, good = len(reqs), sum(agree.values())
    print(f"differential calls: {good}/{total} agree ({good / total:.2%})")
    if os.environ.get("UPDATE_EXPECT"):
        KNOWN.write_text("".join(f"{src}\n" for src, _ in sorted(lines)), encoding="utf-8")
        return
    assert good / total >= 0.98, f"agreement {good / total:.2%} is below 98%"
    known = set(KNOWN.read_text(encoding="utf-8").splitlines()) if KNOWN.exists() else set()
    new = [f"{src}\t{diff}" for src, diff in lines if src not in known]
    assert not new, "new disagreements with Puppet:\n" + "\n".join(new[:40])
