"""Refactors as data: each fixtures/lsp/refactors/*.pp marks a selection with «…» or a cursor
with ‸ (removed before analysis); the .expect file holds each refactor offered there (title,
kind) with the text its edits make, and the findings that text has and the original had not
(none, for a refactor that only restructures).  Regenerate with UPDATE_EXPECT=1."""
from __future__ import annotations

from pathlib import Path

import pytest

from puppet_ls.language.check import analyze
from puppet_ls.language.ide.code_actions import refactors
from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.language.lint import default_enabled
from tests.expect import assert_expected
from tests.lsp.test_code_action_data import edited

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lsp" / "refactors"
CASES = sorted(FIXTURES.glob("*.pp"))


def _findings(text: str) -> list:
    return [f"{d.code}: {d.message}" for d in file_diagnostics(parse_for_path(text, ""), None, lint=default_enabled())]


def check(path: Path) -> str:
    raw = path.read_text(encoding="utf-8")
    if "‸" in raw:
        start = end = raw.index("‸")
        text = raw.replace("‸", "")
    else:
        start = raw.index("«")
        end = raw.index("»") - 1
        text = raw.replace("«", "").replace("»", "")
    an = analyze(parse_for_path(text, str(path)))
    before = _findings(text)
    out = []
    for a in refactors(an, start, end):
        new = edited(text, a.edits)
        out += [f"== {a.title} [{a.kind}]", new.rstrip("\n")]
        added = [f for f in _findings(new) if f not in before]
        out.append("-- new findings: " + ("; ".join(added) if added else "none"))
    return "\n".join(out or ["== nothing offered"]) + "\n"


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_refactors(path: Path) -> None:
    assert_expected(path.with_name(path.name + ".expect"), check(path))
