"""Built-in functions are declared once (language/knowledge/functions.py, generated from the
installed Puppet) and the evaluator's library only implements them: every implementation has a
declaration and every declaration an implementation, with the declared documentation and sandbox
status, and the dispatches the library implements are the declared signatures.  The few places
where the library knowingly differs from Puppet are listed below with their reason, and the
list cannot go stale (a listed function that stops differing fails too)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from puppet_ls.language.eval import all_functions
from puppet_ls.language.eval.typetext import TypeTextError, type_from_text
from puppet_ls.language.knowledge.functions import SUFFIXES, functions, overlay_names
from puppet_ls.language.types.format import type_to_string

GRAMMAR = Path(__file__).resolve().parents[2] / "vscode-extension" / "syntaxes" / "puppet.tmLanguage.json"

# Function -> why the library's dispatches are not Puppet 7.23's declared ones.
KNOWN_DEVIATIONS = {
    "upcase": "Puppet's parameter type is a recursive local alias (StringData); the library "
              "writes the non-recursive approximation Array[Variant[String, Numeric, Array, Hash]]",
    "downcase": "as upcase",
    "max": "also compares SemVer, Timespan and Timestamp values, as Puppet 8 does "
           "(conformance cases expect it)",
    "min": "as max",
    "getvar": "three dispatches with a stricter navigation pattern, so that a malformed name is "
              "reported with Puppet's texts rather than as a type mismatch",
}


def _type(text: str) -> str:
    try:
        return type_to_string(type_from_text(text))
    except TypeTextError:
        return text


def _implemented(fn) -> list:
    out = []
    for d in fn.dispatches:
        params = []
        for text in d.param_texts:
            t, _, name = text.rpartition(" ")
            params.append(f"{_type(t or 'Any')} {name}")
        block = None
        if d.block_text:
            t, _, name = d.block_text.rpartition(" ")
            block = f"{_type(t)} {name}"
        out.append((tuple(params), block))
    return out


def _declared(facts) -> list:
    return [(tuple(f"{_type(p.type)} {p.name}{SUFFIXES[p.kind]}" for p in d.params),
             f"{_type(d.block.type)} {d.block.name}{'?' if d.block.optional else ''}" if d.block else None)
            for d in facts.dispatches]


def test_one_implementation_per_declaration() -> None:
    implemented, declared = set(all_functions()), set(functions())
    assert not implemented - declared, f"implemented but not declared: {sorted(implemented - declared)}"
    assert not declared - implemented, f"declared but not implemented: {sorted(declared - implemented)}"


@pytest.mark.parametrize("name", sorted(functions()))
def test_implementation_takes_the_declared_facts(name: str) -> None:
    facts, fn = functions()[name], all_functions()[name]
    assert fn.doc == facts.summary
    assert fn.sandboxed == facts.evaluable
    if not facts.evaluable:
        # The refusal takes any arguments: NOT_AVAILABLE_IN_SANDBOX, never an argument error.
        assert _implemented(fn) == [(("Any args*",), "Callable block?")]
    elif name in KNOWN_DEVIATIONS:
        assert _implemented(fn) != _declared(facts), f"{name} no longer deviates: remove it from KNOWN_DEVIATIONS"
    else:
        assert _implemented(fn) == _declared(facts)


def test_overlay_names_are_functions() -> None:
    for table, names in overlay_names().items():
        assert names <= set(functions()), f"{table}: not built-in functions: {sorted(names - set(functions()))}"


@pytest.mark.parametrize("name", sorted(overlay_names()["signatures"]))
def test_own_signatures_only_where_puppet_gives_no_types(name: str) -> None:
    facts = functions()[name]
    assert facts.api == "3x" or facts.load_error, f"{name}: Puppet declares its signatures; use them"
    if facts.puppet_dispatches:
        lo = min(d.min_args for d in facts.puppet_dispatches)
        hi = max(d.max_args for d in facts.puppet_dispatches)
        for d in facts.dispatches:
            assert lo <= d.min_args and d.max_args <= hi, f"{name}: outside Puppet's arity {lo}..{hi}"


def test_return_types_only_where_puppet_declares_none() -> None:
    for name in overlay_names()["return types"]:
        declared = {d.return_type for d in functions()[name].puppet_dispatches}
        assert declared <= {None}, f"{name}: Puppet declares its return type {declared}"


def test_the_comparison_sees_a_difference() -> None:
    # abs and round differ by one dispatch (round takes no String): the comparison must see it.
    assert _implemented(all_functions()["abs"]) == _declared(functions()["abs"])
    assert _implemented(all_functions()["abs"]) != _declared(functions()["round"])


def _grammar_function_names(grammar: dict) -> set:
    """The names of the TextMate grammar's ``support.function.puppet`` alternation."""
    found: list = []

    def walk(o) -> None:
        if isinstance(o, dict):
            if o.get("name") == "support.function.puppet":
                found.append(o["match"])
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    walk(grammar)
    assert len(found) == 1, found
    m = re.search(r"\(\?:([a-z0-9_|]+)\)", found[0])
    assert m is not None, found[0]
    return set(m.group(1).split("|"))


def test_the_editor_grammar_names_the_declared_functions() -> None:
    # The VS Code extension colours built-in function names with a regular expression of its own
    # (a TextMate grammar cannot ask the server); it must name exactly Puppet's functions.
    names = _grammar_function_names(json.loads(GRAMMAR.read_text(encoding="utf-8")))
    declared = set(functions())
    assert names == declared, (f"not functions: {sorted(names - declared)}; "
                               f"missing: {sorted(declared - names)} (vscode-extension/syntaxes/puppet.tmLanguage.json)")
