"""Access to the real-world corpus (../shared/corpus), when it is installed."""
from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PUPPET_LS_SHARED", REPO.parent / "shared"))
LIST = SHARED / "corpus" / "corpus_files.txt"


def corpus_files() -> list[str]:
    """The corpus file list written by corpus.sh (PUPPET_LS_CORPUS_LIST overrides where it
    is); empty when the corpus is not installed."""
    listing = Path(os.environ.get("PUPPET_LS_CORPUS_LIST", LIST))
    if not listing.exists():
        return []
    files = [line.strip() for line in listing.read_text().splitlines() if line.strip()]
    return [f for f in files if os.path.exists(f)]
