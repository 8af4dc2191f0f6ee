"""Which engine runs the syntax modules: the extension modules that `tools/compile.sh` builds
from them with mypyc, or their Python sources.

The compiled modules call one another directly, not through ``sys.modules``, so they are used
all together or not at all: only when every one of them was built from the very source beside
it (the build writes the sources' hashes to a manifest) and ``PUPPET_LS_PURE_PYTHON`` is not
set.  Otherwise an import hook loads the sources, so that an edited source is never shadowed by
a stale extension.  ``syntax/__init__.py`` imports this module before any compiled one.
"""
from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.machinery import (EXTENSION_SUFFIXES, SOURCE_SUFFIXES, ExtensionFileLoader,
                                 FileFinder, ModuleSpec, SourceFileLoader)
from types import ModuleType

PACKAGE = __name__.rpartition(".")[0]
# The modules tools/compile.sh compiles (its list is read from here), in dependency order.
COMPILED = ("kinds", "tree", "lexer", "parser", "ast", "validate")
# Written by tools/compile.sh beside the extensions: one "module sha256-of-its-source" a line.
MANIFEST = "_compiled.txt"
PURE_ENV = "PUPPET_LS_PURE_PYTHON"


@dataclass(frozen=True, slots=True)
class Engine:
    compiled: bool
    reason: str = ""     # why the sources run (when not compiled)

    def describe(self) -> str:
        return "compiled (mypyc)" if self.compiled else f"pure Python ({self.reason})"


def source_hash(source: bytes) -> str:
    return hashlib.sha256(source).hexdigest()


def decide(pure_env: str, built: Sequence[str], manifest: str | None,
           sources: Mapping[str, bytes]) -> Engine:
    """The engine, from the environment variable's value, the modules that have an extension
    module beside them, the manifest's text (None: none was written) and the sources."""
    if not built:
        return Engine(False, "not compiled; tools/compile.sh builds it")
    if pure_env not in ("", "0"):
        return Engine(False, f"{PURE_ENV} is set")
    missing = [m for m in COMPILED if m not in built]
    if missing or manifest is None:
        return Engine(False, "incomplete build: run tools/compile.sh again")
    hashes = dict(line.split() for line in manifest.splitlines() if len(line.split()) == 2)
    stale = [m for m in COMPILED if hashes.get(m) != source_hash(sources[m])]
    if stale:
        return Engine(False, f"{', '.join(m + '.py' for m in stale)} changed since tools/compile.sh")
    return Engine(True)


class _SourcesOnly:
    """A meta path finder that loads the compiled modules from their ``.py`` sources."""

    def __init__(self, directories: list[str]) -> None:
        self.directories = directories

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != PACKAGE or name not in COMPILED:
            return None
        for d in self.directories:
            spec = FileFinder(d, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(fullname)
            if spec is not None:
                return spec
        return None


def _select() -> Engine:
    directories = list(sys.modules[PACKAGE].__path__)
    built = [m for m in COMPILED
             if any(FileFinder(d, (ExtensionFileLoader, EXTENSION_SUFFIXES)).find_spec(f"{PACKAGE}.{m}")
                    for d in directories)]
    if not built:
        return decide(os.environ.get(PURE_ENV, ""), built, None, {})
    files = resources.files(PACKAGE)
    manifest_file = files.joinpath(MANIFEST)
    manifest = manifest_file.read_text(encoding="utf-8") if manifest_file.is_file() else None
    sources = {m: files.joinpath(m + ".py").read_bytes() for m in COMPILED}
    engine = decide(os.environ.get(PURE_ENV, ""), built, manifest, sources)
    if not engine.compiled:
        sys.meta_path.insert(0, _SourcesOnly(directories))
    return engine


ENGINE = _select()
