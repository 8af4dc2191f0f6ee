"""Where Bolt's names exist: whether an analysed file is Bolt code, and Bolt's functions and
types as the checker and the editor see them there.

Bolt code is a plan (a file that defines one: only files under a module's ``plans/`` are parsed
with the ``plan`` keyword), or *Bolt helper code*: a file of functions or type aliases that
uses Bolt's API, that is, calls one of Bolt's plan functions or names one of Bolt's data types
that the file, the workspace and Puppet do not define themselves (peadm's ``functions/*.pp``
taking a ``TargetSpec``, a function calling ``run_command``).  A file defining classes, defined
types or nodes is catalog code, compiled by a Puppet server (or by Bolt's ``apply``), where
plan functions do not exist: there, as everywhere else, Bolt's names are unknown.
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..knowledge import bolt as knowledge
from ..knowledge.functions import function as puppet_function
from .signatures import Signature, signatures_of_dispatches

# Bolt's data types are capitalised names; a module's own alias of the same name wins.
_OWN_KINDS = ("type_alias", "class", "define")


def is_bolt_code(an) -> bool:
    """Whether Bolt's functions and types are known in the analysed file (memoized on it)."""
    cached = getattr(an, "_bolt_code", None)
    if cached is None:
        cached = _decide(an)
        an._bolt_code = cached
    return cached


# Catalog code: compiled by a Puppet server (or by Bolt's apply()), where plan functions do not run.
_CATALOG_KINDS = frozenset({"class", "define", "node"})


def _decide(an) -> bool:
    model = an.model
    if any(n.kind == "plan" for n in model.named):
        return True
    if any(n.kind in _CATALOG_KINDS for n in model.named):
        return False
    own_functions = {n.name.lstrip(":").lower() for n in model.named if n.kind == "function"}
    for call in model.calls:
        if call.form == "method":
            continue      # a method name says nothing about who calls it
        name = call.name.lstrip(":")
        if knowledge.function(name) is not None and puppet_function(name) is None \
                and name.lower() not in own_functions and not an.env.lookup("function", name.lower()):
            return True
    own_types = {n.name.lstrip(":") for n in model.named if n.kind in _OWN_KINDS}
    for ref in model.type_refs:
        name = ref.name.lstrip(":")
        if knowledge.data_type(name) is not None and name not in own_types \
                and not an.env.lookup("type_alias", name):
            return True
    return False


def function_signatures(name: str) -> list[Signature] | None:
    """The signatures of Bolt's plan function ``name``, or None when Bolt has no such function."""
    sigs = _signatures(name.lstrip(":"))
    return None if sigs is None else list(sigs)


@lru_cache(maxsize=128)
def _signatures(name: str) -> tuple | None:
    f = knowledge.function(name)
    return None if f is None else tuple(signatures_of_dispatches(f.name, f.dispatches))


def function_doc(name: str) -> str:
    """Markdown for a Bolt function: its documentation and its parameters."""
    f = knowledge.function(name.lstrip(":"))
    if f is None:
        return ""
    parts = [f.doc or f.summary]
    if f.param_docs:
        parts.append("\n".join(f"* `${p}`: {d}" for p, d in f.param_docs))
    parts.append(f"*Bolt plan function* (module `{f.module}`)")
    return "\n\n".join(p for p in parts if p)


def type_markdown(name: str) -> tuple[str, str] | None:
    """(signature, doc) of a Bolt data type or alias, or None."""
    t = knowledge.data_type(name.lstrip(":"))
    if t is None:
        return None
    if t.kind == "alias":
        sig = f"type {t.name} = {t.definition}"
    else:
        sig = f"{t.name} = Object[{{\n{t.definition}\n}}]"
    doc = t.doc or t.summary
    if t.kind == "object":
        if t.functions:
            doc += ("\n\n" if doc else "") + "Functions: " + ", ".join(f"`{m}`" for m in t.functions)
        if t.attributes:
            doc += "\n\nAttributes: " + ", ".join(f"`{m}`" for m in t.attributes)
    return sig, (doc + "\n\n*Bolt data type*").strip()


def knows_function(name: str) -> bool:
    return knowledge.function(name.lstrip(":")) is not None


def knows_type(name: str) -> bool:
    return knowledge.data_type(name.lstrip(":")) is not None


def knows_method(name: str) -> bool:
    """A function or attribute of one of Bolt's object types (``$result.ok``, ``$target.vars``)."""
    return name in knowledge.object_members() or knows_function(name)


_MEMBER = re.compile(r"^'?(\w+)'?\s*=>\s*(.*?),?$")


def method_markdown(name: str) -> tuple[str, str] | None:
    """(signature, doc) of a function or attribute of Bolt's object types called as a method
    (``$result.ok``: every type that has it, with its type), or None."""
    if name not in knowledge.object_members():
        return None
    lines = []
    for t in knowledge.types().values():
        if name not in t.functions and name not in t.attributes:
            continue
        for line in t.definition.splitlines():
            m = _MEMBER.match(line.strip())
            if m and m.group(1) == name:
                lines.append(f"{t.name}.{name}: {m.group(2).removeprefix('{ type => ').split(', kind')[0]}")
                break
    if not lines:
        return None
    return "\n".join(lines), "A function or attribute of Bolt's data types\n\n*Bolt data type member*"
