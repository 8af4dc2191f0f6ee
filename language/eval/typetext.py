"""Types written as text (``"Hash[String, Variant[Integer, Undef]]"``), built without running
the evaluator: used for the signatures of built-in functions.

The text goes the one way every static type expression goes: parsed by the project's parser and
converted by ``types/from_ast.py`` (:func:`type_call_from_text`), then built.  Results are
cached: signatures are declared once and read for every call.
"""
from __future__ import annotations

from functools import lru_cache

from ..types import model as m
from ..types.build import build
from ..types.from_ast import type_call_from_text


class TypeTextError(ValueError):
    pass


@lru_cache(maxsize=1024)
def type_from_text(text: str) -> m.PType:
    """The type a reference written as text denotes (TypeTextError when it is not one)."""
    call = type_call_from_text(text)
    if call is None:
        raise TypeTextError(f"not a static type expression: {text!r}")
    return build(call)
