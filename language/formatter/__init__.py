"""puppet_ls.language.formatter: the canonical layout of Puppet code, provably meaning-preserving.

Entry points::

    format_text(text, epp=False, options=FormatOptions()) -> FormatResult   # whole file
    format_range(text, start, end, ...) -> list[Edit]     # edits inside [start, end) only
    on_type_edits(text, offset, ...) -> list[Edit]        # align '=>' after one was typed

The layout works on gaps between tokens (``layout.py``), ``ensure`` is moved first
(``reorder.py``), and every result is checked against the original (``safety.py``): text that
does not parse to the same tree is never handed out.  A file with syntax errors gets only its
clean top-level statements formatted; the rest stays byte for byte.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic
from ..syntax import kinds as K
from ..syntax import parse
from ..syntax.parser import ParseResult
from ..syntax.tree import SyntaxNode, SyntaxToken
from .layout import DEFAULT_OPTIONS, MAX_LINE, Edit, FormatOptions, layout_edits, long_line_lists
from .reorder import ensure_first
from .safety import check_safe, dump_problem, tree_problem

__all__ = ["Edit", "FormatOptions", "FormatResult", "apply_edits", "check_safe", "format_range",
           "format_text", "minimal_edits", "on_type_edits"]


@dataclass(frozen=True, slots=True)
class FormatResult:
    text: str
    changed: bool
    # why parts of the file (or all of it) were left as they were
    diagnostics: list = field(default_factory=list)


def apply_edits(text: str, edits: list) -> str:
    parts: list = []
    pos = 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        parts.append(text[pos:e.start])
        parts.append(e.text)
        pos = e.end
    parts.append(text[pos:])
    return "".join(parts)


def _has_damage(node: SyntaxNode) -> bool:
    for c in node.descendants_with_tokens():
        if c.kind in (K.ERROR, K.ERROR_TOKEN):
            return True
        if isinstance(c, SyntaxToken) and c.offset == c.end and c.kind != K.EOF:
            return True     # a token the parser inserted (a missing '}')
    return False


def clean_statements(result: ParseResult) -> tuple[list, list]:
    """Ranges (first token to last token) of the top-level statements free of syntax errors,
    and the statements that are not (as nodes)."""
    clean: list = []
    broken: list = []
    errors = [(e.offset, e.end) for e in result.errors]
    for stmt in result.root.children():
        start, end = stmt.offset, stmt.end
        if _has_damage(stmt) or any(s <= end and e >= start for s, e in errors):
            broken.append(stmt)
        else:
            clean.append(stmt.range)
    return clean, broken


def _within(edits: list, ranges: list) -> list:
    return [e for e in edits if any(s <= e.start and e.end <= t for s, t in ranges)]


def _unsafe(text: str, detail: str) -> FormatResult:
    return FormatResult(text, False, [Diagnostic.of("FORMAT_UNSAFE", 0, 0, detail=detail)])


def format_text(text: str, epp: bool = False, options: FormatOptions = DEFAULT_OPTIONS,
                tasks: bool = False) -> FormatResult:
    """The formatted text of a whole file (unchanged, with a diagnostic, if that is not safe).
    ``tasks``: parse with Bolt's plan keywords (files under a module's plans/)."""
    result = parse(text, epp=epp, tasks=tasks)
    clean = broken = None
    if result.errors:
        clean, broken = clean_statements(result)
    staged = text if epp else ensure_first(text, result.root, clean)
    staged_result = result if staged is text else parse(staged, epp=epp, tasks=tasks)
    edits = layout_edits(staged, staged_result.root, epp, options)
    notes = []
    if result.errors:
        # the moves stayed inside clean statements, so the broken ones are where they were
        edits = _within(edits, clean_statements(staged_result)[0])
        notes = [Diagnostic.of("FORMAT_SKIPPED_STATEMENT", *s.range) for s in broken or ()]
    out = apply_edits(staged, edits)
    if not epp:
        out = _break_long_lines(out, epp, options, tasks)
    if out == text:
        return FormatResult(text, False, notes)
    # the layout is checked against the staged text's tree, the move of 'ensure' (rarer) against
    # the original's Puppet dump with that move normalised
    problem = tree_problem(staged_result, out, epp, tasks)
    if problem is None and staged is not text:
        problem = dump_problem(result, staged, epp, tasks)
    if problem:
        return _unsafe(text, problem)
    return FormatResult(out, True, notes)


def _break_long_lines(text: str, epp: bool, options: FormatOptions, tasks: bool) -> str:
    """``text`` (laid out) with the arrays and hashes that make a line too long broken one
    element per line, outermost first, until no long line starts one (each round breaks at
    least one list and a broken list stays broken, so this ends; formatting the result again
    finds nothing more to break, which keeps formatting idempotent)."""
    for _ in range(_MAX_BREAK_ROUNDS):
        if not any(len(line) > MAX_LINE for line in text.split("\n")):
            break       # (a line of MAX_LINE columns and its '\r' is not long: see long_line_lists)
        result = parse(text, epp=epp, tasks=tasks)
        clean = clean_statements(result)[0] if result.errors else None
        spread = long_line_lists(text, result.root, clean)
        if not spread:
            break
        edits = layout_edits(text, result.root, epp, options, spread)
        if clean is not None:
            edits = _within(edits, clean)
        broken = apply_edits(text, edits)
        if broken == text:
            break
        text = broken
    return text


# Lists nest: each round breaks the outermost long ones.  Nesting deeper than this on one line
# is not real code (and the rest is left long rather than formatting forever).
_MAX_BREAK_ROUNDS = 8


def minimal_edits(old: str, new: str) -> list[Edit]:
    """Edits turning ``old`` into ``new``, one per run of changed lines, so that an editor
    keeps the cursor and the marks on the lines formatting did not touch."""
    if old == new:
        return []
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    starts = [0]
    for line in a:
        starts.append(starts[-1] + len(line))
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            out.append(Edit(starts[i1], starts[i2], "".join(b[j1:j2])))
    return out


def format_range(text: str, start: int, end: int, epp: bool = False,
                 options: FormatOptions = DEFAULT_OPTIONS, tasks: bool = False) -> list[Edit]:
    """Formatting edits that lie wholly inside [start, end) (nothing outside is touched); no
    attribute is moved.  Empty when the result would not be safe."""
    result = parse(text, epp=epp, tasks=tasks)
    edits = [e for e in layout_edits(text, result.root, epp, options) if start <= e.start and e.end <= end]
    if result.errors:
        edits = _within(edits, clean_statements(result)[0])
    if not edits:
        return []
    if tree_problem(result, apply_edits(text, edits), epp, tasks):
        return []
    return edits


def on_type_edits(text: str, offset: int, epp: bool = False,
                  options: FormatOptions = DEFAULT_OPTIONS, tasks: bool = False) -> list[Edit]:
    """After '=>' was typed ending at ``offset``: the spaces that realign the arrows of the
    construct it belongs to (only spaces before arrows on their own lines change)."""
    if epp or not text.startswith("=>", max(0, offset - 2)):
        return []
    result = parse(text, epp=epp, tasks=tasks)
    tok = result.root.token_at(offset - 2)
    if tok is None or tok.kind != K.FARROW or tok.parent is None:
        return []
    group = tok.parent.parent
    if group is None:
        return []
    arrows = {t.offset for t in group.descendants_with_tokens()
              if t.kind == K.FARROW and t.parent is not None and t.parent.parent is not None
              and t.parent.parent.offset == group.offset and t.parent.parent.kind == group.kind}
    out = []
    for e in layout_edits(text, result.root, epp, options):
        old = text[e.start:e.end]
        if e.end in arrows and not old.strip() and not e.text.strip() and "\n" not in old + e.text:
            out.append(e)
    return out
