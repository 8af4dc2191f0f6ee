"""Test support: evaluate the JSON terms of fixtures/types against the type API.

A term (see convert_conformance.py for the encoding) is decoded into Python values and
TypeCalls, and the few operations the type-system cases use (=~, ==, <, String(), type(), the
value constructors) are applied with the public functions of puppet_ls.language.types. The
result is rendered in the conformance corpus' canonical value form.
"""
from __future__ import annotations

from typing import Any

from puppet_ls.language import types as T
from puppet_ls.language.types import values as V


class EvalError(Exception):
    pass


def decode(term: Any) -> Any:
    """Term -> Python value, with type references as TypeCalls (not yet built)."""
    if isinstance(term, list):
        return [decode(x) for x in term]
    if isinstance(term, dict):
        if "f" in term:
            return float(term["f"])
        if "re" in term:
            return V.Regexp(term["re"])
        if "default" in term:
            return V.DEFAULT
        if "hash" in term:
            return {_key(decode(k)): decode(v) for k, v in term["hash"]}
        if "T" in term:
            return T.TypeCall(term["T"], tuple(decode(a) for a in term.get("args", ())))
        if "call" in term:
            return ("call", term["call"], [decode(a) for a in term["args"]])
        if "op" in term:
            return ("op", term["op"], decode(term["l"]), decode(term["r"]))
    return term


def _key(k: Any) -> Any:
    return k if not isinstance(k, list) else tuple(k)


def evaluate(x: Any) -> Any:
    """Evaluate a decoded term to a runtime value (types are built)."""
    if isinstance(x, T.TypeCall):
        return T.build(x)
    if isinstance(x, tuple) and x and x[0] == "call":
        return _call(x[1], [evaluate(a) for a in x[2]])
    if isinstance(x, tuple) and x and x[0] == "op":
        return _op(x[1], evaluate(x[2]), evaluate(x[3]))
    if isinstance(x, list):
        return [evaluate(a) for a in x]
    if isinstance(x, dict):
        return {(evaluate(k) if isinstance(k, T.TypeCall) else k): evaluate(v)
                for k, v in x.items()}
    return x


def _call(name: str, args: list) -> Any:
    try:
        if name == "Timespan":
            a = args[0]
            return V.Timespan.parse(a) if isinstance(a, str) else V.Timespan.from_seconds(a)
        if name == "Timestamp":
            a = args[0]
            return V.Timestamp.parse(a) if isinstance(a, str) else V.Timestamp.from_seconds(a)
        if name == "SemVer":
            return V.SemVer.parse(args[0])
        if name == "SemVerRange":
            return V.SemVerRange.parse(args[0])
        if name == "Sensitive":
            return V.Sensitive(args[0])
        if name == "Binary":
            return V.Binary.from_base64(args[0])
        if name == "URI":
            return V.URI(args[0])
    except ValueError as exc:
        raise EvalError(str(exc)) from None
    if name == "String":
        v = args[0]
        if len(args) > 1 and args[1] == "%p":
            return T.format_value(v)
        if isinstance(v, T.PType):
            return T.type_to_string(v)
        if isinstance(v, str):
            return v
        return T.format_value(v)
    if name == "type":
        mode = args[1] if len(args) > 1 else "detailed"
        if mode == "reduced":
            return T.infer(args[0])
        if mode == "generalized":
            return T.generalize(T.infer(args[0]))
        return T.infer_set(args[0])
    raise EvalError(f"unknown function {name}")


def _op(op: str, left: Any, right: Any) -> Any:
    if op in ("=~", "!~"):
        if not isinstance(right, T.PType):
            raise EvalError("=~ needs a type on the right in this subset")
        r = T.is_instance(right, left)
        return r if op == "=~" else not r
    both_types = isinstance(left, T.PType) and isinstance(right, T.PType)
    if op in ("==", "!="):
        eq = T.types_equal(left, right) if both_types else V.puppet_equal(left, right)
        return eq if op == "==" else not eq
    if both_types:
        return {"<": T.type_lt, "<=": T.type_le, ">": T.type_gt, ">=": T.type_ge}[op](left, right)
    try:
        c = V.puppet_compare(left, right)
    except ValueError as exc:
        raise EvalError(str(exc)) from None
    return {"<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op]


def run(term: Any) -> str:
    """Evaluate a term and render the result canonically; errors as 'error: message'."""
    try:
        return T.format_value(evaluate(decode(term)))
    except (T.TypeSystemError, EvalError) as exc:
        return f"error: {exc}"
