"""Control comments, read exactly as puppet-lint reads them, applied to every diagnostic.

``# lint:ignore:<check>`` after code on a line silences that check on that line;
``# lint:ignore:<check>`` on a line of its own opens a block that the next
``# lint:endignore`` closes (several checks may be named in one comment, blocks nest, and
the words after the control words are the reason).  A block that is never closed silences
nothing, as in puppet-lint; both mistakes are reported.  Codes are compared without regard to
case, so ``# lint:ignore:undefined_variable`` silences puppet-ls's ``UNDEFINED_VARIABLE``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic
from .tokens import COMMENTS, TokenView

_CONTROL = re.compile(r"\Alint:(ignore:\w+|endignore)")
_CONTROL_WORD = re.compile(r"\Alint:(ignore|endignore)")


@dataclass
class Suppressions:
    """Which (check, line) pairs are silenced, with the reason given; and the control
    comments that were wrong (unclosed blocks, unmatched endignores) as diagnostics."""
    lines: dict[str, dict[int, str]] = field(default_factory=dict)
    problems: list[Diagnostic] = field(default_factory=list)

    def reason(self, code: str, line: int) -> str | None:
        by_line = self.lines.get(code.lower())
        return None if by_line is None else by_line.get(line)


def control_comments(view: TokenView) -> Suppressions:
    out = Suppressions()
    toks = view.toks
    stack: list[list[tuple[int, str, str, int]]] = []
    for i, tok in enumerate(toks):
        if tok.type not in COMMENTS:
            continue
        body = tok.value.strip()
        if not _CONTROL.match(body):
            continue
        words = body.split()
        controls: list[str] = []
        reason = ""
        for k, word in enumerate(words):
            if _CONTROL_WORD.match(word):
                controls.append(word)
            else:
                reason = " ".join(words[k:])
                break
        line = view.line(tok.offset)
        opened: list[tuple[int, str, str, int]] = []
        for control in controls:
            parts = control.split(":")
            if parts[1] == "ignore":
                if len(parts) < 3 or not parts[2]:
                    continue
                check = parts[2].lower()
                after_code = i > 0 and toks[i - 1].type not in ("NEWLINE", "INDENT")
                if after_code:
                    out.lines.setdefault(check, {})[line] = reason
                else:
                    opened.append((line, reason, check, tok.offset))
            else:
                if not stack:
                    out.problems.append(Diagnostic.of("LINT_ENDIGNORE_UNMATCHED", tok.offset, tok.end))
                    continue
                for start_line, why, check, _ in stack.pop():
                    lines = out.lines.setdefault(check, {})
                    for n in range(start_line, line + 1):
                        lines[n] = why
        if opened:
            stack.append(opened)
    for group in stack:
        for start_line, _, check, offset in group:
            out.problems.append(Diagnostic.of("LINT_IGNORE_UNCLOSED", offset, offset, check=check))
    return out


def apply(diags: list[Diagnostic], suppressions: Suppressions, view: TokenView,
          ignored: list | None = None) -> list[Diagnostic]:
    """The diagnostics not silenced; silenced ones are appended to ``ignored`` (with their
    reason) when it is given."""
    if not suppressions.lines:
        return diags
    kept = []
    for d in diags:
        why = suppressions.reason(d.code, view.line(d.offset))
        if why is None:
            kept.append(d)
        elif ignored is not None:
            ignored.append((d, why))
    return kept
