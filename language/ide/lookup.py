"""Finding named things for the editor features: classes, defined types, functions, type
aliases and resource types, whether the file defines them, the environment (workspace and
modulepath index) does, or Puppet itself; with their signature and documentation.

``Target`` is the common answer: what the name is, where it is defined (``path`` None for the
analysed file itself, '' for built-ins), its signature and markdown documentation.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..check import bolt
from ..check.analysis import Analysis
from ..check.signatures import builtin_doc, builtin_signatures, puppet_function_signature
from ..knowledge.resource_types import metaparameters, resource_type
from ..syntax import ast as A
from ..types.build import BUILTIN_RESOURCE_TYPES
from ..types.type_docs import describe
from .docs import join_summary, leading_comment, parse_doc


@dataclass
class Target:
    """A named thing and where it lives."""

    kind: str                  # class, define, function, type_alias, resource_type, type
    name: str
    path: str | None           # None: this file; '': built in; else a file of the index
    offset: int = 0
    end: int = 0
    signature: str = ""
    doc: str = ""
    params: dict = field(default_factory=dict)    # name -> (type text, default text, doc)
    extra: dict = field(default_factory=dict)


def _own_doc(an: Analysis, node) -> tuple:
    d = parse_doc(leading_comment(an.result.text, node.range[0]))
    return d.full(), d.params


def _params_of(view, param_docs: dict) -> dict:
    out = {}
    for p in view.params():
        te, dv = p.type_expr(), p.default()
        out[p.name] = (te.syntax.trimmed_text() if te is not None else "",
                       dv.syntax.trimmed_text() if dv is not None else "", param_docs.get(p.name, ""))
    return out


def _signature_text(kind: str, name: str, params: dict) -> str:
    parts = []
    for pname, (t, dv, _) in params.items():
        s = (t + " " if t else "") + "$" + pname
        if dv:
            s += " = " + (dv if len(dv) <= 40 else "…")
        parts.append(s)
    head = {"class": "class ", "define": "define ", "function": "function ", "plan": "plan "}.get(kind, "")
    if not parts:
        return f"{head}{name}"
    if len(parts) > 3 or sum(len(p) for p in parts) > 70:
        return f"{head}{name}(\n  " + ",\n  ".join(parts) + ",\n)"
    return f"{head}{name}({', '.join(parts)})"


def find(an: Analysis, kind: str, name: str) -> list:
    """Targets of ``kind`` (class, define, function, type_alias, resource_type) named ``name``:
    the file's own first, then the environment's."""
    name = name.lstrip(":")
    low = name.lower()
    out = []
    own_kind = kind
    for n in an.model.named:
        nname = n.name.lstrip(":")
        if n.kind == own_kind and (nname.lower() == low):
            view = A.view(n.node)
            doc, pdocs = _own_doc(an, n.node)
            if kind in ("class", "define", "function", "plan"):
                params = _params_of(view, pdocs)
                sig = _signature_text(kind, nname, params)
                if isinstance(view, A.FunctionDef):
                    rt = view.return_type()
                    if rt is not None:
                        sig += f" >> {rt.syntax.trimmed_text()}"
                out.append(Target(kind, nname, None, n.offset, n.end, sig, doc, params))
            elif kind == "type_alias":
                body = view.value() if isinstance(view, A.TypeAlias) else None
                sig = f"type {nname} = {body.syntax.trimmed_text() if body is not None else '…'}"
                out.append(Target(kind, nname, None, n.offset, n.end, sig, doc))
    for e in an.env.lookup(kind, name if kind == "type_alias" else low):
        params = {p.name: (p.type_text, p.default_text, e.extra.get("param_docs", {}).get(p.name, ""))
                  for p in e.params}
        sig = e.signature
        if kind in ("class", "define", "plan"):
            sig = _signature_text(kind, e.name, params)
        doc = join_summary(e.doc, e.extra.get("text", ""))
        out.append(Target(kind, e.name, e.path, e.offset, e.end, sig, doc, params,
                          {"api": e.api, "attributes": e.attributes}))
    return out


def builtin_function_target(name: str) -> Target | None:
    sigs = builtin_signatures(name)
    if sigs is None:
        return None
    return Target("function", name, "", signature="\n".join(s.label() for s in sigs) or f"{name}(...)",
                  doc=builtin_doc(name))


def function_target(an: Analysis, name: str) -> Target | None:
    """The file's own function, else Puppet's built-in one, else the index's (Puppet's own
    functions win over same-named module functions, as in Puppet's loaders)."""
    name = name.lstrip(":")
    found = find(an, "function", name)
    own = [t for t in found if t.path is None]
    if own:
        return own[0]
    b = builtin_function_target(name)
    if b is not None:
        return b
    if found:
        return found[0]
    return bolt_function_target(an, name)


def bolt_function_target(an: Analysis, name: str) -> Target | None:
    """Bolt's plan function ``name``, in plans and Bolt helper code."""
    sigs = bolt.function_signatures(name) if bolt.is_bolt_code(an) else None
    if sigs is None:
        member = bolt.method_markdown(name.lstrip(":")) if bolt.is_bolt_code(an) else None
        if member is None:
            return None
        return Target("function", name.lstrip(":"), "", signature=member[0], doc=member[1], extra={"bolt": True})
    return Target("function", name.lstrip(":"), "", signature="\n".join(s.label() for s in sigs),
                  doc=bolt.function_doc(name), extra={"bolt": True})


def function_signatures(an: Analysis, name: str) -> list:
    """Signatures (check.signatures.Signature or plain label strings) of a function."""
    name = name.lstrip(":")
    for n in an.model.named:
        if n.kind == "function" and n.name.lstrip(":").lower() == name.lower():
            return [puppet_function_signature(an, A.FunctionDef(n.node))]
    sigs = builtin_signatures(name)
    if sigs is not None:
        return sigs
    for e in an.env.lookup("function", name.lower()):
        return [s for s in e.signature.split("\n") if s]
    if bolt.is_bolt_code(an):
        return bolt.function_signatures(name) or []
    return []


def resource_type_target(an: Analysis, name: str) -> Target | None:
    """A resource type: built in, a defined type, or a Ruby type from the index."""
    low = name.lstrip(":").lower()
    info = resource_type(low)
    if info is not None:
        params = {a.name: ("", "", a.doc) for a in info.attributes.values()}
        return Target("resource_type", low, "", signature=f"{low} {{ 'title': … }}", doc=info.doc,
                      params=params, extra={"builtin": True})
    own = find(an, "define", low)
    if own:
        return own[0]
    for e in an.env.lookup("resource_type", low):
        params = {a[0]: ("", "", a[2]) for a in e.attributes}
        return Target("resource_type", e.name, e.path, e.offset, e.end, e.signature, e.doc, params,
                      {"attributes": e.attributes})
    if low in BUILTIN_RESOURCE_TYPES:
        return Target("resource_type", low, "", signature=f"{low} {{ 'title': … }}",
                      doc="A resource type that ships with Puppet (in Puppet 7, from a core module).")
    return None


def attribute_values(an: Analysis, type_name: str, attr: str) -> list:
    """The literal values Puppet names for an attribute (``ensure => present`` ...), or the
    Enum values a defined type declares for a parameter."""
    low = type_name.lstrip(":").lower()
    info = resource_type(low)
    a = info.attribute(attr) if info is not None else metaparameters().get(attr)
    if a is not None or info is not None:
        # Aliases are accepted as well (``installed`` for ``present``), so they are offered too.
        return list(dict.fromkeys(n for v in (a.values if a else ()) for n in (v.name, *v.aliases)))
    for e in an.env.lookup("resource_type", low):
        for name, _, _, values in e.attributes:
            if name == attr:
                return list(values)
    targets = find(an, "define", low) or (find(an, "class", low) if low else [])
    for t in targets:
        p = t.params.get(attr)
        if p and p[0]:
            ty = an.type_from_text(p[0])
            return _enum_values(ty)
    return []


def _enum_values(t) -> list:
    from ..types import model as m
    if isinstance(t, m.OptionalType):
        t = t.type
    if isinstance(t, m.EnumType):
        return list(t.values)
    if isinstance(t, m.BooleanType):
        return ["true", "false"]
    if isinstance(t, m.VariantType):
        out = []
        for x in t.types:
            out += [v for v in _enum_values(x) if v not in out]
        return out
    return []


def type_target(an: Analysis, name: str) -> Target | None:
    """What a capitalised name means: a built-in data type, a type alias, a resource type, a
    class or a defined type."""
    bare = name.lstrip(":")
    info = describe(bare)
    if info is not None:
        return Target("type", bare, "", signature=info.signature, doc=info.doc,
                      extra={"category": info.category})
    aliases = find(an, "type_alias", bare)
    if aliases:
        return aliases[0]
    described = bolt.type_markdown(bare) if bolt.is_bolt_code(an) else None
    if described is not None:
        return Target("type", bare, "", signature=described[0], doc=described[1], extra={"category": "Bolt"})
    rt = resource_type_target(an, bare)
    if rt is not None:
        return rt
    classes = find(an, "class", bare)
    if classes:
        return classes[0]
    return None
