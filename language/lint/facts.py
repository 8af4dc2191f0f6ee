"""Facts: legacy (flat) fact names and top-scope fact variables, which Puppet 8 turns off."""
from __future__ import annotations

import re

from .legacy_facts_data import LEGACY_FACT_PATTERNS, LEGACY_FACTS
from . import fixes
from .registry import check

_LEGACY_PATTERN = re.compile("|".join(LEGACY_FACT_PATTERNS))
_TOP_FACTS_KEY = re.compile(r"^:?:?facts\['(.*)'\]")
_HASH_KEYS = frozenset({"STRING", "SSTRING", "NAME"})
_ALLOWED_TOP_SCOPE = re.compile(r"^::(trusted|facts)\[?")
_QUALIFIED = re.compile(r"^::[a-z0-9_][a-zA-Z0-9_]+::")


def is_legacy_fact(name: str) -> bool:
    return name in LEGACY_FACTS or bool(name and _LEGACY_PATTERN.match(name))


@check("legacy_facts", fixable=True, tokens=("VARIABLE", "UNENC_VARIABLE"))
def legacy_facts(ctx, i, tok) -> None:
    """A legacy fact read as $::name, $facts['name'] or $::facts['name']."""
    value = tok.value
    name = ""
    if value.startswith(("::facts[", "facts['")):
        m = _TOP_FACTS_KEY.match(value)
        name = m.group(1) if m else ""
    elif value == "facts":
        view = ctx.view
        toks = view.toks
        b = view.next_code(i)
        if b is not None and toks[b].type == "LBRACK":
            k = view.next_code(b)
            if k is not None and toks[k].type in _HASH_KEYS:
                name = toks[k].value
    elif value.startswith("::"):
        name = value[2:]
    if is_legacy_fact(name):
        ctx.report(tok.offset, tok.end, name=name)


@check("top_scope_facts", fixable=True, tokens=("VARIABLE", "UNENC_VARIABLE"))
def top_scope_facts(ctx, i, tok) -> None:
    """A fact read as a top-scope variable ($::name) instead of from $facts."""
    value = tok.value
    if not value.startswith("::") or _ALLOWED_TOP_SCOPE.match(value) or _QUALIFIED.match(value):
        return
    name, bracket, rest = value[2:].partition("[")
    replacement = f"$facts['{name}']" + bracket + rest
    if tok.type == "VARIABLE":
        fix = fixes.top_scope_fact(ctx, tok, name, ctx.text[tok.offset:tok.end].replace(value, replacement[1:], 1))
    elif "-" not in value:
        # "$::x" in a string: braces, or the index would be text
        fix = fixes.replace(tok, "${" + replacement[1:] + "}", ("fact", tok.offset, tok.end, name))
    else:
        fix = None
    ctx.report(tok.offset, tok.end, fix=fix, name=value, replacement=replacement)
