"""LSP positions <-> offsets for one revision of a document, in the negotiated encoding.

The language library speaks in code-point offsets; LSP positions count UTF-16 code units by
default, or UTF-8 bytes / code points when negotiated.  Conversion goes through the revision's
``LineIndex`` (line starts computed once per revision, never by re-splitting the text per
request); ASCII lines, the common case, need no counting at all.
"""
from __future__ import annotations

from puppet_ls.language.syntax.lines import LineIndex

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def units(s: str, encoding: str) -> int:
    """The length of ``s`` in an LSP position encoding's units."""
    if encoding == UTF32 or s.isascii():
        return len(s)
    if encoding == UTF8:
        return len(s.encode("utf-8", errors="surrogatepass"))
    return len(s) + sum(1 for ch in s if ord(ch) > 0xFFFF)


class PositionCodec:
    """Converts between offsets and (line, character) for one text in one encoding."""

    __slots__ = ("index", "encoding")

    def __init__(self, index: LineIndex, encoding: str = UTF16):
        self.index = index
        self.encoding = encoding

    def position(self, offset: int) -> tuple:
        line, col = self.index.position(offset)
        if col == 0 or self.encoding == UTF32:
            return line, col
        start = self.index.starts[line]
        return line, units(self.index.text[start:start + col], self.encoding)

    def offset(self, line: int, character: int) -> int:
        """The offset of a position; positions past the end of a line or of the text are
        clamped (clients send those, e.g. at the end of the file)."""
        index = self.index
        if line < 0:
            return 0
        if line >= len(index.starts):
            return len(index.text)
        start = index.starts[line]
        end = index.starts[line + 1] - 1 if line + 1 < len(index.starts) else len(index.text)
        character = max(character, 0)
        text = index.text
        if self.encoding == UTF32:
            return min(start + character, end)
        seg = text[start:end]
        if seg.isascii():
            return min(start + character, end)
        counted = 0
        for i, ch in enumerate(seg):
            if counted >= character:
                return start + i
            counted += units(ch, self.encoding)
        return end

    def range(self, start: int, end: int) -> tuple:
        return self.position(start), self.position(end)
