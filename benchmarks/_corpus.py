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


def packaged_external_facts() -> list[str]:
    """The external fact files that the corpus's Debian module packages install.  Debian moves
    a module's ``facts.d`` folder (which Puppet's pluginsync would give every agent) to
    ``/etc/facter/facts.d``; ``dpkg -L`` of the packages listed beside the corpus names them
    (empty without the list or dpkg)."""
    import shutil
    import subprocess
    lst = corpus_list_path().parent / "corpus_packages.txt"
    if not lst.is_file() or shutil.which("dpkg") is None:
        return []
    packages = [line.split()[0] for line in lst.read_text(encoding="utf-8").splitlines()
                if line.startswith("puppet-module-")]
    listed = subprocess.run(["dpkg", "-L", *packages], capture_output=True, text=True, check=False).stdout
    return sorted(p for p in listed.splitlines()
                  if p.startswith("/etc/facter/facts.d/") and os.path.isfile(p))
