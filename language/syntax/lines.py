"""Offsets to lines and columns (and back) for one revision of a text."""
from __future__ import annotations

import bisect
from itertools import accumulate


class LineIndex:
    """Line starts of a text, computed once; positions are 0-based (line, column) in code
    points.  The server converts columns to UTF-16 or UTF-8 units at its edge."""
    __slots__ = ("text", "starts")

    def __init__(self, text: str):
        self.text = text
        # each line's start is the previous one's plus its length and the '\n' (split and
        # accumulate run in C: `check` builds one per reported file, thousands in a run)
        starts = [0]
        starts += accumulate(len(line) + 1 for line in text.split("\n"))
        starts.pop()
        self.starts = starts

    def edited(self, start: int, old_end: int, piece: str, text: str) -> LineIndex:
        """The index of ``text``, which is this index's text with [start, old_end) replaced
        by ``piece``: the line starts before the edit are kept, those after it moved, and only
        ``piece`` is searched for line ends (an editor sends one per keystroke, and finding
        every line end of a large file again costs more than the keystroke's reparse)."""
        starts = self.starts
        i = bisect.bisect_right(starts, start)
        j = bisect.bisect_right(starts, old_end, i)
        delta = len(piece) - (old_end - start)
        new = starts[:i]
        find = piece.find
        k = find("\n")
        while k >= 0:
            new.append(start + k + 1)
            k = find("\n", k + 1)
        new += [s + delta for s in starts[j:]] if delta else starts[j:]
        out = LineIndex.__new__(LineIndex)
        out.text = text
        out.starts = new
        return out

    def position(self, offset: int) -> tuple[int, int]:
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.starts, offset) - 1
        return line, offset - self.starts[line]

    def offset(self, line: int, column: int) -> int:
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.text)
        start = self.starts[line]
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.text)
        return min(start + max(column, 0), end)

    def line_text(self, line: int) -> str:
        start = self.starts[line]
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.text)
        return self.text[start:end]

    @property
    def line_count(self) -> int:
        return len(self.starts)


class KnownPositions:
    """The (line, column) of chosen offsets of a text, as ``LineIndex.position`` gives them,
    found by counting line ends from one offset to the next in order (``str.count`` runs in C):
    a report of a few findings in each of thousands of files wants a few positions of each, and
    a ``LineIndex`` makes a Python object per line of the file to answer them."""
    __slots__ = ("found",)

    def __init__(self, text: str, offsets) -> None:
        found: dict = {}
        line = 0
        counted = 0
        size = len(text)
        for offset in sorted(set(offsets)):
            at = max(0, min(offset, size))
            line += text.count("\n", counted, at)
            counted = at
            found[offset] = (line, at - (text.rfind("\n", 0, at) + 1))
        self.found = found

    def position(self, offset: int) -> tuple[int, int]:
        return self.found[offset]
