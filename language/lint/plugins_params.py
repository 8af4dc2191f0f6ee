"""The Vox Pupuli plugin checks about class and defined type parameters: their documentation
(puppet-lint-param-docs), empty-string and Optional defaults, and lookup() in defaults; and the
plugin checks on resource references (puppet-lint-resource_reference_syntax).

Off by default, as a plugin is until a team installs its gem; selected by name.  They read the
parameters from the tree (type, name, default), so a default spanning lines or holding nested
brackets is no special case.
"""
from __future__ import annotations

import re

from ..syntax import kinds as K
from ..syntax.ast import Definition, Param
from ..syntax.tree import SyntaxNode
from .registry import check
from .tokens import COMMENTS, TYPE_NAMES

_SPACE = frozenset({"WHITESPACE", "NEWLINE", "INDENT"})
# puppet-strings' '@param [Type] name' and the older rdoc '[*name*]' forms
_STRINGS_PARAM = re.compile(r"^\s*@param\s+(?:\[.*?\]\s+)?\$?(\w+)")
_RDOC_PARAM = re.compile(r"^\s*\[\*(\w+)\*\]")
_PRIVATE = re.compile(r"^\s*@api\s+private\b")


def _params(node: SyntaxNode) -> list[Param]:
    return Definition(node).params()


def _kind(node: SyntaxNode) -> str:
    return "class" if node.kind == K.CLASS_DEF else "defined type"


def _type_name(param: Param) -> str:
    """The name the parameter's type starts with ('Optional' for Optional[String])."""
    t = param.type_expr()
    if t is None:
        return ""
    tok = t.syntax.first_token()
    return tok.text if tok is not None and tok.kind == K.CLASSREF else ""


def _report_param(ctx, param: Param, **args) -> None:
    tok = param.name_token
    if tok is not None:
        ctx.report(tok.offset, tok.end, **args)


# --- parameter_documentation (puppet-lint-param-docs) --------------------------------------------

def _doc_comment(ctx, node: SyntaxNode) -> list[str] | None:
    """The lines of the comment block right above a definition's keyword (None: no block)."""
    view = ctx.view
    toks = view.toks
    span = view.code_span(node.offset, node.end)
    if span is None:
        return None
    lines: list[str] = []
    j = span[0] - 1
    newlines = 0
    while j >= 0:
        t = toks[j]
        if t.type in _SPACE:
            if t.type == "NEWLINE":
                newlines += 1
                if newlines > 1:
                    break
        elif t.type in COMMENTS:
            newlines = 0
            lines[:0] = t.value.splitlines() or [""]
        else:
            break
        j -= 1
    return lines if lines else None


@check("parameter_documentation", enabled=False, nodes=(K.CLASS_DEF, K.DEFINE_DEF))
def parameter_documentation(ctx, node) -> None:
    """A parameter of a class or defined type that its comment block does not document (with
    puppet-strings' '@param name' or the older '[*name*]'); private classes ('@api private')
    are exempt."""
    params = _params(node)
    if not params:
        return
    lines = _doc_comment(ctx, node) or []
    if any(_PRIVATE.match(line) for line in lines):
        return
    documented = set()
    for line in lines:
        m = _STRINGS_PARAM.match(line) or _RDOC_PARAM.match(line)
        if m is not None:
            documented.add(m.group(1))
    name = Definition(node).name.lstrip(":")
    for param in params:
        if param.name and param.name not in documented:
            _report_param(ctx, param, kind=_kind(node), name=f"{name}::{param.name}")


# --- params_empty_string_assignment (puppet-lint-params_empty_string-check) ----------------------

@check("params_empty_string_assignment", enabled=False, nodes=(K.CLASS_DEF, K.DEFINE_DEF))
def params_empty_string_assignment(ctx, node) -> None:
    """A String (or Variant) parameter whose default is the empty string ''."""
    for param in _params(node):
        if not _type_name(param).startswith(("String", "Variant")):
            continue
        default = param.default()
        if default is None or default.syntax.kind != K.LITERAL:
            continue
        tok = default.syntax.first_token()
        if tok is not None and tok.kind == K.STRING and tok.text == "''":
            _report_param(ctx, param, name=param.name)


# --- optional_default (puppet-lint-optional_default-check) ---------------------------------------

_CALLS = frozenset({K.CALL_EXPR, K.METHOD_CALL})


@check("optional_default", enabled=False, nodes=(K.CLASS_DEF, K.DEFINE_DEF))
def optional_default(ctx, node) -> None:
    """An Optional parameter whose default is a value other than undef (then it is never undef
    unless given so), or a defined type's Optional parameter without a default (a defined type
    has no Hiera data to fill it: the caller must always pass it)."""
    for param in _params(node):
        if _type_name(param) != "Optional":
            continue
        default = param.default()
        if default is None:
            if node.kind == K.DEFINE_DEF and not param.has_default:
                _report_param(ctx, param, check="optional_default", name=param.name,
                              reason="has no default; give it the default undef")
            continue
        first = default.syntax.first_token()
        if first is None or first.kind in (K.UNDEF, K.VARIABLE):
            continue
        # a default computed by a function may well be undef: the plugin leaves it alone
        if default.syntax.kind in _CALLS or any(n.kind in _CALLS for n in default.syntax.descendants()):
            continue
        _report_param(ctx, param, name=param.name,
                      reason="defaults to a value other than undef; make undef its default or drop Optional")


# --- lookup_in_parameter (puppet-lint-lookup_in_parameter-check) ---------------------------------

@check("lookup_in_parameter", enabled=False, nodes=(K.CLASS_DEF, K.DEFINE_DEF))
def lookup_in_parameter(ctx, node) -> None:
    """lookup() in a parameter's default: automatic parameter lookup already reads Hiera for
    class parameters, and hides the key from the module's data."""
    plist = node.child(K.PARAM_LIST)
    if plist is None:
        return
    for call in plist.descendants():
        if call.kind != K.CALL_EXPR:
            continue
        name = call.first_token()
        if name is not None and name.text == "lookup":
            ctx.report(name.offset, name.end)


# --- puppet-lint-resource_reference_syntax --------------------------------------------------------

@check("resource_reference_with_unquoted_title", enabled=False, fixable=False,
       nodes=(K.ATTRIBUTE_OP,))
def resource_reference_with_unquoted_title(ctx, node) -> None:
    """A bare word as the title of a resource reference in an attribute's value
    (require => Package[foo]).  The plugin looks only in the relationship metaparameters; any
    attribute is looked at here (the names are not written out a second time), data types
    (Enum[a, b]) excepted."""
    for access in node.descendants():
        if access.kind != K.ACCESS_EXPR:
            continue
        parts = list(access.children())
        if not parts or parts[0].kind != K.TYPE_REF or parts[0].trimmed_text() in TYPE_NAMES:
            continue
        for key in parts[1:]:
            if key.kind == K.QNAME:
                tok = key.first_token()
                if tok is not None:
                    ctx.report(tok.offset, tok.end, title=tok.text)


@check("resource_reference_chain_without_whitespace", enabled=False, tokens=("TYPE", "CLASSREF"))
def resource_reference_chain_without_whitespace(ctx, i, tok) -> None:
    """Whitespace between a type and the '[' of its reference or parameters (File ['x'])."""
    toks = ctx.view.toks
    if i + 2 < len(toks) and toks[i + 1].type == "WHITESPACE" and toks[i + 2].type == "LBRACK":
        ctx.report(tok.offset, toks[i + 2].offset, type=tok.value)
