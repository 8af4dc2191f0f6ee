"""String checks: quoting style, interpolation, puppet:// URLs, quoted booleans."""
from __future__ import annotations

import re

from . import fixes
from .registry import check

# What justifies double quotes besides interpolation: an escape sequence, a quote, a literal
# tab or line break (puppet-lint's list).
_NEEDS_DOUBLE = re.compile(r"(\\\$|\\\"|\\'|'|\r|\t|\\t|\\s|\n|\\n|\\\\)")
_PUPPET_URL = re.compile(r"puppet://.*?/(.+)")
_INLINE_TEMPLATE = re.compile(r"inline_(epp|template)")


@check("double_quoted_strings", fixable=True, tokens=("STRING",))
def double_quoted_strings(ctx, i, tok) -> None:
    """A double-quoted string with nothing that needs double quotes."""
    # puppet-lint first turns runs of spaces as wide as the string's column into line breaks
    # (the indentation of a continued string), which then count as needing double quotes.
    value = tok.value.replace(" " * ctx.view.column(tok.offset), "\n")
    if _NEEDS_DOUBLE.search(value) is None:
        ctx.report(tok.offset, tok.end, fix=fixes.replace(tok, "'" + ctx.text[tok.offset + 1:tok.end - 1] + "'"))


@check("only_variable_string", fixable=True, tokens=("DQPRE",))
def only_variable_string(ctx, i, tok) -> None:
    """A string that holds nothing but one variable ("${x}"), except as a hash key."""
    if tok.value != "":
        return
    toks = ctx.view.toks
    if i + 1 >= len(toks) or toks[i + 1].type not in ("VARIABLE", "UNENC_VARIABLE"):
        return
    var = toks[i + 1]
    j = i + 2
    while j < len(toks):
        t = toks[j]
        if t.type == "LBRACK":
            j += 3
            continue
        if t.type == "DQPOST" and t.value == "":
            n = ctx.view.next_code(j)
            if n is not None and toks[n].type == "FARROW":
                return
            ctx.report(var.offset, var.end, fix=fixes.only_variable_string(ctx, tok, var, t), name=var.value)
        return


@check("puppet_url_without_modules", fixable=True, tokens=("SSTRING", "STRING", "DQPRE"))
def puppet_url_without_modules(ctx, i, tok) -> None:
    """A puppet:// URL whose path does not start with modules/."""
    if not tok.value.startswith("puppet://"):
        return
    m = _PUPPET_URL.search(tok.value)
    if m is None or not m.group(1).startswith("modules/"):
        ctx.report(tok.offset, tok.end, fix=fixes.puppet_url(ctx, i, tok))


@check("quoted_booleans", enabled=False, fixable=True, tokens=("SSTRING", "STRING"))
def quoted_booleans(ctx, i, tok) -> None:
    """'true' or 'false' in quotes (off by default: often meant as strings)."""
    if tok.value in ("true", "false"):
        fix = fixes.replace(tok, tok.value, ("dump", tok.offset, tok.end, tok.value))
        ctx.report(tok.offset, tok.end, fix=fix, value=tok.value)


@check("single_quote_string_with_variables", tokens=("SSTRING",))
def single_quote_string_with_variables(ctx, i, tok) -> None:
    """A single-quoted string containing '${' (no interpolation happens), except as the
    template of inline_epp/inline_template."""
    if "${" not in tok.value:
        return
    toks = ctx.view.toks
    if i >= 2 and _INLINE_TEMPLATE.search(toks[i - 2].value):
        return
    ctx.report(tok.offset, tok.end)


@check("variables_not_enclosed", fixable=True, tokens=("UNENC_VARIABLE",))
def variables_not_enclosed(ctx, i, tok) -> None:
    """'$x' interpolated in a string without braces."""
    ctx.report(tok.offset, tok.end, fix=fixes.enclose_variable(tok), name=tok.value)
