"""Catalog functions: ``include``, ``contain``, ``require``, ``realize``, ``defined``, ``tag``,
``tagged``, and ``inline_epp`` (templates given as text, evaluated in the calling scope).
"""
from __future__ import annotations

from typing import Any

from ...types import model as m
from ...types.build import BUILTIN_RESOURCE_TYPES
from ..errors import ArgumentsError, EvalError
from ..scope import MISSING
from ..registry import define
from ...messages import render
from ...syntax.parser import parse
from ...syntax.validate import validate
from ...syntax import kinds as K
from ..closures import params_of
from ..context import LineIndex
from ..mismatch import validate_parameters
from ..context import Unknown
from ..runtime import Sensitive
from ..stringconv import to_s


def _flat(xs):
    out = []
    for x in xs:
        if type(x) in (list, tuple):
            out.extend(_flat(x))
        else:
            out.append(x)
    return out


def _not_in_tasks(c, what: str) -> None:
    if c.ev.settings.tasks:
        raise EvalError(render("CATALOG_OPERATION_NOT_SUPPORTED_WHEN_SCRIPTING", what=what),
                        "CATALOG_OPERATION_NOT_SUPPORTED_WHEN_SCRIPTING")


def _include_like(name: str) -> None:
    f = define(name)

    @f.dispatch("Any names+")
    def _impl(c, *names):
        _not_in_tasks(c, name)
        return c.ev.catalog.include(_flat(names), c.scope, c.node, name)


_include_like("include")
_include_like("contain")
_include_like("require")

create_resources = define("create_resources")


@create_resources.dispatch("Any type", "Any instances", "Any defaults?")
def _create_resources(c, type_name, instances, defaults=None):
    """Declare a resource (or class) for each title of ``instances`` with its parameters over
    ``defaults``; ``@``/``@@`` before the type make them virtual/exported."""
    _not_in_tasks(c, "create_resources")
    if isinstance(type_name, Unknown) or isinstance(instances, Unknown) or isinstance(defaults, Unknown):
        return          # a preview: what would be declared is not known
    if not isinstance(instances, dict):
        raise EvalError(render("CREATE_RESOURCES_SECOND_NOT_HASH"))
    if defaults is not None and not isinstance(defaults, dict):
        raise EvalError(render("CREATE_RESOURCES_THIRD_NOT_HASH"))
    text = to_s(type_name)
    exported = text.startswith("@@")
    virtual = text.startswith("@")
    name = text[2:] if exported else text[1:] if virtual else text
    cat = c.ev.catalog
    if cat is None:
        return
    tname = "::".join(p[:1].upper() + p[1:] for p in name.lower().removeprefix("::").split("::"))
    for title, params in instances.items():
        merged = {k: v for k, v in {**(defaults or {}), **(params if isinstance(params, dict) else {})}.items()
                  if v is not None}
        for t in _flat([title]):
            cat.declare(tname, t if tname == "Class" else to_s(t), dict(merged), c.scope, c.node,
                        virtual, exported)


realize = define("realize")


@realize.dispatch("Any refs+")
def _realize(c, *refs):
    _not_in_tasks(c, "realize")
    c.ev.catalog.realize(list(refs), c.node)


tag = define("tag")


@tag.dispatch("Any tags+")
def _tag(c, *tags):
    res = c.scope.resource
    if res is not None:
        for t in _flat(tags):
            res.tags.add(str(t).lower())
    else:
        # Code outside any class (an evaluation's top or node scope) tags Puppet's main class.
        c.ev.ctx.__dict__.setdefault("_main_tags", set()).update(
            str(t).lower() for t in _flat(tags))


tagged = define("tagged")


@tagged.dispatch("Any tags+")
def _tagged(c, *tags):
    res = c.scope.resource
    have = set(res.tags) if res is not None else {"class"} | c.ev.ctx.__dict__.get("_main_tags",
                                                                                   set())
    if res is not None:
        have.add(res.title.lower() if res.type_name == "Class" else res.type_name.lower())
    # Puppet also answers true when any resource of the catalog has the tag (a class that was
    # included is tagged with its name).
    for r in c.ev.catalog.resources.values():
        have.update(r.tags)
        if r.type_name == "Class":
            have.update(r.title.lower().split("::"))
            have.add(r.title.lower())
    return all(str(t).lower() in have for t in _flat(tags))


defined = define("defined")


def _is_defined(c, val) -> bool:
    cat = c.ev.catalog
    if isinstance(val, str):
        if val.startswith("$"):
            name = val[1:]
            return c.scope.lookup(name) is not MISSING
        if val == "":
            return False
        if val == "main":
            return True
        name = val.lower().lstrip(":")
        return (name in BUILTIN_RESOURCE_TYPES or name in cat.defines or name in cat.classes)
    if isinstance(val, m.ResourceType):
        if val.type_name is None:
            raise EvalError(render("GIVEN_RESOURCE_TYPE_REFERENCE_ALL"))
        tname = val.type_name.lower()
        known = tname in BUILTIN_RESOURCE_TYPES or tname in cat.defines
        if val.title is None:
            return known
        return cat.find(val.type_name, val.title) is not None
    if isinstance(val, m.ClassType):
        if val.class_name is None:
            raise EvalError(render("GIVEN_CLASS_TYPE_REFERENCE_ALL"))
        return cat.find("Class", val.class_name) is not None
    if isinstance(val, m.TypeType):
        t = val.type
        if isinstance(t, m.ResourceType):
            return _is_defined(c, t)
        if isinstance(t, m.ClassType):
            if t.class_name is None:
                raise EvalError(render("GIVEN_CLASS_TYPE_REFERENCE_ALL"))
            return cat.find_class(t.class_name) is not None
        return False
    raise EvalError(render("INVALID_ARGUMENT_TYPE_DEFINED", name=type(val).__name__))


@defined.dispatch("Variant[String, Type[CatalogEntry], Type[Type[CatalogEntry]]] vals+")
def _defined(c, *vals):
    return any(_is_defined(c, v) for v in vals)


# ---- inline_epp ----------------------------------------------------------------------------------

inline_epp = define("inline_epp")


@inline_epp.dispatch("String template", "Hash[Pattern[/^\\w+$/], Any] parameters?")
def _inline_epp(c, template, parameters=None):
    return render_epp(c, template, parameters, "inlined-epp-text", "inline_epp")


def render_epp(c, template: str, parameters, file_name: str, func: str, scope=None):
    """Render an EPP template in ``scope`` (default: the calling scope, as inline_epp does;
    epp() passes the global scope)."""
    ev = c.ev
    pr = parse(template, epp=True)
    if pr.errors:
        e = pr.errors[0]
        raise EvalError(render("INVALID_EPP", func=func, message=e.message))
    invalid = [d for d in validate(pr) if d.severity == "error"]
    if invalid:
        # e.g. `<% "x" %>` followed by text: a value produced and then forgotten
        raise EvalError(render("INVALID_EPP", func=func, message=invalid[0].message))
    root = pr.root
    lines = LineIndex(template)
    epp_params = root.child(K.EPP_PARAMS)
    params = params_of(epp_params) if epp_params is not None else []
    specified = epp_params is not None
    args = dict(parameters or {})
    enforce = specified if (specified or parameters is not None) else True
    scope = scope if scope is not None else c.scope
    for k in list(args):
        if "::" in k:
            scope.set(k.removeprefix("::"), args.pop(k))
    level = scope.level
    saved = getattr(ev, "_epp_buffer", None)
    buf: list = []
    ev._epp_buffer = buf
    try:
        if enforce:
            bindings: dict[str, Any] = {}
            layer = scope.push_local(bindings)
            for k, v in args.items():
                if v is not None:
                    layer.symbols[k] = v
            for p in params:
                if args.get(p.name) is None:
                    if p.default_node is not None:
                        layer.symbols[p.name] = _located(ev.eval, p.default_node, scope, lines,
                                                         file_name)
                    elif p.name in args:
                        layer.symbols[p.name] = None
            types = []
            for p in params:
                types.append(ev.eval(p.type_node, scope) if p.type_node is not None else m.ANY)
            given = dict(layer.symbols)
            scope.pop_to(level)
            specs = [(p.name, t, p.default_node is not None) for p, t in zip(params, types)]
            msg = validate_parameters("lambda", specs, given)
            if msg:
                raise ArgumentsError(msg)
            scope.push_local(given)
        else:
            scope.push_local(dict(args))
        _located(ev.eval_statements, root, scope, lines, file_name)
    finally:
        scope.pop_to(level)
        ev._epp_buffer = saved
    sensitive = any(isinstance(x, Sensitive) for x in buf)
    text = "".join(to_s(x.value) if isinstance(x, Sensitive) else x for x in buf)
    return Sensitive(text) if sensitive else text


def _located(fn, node, scope, lines, file_name):
    """Run ``fn`` so that errors inside the template report positions in the template."""
    try:
        return fn(node, scope)
    except EvalError as exc:
        if exc.offset is not None and getattr(exc, "lines", None) is None:
            exc.lines = lines
            exc.file = file_name
        raise
