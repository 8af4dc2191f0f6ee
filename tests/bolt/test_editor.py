"""Bolt in the editor: each fixtures/bolt/editor/*.pp holds one cursor (``‸``) and, on its
first line, the path it stands for inside fixtures/bolt/modulepath (a plan, a helper function,
a class); its .expect file holds the hover, signature help, definition and completion at the
cursor against the index of that modulepath (UPDATE_EXPECT=1 rewrites them)."""
from __future__ import annotations

from pathlib import Path

import pytest

from puppet_ls.language.check import analyze
from puppet_ls.language.ide.completion import complete
from puppet_ls.language.ide.diagnostics import parse_for_path
from puppet_ls.language.ide.hover import hover
from puppet_ls.language.ide.navigation import definition
from puppet_ls.language.ide.signature import signature_help
from puppet_ls.server.workspace import build_index
from tests.expect import assert_expected

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "bolt"
CASES = sorted((FIXTURES / "editor").glob("*.pp"))
CURSOR = "‸"
_INDEX: dict = {}


def index():
    if "i" not in _INDEX:
        _INDEX["i"] = build_index([], [str(FIXTURES / "modulepath")])
    return _INDEX["i"]


def check(case: Path) -> str:
    raw = case.read_text(encoding="utf-8")
    offset = raw.index(CURSOR)
    text = raw.replace(CURSOR, "")
    virtual = raw.split("\n", 1)[0].removeprefix("# path: ").strip()
    an = analyze(parse_for_path(text, str(FIXTURES / "modulepath" / virtual)), index())
    out = ["== hover"]
    h = hover(an, offset, values=False)
    out.append(h.markdown if h is not None else "(none)")
    out.append("== signature help")
    s = signature_help(an, offset)
    if s is not None:
        for i, sig in enumerate(s.signatures):
            mark = "*" if i == s.active_signature else " "
            out.append(f"{mark} {getattr(sig, 'label', sig)} (parameter {s.active_parameter})")
    out.append("== definition")
    root = FIXTURES / "modulepath"
    for loc in definition(an, offset):
        out.append(str(Path(loc.path).relative_to(root)) if loc.path else f"this file @{loc.start}")
    out.append("== completion")
    items = complete(an, offset)
    typed = text[min((i.edit_start for i in items if i.edit_start >= 0), default=offset):offset]
    shown = [i for i in items if i.label.startswith(typed) and i.kind in ("function", "type", "task", "attribute")]
    for i in shown[:12]:
        out.append(f"{i.kind} {i.label}: {i.detail}")
    if len(shown) > 12:
        out.append(f"… {len(shown) - 12} more")
    return "\n".join(out).replace(str(FIXTURES), "<fixtures/bolt>") + "\n"


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_editor(case: Path) -> None:
    assert_expected(case.with_suffix(".expect"), check(case))
