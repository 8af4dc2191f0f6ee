"""Puppet's descriptions of type mismatches ("'f' parameter 'x' expects an Integer value, got
String", "expects between 1 and 2 arguments, got 3", "The function 'each' was called with
arguments it does not accept. It expects one of: ...").

This follows the structure of Puppet's TypeMismatchDescriber: a mismatch is found by walking
the expected type against the inferred type of the actual value, producing mismatch records
with a path (parameter, entry, index, variant...), which are then merged across the variants
of a Variant type or the signatures of a function and formatted.  Users know these texts, so
they are reproduced word for word.
"""
from __future__ import annotations

from typing import Any

from ..types import model as m
from ..types.algebra import generalize, infer_set, make_variant
from ..types.build import resolve_alias
from ..types.format import type_to_string
from ..types.relations import is_assignable, is_instance
from ..types.values import holds
import copy
from .context import Unknown
from .typecheck import infer_set_of
from .type_strings import alias_expanded, normalized
from ..types.errors import TypeSystemError

INF = float("inf")


# ---- path elements ------------------------------------------------------------------------------

class PathElement:
    __slots__ = ("key",)
    fmt = "{}"

    def __init__(self, key: Any):
        self.key = key

    def __eq__(self, o) -> bool:
        return type(self) is type(o) and self.key == o.key

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.key))

    def __str__(self) -> str:
        return self.fmt.format(self.key)


class Subject(PathElement):
    fmt = "{}"


class EntryValue(PathElement):
    fmt = "entry '{}'"


class EntryKey(PathElement):
    fmt = "key of entry '{}'"


class Parameter(PathElement):
    fmt = "parameter '{}'"


class ReturnElem(PathElement):
    fmt = "{}"


class BlockElem(Parameter):
    fmt = "{}"


class Index(PathElement):
    fmt = "index {}"


class Variant(PathElement):
    fmt = "variant {}"


class SignatureElem(Variant):
    def __str__(self) -> str:
        return f"{self.key + 1}."


# ---- mismatches ---------------------------------------------------------------------------------

class Mismatch:
    def __init__(self, path: list):
        self.path = list(path or [])

    def canonical_path(self) -> list:
        return [e for e in self.path if not isinstance(e, Variant)]

    def message(self, variant: str, position: str) -> str:
        return f"{variant}unknown mismatch{position}"

    def merge(self, path, other):
        return type(self)(path)

    def key(self):
        return (type(self).__name__, tuple(self.canonical_path()))

    def __eq__(self, o) -> bool:
        return isinstance(o, Mismatch) and self.key() == o.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def chop_path(self, index: int) -> Mismatch:
        if index >= len(self.path):
            return self
        c = copy.copy(self)
        c.path = self.path[:index] + self.path[index + 1:]
        return c

    def format(self) -> str:
        p = self.path
        variant = ""
        position = ""
        if p:
            f = p[0]
            if isinstance(f, SignatureElem):
                variant = f" {f}"
                p = p[1:]
            if p:
                position = " " + " ".join(str(e) for e in p)
        return self.message(variant, position)


class KeyMismatch(Mismatch):
    def __init__(self, path, key):
        super().__init__(path)
        self.mkey = key

    def key(self):
        return super().key() + (self.mkey,)


class MissingKey(KeyMismatch):
    def message(self, variant, position):
        return f"{variant}{position} expects a value for key '{self.mkey}'"


class MissingParameter(KeyMismatch):
    def message(self, variant, position):
        return f"{variant}{position} expects a value for parameter '{self.mkey}'"


class ExtraneousKey(KeyMismatch):
    def message(self, variant, position):
        return f"{variant}{position} unrecognized key '{self.mkey}'"


class InvalidParameter(ExtraneousKey):
    def message(self, variant, position):
        return f"{variant}{position} has no parameter named '{self.mkey}'"


class UnexpectedBlock(Mismatch):
    def message(self, variant, position):
        return f"{variant}{position} does not expect a block"


class MissingRequiredBlock(Mismatch):
    def message(self, variant, position):
        return f"{variant}{position} expects a block"


class UnresolvedTypeReference(Mismatch):
    def __init__(self, path, unresolved):
        super().__init__(path)
        self.unresolved = unresolved

    def message(self, variant, position):
        return f"{variant}{position} references an unresolved type '{self.unresolved}'"


class ExpectedActual(Mismatch):
    def __init__(self, path, expected, actual):
        super().__init__(path)
        if isinstance(expected, list):
            # A merged expectation keeps every alternative (no subsumption), as Puppet does,
            # except that Enums merge into one (Puppet's normalization of a Variant of Enums).
            if expected and all(isinstance(e, m.EnumType) for e in expected):
                vals = sorted({v for e in expected for v in e.values})
                self.expected = m.EnumType(tuple(vals))
            else:
                self.expected = make_variant(expected)
        else:
            self.expected = normalized(expected)
        self.actual = normalized(actual)

    def key(self):
        return super().key() + (self.expected, self.actual)


def simple_name(t: m.PType) -> str:
    if isinstance(t, m.TypeAliasType):
        return t.alias_name
    if isinstance(t, m.ObjectType) and t.type_name:
        return t.type_name
    return t.name


def _name(t: m.PType) -> str:
    return simple_name(t)


def short_name(t: m.PType) -> str:
    if isinstance(t, (m.OptionalType, m.NotUndefType, m.SensitiveType, m.TypeType,
                      m.IterableType, m.IteratorType)):
        inner = t.type
        if inner is not None and inner != m.ANY:
            return f"{t.name}[{_name(inner)}]"
    return _name(t)



def _resolved(t):
    if isinstance(t, list):
        return [_resolved(x) for x in t]
    while isinstance(t, m.TypeAliasType):
        try:
            t = resolve_alias(t)
        except (TypeSystemError, RecursionError):
            break
    return t


def _default_of(t: m.PType) -> m.PType:
    return m.SIMPLE_TYPES.get(t.name, m.ANY) if not isinstance(t, m.ObjectType) else m.OBJECT


class TypeMismatch(ExpectedActual):
    def merge(self, path, other):
        ex = self.expected.types if isinstance(self.expected, m.VariantType) else [self.expected]
        ox = other.expected.types if isinstance(other.expected,
                                                m.VariantType) else [other.expected]
        merged = []
        for t in list(ex) + list(ox):
            if t not in merged:
                merged.append(t)
        return type(self)(path, merged, self.actual)

    def message(self, variant, position):
        e = self.expected
        a = self.actual
        multi = False
        optional = False
        if isinstance(e, m.OptionalType):
            e = e.type if e.type is not None else m.ANY
            optional = True
        if isinstance(e, m.VariantType):
            e = list(e.types)
        if isinstance(e, list):
            if _report_detailed(e, a):
                a_s = _detailed_actual(e, a)
                es = [alias_expanded(t) for t in e]
            else:
                es = []
                for t in e:
                    n = short_name(t)
                    if n not in es:
                        es.append(n)
                a_s = short_name(a)
            if optional:
                es.insert(0, "Undef")
            if len(es) == 1:
                e_s = es[0]
            elif len(es) == 2:
                e_s = f"{es[0]} or {es[1]}"
                multi = True
            else:
                e_s = f"{', '.join(es[:-1])}, or {es[-1]}"
                multi = True
        else:
            if _report_detailed(e, a):
                a_s = _detailed_actual(e, a)
                e_s = alias_expanded(e)
            else:
                e_s = short_name(e)
                a_s = short_name(a)
            if optional:
                e_s = f"Undef or {e_s}"
                multi = True
        if multi:
            return f"{variant}{position} expects a value of type {e_s}, got {a_s}"
        return f"{variant}{position} expects {_a_an(e_s)} value, got {a_s}"


def _a_an(s: str) -> str:
    return ("an " if s[:1].lower() in "aeiou" else "a ") + s


def _specialization(e, a) -> bool:
    if isinstance(e, m.StructType):
        return isinstance(a, m.HashType)
    if isinstance(e, m.TupleType):
        return isinstance(a, m.ArrayType)
    return False


def _always_detailed(e, a) -> bool:
    if isinstance(e, list):
        return any(_always_detailed(t, a) for t in e)
    return (type(e) is type(a) or isinstance(e, m.TypeAliasType) or isinstance(a, m.TypeAliasType)
            or _specialization(e, a))


def _any_assignable(e, a) -> bool:
    if isinstance(e, list):
        return any(is_assignable(t, a) for t in e)
    return is_assignable(e, a)


def _assignable_to_default(e, a) -> bool:
    if isinstance(e, list):
        return any(_assignable_to_default(t, a) for t in e)
    e = _resolved(e)
    return is_assignable(_default_of(e), a)


def _report_detailed(e, a) -> bool:
    return _always_detailed(e, a) or _assignable_to_default(e, a)


def _detailed_actual(e, a) -> str:
    e = _resolved(e)
    if _always_detailed(e, a):
        return alias_expanded(a)
    return alias_expanded(a) if _any_assignable(e, generalize(a)) else simple_name(a)


class PatternMismatch(TypeMismatch):
    def message(self, variant, position):
        e = self.expected
        pfx = ""
        if isinstance(e, m.OptionalType):
            e = e.type
            pfx = "an undef value or "
        a = self.actual
        if isinstance(a, m.StringType) and a.value is not None:
            a_s = f"'{a.value}'"
        else:
            a_s = short_name(a)
        return f"{variant}{position} expects {pfx}a match for {alias_expanded(e)}, got {a_s}"


def _range_of(t) -> tuple:
    if isinstance(t, m.IntegerType):
        return (t.lo if t.lo is not None else 0, t.hi if t.hi is not None else INF)
    lo, hi = t
    return (lo or 0, INF if hi is None else hi)


class SizeMismatch(Mismatch):
    def __init__(self, path, expected: tuple, actual: tuple):
        super().__init__(path)
        self.expected = expected   # (min, max) with INF
        self.actual = actual

    def key(self):
        return super().key() + (self.expected, self.actual)

    def merge(self, path, other):
        lo = min(self.expected[0], other.expected[0])
        hi = max(self.expected[1], other.expected[1])
        return type(self)(path, (lo, hi), self.actual)

    def message(self, variant, position):
        return (f"{variant}{position} expects size to be {_range_s(self.expected, '0')}, got "
                f"{_range_s(self.actual, '0')}")


def _range_s(r: tuple, zero: str) -> str:
    lo, hi = r
    if lo == hi:
        return zero if lo == 0 else str(lo)
    if lo == 0:
        return "unlimited" if hi == INF else f"at most {hi}"
    if hi == INF:
        return f"at least {lo}"
    return f"between {lo} and {hi}"


class CountMismatch(SizeMismatch):
    def message(self, variant, position):
        lo, hi = self.expected
        suffix = "" if (lo == 1 and (hi == 1 or hi == INF)) or (lo == 0 and hi == 1) else "s"
        return (f"{variant}{position} expects {_range_s(self.expected, 'no')} argument{suffix}, "
                f"got {_range_s(self.actual, 'none')}")


def _size_assignable(outer: tuple, inner: tuple) -> bool:
    return outer[0] <= inner[0] and inner[1] <= outer[1]


# ---- describing ------------------------------------------------------------------------------------

def _find_unresolved(t, depth=0):
    if depth > 50:
        return None
    if isinstance(t, m.TypeReferenceType):
        return t.text
    if isinstance(t, m.TypeAliasType):
        try:
            return _find_unresolved(resolve_alias(t), depth + 10)
        except (TypeSystemError, RecursionError):
            return None
    for attr in ("type", "element", "key", "value"):
        x = getattr(t, attr, None)
        if isinstance(x, m.PType):
            r = _find_unresolved(x, depth + 1)
            if r:
                return r
    for attr in ("types",):
        xs = getattr(t, attr, None)
        if isinstance(xs, tuple):
            for x in xs:
                if isinstance(x, m.PType):
                    r = _find_unresolved(x, depth + 1)
                    if r:
                        return r
    return None


def describe(expected: m.PType, actual: m.PType, path: list) -> list:
    unresolved = _find_unresolved(expected)
    if unresolved:
        return [UnresolvedTypeReference(path, unresolved)]
    return _internal(normalized(expected), expected, actual, path)


def _internal(expected, original, actual, path) -> list:
    if isinstance(expected, m.VariantType):
        return _variant(expected, original, actual, path)
    if isinstance(expected, m.StructType):
        return _struct(expected, original, actual, path)
    if isinstance(expected, m.HashType):
        return _hash(expected, original, actual, path)
    if isinstance(expected, m.TupleType):
        return _tuple(expected, original, actual, path, SizeMismatch)
    if isinstance(expected, m.ArrayType):
        return _array(expected, original, actual, path)
    if isinstance(expected, m.CallableType):
        return _callable(expected, original, actual, path)
    if isinstance(expected, m.OptionalType):
        if isinstance(actual, m.UndefType) or expected.type is None:
            return []
        return _internal(expected.type, original if isinstance(original, m.TypeAliasType)
                         else expected, actual, path)
    if isinstance(expected, (m.PatternType, m.EnumType)):
        return [PatternMismatch(path, original, actual)]
    if isinstance(expected, m.TypeAliasType):
        return _internal(normalized(_resolved(expected)), expected, actual, path)
    return [] if is_assignable(expected, actual) else [TypeMismatch(path, original, actual)]


def _variant(expected, original, actual, path) -> list:
    types = list(expected.types)
    if isinstance(original, m.OptionalType):
        types = [m.UNDEF] + types
    descs = []
    for i, vt in enumerate(types):
        d = describe(vt, actual, path + [Variant(i)])
        if not d:
            return []
        descs.append(d)
    result = merge_descriptions(len(path), SizeMismatch, descs)
    if isinstance(original, m.TypeAliasType) and len(result) == 1:
        return [TypeMismatch(path, original, actual)]
    return result


def merge_descriptions(varying: int, size_class, variant_descs: list) -> list:
    descs = [d for ds in variant_descs for d in ds]
    for cls in (size_class, MissingRequiredBlock, UnexpectedBlock, TypeMismatch):
        ms = [d for d in descs if isinstance(d, cls)]
        if len(ms) == len(variant_descs) and ms:
            generic = ms[0]
            ok = True
            for cur in ms[1:]:
                if generic.canonical_path() != cur.canonical_path():
                    ok = False
                    break
                generic = generic.merge(generic.path, cur)
            if ok:
                descs = [generic]
                break
    uniq = []
    for d in descs:
        if d not in uniq:
            uniq.append(d)
    return [uniq[0].chop_path(varying)] if len(uniq) == 1 else uniq


def _coll_size(t) -> tuple:
    size = getattr(t, "size", None)
    if size is None:
        return (0, INF)
    return _range_of(size)


def _array(expected, original, actual, path) -> list:
    elem = expected.element or m.ANY
    if isinstance(actual, m.TupleType):
        types = actual.types
        es = _coll_size(expected)
        asz = _range_of(actual.size) if actual.size is not None else (len(types), len(types))
        if _size_assignable(es, asz):
            out = []
            for i, t in enumerate(types):
                if not is_assignable(elem, t):
                    out.extend(describe(elem, t, path + [Index(i)]))
            return out
        return [SizeMismatch(path, es, asz)]
    if isinstance(actual, m.ArrayType):
        asz = _coll_size(actual)
        if expected.size is None or _size_assignable(_coll_size(expected), asz):
            return [TypeMismatch(path, original, m.ArrayType(actual.element))]
        return [SizeMismatch(path, _coll_size(expected), asz)]
    return [TypeMismatch(path, original, actual)]


def _hash(expected, original, actual, path) -> list:
    kt = expected.key or m.ANY
    vt = expected.value or m.ANY
    if isinstance(actual, m.StructType):
        es = _coll_size(expected)
        req = sum(1 for e in actual.elements if not e.optional)
        asz = (req, len(actual.elements))
        if _size_assignable(es, asz):
            out = []
            for e in actual.elements:
                ekt = m.StringType(value=e.key)
                if not is_assignable(kt, ekt):
                    out.extend(describe(kt, ekt, path + [EntryKey(e.key)]))
                if not is_assignable(vt, e.value_type):
                    out.extend(describe(vt, e.value_type, path + [EntryValue(e.key)]))
            return out
        return [SizeMismatch(path, es, asz)]
    if isinstance(actual, m.HashType):
        asz = _coll_size(actual)
        if expected.size is None or _size_assignable(_coll_size(expected), asz):
            return [TypeMismatch(path, original, m.HashType(actual.key, actual.value))]
        return [SizeMismatch(path, _coll_size(expected), asz)]
    return [TypeMismatch(path, original, actual)]


def _struct(expected, original, actual, path) -> list:
    out: list[Mismatch] = []
    if isinstance(actual, m.StructType):
        h2 = {e.key: e for e in actual.elements}
        for e1 in expected.elements:
            e2 = h2.pop(e1.key, None)
            if e2 is None:
                if not e1.optional:
                    out.append(MissingKey(path, e1.key))
            else:
                if not is_assignable(e1.value_type, e2.value_type):
                    out.extend(describe(e1.value_type, e2.value_type, path + [EntryValue(e1.key)]))
        for k in h2:
            out.append(ExtraneousKey(path, k))
        return out
    if isinstance(actual, m.HashType):
        asz = _coll_size(actual)
        req = sum(1 for e in expected.elements if not e.optional)
        es = (req, len(expected.elements))
        if _size_assignable(es, asz):
            return [TypeMismatch(path, original, m.HashType(actual.key, actual.value))]
        return [SizeMismatch(path, es, asz)]
    return [TypeMismatch(path, original, actual)]


def _tuple_size(t: m.TupleType) -> tuple:
    if t.size is not None:
        return _range_of(t.size)
    n = len(t.types)
    return (n, n) if n else (0, INF)


def _tuple(expected, original, actual, path, size_class) -> list:
    if expected == actual or (not expected.types and isinstance(actual, m.ArrayType)):
        return []
    es = _tuple_size(expected)
    if isinstance(actual, m.TupleType):
        asz = _tuple_size(actual)
        if _size_assignable(es, asz):
            et = expected.types
            out = []
            if et:
                for i, at in enumerate(actual.types):
                    adx = min(i, len(et) - 1)
                    out.extend(describe(et[adx], at, path + [Index(adx)]))
            return out
        return [size_class(path, es, asz)]
    if isinstance(actual, m.ArrayType):
        asz = _coll_size(actual)
        if _size_assignable(es, asz):
            out = []
            for i, et in enumerate(expected.types):
                out.extend(describe(et, actual.element, path + [Index(i)]))
            return out
        return [size_class(path, es, asz)]
    return [TypeMismatch(path, original, actual)]


def _callable(expected, original, actual, path) -> list:
    if isinstance(actual, m.CallableType):
        if expected.params is None and expected.return_type is None:
            return []
        ep = expected.params or m.TupleType((), (0, None))
        ap = actual.params or m.TupleType((), (0, None))
        errs = _tuple(ep, ep, ap, path, CountMismatch)
        if errs:
            return errs
        rt = expected.return_type or m.ANY
        art = actual.return_type or m.ANY
        if not is_assignable(rt, art):
            return [TypeMismatch(path + [ReturnElem("return")], rt, art)]
        return []
    return [TypeMismatch(path, original, actual)]


# ---- signatures ------------------------------------------------------------------------------------

class SignatureInfo:
    """What the describer needs about one signature of a function or closure."""

    def __init__(self, param_types: list, names: list, size: tuple, block_type=None,
                 block_name: str = "block", block_optional: bool = False):
        self.param_types = param_types   # list of PType (one per parameter; last may repeat)
        self.names = names
        self.size = size                 # (min, max) with INF
        self.block_type = block_type     # CallableType or None
        self.block_name = block_name
        self.block_optional = block_optional

    def string(self) -> str:
        lo, hi = self.size
        parts = []
        if not (lo == 0 and hi == 0):
            names = self.names or [""] * len(self.param_types)
            limit = len(names)
            for i, n in enumerate(names):
                t = self.param_types[i] if i < len(self.param_types) else self.param_types[-1]
                ind = ""
                if hi == INF and i == limit - 1:
                    ind = "+" if lo == limit else "*"
                elif i + 1 > lo:
                    ind = "?"
                    if isinstance(t, m.OptionalType) and t.type is not None:
                        t = t.type
                parts.append(f"{type_to_string(t)} {n}{ind}")
        res = ", ".join(parts)
        if self.block_type is not None:
            if res:
                res += ", "
            res += f"{type_to_string(self.block_type)} {self.block_name}{'?' if self.block_optional else ''}"
        return res


def _arguments(sig: SignatureInfo, arg_types: list, has_block: bool, path: list) -> list:
    n = len(arg_types)
    if not _size_assignable(sig.size, (n, n)):
        return [CountMismatch(path, sig.size, (n, n))]
    et = sig.param_types
    for i in range(n):
        adx = min(i, len(et) - 1)
        if adx < 0:
            break
        if not is_assignable(et[adx], arg_types[i]):
            d = describe(et[adx], arg_types[i],
                         path + [Parameter(sig.names[adx] if adx < len(sig.names) else "")])
            if d:
                return d
    return []


def _block(sig: SignatureInfo, block_type, path: list) -> list:
    if block_type is not None:
        if sig.block_type is None:
            return [UnexpectedBlock(path)]
        return describe(sig.block_type, block_type, path + [BlockElem("block")])
    if sig.block_type is None or sig.block_optional:
        return []
    return [MissingRequiredBlock(path)]


def describe_signatures(name: str, sigs: list, args: list, block_type=None) -> str:
    """The message for a call whose arguments match none of ``sigs``."""
    arg_types = [infer_set_of(a) for a in args]
    errs = [_arguments(s, arg_types, block_type is not None, [SignatureElem(i)])
            for i, s in enumerate(sigs)]
    if not all(errs):
        blocks = [_block(s, block_type, [SignatureElem(i)]) for i, s in enumerate(sigs)]
        bc = sum(1 for b in blocks if b)
        if bc == len(blocks):
            errs = blocks
        elif bc:
            errs = [blocks[i] if not e else e for i, e in enumerate(errs)]
    lbl = "block" if name == "lambda" else f"'{name}'"
    merged = merge_descriptions(0, CountMismatch, errs)
    if len(merged) == 1:
        return f"{lbl}{merged[0].format()}"
    if len(sigs) == 1:
        lines = [f"{lbl} expects ({sigs[0].string()})"]
        lines += [f"  rejected:{e.chop_path(0).format()}" for e in errs[0]]
        return "\n".join(lines)
    lines = [f"The function {lbl} was called with arguments it does not accept. It expects one of:"]
    for i, s in enumerate(sigs):
        lines.append(f"  ({s.string()})")
        lines += [f"    rejected:{e.chop_path(0).format()}" for e in errs[i]]
    return "\n".join(lines)


def describe_mismatch(subject: str, expected: m.PType, actual: m.PType) -> str:
    errs = describe(expected, actual, [Subject(subject)])
    if not errs:
        return ""
    if len(errs) == 1:
        return errs[0].format().strip()
    return "\n ".join(e.format() for e in errs)


def describe_value_mismatch(subject: str, expected: m.PType, value: Any) -> str:
    return describe_mismatch(subject, expected, infer_set(value))


def has_unknown(v: Any) -> bool:
    """Is ``v`` a preview's unknown value, or a collection holding one?"""
    return holds(v, Unknown)


def validate_parameters(subject: str, params: list, given: dict,
                        missing_ok: bool = False) -> str | None:
    """Check named arguments against parameters [(name, type, has_default)]; the error text
    (Puppet's "subject: ..." form) or None."""
    names = {p[0] for p in params}
    errs: list = [InvalidParameter(None, k) for k in given if k not in names]
    for name, ptype, has_default in params:
        if name in given:
            v = given[name]
            if has_unknown(v):
                continue          # a preview's unknown value: it may well be of the type
            if not is_instance(ptype, v):
                errs.extend(describe(ptype, infer_set(v), [Parameter(name)]))
        elif not missing_ok and not has_default:
            errs.append(MissingParameter(None, name))
    if not errs:
        return None
    if len(errs) == 1:
        return f"{subject}:{errs[0].format()}"
    return f"{subject}:\n " + "\n ".join(e.format() for e in errs)
