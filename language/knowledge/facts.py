"""The one source of Facter's core facts for every layer: their names, types, descriptions,
which are legacy (flat) facts, and the elements of structured facts.

Reads ``facts.json`` (written by ``tools/facts/generate.py`` from the installed Facter's fact
schema) once, on first use.  The static checks (is a top-scope name a fact?), the
``legacy_facts`` lint check, hover and completion of ``$facts['…']`` all ask this module.
Names with a placeholder in the schema (``ipaddress_<interface>``) carry the schema's regular
expression, and match any name of that shape.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

DATA_FILE = "facts.json"


@dataclass(frozen=True, slots=True)
class Fact:
    name: str                      # as the schema writes it (a placeholder for a pattern)
    type: str                      # Facter's: string, integer, double, boolean, array, map, ip, ip6, mac
    description: str
    legacy: bool = False           # a flat fact of Facter 2 (hidden in Facter's output)
    pattern: re.Pattern | None = None
    elements: tuple[Fact, ...] = ()

    def element(self, key: str) -> Fact | None:
        return _find(self.elements, key)


def _build(name: str, raw: dict) -> Fact:
    pattern = re.compile(raw["pattern"]) if raw.get("pattern") else None
    return Fact(name, raw.get("type", ""), raw.get("description", ""), bool(raw.get("legacy")), pattern,
                tuple(_build(n, e) for n, e in (raw.get("elements") or {}).items()))


def _find(facts: tuple[Fact, ...], key: str) -> Fact | None:
    for f in facts:
        if f.pattern is None and f.name == key:
            return f
    for f in facts:
        if f.pattern is not None and f.pattern.search(key):
            return f
    return None


@cache
def _data() -> tuple[str, tuple[Fact, ...]]:
    raw = json.loads(resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8"))
    return raw.get("facter", ""), tuple(_build(n, e) for n, e in raw["facts"].items())


def facter_version() -> str:
    return _data()[0]


def core_facts() -> tuple[Fact, ...]:
    """Every top-level fact of the schema, in its order (placeholders included)."""
    return _data()[1]


def fact(name: str) -> Fact | None:
    """The top-level fact ``name`` (an exact name first, then a placeholder's pattern)."""
    return _find(_data()[1], name)


def fact_at(path: tuple[str, ...] | list[str]) -> Fact | None:
    """The fact at ``$facts[path[0]][path[1]]…`` (None when the schema does not know it)."""
    if not path:
        return None
    f = fact(path[0])
    for key in path[1:]:
        if f is None:
            return None
        f = f.element(key)
    return f


def children(path: tuple[str, ...] | list[str]) -> tuple[Fact, ...]:
    """What ``$facts`` (empty path) or the structured fact at ``path`` holds, by name: the keys
    completion offers (placeholders left out: they are not names one can type as such)."""
    if not path:
        found: tuple[Fact, ...] = core_facts()
    else:
        at = fact_at(path)
        found = at.elements if at is not None else ()
    return tuple(f for f in found if f.pattern is None)


@cache
def legacy_fact_names() -> frozenset[str]:
    return frozenset(f.name for f in core_facts() if f.legacy and f.pattern is None)


@cache
def legacy_fact_patterns() -> tuple[re.Pattern, ...]:
    return tuple(f.pattern for f in core_facts() if f.legacy and f.pattern is not None)
