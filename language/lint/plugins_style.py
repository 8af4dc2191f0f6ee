"""The widely used Vox Pupuli puppet-lint plugin checks (trailing commas, quoted case and
selector values, relative class names, top-scope variables of the own module, resource
reference syntax), under the plugins' check names.

Like the plugins, which a team enables by installing their gems, they are off by default and
selected by name (``--select trailing_comma``, or ``select`` in the configuration).  Where a
plugin's result depends on puppet-lint's tokens (the place of a missing comma is "the end of
the last element's line") they read the shared token view; where it is about structure (a bare
word as a case value) they read the tree.
"""
from __future__ import annotations

from ..syntax import kinds as K
from ..syntax.ast import CaseExpr, ClassDef, QName, SelectorExpr
from .registry import check
from .resources import resource_span

# --- trailing_comma ------------------------------------------------------------------------------


def _missing_comma(ctx, close: int, opener: str) -> None:
    """Report a missing ',' after the last element before the closing token ``close``, when that
    element ends its line (a one-line list needs none; an empty one has no element)."""
    view = ctx.view
    toks = view.toks
    last = view.prev_code(close)
    if last is None:
        return
    if toks[last].type in ("HEREDOC", "HEREDOC_POST"):
        # a heredoc's text follows its header's line: the comma belongs after the header
        while last is not None and toks[last].type != "HEREDOC_OPEN":
            last = view.prev_code(last)
        if last is None:
            return
    if toks[last].type in (opener, "COMMA"):
        return
    if last + 1 < len(toks) and toks[last + 1].type == "NEWLINE":
        ctx.report(toks[last + 1].offset, toks[last + 1].offset)


def _closing_index(ctx, node) -> int | None:
    last = node.last_token()
    if last is None:
        return None
    i = ctx.view.index_at(last.offset)
    return i if i < len(ctx.view.toks) and ctx.view.toks[i].offset == last.offset else None


@check("trailing_comma", enabled=False, fixable=False,
       nodes=(K.ARRAY, K.HASH, K.RESOURCE_BODY, K.RESOURCE_DEFAULTS))
def trailing_comma(ctx, node) -> None:
    """A multi-line array, hash, resource body or resource defaults block whose last element has
    no trailing comma (puppet-lint-trailing_comma-check)."""
    view = ctx.view
    toks = view.toks
    if node.kind == K.RESOURCE_BODY:
        span = resource_span(ctx, node)
        if span is not None and toks[span[1]].type == "RBRACE":
            _missing_comma(ctx, span[1], "COLON")
        return
    close = _closing_index(ctx, node)
    if close is None or toks[close].type not in ("RBRACK", "RBRACE"):
        return
    first = node.first_token()
    if first is None:
        return
    start = view.index_at(first.offset)
    before = view.prev_code(start) if start < len(toks) else None
    before_type = toks[before].type if before is not None else ""
    if node.kind == K.ARRAY:
        # an access ('Integer[1, 2]', 'File['x']') is no array; the tree says so already
        _missing_comma(ctx, close, "LBRACK")
    elif node.kind == K.HASH:
        # the plugin looks at hashes that are assigned, compared, given as a value or as the
        # first argument of a call
        if before_type in ("EQUALS", "ISEQUAL", "FARROW", "LPAREN"):
            _missing_comma(ctx, close, "LBRACE")
    else:
        _missing_comma(ctx, close, "LBRACE")


# --- unquoted_string_in_case / unquoted_string_in_selector ----------------------------------------

def _report_bare_word(ctx, value) -> None:
    if isinstance(value, QName) and value.syntax.kind == K.QNAME:
        tok = value.syntax.first_token()
        if tok is not None:
            ctx.report(tok.offset, tok.end, value=tok.text)


@check("unquoted_string_in_case", enabled=False, fixable=False, nodes=(K.CASE_EXPR,))
def unquoted_string_in_case(ctx, node) -> None:
    """A bare word as a case option's value (puppet-lint-unquoted_string-check)."""
    for option in CaseExpr(node).options():
        for value in option.values():
            _report_bare_word(ctx, value)


@check("unquoted_string_in_selector", enabled=False, fixable=False, nodes=(K.SELECTOR_EXPR,))
def unquoted_string_in_selector(ctx, node) -> None:
    """A bare word as the value a selector's entry matches (puppet-lint-unquoted_string-check)."""
    for entry in SelectorExpr(node).entries():
        value = entry.matching()
        _report_bare_word(ctx, value)


# --- absolute class names (puppet-lint-absolute_classname-check) ---------------------------------
# Since Puppet 4 a class name is always absolute: a leading '::' only adds noise, so the
# plugin's current checks flag it where a class is named.

_DECLARING = frozenset({"include", "contain", "require"})


def _absolute_name(node) -> tuple | None:
    """The token and the name of a class named by ``node`` when written with a leading '::'
    (a bare word or a quoted string)."""
    tok = node.first_token()
    if tok is None:
        return None
    if node.kind == K.QNAME and tok.text.startswith("::"):
        return tok, tok.text
    if node.kind == K.LITERAL and tok.kind == K.STRING and tok.text[1:].startswith("::"):
        return tok, tok.text[1:-1]
    if node.kind == K.DQ_STRING and tok.kind == K.DQ_OPEN and node.text[node.text.index('"') + 1:].startswith("::"):
        return tok, node.trimmed_text()[1:-1]
    return None


def _call_args(node) -> list:
    """The argument expressions of 'include x, y' or 'include(x, y)'."""
    if node.kind == K.STATEMENT_CALL:
        args = list(node.children())
    else:
        arg_list = node.child(K.ARG_LIST)
        args = list(arg_list.children()) if arg_list is not None else []
    out: list = []
    for arg in args:
        # include(['::a', '::b']) names each element
        out.extend(arg.children() if arg.kind == K.ARRAY else (arg,))
    return out


@check("relative_classname_inclusion", enabled=False, fixable=False,
       nodes=(K.STATEMENT_CALL, K.CALL_EXPR, K.RESOURCE_EXPR))
def relative_classname_inclusion(ctx, node) -> None:
    """A class included, contained, required or declared by its name with a leading '::'."""
    first = node.first_token()
    if first is None:
        return
    if node.kind == K.RESOURCE_EXPR:
        if first.text != "class":
            return
        targets = [next(body.children(), None) for body in node.children()
                   if body.kind == K.RESOURCE_BODY]
    elif first.text in _DECLARING:
        targets = _call_args(node)
    else:
        return
    for target in targets:
        found = _absolute_name(target) if target is not None else None
        if found is not None:
            ctx.report(found[0].offset, found[0].end, name=found[1])


@check("relative_classname_reference", enabled=False, fixable=False, nodes=(K.ACCESS_EXPR,))
def relative_classname_reference(ctx, node) -> None:
    """A class reference Class['::name'] with a leading '::'."""
    parts = list(node.children())
    if not parts or parts[0].kind != K.TYPE_REF or parts[0].trimmed_text() != "Class":
        return
    for key in parts[1:]:
        found = _absolute_name(key) if key.kind != K.QNAME else None
        if found is not None:
            ctx.report(found[0].offset, found[0].end, name=found[1])


# --- topscope_variable (puppet-lint-topscope-variable-check) -------------------------------------

@check("topscope_variable", enabled=False, fixable=False, nodes=(K.CLASS_DEF,))
def topscope_variable(ctx, node) -> None:
    """A variable of the class's own module written with a leading '::' ($::mod::x inside a class
    of module 'mod'): the module's variables need no top-scope prefix."""
    module = ClassDef(node).name.lstrip(":").split("::", 1)[0]
    if not module:
        return
    prefix = "::" + module + "::"
    view = ctx.view
    toks = view.toks
    i = view.index_at(node.offset)
    end = node.end
    while i < len(toks) and toks[i].offset < end:
        tok = toks[i]
        if (tok.type == "VARIABLE" or tok.type == "UNENC_VARIABLE") and tok.value.startswith(prefix):
            name = tok.value.split("[", 1)[0]
            ctx.report(tok.offset, tok.end - (len(tok.value) - len(name)), name=name[2:])
        i += 1
