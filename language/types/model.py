"""The Puppet types themselves: one immutable, hashable class per kind of type.

A type is plain data. Every operation on types (instance checks, assignability, inference,
common type, formatting, building from a reference) is a free function in a sibling module, so
the evaluator and the static checker share them. Field defaults mean "not given" (Puppet's
``default``), so ``IntegerType()`` is ``Integer`` and ``IntegerType(1, None)`` is ``Integer[1]``.

Ranges use ``None`` for an open end. Collection sizes are ``None`` (not given) or a pair
``(min, max)`` with ``max`` None for unbounded; Puppet prints a given size even when it is the
default, so the difference is kept.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .values import Regexp, SemVerRange, Timespan, Timestamp

if TYPE_CHECKING:
    # typing.dataclass_transform is Python 3.11+; type checkers read it from their own stubs, so
    # typing_extensions is never imported at run time.
    from typing_extensions import dataclass_transform
else:
    def dataclass_transform(**_options):
        return lambda decorator: decorator

_T = TypeVar("_T")


class PType:
    """Base of every type; ``name`` is the type's name in the Puppet language."""

    name: ClassVar[str] = "Any"
    __slots__ = ()


@dataclass_transform(frozen_default=True)
def _t(cls: type[_T]) -> type[_T]:
    # Every type is a frozen dataclass: immutable, hashable and compared structurally.
    # dataclass_transform tells type checkers so, which makes every constructor checked.
    return dataclass(frozen=True)(cls)


@_t
class AnyType(PType):
    name: ClassVar[str] = "Any"


@_t
class UndefType(PType):
    name: ClassVar[str] = "Undef"


@_t
class DefaultType(PType):
    name: ClassVar[str] = "Default"


@_t
class UnitType(PType):
    """Assignable to everything; the element type of the empty array."""

    name: ClassVar[str] = "Unit"


@_t
class NotUndefType(PType):
    name: ClassVar[str] = "NotUndef"
    type: PType | None = None
    # NotUndef['key'] (a string) is kept as the string, for Struct keys and printing.
    key: str | None = None


@_t
class OptionalType(PType):
    name: ClassVar[str] = "Optional"
    type: PType | None = None
    key: str | None = None


@_t
class VariantType(PType):
    name: ClassVar[str] = "Variant"
    types: tuple = ()


@_t
class ScalarType(PType):
    name: ClassVar[str] = "Scalar"


@_t
class ScalarDataType(PType):
    name: ClassVar[str] = "ScalarData"


@_t
class NumericType(PType):
    name: ClassVar[str] = "Numeric"


@_t
class IntegerType(PType):
    name: ClassVar[str] = "Integer"
    lo: int | None = None
    hi: int | None = None

    def finite(self) -> bool:
        return self.lo is not None and self.hi is not None


@_t
class FloatType(PType):
    name: ClassVar[str] = "Float"
    lo: float | None = None
    hi: float | None = None


@_t
class StringType(PType):
    """``String[min, max]``; ``value`` is set only on inferred types of a known string."""

    name: ClassVar[str] = "String"
    size: Any = None
    value: str | None = None

    def size_range(self) -> tuple:
        if self.value is not None:
            return (len(self.value), len(self.value))
        return self.size or (0, None)


@_t
class EnumType(PType):
    name: ClassVar[str] = "Enum"
    values: tuple = ()
    case_insensitive: bool = False


@_t
class PatternType(PType):
    name: ClassVar[str] = "Pattern"
    patterns: tuple = ()  # of Regexp values


@_t
class BooleanType(PType):
    name: ClassVar[str] = "Boolean"
    value: bool | None = None


@_t
class RegexpType(PType):
    name: ClassVar[str] = "Regexp"
    pattern: str | None = None


@_t
class SemVerType(PType):
    name: ClassVar[str] = "SemVer"
    ranges: tuple = ()  # of SemVerRange values


@_t
class SemVerRangeType(PType):
    name: ClassVar[str] = "SemVerRange"


@_t
class TimespanType(PType):
    name: ClassVar[str] = "Timespan"
    lo: Timespan | None = None
    hi: Timespan | None = None


@_t
class TimestampType(PType):
    name: ClassVar[str] = "Timestamp"
    lo: Timestamp | None = None
    hi: Timestamp | None = None


@_t
class BinaryType(PType):
    name: ClassVar[str] = "Binary"


@_t
class URIType(PType):
    """``URI`` or ``URI[parts]``; parts are (name, value) pairs in Puppet's order."""

    name: ClassVar[str] = "URI"
    parts: tuple | None = None


@_t
class CollectionType(PType):
    name: ClassVar[str] = "Collection"
    size: Any = None


@_t
class ArrayType(PType):
    name: ClassVar[str] = "Array"
    element: PType = field(default_factory=AnyType)
    size: Any = None


@_t
class HashType(PType):
    name: ClassVar[str] = "Hash"
    key: PType = field(default_factory=AnyType)
    value: PType = field(default_factory=AnyType)
    size: Any = None


@_t
class StructElement:
    """One entry of a Struct: its key, value type and whether the key may be missing."""

    key: str
    value_type: PType
    optional: bool


@_t
class StructType(PType):
    name: ClassVar[str] = "Struct"
    elements: tuple = ()  # of StructElement

    def element(self, key: str) -> StructElement | None:
        for e in self.elements:
            if e.key == key:
                return e
        return None


@_t
class TupleType(PType):
    name: ClassVar[str] = "Tuple"
    types: tuple = ()
    size: Any = None

    def size_range(self) -> tuple:
        if self.size is not None:
            return self.size
        if not self.types:
            return (0, None)
        return (len(self.types), len(self.types))


@_t
class IterableType(PType):
    name: ClassVar[str] = "Iterable"
    type: PType | None = None


@_t
class IteratorType(PType):
    name: ClassVar[str] = "Iterator"
    type: PType | None = None


@_t
class TypeType(PType):
    name: ClassVar[str] = "Type"
    type: PType | None = None


@_t
class CallableType(PType):
    """``Callable[params..., min, max, block]`` with optional return type.

    ``params`` is a TupleType (None means "any signature").
    """

    name: ClassVar[str] = "Callable"
    params: TupleType | None = None
    block: PType | None = None
    return_type: PType | None = None


@_t
class SensitiveType(PType):
    name: ClassVar[str] = "Sensitive"
    type: PType | None = None


@_t
class InitType(PType):
    name: ClassVar[str] = "Init"
    type: PType | None = None
    args: tuple = ()


@_t
class ObjectAttribute:
    """An attribute of an Object type; ``has_value`` tells a given default from none."""

    name: str
    type: PType
    has_value: bool = False
    value: Any = None
    kind: str | None = None
    final: bool = False
    override: bool = False


@_t
class ObjectType(PType):
    name: ClassVar[str] = "Object"
    type_name: str | None = None
    parent: PType | None = None
    attributes: tuple = ()  # of ObjectAttribute
    functions: tuple = ()  # of (name, CallableType)
    text: str | None = None  # Puppet's printed form for built-in objects (Error, Deferred)
    type_parameters: tuple = ()  # of (name, PType): what ``MyType[...]`` may be given
    equality: tuple | None = None  # attribute names that decide equality, when declared
    annotations: tuple = ()  # of (annotation type, frozen init hash)

    def all_attributes(self) -> tuple:
        inherited = self.parent.all_attributes() if isinstance(self.parent, ObjectType) else ()
        own = {a.name for a in self.attributes}
        return tuple(a for a in inherited if a.name not in own) + self.attributes


@_t
class ObjectExtType(PType):
    """A parameterized Object type (``MyType['a']``, ``Error['puppet/error']``).

    ``params`` are the given (name, value) pairs in the order the type parameters are declared;
    a parameter given as ``default`` is absent. A value is a String, Regexp, type or undef and
    is matched against the instance's attribute of the same name as a case option would be.
    """

    name: ClassVar[str] = "Object"
    base: PType = field(default_factory=ObjectType)
    params: tuple = ()


@_t
class TypeSetType(PType):
    name: ClassVar[str] = "TypeSet"
    type_name: str | None = None
    version: str | None = None
    types: tuple = ()  # of (name, type)


@_t
class RuntimeType(PType):
    name: ClassVar[str] = "Runtime"
    runtime: str | None = None
    runtime_name: Any = None  # a class name, or a (Regexp, replacement) pattern pair


@_t
class CatalogEntryType(PType):
    name: ClassVar[str] = "CatalogEntry"


@_t
class ResourceType(PType):
    """``Resource[type, title]``; ``type_name`` is capitalised per segment (``Foo::Bar``)."""

    name: ClassVar[str] = "Resource"
    type_name: str | None = None
    title: str | None = None


@_t
class ClassType(PType):
    name: ClassVar[str] = "Class"
    class_name: str | None = None


@_t
class TypeReferenceType(PType):
    """A reference to a type name that is not known (yet): ``Foo`` or ``Foo[1]`` as text."""

    name: ClassVar[str] = "TypeReference"
    text: str = ""


# Called whenever an alias is (re)defined, so caches of answers about aliases stay correct.
ALIAS_CHANGE_HOOKS: list = []


class Deferred:
    """An alias body worked out the first time it is asked for (``make()`` gives it): a
    workspace's index holds hundreds of aliases as text, and checking one file reads a few."""
    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]):
        self.make = make


class AliasScope:
    """The type aliases visible to a compilation: alias name -> body (a type, a
    :class:`TypeCall`, or a :class:`Deferred` one).

    Compared by identity; :class:`TypeAliasType` refers to it so that recursive aliases can
    be unfolded lazily. Resolution results are cached here, never in module globals.
    """

    def __init__(self, bodies: dict | None = None, parent: AliasScope | None = None):
        self._bodies: dict = dict(bodies or {})
        self._resolved: dict = {}
        self._resolving: set = set()
        self.parent = parent

    def define(self, name: str, body: Any) -> None:
        self._bodies[name] = body
        # Other aliases' cached resolutions (or errors) may depend on this one, and answers
        # cached by the relations module may mention it: drop them all.
        self._resolved.clear()
        for hook in ALIAS_CHANGE_HOOKS:
            hook()

    def names(self) -> list:
        out = list(self._bodies)
        if self.parent is not None:
            out += [n for n in self.parent.names() if n not in self._bodies]
        return out

    def has(self, name: str) -> bool:
        return name in self._bodies or (self.parent is not None and self.parent.has(name))

    def body(self, name: str) -> Any:
        if name in self._bodies:
            found = self._bodies[name]
            if type(found) is Deferred:
                # (two threads may both make it: the same value, and the store is atomic)
                found = self._bodies[name] = found.make()
            return found
        return self.parent.body(name) if self.parent is not None else None

    def __repr__(self) -> str:
        return f"AliasScope({sorted(self._bodies)})"


@_t
class TypeAliasType(PType):
    """A named alias; :func:`resolve_alias` (in ``build``) gives the type it stands for."""

    name: ClassVar[str] = "TypeAlias"
    alias_name: str = ""
    scope: Any = field(default=None, compare=True, hash=True, repr=False)


# Constants for the parameterless types, shared to avoid re-allocating them.
ANY = AnyType()
UNDEF = UndefType()
DEFAULT_T = DefaultType()
UNIT = UnitType()
SCALAR = ScalarType()
SCALAR_DATA = ScalarDataType()
NUMERIC = NumericType()
INTEGER = IntegerType()
FLOAT = FloatType()
STRING = StringType()
BOOLEAN = BooleanType()
REGEXP = RegexpType()
ARRAY = ArrayType()
HASH = HashType()
COLLECTION = CollectionType()
TUPLE = TupleType()
STRUCT = StructType()
TYPE = TypeType()
CALLABLE = CallableType()
CATALOG_ENTRY = CatalogEntryType()
RESOURCE = ResourceType()
CLASS = ClassType()
VARIANT = VariantType()
OPTIONAL = OptionalType()
NOT_UNDEF = NotUndefType()
ITERABLE = IterableType()
ITERATOR = IteratorType()
SENSITIVE = SensitiveType()
SEMVER = SemVerType()
SEMVER_RANGE = SemVerRangeType()
TIMESPAN = TimespanType()
TIMESTAMP = TimestampType()
BINARY = BinaryType()
URI_T = URIType()
RUNTIME = RuntimeType()
INIT = InitType()
OBJECT = ObjectType()
TYPESET = TypeSetType()
EMPTY_ARRAY = ArrayType(UNIT, (0, 0))
EMPTY_HASH = HashType(UNIT, UNIT, (0, 0))

_DEFERRED_NAME = Regexp(r"\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\z")
# What Error[kind, issue_code] accepts for each parameter (Puppet's Error definition).
_ERROR_PARAM = OptionalType(VariantType((
    StringType(), RegexpType(), TypeType(EnumType()), TypeType(PatternType()),
    TypeType(NotUndefType()), TypeType(UndefType()))))
ERROR = ObjectType(
    "Error", None,
    (ObjectAttribute("msg", StringType((1, None))),
     ObjectAttribute("kind", OptionalType(StringType((1, None))), True, None),
     ObjectAttribute("details", OptionalType(HashType(StringType((1, None)), ANY)), True, None),
     ObjectAttribute("issue_code", OptionalType(StringType((1, None))), True, None)),
    type_parameters=tuple((n, _ERROR_PARAM) for n in ("kind", "issue_code")),
)
# The parent of user annotation types (`parent => Annotation`) and the Pcore type that
# `Pcore.annotate(value, {...})` dispatches on; both have no attributes of their own.
ANNOTATION = ObjectType("Annotation")
PCORE = ObjectType("Pcore")
DEFERRED = ObjectType(
    "Deferred", None,
    (ObjectAttribute("name", PatternType((_DEFERRED_NAME,))),
     ObjectAttribute("arguments", OptionalType(ARRAY), True, None)),
)


class _BuiltinScope(AliasScope):
    """The aliases Puppet itself defines (Data, RichData); ``define`` is refused."""

    def define(self, name: str, body: Any) -> None:  # pragma: no cover - guard only
        raise TypeError("the built-in alias scope is read-only")


BUILTIN_SCOPE = _BuiltinScope()
DATA = TypeAliasType("Data", BUILTIN_SCOPE)
RICH_DATA = TypeAliasType("RichData", BUILTIN_SCOPE)
# RichData's hash keys are Puppet's RichDataKey, Variant[String, Numeric].
# Bodies are written directly (not parsed) so that no parser is needed at import time.
BUILTIN_SCOPE._bodies["Data"] = VariantType(
    (SCALAR_DATA, UNDEF, HashType(STRING, DATA), ArrayType(DATA)))
BUILTIN_SCOPE._bodies["RichData"] = VariantType(
    (SCALAR, SEMVER_RANGE, BINARY, URI_T, SENSITIVE, TYPE, OBJECT, DEFAULT_T, UNDEF,
     HashType(VariantType((STRING, NUMERIC)), RICH_DATA), ArrayType(RICH_DATA)))

# Names of the types that take no parameters / the parameterless singletons by name.
SIMPLE_TYPES: dict = {
    "Any": ANY, "Undef": UNDEF, "Default": DEFAULT_T, "Scalar": SCALAR,
    "ScalarData": SCALAR_DATA, "Numeric": NUMERIC, "Integer": INTEGER, "Float": FLOAT,
    "String": STRING, "Boolean": BOOLEAN, "Regexp": REGEXP, "Array": ARRAY, "Hash": HASH,
    "Collection": COLLECTION, "Tuple": TUPLE, "Struct": STRUCT, "Type": TYPE,
    "Callable": CALLABLE, "CatalogEntry": CATALOG_ENTRY, "Resource": RESOURCE, "Class": CLASS,
    "Variant": VARIANT, "Optional": OPTIONAL, "NotUndef": NOT_UNDEF, "Iterable": ITERABLE,
    "Iterator": ITERATOR, "Sensitive": SENSITIVE, "SemVer": SEMVER, "SemVerRange": SEMVER_RANGE,
    "Timespan": TIMESPAN, "Timestamp": TIMESTAMP, "Binary": BINARY, "URI": URI_T,
    "Runtime": RUNTIME, "Init": INIT, "Object": OBJECT, "TypeSet": TYPESET,
    "Data": DATA, "RichData": RICH_DATA, "Error": ERROR, "Deferred": DEFERRED,
    "Annotation": ANNOTATION, "Pcore": PCORE,
    "Enum": EnumType(), "Pattern": PatternType(),
}

__all__ = [n for n in list(globals()) if n.endswith("Type") or n.isupper()] + [
    "PType", "StructElement", "ObjectAttribute", "AliasScope", "SemVerRange", "Regexp"]
