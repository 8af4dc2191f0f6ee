"""Types built from the real parser's AST (``type_from_ast``) agree with the terms the
conformance cases were converted to: every type expression that is an operand of a
conformance case's top-level operator is built both ways and the results compared."""
from __future__ import annotations

import json
from pathlib import Path

from puppet_ls.language import types as T
from puppet_ls.language.syntax import ast as A
from puppet_ls.language.syntax import parse
from puppet_ls.language.types.from_ast import type_from_ast
from types_terms import decode

ROOT = Path(__file__).resolve().parents[2]
CASES = [json.loads(l) for l in (ROOT / "fixtures/types/conformance.jsonl").read_text().splitlines() if l.strip()]


def built(call):
    try:
        return T.type_to_string(T.build_type(call)), None
    except T.TypeSystemError as exc:
        return None, exc.code


def test_type_expressions_of_conformance_cases() -> None:
    compared = 0
    mismatches = []
    for case in CASES:
        term = case.get("term")
        if not isinstance(term, dict) or "op" not in term:
            continue
        result = parse(case["source"])
        if result.errors:
            continue
        stmts = A.view(result.root).statements()
        if len(stmts) != 1 or not isinstance(stmts[0], A.BinaryExpr):
            continue
        for side, node in (("l", stmts[0].left()), ("r", stmts[0].right())):
            t = term[side]
            if not (isinstance(t, dict) and "T" in t):
                continue
            expected = built(decode(t))
            got_type, err = type_from_ast(node)
            got = (T.type_to_string(got_type), None) if got_type is not None else (None, err.code if err else "NOT_STATIC")
            compared += 1
            if got != expected:
                mismatches.append((case["source"], side, got, expected))
    assert compared > 1000
    assert not mismatches, mismatches[:10]
