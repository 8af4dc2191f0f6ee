"""Locate and load the shared Puppet corpus for the benchmarks (one place, so every benchmark
reads the same files in the same order)."""
from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# The shared material sits beside the checkout (../shared); PUPPET_LS_CORPUS overrides the list.
DEFAULT_LIST = REPO.parent / "shared" / "corpus" / "corpus_files.txt"
ORACLE_DIR = REPO.parent / "shared" / "oracle"


def corpus_list_path(explicit: str | None = None) -> Path:
    return Path(explicit or os.environ.get("PUPPET_LS_CORPUS") or DEFAULT_LIST)


def corpus_files(explicit: str | None = None) -> list[str]:
    """The corpus paths that exist on this machine, in the list's order (empty if none)."""
    lst = corpus_list_path(explicit)
    if not lst.is_file():
        return []
    paths = [line.strip() for line in lst.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [p for p in paths if os.path.isfile(p)]


def read_texts(paths: list[str]) -> list[str]:
    # newline="" keeps '\r\n' as is: the parser must see exactly the bytes Puppet sees.
    out = []
    for p in paths:
        with open(p, encoding="utf-8", newline="") as f:
            out.append(f.read())
    return out


def count_lines(text: str) -> int:
    """Lines as an editor counts them: a last line without a line break still counts."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def engine_line() -> str:
    """Which syntax engine this run measures (compiled by tools/compile.sh, or the sources;
    PUPPET_LS_PURE_PYTHON=1 forces the sources): printed by every speed benchmark."""
    from puppet_ls.language.syntax import ENGINE
    return f"syntax engine: {ENGINE.describe()}"
