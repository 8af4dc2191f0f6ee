"""Random edits of a parsed file, most of them taken back at the next step (so the file stays
mostly whole and most statements are shared by the revisions): for the tests that compare what
is kept across incremental reparses with a fresh computation."""
from __future__ import annotations

import random
from collections.abc import Iterator

from puppet_ls.language.syntax.incremental import reparse
from puppet_ls.language.syntax.parser import ParseResult


def undoing_edits(result: ParseResult, seed: str, pieces: list, steps: int) -> Iterator[tuple]:
    """(at, end, piece, reparsed result) for ``steps`` edits of ``result``: three times in four
    the previous edit is taken back, else ``text[at:end]`` becomes one of ``pieces``."""
    rnd = random.Random(seed)
    undo = None
    for _ in range(steps):
        if undo is not None and rnd.random() < 0.75:
            at, end, piece = undo
            undo = None
        else:
            at = rnd.randrange(len(result.text) + 1)
            end = min(len(result.text), at + rnd.choice([0, 0, 1, 3]))
            piece = rnd.choice(pieces)
            undo = (at, at + len(piece), result.text[at:end])
        result = reparse(result, at, end, piece)
        yield at, end, piece, result
