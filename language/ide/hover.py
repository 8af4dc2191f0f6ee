"""Hover: what the thing under the cursor is, as markdown.

* a variable or parameter: where it is defined, its inferred type (precise, and the general
  form when they differ), its value when it can be computed statically, its documentation;
* a type name: the built-in type's signature and description, or the alias / resource type /
  class it names;
* a function name: its signatures and documentation;
* a resource type, attribute or class name: its documentation and parameters;
* a keyword: what it does;
* any other expression: its inferred type and, when static, its value.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..check.analysis import NOT_CONST, Analysis
from ..check.builtins import BUILTIN_VARIABLES, is_core_fact
from ..knowledge import facts
from ..knowledge.resource_types import metaparameters
from ..syntax import ast as A
from ..syntax import kinds as K
from ..syntax.tree import SyntaxNode, SyntaxToken
from ..types import model as m
from ..types.algebra import generalize
from ..types.errors import TypeSystemError
from ..types.format import format_value, type_to_string
from . import bolt as bolt_ide
from . import lookup
from .tokens import token_at
from .preview import PreviewBudget, parameter_preview, preview_definition, preview_expression


@dataclass
class HoverResult:
    markdown: str
    start: int
    end: int


KEYWORD_DOCS = {
    "if": "`if condition { … } elsif … else { … }` runs the first block whose condition is true "
          "(undef and false are false). As an expression its value is the value of the block run.",
    "unless": "`unless condition { … } else { … }` runs the block when the condition is false.",
    "elsif": "Another condition of an `if`, tried when the previous ones were false.",
    "else": "The block run when no condition of an `if`/`unless` matched.",
    "case": "`case value { match, match: { … } default: { … } }` runs the block of the first "
            "option that matches (==, regular expressions and types match).",
    "class": "`class name (params) inherits parent { … }` defines a class: a singleton, declared "
             "with `include`, `contain`, `require` or `class { 'name': }`.",
    "define": "`define name (params) { … }` defines a resource type written in Puppet; each "
              "declaration `name { 'title': … }` evaluates the body with $title and $name.",
    "node": "`node 'name', /regex/, default { … }` holds the code for the matching nodes.",
    "function": "`function name(params) >> ReturnType { … }` defines a Puppet-language function; "
                "its value is the value of the last expression.",
    "type": "`type Name = TypeExpression` defines a type alias.",
    "inherits": "Makes the class a child of another: the parent is declared first and its "
                "variables are visible unqualified in the child.",
    "and": "Boolean and (short-circuit): true when both operands are truthy.",
    "or": "Boolean or (short-circuit): true when either operand is truthy.",
    "in": "`x in collection` is true when x is an element (Array), a key (Hash), a substring "
          "(String) or matches (Regexp, Type) in the right-hand side.",
    "undef": "The absence of a value (Undef). Unset parameters and variables are undef.",
    "default": "The literal default: the catch-all option of `case` and selectors; as a parameter "
               "value it means \"use the default\".",
    "true": "The Boolean true.",
    "false": "The Boolean false.",
    "private": "Reserved for future use.",
    "attr": "Reserved for future use.",
    "plan": "`plan name(params) { … }` defines a Bolt plan.",
    "apply": "`apply(targets) { … }` compiles the block into a catalog and applies it on targets "
             "(Bolt plans).",
}

_DEF_KIND_TEXT = {"parameter": "parameter", "variable": "variable", "lambda_parameter": "lambda parameter",
                  "template_parameter": "template parameter"}


def hover(an: Analysis, offset: int, budget: PreviewBudget | None = None, values: bool = True) -> HoverResult | None:
    """The hover for the cursor at ``offset`` (None when there is nothing to say).  Values are
    computed with the evaluator within ``budget`` unless ``values`` is False."""
    if not values:
        budget = PreviewBudget(steps=0, seconds=0.0, total_seconds=0.0)
    tok = _token(an, offset)
    if tok is None:
        return None
    k = tok.kind
    if k in (K.VARIABLE, K.STRING_VAR) or (k == K.VARIABLE and tok.parent is not None):
        return _variable(an, tok, budget)
    if k in K.KEYWORD_KINDS and tok.text in KEYWORD_DOCS:
        return HoverResult(f"**{tok.text}** (keyword)\n\n{KEYWORD_DOCS[tok.text]}", tok.offset, tok.end)
    if k == K.CLASSREF:
        return _type_name(an, tok)
    if k == K.NAME:
        res = _name(an, tok, budget)
        if res is not None:
            return res
    if k == K.STRING:
        res = _fact_key(an, tok)
        if res is not None:
            return res
        task = bolt_ide.task_hover(an, tok)     # run_task('mod::task', …)
        if task is not None:
            return HoverResult(*task)
    if k in (K.STRING, K.DQ_OPEN, K.STRING_TEXT, K.DQ_CLOSE):
        res = _class_string(an, tok)
        if res is not None:
            return res
    return _expression(an, tok, budget)


def _token(an: Analysis, offset: int) -> SyntaxToken | None:
    root = an.result.root
    tok = token_at(root, offset)
    if (tok is None or tok.is_trivia or tok.kind == K.EOF) and offset > 0:
        prev = token_at(root, offset - 1)
        if prev is not None and not prev.is_trivia:
            tok = prev
    if tok is None or tok.is_trivia or tok.kind in (K.EOF, K.ERROR_TOKEN):
        return None
    return tok


def _code(text: str) -> str:
    return f"```puppet\n{text}\n```"


def general_type(t: m.PType) -> m.PType:
    """The general form of a type: ranges and sizes dropped, a Tuple as an Array and a
    Struct as a Hash of the common type of their elements."""
    from ..types.algebra import common_type
    g = generalize(t)
    if isinstance(g, m.TupleType) and g.types:
        el = g.types[0]
        for x in g.types[1:]:
            el = common_type(el, x)
        return m.ArrayType(generalize(el))
    if isinstance(g, m.StructType) and g.elements:
        el = g.elements[0].value_type
        for e in g.elements[1:]:
            el = common_type(el, e.value_type)
        return m.HashType(m.STRING, generalize(el))
    return g


def _type_lines(t: m.PType, general: bool = True) -> list:
    text = type_to_string(t)
    out = [f"Type: `{text}`"]
    if general:
        try:
            g = type_to_string(general_type(t))
        except (TypeSystemError, RecursionError):   # an alias that cannot be resolved, or too deep
            g = text
        if g != text:
            out.append(f"General type: `{g}`")
    return out


def _variable(an: Analysis, tok: SyntaxToken, budget) -> HoverResult | None:
    model = an.model
    ref = model.reference_at(tok.offset)
    d = model.definition_at(tok.offset)
    name = tok.text.lstrip("$")
    lines: list = []
    if d is None and ref is not None:
        d = ref.target
    if d is not None:
        where = _definition_place(d)
        lines.append(_code(f"${d.name}") + f"\n{_DEF_KIND_TEXT.get(d.kind, d.kind)} {where}".rstrip())
        t = an.definition_type(d)
        lines += _type_lines(t, general=d.kind == "variable")
        if d.kind == "variable" and (budget is None or budget.steps > 0):
            p = preview_definition(an, d, budget)
            if p is not None:
                lines.append(f"Value: `{_short(p.value)}`")
        elif d.kind in ("parameter", "template_parameter", "lambda_parameter"):
            dv = A.Param(d.node).default()
            if dv is not None:
                lines.append(f"Default: `{_short(dv.syntax.trimmed_text())}`")
            # with a fact set chosen, its value on that node: a class parameter's from Hiera
            # (automatic parameter lookup) or its default, said which
            p = None
            if budget is not None and budget.context is not None and budget.steps > 0:
                if d.kind == "parameter" and d.scope.kind == "class":
                    p = parameter_preview(an, d.node, budget)
                elif dv is not None:
                    p = preview_expression(an, dv.syntax, budget)
            if p is not None and (dv is None or p.value != dv.syntax.trimmed_text() or p.origin != "default"):
                lines.append(f"Value: `{_short(p.value)}`" + (f" ({p.origin})" if p.origin else ""))
            doc = _param_doc(an, d)
            if doc:
                lines.append(doc)
        return HoverResult("\n\n".join(lines), tok.offset, tok.end)
    bare = name.lstrip(":")
    if ref is not None and ref.status == "builtin" and bare in BUILTIN_VARIABLES:
        return HoverResult(_code(f"${bare}") + f"\nbuilt-in variable\n\n{BUILTIN_VARIABLES[bare]}", tok.offset, tok.end)
    if bare and bare[0].isdigit():
        return HoverResult(_code(f"${bare}") + "\nmatch variable: "
                           + ("the whole match" if bare == "0" else f"capture group {bare}")
                           + " of the last regular expression match", tok.offset, tok.end)
    if is_core_fact(bare) or an.env.has_fact(bare):
        return HoverResult(_code(f"${bare}") + "\nfact (a top-scope variable set from Facter; "
                           f"prefer `$facts['{bare}']`)", tok.offset, tok.end)
    if "::" in bare:
        cls, _, var = bare.rpartition("::")
        targets = lookup.find(an, "class", cls)
        text = _code(f"${bare}") + f"\nvariable `{var}` of class `{cls}`"
        if targets and var in targets[0].params:
            t, dv, doc = targets[0].params[var]
            text += f"\n\nparameter{(' of type `' + t + '`') if t else ''}" + (f"\n\n{doc}" if doc else "")
        return HoverResult(text, tok.offset, tok.end)
    for e in an.env.lookup("top_variable", bare):
        where = "/".join(e.path.replace("\\", "/").split("/")[-2:])
        scope = "node-scope variable of a node definition" if e.extra.get("scope") == "node" else "top-scope variable"
        return HoverResult(_code(f"${bare}") + f"\n{scope}, set in `{where}`", tok.offset, tok.end)
    return HoverResult(_code(f"${bare}") + "\nnot defined in this file", tok.offset, tok.end)


def _definition_place(d) -> str:
    s = d.scope.definition_scope
    if s.kind in ("class", "define", "function", "plan", "node") and s.name:
        return f"of {s.kind} `{s.name}`" if d.kind == "parameter" else f"in {s.kind} `{s.name}`"
    if s.kind == "epp":
        return "of the template" if d.kind == "template_parameter" else "in the template"
    return "at top scope"


def _param_doc(an: Analysis, d) -> str:
    s = d.scope
    if s.kind not in ("class", "define", "function", "plan"):
        return ""
    from .docs import leading_comment, parse_doc
    doc = parse_doc(leading_comment(an.result.text, s.node.range[0]))
    return doc.params.get(d.name, "")


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(text.split()) if "\n" in text else text
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _target_markdown(t: lookup.Target) -> str:
    parts = [_code(t.signature)] if t.signature else []
    if t.doc:
        parts.append(t.doc)
    if t.path:
        parts.append(f"*Defined in* `{t.path}`")
    return "\n\n".join(parts)


def _type_name(an: Analysis, tok: SyntaxToken) -> HoverResult | None:
    t = lookup.type_target(an, tok.text)
    if t is None:
        return HoverResult(_code(tok.text) + "\n\nUnknown type (not a data type, type alias, resource type or class "
                           "known here).", tok.offset, tok.end)
    md = _target_markdown(t)
    if t.kind == "type":
        what = "Bolt data type" if t.extra.get("category") == "Bolt" else \
            f"built-in data type ({t.extra.get('category', '')})"
        md = f"**{t.name}** — {what}\n\n" + md
    elif t.kind == "resource_type":
        md = f"**{tok.text}** — resource type\n\n" + md
    return HoverResult(md, tok.offset, tok.end)


def _fact_key(an: Analysis, tok: SyntaxToken) -> HoverResult | None:
    """A key of ``$facts['os']['family']`` (or ``$::facts``): the fact's type and description
    from Facter's schema."""
    lit = tok.parent
    access = lit.parent if lit is not None and lit.kind == K.LITERAL else None
    if lit is None or access is None or access.kind != K.ACCESS_EXPR:
        return None
    path: list = []
    node: SyntaxNode | None = access
    while node is not None and node.kind == K.ACCESS_EXPR:
        v = A.AccessExpr(node)
        keys = v.keys()
        if len(keys) != 1:
            return None
        key = an.const_value(keys[0])
        if not isinstance(key, str):
            return None
        path.append(key)
        t = v.target()
        node = t.syntax if t is not None else None
    if node is None or node.kind != K.VARIABLE_EXPR or node.trimmed_text().lstrip("$").lstrip(":") != "facts":
        return None
    path.reverse()
    # the key hovered, and the keys before it
    depth = next((i for i, n in enumerate(_access_chain(access)) if n is not None and n.offset == lit.offset), None)
    if depth is None:
        return None
    path = path[:depth + 1]
    f = facts.fact_at(path)
    if f is None:
        return None
    shown = "$facts" + "".join(f"['{p}']" for p in path)
    md = f"**{shown}** — {'legacy ' if f.legacy else ''}fact\n\nType: `{f.type}` (Facter)\n\n{f.description}"
    if f.elements:
        md += "\n\nKeys: " + ", ".join(f"`{e.name}`" for e in f.elements[:40])
    return HoverResult(md, tok.offset, tok.end)


def _access_chain(outer: SyntaxNode) -> list:
    """The key literals of nested accesses ``$x[a][b]…`` from the innermost, up to ``outer``."""
    chain = []
    node: SyntaxNode | None = outer
    while node is not None and node.kind == K.ACCESS_EXPR:
        keys = A.AccessExpr(node).keys()
        chain.append(keys[0].syntax if keys else None)
        t = A.AccessExpr(node).target()
        node = t.syntax if t is not None else None
    chain.reverse()
    return chain


def _name(an: Analysis, tok: SyntaxToken, budget) -> HoverResult | None:
    parent = tok.parent
    if parent is None:
        return None
    pk = parent.kind
    gp = parent.parent
    # a function call: f(...), statement call, method call
    if pk == K.STATEMENT_CALL or pk == K.METHOD_CALL or (pk == K.QNAME and gp is not None and gp.kind == K.CALL_EXPR):
        t = lookup.function_target(an, tok.text)
        if t is not None:
            return HoverResult(f"**{t.name}** — function\n\n" + _target_markdown(t), tok.offset, tok.end)
        return HoverResult(_code(tok.text + "()") + "\n\nUnknown function.", tok.offset, tok.end)
    # the type of a resource declaration
    if pk == K.QNAME and gp is not None and gp.kind == K.RESOURCE_EXPR and A.ResourceExpr(gp).type_expr() is not None \
            and A.ResourceExpr(gp).type_expr().syntax.offset == parent.offset:
        t = lookup.resource_type_target(an, tok.text)
        if t is not None:
            md = f"**{t.name}** — resource type\n\n" + _target_markdown(t)
            if t.params:
                names = ", ".join(f"`{p}`" for p in list(t.params)[:40])
                md += f"\n\nAttributes: {names}"
            return HoverResult(md, tok.offset, tok.end)
        # not a value (it showed as the string 'apache::vhost' while the module was unknown)
        return HoverResult(_code(f"{tok.text} {{ 'title': … }}") + "\n\nUnknown resource type: not a core "
                           "type, and no defined type or custom type of this name in the workspace or "
                           "on the modulepath.", tok.offset, tok.end)
    # an attribute name
    if pk == K.ATTRIBUTE_OP:
        return _attribute(an, tok, parent)
    # the name of a definition
    if pk in (K.CLASS_DEF, K.DEFINE_DEF, K.FUNCTION_DEF, K.PLAN_DEF):
        kind = {K.CLASS_DEF: "class", K.DEFINE_DEF: "define", K.FUNCTION_DEF: "function", K.PLAN_DEF: "plan"}[pk]
        d = A.view(parent)
        name = d.qualified_name if isinstance(d, (A.ClassDef, A.DefineDef)) else tok.text
        ts = [t for t in lookup.find(an, kind, name) if t.path is None]
        if ts:
            return HoverResult(_target_markdown(ts[0]), tok.offset, tok.end)
    # inherits parent / include arg
    if pk == K.PARENT or (pk == K.QNAME and gp is not None and gp.kind in (K.STATEMENT_CALL, K.ARG_LIST)):
        ts = lookup.find(an, "class", tok.text)
        if ts:
            return HoverResult(f"**{ts[0].name}** — class\n\n" + _target_markdown(ts[0]), tok.offset, tok.end)
    return None


def _attribute(an: Analysis, tok: SyntaxToken, op: SyntaxNode) -> HoverResult | None:
    body = op.parent
    res = body.parent if body is not None else None
    name = tok.text
    type_name = ""
    if res is not None and res.kind == K.RESOURCE_EXPR:
        te = A.ResourceExpr(res).type_expr()
        if isinstance(te, (A.QName, A.TypeRef)):
            type_name = te.name
        elif te is None:
            type_name = "class"
    meta = metaparameters().get(name)
    if type_name == "class" and body is not None and body.kind == K.RESOURCE_BODY:
        title = an.const_value(A.ResourceBody(body).title())
        targets = lookup.find(an, "class", title) if isinstance(title, str) else []
    else:
        t = lookup.resource_type_target(an, type_name) if type_name else None
        targets = [t] if t is not None else []
    for t in targets:
        p = t.params.get(name)
        if p is not None:
            ptype, dv, doc = p
            md = _code(f"{(ptype + ' ') if ptype else ''}${name}" if t.kind != "resource_type" or not t.extra.get("builtin")
                       else name)
            md += f"\n\nattribute of `{t.name}`"
            if dv:
                md += f"\n\nDefault: `{_short(dv)}`"
            if doc:
                md += f"\n\n{doc}"
            values = lookup.attribute_values(an, type_name, name)
            if values:
                md += "\n\nValues: " + ", ".join(f"`{v}`" for v in values)
            return HoverResult(md, tok.offset, tok.end)
    if meta is not None:
        md = f"**{name}** — metaparameter (every resource has it)\n\n{meta.doc}"
        if meta.values:
            md += "\n\nValues: " + ", ".join(f"`{v}`" for v in meta.value_names)
        return HoverResult(md, tok.offset, tok.end)
    return None


def _class_string(an: Analysis, tok: SyntaxToken) -> HoverResult | None:
    """A class named by a string: include 'x', class { 'x': }, Class['x']."""
    node = tok.parent
    if node is None:
        return None
    expr = node if node.kind in (K.LITERAL, K.DQ_STRING) else None
    if expr is None:
        return None
    parent = expr.parent
    is_class_use = False
    if parent is not None:
        if parent.kind in (K.STATEMENT_CALL, K.ARG_LIST):
            call = parent if parent.kind == K.STATEMENT_CALL else parent.parent
            v = A.view(call) if call is not None else None
            name = v.name if isinstance(v, (A.StatementCall, A.CallExpr)) else None
            is_class_use = (name or "") in ("include", "contain", "require")
        elif parent.kind == K.RESOURCE_BODY and parent.parent is not None:
            is_class_use = _is_class_resource(parent.parent)
        elif parent.kind == K.ACCESS_EXPR:
            tgt = A.AccessExpr(parent).target()
            is_class_use = isinstance(tgt, A.TypeRef) and tgt.name == "Class"
    if not is_class_use:
        return None
    v = an.const_value(expr)
    if not isinstance(v, str):
        return None
    ts = lookup.find(an, "class", v)
    if not ts:
        return None
    r = expr.range
    return HoverResult(f"**{ts[0].name}** — class\n\n" + _target_markdown(ts[0]), r[0], r[1])


_EXPR_SKIP = frozenset({K.BLOCK, K.SOURCE_FILE, K.EPP_FILE, K.ARG_LIST, K.PARAM_LIST, K.PARAM,
                        K.RESOURCE_BODY, K.ATTRIBUTE_OP, K.HASH_ENTRY, K.SELECTOR_ENTRY, K.CASE_OPTION,
                        K.LAMBDA, K.ERROR, K.HEREDOC_BODY, K.HEREDOC_TEXT, K.ELSIF_CLAUSE, K.ELSE_CLAUSE,
                        K.CLASS_DEF, K.DEFINE_DEF, K.NODE_DEF, K.FUNCTION_DEF, K.PLAN_DEF,
                        K.RESOURCE_EXPR, K.RESOURCE_DEFAULTS, K.RESOURCE_OVERRIDE, K.COLLECT_EXPR,
                        K.TYPE_ALIAS, K.TYPE_DEFINITION, K.RETURN_TYPE, K.PARENT, K.HOST_MATCHES,
                        K.HOST_NAME, K.COLLECT_QUERY, K.EPP_PARAMS, K.RELATIONSHIP, K.ASSIGNMENT})


def _expression(an: Analysis, tok: SyntaxToken, budget) -> HoverResult | None:
    node = tok.parent
    while node is not None and node.kind in (K.INTERPOLATION,):
        node = node.parent
    while node is not None and node.kind in _EXPR_SKIP:
        return None
    if node is None:
        return None
    # the operator of a binary expression: show the whole expression
    t = an.type_of(node)
    lines = _type_lines(t)
    v = an.const_value(node)
    if v is not NOT_CONST and not isinstance(v, m.PType):
        try:
            lines.insert(0, f"Value: `{_short(format_value(v))}`")
        except (ValueError, RecursionError):   # an integer Python will not print (over 4,300 digits), or too deep
            pass
    elif node.kind in (K.CALL_EXPR, K.METHOD_CALL, K.BINARY_EXPR, K.ACCESS_EXPR, K.SELECTOR_EXPR,
                       K.UNARY_EXPR, K.ARRAY, K.HASH, K.DQ_STRING, K.PAREN_EXPR):
        p = preview_expression(an, node, budget) if budget is None or budget.steps > 0 else None
        if p is not None:
            lines.insert(0, f"Value: `{_short(p.value)}`")
    if isinstance(t, m.AnyType) and len(lines) == 1:
        return None
    r = node.range
    return HoverResult("\n\n".join(lines), r[0], r[1])


def _is_class_resource(node) -> bool:
    """Is this RESOURCE_EXPR a resource-like class declaration ``class { 'name': }``?"""
    te = A.ResourceExpr(node).type_expr()
    return te is None or (isinstance(te, A.QName) and te.name == "class")
