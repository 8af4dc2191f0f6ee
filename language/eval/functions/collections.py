"""Collection functions: ``keys``, ``values``, ``length``/``size``, ``empty``, ``dig``, ``get``,
``join``, ``flatten``, ``unique``, ``sort``, ``min``, ``max``, ``compare``, ``versioncmp``.
"""
from __future__ import annotations

import functools
import re
from typing import Any

from ...types.algebra import infer
from ...types.format import type_to_string
from ...types.values import Binary, SemVer, Timespan, Timestamp, DefaultValue
from ..errors import EvalError
from ..iteration import iterate
from ..runtime import hkey, label, ObjectValue, class_name_of
from ..stringconv import to_s
from ..registry import define
from ...messages import render
from ..rubyfmt import ruby_inspect, ruby_to_s
from ..operators import _ascii_lower

# ---- keys / values / length / empty ---------------------------------------------------------------

keys = define("keys")
keys.dispatch("Hash hsh")(lambda c, h: list(h.keys()))

values = define("values")
values.dispatch("Hash hsh")(lambda c, h: list(h.values()))

length = define("length")
length.dispatch("Collection arg")(lambda c, x: len(x))
length.dispatch("String arg")(lambda c, x: len(x))
length.dispatch("Binary arg")(lambda c, x: len(x.data))

size = define("size")


@size.dispatch("Variant[Collection, String, Binary] arg")
def _size(c, x):
    return len(x.data) if isinstance(x, Binary) else len(x)


empty = define("empty")
empty.dispatch("Collection coll")(lambda c, x: len(x) == 0)
empty.dispatch("Sensitive[String] str")(lambda c, x: len(x.value) == 0)
empty.dispatch("String str")(lambda c, x: len(x) == 0)


@empty.dispatch("Numeric num")
def _empty_num(c, n):
    c.ctx.log("warning", render("DEPRECATED_EMPTY_NUMERIC"), *c.node.range, note="line")
    return False


empty.dispatch("Binary bin")(lambda c, x: len(x.data) == 0)
empty.dispatch("Undef x")(lambda c, x: True)

# ---- dig / get -----------------------------------------------------------------------------------

dig = define("dig")


class DigError(EvalError):
    def __init__(self, message: str, issue: str, details: dict):
        super().__init__(message, "SLICE_ERROR")
        self.issue = issue
        self.details = details


def _ruby_list(path: list) -> str:
    return ruby_inspect(path)


def dig_values(data: Any, keys_: list) -> Any:
    walked: list = []
    d = data
    for k in keys_:
        if d is None or k is None:
            return None
        if not (type(d) in (list, tuple) or isinstance(d, dict)):
            t = type_to_string(infer(d))
            raise DigError(render("GIVEN_DATA_DOES_NOT_CONTAIN", ruby_list=_ruby_list(walked),
                                  t=t),
                           "EXPECTED_COLLECTION", {"walked_path": list(walked),
                                                   "value_type": infer(d)})
        walked.append(k)
        if type(d) in (list, tuple):
            if type(k) is not int:
                t = type_to_string(infer(k))
                raise DigError(render("GIVEN_DATA_REQUIRES_INTEGER_INDEX",
                                      ruby_list=_ruby_list(walked), t=t),
                               "EXPECTED_INTEGER_INDEX", {"walked_path": list(walked),
                                                          "index_type": infer(k)})
            d = d[k] if -len(d) <= k < len(d) else None
        else:
            try:
                d = d.get(hkey(k))
            except TypeError:
                d = None
    return d


@dig.dispatch("Optional[Collection] data", "Any arg*")
def _dig(c, data, *args):
    return dig_values(data, list(args))


get = define("get")

_SEGMENT = re.compile(r"""(\s*"[^"]+"\s*|\s*'[^']+'\s*|[^'".]+)""")


def split_key(key: str) -> list:
    """Split a dotted key the way Puppet's lookup does (quotes protect dots)."""
    if not re.search(r"[\"'.]", key):
        return [key]
    parts = _SEGMENT.split(key)
    while parts and parts[-1] == "":
        parts.pop()
    if not parts or parts[0] != "":
        raise EvalError(render("SYNTAX_ERROR_IN_DOTTED_NAVIGATION"))
    parts = parts[1:]
    count = len(parts)
    if count == 0:
        raise EvalError(render("SYNTAX_ERROR_IN_DOTTED_NAVIGATION"))
    segs = [p for p in parts if p != "."]
    if len(segs) * 2 != count + 1:
        raise EvalError(render("SYNTAX_ERROR_IN_DOTTED_NAVIGATION"))
    out: list = []
    for s in segs:
        s = s.strip()
        if s[:1] in ("'", '"'):
            out.append(s[1:-1])
        elif re.match(r"^:?[+-]?[0-9]+$", s):
            out.append(int(s.lstrip(":")))
        else:
            out.append(s)
    return out


def dig_dotted(c, value: Any, navigation: str, default_value: Any,
               from_getvar: bool = False) -> Any:
    if value is None:
        return _default(c, default_value)
    if navigation == "":
        return value
    segs = split_key("x." + navigation)[1:]
    try:
        result = dig_values(value, segs)
    except DigError as exc:
        if c.block is not None:
            err = ObjectValue("Error", (("msg", exc.message), ("kind", "SLICE_ERROR"),
                                         ("details", exc.details), ("issue_code", exc.issue)))
            return c.block.call([err])
        raise
    return default_value if result is None else result


def _default(c, default_value):
    return default_value


@get.dispatch("Any value", "String dotted_string", "Any default_value?",
              block="Callable[1,1] block?")
def _get(c, value, dotted, default_value=None):
    return dig_dotted(c, value, dotted, default_value)


# ---- join / flatten / unique -----------------------------------------------------------------------

join = define("join")


@join.dispatch("Array arg", "String delimiter?")
def _join(c, arr, delimiter=""):
    return delimiter.join(_join_s(x, delimiter) for x in arr)


def _join_s(x: Any, delimiter: str) -> str:
    # Ruby's Array#join flattens nested arrays and uses to_s for the rest.
    if type(x) in (list, tuple):
        return delimiter.join(_join_s(y, delimiter) for y in x)
    if isinstance(x, dict):
        return ruby_inspect(x)
    if type(x) in (str, int, float, bool) or x is None:
        return ruby_to_s(x)
    return to_s(x)


flatten = define("flatten")


def _flat(xs, out):
    for x in xs:
        if type(x) in (list, tuple):
            _flat(x, out)
        else:
            out.append(x)
    return out


@flatten.dispatch("Any args*")
def _flatten(c, *args):
    return _flat(args, [])


unique = define("unique")


def _uniq(items: list, block) -> list:
    seen: list = []
    out = []
    for x in items:
        k = block.call([x]) if block is not None else x
        if not any(_ruby_eql(k, s) for s in seen):
            seen.append(k)
            out.append(x)
    return out


def _ruby_eql(a, b) -> bool:
    # Ruby's uniq uses hash/eql?: 1 and 1.0 differ, strings are case sensitive.
    if type(a) is not type(b):
        if type(a) in (list, tuple) and type(b) in (list, tuple):
            pass
        else:
            return False
    if type(a) in (list, tuple):
        return len(a) == len(b) and all(_ruby_eql(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return len(a) == len(b) and all(k in b and _ruby_eql(v, b[k]) for k, v in a.items())
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


@unique.dispatch("String string", block="Callable[String] block?")
def _unique_string(c, s):
    return "".join(_uniq(list(s), c.block))


@unique.dispatch("Hash hash", block="Callable[Any] block?")
def _unique_hash(c, h) -> Any:
    groups: list = []
    for k, v in h.items():
        key = c.block.call([v]) if c.block is not None else v
        for g in groups:
            if _ruby_eql(g[0], key):
                g[1].append(k)
                g[2].append(v)
                break
        else:
            groups.append((key, [k], [v]))
    return {hkey(ks): _uniq(vs, None) for _, ks, vs in groups}


@unique.dispatch("Array array", block="Callable[Any] block?")
def _unique_array(c, a):
    return _uniq(list(a), c.block)


@unique.dispatch("Iterable iterable", block="Callable[Any] block?")
def _unique_iterable(c, it):
    return _uniq(list(iterate(c.ev, it)), c.block)


# ---- ordering ----------------------------------------------------------------------------------------------

def ruby_cmp(a: Any, b: Any) -> int:
    """Ruby's ``<=>`` for the values sort/min/max see; ArgumentError-like failure as EvalError."""
    ta, tb = type(a), type(b)
    if ta in (int, float) and tb in (int, float):
        return (a > b) - (a < b)
    if ta is str and tb is str:
        return (a > b) - (a < b)
    if isinstance(a, (Timespan, Timestamp)) and type(b) is type(a):
        return (a.nsecs > b.nsecs) - (a.nsecs < b.nsecs)
    if isinstance(a, SemVer) and isinstance(b, SemVer):
        ka, kb = a.key(), b.key()
        return (ka > kb) - (ka < kb)
    if ta in (list, tuple) and tb in (list, tuple):
        for x, y in zip(a, b):
            r = ruby_cmp(x, y)
            if r:
                return r
        return (len(a) > len(b)) - (len(a) < len(b))
    raise EvalError(render("COMPARISON_WITH_FAILED", ruby_class=_ruby_class(a),
                           cmperr_operand=_cmperr_operand(b)))


def _cmperr_operand(v) -> str:
    """How Ruby's ``rb_cmperr`` shows the right operand: immediates (nil, booleans, small
    integers, floats, symbols) by ``inspect``, anything else by class name."""
    if v is None or type(v) in (bool, int, float) or isinstance(v, DefaultValue):
        if isinstance(v, DefaultValue):
            return ":default"
        return _ruby_inspect_short(v)
    return _ruby_class(v)


def _ruby_class(v) -> str:
    return class_name_of(v)


def _ruby_inspect_short(v) -> str:
    return ruby_inspect(v)


sort = define("sort")


def _sort(c, items: list) -> list:
    if c.block is not None:
        def cmp(a, b):
            r = c.block.call([a, b])
            if type(r) is not int:
                raise EvalError(render("COMPARISON_WITH_FAILED", ruby_class=_ruby_class(a),
                                       cmperr_operand=_ruby_class(b)))
            return r
        return sorted(items, key=functools.cmp_to_key(cmp))
    # Ruby's sort meets an incomparable pair in its own order; comparing neighbours first
    # reports the pair Ruby reports for the usual small arrays ("comparison of Integer with
    # String failed" for [1, 'a']).
    budget = c.ev.budget

    def counted(a, b):
        # a comparison is a step: sorting an array doubled to millions of elements in a few
        # steps must still stop with the budget
        budget.charge()
        return ruby_cmp(a, b)

    for i in range(len(items) - 1):
        counted(items[i], items[i + 1])
    return sorted(items, key=functools.cmp_to_key(counted))


@sort.dispatch("String string_value", block="Callable[2,2] block?")
def _sort_string(c, s):
    return "".join(_sort(c, list(s)))


@sort.dispatch("Array array_value", block="Callable[2,2] block?")
def _sort_array(c, a):
    return _sort(c, list(a))


_NUMERIC_STR = re.compile(r"\A-?\d+([._eE]\d+)?\Z")


def _to_f(s: str) -> float:
    m = re.match(r"^\s*[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?", s.replace("_", ""))
    try:
        return float(m.group(0)) if m else 0.0
    except ValueError:
        return 0.0


def _minmax(name: str, pick):
    f = define(name)

    def assert_count(args):
        if not args:
            raise EvalError(render("WRONG_NUMBER_ARGUMENTS_NEED_AT", name=name))

    def select(args, cmp):
        best = args[0]
        for x in args[1:]:
            r = cmp(x, best)
            if (r > 0 and pick > 0) or (r < 0 and pick < 0):
                best = x
        return best

    def on_numeric(c, *args):
        assert_count(args)
        return select(list(args), ruby_cmp)

    def str_cmp(a, b):
        if _NUMERIC_STR.match(a) and _NUMERIC_STR.match(b):
            # Puppet warns once per process (warn_once); here once per evaluation.
            _warn(c_holder[0], f"The {name}() function's auto conversion of String to Numeric is "
                  "deprecated - change to convert input before calling, or use lambda")
            fa, fb = _to_f(a), _to_f(b)
            return (fa > fb) - (fa < fb)
        return (a > b) - (a < b)

    c_holder: list = [None]

    def on_string(c, *args):
        assert_count(args)
        c_holder[0] = c
        return select(list(args), str_cmp)

    def on_block(c, *args):
        def cmp(a, b):
            r = c.block.call([a, b])
            return r if type(r) is int else 0
        return select(list(args), cmp)

    def any_cmp(a, b):
        as_, bs = ruby_to_s(a), ruby_to_s(b)
        if _NUMERIC_STR.match(as_) and _NUMERIC_STR.match(bs):
            _warn(c_holder[0], f"The {name}() function's auto conversion of String to Numeric is "
                  "deprecated - change to convert input before calling, or use lambda")
            fa, fb = _to_f(as_), _to_f(bs)
            return (fa > fb) - (fa < fb)
        _warn(c_holder[0], f"The {name}() function's auto conversion of Any to String is "
              "deprecated - change to convert input before calling, or use lambda")
        return (as_ > bs) - (as_ < bs)

    def on_any(c, *args):
        assert_count(args)
        c_holder[0] = c
        return select(list(args), any_cmp)

    def single(kind):
        def impl(c, arr):
            if c.block is not None:
                return on_block(c, *arr)
            return kind(c, *arr)
        return impl

    def on_semver(c, *args):
        assert_count(args)
        return select(list(args), ruby_cmp)

    def on_time(c, *args):
        assert_count(args)
        return select(list(args), ruby_cmp)

    f.dispatch("Numeric values*")(on_numeric)
    f.dispatch("String values*")(on_string)
    f.dispatch("Semver values*")(on_semver)
    f.dispatch("Timespan values*")(on_time)
    f.dispatch("Timestamp values*")(on_time)
    f.dispatch("Array[Numeric] values", block="Callable[2,2] block?")(single(on_numeric))
    f.dispatch("Array[String] values", block="Callable[2,2] block?")(single(on_string))
    f.dispatch("Array[Semver] values", block="Callable[2,2] block?")(single(on_semver))
    f.dispatch("Array[Timespan] values", block="Callable[2,2] block?")(single(on_time))
    f.dispatch("Array[Timestamp] values", block="Callable[2,2] block?")(single(on_time))
    f.dispatch("Array values", block="Callable[2,2] block?")(single(on_any))
    f.dispatch("Any values*", block="Callable[2,2] block")(on_block)
    f.dispatch("Any values*")(on_any)


def _warn(c, msg: str) -> None:
    if c is None:
        return
    key = ("warn_once", msg)
    if key in c.ctx.warned:
        return
    c.ctx.warned.add(key)
    c.ctx.log("warning", msg, note="none")


_minmax("max", 1)
_minmax("min", -1)


# ---- compare / versioncmp ----------------------------------------------------------------------------

compare = define("compare")


def _cmp(a, b) -> int:
    return (a > b) - (a < b)


compare.dispatch("Numeric a", "Numeric b")(lambda c, a, b: _cmp(a, b))


@compare.dispatch("String a", "String b", "Boolean ignore_case?")
def _compare_strings(c, a, b, ignore_case=True):
    if ignore_case:
        return _cmp(_ascii_lower(a), _ascii_lower(b))
    return _cmp(a, b)


compare.dispatch("Semver a", "Semver b")(lambda c, a, b: _cmp(a.key(), b.key()))


@compare.dispatch("Numeric a", "Variant[Timespan, Timestamp] b")
def _compare_num_time(c, a, b):
    return -_cmp(b.nsecs / 1e9, a)


@compare.dispatch("Timestamp a", "Variant[Timestamp, Numeric] b")
def _compare_timestamp(c, a, b):
    return _cmp(a.nsecs, b.nsecs) if isinstance(b, Timestamp) else _cmp(a.nsecs / 1e9, b)


@compare.dispatch("Timespan a", "Variant[Timespan, Numeric] b")
def _compare_timespan(c, a, b):
    return _cmp(a.nsecs, b.nsecs) if isinstance(b, Timespan) else _cmp(a.nsecs / 1e9, b)


_COMPARABLE = "Variant[String, Semver, Numeric, Timespan, Timestamp]"


@compare.argument_mismatch(f"{_COMPARABLE} a", f"{_COMPARABLE} b", "Any ignore_case*")
def _compare_error(c, a, b, *ignore_case):
    if ignore_case:
        if not (type(a) is str and type(b) is str):
            return "compare(): The third argument (ignore case) can only be used when comparing strings"
        if len(ignore_case) != 1:
            return f"compare(): Accepts at most 3 arguments, got {2 + len(ignore_case)}"
        if type(ignore_case[0]) is not bool:
            return ("compare(): The third argument (ignore case) must be a Boolean. Got "
                    f"{label(ignore_case[0])}")
    if _ruby_class(a) != _ruby_class(b):
        return ("compare(): Can only compare values of the same type (or for Timestamp/Timespan "
                f"also against Numeric). Got {label(a)} and {label(b)}")
    return ""


@compare.argument_mismatch("Any a", "Any b", "Any ignore_case*")
def _compare_not_comparable(c, a, b, *ignore_case):
    return ("compare(): Non comparable type. Only values of the types Numeric, String, Semver, "
            f"Timestamp and Timestamp can be compared. Got {label(a)} and {label(b)}")


versioncmp = define("versioncmp")


def _version_cmp(a: str, b: str, ignore_trailing_zeroes: bool = False) -> int:
    """Puppet::Util::Package.versioncmp."""
    vre = re.compile(r"[-.]|\d+|[^-.\d]+")
    if ignore_trailing_zeroes:
        def norm(v):
            parts = v.split("-")
            parts[0] = re.sub(r"[.0]+$", "", parts[0])
            return "-".join(parts)
        a, b = norm(a), norm(b)
    ax = vre.findall(a)
    bx = vre.findall(b)
    while ax and bx:
        x = ax.pop(0)
        y = bx.pop(0)
        if x == y:
            continue
        if x == "-":
            return -1
        if y == "-":
            return 1
        if x == "." and y == ".":
            continue
        if x == ".":
            return -1
        if y == ".":
            return 1
        if x.isdigit() and y.isdigit():
            if x.startswith("0") or y.startswith("0"):
                return _cmp(x.upper(), y.upper())
            return _cmp(int(x), int(y))
        return _cmp(x.upper(), y.upper())
    return _cmp(a, b)


@versioncmp.dispatch("String a", "String b", "Boolean ignore_trailing_zeroes?")
def _versioncmp(c, a, b, itz=False):
    return _version_cmp(a, b, itz)
