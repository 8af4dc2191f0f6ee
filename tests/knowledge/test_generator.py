"""The committed language/knowledge/resource_types.json is what tools/resource_types/generate.py
produces from the installed Puppet (regenerate with ``python3 tools/resource_types/generate.py``)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.knowledge.differential import puppet_available

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.oracle


def _generator():
    spec = importlib.util.spec_from_file_location("generate_resource_types", ROOT / "tools/resource_types/generate.py")
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
