"""Which syntax engine runs: the choice between the compiled modules and their sources
(language/syntax/engine.py), and the modules actually loaded agreeing with it."""
from __future__ import annotations

import os
import subprocess
import sys
from importlib.machinery import ExtensionFileLoader

import pytest

from puppet_ls.language.syntax import ENGINE
from puppet_ls.language.syntax.engine import COMPILED, PACKAGE, PURE_ENV, decide, source_hash

SOURCES = {m: f"# {m}\n".encode() for m in COMPILED}
MANIFEST = "".join(f"{m} {source_hash(s)}\n" for m, s in SOURCES.items())

# (environment value, modules built, manifest, sources) -> (compiled, reason)
CASES = {
    "nothing built": ("", [], None, SOURCES, (False, "not compiled; tools/compile.sh builds it")),
    "forced pure": ("1", list(COMPILED), MANIFEST, SOURCES, (False, f"{PURE_ENV} is set")),
    "forced with 0 is not forced": ("0", list(COMPILED), MANIFEST, SOURCES, (True, "")),
    "one module not built": ("", list(COMPILED[1:]), MANIFEST, SOURCES,
                             (False, "incomplete build: run tools/compile.sh again")),
    "no manifest": ("", list(COMPILED), None, SOURCES, (False, "incomplete build: run tools/compile.sh again")),
    "a source edited since": ("", list(COMPILED), MANIFEST, {**SOURCES, "parser": b"# edited\n"},
                              (False, "parser.py changed since tools/compile.sh")),
    "every source as built": ("", list(COMPILED), MANIFEST, SOURCES, (True, "")),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_decide(name: str) -> None:
    env, built, manifest, sources, expected = CASES[name]
    engine = decide(env, built, manifest, sources)
    assert (engine.compiled, engine.reason) == expected


def test_the_loaded_modules_are_the_engine_chosen() -> None:
    kinds = {m: isinstance(sys.modules[f"{PACKAGE}.{m}"].__spec__.loader, ExtensionFileLoader)
             for m in COMPILED}
    assert kinds == dict.fromkeys(COMPILED, ENGINE.compiled)


def test_the_environment_forces_the_sources() -> None:
    code = ("import sys; from puppet_ls.language.syntax import ENGINE, parse; "
            "print(ENGINE.describe()); print(sys.modules[parse.__module__].__file__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, PURE_ENV: "1"}, timeout=60).stdout.splitlines()
    assert out[0].startswith("pure Python (")
    assert out[1].endswith("parser.py")
