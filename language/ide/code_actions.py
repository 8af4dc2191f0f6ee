"""Code actions on style findings: the quick fix of each fixable finding in a range, "fix all
puppet-lint issues" for the file, and "ignore <check> on this line" (a control comment).

Every edit offered is proven as ``check --fix`` proves its edits (``lint.fix``): a quick fix is
offered only if its result keeps the tree, and a control comment is only written where it is
a comment to Puppet (never inside a multi-line string or heredoc).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Diagnostic
from ..lint import CHECKS
from ..lint.fix import fix_one, fix_text, verify
from ..lint.tokens import COMMENTS, TokenView
from ..syntax.parser import ParseResult

QUICKFIX = "quickfix"
FIX_ALL = "source.fixAll.puppet-ls"


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Action:
    title: str
    kind: str
    edits: tuple[Edit, ...]
    diagnostic: Diagnostic | None = None
    preferred: bool = False


def _overlaps(d: Diagnostic, start: int, end: int) -> bool:
    return d.offset <= end and start <= max(d.end, d.offset)


def quick_fixes(result: ParseResult, diags: list[Diagnostic], start: int, end: int,
                tasks: bool = False, cache: dict | None = None) -> list[Action]:
    """A fix for each fixable style finding of ``diags`` touching [start, end], and an
    "ignore" action for each style finding there.  ``cache`` (one per text) keeps the proofs:
    editors ask again at every move of the cursor."""
    cache = {} if cache is None else cache
    out: list[Action] = []
    view: TokenView | None = None
    seen: set[tuple[str, int]] = set()
    for d in diags:
        if d.code not in CHECKS or not _overlaps(d, start, end):
            continue
        proof = ("fix", d.code, d.offset, d.end)
        if d.fix is not None and proof not in cache:
            cache[proof] = fix_one(result, d, tasks) is not None
        if d.fix is not None and cache[proof]:
            out.append(Action(f"Fix {d.code}: {d.message}", QUICKFIX,
                              tuple(Edit(*e) for e in d.fix.edits), d, preferred=True))
        if view is None:
            view = TokenView(result.text, result.green)
        line = view.line(d.offset)
        if (d.code, line) in seen:
            continue
        seen.add((d.code, line))
        place = ("ignore", d.code, line)
        if place not in cache:
            cache[place] = ignore_edit(result, view, d.code, line, tasks)
        edit = cache[place]
        if edit is not None:
            out.append(Action(f"Ignore {d.code} on this line", QUICKFIX, (edit,), d))
    return out


def fix_all(result: ParseResult, path: str, enabled: frozenset[str], tasks: bool = False) -> Action | None:
    """Every fix ``check --fix`` would make to the file, as one action (None: nothing to fix)."""
    from ..formatter import minimal_edits
    fixed = fix_text(result.text, path, enabled, reparse=None, tasks=tasks)
    if not fixed.changed:
        return None
    edits = tuple(Edit(e.start, e.end, e.text) for e in minimal_edits(result.text, fixed.text))
    return Action("Fix all puppet-lint issues", FIX_ALL, edits)


def ignore_edit(result: ParseResult, view: TokenView, code: str, line: int, tasks: bool = False) -> Edit | None:
    """The edit writing a control comment that silences ``code`` on ``line`` (1-based): after
    the line's code (``# lint:ignore:<check>``, or added to the control comment already there),
    or, when the line ends with another comment, as a ``# lint:ignore`` … ``# lint:endignore``
    block around the line.  None where no comment can go (the line ends inside a string)."""
    text = result.text
    starts = view.lines.starts
    if line > len(starts):
        return None
    start = starts[line - 1]
    eol = starts[line] - 1 if line < len(starts) else len(text)
    if eol > start and text[eol - 1] == "\r":
        eol -= 1
    toks = view.toks
    i = view.index_at(eol)
    # the line must end with a line break (or the file's end) that is code, not string text
    if i < len(toks) and not (toks[i].type == "NEWLINE" and toks[i].offset == eol):
        return None
    j = i - 1
    while j >= 0 and toks[j].type == "WHITESPACE":
        j -= 1
    if j < 0 or toks[j].offset < start or toks[j].type in ("NEWLINE", "INDENT"):
        return None                          # a blank line: nothing to silence
    last = toks[j]
    word = f"lint:ignore:{code}"
    if last.type in COMMENTS:
        prev = view.prev_code(j)
        trailing = prev is not None and toks[prev].offset >= start
        if last.type == "COMMENT" and last.value.strip().startswith("lint:ignore:") and trailing:
            edit: Edit | None = _after_control_words(last, word)
        else:
            edit = _block(text, view, start, eol, word)
    else:
        edit = Edit(last.end, last.end, f" # {word}")
    if edit is None or not verify(result, text[:edit.start] + edit.text + text[edit.end:], [], tasks):
        return None
    return edit


def _after_control_words(comment, word: str) -> Edit:
    """``word`` added after the control words of a ``# lint:ignore:a reason`` comment."""
    pos = comment.offset + 1
    end = pos
    for w in comment.value.split(" "):
        if w.startswith("lint:"):
            end = pos + len(w)
        elif w:
            break
        pos += len(w) + 1
    return Edit(end, end, f" {word}")


def _block(text: str, view: TokenView, start: int, eol: int, word: str) -> Edit | None:
    """A control block around the line [start, eol): its own comment lines, indented as it."""
    i = view.index_at(start)
    if start > 0:
        # the line must start as code does (after a line break token), not inside a string
        prev = view.toks[i - 1] if i > 0 else None
        if prev is None or prev.type != "NEWLINE" or prev.end != start:
            return None
    indent = text[start:start + len(text[start:eol]) - len(text[start:eol].lstrip(" \t"))]
    nl = "\r\n" if text.find("\n") > 0 and text[text.find("\n") - 1] == "\r" else "\n"
    return Edit(start, eol, f"{indent}# {word}{nl}{text[start:eol]}{nl}{indent}# lint:endignore")
