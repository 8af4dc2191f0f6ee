"""Semantic tokens computed with the memo of the revision before (the statements an edit did not
touch are not walked again) equal those computed from nothing, over random edits of the bundled
example's manifests and of the editor demo file."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from puppet_ls.language.check import analyze
from puppet_ls.language.ide.semantic_tokens import TokenMemo, semantic_tokens
from puppet_ls.language.syntax.incremental import reparse
from puppet_ls.language.syntax.parser import parse

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "examples").rglob("*.pp")) + [ROOT / "tests" / "editors" / "demo.pp"]
EDITS = ["x", "$a", " ", "\n", "'", '"', "{", "}", "$x = 1\n", "(", "=>", "# c\n", "if $y { }\n"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_memo_gives_the_same_tokens(path: Path) -> None:
    rnd = random.Random(path.name)
    result = parse(path.read_text(encoding="utf-8"))
    memo = TokenMemo()
    semantic_tokens(analyze(result), memo=memo)
    for _ in range(40):
        at = rnd.randrange(len(result.text) + 1)
        end = min(len(result.text), at + rnd.choice([0, 0, 1, 3]))
        result = reparse(result, at, end, rnd.choice(EDITS))
        an = analyze(result)
        assert semantic_tokens(an, memo=memo) == semantic_tokens(an), (at, end)
    assert memo.entries, "the memo was never filled"
