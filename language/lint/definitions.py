"""Classes, defined types and nodes: names, file layout, documentation, inheritance,
nesting, parameter order, variable scope, and code outside any of them."""
from __future__ import annotations

import re

from ..knowledge.resource_types import metaparameters
from ..syntax import kinds as K
from ..syntax.tree import SyntaxNode
from . import fixes
from .registry import check
from .tokens import COMMENTS

_DEFS = {K.CLASS_DEF: True, K.DEFINE_DEF: True}
_SPACE = frozenset({"WHITESPACE", "NEWLINE", "INDENT"})


def definitions(ctx) -> list[SyntaxNode]:
    """Every class and defined type of the file (nested ones too), in source order."""
    found = ctx.cache.get("definitions")
    if found is None:
        found = ctx.cache["definitions"] = [n for n in ctx.nodes if n.kind in _DEFS]
    return found


def _kind(node: SyntaxNode) -> str:
    return "class" if node.kind == K.CLASS_DEF else "defined type"


def _span(ctx, node) -> tuple[int, int] | None:
    """Token indexes of a definition, from its keyword to its closing brace."""
    cache = ctx.cache.setdefault("def_span", {})
    key = (node.offset, node.kind)
    if key not in cache:
        cache[key] = ctx.view.code_span(node.offset, node.end)
    return cache[key]


def _keyword(ctx, node):
    span = _span(ctx, node)
    return None if span is None else ctx.view.toks[span[0]]


def _name_token(ctx, node):
    span = _span(ctx, node)
    if span is None:
        return None
    n = ctx.view.next_code(span[0])
    return None if n is None or n > span[1] else ctx.view.toks[n]


def _text(ctx, tok) -> str:
    return ctx.text[tok.offset:tok.end]


def _parent_name(node: SyntaxNode):
    parent = node.child(K.PARENT)
    if parent is None:
        return None
    toks = list(parent.significant_tokens())
    return toks[1] if len(toks) > 1 else None


def _index(ctx, offset: int) -> int | None:
    view = ctx.view
    i = view.index_at(offset)
    return i if i < len(view.toks) and view.toks[i].offset == offset else None


@check("autoloader_layout", nodes=(K.CLASS_DEF, K.DEFINE_DEF))
def autoloader_layout(ctx, node) -> None:
    """A class or defined type in a file where the autoloader would not look for it
    (<module>/manifests/<rest of the name>.pp, init.pp for the module's own class)."""
    if not ctx.path:
        return
    name = _name_token(ctx, node)
    if name is None:
        return
    parts = _text(ctx, name).split("::")
    if len(parts) > 1:
        expected = f"/{parts[0]}/manifests/{'/'.join(parts[1:])}.pp"
    else:
        expected = f"/{_text(ctx, name)}/manifests/init.pp"
    # --relative: the module's folder may have any name (a checkout called puppet-ntp)
    ending = expected.split("/", 2)[2] if "relative" in ctx.options else expected
    if ctx.path.replace("\\", "/").endswith(ending):
        return
    ctx.report(name.offset, name.end, kind=_kind(node).capitalize(), name=_text(ctx, name),
               expected=expected.lstrip("/"))


@check("names_containing_dash", nodes=(K.CLASS_DEF, K.DEFINE_DEF))
def names_containing_dash(ctx, node) -> None:
    """A class or defined type name with a dash."""
    name = _name_token(ctx, node)
    if name is not None and "-" in _text(ctx, name):
        ctx.report(name.offset, name.end, kind=_kind(node), name=_text(ctx, name))


@check("names_containing_uppercase", fixable=True, nodes=(K.CLASS_DEF, K.DEFINE_DEF))
def names_containing_uppercase(ctx, node) -> None:
    """A class or defined type name with upper-case letters."""
    name = _name_token(ctx, node)
    if name is not None and _text(ctx, name) != _text(ctx, name).lower():
        ctx.report(name.offset, name.end, fix=fixes.rename_definition(node, name), kind=_kind(node),
                   name=_text(ctx, name))


@check("documentation", nodes=(K.CLASS_DEF, K.DEFINE_DEF))
def documentation(ctx, node) -> None:
    """A class or defined type without a comment right above it (no blank line between)."""
    keyword = _keyword(ctx, node)
    if keyword is None:
        return
    i = _index(ctx, keyword.offset)
    if i is None:
        return
    toks = ctx.view.toks
    newlines = 0
    j = i - 1
    while j >= 0 and toks[j].type in _SPACE:
        if toks[j].type == "NEWLINE":
            newlines += 1
            if newlines > 1:
                break
        j -= 1
    if j >= 0 and toks[j].type in COMMENTS:
        return
    name = _name_token(ctx, node)
    ctx.report(keyword.offset, keyword.end, kind=_kind(node).capitalize(),
               name=_text(ctx, name) if name is not None else "")


@check("class_inherits_from_params_class", enabled=False, nodes=(K.CLASS_DEF,))
def class_inherits_from_params_class(ctx, node) -> None:
    """A class inheriting from a ::params class (the pre-Hiera-5 pattern; off by default)."""
    parent = _parent_name(node)
    if parent is not None and parent.text.endswith("::params"):
        ctx.report(parent.offset, parent.end, parent=parent.text)


@check("inherits_across_namespaces", nodes=(K.CLASS_DEF,))
def inherits_across_namespaces(ctx, node) -> None:
    """A class inheriting from a class of another module."""
    parent = _parent_name(node)
    name = _name_token(ctx, node)
    if parent is None or name is None:
        return

    def module(text: str) -> str:
        parts = [p for p in text.split("::") if p]
        return parts[0] if parts else ""

    if module(parent.text) != module(_text(ctx, name)):
        ctx.report(parent.offset, parent.end, parent=parent.text)


@check("nested_classes_or_defines", nodes=(K.CLASS_DEF,))
def nested_classes_or_defines(ctx, node) -> None:
    """A class or defined type defined inside a class."""
    for inner in definitions(ctx):
        if not (node.offset < inner.offset and inner.end <= node.end):
            continue
        keyword = _keyword(ctx, inner)
        if keyword is not None:
            ctx.report(keyword.offset, keyword.end, kind=_kind(inner).capitalize())


def _param_range(ctx, node) -> tuple[int, int] | None:
    """Token indexes inside the parentheses of a definition's parameter list."""
    params = node.child(K.PARAM_LIST)
    if params is None:
        return None
    lparen = params.token(K.LPAREN) or params.token(K.WSLPAREN)
    rparen = params.token(K.RPAREN)
    if lparen is None or rparen is None:
        return None
    a, b = _index(ctx, lparen.offset), _index(ctx, rparen.offset)
    if a is None or b is None:
        return None
    return a + 1, b


_PARAM_PREV = frozenset({"LPAREN", "COMMA", "TYPE", "RBRACK"})
_CLOSERS = {"RBRACE": "LBRACE", "RBRACK": "LBRACK", "RPAREN": "LPAREN"}


def _prev_type_token(toks, i: int):
    """The nearest data type name before token ``i``, stepping over bracketed groups (how
    puppet-lint finds a parameter's type)."""
    j = i - 1
    while j >= 0:
        t = toks[j].type
        if t == "TYPE":
            return toks[j]
        if t in _CLOSERS:
            depth = 1
            j -= 1
            while j >= 0 and depth:
                u = toks[j].type
                if u in _CLOSERS:
                    depth += 1
                elif u in ("LBRACE", "LBRACK", "LPAREN"):
                    depth -= 1
                j -= 1
            continue
        j -= 1
    return None


@check("parameter_order", nodes=(K.CLASS_DEF, K.DEFINE_DEF))
def parameter_order(ctx, node) -> None:
    """A required parameter listed after a parameter with a default (Optional[...] types
    count as not required)."""
    rng = _param_range(ctx, node)
    if rng is None:
        return
    view = ctx.view
    toks = view.toks
    parens = brackets = 0
    seen_default = False
    for i in range(rng[0], rng[1]):
        t = toks[i].type
        if t == "EQUALS":
            seen_default = True
        elif t == "LPAREN":
            parens += 1
        elif t == "RPAREN":
            parens -= 1
        elif t in ("LBRACE", "LBRACK"):
            brackets += 1
        elif t in ("RBRACE", "RBRACK"):
            brackets -= 1
        if parens or brackets or t != "VARIABLE" or not seen_default:
            continue
        p = view.prev_code(i)
        if p is None or toks[p].type not in _PARAM_PREV:
            continue
        n = view.next_code(i)
        if n is not None and toks[n].type not in ("COMMA", "RPAREN"):
            continue
        # the type is the nearest type name before the parameter, wherever it is
        type_token = _prev_type_token(toks, i)
        if type_token is not None and type_token.value == "Optional":
            continue
        ctx.report(toks[i].offset, toks[i].end, name=toks[i].value)


# Variables every class and define has (puppet-lint's list: Puppet's own, and one per
# metaparameter, taken from the knowledge of resource types).
_SCOPE_VARIABLES = frozenset("""
name title module_name environment clientcert clientversion servername serverip serverversion
caller_module_name facts trusted server_facts
""".split()) | frozenset(metaparameters())
_TRAILING_INDEX = re.compile(r"\[.+\]\Z")
_FACTS_INDEX = re.compile(r"^(facts|trusted)\[.+\]")


@check("variable_scope")
def variable_scope(ctx) -> None:
    """A variable used in a class or defined type that is neither qualified, nor a
    parameter, nor assigned there, nor one Puppet sets in every scope."""
    view = ctx.view
    toks = view.toks
    line = view.line
    in_scope = set(_SCOPE_VARIABLES)     # puppet-lint keeps one set for the whole file
    defs = definitions(ctx)
    ordered = [d for d in defs if d.kind == K.CLASS_DEF] + [d for d in defs if d.kind == K.DEFINE_DEF]
    for node in ordered:
        span = _span(ctx, node)
        if span is None:
            continue
        rng = _param_range(ctx, node)
        if rng is not None:
            for i in range(rng[0], rng[1]):
                if toks[i].type == "VARIABLE":
                    n = view.next_code(i)
                    if n is not None and toks[n].type in ("COMMA", "EQUALS", "RPAREN"):
                        in_scope.add(toks[i].value)
        referenced = []
        lambda_lines: dict[int, list] = {}
        in_pipe = False
        block_params: list[list] = []
        for i in range(span[0], span[1] + 1):
            t = toks[i].type
            if t == "EQUALS":
                p = view.prev_code(i)
                if p is None:
                    continue
                if toks[p].type == "VARIABLE":
                    in_scope.add(toks[p].value)
                elif toks[p].type == "RBRACK":
                    depth = 0
                    while p is not None:
                        u = toks[p].type
                        if u == "VARIABLE":
                            in_scope.add(toks[p].value)
                        elif u == "RBRACK":
                            depth += 1
                        elif u == "LBRACK":
                            depth -= 1
                            if depth == 0:
                                break
                        elif u != "COMMA":
                            break
                        p = view.prev_code(p)
            elif t == "VARIABLE":
                if in_pipe:
                    block_params[-1].append(toks[i].value)
                else:
                    referenced.append(i)
            elif t == "PIPE":
                in_pipe = not in_pipe
                if in_pipe:
                    block_params.append([])
                    continue
                depth = 0
                end = None
                for j in range(i, len(toks)):
                    u = toks[j].type
                    if u == "LBRACE":
                        depth += 1
                    elif u == "RBRACE":
                        depth -= 1
                        if depth == 0:
                            end = j
                            break
                params = block_params.pop()
                if end is None:
                    continue
                for ln in range(line(toks[i].offset), line(toks[end].offset) + 1):
                    lambda_lines.setdefault(ln, []).extend(params)
        for i in referenced:
            value = toks[i].value
            bare = _TRAILING_INDEX.sub("", value)
            local = lambda_lines.get(line(toks[i].offset))
            if local is not None and bare in local:
                continue
            if "::" in value or _FACTS_INDEX.match(value) or bare in in_scope or value.isdigit():
                continue
            ctx.report(toks[i].offset, toks[i].end, name=value)


@check("code_on_top_scope", enabled=False)
def code_on_top_scope(ctx) -> None:
    """Code outside of any class or defined type (one finding per token, as puppet-lint
    reports it; off by default)."""
    inside: list[tuple[int, int]] = []
    toks = ctx.view.toks
    for node in definitions(ctx):
        span = _span(ctx, node)
        if span is not None:
            first, last = toks[span[0]], toks[span[1]]
            if inside and first.offset < inside[-1][1]:
                continue
            inside.append((first.offset, last.end))
    k = 0
    for tok in ctx.view.toks:
        if tok.type in _SPACE or tok.type in COMMENTS:
            continue
        while k < len(inside) and inside[k][1] <= tok.offset:
            k += 1
        if k < len(inside) and inside[k][0] <= tok.offset:
            continue
        text = tok.value if len(tok.value) <= 40 else tok.value[:37] + "..."
        ctx.report(tok.offset, tok.end, text=repr(text))


@check("unquoted_node_name", fixable=True, tokens=("NODE",))
def unquoted_node_name(ctx, i, tok) -> None:
    """A node name written as a bare word ('default' excepted)."""
    toks = ctx.view.toks
    for j in range(i, len(toks)):
        t = toks[j]
        if t.type == "LBRACE":
            return
        if t.type == "NAME" and t.value != "default":
            ctx.report(t.offset, t.end, fix=fixes.quote(t), name=t.value)
