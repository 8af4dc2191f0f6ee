"""Data-driven tests of the call hierarchy and of type definition: each folder of
fixtures/lsp/calls is a small workspace (the format of fixtures/lsp/navigation: ``‸`` marks a
cursor).  The folder's .expect file holds, for every cursor, the items prepareCallHierarchy
names, their incoming calls (grouped by caller, with the call ranges) and outgoing calls, and
the type definition there (``file:line:col``).  Regenerate with UPDATE_EXPECT=1."""
from __future__ import annotations

from pathlib import Path

import pytest

from puppet_ls.language.ide import calls, navigation
from tests.expect import assert_expected

from .test_navigation_fixtures import Workspace

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lsp" / "calls"
CASES = sorted(p for p in FIXTURES.iterdir() if p.is_dir())


def _item(ws: Workspace, item: calls.CallItem, this: str) -> str:
    where = "built-in" if item.builtin else ws.pos(item.path, item.sel_start, this)
    return f"{item.kind} {item.name} @ {where}"


def _calls(ws: Workspace, found: list, this: str, by_caller: bool) -> list:
    out = []
    # incoming calls in file order of their callers; outgoing ones as answered (first called first)
    for c in sorted(found, key=lambda c: (c.path or this, c.item.start)) if by_caller else found:
        out.append(f"    {_item(ws, c.item, this)}: " + ", ".join(ws.pos(c.path, s, this) for s, _ in c.ranges))
    return out


def check(root: Path) -> str:
    ws = Workspace(root)
    out = []
    for path, offset, _ in ws.cursors:
        an = ws.analysis(path)
        out.append(f"== {ws.pos(None, offset, path)}")
        for item in calls.prepare(an, offset, ws.source, path):
            out.append(f"  item: {_item(ws, item, path)}")
            out.append("  incoming:")
            out += _calls(ws, calls.incoming(item, ws.index, ws.source, an, path), path, True)
            out.append("  outgoing:")
            out += _calls(ws, calls.outgoing(item, ws.index, ws.source, an, path), path, False)
        out.append("typeDefinition: " + ws.locs(navigation.type_definition(an, offset, ws.source, path), path))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("root", CASES, ids=[p.name for p in CASES])
def test_calls(root: Path) -> None:
    assert_expected(root.with_name(root.name + ".expect"), check(root))
