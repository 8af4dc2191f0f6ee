"""Bolt's plan functions and data types, for the code that runs under Bolt.

Reads ``bolt.json`` (written by ``tools/bolt/generate.py`` from Bolt's sources: the dispatch
blocks and doc comments of ``bolt-modules/*/lib/puppet/functions``, the data types of
``lib/puppet/datatypes`` and the aliases of ``types/``) once, on first use, into frozen
dataclasses.  Signatures use the shapes of ``functions.py`` (``Dispatch``, ``Param``, ``Block``)
so the checker, signature help and hover read Bolt's functions as they read Puppet's.

These names exist only when Bolt runs the code (plans, and the functions and types a module
writes for its plans); ``check/bolt.py`` decides where that is.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .functions import Block, Dispatch, Param

DATA_FILE = "bolt.json"


@dataclass(frozen=True, slots=True)
class BoltFunction:
    """One of Bolt's plan functions."""

    name: str
    module: str                      # the Bolt module that ships it (boltlib, out, log, ctrl, file, ...)
    summary: str
    doc: str
    dispatches: tuple[Dispatch, ...]
    descriptions: tuple[str, ...]    # what each dispatch does (its comment), same order
    param_docs: tuple[tuple[str, str], ...]   # (parameter name, doc) over all dispatches

    @property
    def return_type(self) -> str:
        declared = {d.return_type for d in self.dispatches}
        return next(iter(declared)) or "" if len(declared) == 1 else ""


@dataclass(frozen=True, slots=True)
class BoltType:
    """One of Bolt's data types: an object type defined in Ruby, or a type alias."""

    name: str
    kind: str                        # "object" or "alias"
    summary: str
    doc: str
    definition: str                  # the object's interface, or the alias's type expression
    attributes: tuple[str, ...] = ()
    functions: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Data:
    source: str
    functions: dict
    types: dict
    members: frozenset


def _dispatch(d: dict) -> Dispatch:
    b = d.get("block")
    return Dispatch(tuple(Param(p["name"], p["type"], p["kind"]) for p in d["params"]),
                    Block(b["name"], b["type"], bool(b["optional"])) if b else None,
                    d.get("return_type"))


@cache
def _data() -> _Data:
    raw = json.loads(resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8"))
    fns = {}
    for f in raw["functions"]:
        docs = {p["name"]: p["doc"] for s in f["signatures"] for p in s["params"] if p.get("doc")}
        fns[f["name"]] = BoltFunction(f["name"], f["module"], f["summary"], f["doc"],
                                      tuple(_dispatch(s) for s in f["signatures"]),
                                      tuple(s.get("description", "") for s in f["signatures"]),
                                      tuple(docs.items()))
    types = {t["name"]: BoltType(t["name"], t["kind"], t["summary"], t["doc"], t["definition"],
                                 tuple(t.get("attributes") or ()), tuple(t.get("functions") or ()))
             for t in raw["types"]}
    members = frozenset(m for t in types.values() for m in (*t.attributes, *t.functions) if m.isidentifier())
    return _Data(raw["bolt"], fns, types, members)


def source() -> str:
    """Which Bolt sources the data was generated from."""
    return _data().source


def functions() -> dict[str, BoltFunction]:
    """Every Bolt plan function by name (``run_task``, ``out::message``)."""
    return _data().functions


def function(name: str) -> BoltFunction | None:
    return _data().functions.get(name.removeprefix("::"))


def types() -> dict[str, BoltType]:
    """Every Bolt data type and alias by name (``Target``, ``TargetSpec``, ``Boltlib::PlanResult``)."""
    return _data().types


def data_type(name: str) -> BoltType | None:
    return _data().types.get(name.removeprefix("::"))


def object_members() -> frozenset:
    """The attribute and function names of Bolt's object types (``$result.ok``, ``$t.vars``)."""
    return _data().members
