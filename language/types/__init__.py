"""puppet_ls.language.types: the Puppet type system as immutable values and free functions.

Public API (see docs/types.md for details):

* building:    ``TypeCall``, ``build_type``, ``build``, ``AliasScope``, ``define_alias``,
               ``resolve_alias``, ``check_alias``, ``parse_type`` (test helper, tiny subset)
* relations:   ``is_instance``, ``is_assignable``, ``types_equal``, ``type_lt``/``le``/``gt``/``ge``
* algebra:     ``infer``, ``infer_set``, ``common_type``, ``generalize``, ``normalize``
* text:        ``type_to_string``, ``format_value``
* type_docs:   ``CATALOGUE``, ``describe``
* errors:      ``TypeSystemError``
* model:       the type classes (``IntegerType``, ...) and values (``values`` module)
"""
from . import model, values
from .algebra import common_type, generalize, infer, infer_set, make_variant, normalize
from .build import (BUILTIN_RESOURCE_TYPES, TypeCall, build, build_type, check_alias,
                    define_alias, resolve_alias)
from .type_docs import CATALOGUE, TypeInfo, describe
from .errors import TypeSystemError
from .format import format_value, type_to_string
from .model import *  # the type classes are part of the API
from .model import AliasScope, PType
from .relations import (is_assignable, is_instance, is_iterable_type, iterable_element_type,
                        type_ge, type_gt, type_le, type_lt, types_equal)
from .values import DEFAULT

__all__ = [
    "model", "values", "TypeCall", "build", "build_type", "AliasScope", "define_alias",
    "resolve_alias", "check_alias", "BUILTIN_RESOURCE_TYPES", "is_instance", "is_assignable",
    "types_equal", "type_lt", "type_le", "type_gt", "type_ge", "is_iterable_type",
    "iterable_element_type", "infer", "infer_set", "common_type", "generalize", "normalize",
    "make_variant", "type_to_string", "format_value", "CATALOGUE", "TypeInfo", "describe",
    "TypeSystemError", "PType", "DEFAULT",
]
