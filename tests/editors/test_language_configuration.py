"""The VS Code extension's Enter behaviour: which action VS Code takes when Enter is pressed at
a cursor, computed from `language-configuration.json` the way VS Code does (its onEnterRules
first, in order; then its bracket rule), against the cases of `on_enter_cases.txt`."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CONFIG = json.loads((HERE.parents[1] / "vscode-extension" / "language-configuration.json").read_text())


def cases() -> list[tuple[str, str, str]]:
    out = []
    for line in (HERE / "on_enter_cases.txt").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        text, expected = line.rsplit("\t", 1)
        before, after = text.split("|", 1)
        out.append((before, after, expected))
    return out


def on_enter(before: str, after: str) -> str:
    for rule in CONFIG["onEnterRules"]:
        if re.search(rule["beforeText"], before) and ("afterText" not in rule or re.search(rule["afterText"], after)):
            return rule["action"]["indent"]
    if any(before.rstrip().endswith(open_) for open_, _close in CONFIG["brackets"]):
        return "brackets"
    return "none"


@pytest.mark.parametrize("before,after,expected", cases(), ids=[b + "|" + a for b, a, _e in cases()])
def test_on_enter(before, after, expected):
    assert on_enter(before, after) == expected


def test_title_lines_increase_the_indent():
    """Re-indentation (paste, typing) agrees with Enter: a resource title line opens a body."""
    pattern = CONFIG["indentationRules"]["increaseIndentPattern"]
    for before, _after, expected in cases():
        if expected in ("indent", "indentOutdent"):
            assert re.search(pattern, before), before
