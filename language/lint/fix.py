"""Applying the fixes of style findings (``check --fix``, the editor's quick fixes), proven safe.

``fix_text`` lints a text, takes the findings that carry a ``Fix`` and are not silenced by a
control comment, applies their edits (in puppet-lint's order of checks; a fix whose edits
overlap an earlier one waits for the next round) and keeps the result only when ``verify``
proves it: the new text parses with the same errors, and its tree in Puppet's dump form equals
the original's with the changes the fixes state (``expect``, see ``fixes``) and nothing else.
A fix that fails the proof is dropped (its finding stays).  Rounds repeat on the new text until
nothing changes, so fixing a fixed text changes nothing.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic
from ..syntax import ast as A
from ..syntax import kinds as K
from ..syntax.parser import ParseResult, parse
from ..syntax.puppet_format import Ops, format_dump, puppet_dump_data
from .fixes import apply

# puppet-lint applies fixes check by check in the order it loads its checks (its plugin files,
# sorted by path); the checks of puppet-lint 4 come last.
FIX_ORDER = (
    "arrow_on_right_operand_line", "names_containing_uppercase", "slash_comments", "star_comments",
    "unquoted_node_name", "ensure_first_param", "ensure_not_symlink_target", "file_mode",
    "unquoted_file_mode", "unquoted_resource_title", "double_quoted_strings", "only_variable_string",
    "puppet_url_without_modules", "quoted_booleans", "variables_not_enclosed", "arrow_alignment",
    "hard_tabs", "trailing_whitespace", "legacy_facts", "top_scope_facts",
)
_RANK = {name: i for i, name in enumerate(FIX_ORDER)}
MAX_ROUNDS = 8
# AST classes a "dump" expectation may name (a literal or bare word replaced by another).
_VALUE_CLASSES = ("Literal", "QName", "DqString", "ReservedWord")
_URL_HEAD = re.compile(r"(puppet://.*?/)")
_MISMATCH = ["the fix does not do what it states"]


def _unwrapped(dumper, node) -> object:
    """A string that interpolates one expression and nothing else, as that expression."""
    data = dumper.plain(node)
    if isinstance(data, list) and len(data) == 2 and data[0] == "cat" and isinstance(data[1], list) \
            and len(data[1]) == 2 and data[1][0] == "str":
        return data[1][1]
    return _MISMATCH


def _with_modules(dumper, node) -> object:
    """A string with 'modules/' after each 'puppet://<server>/' of its first text."""
    data = dumper.plain(node)
    if isinstance(data, str) and data.startswith("'"):
        return _URL_HEAD.sub(r"\1modules/", data)
    if isinstance(data, list) and len(data) > 1 and isinstance(data[1], str) and data[1].startswith("'"):
        return [data[0], _URL_HEAD.sub(r"\1modules/", data[1]), *data[2:]]
    return _MISMATCH


@dataclass
class FixResult:
    text: str                                             # the fixed text (the original if nothing was fixed)
    fixed: Counter = field(default_factory=Counter)       # check name -> fixes applied
    rejected: list[Diagnostic] = field(default_factory=list)  # fixes that failed the proof (as found)
    refused: set = field(default_factory=set)             # their (check, offset, end) in the final text
    rounds: int = 0
    reason: str = ""                                      # why nothing was tried (e.g. syntax errors)

    @property
    def changed(self) -> bool:
        return sum(self.fixed.values()) > 0


def fixable_findings(result: ParseResult, path: str, enabled: frozenset[str]) -> list[Diagnostic]:
    """The findings of the enabled checks that carry a fix and no control comment silences."""
    from . import apply as apply_controls
    from . import control_comments, lint
    from .tokens import TokenView
    diags = [d for d in lint(result, path, enabled) if d.fix is not None]
    if diags and "lint:" in result.text:
        view = TokenView(result.text, result.green)
        diags = apply_controls(diags, control_comments(view), view)
    return diags


def _extent(d: Diagnostic) -> tuple[int, int]:
    assert d.fix is not None
    return min(e[0] for e in d.fix.edits), max(e[1] for e in d.fix.edits)


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    if a[0] == a[1] or b[0] == b[1]:
        return a[0] <= b[1] and b[0] <= a[1]     # an insertion touching the other: order unknown
    return a[0] < b[1] and b[0] < a[1]


def select(diags: list[Diagnostic]) -> list[Diagnostic]:
    """The fixes to apply together: in puppet-lint's order of checks, each unless the stretch of
    text it edits (first edit to last) overlaps one already chosen; the others wait for the
    next round, when they are found again on the new text."""
    chosen: list[Diagnostic] = []
    taken: list[tuple[int, int]] = []
    for d in sorted(diags, key=lambda d: (_RANK.get(d.code, len(_RANK)), d.offset)):
        if d.fix is None or not d.fix.edits:
            continue
        ext = _extent(d)
        if any(_overlaps(ext, t) for t in taken):
            continue
        chosen.append(d)
        taken.append(ext)
    return chosen


def edited(text: str, diags: list[Diagnostic]) -> str:
    return apply(text, [e for d in diags if d.fix is not None for e in d.fix.edits])


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    chars = list(text)
    for s, e in spans:
        for k in range(s, e):
            if chars[k] not in "\r\n":
                chars[k] = " "
    return "".join(chars)


def _first_statement(text: str, tasks: bool):
    root = A.view(parse(text, tasks=tasks).root)
    stmts = root.statements() if isinstance(root, A.SourceFile) else []
    return stmts[0] if stmts else None


def _overrides(expects: list[tuple], tasks: bool) -> dict:
    out: dict = {}
    for x in expects:
        kind = x[0]
        if kind == "dump":
            _, s, e, data = x

            def given(dumper, _node, data=data):
                return data
            for cls in _VALUE_CLASSES:
                out[(cls, s, e)] = given
        elif kind == "unwrap":
            out[("DqString", x[1], x[2])] = _unwrapped
        elif kind == "url":
            for cls in ("Literal", "DqString"):
                out[(cls, x[1], x[2])] = _with_modules
        elif kind == "fact":
            _, s, e, name = x
            fact = ["slice", "$facts", f"'{name}'"]

            def as_fact(dumper, node, fact=fact, name=name):
                if isinstance(node, A.VariableExpr):
                    return fact
                data = dumper.plain(node)     # an interpolation of the variable alone
                return ["str", fact] if data == ["str", f"$::{name}"] else data
            out[("VariableExpr", s, e)] = as_fact
            out[("Interpolation", s, e)] = as_fact
        elif kind == "ops":
            _, s, e, text = x
            res = _first_statement(f"x {{ t: {text} }}", tasks)
            bodies = res.bodies() if isinstance(res, A.ResourceExpr) else []
            ops = bodies[0].ops() if bodies else []

            def several(dumper, _node, ops=ops):
                return Ops(dumper.plain(op) for op in ops) if ops else ["unparsable"]
            out[("AttributeOp", s, e)] = several
        elif kind == "rename":
            _, cls, s, e, old, new = x

            def renamed(dumper, node, old=old, new=new):
                data = dumper.plain(node)
                if isinstance(data, list) and len(data) > 1 and isinstance(data[1], str):
                    data[1] = data[1].replace(old, new)
                return data
            out[(cls, s, e)] = renamed
    return out


def verify(before: ParseResult, after_text: str, diags: list[Diagnostic], tasks: bool = False) -> bool:
    """Whether ``after_text`` (``before``'s text with the fixes of ``diags`` made) parses with
    the same errors and means the same as ``before``, apart from what the fixes state."""
    expects = [x for d in diags if d.fix is not None for x in d.fix.expect]
    blanks = [(x[1], x[2]) for x in expects if x[0] == "blank"]
    base = parse(_blanked(before.text, blanks), tasks=tasks) if blanks else before
    after = parse(after_text, tasks=tasks)
    if [e.code for e in after.errors] != [e.code for e in base.errors]:
        return False
    expected = puppet_dump_data(base.root, complete=True, overrides=_overrides(expects, tasks))
    return format_dump(expected) == format_dump(puppet_dump_data(after.root, complete=True))


def _moved(offset: int, edits: list[tuple[int, int, str]]) -> int:
    """Where ``offset`` is after ``edits`` (sorted) are made."""
    delta = 0
    for s, e, new in edits:
        if e <= offset:
            delta += len(new) - (e - s)
        else:
            break
    return offset + delta


def fix_text(text: str, path: str = "", enabled: frozenset[str] | None = None,
             reparse: Callable[[str], ParseResult] | None = None, tasks: bool = False) -> FixResult:
    """Fix ``text`` (a manifest at ``path``) for the ``enabled`` checks, round after round until
    nothing changes (``reparse`` parses a text as the file is parsed: template, plan)."""
    from . import default_enabled
    enabled = default_enabled() if enabled is None else enabled
    reparse = reparse or (lambda t: parse(t, tasks=tasks))
    out = FixResult(text)
    result = reparse(text)
    if result.errors:
        out.reason = "syntax errors"
        return out
    if result.green.kind == K.EPP_FILE:
        return out
    refused: set[tuple[str, int, int]] = set()
    for _ in range(MAX_ROUNDS):
        diags = [d for d in fixable_findings(result, path, enabled)
                 if (d.code, d.offset, d.end) not in refused]
        chosen = select(diags)
        if not chosen:
            break
        out.rounds += 1
        new = edited(text, chosen)
        if not verify(result, new, chosen, tasks):
            chosen = _provable(result, text, chosen, tasks, refused, out)
            if not chosen:
                continue
            new = edited(text, chosen)
        edits = sorted(e for d in chosen if d.fix is not None for e in d.fix.edits)
        refused = {(c, _moved(s, edits), _moved(e, edits)) for c, s, e in refused}
        out.fixed.update(d.code for d in chosen)
        text = new
        result = reparse(text)
    out.text = text
    out.refused = refused
    return out


def fix_one(result: ParseResult, diag: Diagnostic, tasks: bool = False) -> str | None:
    """The text with the fix of one finding made, or None when it has none or it fails the
    proof (an editor's quick fix)."""
    if diag.fix is None or not diag.fix.edits or result.errors:
        return None
    new = edited(result.text, [diag])
    return new if verify(result, new, [diag], tasks) else None


def _provable(result: ParseResult, text: str, chosen: list[Diagnostic], tasks: bool,
              refused: set, out: FixResult) -> list[Diagnostic]:
    """The fixes of ``chosen`` that pass the proof together: halves are tried apart until the
    ones that fail alone are found; the others are then added one group at a time."""
    passing: list[list[Diagnostic]] = []
    todo = [chosen]
    while todo:
        group = todo.pop()
        if verify(result, edited(text, group), group, tasks):
            passing.append(group)
        elif len(group) == 1:
            refused.add((group[0].code, group[0].offset, group[0].end))
            out.rejected.append(group[0])
        else:
            half = len(group) // 2
            todo += [group[:half], group[half:]]
    kept: list[Diagnostic] = []
    for group in passing:
        # a group that passes alone but not with the others waits for the next round
        trial = kept + group
        if verify(result, edited(text, trial), trial, tasks):
            kept = trial
    return kept
