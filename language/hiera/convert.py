"""``convert_to`` of ``lookup_options``: a found value converted with the type's ``new``, by
the sandboxed evaluator (imported lazily: only lookups that have a ``convert_to`` pay for it)."""
from __future__ import annotations

import json
import re
from typing import Any

from .interpolate import HieraError
from .yamldata import Encrypted

_TYPE_NAME = re.compile(r"^[A-Z][\w:]*(\[.*\])?$", re.DOTALL)


def puppet_literal(value: Any) -> str:
    """A data value written as Puppet source."""
    if value is None:
        return "undef"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (str, Encrypted)):
        return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, list):
        return "[" + ", ".join(puppet_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{puppet_literal(k)} => {puppet_literal(v)}" for k, v in value.items()) + "}"
    return puppet_literal(json.dumps(value, default=str))


def convert(value: Any, args: list) -> Any:
    """``args[0].new(value, *args[1:])``; a failure raises :class:`HieraError`."""
    from ..eval.api import evaluate_text  # lazy: the evaluator is only needed for convert_to

    type_text = args[0] if args else None
    if not isinstance(type_text, str) or not _TYPE_NAME.match(type_text.strip()):
        raise HieraError("HIERA_BAD_VALUE", key="convert_to", where="lookup_options",
                         expected="a data type name, or an array of a type name and arguments")
    call = ", ".join([puppet_literal(value), *(puppet_literal(a) for a in args[1:])])
    result = evaluate_text(f"{type_text.strip()}.new({call})")
    if not result.ok:
        raise HieraError("HIERA_BAD_VALUE", key="convert_to", where="lookup_options",
                         expected=f"a type that can make a value from this data ({result.error_message()})")
    return result.value
