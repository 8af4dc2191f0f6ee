"""Conditionals: case statements need a default."""
from __future__ import annotations

from ..syntax import kinds as K
from ..syntax.ast import CaseExpr, Literal
from .registry import check


@check("case_without_default", nodes=(K.CASE_EXPR,))
def case_without_default(ctx, node) -> None:
    """A case statement with no 'default' option."""
    for option in CaseExpr(node).options():
        for value in option.values():
            if isinstance(value, Literal) and value.token_kind == K.DEFAULT:
                return
    keyword = node.token(K.CASE)
    if keyword is not None:
        ctx.report(keyword.offset, keyword.end)
