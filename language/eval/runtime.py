"""Small helpers over runtime values: truthiness, Puppet's labels for messages, numeric
conversion of strings, hash keys, and the Integer range.

Values follow the model of :mod:`puppet_ls.language.types.values` (Python int/float/str/
bool/None/list/dict plus the value classes there).  Hash keys must be hashable in Python, so a
list used as a key is stored as a tuple and a hash as a :class:`FrozenHash`; both still behave
as Array/Hash everywhere else.
"""
from __future__ import annotations

import re
from typing import Any

from ..types import model as m
from ..types.algebra import generalize, infer
from ..types.format import type_to_string
from ..types.guard import check_integer_digits
from ..types.values import (REGEXP_COMPILE_ERRORS, URI, Binary, Deferred, DefaultValue,
                            ObjectValue, Regexp, SemVer, SemVerRange, Sensitive, Timespan, Timestamp, RubyRegexpError,
                            compile_python_regexp, translate_ruby_regexp)
from ..types.errors import TypeSystemError
from ..messages import render
from ..syntax.labels import a_an, a_an_uc, article
from ..syntax.ast import MAX_INTEGER, MIN_INTEGER  # the range is a syntax fact (literals beyond it)


class FrozenHash(dict):
    """A Hash used as a hash key: a dict that can be hashed (never mutated after creation)."""

    def __hash__(self) -> int:  # type: ignore[override]  # dict says unhashable; never mutated
        return hash(tuple(self.items()))


def hkey(v: Any) -> Any:
    """A value made usable as a Python dict key (lists become tuples, dicts FrozenHash)."""
    t = type(v)
    if t is list:
        return tuple(hkey(x) for x in v)
    if t is dict:
        return FrozenHash((hkey(k), hkey(x)) for k, x in v.items())
    return v


def truthy(v: Any) -> bool:
    """Puppet's truth: only undef and false are false."""
    return v is not None and v is not False


def is_int(v: Any) -> bool:
    return type(v) is int


def is_float(v: Any) -> bool:
    return type(v) is float


def is_number(v: Any) -> bool:
    t = type(v)
    return t is int or t is float


def is_array(v: Any) -> bool:
    t = type(v)
    return t is list or t is tuple


def is_hash(v: Any) -> bool:
    return isinstance(v, dict)


# ---- labels (Puppet's LabelProvider, used in messages) ------------------------------------------

def label(v: Any) -> str:
    """The label Puppet uses for a value in messages ("Integer", "Array-Type", ...)."""
    if v is None:
        return "Undef Value"
    t = type(v)
    if t is bool:
        return "Boolean"
    if t is int:
        return "Integer"
    if t is float:
        return "Float"
    if t is str:
        return "String"
    if t is list or t is tuple:
        return "Array"
    if isinstance(v, dict):
        return "Hash"
    if isinstance(v, Regexp):
        return "Regexp"
    if isinstance(v, m.ResourceType) and v.title is not None:
        return f"{type_to_string(v)} Resource-Reference"
    if isinstance(v, m.PType):
        return f"{type_to_string(v)}-Type"
    if isinstance(v, Timespan):
        return "Timespan"
    if isinstance(v, Timestamp):
        return "Timestamp"
    if isinstance(v, SemVer):
        return "Semver"
    if isinstance(v, SemVerRange):
        return "SemverRange"
    if isinstance(v, Binary):
        return "Binary"
    if isinstance(v, Sensitive):
        return "Sensitive"
    if isinstance(v, DefaultValue):
        return "Symbol"
    if isinstance(v, URI):
        return "URI"
    return "Object"


def generalized_type_name(v: Any) -> str:
    """``String(type(v, generalized))`` - the type name Puppet prints in many messages."""
    if v is None:
        return "Undef"
    if isinstance(v, DefaultValue):
        return "Default"
    try:
        return type_to_string(generalize(infer(v)))
    except (TypeSystemError, RecursionError):  # inference is total, but a message must never fail
        return label(v)


def class_name_of(v: Any) -> str:
    """Ruby's class name of a value (some Puppet messages print ``value.class``)."""
    if v is None:
        return "NilClass"
    t = type(v)
    if t is bool:
        return "TrueClass" if v else "FalseClass"
    if t is int:
        return "Integer"
    if t is float:
        return "Float"
    if t is str:
        return "String"
    if t is list or t is tuple:
        return "Array"
    if isinstance(v, dict):
        return "Hash"
    if isinstance(v, Regexp):
        return "Regexp"
    if isinstance(v, DefaultValue):
        return "Symbol"
    if isinstance(v, m.PType):
        return "Puppet::Pops::Types::P" + type(v).__name__
    if type(v).__name__ == "URI":
        scheme = str(v).split(":", 1)[0].lower() if ":" in str(v) else ""
        return "URI::" + _URI_CLASSES.get(scheme, "Generic")
    return _RUBY_CLASSES.get(type(v).__name__, type(v).__name__)


# Ruby's URI classes by scheme (others are URI::Generic).
_URI_CLASSES = {"http": "HTTP", "https": "HTTPS", "ftp": "FTP", "ldap": "LDAP", "ldaps": "LDAPS",
                "mailto": "MailTo", "file": "File", "ws": "WS", "wss": "WSS"}


# The Ruby classes behind Puppet's runtime values, as Ruby messages name them.
_RUBY_CLASSES = {
    "SemVer": "SemanticPuppet::Version", "SemVerRange": "SemanticPuppet::VersionRange",
    "Timespan": "Puppet::Pops::Time::Timespan", "Timestamp": "Puppet::Pops::Time::Timestamp",
    "Binary": "Puppet::Pops::Types::PBinaryType::Binary",
    "Sensitive": "Puppet::Pops::Types::PSensitiveType::Sensitive",
    "URI": "URI::Generic", "Deferred": "Puppet::Pops::Evaluator::DeferredValue",
}


# ---- regular expressions --------------------------------------------------------------------

# Python's complaints about a pattern, as Ruby's regexp engine (Onigmo) words them.
# Python's re texts for what Onigmo also refuses (a pattern matched at their start, its groups the
# arguments), and the fragment of Onigmo's text for each.
_ONIGMO_ERRORS = tuple((re.compile(py), key) for py, key in (
    (r"unterminated character set", "ONIGMO_PREMATURE_END_OF_CLASS"),
    (r"missing \), unterminated subpattern", "ONIGMO_UNMATCHED_PAREN"),
    (r"unbalanced parenthesis", "ONIGMO_UNMATCHED_CLOSE_PAREN"),
    (r"nothing to repeat", "ONIGMO_NOTHING_TO_REPEAT"),
    (r"min repeat greater than max repeat", "ONIGMO_BAD_REPEAT_RANGE"),
    (r"bad character range", "ONIGMO_EMPTY_RANGE"),
    (r"bad escape \(end of pattern\)", "ONIGMO_TOO_SHORT_ESCAPE"),
    (r"unknown extension \?P", "ONIGMO_UNDEFINED_GROUP_OPTION"),
    (r"unknown group name '(?P<name>[^']*)'", "ONIGMO_UNDEFINED_NAME_REFERENCE"),
    (r"bad character in group name '(?P<name>[^']*)'", "ONIGMO_INVALID_GROUP_NAME"),
    (r"invalid group reference", "ONIGMO_INVALID_BACKREF"),
    (r"missing group name", "ONIGMO_EMPTY_GROUP_NAME"),
    (r"incomplete escape \\x", "ONIGMO_INVALID_HEX_ESCAPE"),
))


def regexp_error(pattern: str) -> str:
    """Ruby's message for an invalid regular expression (``premature end of char-class: /.[/``)."""
    try:
        translated = translate_ruby_regexp(pattern)
        try:
            compile_python_regexp(translated)
        except (RecursionError, OverflowError, ValueError):
            raise
        except REGEXP_COMPILE_ERRORS:
            # the engine refuses it: the stdlib's wording is the one mapped to Onigmo's below
            re.compile(translated)
            raise
    except RubyRegexpError as exc:
        return render("REGEXP_ERROR", reason=exc, pattern=pattern)
    except re.error as exc:
        for py, key in _ONIGMO_ERRORS:
            found = py.match(exc.msg)
            if found:
                return render("REGEXP_ERROR", reason=render(key, **found.groupdict()), pattern=pattern)
        # No Onigmo equivalent known: the registry's own words, never Python's text.
    except (RecursionError, OverflowError, ValueError):
        pass
    return render("REGEXP_INVALID", pattern=pattern)


# ---- numbers --------------------------------------------------------------------------------

# Puppet's Patterns::NUMERIC, with Ruby's ASCII-only \d and [[:blank:]] (space and tab).
_NUMERIC = re.compile(
    r"\A[ \t]*([-+]?)[ \t]*((0[xX][0-9A-Fa-f]+)|(0?[0-9]+)((?:\.[0-9]+)?(?:[eE]-?[0-9]+)?))[ \t]*\Z")


def to_number(s: Any) -> int | float | None:
    """Puppet's ``Utils.to_n``: the number a string spells, or None.

    Decimal, octal (leading 0) and hexadecimal integers and decimal floats are recognised, with
    an optional sign (blanks may separate it from the digits).
    """
    if type(s) is int or type(s) is float:
        return s
    if type(s) is not str:
        return None
    text = s.removeprefix("::")
    mt = _NUMERIC.match(text)
    if not mt:
        return None
    neg = mt.group(1) == "-"
    body = mt.group(2)
    if mt.group(5):
        try:
            whole = _ruby_int(mt.group(4))
        except ValueError:
            return None
        if whole == 0 and re.match(r"\A\.?0*[eE]", mt.group(5)):
            return None
        try:
            f = float(body)
        except ValueError:
            return None
        if f == float("inf"):
            return None
        return -f if neg else f
    if mt.group(3):
        check_integer_digits(mt.group(3), 16, "the Integer in the string")
    try:
        n = int(mt.group(3), 16) if mt.group(3) else _ruby_int(mt.group(4))
    except ValueError:
        return None
    return -n if neg else n


def _ruby_int(digits: str) -> int:
    """Ruby ``Integer(s)`` for a string of digits: a leading 0 means octal."""
    if len(digits) > 1 and digits[0] == "0":
        check_integer_digits(digits, 8, "the Integer in the string")
        return int(digits, 8)
    return int(digits, 10)


def int_in_range(n: int) -> bool:
    return MIN_INTEGER <= n <= MAX_INTEGER


def ruby_hex(n: int) -> str:
    """Ruby ``"%#+x" % n`` (used in NUMERIC_OVERFLOW messages)."""
    return ("-" if n < 0 else "+") + "0x" + format(abs(n), "x")


# ---- misc -------------------------------------------------------------------------------------

def is_value_kind(v: Any, *kinds: type) -> bool:
    return isinstance(v, kinds)


def deep_copy(v: Any) -> Any:
    """Values are immutable in Puppet; containers are copied before producing a new one."""
    t = type(v)
    if t is list:
        return [deep_copy(x) for x in v]
    if t is dict:
        return {k: deep_copy(x) for k, x in v.items()}
    return v


__all__ = [
    "MAX_INTEGER", "MIN_INTEGER", "FrozenHash", "hkey", "truthy", "is_int", "is_float",
    "is_number", "is_array", "is_hash", "label", "article", "a_an", "a_an_uc",
    "generalized_type_name", "class_name_of", "to_number", "int_in_range", "ruby_hex",
    "URI", "Binary", "Deferred", "DefaultValue", "ObjectValue", "Regexp", "SemVer",
    "SemVerRange", "Sensitive", "Timespan", "Timestamp",
]
