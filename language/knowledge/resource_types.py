"""The one source of Puppet's built-in resource types and metaparameters for every layer.

Reads ``resource_types.json`` (written by ``tools/resource_types/generate.py`` from the
installed Puppet's type API) once, on first use, into frozen dataclasses.  The evaluator, the
static checks, hover and completion all ask this module; nothing else in ``language/`` may keep
its own list of attribute or metaparameter names (tests/knowledge/test_drift.py enforces it).

What the data means, in Puppet's terms:

* an attribute is a ``parameter``, a ``property`` or a ``metaparameter`` (every type has those);
* compiling a catalog checks attribute *names* only (``no parameter named 'x'``);
* values are checked later, when the agent (or ``puppet apply``) turns the catalog into
  resources: ``validation == "values"`` means Puppet checks the value against ``values`` and
  ``regexes`` (what :meth:`Attribute.accepts` reproduces); ``"custom"`` means a ``validate``
  block of the type decides (code, not data); ``"none"`` means anything is accepted by the type
  (a provider may still refuse it).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

DATA_FILE = "resource_types.json"


@dataclass(frozen=True, slots=True)
class Value:
    """A value Puppet names for an attribute (``ensure => present``), with its aliases."""

    name: str
    aliases: tuple[str, ...] = ()
    required_features: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Pattern:
    """A Ruby regular expression Puppet matches values against (``/^[0-9]+$/``)."""

    source: str
    flags: str = ""
    required_features: tuple[str, ...] = ()

    @property
    def ruby(self) -> str:
        """As Ruby's ``Regexp#inspect`` writes it (how Puppet's messages show it)."""
        return f"/{self.source}/{self.flags}"

    def search(self, text: str) -> bool | None:
        """Ruby's ``pattern =~ text``; None when the pattern has no Python equivalent."""
        rx = _python_regex(self.source, self.flags)
        return None if rx is None else rx.search(text) is not None


@dataclass(frozen=True, slots=True)
class Attribute:
    """One attribute of a resource type, or a metaparameter."""

    name: str
    kind: str                        # "parameter", "property" or "metaparameter"
    summary: str                     # first sentence of the documentation
    doc: str                         # Puppet's documentation (markdown)
    namevar: bool = False
    values: tuple[Value, ...] = ()
    regexes: tuple[Pattern, ...] = ()
    validation: str = "none"         # "values", "custom" or "none" (see the module docstring)
    required_features: tuple[str, ...] = ()
    boolean: bool = False            # a Puppet::Parameter::Boolean (true/false/yes/no)

    @property
    def value_names(self) -> tuple[str, ...]:
        """The values Puppet names, without aliases (what completion offers)."""
        return tuple(v.name for v in self.values)

    def accepts(self, value: Any) -> bool | None:
        """Whether Puppet's value check takes ``value`` (a Puppet value: str, bool, int, list);
        None when the data cannot tell (no value check, a ``validate`` block, or a value whose
        Ruby text is not certain)."""
        if self.validation != "values":
            return None
        if isinstance(value, list):
            # A property validates each element; a parameter its whole value, whose Ruby text
            # ('["a"]') would decide, and that is too fragile to claim.
            if self.kind != "property" or not value:
                return None
            verdicts = [self.accepts(v) for v in value]
            if None in verdicts:
                return None
            return all(verdicts)
        text = _ruby_text(value)
        if text is None:
            return None
        if text and any(text == v.name or text in v.aliases for v in self.values):
            return True
        unknown = False
        for p in self.regexes:
            hit = p.search(text)
            if hit:
                return True
            unknown = unknown or hit is None
        return None if unknown else False

    def valid_text(self) -> str:
        """The accepted values as Puppet's own message lists them."""
        parts = []
        if self.values:
            parts.append("Valid values are " + ", ".join(self.value_names) + ".")
        if self.regexes:
            parts.append("Valid values match " + ", ".join(p.ruby for p in self.regexes) + ".")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class ResourceType:
    """A resource type built into Puppet."""

    name: str
    summary: str
    doc: str
    namevars: tuple[str, ...]
    title_patterns: tuple[tuple[Pattern, tuple[str, ...]], ...]
    isomorphic: bool
    features: tuple[tuple[str, str], ...]     # (feature, summary) providers may have
    providers: tuple[str, ...]
    attributes: dict                          # name -> Attribute, in Puppet's order

    def attribute(self, name: str) -> Attribute | None:
        """The attribute or metaparameter called ``name``."""
        return self.attributes.get(name) or metaparameters().get(name)

    def has_attribute(self, name: str) -> bool:
        """Whether a catalog with ``name => ...`` on this type compiles (Puppet::Type.validattr?)."""
        return name in self.attributes or name in metaparameters() or \
            (name == "name" and _data().name_always_valid)


@dataclass(frozen=True, slots=True)
class _Data:
    puppet_version: str
    types: dict
    metaparameters: dict
    name_always_valid: bool


def _pattern(d: dict) -> Pattern:
    return Pattern(d["source"], d.get("flags", ""), tuple(d.get("required_features", ())))


def _attribute(d: dict) -> Attribute:
    return Attribute(
        name=d["name"], kind=d["kind"], summary=d.get("summary", ""), doc=d.get("doc", ""),
        namevar=bool(d.get("namevar")),
        values=tuple(Value(v["name"], tuple(v.get("aliases", ())), tuple(v.get("required_features", ())))
                     for v in d.get("values", ())),
        regexes=tuple(_pattern(r) for r in d.get("regexes", ())),
        validation=d.get("validation", "none"),
        required_features=tuple(d.get("required_features", ())),
        boolean=bool(d.get("boolean")))


@cache
def _data() -> _Data:
    raw = json.loads(resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8"))
    metas = {m["name"]: _attribute(m) for m in raw["metaparameters"]}
    types = {}
    for t in raw["types"]:
        types[t["name"]] = ResourceType(
            name=t["name"], summary=t.get("summary", ""), doc=t.get("doc", ""),
            namevars=tuple(t.get("namevars", ())),
            title_patterns=tuple((_pattern(p), tuple(p.get("attributes", ()))) for p in t.get("title_patterns", ())),
            isomorphic=bool(t.get("isomorphic")),
            features=tuple((f["name"], f.get("doc", "")) for f in t.get("features", ())),
            providers=tuple(t.get("providers", ())),
            attributes={a["name"]: _attribute(a) for a in t["attributes"]})
    return _Data(raw["puppet_version"], types, metas, bool(raw.get("name_always_valid", True)))


def puppet_version() -> str:
    """The version of the Puppet the data was generated from."""
    return _data().puppet_version


def resource_types() -> dict:
    """Every built-in resource type by (lower-case) name."""
    return _data().types


def resource_type(name: str) -> ResourceType | None:
    """The built-in resource type called ``name`` (any case, leading ``::`` allowed)."""
    return _data().types.get(name.lstrip(":").lower())


def metaparameters() -> dict:
    """Every metaparameter by name."""
    return _data().metaparameters


def has_attribute(type_name: str, attr: str) -> bool | None:
    """True/False for a built-in type; None when ``type_name`` is not one (a defined type, or a
    type from a module: the caller decides)."""
    t = resource_type(type_name)
    return None if t is None else t.has_attribute(attr)


def _ruby_text(value: Any) -> str | None:
    """``value.to_s`` in Ruby for the values whose text is certain."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    return None


_RUBY_ESCAPES = {"Z": r"(?=\n?\Z)", "z": r"\Z", "h": "[0-9a-fA-F]", "H": "[^0-9a-fA-F]"}


@cache
def _python_regex(source: str, flags: str) -> re.Pattern | None:
    # Ruby's ^ and $ always match at line boundaries, its /m is Python's DOTALL, and \Z, \z, \h
    # differ; anything else in these simple patterns means the same in both.
    out = []
    i = 0
    while i < len(source):
        c = source[i]
        if c == "\\" and i + 1 < len(source):
            nxt = source[i + 1]
            out.append(_RUBY_ESCAPES.get(nxt, c + nxt))
            i += 2
            continue
        out.append(c)
        i += 1
    f = re.MULTILINE
    if "m" in flags:
        f |= re.DOTALL
    if "i" in flags:
        f |= re.IGNORECASE
    if "x" in flags:
        f |= re.VERBOSE
    try:
        return re.compile("".join(out), f)
    except re.error:
        return None
