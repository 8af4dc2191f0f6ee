"""Comment style: '#' comments only."""
from __future__ import annotations

from .registry import check


@check("slash_comments", fixable=True, tokens=("SLASH_COMMENT",))
def slash_comments(ctx, i, tok) -> None:
    """'//' comments (puppet-lint reads them; Puppet does not)."""
    ctx.report(tok.offset, tok.end)


@check("star_comments", fixable=True, tokens=("MLCOMMENT",))
def star_comments(ctx, i, tok) -> None:
    """'/* */' comments."""
    ctx.report(tok.offset, tok.end)
