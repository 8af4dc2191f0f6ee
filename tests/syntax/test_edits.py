"""Random edits (seeded): parsing never raises, the text always round-trips, and an
incremental reparse gives exactly the tree and errors of a full parse."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from puppet_ls.language.syntax.incremental import reparse
from puppet_ls.language.syntax.parser import parse
from puppet_ls.language.syntax.validate import validate
from tests.corpus import corpus_files

FIXTURES = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "syntax").glob("*.pp"))
SNIPPETS = ["", "x", "{", "}", "'", '"', "$a = 1\n", ",", "=>", "(", ")", " ", "\n", "[", "]", "#",
            "@(E)", "|", "-> ", "foo(", "if $x {", "1", "${", "/*", "*/", "<|", "\\", "::", "é"]


def sources(count: int, seed: int) -> list[str]:
    files = corpus_files()
    rnd = random.Random(seed)
    chosen = rnd.sample(files, min(count, len(files))) if files else []
    return [Path(f).read_text(encoding="utf-8") for f in chosen] + [p.read_text(encoding="utf-8") for p in FIXTURES]


def signature(result):
    return [(e.offset, e.end, e.code, e.message) for e in result.errors]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_random_edits(seed: int) -> None:
    rnd = random.Random(seed)
    mismatches = []
    for text in sources(60, seed):
        old = parse(text)
        for _ in range(12):
            a = rnd.randrange(len(text) + 1)
            b = min(len(text), a + rnd.choice([0, 0, 1, 2, 5]))
            ins = rnd.choice(SNIPPETS)
            new_text = text[:a] + ins + text[b:]
            full = parse(new_text)
            assert full.green.text() == new_text
            validate(full)   # must not raise either
            inc = reparse(old, a, b, ins)
            if inc.green != full.green or signature(inc) != signature(full):
                mismatches.append((a, b, ins, new_text[max(0, a - 40):a + 40]))
            old, text = full, new_text
    assert not mismatches, mismatches[:5]
