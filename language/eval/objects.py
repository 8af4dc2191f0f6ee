"""Members of Object values: ``$err.message``, ``$deferred.name``, ``$uri.host``.

Puppet resolves ``value.name`` to an attribute of the value's Object type before looking for a
function called ``name``; this module answers that first question.
"""
from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from ..types.values import URI, Deferred, ObjectValue
from ..types.errors import TypeSystemError

_URI_PARTS = ("scheme", "userinfo", "host", "port", "path", "query", "fragment", "opaque")


def call_member(ev, obj: Any, name: str, args: list, lam, node, scope) -> tuple:
    """(True, value) when ``obj.name`` is an attribute of ``obj``; (False, None) otherwise."""
    if isinstance(obj, ObjectValue):
        for k, v in obj.attributes:
            if k == name:
                return True, v
        attrs = _declared_attributes(ev, obj)
        if name in attrs:
            return True, None
        if obj.type_name == "Error" and name in ("message", "msg", "kind", "details",
                                                 "issue_code"):
            if name == "message":
                return True, obj.get("msg")
            return True, obj.get(name)
        return False, None
    if isinstance(obj, Deferred):
        if name == "name":
            return True, obj.name
        if name == "arguments":
            return True, list(obj.arguments) if obj.arguments is not None else None
        return False, None
    if isinstance(obj, URI) and name in _URI_PARTS:
        parts = uri_parts(obj)
        v = parts.get(name)
        if name == "port" and v is not None:
            try:
                v = int(v)
            except ValueError:
                pass
        return True, v
    return False, None


def uri_parts(u: URI) -> dict:
    """The parts of a URI like Ruby's URI (an opaque URI such as ``urn:a:b`` has no path)."""
    parts = dict(u.parts())
    if "port" not in parts and "opaque" not in parts:
        # the type leaves out a scheme's default port, but the member still answers it
        try:
            port = urlsplit(u.text).port
        except ValueError:
            port = None
        if port is not None:
            parts["port"] = str(port)
    return parts


def _declared_attributes(ev, obj: ObjectValue) -> set:
    t = getattr(obj, "object_type", None)
    if t is None:
        return set()
    try:
        return {a.name for a in t.all_attributes()}
    except (TypeSystemError, RecursionError):
        return set()


def object_access(ev, node, obj: Any, keys: list) -> tuple:
    return False, None
