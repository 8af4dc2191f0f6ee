"""Building types from type references (``Integer[1, 3]``) given as plain Python data.

The parser is not this module's business: the syntax layer turns a type expression into a
:class:`TypeCall` (a name plus argument values, arguments being runtime values or nested
TypeCalls) and calls :func:`build_type`. Mistakes become :class:`TypeSystemError` with the
span the caller attached, and messages modelled on Puppet's. Type aliases live in an
:class:`~.model.AliasScope`; :func:`resolve_alias` unfolds them lazily, so recursive aliases
work, and rejects aliases that never reach a real type.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from . import model as m
from .algebra import make_variant
from .errors import TypeSystemError
from .values import (URI, DefaultValue, Regexp, SemVerRange, Timespan, Timestamp)
from ..messages import render

__all__ = ["TypeCall", "build_type", "build", "resolve_alias", "define_alias", "check_alias",
           "BUILTIN_RESOURCE_TYPES", "BUILTIN_ALIASES", "normalize_resource_name",
           "normalize_class_name", "MAX_DEPTH"]

# Nesting deeper than this is refused; it keeps every recursive function far from Python's
# own recursion limit.
MAX_DEPTH = 100

BUILTIN_ALIASES = m.BUILTIN_SCOPE

# Resource types that ship with Puppet 7 (so ``File`` is Resource[File], while an unknown
# ``Foo`` stays a TypeReference until something defines it).
BUILTIN_RESOURCE_TYPES = frozenset("""
augeas component computer cron exec file filebucket group host interface k5login macauthorization
mailalias maillist mcx mount nagios_command nagios_contact nagios_contactgroup nagios_host
nagios_hostdependency nagios_hostescalation nagios_hostextinfo nagios_hostgroup nagios_service
nagios_servicedependency nagios_serviceescalation nagios_serviceextinfo nagios_servicegroup
nagios_timeperiod notify package resources router schedule scheduled_task selboolean selmodule
service ssh_authorized_key sshkey stage tidy user vlan whit yumrepo zfs zone zpool
""".split())


@dataclass(frozen=True, eq=False)
class TypeCall:
    """A type reference: ``name`` plus arguments (``Integer[1, 2]`` is ``TypeCall('Integer', (1, 2))``).

    ``args`` holds runtime values (int, float, str, bool, None, DEFAULT, Regexp, list, dict,
    SemVerRange, Timespan, ...), already built types, or nested TypeCalls. ``span`` is any
    location object the caller wants back in errors; ``arg_spans`` optionally gives one per
    argument for more precise errors.
    """

    name: str
    args: tuple = ()
    span: Any = None
    arg_spans: tuple = ()


def _kind(v: Any) -> str:
    """Puppet's name for the type of a value, for messages ("Got Integer")."""
    if isinstance(v, TypeCall):
        return f"{v.name}-Type"
    if isinstance(v, m.PType):
        return f"{v.name}-Type"
    if v is None:
        return "Undef"
    if isinstance(v, bool):
        return "Boolean"
    if isinstance(v, int):
        return "Integer"
    if isinstance(v, float):
        return "Float"
    if isinstance(v, str):
        return "String"
    if isinstance(v, (list, tuple)):
        return "Array"
    if isinstance(v, dict):
        return "Hash"
    if isinstance(v, DefaultValue):
        return "Default"
    return type(v).__name__


def _article(word: str) -> str:
    return ("an " if word[:1] in "AEIOU" else "a ") + word


class _Builder:
    """One build: carries the alias scope, known resource types and the depth budget."""

    def __init__(self, scope: m.AliasScope | None, resource_types: Any):
        self.scope = scope
        self.resource_types = BUILTIN_RESOURCE_TYPES if resource_types is None else resource_types
        self.depth = 0

    # -- helpers ----------------------------------------------------------------------------
    def err(self, call: TypeCall, msg: str, index: int | None = None,
            code: str = "ILLEGAL_TYPE_PARAMETER") -> TypeSystemError:
        span = call.span
        if index is not None and index < len(call.arg_spans) and call.arg_spans[index] is not None:
            span = call.arg_spans[index]
        return TypeSystemError(msg, span, code)

    def arg(self, call: TypeCall, v: Any, i: int) -> Any:
        """Evaluate one argument: nested TypeCalls become types (or lists of types)."""
        if isinstance(v, TypeCall):
            return self.call(v)
        if isinstance(v, (list, tuple)):
            return [self.arg(call, x, i) for x in v]
        if isinstance(v, dict):
            return {(self.arg(call, k, i) if isinstance(k, TypeCall) else k): self.arg(call, x, i)
                    for k, x in v.items()}
        return v

    def type_arg(self, call: TypeCall, v: Any, i: int) -> m.PType:
        if isinstance(v, m.PType):
            return v
        raise self.err(call, render("ILLEGAL_TYPE_PARAMETER", name=call.name, kind=_kind(v)), i)

    def size(self, call: TypeCall, args: list, offset: int) -> tuple:
        """A (min, max) size from 1-2 integers/default, or from one Integer type."""
        if len(args) == 1 and isinstance(args[0], m.IntegerType):
            lo, hi = args[0].lo, args[0].hi
        else:
            vals: list[int | None] = []
            for j, a in enumerate(args):
                if isinstance(a, DefaultValue):
                    vals.append(None)
                elif isinstance(a, int) and not isinstance(a, bool):
                    vals.append(a)
                else:
                    raise self.err(call, render("TYPE_SIZE_CONSTRAINT_ARGUMENTS_MUST",
                                                article=_article(_kind(a))), offset + j)
            lo = vals[0]
            hi = vals[1] if len(vals) > 1 else None
        lo = max(lo or 0, 0)
        if hi is not None and hi < 0:
            hi = 0
        if hi is not None and lo > hi:
            raise self.err(call, render("FROM_MUST_LESS_OR_EQUAL", lo=lo, hi=hi), offset)
        return (lo, hi)

    def arity(self, call: TypeCall, args: list, lo: int, hi: int | None) -> None:
        n = len(args)
        if n < lo or (hi is not None and n > hi):
            if hi is None:
                what = f"{lo} or more arguments"
            elif lo == hi:
                what = f"{lo} argument" + ("s" if lo != 1 else "")
            else:
                what = f"{lo} to {hi} arguments"
            raise self.err(call, render("WRONG_NUMBER_OF_TYPE_ARGUMENTS", name=call.name,
                                        what=what, n=n),
                           code="WRONG_NUMBER_OF_TYPE_ARGUMENTS")

    # -- entry ------------------------------------------------------------------------------
    def call(self, call: TypeCall) -> Any:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise TypeSystemError(render("TYPE_TOO_DEEP"), call.span,
                                      "TYPE_TOO_DEEP")
            return self._call(call)
        finally:
            self.depth -= 1

    def _call(self, call: TypeCall) -> Any:
        name = call.name
        if not isinstance(name, str) or not name:
            raise TypeSystemError(render("NOT_TYPE_NAME", name=name), call.span, "ILLEGAL_TYPE")
        name = name.removeprefix("::")
        args = [self.arg(call, a, i) for i, a in enumerate(call.args)]
        if self.scope is not None and self.scope.has(name) and name not in m.SIMPLE_TYPES:
            if args:
                raise self.err(call, render("OPERATOR_NOT_APPLICABLE_TYPE_ALIAS", alias_name=name),
                               code="NOT_PARAMETERIZED_TYPE")
            return m.TypeAliasType(name, self.scope)
        handler = getattr(self, "t_" + name, None)
        if handler is None:
            if name in m.SIMPLE_TYPES:
                if args:
                    raise self.err(call, render("OPERATOR_NOT_APPLICABLE_TYPE",
                                                article=_article(name)), code="NOT_PARAMETERIZED_TYPE")
                return m.SIMPLE_TYPES[name]
            return self.unknown(call, name, args)
        if not args:
            return m.SIMPLE_TYPES[name]
        return handler(call, args)

    def unknown(self, call: TypeCall, name: str, args: list) -> Any:
        if name.lower() in self.resource_types:
            return self.resource(call, [normalize_resource_name(name)] + args, 0)
        if args:
            from .format import format_value
            try:
                text = f"{name}[{', '.join(format_value(a) for a in args)}]"
            except (TypeSystemError, ValueError, RecursionError):  # formatting is total; be safe
                text = name
            return m.TypeReferenceType(text)
        return m.TypeReferenceType(name)

    # -- numbers and strings ----------------------------------------------------------------
    def t_Integer(self, call, args):
        if len(args) > 2:
            raise self.err(call, render("INTEGER_TYPE_SUPPORTS_WITH_ONE", count=len(args)),
                           code="WRONG_NUMBER_OF_TYPE_ARGUMENTS")
        vals = []
        for i, a in enumerate(args):
            if isinstance(a, DefaultValue):
                vals.append(None)
            elif isinstance(a, int) and not isinstance(a, bool):
                vals.append(a)
            else:
                raise self.err(call, render("INTEGER_TYPE_REQUIRES_ALL_ARGUMENTS", kind=_kind(a)),
                               i)
        lo, hi = vals[0], (vals[1] if len(vals) > 1 else None)
        if lo is not None and hi is not None and lo > hi:
            raise self.err(call, render("FROM_MUST_LESS_OR_EQUAL", lo=lo, hi=hi))
        return m.IntegerType(lo, hi)

    def t_Float(self, call, args):
        if len(args) > 2:
            raise self.err(call, render("FLOAT_TYPE_SUPPORTS_WITH_ONE", count=len(args)),
                           code="WRONG_NUMBER_OF_TYPE_ARGUMENTS")
        vals = []
        for i, a in enumerate(args):
            if isinstance(a, DefaultValue):
                vals.append(None)
            elif isinstance(a, (int, float)) and not isinstance(a, bool):
                if isinstance(a, float) and math.isnan(a):
                    raise self.err(call, render("FLOAT_TYPE_DOES_NOT_ACCEPT"), i)
                vals.append(float(a))
            else:
                raise self.err(call, render("FLOAT_TYPE_REQUIRES_ALL_ARGUMENTS", kind=_kind(a)), i)
        lo, hi = vals[0], (vals[1] if len(vals) > 1 else None)
        if lo is not None and hi is not None and lo > hi:
            raise self.err(call, render("FROM_MUST_LESS_OR_EQUAL", lo=lo, hi=hi))
        return m.FloatType(lo, hi)

    def t_String(self, call, args):
        self.arity(call, args, 1, 2)
        return m.StringType(self.size(call, args, 0))

    def t_Enum(self, call, args) -> Any:
        values: list = []
        ci = False
        flat: list = []
        for i, a in enumerate(args):
            if isinstance(a, list):
                flat.extend((x, i) for x in a)
            else:
                flat.append((a, i))
        if flat and isinstance(flat[-1][0], bool):
            ci = flat[-1][0]
            flat = flat[:-1]
        for a, i in flat:
            if isinstance(a, str):
                values.append(a)
            elif isinstance(a, m.EnumType):
                values.extend(a.values)
            else:
                raise self.err(call, render("ERROR_CREATING_TYPE_SPECIALIZATION_ENUM",
                                            kind=_kind(a)), i)
        return m.EnumType(tuple(sorted(set(values))), ci)

    def t_Pattern(self, call, args) -> Any:
        pats: list = []
        for i, a in enumerate(args):
            if isinstance(a, str):
                pats.append(Regexp(a))
            elif isinstance(a, Regexp):
                pats.append(a)
            elif isinstance(a, m.RegexpType):
                pats.append(Regexp(a.pattern or ""))
            elif isinstance(a, m.PatternType):
                pats.extend(a.patterns)
            else:
                raise self.err(call, render("ERROR_CREATING_TYPE_SPECIALIZATION_PATTERN",
                                            kind=_kind(a)), i)
        return m.PatternType(tuple(dict.fromkeys(pats)))

    def t_Boolean(self, call, args):
        self.arity(call, args, 1, 1)
        if not isinstance(args[0], bool):
            raise self.err(call, render("ERROR_CREATING_TYPE_SPECIALIZATION_BOOLEAN",
                                        kind=_kind(args[0])), 0)
        return m.BooleanType(args[0])

    def t_Regexp(self, call, args):
        self.arity(call, args, 1, 1)
        a = args[0]
        if isinstance(a, Regexp):
            return m.RegexpType(a.pattern)
        if isinstance(a, str):
            return m.RegexpType(a)
        raise self.err(call, render("ERROR_CREATING_TYPE_SPECIALIZATION_REGEXP", kind=_kind(a)), 0)

    def t_SemVer(self, call, args):
        ranges = []
        for i, a in enumerate(args):
            if isinstance(a, SemVerRange):
                ranges.append(a)
            elif isinstance(a, str):
                try:
                    ranges.append(SemVerRange.parse(a))
                except ValueError:
                    raise self.err(call, render("UNPARSABLE_VERSION_RANGE", a=a), i) from None
            else:
                raise self.err(call, render("ERROR_CREATING_TYPE_SPECIALIZATION_SEMVER",
                                            kind=_kind(a)), i)
        return m.SemVerType(tuple(dict.fromkeys(ranges)))

    def _time(self, call, args, cls, tcls):
        if len(args) > 2:
            raise self.err(call, render("RANGE_TYPE_ARITY", name=call.name, count=len(args)),
                           code="WRONG_NUMBER_OF_TYPE_ARGUMENTS")
        vals = []
        for i, a in enumerate(args):
            try:
                if isinstance(a, DefaultValue):
                    vals.append(None)
                elif isinstance(a, cls):
                    vals.append(a)
                elif isinstance(a, (int, float)) and not isinstance(a, bool):
                    x = cls.from_seconds(a)
                    if isinstance(a, float) and cls is Timespan:
                        x = Timespan(x.nsecs, padded=True)
                    vals.append(x)
                elif isinstance(a, str):
                    vals.append(cls.parse(a))
                else:
                    raise self.err(call, render("TYPE_REQUIRES_ARGUMENTS_STRING_INTEGER",
                                                name=call.name, kind=_kind(a)), i)
            except ValueError as exc:
                raise self.err(call, str(exc), i) from None
        lo, hi = vals[0], (vals[1] if len(vals) > 1 else None)
        if lo is not None and hi is not None and lo > hi:
            raise self.err(call, render("FROM_MUST_LESS_OR_EQUAL", lo=lo, hi=hi))
        return tcls(lo, hi)

    def t_Timespan(self, call, args):
        return self._time(call, args, Timespan, m.TimespanType)

    def t_Timestamp(self, call, args):
        return self._time(call, args, Timestamp, m.TimestampType)

    def t_URI(self, call, args):
        self.arity(call, args, 1, 1)
        a = args[0]
        if isinstance(a, (str, URI)):
            return m.URIType(tuple(URI(str(a)).parts().items()))
        if isinstance(a, dict):
            bad = [k for k in a if k not in ("scheme", "userinfo", "host", "port", "path",
                                             "query", "fragment", "opaque")]
            if bad:
                raise self.err(call, render("URI_TYPE_HAS_NO_PART", value=bad[0]), 0)
            # an empty hash constrains nothing: URI[{}] is URI
            return m.URIType(tuple(a.items()) if a else None)
        raise self.err(call, render("URI_TYPE_ARGUMENT_MUST_STRING", kind=_kind(a)),
                       0)

    # -- collections ------------------------------------------------------------------------
    def t_Collection(self, call, args):
        self.arity(call, args, 1, 2)
        return m.CollectionType(self.size(call, args, 0))

    def t_Array(self, call, args):
        self.arity(call, args, 1, 3)
        if len(args) == 2 and all(isinstance(a, (int, DefaultValue)) and not isinstance(a, bool)
                                  for a in args):
            size = self.size(call, args, 0)
            return m.EMPTY_ARRAY if size == (0, 0) else m.ArrayType(m.ANY, size)
        elem = self.type_arg(call, args[0], 0)
        size = self.size(call, args[1:], 1) if len(args) > 1 else None
        if size == (0, 0):
            return m.EMPTY_ARRAY  # an empty array has no elements to constrain
        return m.ArrayType(elem, size)

    def t_Hash(self, call, args):
        self.arity(call, args, 1, 4)
        if len(args) <= 2 and all(isinstance(a, (int, DefaultValue)) and not isinstance(a, bool)
                                  for a in args):
            size = self.size(call, args, 0)
            return m.EMPTY_HASH if size == (0, 0) else m.HashType(m.ANY, m.ANY, size)
        if len(args) == 1:
            self.type_arg(call, args[0], 0)
            self.arity(call, args, 2, 4)
        key = self.type_arg(call, args[0], 0)
        value = self.type_arg(call, args[1], 1)
        size = self.size(call, args[2:], 2) if len(args) > 2 else None
        if size == (0, 0):
            return m.EMPTY_HASH
        return m.HashType(key, value, size)

    def t_Tuple(self, call, args):
        types = []
        i = 0
        while i < len(args) and isinstance(args[i], m.PType):
            types.append(args[i])
            i += 1
        rest = args[i:]
        if len(rest) > 2 or any(not isinstance(a, (int, DefaultValue)) or isinstance(a, bool)
                                for a in rest):
            bad = next((j for j, a in enumerate(rest) if not isinstance(a, (int, DefaultValue))
                        or isinstance(a, bool)), 0)
            raise self.err(call, render("TUPLE_TYPE_ARGUMENTS_MUST_TYPES", kind=_kind(rest[bad])),
                           i + bad)
        if not types:
            raise self.err(call, render("TUPLE_TYPE_ACCEPTS_OR_MORE"),
                           code="WRONG_NUMBER_OF_TYPE_ARGUMENTS")
        size = self.size(call, rest, i) if rest else None
        return m.TupleType(tuple(types), size)

    def t_Struct(self, call, args):
        self.arity(call, args, 1, 1)
        h = args[0]
        if not isinstance(h, dict):
            raise self.err(call, render("ERROR_CREATING_TYPE_SPECIALIZATION_STRUCT",
                                        kind=_kind(h)), 0)
        elements = []
        seen = set()
        for k, v in h.items():
            if isinstance(k, str):
                key, mode = k, None
            elif isinstance(k, m.OptionalType) and k.key is not None:
                key, mode = k.key, "optional"
            elif isinstance(k, m.NotUndefType) and k.key is not None:
                key, mode = k.key, "required"
            elif isinstance(k, m.EnumType) and len(k.values) == 1:
                key, mode = k.values[0], None
            else:
                raise self.err(call, render("ILLEGAL_STRUCT_MEMBER_KEY_TYPE",
                                            replace=_kind(k).replace('-Type', '')), 0)
            if not isinstance(v, m.PType):
                raise self.err(call, render("STRUCT_TYPE_MEMBER_VALUES_MUST", kind=_kind(v)), 0)
            if key in seen:
                raise self.err(call, render("STRUCT_TYPE_HAS_DUPLICATE_KEY", key=key), 0)
            seen.add(key)
            accepts_undef = _accepts_undef(v)
            optional = (mode == "optional") or (mode is None and accepts_undef)
            elements.append(m.StructElement(key, v, optional))
        return m.StructType(tuple(elements))

    # -- combinators ------------------------------------------------------------------------
    def t_Variant(self, call, args):
        types = [self.type_arg(call, a, i) for i, a in enumerate(args)]
        return make_variant(types)

    def _optional_like(self, call, args, cls):
        self.arity(call, args, 1, 1)
        a = args[0]
        if isinstance(a, str):
            return cls(m.StringType(value=a), a)
        if isinstance(a, m.PType):
            return cls(a)
        raise self.err(call, render("TYPE_ARGUMENT_MUST_TYPE_OR", name=call.name, kind=_kind(a)),
                       0)

    def t_Optional(self, call, args):
        return self._optional_like(call, args, m.OptionalType)

    def t_NotUndef(self, call, args):
        return self._optional_like(call, args, m.NotUndefType)

    def _single(self, call, args, cls):
        self.arity(call, args, 1, 1)
        return cls(self.type_arg(call, args[0], 0))

    def t_Type(self, call, args):
        return self._single(call, args, m.TypeType)

    def t_Iterable(self, call, args):
        return self._single(call, args, m.IterableType)

    def t_Iterator(self, call, args):
        return self._single(call, args, m.IteratorType)

    def t_Sensitive(self, call, args):
        # Puppet keeps only the general form of a sensitive value's type.
        from .algebra import generalize
        t = self._single(call, args, m.SensitiveType)
        return m.SensitiveType(generalize(t.type))

    def t_Init(self, call, args):
        t = self.type_arg(call, args[0], 0)
        return m.InitType(t, tuple(_freeze(a) for a in args[1:]))

    def t_Callable(self, call, args):
        if isinstance(args[0], list) and len(args) <= 2:
            params = self.callable_params(call, args[0])
            ret = self.type_arg(call, args[1], 1) if len(args) == 2 else None
            if ret == m.ANY:
                ret = None
            return m.CallableType(params[0], params[1], ret)
        params = self.callable_params(call, args)
        return m.CallableType(params[0], params[1], None)

    def callable_params(self, call, args):
        args = list(args)
        block = None
        if args and (isinstance(args[-1], m.CallableType) or (
                isinstance(args[-1], m.OptionalType) and isinstance(args[-1].type,
                                                                    m.CallableType))):
            # A trailing Callable is the block, unless it is the only parameter type and no
            # sizes were given... Puppet treats a lone Callable as the block as well.
            block = args.pop()
        types = []
        i = 0
        while i < len(args) and not isinstance(args[i], (int, DefaultValue)):
            a = args[i]
            if isinstance(a, str):
                a = m.RuntimeType("ruby", a)
            if not isinstance(a, m.PType):
                raise self.err(call, render("CALLABLE_TYPE_PARAMETERS_MUST_TYPES", kind=_kind(a)),
                               i)
            types.append(a)
            i += 1
        rest = args[i:]
        if len(rest) > 2 or any(not isinstance(a, (int, DefaultValue)) or isinstance(a, bool)
                                for a in rest):
            raise self.err(call, render("CALLABLE_TYPE_SIZE_CONSTRAINT_MUST"), i)
        size = None
        if rest:
            size = self.size(call, rest, i)
        if not types and size is None and block is not None:
            size = (0, 0)
        return m.TupleType(tuple(types), size), block

    # -- catalog, runtime, objects --------------------------------------------------------
    def t_Runtime(self, call, args):
        self.arity(call, args, 2, 2) if len(args) != 2 else None
        rt, nm = args
        if not isinstance(rt, str):
            raise self.err(call, render("RUNTIME_TYPE_RUNTIME_MUST_STRING", kind=_kind(rt)), 0)
        if isinstance(nm, list) and len(nm) == 2 and isinstance(nm[0], Regexp):
            return m.RuntimeType(rt, (nm[0], str(nm[1])))
        if not isinstance(nm, str):
            raise self.err(call, render("ERROR_CREATING_TYPE_SPECIALIZATION_RUNTIME",
                                        kind=_kind(nm)), 1)
        return m.RuntimeType(rt, nm)

    def resource(self, call, args, offset):
        t = args[0]
        if isinstance(t, m.ResourceType) and t.title is None and t.type_name is not None:
            tname = t.type_name
        elif isinstance(t, str):
            tname = normalize_resource_name(t)
        elif isinstance(t, m.TypeReferenceType) and "[" not in t.text:
            tname = normalize_resource_name(t.text)
        elif isinstance(t, m.ClassType) and t.class_name is None:
            return self.t_Class(call, args[1:]) if len(args) > 1 else m.CLASS
        else:
            raise self.err(call, render("FIRST_ARGUMENT_RESOURCE_MUST_RESOURCE", kind=_kind(t)),
                           offset)
        titles = args[1:]
        if not titles:
            return m.ResourceType(tname)
        out = []
        for i, title in enumerate(_flatten(titles)):
            if not isinstance(title, str):
                raise self.err(call, render("RESOURCE_TITLES_MUST_STRINGS_GOT", kind=_kind(title)),
                               offset + 1 + i)
            out.append(m.ResourceType(tname, title))
        return out[0] if len(out) == 1 else out

    def t_Resource(self, call, args):
        return self.resource(call, args, 0)

    def t_Class(self, call, args):
        out = []
        for i, a in enumerate(_flatten(args)):
            if not isinstance(a, str):
                raise self.err(call, render("ILLEGAL_CLASS_NAME_IN_CLASS",
                                            article=_article(_kind(a))), i)
            out.append(m.ClassType(normalize_class_name(a)))
        return out[0] if len(out) == 1 else out

    def t_Object(self, call, args):
        self.arity(call, args, 1, 1)
        h = args[0]
        if isinstance(h, m.ObjectType):
            return h
        if not isinstance(h, dict):
            raise self.err(call, render("OBJECT_TYPE_ARGUMENT_MUST_HASH", kind=_kind(h)), 0)
        return object_from_hash(h, lambda msg: self.err(call, msg, 0))

    def t_TypeSet(self, call, args):
        self.arity(call, args, 1, 1)
        h = args[0]
        if not isinstance(h, dict):
            raise self.err(call, render("TYPESET_TYPE_ARGUMENT_MUST_HASH", kind=_kind(h)), 0)
        types = h.get("types", {}) or {}
        if not isinstance(types, dict):
            raise self.err(call, render("TYPESET_TYPES_MUST_HASH"), 0)
        built = []
        for name, body in types.items():
            if isinstance(body, dict):
                body = object_from_hash({"name": name, **body}, lambda msg: self.err(call, msg, 0))
            if not isinstance(body, m.PType):
                raise self.err(call, render("TYPESET_TYPE_MUST_TYPE_OR", name=name), 0)
            built.append((str(name), body))
        return m.TypeSetType(h.get("name"), str(h.get("version")) if h.get("version") else None,
                             tuple(built))


def object_from_hash(h: dict, err) -> m.ObjectType:
    """Build an Object type from its declaration hash (name, parent, attributes, functions)."""
    allowed = {"name", "parent", "attributes", "functions", "type_parameters", "constants",
               "equality", "equality_include_type", "serialization", "annotations"}
    for k in h:
        if k not in allowed:
            raise err(render("OBJECT_INITIALIZER_UNRECOGNIZED_KEY", key=k))
    name = h.get("name")
    if name is not None and not isinstance(name, str):
        raise err(render("OBJECT_INITIALIZER_ENTRY_WRONG_TYPE", entry="name", actual=_got(name),
                         expected="a match for Pattern[/\\A[A-Z][\\w]*(?:::[A-Z][\\w]*)*\\z/]"))
    parent = h.get("parent")
    if parent is not None and not isinstance(parent, m.PType):
        raise err(render("OBJECT_INITIALIZER_ENTRY_WRONG_TYPE", entry="parent", expected="a Type value",
                         actual=_got(parent)))
    if isinstance(parent, m.TypeReferenceType):
        raise err(render("OBJECT_PARENT_UNRESOLVED", name=parent.text))
    label = name or "Object"
    attrs = []
    for an, spec in (h.get("attributes") or {}).items():
        if isinstance(spec, m.PType):
            attrs.append(m.ObjectAttribute(str(an), spec))
        elif isinstance(spec, dict):
            t = spec.get("type", m.ANY)
            if not isinstance(t, m.PType):
                raise err(render("OBJECT_ATTRIBUTE_TYPE_WRONG_TYPE", label=label, name=an, actual=_got(t)))
            attrs.append(m.ObjectAttribute(str(an), t, "value" in spec, _freeze(spec.get("value")),
                                           spec.get("kind"), spec.get("final") is True,
                                           spec.get("override") is True))
        else:
            raise err(render("OBJECT_ATTRIBUTE_WRONG_TYPE", label=label, name=an, actual=_got(spec)))
    constants = h.get("constants") or {}
    if not isinstance(constants, dict):
        raise err(render("OBJECT_INITIALIZER_ENTRY_WRONG_TYPE", entry="constants", expected="a Hash value",
                         actual=_got(constants)))
    for cn, cv in constants.items():
        # a constant is an attribute of kind constant whose type is inferred from its value
        from .algebra import generalize, infer
        attrs.append(m.ObjectAttribute(str(cn), generalize(infer(cv)), True, _freeze(cv),
                                       "constant"))
    tparams = []
    for pn, spec in (h.get("type_parameters") or {}).items():
        if isinstance(spec, dict):
            spec = spec.get("type", m.ANY)
        if not isinstance(spec, m.PType):
            raise err(render("OBJECT_TYPE_PARAMETER_WRONG_TYPE", label=label, name=pn, expected="a Type value",
                             actual=_got(spec)))
        tparams.append((str(pn), spec))
    equality = h.get("equality")
    if isinstance(equality, str):
        equality = (equality,)
    elif isinstance(equality, list):
        equality = tuple(str(e) for e in equality)
    elif equality is not None:
        raise err(render("OBJECT_INITIALIZER_ENTRY_WRONG_TYPE", entry="equality", actual=_got(equality),
                         expected="a match for Variant[Pattern[/\\A[a-z_]\\w*\\z/], Array[Pattern[/\\A[a-z_]\\w*\\z/]]]"))
    funcs = []
    for fn, spec in (h.get("functions") or {}).items():
        if isinstance(spec, dict):
            spec = spec.get("type", m.CALLABLE)
        if not isinstance(spec, m.CallableType):
            raise err(render("OBJECT_FUNCTION_WRONG_TYPE", label=label, name=fn, actual=_got(spec)))
        funcs.append((str(fn), spec))
    annotations = h.get("annotations")
    anns = []
    if annotations is not None:
        if not isinstance(annotations, dict) or not all(
                isinstance(k, m.PType) and isinstance(v, dict) for k, v in annotations.items()):
            # Puppet names the whole expected type only when a Hash was given
            raise err(render("OBJECT_INITIALIZER_ENTRY_WRONG_TYPE", entry="annotations", actual=_got(annotations),
                             expected="a value of type Undef or " + (
                                 _ANNOTATIONS_TEXT if isinstance(annotations, dict) else "Hash")))
        # kept as written: whether each key is an Annotation type is checked once all aliases
        # are known (object_type_problem)
        anns = [(k, tuple((str(n), _freeze(x)) for n, x in v.items()))
                for k, v in annotations.items()]
    return m.ObjectType(name, parent, tuple(attrs), tuple(funcs),
                        type_parameters=tuple(tparams), equality=equality,
                        annotations=tuple(anns))


_ANNOTATIONS_TEXT = "Hash[Type[Annotation], Hash[Pattern[/\\A[a-z_]\\w*\\z/], Any]]"


def is_annotation_type(t: m.PType) -> bool:
    """Whether ``t`` is Annotation or an Object type inheriting from it."""
    from .relations import resolve
    cur: m.PType | None = resolve(t)
    seen = 0
    while isinstance(cur, m.ObjectType) and seen < 50:
        if cur.type_name == "Annotation":
            return True
        cur = resolve(cur.parent) if cur.parent is not None else None
        seen += 1
    return False


def object_type_problem(t: m.ObjectType) -> str | None:
    """What Puppet refuses when it resolves a declared Object type, or None.

    Checked: a parent chain that comes back to the type, an attribute overriding a final one,
    and an ``equality`` naming an inherited attribute that the parent's equality already has.
    """
    from .relations import resolve
    label = t.type_name or "Object"
    chain: list[m.ObjectType] = []
    p = resolve(t.parent) if t.parent is not None else None
    while isinstance(p, m.ObjectType):
        if p is t or (t.type_name is not None and p.type_name == t.type_name) or len(chain) > 50:
            return f"The Object type '{label}' inherits from itself"
        chain.append(p)
        p = resolve(p.parent) if p.parent is not None else None
    if isinstance(p, m.TypeReferenceType):
        return f"reference to unresolved type '{p.text}'"
    bad = [k for k, _ in t.annotations if not is_annotation_type(k)]
    if bad:
        from .format import type_to_string
        got = ", ".join(f"Type[{type_to_string(k)}]" for k in bad)
        return ("object initializer has wrong type, entry 'annotations' expects a value of "
                f"type Undef or {_ANNOTATIONS_TEXT}, got Hash[{got}, Hash]")
    for a in t.attributes:
        for anc in chain:
            hit = next((x for x in anc.attributes if x.name == a.name), None)
            if hit is not None:
                where = f"{anc.type_name or 'Object'}[{a.name}]"
                if hit.final:
                    return (f"attribute {label}[{a.name}] attempts to override final attribute "
                            f"{where}")
                if not a.override:
                    return (f"attribute {label}[{a.name}] attempts to override attribute {where}"
                            " without having override => true")
                break
    for name in t.equality or ():
        for anc in chain:
            hit = next((x for x in anc.attributes if x.name == name), None)
            if hit is None:
                continue
            # without a declaration, equality is every attribute that is not a constant
            included = (name in anc.equality) if anc.equality is not None else (
                hit.kind != "constant")
            if included:
                pl = anc.type_name or "Object"
                return (f"{label} equality is referencing attribute {pl}[{name}] which is "
                        f"included in equality of {pl}")
            break
    return None


def object_type_parameters(t: m.PType, depth: int = 0) -> list:
    """The type parameters of an Object type, inherited ones first."""
    from .relations import resolve
    t = resolve(t)
    if not isinstance(t, m.ObjectType) or depth > 50:
        return []
    inherited = object_type_parameters(t.parent, depth + 1) if t.parent is not None else []
    own = dict(t.type_parameters)
    out = [(n, own.pop(n, tp)) for n, tp in inherited]
    out.extend((n, tp) for n, tp in t.type_parameters if n in own)
    return out


def parameterize_object(base: m.ObjectType, args: list, err) -> m.ObjectExtType:
    """``MyType[a, b]`` / ``MyType[p1 => a]``: the base type narrowed by parameter values.

    ``err(message)`` makes the exception to raise. ``default`` leaves a parameter unset, and
    at least one must be set.
    """
    from .relations import is_instance
    label = base.type_name or "Object"
    pts = object_type_parameters(base)
    if not pts:
        raise err(render("OBJECT_TYPE_NOT_PARAMETERIZABLE", label=label))
    by_name: dict = {}
    named = len(args) == 1 and isinstance(args[0], dict) and not is_instance(pts[0][1], args[0])
    if named:
        known = dict(pts)
        for pn, pv in args[0].items():
            if pn not in known:
                raise err(render("OBJECT_TYPE_UNKNOWN_PARAMETER", name=pn, label=label))
            if not isinstance(pv, DefaultValue):
                by_name[pn] = _check_type_param(label, pn, known[pn], pv, err)
    else:
        # arguments past the declared parameters are ignored, as Puppet does
        for (pn, tp), pv in zip(pts, args):
            if not isinstance(pv, DefaultValue):
                by_name[pn] = _check_type_param(label, pn, tp, pv, err)
    if not by_name:
        raise err(render("OBJECT_TYPE_EMPTY_PARAMETER_LIST", label=label))
    return m.ObjectExtType(base, tuple((pn, by_name[pn]) for pn, _ in pts if pn in by_name))


def _check_type_param(label: str, pn: str, tp: m.PType, v: Any, err) -> Any:
    from .format import type_to_string
    from .relations import is_instance
    # a type parameter may always be given as undef
    if v is not None and not is_instance(tp, v):
        members = ["Undef"] + [type_to_string(x) for x in _variant_members(tp)
                               if not isinstance(x, m.UndefType)]
        expected = (" or ".join(members) if len(members) == 2
                    else ", ".join(members[:-1]) + ", or " + members[-1])
        raise err(render("OBJECT_TYPE_PARAMETER_WRONG_TYPE", label=label, name=pn,
                         expected="a value of type " + expected, actual=_got(v)))
    return _freeze(v)


def _got(v: Any) -> str:
    """What Puppet's type mismatch messages say was given (``got Integer``)."""
    from .algebra import generalize, infer_set
    from .format import type_to_string
    got = generalize(infer_set(v))
    return got.name if isinstance(got, m.RegexpType) else type_to_string(got)


def _variant_members(t: m.PType) -> list:
    """The alternatives of a type as Puppet's mismatch message lists them."""
    if isinstance(t, m.OptionalType):
        return _variant_members(t.type) if t.type is not None else []
    if isinstance(t, m.VariantType):
        return [x for member in t.types for x in _variant_members(member)]
    return [t]


def _flatten(args):
    for a in args:
        if isinstance(a, list):
            yield from _flatten(a)
        else:
            yield a


def _freeze(v: Any) -> Any:
    """A hashable version of a value (lists -> tuples, dicts -> tuples of pairs)."""
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return tuple((_freeze(k), _freeze(x)) for k, x in v.items())
    return v


def _accepts_undef(t: m.PType) -> bool:
    from .relations import is_assignable
    return is_assignable(t, m.UNDEF)


def normalize_resource_name(name: str) -> str:
    """``file`` / ``::foo::bar`` -> ``File`` / ``Foo::Bar`` (Puppet's capitalised form)."""
    name = name.removeprefix("::")
    return "::".join(seg[:1].upper() + seg[1:] for seg in name.split("::"))


def normalize_class_name(name: str) -> str:
    name = name.removeprefix("::")
    return name.lower()


def build_type(call: Any, scope: m.AliasScope | None = None,
               resource_types: Any = None) -> m.PType:
    """Build the type a reference denotes. Raises only :class:`TypeSystemError`.

    ``call`` is a :class:`TypeCall` (or an already built type, returned as is). ``scope`` holds
    user type aliases; ``resource_types`` is the set of known resource type names (lower case),
    Puppet's built-in ones by default. A reference producing several types
    (``File['a', 'b']``) is an error here; use :func:`build` to get the list.
    """
    out = build(call, scope, resource_types)
    if isinstance(out, list):
        raise TypeSystemError(render("TYPE_REFERENCE_WITH_SEVERAL_TITLES"),
                              getattr(call, "span", None), "ILLEGAL_TYPE")
    return out


def build(call: Any, scope: m.AliasScope | None = None, resource_types: Any = None) -> Any:
    """Like :func:`build_type`, but ``Class[a, b]`` / ``File['a', 'b']`` give a list of types."""
    if isinstance(call, m.PType):
        return call
    if not isinstance(call, TypeCall):
        raise TypeSystemError(render("NOT_TYPE_REFERENCE", kind=_kind(call)), None, "ILLEGAL_TYPE")
    try:
        return _Builder(scope, resource_types).call(call)
    except TypeSystemError:
        raise
    except RecursionError:
        raise TypeSystemError(render("TYPE_TOO_DEEP"), call.span,
                              "TYPE_TOO_DEEP") from None
    # isolation boundary: the public entry point's errors are data, never tracebacks
    except Exception as exc:  # noqa: BLE001
        raise TypeSystemError(render("INVALID_TYPE_EXPRESSION", exc=exc), call.span,
                              "ILLEGAL_TYPE") from None


# --- aliases ---------------------------------------------------------------------------------

def define_alias(scope: m.AliasScope, name: str, body: Any) -> m.TypeAliasType:
    """Add ``type name = body`` to ``scope`` (body: TypeCall or type); returns the alias type.

    Resolution is lazy, so aliases may refer to each other in any order; call
    :func:`check_alias` once all are defined to report those that never resolve.
    """
    scope.define(name, body)
    return m.TypeAliasType(name, scope)


def _resolve(alias: m.TypeAliasType) -> m.PType:
    scope = alias.scope
    name = alias.alias_name
    if scope is None:
        raise TypeSystemError(render("UNRESOLVED_ALIAS", name=name), None, "UNRESOLVED_ALIAS")
    cache = scope._resolved
    if name in cache:
        hit = cache[name]
        if isinstance(hit, TypeSystemError):
            raise hit
        return hit
    body = scope.body(name)
    if body is None:
        raise TypeSystemError(render("TYPE_ALIAS_NOT_DEFINED", name=name), None,
                              "UNRESOLVED_ALIAS")
    if name in scope._resolving:
        raise TypeSystemError(render("ILLEGAL_ALIAS", name=name), None,
                              "ILLEGAL_ALIAS")
    scope._resolving.add(name)
    try:
        t = build_type(body, scope) if isinstance(body, TypeCall) else body
        seen = {name}
        # Follow alias-to-alias chains; a chain that returns to itself never reaches a type.
        while isinstance(t, m.TypeAliasType):
            if t.alias_name in seen and t.scope is scope:
                raise TypeSystemError(render("ILLEGAL_ALIAS", name=name),
                                      getattr(body, "span", None), "ILLEGAL_ALIAS")
            seen.add(t.alias_name)
            t = _resolve(t)
        if _directly_self_referent(t, alias, 0):
            raise TypeSystemError(render("ILLEGAL_ALIAS", name=name),
                                  getattr(body, "span", None), "ILLEGAL_ALIAS")
        cache[name] = t
        return t
    except TypeSystemError as exc:
        cache[name] = exc
        raise
    finally:
        scope._resolving.discard(name)


def _directly_self_referent(t: m.PType, alias: m.TypeAliasType, depth: int,
                            visited: set | None = None) -> bool:
    """True when ``t`` reaches ``alias`` through Variant/Optional/NotUndef only.

    Such an alias (``type A = Variant[A, Integer]``) has no finite meaning, while one that goes
    through a container (``type Tree = Array[Tree]``) is a proper recursive type.
    """
    visited = set() if visited is None else visited
    if depth > MAX_DEPTH:
        return True
    if t == alias:
        return True
    if isinstance(t, m.VariantType):
        return any(_directly_self_referent(x, alias, depth + 1, visited) for x in t.types)
    if isinstance(t, (m.OptionalType, m.NotUndefType)) and t.type is not None:
        return _directly_self_referent(t.type, alias, depth + 1, visited)
    if isinstance(t, m.TypeAliasType) and t.scope is alias.scope and t != alias:
        if t.alias_name in visited:
            return False
        visited.add(t.alias_name)
        inner = t.scope.body(t.alias_name)
        if isinstance(inner, TypeCall):
            try:
                inner = build_type(inner, t.scope)
            except TypeSystemError:
                return False
        if isinstance(inner, m.PType):
            return _directly_self_referent(inner, alias, depth + 1, visited)
    return False


def resolve_alias(alias: m.TypeAliasType) -> m.PType:
    """The type an alias stands for; raises TypeSystemError for undefined/looping aliases."""
    return _resolve(alias)


def check_alias(scope: m.AliasScope, name: str) -> TypeSystemError | None:
    """The error that resolving alias ``name`` gives, or None when it is fine."""
    try:
        _resolve(m.TypeAliasType(name, scope))
        return None
    except TypeSystemError as exc:
        return exc
