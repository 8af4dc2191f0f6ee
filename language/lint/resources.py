"""Resource checks: attributes (duplicates, ensure first), file modes, symlink targets, titles,
selectors inside resources."""
from __future__ import annotations

import re

from ..syntax import kinds as K
from . import fixes
from .registry import check

_OPENERS = {"LBRACE": "RBRACE", "LBRACK": "RBRACK", "LPAREN": "RPAREN"}


def resource_span(ctx, body) -> tuple[int, int] | None:
    """Token indexes of a titled resource body, from its title's ':' to the ';' or '}' that
    ends it (what puppet-lint calls one resource)."""
    cache = ctx.cache.setdefault("resource_span", {})
    if body.offset in cache:
        return cache[body.offset]
    colon = body.token(K.COLON)
    span = None
    if colon is not None:
        view = ctx.view
        toks = view.toks
        start = view.index_at(colon.offset)
        if start < len(toks) and toks[start].offset == colon.offset:
            closers: list = []
            for i in range(start + 1, len(toks)):
                t = toks[i].type
                if closers:
                    if t == closers[-1]:
                        closers.pop()
                    elif t in _OPENERS:
                        closers.append(_OPENERS[t])
                elif t == "SEMIC" or t == "RBRACE":
                    span = (start, i)
                    break
                elif t in _OPENERS:
                    closers.append(_OPENERS[t])
    cache[body.offset] = span
    return span


def resource_type(ctx, span) -> str:
    """The type name of a resource: the word before the '{' that opens it (puppet-lint's way,
    which needs no parent in the tree)."""
    view = ctx.view
    toks = view.toks
    i = span[0] - 1
    while i >= 0:
        if toks[i].type == "LBRACE":
            p = view.prev_code(i)
            if p is not None and toks[p].type != "QMARK":
                return toks[p].value
        i -= 1
    return ""


def param_tokens(ctx, span) -> list[int]:
    """Attribute names of the body: names followed by '=>' outside nested blocks."""
    view = ctx.view
    toks = view.toks
    out = []
    depth = 0
    for i in range(span[0] + 1, span[1]):
        t = toks[i].type
        if t in _OPENERS:
            depth += 1
        elif t in ("RBRACE", "RBRACK", "RPAREN"):
            depth -= 1
        elif t == "NAME" and depth == 0:
            n = view.next_code(i)
            if n is not None and toks[n].type == "FARROW":
                out.append(i)
    return out


def _value_token(ctx, name_index: int):
    view = ctx.view
    arrow = view.next_code(name_index)
    value = view.next_code(arrow) if arrow is not None else None
    return view.toks[value] if value is not None else None


@check("duplicate_params", nodes=(K.RESOURCE_BODY,))
def duplicate_params(ctx, node) -> None:
    """An attribute (or a key of a hash in it) given twice in one resource body."""
    span = resource_span(ctx, node)
    if span is None:
        return
    view = ctx.view
    toks = view.toks
    seen: dict[int, set] = {}
    level = 0
    for i in range(span[0], span[1] + 1):
        t = toks[i].type
        if t == "LBRACE":
            level += 1
        elif t == "RBRACE":
            seen.pop(level, None)
            level -= 1
        elif t == "FARROW":
            p = view.prev_code(i)
            if p is None or toks[p].type != "NAME":
                continue
            names = seen.setdefault(level, set())
            if toks[p].value in names:
                ctx.report(toks[p].offset, toks[p].end, name=toks[p].value)
            else:
                names.add(toks[p].value)


@check("ensure_first_param", fixable=True, nodes=(K.RESOURCE_BODY,))
def ensure_first_param(ctx, node) -> None:
    """'ensure' given, but not as the first attribute (classes excepted)."""
    span = resource_span(ctx, node)
    if span is None or resource_type(ctx, span) == "class":
        return
    toks = ctx.view.toks
    params = param_tokens(ctx, span)
    for n, i in enumerate(params):
        if toks[i].value == "ensure":
            if n:
                ctx.report(toks[i].offset, toks[i].end, fix=fixes.ensure_first(ctx, span, params, i))
            return


@check("ensure_not_symlink_target", fixable=True, nodes=(K.RESOURCE_BODY,))
def ensure_not_symlink_target(ctx, node) -> None:
    """A file whose 'ensure' is a path (the old way to make a symlink)."""
    span = resource_span(ctx, node)
    if span is None or resource_type(ctx, span) != "file":
        return
    toks = ctx.view.toks
    for i in param_tokens(ctx, span):
        if toks[i].value != "ensure":
            continue
        value = _value_token(ctx, i)
        if value is not None and value.value.startswith("/"):
            fix = fixes.symlink_target(ctx, i, ctx.view.index_at(value.offset))
            ctx.report(value.offset, value.end, fix=fix, target=ctx.text[value.offset:value.end])


_SYMBOLIC = "[ugoa]*[-=+][-=+rstwxXugo]*"
_MODE = re.compile(rf"\A(?:[0-7]{{4}}|{_SYMBOLIC}(?:,{_SYMBOLIC})*)\Z")
_NOT_A_MODE_VALUE = frozenset({"VARIABLE", "UNDEF", "FUNCTION_NAME"})


def _shown(ctx, tok) -> str:
    """The source text of a value token; for the first piece of an interpolated string, the
    whole string."""
    end = tok.end
    if tok.type == "DQPRE":
        i = ctx.view.index_at(tok.offset)
        for t in ctx.view.toks[i:]:
            if t.type == "DQPOST" and t.start == tok.offset:
                end = t.end
                break
    return ctx.text[tok.offset:end]


def _modes(ctx, node):
    span = resource_span(ctx, node)
    if span is None or resource_type(ctx, span) not in ("file", "concat"):
        return
    toks = ctx.view.toks
    for i in param_tokens(ctx, span):
        if toks[i].value == "mode":
            value = _value_token(ctx, i)
            if value is not None:
                yield value


@check("file_mode", fixable=True, nodes=(K.RESOURCE_BODY,))
def file_mode(ctx, node) -> None:
    """A file mode that is neither four octal digits nor a symbolic mode (values computed by
    a variable or a function call are not judged)."""
    for value in _modes(ctx, node):
        if value.type in _NOT_A_MODE_VALUE or _MODE.match(value.value):
            return
        ctx.report(value.offset, value.end, fix=fixes.file_mode(value), value=_shown(ctx, value))
        return


@check("unquoted_file_mode", fixable=True, nodes=(K.RESOURCE_BODY,))
def unquoted_file_mode(ctx, node) -> None:
    """A file mode written as a bare number or word."""
    for value in _modes(ctx, node):
        if value.type in ("NAME", "NUMBER"):
            # only a value that is the whole attribute value is quoted ('u+rw' is an expression)
            i = ctx.view.index_at(value.offset)
            n = ctx.view.next_code(i)
            whole = n is None or ctx.view.toks[n].type in ("COMMA", "SEMIC", "RBRACE")
            ctx.report(value.offset, value.end, fix=fixes.quote(value) if whole else None, value=value.value)


@check("selector_inside_resource", nodes=(K.RESOURCE_BODY,))
def selector_inside_resource(ctx, node) -> None:
    """An attribute value chosen by a selector on a variable, inside the resource."""
    span = resource_span(ctx, node)
    if span is None:
        return
    view = ctx.view
    toks = view.toks
    for i in range(span[0], span[1] + 1):
        if toks[i].type != "FARROW":
            continue
        v = view.next_code(i)
        if v is None or toks[v].type != "VARIABLE":
            continue
        q = view.next_code(v)
        if q is not None and toks[q].type == "QMARK":
            ctx.report(toks[i].offset, toks[i].end)


@check("unquoted_resource_title", fixable=True, tokens=("COLON",))
def unquoted_resource_title(ctx, i, tok) -> None:
    """A resource title written as a bare word."""
    view = ctx.view
    toks = view.toks
    if i == 0:
        return
    if toks[i - 1].type == "RBRACK":
        # puppet-lint takes the title array from the last '[' of the file
        last = ctx.cache.get("last_lbrack")
        if last is None:
            last = ctx.cache["last_lbrack"] = max(
                (j for j, t in enumerate(toks) if t.type == "LBRACK"), default=-1)
        candidates = range(last + 1, i - 1) if last >= 0 else range(0)
    else:
        n = view.next_code(i)
        if n is not None and toks[n].type == "LBRACE":
            return
        candidates = range(i - 1, i)
    for j in candidates:
        if toks[j].type == "NAME":
            ctx.report(toks[j].offset, toks[j].end, fix=fixes.quote(toks[j]), title=toks[j].value)
