"""The built-in fact sets (language/knowledge/factsets.json) agree with Facter's schema
(facts.json): every fact and every element the schema describes exists there with the schema's
type, and each set's legacy facts are the ones its structured facts imply."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from puppet_ls.language.knowledge import facts as schema
from puppet_ls.language.knowledge.factsets import fact_set, fact_set_names

ROOT = Path(__file__).resolve().parents[2]
_PYTHON_TYPES = {"string": str, "ip": str, "ip6": str, "mac": str, "integer": int, "double": float,
                 "boolean": bool, "array": list, "map": dict}


def _generator():
    spec = importlib.util.spec_from_file_location("factsets_gen", ROOT / "tools" / "facts" / "factsets.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _mismatches(value, fact, path: str) -> list:
    want = _PYTHON_TYPES.get(fact.type)
    if want is not None and not (isinstance(value, want) and not (want is int and isinstance(value, bool))):
        return [f"{path}: {type(value).__name__}, the schema says {fact.type}"]
    out = []
    if isinstance(value, dict) and fact.elements:
        for k, v in value.items():
            sub = fact.element(k)
            if sub is None:
                out.append(f"{path}.{k}: not in the schema")
            else:
                out.extend(_mismatches(v, sub, f"{path}.{k}"))
    return out


def test_the_four_sets_exist() -> None:
    assert fact_set_names() == ("debian12", "ubuntu2404", "rhel9", "windows2022")
    assert fact_set("nosuchset") is None


@pytest.mark.parametrize("name", fact_set_names())
def test_every_fact_has_the_schema_type(name: str) -> None:
    problems = []
    for k, v in (fact_set(name) or {}).items():
        f = schema.fact(k)
        if f is None:
            problems.append(f"{k}: not a fact of the schema")
        else:
            problems.extend(_mismatches(v, f, k))
    assert problems == []


@pytest.mark.parametrize("name", fact_set_names())
def test_legacy_facts_follow_the_structured_ones(name: str) -> None:
    facts = fact_set(name) or {}
    structured = {k: v for k, v in facts.items() if not (schema.fact(k) and schema.fact(k).legacy)}
    assert _generator().with_legacy(structured) == facts


@pytest.mark.parametrize("name,family,kernel", [("debian12", "Debian", "Linux"), ("ubuntu2404", "Debian", "Linux"),
                                                ("rhel9", "RedHat", "Linux"), ("windows2022", "windows", "windows")])
def test_the_systems_are_what_they_say(name: str, family: str, kernel: str) -> None:
    facts = fact_set(name) or {}
    assert (facts["os"]["family"], facts["osfamily"], facts["kernel"]) == (family, family, kernel)


def test_copies_are_independent() -> None:
    a = fact_set("debian12")
    assert a is not None
    a["os"]["family"] = "changed"
    assert (fact_set("debian12") or {})["os"]["family"] == "Debian"
