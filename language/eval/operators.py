"""The value semantics of Puppet's operators: arithmetic, collections, equality, ordering,
``in`` and case/selector matching.

Functions here work on evaluated values only.  A failure raises :class:`OpError` naming the
issue code and which part of the expression Puppet blames ("left" operand, "right" operand,
the "op"erator, or the whole "expr"ession); the evaluator turns that into a located error.
"""
from __future__ import annotations

import math
from typing import Any
from collections.abc import Callable

from ..types import model as m
from ..types.guard import check_size, measure, measure_joined
from ..types.algebra import infer
from ..types.relations import is_assignable, types_equal
from .typecheck import instance_of as is_instance
from ..types.values import (URI, Binary, DefaultValue, Regexp, SemVer, SemVerRange, Sensitive,
                            Timespan, Timestamp)
from .runtime import MAX_INTEGER, MIN_INTEGER, a_an, a_an_uc, label, ruby_hex, to_number, hkey
from ..messages import render
from .stringconv import ruby_interpolated
from urllib.parse import urljoin

NSECS = 1_000_000_000


class OpError(Exception):
    def __init__(self, code: str, message: str, blame: str = "expr"):
        super().__init__(message)
        self.code = code
        self.message = message
        self.blame = blame


class Coercion(Exception):
    """A string was turned into a number (Puppet reports NUMERIC_COERCION per strictness)."""


def _not_applicable(op: str, left: Any) -> OpError:
    return OpError("OPERATOR_NOT_APPLICABLE",
                   render("OPERATOR_NOT_APPLICABLE", operator=op, left=a_an(label(left))), "left")


def _not_applicable_when(op: str, left: Any, right: Any) -> OpError:
    return OpError("OPERATOR_NOT_APPLICABLE_WHEN",
                   render("OPERATOR_NOT_APPLICABLE_WHEN", operator=op, left=a_an(label(left)),
                          right=a_an(label(right))), "left")


# ---- numeric coercion -------------------------------------------------------------------------

def coerce_numeric(v: Any, blame: str, on_coerce: Callable[[Any, Any, str], None]) -> Any:
    """A number for arithmetic: numbers and time values as they are, numeric strings converted
    (``on_coerce`` reports it), anything else is NOT_NUMERIC."""
    t = type(v)
    if t is int or t is float or isinstance(v, (Timespan, Timestamp)):
        return v
    if isinstance(v, SemVer):
        # Puppet's Utils.to_n lets a version through (it is Comparable); the operation
        # itself then fails, see arithmetic().
        return v
    n = to_number(v) if t is str else None
    if n is None:
        raise OpError("NOT_NUMERIC", render("NOT_NUMERIC", value=ruby_interpolated(v)), blame)
    on_coerce(v, n, blame)
    return n


# ---- arithmetic --------------------------------------------------------------------------------

def concatenate(x: Any, y: Any) -> Any:
    out = _concatenate(x, y)
    tx, ty = type(x), type(y)
    if (tx is list or tx is tuple) and (ty is list or ty is tuple):
        measure_joined(out, [x, y])
    else:
        measure(out)
    return out


def _concatenate(x: Any, y: Any) -> Any:
    tx = type(x)
    if tx is list or tx is tuple:
        ty = type(y)
        if ty is list or ty is tuple:
            check_size(len(x) + len(y), "the concatenated array")
            return list(x) + list(y)
        if isinstance(y, dict):
            return list(x) + [[k, v] for k, v in y.items()]
        return list(x) + [y]
    if isinstance(x, dict):
        if isinstance(y, dict):
            out = dict(x)
            out.update(y)
            return out
        if type(y) in (list, tuple):
            t = infer(list(y))
            out = dict(x)
            if isinstance(t, m.ArrayType) and isinstance(t.element, (m.ArrayType, m.TupleType)):
                for pair in y:
                    if len(pair) != 2:
                        raise OpError("RUNTIME_ERROR",
                                      render("INVALID_NUMBER_ELEMENTS_FOR", count=len(pair)), "op")
                    out[_key(pair[0])] = pair[1]
                return out
            if len(y) % 2:
                raise OpError("RUNTIME_ERROR", render("ODD_NUMBER_ARGUMENTS_FOR_HASH"), "op")
            for i in range(0, len(y), 2):
                out[_key(y[i])] = y[i + 1]
            return out
        raise OpError("RUNTIME_ERROR", render("CAN_ONLY_APPEND_ARRAY_OR"), "op")
    if isinstance(x, URI):
        if not isinstance(y, (str, URI)):
            raise OpError("RUNTIME_ERROR", render("URI_CAN_ONLY_MERGED_WITH"), "op")
        return uri_merge(x, y if isinstance(y, URI) else URI(y))
    if isinstance(x, Binary):
        if not isinstance(y, Binary):
            raise OpError("RUNTIME_ERROR", render("CAN_ONLY_APPEND_BINARY_BINARY"), "op")
        return Binary(x.data + y.data)
    return _concatenate([x], y)


def _key(k: Any) -> Any:
    return hkey(k)


def uri_merge(base: URI, ref: URI) -> URI:
    """RFC 3986 reference resolution (Ruby's ``URI#+`` / ``merge``)."""
    try:
        return URI(urljoin(base.text, ref.text))
    except ValueError:
        return ref


def delete(x: Any, y: Any) -> Any:
    if type(x) in (list, tuple):
        if type(y) in (list, tuple):
            ys = list(y)
        elif isinstance(y, dict):
            ys = [[k, v] for k, v in y.items()]
        else:
            ys = [y]
        return [e for e in x if not any(_ruby_eq(e, d) for d in ys)]
    if isinstance(x, dict):
        if type(y) in (list, tuple):
            ys = list(y)
        elif isinstance(y, dict):
            ys = list(y.keys())
        else:
            ys = [y]
        out = dict(x)
        for d in ys:
            try:
                out.pop(_key(d), None)
            except TypeError:
                pass
        return out
    raise OpError("RUNTIME_ERROR", render("CAN_ONLY_DELETE_FROM_ARRAY"), "op")


def _ruby_eq(a: Any, b: Any) -> bool:
    """Ruby's ``==`` (case-sensitive strings, 1 == 1.0, element-wise containers)."""
    if type(a) is bool or type(b) is bool:
        return a is b
    if type(a) in (list, tuple) and type(b) in (list, tuple):
        return len(a) == len(b) and all(_ruby_eq(p, q) for p, q in zip(a, b))
    if isinstance(a, m.PType) and isinstance(b, m.PType):
        return types_equal(a, b)
    # Puppet's time values are Ruby Numerics equal to their number of seconds.
    ta, tb = isinstance(a, (Timespan, Timestamp)), isinstance(b, (Timespan, Timestamp))
    if ta != tb:
        t, n = (a, b) if ta else (b, a)
        return type(n) in (int, float) and t.nsecs == n * NSECS
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def arithmetic(op: str, left: Any, right: Any, on_coerce) -> Any:
    """``+ - * / % << >>`` with Puppet's rules for collections, numbers and time values."""
    if (isinstance(left, (URI, Binary))) and op == "+":
        return concatenate(left, right)
    tl = type(left)
    if (tl is list or tl is tuple or isinstance(left, dict)) and op in ("+", "-", "<<"):
        if op == "+":
            return concatenate(left, right)
        if op == "-":
            return delete(left, right)
        if isinstance(left, dict):
            raise _not_applicable(op, left)
        return list(left) + [right]
    left = coerce_numeric(left, "left", on_coerce)
    right = coerce_numeric(right, "right", on_coerce)
    if op == "%" and (type(left) is float or type(right) is float):
        if type(left) is float:
            raise _not_applicable(op, left)
        raise _not_applicable_when(op, left, right)
    lt = isinstance(left, (Timespan, Timestamp))
    rt = isinstance(right, (Timespan, Timestamp))
    if rt and not lt:
        if op == "+" or (op == "*" and isinstance(right, Timespan)):
            left, right = right, left
            lt, rt = True, False
        elif op == "-" and isinstance(right, Timespan):
            if isinstance(left, SemVer):
                raise _not_applicable(op, left)
            left = Timespan(int(left * NSECS))
            lt = True
        else:
            raise _not_applicable_when(op, left, right)
    if isinstance(left, SemVer):
        raise _not_applicable(op, left)
    if isinstance(right, SemVer) and not lt:
        if op in ("<<", ">>"):
            raise _not_applicable(op, left)
        # Ruby's Numeric#op tries to coerce the version to a Float.
        raise OpError("RUNTIME_ERROR", render("SEMVER_NOT_FLOAT"), "op")
    if lt:
        result = _time_arith(op, left, right)
    else:
        result = _num_arith(op, left, right)
    if type(result) is float:
        if math.isinf(result):
            raise OpError("RESULT_IS_INFINITY", render("RESULT_IS_INFINITY", operator=op),
                          "left")
    elif type(result) is int and (result < MIN_INTEGER or result > MAX_INTEGER):
        kind = "max" if result > 0 else "min"
        raise OpError("NUMERIC_OVERFLOW",
                      render("NUMERIC_OVERFLOW", expression=a_an_uc(repr_op(op)), kind=kind,
                             value=ruby_hex(result)), "op")
    return result


def repr_op(op: str) -> str:
    return f"'{op}' expression"


def _num_arith(op: str, a: Any, b: Any) -> Any:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        if type(a) is int and type(b) is int:
            if b == 0:
                raise OpError("DIV_BY_ZERO", render("DIV_BY_ZERO"), "right")
            return a // b
        if b == 0:
            if a == 0 or math.isnan(a):
                return float("nan")
            return math.copysign(float("inf"), a) * math.copysign(1.0, float(b))
        return a / b
    if op == "%":
        if b == 0:
            raise OpError("DIV_BY_ZERO", render("DIV_BY_ZERO"), "right")
        return a % b
    if op in ("<<", ">>"):
        if type(a) is float:
            raise _not_applicable(op, a)
        if type(b) is float:
            # Ruby's Integer#<< converts a Float count with to_int (truncation).
            if math.isnan(b) or math.isinf(b):
                raise _not_applicable_when(op, a, b)
            b = int(b)
        shift = b if op == "<<" else -b
        if shift >= 0:
            if shift > 4096:
                if a == 0:
                    return 0
                raise OpError("NUMERIC_OVERFLOW",
                              render("RESULTED_IN_VALUE_OUTSIDE_PUPPET",
                                     a_an_uc=a_an_uc(repr_op(op))), "op")
            return a << shift
        return a >> (-shift)
    raise _not_applicable(op, a)


def _time_arith(op: str, a: Any, b: Any) -> Any:
    """Arithmetic where the left operand is a Timespan or Timestamp (after reordering).

    Messages are those of Puppet's Timespan/Timestamp classes (including their wording
    "A Timestamp cannot be multiplied by ..." for a Timespan).
    """
    num = type(b) in (int, float)
    if isinstance(a, Timestamp):
        if op == "+":
            if isinstance(b, Timespan) or num:
                return Timestamp(a.nsecs + _ns(b))
            raise OpError("RUNTIME_ERROR", render("CANNOT_ADDED_TIMESTAMP",
                                                  a_an_kind=_a_an_kind(b, True)),
                          "op")
        if op == "-":
            if isinstance(b, Timestamp):
                return Timespan(a.nsecs - b.nsecs)
            if isinstance(b, Timespan) or num:
                return Timestamp(a.nsecs - _ns(b))
            raise OpError("RUNTIME_ERROR",
                          render("CANNOT_SUBTRACTED_FROM_TIMESTAMP", a_an_kind=_a_an_kind(b,
                                                                                          True)), "op")
        raise _not_applicable(op, a)
    if op == "+":
        if isinstance(b, Timestamp):
            return Timestamp(a.nsecs + b.nsecs)
        if isinstance(b, Timespan) or num:
            return Timespan(a.nsecs + _ns(b))
        raise OpError("RUNTIME_ERROR", render("CANNOT_ADDED_TIMESPAN", a_an_kind=_a_an_kind(b,
                                                                                            True)),
                      "op")
    if op == "-":
        if isinstance(b, Timespan) or num:
            return Timespan(a.nsecs - _ns(b))
        raise OpError("RUNTIME_ERROR",
                      render("CANNOT_SUBTRACTED_FROM_TIMESPAN", a_an_kind=_a_an_kind(b,
                                                                                     True)), "op")
    if op == "*":
        if num:
            return Timespan(int(a.nsecs * b))
        raise OpError("RUNTIME_ERROR", render("TIMESTAMP_CANNOT_MULTIPLIED_BY",
                                              a_an_kind=_a_an_kind(b)),
                      "op")
    if op == "/":
        if isinstance(b, Timespan):
            if b.nsecs == 0:
                raise OpError("DIV_BY_ZERO", render("DIV_BY_ZERO"), "right")
            return a.nsecs / b.nsecs
        if num:
            if b == 0:
                raise OpError("DIV_BY_ZERO", render("DIV_BY_ZERO"), "right")
            return Timespan(math.floor(a.nsecs / b) if type(b) is float else a.nsecs // b)
        raise OpError("RUNTIME_ERROR", render("TIMESPAN_CANNOT_DIVIDED_BY",
                                              a_an_kind=_a_an_kind(b)), "op")
    if op == "%":
        if type(b) is int:
            if b == 0:
                raise OpError("DIV_BY_ZERO", render("DIV_BY_ZERO"), "right")
            return int(a.nsecs / NSECS) % b if a.nsecs >= 0 else -(-a.nsecs // NSECS) % b
        kind = _a_an_kind(b)
        if isinstance(b, (Timespan, Timestamp, SemVer)):
            kind = "a " + kind  # Puppet's message doubles the article for these ("a a Timespan")
        raise OpError("RUNTIME_ERROR", render("CAN_NOT_DO_MODULUS_ON", kind=kind), "op")
    raise _not_applicable(op, a)


def _a_an_kind(v: Any, upper: bool = False) -> str:
    s = _article_kind(v)
    return s[0].upper() + s[1:] if upper else s


_VERB = {"*": "multiplied by", "/": "divided by", "%": "divided by", "<<": "shifted by",
         ">>": "shifted by"}


def _article_kind(v: Any) -> str:
    if isinstance(v, SemVer):
        return "a Version"  # the Ruby class name Puppet's time arithmetic prints
    if isinstance(v, Timestamp):
        return "a Timestamp"
    if isinstance(v, Timespan):
        return "a Timespan"
    if type(v) is int:
        return "an Integer"
    if type(v) is float:
        return "a Float"
    return a_an(label(v))


def _ns(v: Any) -> int:
    if isinstance(v, Timespan):
        return v.nsecs
    if isinstance(v, Timestamp):
        return v.nsecs
    if type(v) is float:
        return round(v * NSECS)
    return v * NSECS


# ---- equality and ordering ------------------------------------------------------------------------

def _ascii_lower(s: str) -> str:
    # Ruby's casecmp folds only A-Z (PUP-1800).
    return s.translate(_LOWER)


_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def equals(a: Any, b: Any, depth: int = 0) -> bool:
    """Puppet's ``==``."""
    ta = type(a)
    if depth == 0 and (ta is list or ta is dict or ta is tuple):
        measure(a)
        measure(b)
    if ta is str:
        return type(b) is str and (a == b or _ascii_lower(a) == _ascii_lower(b))
    if ta is int or ta is float:
        tb = type(b)
        if tb is int or tb is float:
            return a == b
        if isinstance(b, (Timespan, Timestamp)):
            return _time_num_cmp(b, a) == 0
        return False
    if ta is bool or type(b) is bool:
        return a is b
    if a is None:
        return b is None
    if depth > 200:
        return False
    if ta is list or ta is tuple:
        tb = type(b)
        if not (tb is list or tb is tuple) or len(a) != len(b):
            return False
        return all(equals(x, y, depth + 1) for x, y in zip(a, b))
    if isinstance(a, dict):
        if not isinstance(b, dict) or len(a) != len(b):
            return False
        for k, v in a.items():
            if k in b:
                bv = b[k]
            elif isinstance(k, Sensitive):
                bv = next((x for bk, x in b.items() if equals(bk, k, depth + 1)), None)
            else:
                bv = None
            if not equals(bv, v, depth + 1):
                return False
        return True
    if isinstance(a, m.PType):
        return isinstance(b, m.PType) and types_equal(a, b)
    if isinstance(a, (Timespan, Timestamp)):
        if type(b) is type(a):
            return a.nsecs == b.nsecs
        if type(b) in (int, float):
            return _time_num_cmp(a, b) == 0
        return False
    if isinstance(a, Sensitive):
        return a is b or (isinstance(b, Sensitive) and equals(a.value, b.value, depth + 1))
    if isinstance(a, Regexp):
        return isinstance(b, Regexp) and a.pattern == b.pattern
    if isinstance(a, SemVer):
        return isinstance(b, SemVer) and a.key() == b.key() and a.build == b.build
    try:
        return type(a) is type(b) and bool(a == b)
    except (TypeError, ValueError):
        return False


def _time_num_cmp(t, n) -> int:
    """Ruby's TimeData#<=>: whole seconds (truncated) against an Integer, seconds against a Float."""
    if type(n) is int:
        secs = t.nsecs // NSECS if t.nsecs >= 0 else -((-t.nsecs) // NSECS)
        return (secs > n) - (secs < n)
    s = t.nsecs / NSECS
    return (s > n) - (s < n)


class CompareError(Exception):
    """Ruby's refusal to order two values; its text (a registered fragment) becomes the
    "Caused by" of COMPARISON_NOT_POSSIBLE."""


def compare(a: Any, b: Any) -> int:
    """Puppet's ordering of values; raises CompareError with Puppet's reason."""
    ta = type(a)
    if ta is str:
        if type(b) is not str:
            raise CompareError(render("COMPARE_STRING_TO_NON_STRING"))
        x, y = _ascii_lower(a), _ascii_lower(b)
        return (x > y) - (x < y)
    if ta is int or ta is float:
        tb = type(b)
        if tb is int or tb is float:
            return (a > b) - (a < b)
        if isinstance(b, (Timespan, Timestamp)):
            return -compare(b, a)
        if isinstance(b, SemVer):
            # Ruby's Numeric#<=> tries to coerce the version (a TypeError, not a comparison
            # issue, in Puppet).
            raise OpError("RUNTIME_ERROR", render("SEMVER_NOT_FLOAT"),
                          "op")
        raise CompareError(render("COMPARE_NUMERIC_TO_NON_NUMERIC"))
    if isinstance(a, Timespan):
        if isinstance(b, Timespan):
            return (a.nsecs > b.nsecs) - (a.nsecs < b.nsecs)
        if type(b) in (int, float):
            return _time_num_cmp(a, b)
        raise CompareError(render("COMPARE_TIMESPAN"))
    if isinstance(a, Timestamp):
        if isinstance(b, Timestamp):
            return (a.nsecs > b.nsecs) - (a.nsecs < b.nsecs)
        if type(b) in (int, float):
            return _time_num_cmp(a, b)
        raise CompareError(render("COMPARE_TIMESTAMP"))
    if isinstance(a, SemVer):
        if not isinstance(b, SemVer):
            raise CompareError(render("COMPARE_VERSION"))
        ka, kb = a.key(), b.key()
        return (ka > kb) - (ka < kb)
    if isinstance(a, DefaultValue):
        # default is a Ruby Symbol: comparable to itself only.
        if isinstance(b, DefaultValue):
            return 0
        raise CompareError(render("COMPARE_SYMBOL"))
    raise CompareError(render("COMPARE_UNORDERED"))


def _cmp_label(v: Any) -> str:
    """The operand label of a comparison message (``default`` and a URI, Ruby objects Puppet's
    type calculator does not name there, show as Object)."""
    return "Object" if isinstance(v, (DefaultValue, URI)) else label(v)


def compare_op(op: str, left: Any, right: Any) -> bool:
    """``== != < <= > >=`` with types compared by assignability when the left is a type."""
    if isinstance(left, m.PType):
        if op == "==":
            return isinstance(right, m.PType) and types_equal(left, right)
        if op == "!=":
            return not (isinstance(right, m.PType) and types_equal(left, right))
        if not isinstance(right, m.PType):
            return False
        if op == "<":
            return is_assignable(right, left) and not types_equal(left, right)
        if op == "<=":
            return is_assignable(right, left)
        if op == ">":
            return is_assignable(left, right) and not types_equal(left, right)
        return is_assignable(left, right)
    if op == "==":
        return equals(left, right)
    if op == "!=":
        return not equals(left, right)
    try:
        c = compare(left, right)
    except CompareError as exc:
        raise OpError("COMPARISON_NOT_POSSIBLE",
                      render("COMPARISON_NOT_POSSIBLE", left=_cmp_label(left), operator=op,
                             right=_cmp_label(right), detail=exc), "op") from None
    if op == "<":
        return c < 0
    if op == "<=":
        return c <= 0
    if op == ">":
        return c > 0
    return c >= 0


# ---- regular expressions -------------------------------------------------------------------------

def regexp_search(rx: Regexp, s: str):
    """A Python match object for a Ruby regexp against a string, or None."""
    compiled = rx.compiled()
    if compiled is None:
        raise OpError("MATCH_NOT_REGEXP",
                      render("MATCH_INVALID_PATTERN", pattern=rx.pattern), "right")
    return compiled.search(s)


def match_groups(mt) -> tuple:
    return (mt.group(0),) + mt.groups()


def semver_range_includes(rng: SemVerRange, v: Any) -> bool:
    if isinstance(v, SemVer):
        return rng.include(v)
    if isinstance(v, str):
        try:
            return rng.include(SemVer.parse(v))
        except ValueError:
            return False
    return False


# ---- in ---------------------------------------------------------------------------------------------

def includes(container: Any, item: Any, set_match: Callable[[Any], None]) -> bool:
    """``item in container``."""
    tc = type(container)
    if tc is str:
        if type(item) is str:
            return _ascii_lower_full(item) in _ascii_lower_full(container)
        if isinstance(item, Regexp):
            mt = regexp_search(item, container)
            if mt:
                set_match(mt)
            return mt is not None
        if type(item) in (int, float):
            return equals(container, item)
        return False
    if tc is list or tc is tuple:
        if isinstance(item, Regexp):
            for e in container:
                if type(e) is str:
                    mt = regexp_search(item, e)
                    if mt:
                        set_match(mt)
                        return True
            return False
        if type(item) is str or isinstance(item, SemVer):
            return any(case_match(item, e, set_match) for e in container)
        if isinstance(item, m.PType):
            return any(is_instance(item, e) for e in container)
        return any(equals(e, item) for e in container)
    if isinstance(container, dict):
        return includes(list(container.keys()), item, set_match)
    if isinstance(container, Binary):
        if isinstance(item, Binary):
            return item.data in container.data
        if type(item) is str:
            return item.encode("utf-8") in container.data
        if type(item) in (int, float):
            return any(b == item for b in container.data)
        return False
    if isinstance(container, SemVerRange):
        return semver_range_includes(container, item)
    return False


def _ascii_lower_full(s: str) -> str:
    # String#downcase in Ruby is Unicode aware; Python's lower() is a close match.
    return s.lower()


# ---- case / selector matching ---------------------------------------------------------------------

def case_match(value: Any, option: Any, set_match: Callable[[Any], None] | None,
               depth: int = 0) -> bool:
    """Does ``option`` match the case/selector test ``value``?"""
    if isinstance(option, DefaultValue):
        return True
    if isinstance(option, Regexp):
        if type(value) is not str:
            return False
        mt = regexp_search(option, value)
        if mt and set_match is not None:
            set_match(mt)
        return mt is not None
    if isinstance(option, SemVer):
        if isinstance(value, SemVer):
            return option.key() == value.key()
        if type(value) is str:
            try:
                return option.key() == SemVer.parse(value).key()
            except ValueError:
                return False
        return False
    if isinstance(option, SemVerRange):
        return semver_range_includes(option, value)
    if isinstance(option, m.PType):
        return is_instance(option, value)
    if depth > 200:
        return False
    to = type(option)
    if to is list or to is tuple:
        tv = type(value)
        if not (tv is list or tv is tuple) or len(value) != len(option):
            return False
        return all(case_match(v, o, set_match, depth + 1) for v, o in zip(value, option))
    if isinstance(option, dict):
        if not isinstance(value, dict):
            return False
        return all(case_match(value.get(k), o, set_match, depth + 1) for k, o in option.items())
    return equals(value, option)
