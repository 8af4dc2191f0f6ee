"""Comment style: '#' comments only."""
from __future__ import annotations

from . import fixes
from .registry import check


@check("slash_comments", fixable=True, tokens=("SLASH_COMMENT",))
def slash_comments(ctx, i, tok) -> None:
    """'//' comments (puppet-lint reads them; Puppet does not)."""
    ctx.report(tok.offset, tok.end, fix=fixes.slash_comment(tok))


@check("star_comments", fixable=True, tokens=("MLCOMMENT",))
def star_comments(ctx, i, tok) -> None:
    """'/* */' comments."""
    ctx.report(tok.offset, tok.end, fix=fixes.star_comment(ctx, i, tok))
