"""Offsets to lines and columns (and back) for one revision of a text."""
from __future__ import annotations

import bisect


class LineIndex:
    """Line starts of a text, computed once; positions are 0-based (line, column) in code
    points.  The server converts columns to UTF-16 or UTF-8 units at its edge."""
    __slots__ = ("text", "starts")

    def __init__(self, text: str):
        self.text = text
        starts = [0]
        find = text.find
        i = find("\n")
        while i >= 0:
            starts.append(i + 1)
            i = find("\n", i + 1)
        self.starts = starts

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
