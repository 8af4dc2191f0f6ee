"""The built-in fact sets previews evaluate with: realistic facts of a Debian 12, Ubuntu 24.04,
RHEL 9 and Windows Server 2022 node, structured and legacy, as ``facter --json`` and Puppet 7
give them to manifests.

Reads ``factsets.json`` (written by ``tools/facts/factsets.py`` from a real Debian 12's
``facter --json``, the other systems derived from it; every set agrees with Facter's schema in
``facts.json``) once, on first use.  Callers get a fresh copy they may change.
"""
from __future__ import annotations

import copy
import json
from functools import cache
from importlib import resources

DATA_FILE = "factsets.json"


@cache
def _data() -> dict:
    raw = json.loads(resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8"))
    return raw["sets"]


def fact_set_names() -> tuple[str, ...]:
    """The names of the built-in sets, in the order they are offered."""
    return tuple(_data())


def fact_set(name: str) -> dict | None:
    """A copy of the built-in set ``name`` (None when there is no such set)."""
    found = _data().get(name)
    return copy.deepcopy(found) if found is not None else None
