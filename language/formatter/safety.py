"""Proof obligations of the formatter: the formatted text means what the original meant.

``tree_problem`` compares two texts the way the formatter needs before it hands text out: same
syntax errors, and the same tree in Puppet's dump form once the formatter's documented
normalisations are applied to both (``ensure`` first in a resource body; quote style needs no
normalising: Puppet's dump prints a string's value, not its quotes).  ``check_safe`` adds what
tests and the benchmark also hold: the same validation findings and idempotence.
"""
from __future__ import annotations

import re

from ..syntax import parse, validate
from ..syntax.parser import ParseResult
from ..syntax.puppet_format import format_dump, puppet_dump_data


def _ensure_first(data: object) -> None:
    """Move ``(ensure => …)`` first among the attributes of every resource body, in place."""
    if not isinstance(data, list):
        return
    for x in data:
        _ensure_first(x)
    if data and isinstance(data[0], str) and data[0].endswith("resource"):
        for body in data[1:]:
            if not isinstance(body, list):
                continue
            ops = [i for i, x in enumerate(body) if isinstance(x, list) and len(x) == 3 and x[1] in ("=>", "+>")]
            names = [body[i][0] for i in ops]
            if names.count("ensure") == 1 and names[0] != "ensure":
                k = ops[names.index("ensure")]
                values = [body[i] for i in ops]
                ensure = body[k]
                values.remove(ensure)
                for i, v in zip(ops, [ensure, *values], strict=True):
                    body[i] = v


def normalised_dump(result: ParseResult) -> str:
    data = puppet_dump_data(result.root)
    _ensure_first(data)
    return format_dump(data)


_LINE_NUMBER = re.compile(r"\bline \d+")


def _errors(result: ParseResult) -> list:
    # messages may name the line of an opening brace, which formatting may move
    return [(e.code, _LINE_NUMBER.sub("line N", e.message)) for e in result.errors]


def tree_problem(before: ParseResult, after_text: str, epp: bool = False, tasks: bool = False) -> str | None:
    """None when ``after_text`` parses to the same errors and (normalised) tree as ``before``;
    otherwise a short description of the difference."""
    after = parse(after_text, epp=epp, tasks=tasks)
    if _errors(after) != _errors(before):
        return "the syntax errors differ"
    if normalised_dump(after) != normalised_dump(before):
        return "the syntax tree differs"
    return None


def check_safe(original: str, formatted: str, epp: bool = False, reformat=None,
               tasks: bool = False) -> list[str]:
    """Every way ``formatted`` fails to be a safe formatting of ``original`` (empty: safe).
    ``reformat`` (text -> text) checks idempotence when given."""
    problems: list[str] = []
    before = parse(original, epp=epp, tasks=tasks)
    p = tree_problem(before, formatted, epp, tasks)
    if p:
        problems.append(p)
    after = parse(formatted, epp=epp, tasks=tasks)
    if sorted((d.code, d.message) for d in validate(after)) != sorted((d.code, d.message) for d in validate(before)):
        problems.append("the validation findings differ")
    if reformat is not None and reformat(formatted) != formatted:
        problems.append("formatting again changes the text")
    return problems
