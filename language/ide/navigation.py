"""Go to definition, find references and document highlights for variables, parameters,
classes, defined types, functions, resource types and type aliases.

``symbol_at`` says what the cursor is on; ``definition``/``references`` answer with
``Location``s whose ``path`` is None for the analysed file and a file path for places the
workspace index knows (the server turns those offsets into positions of that file).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..check.analysis import Analysis
from ..check.scopes import Definition
from ..syntax import ast as A
from ..syntax import kinds as K
from ..syntax.tree import SyntaxToken
from . import bolt as bolt_ide
from . import lookup
from .tokens import token_at
from .index import uses_of


@dataclass
class Location:
    path: str | None          # None: the analysed file
    start: int
    end: int
    write: bool = False       # a definition/assignment (for highlights)


@dataclass
class SymbolRef:
    """What the cursor is on."""

    kind: str                 # variable, function, class, define, type, resource_type
    name: str
    start: int
    end: int
    definition: Definition | None = None


def _token(an: Analysis, offset: int) -> SyntaxToken | None:
    root = an.result.root
    for off in (offset, offset - 1):
        if off < 0:
            continue
        tok = token_at(root, off)
        if tok is not None and not tok.is_trivia and tok.kind != K.EOF:
            return tok
    return None


def symbol_at(an: Analysis, offset: int) -> SymbolRef | None:
    tok = _token(an, offset)
    if tok is None:
        return None
    model = an.model
    k = tok.kind
    if k in (K.VARIABLE, K.STRING_VAR):
        d = model.definition_at(tok.offset)
        if d is None:
            ref = model.reference_at(tok.offset)
            d = ref.target if ref is not None else None
        return SymbolRef("variable", tok.text.lstrip("$"), tok.offset, tok.end, d)
    parent = tok.parent
    if parent is None:
        return None
    pk = parent.kind
    gp = parent.parent
    if k == K.CLASSREF:
        return SymbolRef("type", tok.text.lstrip(":"), tok.offset, tok.end)
    if k == K.NAME:
        if pk == K.STATEMENT_CALL or pk == K.METHOD_CALL or (pk == K.QNAME and gp is not None and gp.kind == K.CALL_EXPR
                                                            and A.CallExpr(gp).functor().syntax.offset == parent.offset):
            if pk == K.STATEMENT_CALL and parent.first_token() is not tok:
                return None
            return SymbolRef("function", tok.text.lstrip(":"), tok.offset, tok.end)
        if pk == K.QNAME and gp is not None and gp.kind == K.RESOURCE_EXPR:
            te = A.ResourceExpr(gp).type_expr()
            if te is not None and te.syntax.offset == parent.offset:
                return SymbolRef("resource_type", tok.text.lstrip(":").lower(), tok.offset, tok.end)
        if pk in (K.CLASS_DEF, K.DEFINE_DEF):
            view = A.ClassDef(parent) if pk == K.CLASS_DEF else A.DefineDef(parent)
            return SymbolRef("class" if pk == K.CLASS_DEF else "define", view.qualified_name.lower(), tok.offset, tok.end)
        if pk == K.FUNCTION_DEF:
            return SymbolRef("function", tok.text.lstrip(":").lower(), tok.offset, tok.end)
        if pk == K.PARENT and gp is not None and gp.kind == K.CLASS_DEF:
            return SymbolRef("class", tok.text.lstrip(":").lower(), tok.offset, tok.end)
        if pk == K.QNAME and gp is not None and gp.kind in (K.STATEMENT_CALL, K.ARG_LIST) and _is_class_arg(gp):
            return SymbolRef("class", tok.text.lstrip(":").lower(), tok.offset, tok.end)
    if k in (K.STRING, K.STRING_TEXT) and parent is not None:
        expr = parent if parent.kind in (K.LITERAL, K.DQ_STRING) else None
        if expr is not None and expr.parent is not None:
            ep = expr.parent
            is_class = False
            if ep.kind in (K.STATEMENT_CALL, K.ARG_LIST):
                is_class = _is_class_arg(ep)
            elif ep.kind == K.RESOURCE_BODY and ep.parent is not None:
                is_class = _is_class_resource(ep.parent)
            elif ep.kind == K.ACCESS_EXPR:
                tgt = A.AccessExpr(ep).target()
                is_class = isinstance(tgt, A.TypeRef) and tgt.name == "Class"
            if is_class:
                v = an.const_value(expr)
                if isinstance(v, str) and v:
                    r = expr.range
                    return SymbolRef("class", v.lstrip(":").lower(), r[0], r[1])
    return None


def _is_class_arg(node) -> bool:
    call = node if node.kind == K.STATEMENT_CALL else node.parent
    if call is None or call.kind not in (K.STATEMENT_CALL, K.CALL_EXPR):
        return False
    v = A.view(call)
    name = v.name if isinstance(v, (A.StatementCall, A.CallExpr)) else None
    return (name or "") in ("include", "contain", "require")


def _targets(an: Analysis, sym: SymbolRef) -> list:
    if sym.kind == "function":
        found = lookup.find(an, "function", sym.name)
        if lookup.builtin_function_target(sym.name) is None:
            return found
        # Puppet's own function wins over a same-named module function (a legacy stdlib
        # `size.rb`, say): its loaders ask the system loader first.  The built-in has no file
        # to go to (hover shows its documentation); only a function of this file shadows it.
        return [t for t in found if t.path is None]
    if sym.kind == "class":
        return lookup.find(an, "class", sym.name)
    if sym.kind == "define":
        return lookup.find(an, "define", sym.name)
    if sym.kind == "resource_type":
        out = lookup.find(an, "define", sym.name)
        t = lookup.resource_type_target(an, sym.name)
        if not out and t is not None and t.path:
            out = [t]
        return out
    if sym.kind == "type":
        low = sym.name.lower()
        out = lookup.find(an, "type_alias", sym.name)
        out += lookup.find(an, "define", low) + lookup.find(an, "class", low)
        t = lookup.resource_type_target(an, low)
        if t is not None and t.path and not out:
            out.append(t)
        return out
    return []


def definition(an: Analysis, offset: int) -> list:
    """Where the symbol at ``offset`` is defined."""
    task_file = bolt_ide.task_definition(an, offset)      # run_task('mod::task', …): its metadata
    if task_file is not None:
        return [Location(task_file, 0, 0)]
    sym = symbol_at(an, offset)
    if sym is None:
        return []
    if sym.kind == "variable":
        if sym.definition is not None:
            d = sym.definition
            return [Location(None, d.offset, d.end, True)]
        name = sym.name.lstrip(":")
        if "::" in name:
            cls, _, var = name.rpartition("::")
            for n in an.model.named:
                if n.kind == "class" and n.name.lstrip(":").lower() == cls.lower() and n.scope is not None:
                    defs = n.scope.variables.get(var)
                    if defs:
                        return [Location(None, defs[0].offset, defs[0].end, True)]
            return [Location(t.path, t.offset, t.end) for t in lookup.find(an, "class", cls) if t.path]
        # a top-scope variable of the site manifest, or a node-scope one
        return [Location(e.path, e.offset, e.end) for e in an.env.lookup("top_variable", name)]
    out = [Location(t.path, t.offset, t.end) for t in _targets(an, sym) if t.path != ""]
    if sym.kind == "type":
        out = _declared_resources(an, offset, sym.name) + out
    return out


def _declared_resources(an: Analysis, offset: int, type_name: str) -> list:
    """For a resource reference ``Type['title']``, the declarations of that resource in the
    file (``type { 'title': }``)."""
    tok = _token(an, offset)
    ref = tok.parent.parent if tok is not None and tok.parent is not None else None
    if ref is None or ref.kind != K.ACCESS_EXPR:
        return []
    titles = {an.const_value(k) for k in A.AccessExpr(ref).keys()}   # noqa: SIM118 - not a dict
    titles = {t for t in titles if isinstance(t, str)}
    if not titles:
        return []
    low = type_name.lower()
    out = []
    for site in an.model.resources:
        if site.type_name.lstrip(":").lower() != low:
            continue
        for body in A.ResourceExpr(site.node).bodies():
            title = an.const_value(body.title()) if body.title() is not None else None
            names = title if isinstance(title, list) else [title]
            if any(isinstance(n, str) and n in titles for n in names):
                r = body.title().range
                out.append(Location(None, r[0], r[1]))
    return out


def _same_file_uses(an: Analysis, sym: SymbolRef) -> list:
    kinds = {"function": ("function",), "class": ("class", "type"), "define": ("type",),
             "resource_type": ("type",), "type": ("type", "class")}[sym.kind]
    name = sym.name.lower()
    out = []
    for k, n, s, e in uses_of(an.model):
        if n == name and k in kinds:
            out.append(Location(None, s, e))
    return out


def _declarations(an: Analysis, sym: SymbolRef) -> list:
    out = []
    low = sym.name.lower()
    for n in an.model.named:
        if n.name.lstrip(":").lower() == low and n.kind in ("class", "define", "function", "type_alias"):
            out.append(Location(None, n.offset, n.end, True))
    return out


def references(an: Analysis, offset: int, include_declaration: bool = True, this_path: str = "") -> list:
    """Every use of the symbol at ``offset`` in this file and, for classes, defined types,
    functions and types, in the indexed workspace."""
    sym = symbol_at(an, offset)
    if sym is None:
        return []
    if sym.kind == "variable":
        d = sym.definition
        if d is None:
            name = sym.name
            return [Location(None, r.offset, r.end) for r in an.model.references
                    if r.name == name and r.target is None]
        out = [Location(None, d.offset, d.end, True)] if include_declaration else []
        # all definitions of the same variable in the scope (branches of an if) count too
        for other in d.scope.variables.get(d.name, []):
            if other is not d and include_declaration:
                out.append(Location(None, other.offset, other.end, True))
        for r in an.model.references:
            if r.target is not None and r.target.scope is d.scope and r.target.name == d.name:
                out.append(Location(None, r.offset, r.end))
        return sorted(out, key=lambda l: l.start)
    out = _same_file_uses(an, sym)
    if include_declaration:
        out += _declarations(an, sym)
        for t in _targets(an, sym):
            if t.path:
                out.append(Location(t.path, t.offset, t.end, True))
    index_uses = getattr(an.env, "uses", None)
    if index_uses is not None:
        kind = {"resource_type": "define", "type": "type_alias"}.get(sym.kind, sym.kind)
        seen = set()
        for kk in ((kind,) if sym.kind != "type" else ("type_alias", "class")):
            for path, s, e in index_uses(kk, sym.name):
                if path == this_path or (path, s) in seen:
                    continue
                seen.add((path, s))
                out.append(Location(path, s, e))
    # one location per place (a declaration can also be recorded as a use)
    unique: dict = {}
    for loc in out:
        key = (loc.path, loc.start)
        if key not in unique or loc.write:
            unique[key] = loc
    return list(unique.values())


def highlights(an: Analysis, offset: int) -> list:
    """Same-file occurrences of the symbol at ``offset`` (definitions marked as writes)."""
    sym = symbol_at(an, offset)
    if sym is None:
        return []
    if sym.kind == "variable":
        return references(an, offset, True)
    unique: dict = {}
    for loc in _same_file_uses(an, sym) + _declarations(an, sym):
        if loc.start not in unique or loc.write:
            unique[loc.start] = loc
    return sorted(unique.values(), key=lambda l: l.start)


def _is_class_resource(node) -> bool:
    """Is this RESOURCE_EXPR a resource-like class declaration ``class { 'name': }``?"""
    te = A.ResourceExpr(node).type_expr()
    return te is None or (isinstance(te, A.QName) and te.name == "class")
