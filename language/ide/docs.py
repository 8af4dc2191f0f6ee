"""Documentation comments: the ``#`` comment block written right before a definition, read the
way puppet-strings reads it (a summary, ``@param name text`` tags, ``@return``, ``@example``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_TAG = re.compile(r"@(\w+)(?:\s+(.*))?")


@dataclass
class DocComment:
    """A parsed doc comment: free text, summary and per-parameter text."""

    text: str = ""
    summary: str = ""
    params: dict = field(default_factory=dict)
    returns: str = ""

    def full(self) -> str:
        """What hover shows: the summary, then the free text."""
        return join_summary(self.summary, self.text)

    def short(self) -> str:
        """One paragraph for hovers and completion details."""
        if self.summary:
            return self.summary
        para = self.text.strip().split("\n\n", 1)[0]
        return " ".join(para.split())


def _without_types(text: str) -> str:
    """``text`` without a leading YARD type list (``[Integer[1, 2]]``, brackets nest)."""
    text = text.lstrip()
    if not text.startswith("["):
        return text
    depth = 0
    for i, ch in enumerate(text):
        depth += {"[": 1, "]": -1}.get(ch, 0)
        if depth == 0:
            return text[i + 1:].lstrip()
    return text


def join_summary(summary: str, text: str) -> str:
    """``summary`` above ``text``, unless the text already opens with it (an index entry keeps
    the short form, which is the first paragraph when there is no @summary)."""
    if not summary or " ".join(text.split()).startswith(summary):
        return text or summary
    return f"{summary}\n\n{text}" if text else summary


def leading_comment(text: str, offset: int) -> str:
    """The text of the ``#`` comment lines directly above the line holding ``offset`` (no
    blank line in between), without the ``#`` markers."""
    return "\n".join(line for _, line in leading_comment_lines(text, offset))


def leading_comment_lines(text: str, offset: int) -> list[tuple[int, str]]:
    """(offset of the line, its text after ``#`` and one space) of each comment line directly
    above the line holding ``offset``, in order."""
    line_start = text.rfind("\n", 0, offset) + 1
    lines: list = []
    pos = line_start
    while pos > 0:
        prev_end = pos - 1                      # the '\n' ending the previous line
        prev_start = text.rfind("\n", 0, prev_end) + 1
        line = text[prev_start:prev_end].strip()
        if not line.startswith("#"):
            break
        lines.append((prev_start, line[1:][1:] if line[1:2] == " " else line[1:]))
        pos = prev_start
        if len(lines) > 20_000:     # a bound, far above real doc comments (apache::vhost: ~1,800 lines)
            break
    lines.reverse()
    return lines


def parse_doc(comment: str) -> DocComment:
    """Split a puppet-strings style comment into summary, text, @param and @return parts."""
    doc = DocComment()
    text_lines: list = []
    current: tuple[str, ...] | None = None   # ('param', name) or ('return',) while a tag continues
    for raw in comment.split("\n"):
        m = _TAG.match(raw.strip())
        if m:
            tag, rest = m.group(1), (m.group(2) or "").strip()
            if tag == "summary":
                doc.summary = rest
                current = ("summary",)
            elif tag == "param":
                # YARD allows the types before or after the name: `@param [String] name text`,
                # `@param name [String] text`
                name, _, desc = _without_types(rest).partition(" ")
                desc = _without_types(desc)
                name = name.lstrip("$")
                doc.params[name] = desc.strip()
                current = ("param", name)
            elif tag == "return":
                doc.returns = rest
                current = ("return",)
            else:
                current = ("other",)
            continue
        line = raw.strip()
        if current is not None and line and raw.startswith(("  ", "\t")):
            if current[0] == "param":
                doc.params[current[1]] = (doc.params[current[1]] + " " + line).strip()
            elif current[0] == "summary":
                doc.summary = (doc.summary + " " + line).strip()
            elif current[0] == "return":
                doc.returns = (doc.returns + " " + line).strip()
            continue
        if current is not None and current[0] == "other" and line:
            continue
        current = None
        text_lines.append(raw)
    doc.text = "\n".join(text_lines).strip()
    return doc
