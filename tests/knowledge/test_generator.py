"""The committed data files of language/knowledge/ are what their generators produce from the
installed Puppet: resource_types.json (``python3 tools/resource_types/generate.py``) and
functions.json (``python3 tools/functions/generate.py``), so the declarations every layer reads
are Puppet's own."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.knowledge.differential import puppet_available

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.oracle


def _generator(tool: str = "resource_types"):
    spec = importlib.util.spec_from_file_location(f"generate_{tool}", ROOT / "tools" / tool / "generate.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_data_file_is_generated() -> None:
    why = puppet_available()
    if why is not None:
        pytest.skip(f"the installed Puppet is needed: {why}")
    gen = _generator()
    assert gen.DATA_FILE.read_text(encoding="utf-8") == gen.generate(), \
        "resource_types.json differs from the installed Puppet: run python3 tools/resource_types/generate.py"


def test_function_declarations_are_generated() -> None:
    why = puppet_available()
    if why is not None:
        pytest.skip(f"the installed Puppet is needed: {why}")
    gen = _generator("functions")
    assert gen.DATA_FILE.read_text(encoding="utf-8") == gen.generate(), \
        "functions.json differs from the installed Puppet: run python3 tools/functions/generate.py"


def test_fact_catalogue_is_generated() -> None:
    """facts.json is what tools/facts/generate.py makes of the installed Facter's schema."""
    import json
    import shutil
    gen = _generator("facts")
    if not gen.DEFAULT_SCHEMA.exists() or shutil.which("ruby") is None or shutil.which("facter") is None:
        pytest.skip(f"Facter's schema ({gen.DEFAULT_SCHEMA}) and ruby are needed: apt-get install facter")
    assert json.loads(gen.OUT.read_text(encoding="utf-8")) == gen.generate(gen.DEFAULT_SCHEMA), \
        "facts.json differs from the installed Facter's schema: run python3 tools/facts/generate.py"
