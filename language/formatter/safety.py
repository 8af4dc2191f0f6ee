"""Proof obligations of the formatter: the formatted text means what the original meant.

Two comparisons.  ``dump_problem`` is the reference: same syntax errors and the same tree in
Puppet's dump form once the documented normalisations are applied to both (``ensure`` first in
a resource body; quote style needs none: the dump prints a string's value, not its quotes).
``tree_problem`` is what the formatter checks before handing text out, when no attribute was
moved: same errors and the very same syntax tree (node kinds, token texts, string values, heredoc
texts), ignoring only trivia, commas and the place of heredoc bodies among the tokens — stricter
than the dump and a quarter of its cost.  ``check_safe`` (tests, benchmark) uses the dump and adds
the same validation findings and idempotence.
"""
from __future__ import annotations

import re

from ..syntax import kinds as K
from ..syntax import parse, validate
from ..syntax.ast import dq_text_value, single_quoted_value
from ..syntax.parser import ParseResult
from ..syntax.puppet_format import format_dump, puppet_dump_data
from ..syntax.tree import GreenNode

_SKIPPED = K.TRIVIA | {K.COMMA}


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
    data = puppet_dump_data(result.root, complete=True)
    _ensure_first(data)
    return format_dump(data)


_LINE_NUMBER = re.compile(r"\bline \d+")


def _errors(result: ParseResult) -> list:
    # messages may name the line of an opening brace, which formatting may move
    return [(e.code, _LINE_NUMBER.sub("line N", e.message)) for e in result.errors]


def _string_value(node: GreenNode) -> str | None:
    """The value of a string literal node: a single-quoted LITERAL or a double-quoted string
    without interpolation (the two spellings the formatter converts between)."""
    sig = [c for c in node.children if not (type(c) is tuple and c[0] in K.TRIVIA)]
    if node.kind == K.LITERAL:
        if len(sig) == 1 and type(sig[0]) is tuple and sig[0][0] == K.STRING:
            return single_quoted_value(sig[0][1])
        return None
    if (node.kind == K.DQ_STRING and len(sig) in (2, 3) and sig[0] == (K.DQ_OPEN, '"') and sig[-1] == (K.DQ_CLOSE, '"')
            and all(type(c) is tuple for c in sig) and (len(sig) == 2 or sig[1][0] == K.STRING_TEXT)):
        return dq_text_value(sig[1][1]) if len(sig) == 3 else ""
    return None


def fingerprint(green: GreenNode) -> tuple:
    """The tree as (structure, heredoc bodies): node kinds, token texts and string values in
    order, without trivia and commas; heredoc bodies apart (a line break moved before a
    heredoc's header line moves its body among the tokens without changing anything)."""
    out: list = []
    bodies: list = []
    stack: list = [[green, 0]]
    while stack:
        frame = stack[-1]
        node, i = frame
        if i >= len(node.children):
            stack.pop()
            out.append(")")
            continue
        frame[1] = i + 1
        c = node.children[i]
        if type(c) is tuple:
            if c[0] not in _SKIPPED:
                out.append(c[1])
            continue
        if c.kind == K.HEREDOC_BODY:
            bodies.append(c.text())
            continue
        if c.kind in (K.LITERAL, K.DQ_STRING):
            v = _string_value(c)
            if v is not None:
                out.append(("string", v))
                continue
        out.append(c.kind)
        stack.append([c, 0])
    return out, bodies


def tree_problem(before: ParseResult, after_text: str, epp: bool = False, tasks: bool = False) -> str | None:
    """None when ``after_text`` parses to the same errors and the same tree (``fingerprint``)
    as ``before``; otherwise a short description of the difference."""
    after = parse(after_text, epp=epp, tasks=tasks)
    if _errors(after) != _errors(before):
        return "the syntax errors differ"
    if fingerprint(after.green) != fingerprint(before.green):
        return "the syntax tree differs"
    return None


def dump_problem(before: ParseResult, after_text: str, epp: bool = False, tasks: bool = False) -> str | None:
    """None when ``after_text`` parses to the same errors and the same Puppet dump as
    ``before`` modulo the formatter's normalisations; otherwise what differs."""
    after = parse(after_text, epp=epp, tasks=tasks)
    if _errors(after) != _errors(before):
        return "the syntax errors differ"
    if normalised_dump(after) != normalised_dump(before):
        return "the syntax tree differs (Puppet's dump form)"
    return None


def check_safe(original: str, formatted: str, epp: bool = False, reformat=None,
               tasks: bool = False) -> list[str]:
    """Every way ``formatted`` fails to be a safe formatting of ``original`` (empty: safe).
    ``reformat`` (text -> text) checks idempotence when given."""
    problems: list[str] = []
    before = parse(original, epp=epp, tasks=tasks)
    p = dump_problem(before, formatted, epp, tasks)
    if p:
        problems.append(p)
    after = parse(formatted, epp=epp, tasks=tasks)
    if sorted((d.code, d.message) for d in validate(after)) != sorted((d.code, d.message) for d in validate(before)):
        problems.append("the validation findings differ")
    if reformat is not None and reformat(formatted) != formatted:
        problems.append("formatting again changes the text")
    return problems
