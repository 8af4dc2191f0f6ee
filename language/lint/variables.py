"""Variable names: dashes, upper case."""
from __future__ import annotations

import re

from .registry import check

_INDEX = re.compile(r"\[.+?\]")
_UPPER = re.compile(r"[A-Z]")


@check("variable_contains_dash", tokens=("VARIABLE", "UNENC_VARIABLE"))
def variable_contains_dash(ctx, i, tok) -> None:
    """A variable name with a dash (read by Puppet as a subtraction)."""
    if "-" in tok.value and "-" in _INDEX.sub("", tok.value):
        ctx.report(tok.offset, tok.end, name=tok.value)


@check("variable_is_lowercase", tokens=("VARIABLE", "UNENC_VARIABLE"))
def variable_is_lowercase(ctx, i, tok) -> None:
    """A variable name with upper-case letters."""
    if _UPPER.search(tok.value) and _UPPER.search(_INDEX.sub("", tok.value)):
        ctx.report(tok.offset, tok.end, name=tok.value)
