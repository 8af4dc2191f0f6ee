"""Semantic tokens computed with the memo of the revision before (the statements an edit did not
touch are not walked again) equal those computed from nothing, over random edits of the bundled
example's manifests, of the editor demo file and of a definition under a long documentation
comment (whose comments the memo keeps as a run), and of the corpus's largest manifest when the
corpus is installed."""
from __future__ import annotations

from pathlib import Path

import pytest

from puppet_ls.language.check import analyze
from puppet_ls.language.ide.semantic_tokens import TokenMemo, semantic_tokens
from puppet_ls.language.syntax.incremental import reparse
from puppet_ls.language.syntax.parser import parse
from tests.corpus import corpus_files
from tests.edits import undoing_edits
from tests.syntax.test_wide_nodes import TEXTS

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "examples").rglob("*.pp")) + [ROOT / "tests" / "editors" / "demo.pp"]
EDITS = ["x", "$a", " ", "\n", "'", '"', "{", "}", "$x = 1\n", "(", "=>", "# c\n", "if $y { }\n"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_memo_gives_the_same_tokens(path: Path) -> None:
    _check(path.read_text(encoding="utf-8"), path.name)


def test_memo_gives_the_same_tokens_under_a_long_comment() -> None:
    _check(TEXTS["define"], "define")
    # typing a line into the body, one character a keystroke: the comment is reused as a run
    result = parse(TEXTS["define"])
    memo = TokenMemo()
    semantic_tokens(analyze(result), memo=memo)
    at = result.text.index("  if $p40")
    reused = 0
    for ch in "  $t = \"${p1}x\".upcase + 'y' # c\n":
        result = reparse(result, at, at, ch)
        at += 1
        an = analyze(result)
        runs = dict(memo.runs)
        assert semantic_tokens(an, memo=memo) == semantic_tokens(an), at
        reused += sum(1 for k, v in memo.runs.items() if runs.get(k) is v)
    assert reused, "the documentation comment was never reused as a run"


def test_memo_gives_the_same_tokens_on_the_largest_corpus_manifest() -> None:
    files = sorted((f for f in corpus_files() if f.endswith(".pp")), key=lambda f: -Path(f).stat().st_size)
    if not files:
        pytest.skip("the corpus is not installed (bash ../shared/corpus/corpus.sh)")
    _check(Path(files[1 if len(files) > 1 else 0]).read_text(encoding="utf-8", errors="replace"), "corpus")


def _check(text: str, seed: str) -> int:
    """Random edits of ``text``, each taken back at the next step three times in four (so the
    file stays mostly whole and most statements are shared); how often a run was reused."""
    first = parse(text)
    memo = TokenMemo()
    semantic_tokens(analyze(first), memo=memo)
    reused = 0
    for at, end, piece, result in undoing_edits(first, seed, EDITS, 40):
        an = analyze(result)
        runs = dict(memo.runs)
        assert semantic_tokens(an, memo=memo) == semantic_tokens(an), (at, end, piece)
        reused += sum(1 for k, v in memo.runs.items() if runs.get(k) is v)
    assert memo.entries, "the memo was never filled"
    return reused
