"""The VS Code extension declares every server setting, with the server's own defaults, types and
ranges (server/settings.py is the source of truth), so what the Settings editor shows is what
the server does."""
from __future__ import annotations

import dataclasses
import json

import pytest

from tests.editors.common import REPO

settings_mod = pytest.importorskip("puppet_ls.server.settings")
MANIFEST = json.loads((REPO / "vscode-extension" / "package.json").read_text())
PROPS = MANIFEST["contributes"]["configuration"]["properties"]
CLIENT_ONLY = {"puppet-ls.server.path", "puppet-ls.server.pythonPath", "puppet-ls.server.args", "puppet-ls.trace.server"}


def server_keys() -> dict[str, str]:
    return {"puppet-ls." + ".".join(path): field for path, field in settings_mod._KEYS.items()}


def test_every_server_setting_is_declared_and_nothing_else():
    assert set(PROPS) - CLIENT_ONLY == set(server_keys())


@pytest.mark.parametrize("key", sorted(server_keys()))
def test_default_type_and_range_match_the_server(key):
    field = server_keys()[key]
    default = getattr(settings_mod.DEFAULTS, field)
    prop = PROPS[key]
    if isinstance(default, tuple):
        assert prop["type"] == "array" and prop["default"] == list(default)
    elif isinstance(default, dict):
        assert prop["type"] == "object" and prop["default"] == default
    elif isinstance(default, bool):
        assert prop["type"] == "boolean" and prop["default"] is default
    elif isinstance(default, int):
        assert prop["type"] == "integer" and prop["default"] == default
        lo, hi = settings_mod._RANGES.get(field, (None, None))
        assert (prop.get("minimum"), prop.get("maximum")) == (lo, hi)
    else:
        assert prop["type"] == "string" and prop["default"] == default
        assert tuple(prop.get("enum", ())) == settings_mod._CHOICES.get(field, ())
    assert field in {f.name for f in dataclasses.fields(settings_mod.Settings)}


def test_declared_defaults_are_accepted_by_the_server():
    nested: dict = {}
    for key in server_keys():
        node = nested
        parts = key.removeprefix("puppet-ls.").split(".")
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        node[parts[-1]] = PROPS[key]["default"]
    settings, problems = settings_mod.parse_settings({"puppet": nested})
    assert problems == []
    assert settings == settings_mod.DEFAULTS


def test_no_setting_is_machine_scoped():
    """Machine-scoped settings are ignored in remote windows when set in User settings (they
    only show under the Remote tab, and 'Open Settings' finds nothing): every setting is
    window- or resource-scoped."""
    scopes = {key: prop.get("scope", "window") for key, prop in PROPS.items()}
    assert {k: s for k, s in scopes.items() if s not in ("window", "resource")} == {}
