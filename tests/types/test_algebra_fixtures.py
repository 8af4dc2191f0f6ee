"""Data-driven checks of building, normalize, generalize, common_type and inference.

fixtures/types/algebra.txt holds one case per line, ``op: input ==> expected``; inputs are read
with the test-data reader of convert_conformance.py (not a parser). ``UPDATE_EXPECT=1``
rewrites the expectations from the current output, to be reviewed in the diff.
"""
from __future__ import annotations

import os
from pathlib import Path

from convert_conformance import convert
from types_terms import decode, evaluate
from puppet_ls.language import types as T

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures/types/algebra.txt"


def _type(text: str):
    return evaluate(decode(convert(text)))


def check(op: str, text: str) -> str:
    """The output of one fixture case, as text."""
    try:
        if op == "build":
            return T.type_to_string(T.build_type(decode(convert(text))))
        if op == "normalize":
            return T.type_to_string(T.normalize(_type(text)))
        if op == "generalize":
            return T.type_to_string(T.generalize(_type(text)))
        if op == "common":
            a, b = text.split(" ; ")
            return T.type_to_string(T.common_type(_type(a), _type(b)))
        if op == "infer":
            return T.type_to_string(T.infer(evaluate(decode(convert(text)))))
        if op == "infer_set":
            return T.type_to_string(T.infer_set(evaluate(decode(convert(text)))))
    except T.TypeSystemError as exc:
        return f"error: {exc.message}"
    raise ValueError(f"unknown op {op}")


def test_algebra_fixtures():
    lines = FIXTURE.read_text().splitlines()
    out, failures = [], []
    for line in lines:
        if not line.strip() or line.startswith("#"):
            out.append(line)
            continue
        head, expected = line.split(" ==> ", 1)
        op, text = head.split(": ", 1)
        got = check(op, text)
        out.append(f"{head} ==> {got}")
        if got != expected:
            failures.append(f"{head}\n  expected: {expected}\n  got:      {got}")
    if os.environ.get("UPDATE_EXPECT"):
        FIXTURE.write_text("\n".join(out) + "\n")
        return
    assert not failures, "\n".join(failures)
