"""Documentation of the built-in data types: a one-line description and parameter signature
for each.

Hover and completion read this; it is data only. Signatures use the Puppet spelling of the
type's parameters, with ``?`` marking optional ones and ``*`` repeated ones.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TypeInfo", "CATALOGUE", "describe"]


@dataclass(frozen=True)
class TypeInfo:
    """What a built-in type is: its name, parameter signature, summary and category."""

    name: str
    signature: str
    doc: str
    category: str
    parameterized: bool = True


def _i(name: str, signature: str, doc: str, category: str, parameterized: bool = True):
    return TypeInfo(name, signature, doc, category, parameterized)


_ENTRIES = [
    _i("Any", "Any", "Every value, including undef: the top of the type hierarchy.", "abstract",
       False),
    _i("Undef", "Undef", "The type of the value undef (a missing value).", "data", False),
    _i("Default", "Default", "The type of the literal default.", "abstract", False),
    _i("Data", "Data", "JSON-like data: ScalarData, Undef, Array[Data] and Hash[String, Data].",
       "data", False),
    _i("RichData", "RichData",
       "Data plus every serialisable type: Default, Object, Scalar, SemVerRange, Type, Binary, "
       "Sensitive and collections of them.", "data", False),
    _i("Scalar", "Scalar", "A single value: Numeric, String, Boolean, Regexp, SemVer, Timespan "
       "or Timestamp.", "scalar", False),
    _i("ScalarData", "ScalarData", "A scalar with a JSON form: Integer, Float, String or Boolean.",
       "scalar", False),
    _i("Numeric", "Numeric", "A number: Integer or Float.", "scalar", False),
    _i("Integer", "Integer[from?, to?]", "A whole number, optionally within an inclusive range "
       "(default = unbounded end).", "scalar"),
    _i("Float", "Float[from?, to?]", "A floating point number, optionally within a range.",
       "scalar"),
    _i("String", "String[min_length?, max_length?]", "Text, optionally limited in length.",
       "scalar"),
    _i("Enum", "Enum[String+, Boolean case_insensitive?]",
       "One of the listed strings (case-insensitively when the last argument is true).",
       "scalar"),
    _i("Pattern", "Pattern[(String | Regexp | Regexp-Type | Pattern-Type)+]",
       "A string matching at least one of the regular expressions.", "scalar"),
    _i("Boolean", "Boolean[value?]", "true or false (or only the given one).", "scalar"),
    _i("Regexp", "Regexp[pattern?]", "A regular expression (or that exact one).", "scalar"),
    _i("SemVer", "SemVer[(String | SemVerRange)*]",
       "A semantic version, optionally within one of the version ranges.", "scalar"),
    _i("SemVerRange", "SemVerRange", "A range of semantic versions.", "scalar", False),
    _i("Timespan", "Timespan[from?, to?]", "A duration with nanosecond precision, optionally "
       "within a range.", "scalar"),
    _i("Timestamp", "Timestamp[from?, to?]", "A point in time with nanosecond precision, "
       "optionally within a range.", "scalar"),
    _i("Binary", "Binary", "A sequence of bytes.", "data", False),
    _i("URI", "URI[String | Hash parts?]", "A URI, optionally with the given components.",
       "data"),
    _i("Collection", "Collection[min_size?, max_size?]", "An Array or a Hash, optionally "
       "limited in size.", "collection"),
    _i("Array", "Array[element_type?, min_size?, max_size?]",
       "An ordered list of elements of the given type.", "collection"),
    _i("Hash", "Hash[key_type, value_type, min_size?, max_size?]",
       "A mapping from keys to values of the given types.", "collection"),
    _i("Struct", "Struct[{key => value_type, ...}]", "A Hash with exactly the given keys; "
       "Optional['key'] may be missing, NotUndef['key'] must be present.", "collection"),
    _i("Tuple", "Tuple[type+, min_size?, max_size?]", "An Array whose elements have the given "
       "types by position (the last type repeats up to max_size).", "collection"),
    _i("Variant", "Variant[type+]", "A value of any one of the given types.", "abstract"),
    _i("Optional", "Optional[type | String]", "The given type or undef.", "abstract"),
    _i("NotUndef", "NotUndef[type | String?]", "The given type (default Any) but never undef.",
       "abstract"),
    _i("Iterable", "Iterable[element_type?]", "Anything that can be iterated: collections, "
       "strings, non-negative integers, iterators.", "abstract"),
    _i("Iterator", "Iterator[element_type?]", "A lazy, one-pass iteration.", "abstract"),
    _i("Type", "Type[type?]", "A type (used as a value), optionally a subtype of the given one.",
       "abstract"),
    _i("Callable", "Callable[param_type*, min_count?, max_count?, block_type?] | "
       "Callable[[params...], return_type]", "A function or lambda with the given signature.",
       "abstract"),
    _i("Sensitive", "Sensitive[type?]", "A value whose content is redacted in logs and "
       "reports.", "data"),
    _i("Deferred", "Deferred", "A function call resolved later, on the agent.", "data", False),
    _i("Init", "Init[type, argument*]", "A value that the type's new() function can turn into "
       "an instance.", "abstract"),
    _i("Object", "Object[{name, parent, attributes, functions, ...}]",
       "A user-defined object type with attributes (experimental).", "object"),
    _i("TypeSet", "TypeSet[{name, version, types, ...}]",
       "A named, versioned set of object types (experimental).", "object"),
    _i("Error", "Error[kind?, issue_code?]", "The object type of errors (msg, kind, details, "
       "issue_code); parameters narrow it by kind and issue code.", "object"),
    _i("Annotation", "Annotation", "The parent of annotation object types (see annotate()).",
       "object", False),
    _i("Pcore", "Pcore", "The Pcore type; Pcore.annotate(value, {Type => hash}) adds several "
       "annotations.", "object", False),
    _i("Runtime", "Runtime[runtime, type_name]", "A type of the implementation language "
       "(Runtime[ruby, 'ClassName']).", "abstract"),
    _i("CatalogEntry", "CatalogEntry", "A resource or a class in the catalog.", "catalog",
       False),
    _i("Resource", "Resource[type_name?, title*]", "A resource type, or a resource of that type "
       "with the given title; File is short for Resource[File].", "catalog"),
    _i("Class", "Class[class_name*]", "A host class, or the class with the given name.",
       "catalog"),
    _i("Unit", "Unit", "Assignable to every type (used for the element type of empty "
       "collections).", "abstract", False),
]

CATALOGUE: dict = {e.name: e for e in _ENTRIES}


def describe(name: str) -> TypeInfo | None:
    """The catalogue entry for a built-in type name, or None."""
    return CATALOGUE.get(name)
