"""Automatic parameter lookup for previews: the value Hiera gives a class parameter
(``CLASS::PARAM``) on one node, as Puppet's data binding finds it when the class is declared
without that parameter, or why it is not known.

The lookup is Puppet's (global, environment, then the class's module layer; ``lookup_options``
merges; ``%{}`` interpolation and aliases), made with the node's facts and ``$trusted``, with
one difference that previews need: a variable the fact set lacks (in a hierarchy path or in
a value) makes the answer *unknown* instead of being read as empty, since the real node may
have it.  Encrypted (eyaml) values are unknown too: they are never decrypted.
"""
from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Any

from .convert import puppet_literal
from .interpolate import scope_for
from .lookup import Hiera, module_of

FOUND, ABSENT, UNKNOWN = "found", "absent", "unknown"


@dataclass
class ParameterValue:
    """What Hiera says of one class parameter on one node."""

    key: str                           # CLASS::PARAM
    status: str                        # FOUND, ABSENT (the default applies) or UNKNOWN
    value: Any = None                  # the data found (before ``convert_to``)
    source: str = ""                   # the value as Puppet source (``convert_to`` applied by ``new``)
    converted_to: list | None = None   # the ``convert_to`` of lookup_options, left to the caller
    files: list = field(default_factory=list)    # the data files that gave it
    origin: str = ""                   # "hiera <file>" for a label
    reason: str = ""                   # why it is unknown, or the lookup's error


def class_parameter(hiera: Hiera, class_name: str, param: str, facts: dict, trusted: dict | None = None,
                    variables: dict | None = None) -> ParameterValue:
    """The automatic lookup of ``class_name::param`` for a node with ``facts`` and ``trusted``
    (``variables``: further top-scope variables, such as ``environment``)."""
    key = f"{class_name.lower().removeprefix('::')}::{param}"
    result = hiera.lookup(key, scope_for(facts, trusted, variables), strict_scope=True, convert=False)
    if result.unknown:
        return ParameterValue(key, UNKNOWN, reason=f"the fact set has no {result.unknown}")
    if result.error:
        # Puppet fails the compilation: the value the class gets is not known here
        return ParameterValue(key, UNKNOWN, reason=result.error)
    if not result.found:
        return ParameterValue(key, ABSENT)
    if not _plain(result.value):
        return ParameterValue(key, UNKNOWN, reason="the value is encrypted or not plain data")
    source = puppet_literal(result.value)
    if result.converted_to:
        kind, *args = result.converted_to
        source = f"{kind}.new({', '.join([source, *(puppet_literal(a) for a in args)])})"
    files = []
    for step in result.trail:
        if step.found and step.path not in files:
            files.append(step.path)
    short = [_short(hiera, key, f) for f in files]
    return ParameterValue(key, FOUND, result.value, source, result.converted_to, files, "hiera " + ", ".join(short))


def _plain(value: Any) -> bool:
    """Data a Puppet literal writes exactly (no eyaml value, no object of another kind)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, (str, int)) and _plain(v) for k, v in value.items())
    return False


def _short(hiera: Hiera, key: str, path: str) -> str:
    """A data file named for a label: ``<module>/data/…`` in a module layer, relative to the
    environment in its layer, else the path as it is."""
    module = module_of(key)
    layer = hiera.module_layer(module) if module else None
    if layer is not None and path.startswith(layer.config.root.rstrip("/") + "/"):
        return posixpath.join(module or "", posixpath.relpath(path, layer.config.root))
    env = next((la for la in hiera.layers if la.name == "environment"), None)
    if env is not None and path.startswith(env.config.root.rstrip("/") + "/"):
        return posixpath.relpath(path, env.config.root)
    return path

