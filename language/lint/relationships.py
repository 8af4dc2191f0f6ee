"""Relationship arrows: direction and placement."""
from __future__ import annotations

from . import fixes
from .registry import check


@check("arrow_on_right_operand_line", fixable=True, tokens=("IN_EDGE", "IN_EDGE_SUB"))
def arrow_on_right_operand_line(ctx, i, tok) -> None:
    """'->' or '~>' at the end of a line instead of beside its right operand."""
    view = ctx.view
    n = view.next_code(i)
    if n is not None and view.line(view.toks[n].offset) != view.line(tok.offset):
        ctx.report(tok.offset, tok.end, fix=fixes.arrow_on_right_operand(ctx, i, tok), arrow=tok.value)


@check("right_to_left_relationship", tokens=("OUT_EDGE",))
def right_to_left_relationship(ctx, i, tok) -> None:
    """'<-' relationships (harder to read than '->')."""
    ctx.report(tok.offset, tok.end)
