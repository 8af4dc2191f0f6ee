"""Expected-output files for data-driven tests: compare, or rewrite with UPDATE_EXPECT=1; and
fixture files that mark cursor positions with ‸."""
from __future__ import annotations

import os
from pathlib import Path

UPDATE = os.environ.get("UPDATE_EXPECT") == "1"


def assert_expected(path: Path, actual: str) -> None:
    """Compare ``actual`` with the file at ``path``; with UPDATE_EXPECT=1, rewrite the file."""
    if UPDATE:
        path.write_text(actual, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing; run with UPDATE_EXPECT=1 to create it"
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, f"output differs from {path} (run with UPDATE_EXPECT=1 to accept)"


CURSOR = "‸"


def read_marked(path: Path) -> tuple[str, list[int]]:
    """The text of a fixture file without its CURSOR marks, and the offsets where they stood."""
    parts = path.read_text(encoding="utf-8").split(CURSOR)
    cursors = []
    text = ""
    for p in parts[:-1]:
        text += p
        cursors.append(len(text))
    return text + parts[-1], cursors
