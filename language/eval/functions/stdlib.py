"""The most used functions of puppetlabs-stdlib (and openstacklib's ``is_service_default``),
re-implemented for previews (issue 16): a module's Ruby function cannot run in the sandbox, and
stdlib's ``pick``, ``merge`` or ``ensure_packages`` decide values and resources of most real
classes.  Each follows the Ruby
source of the stdlib Puppet 7 ships with (read for behaviour); they are registered apart from the
built-ins (``registry.MODULE_FUNCTIONS``) and called only in a preview whose modulepath has the
function.  An argument whose value is unknown makes the result unknown where the result depends
on it, and a resource whose type or title is unknown is not declared.
"""
from __future__ import annotations

from typing import Any

from ...types.values import DefaultValue
from ...messages import render
from ..context import Unknown
from ..errors import EvalError
from ..registry import define_module_function
from ..runtime import generalized_type_name


def _empty_or_undef(v: Any) -> bool:
    return v is None or v == ""


def _cap(name: str) -> str:
    return "::".join(p[:1].upper() + p[1:] for p in name.lower().removeprefix("::").split("::"))


pick = define_module_function("pick", "The first value that is neither undef nor an empty string.")


@pick.dispatch("Any values*")
def _pick(c, *values):
    found = [v for v in values if not _empty_or_undef(v)]
    if not found:
        raise EvalError(render("STDLIB_PICK_NOTHING"))
    return found[0]


pick_default = define_module_function("pick_default", "The first value that is neither undef nor "
                                      "an empty string, else the last one.")


@pick_default.dispatch("Any values+")
def _pick_default(c, *values):
    found = [v for v in values[:-1] if not _empty_or_undef(v)]
    return found[0] if found else values[-1]


any2array = define_module_function("any2array", "The arguments as an array (a hash as keys and values).")


@any2array.dispatch("Any values*")
def _any2array(c, *values):
    if len(values) != 1:
        return list(values)
    v = values[0]
    if isinstance(v, Unknown):
        return v
    if type(v) in (list, tuple):
        return v
    if v == "":
        return []
    if isinstance(v, dict):
        return [x for kv in v.items() for x in kv]
    return [v]


concat = define_module_function("concat", "The first array with the other arguments appended.")


@concat.dispatch("Any first", "Any rest+")
def _concat(c, first, *rest):
    if isinstance(first, Unknown):
        return first
    if type(first) not in (list, tuple):
        raise EvalError(render("STDLIB_CONCAT_NOT_ARRAY"))
    out = list(first)
    for x in rest:
        out.extend(x if type(x) in (list, tuple) else [x])
    return out


merge = define_module_function("merge", "The hashes merged, later keys winning.")


@merge.dispatch("Any hashes*")
def _merge(c, *hashes) -> object:
    out: dict = {}
    for h in hashes:
        if isinstance(h, Unknown):
            return Unknown.of_call("merge")
        if isinstance(h, dict):
            out.update(h)
        elif not _empty_or_undef(h):
            raise EvalError(render("STDLIB_MERGE_NOT_HASH", actual=generalized_type_name(h)))
    return out


def _matches(res, params: dict) -> bool:
    """stdlib's defined_with_params: every given parameter has the given value."""
    return all(res.params.get(k) == v for k, v in params.items())


def _ensure(c, type_name: Any, titles: Any, params: Any) -> None:
    if isinstance(type_name, Unknown) or not isinstance(type_name, str) or not type_name:
        return
    params = params if isinstance(params, dict) else {}
    cat = c.ev.catalog
    if cat is None:
        return
    tname = _cap(type_name)
    for title in titles if type(titles) in (list, tuple) else [titles]:
        if isinstance(title, Unknown) or title is None or isinstance(title, DefaultValue):
            continue
        title = str(title)
        existing = cat.find(tname, title if tname != "Class" else title.lower())
        if existing is not None and _matches(existing, params):
            continue
        cat.declare(tname, title, dict(params), c.scope, c.node)


ensure_resource = define_module_function("ensure_resource", "Declare the resources unless they exist "
                                         "with these parameters.")


@ensure_resource.dispatch("Any type", "Any titles", "Any params?")
def _ensure_resource(c, type_name, titles, params=None):
    _ensure(c, type_name, titles, params)


ensure_resources = define_module_function("ensure_resources", "Declare the resources of a hash of titles "
                                          "and parameters unless they exist.")


@ensure_resources.dispatch("Any type", "Hash titles", "Hash defaults?")
def _ensure_resources(c, type_name, titles, defaults=None):
    for title, params in titles.items():
        _ensure(c, type_name, title, {**(defaults or {}), **(params if isinstance(params, dict) else {})})


ensure_packages = define_module_function("ensure_packages", "Declare the packages (ensure => installed) "
                                         "unless they exist.")


@ensure_packages.dispatch("Any packages", "Hash defaults?")
def _ensure_packages(c, packages, defaults=None):
    attrs = {"ensure": "installed", **(defaults or {})}
    if attrs["ensure"] == "present":
        attrs["ensure"] = "installed"
    if isinstance(packages, dict):
        _ensure_resources(c, "package", packages, attrs)
    else:
        _ensure(c, "package", packages, attrs)


# ---- openstacklib (the 31 OpenStack modules of the corpus test every parameter with it) --------

is_service_default = define_module_function("is_service_default", "Whether the value is openstacklib's "
                                            "'<SERVICE DEFAULT>' marker.")


@is_service_default.dispatch("Any value")
def _is_service_default(c, value):
    if isinstance(value, Unknown):
        return Unknown.of_call("is_service_default")
    return isinstance(value, str) and value == "<SERVICE DEFAULT>"
