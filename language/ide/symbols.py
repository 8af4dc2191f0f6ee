"""The outline of a file: classes, defined types, nodes, functions, plans, type aliases,
resources and variables, nested as they are in the source, with ranges.

Works on broken files too: whatever the parser recovered is listed.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..syntax import ast as A
from ..syntax import kinds as K
from ..syntax.parser import ParseResult
from ..syntax.tree import SyntaxNode


@dataclass(slots=True)
class Symbol:
    name: str
    kind: str                  # class, define, node, function, plan, type_alias, resource, variable
    range: tuple               # (start, end) offsets of the whole construct
    selection_range: tuple     # (start, end) of its name
    detail: str = ""
    children: list = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "range": list(self.range),
                "selection_range": list(self.selection_range), "detail": self.detail,
                "children": [c.to_dict() for c in self.children]}


def document_symbols(result: ParseResult) -> list[Symbol]:
    out: list[Symbol] = []
    _collect(result.root, out, set())
    return out


def flatten(symbols: list[Symbol]) -> list[Symbol]:
    res: list[Symbol] = []
    for s in symbols:
        res.append(s)
        res.extend(flatten(s.children))
    return res


def _name_range(tok, node: SyntaxNode) -> tuple:
    return (tok.offset, tok.end) if tok is not None else node.range


_DEFINITIONS = {K.CLASS_DEF: ("class", A.ClassDef), K.DEFINE_DEF: ("define", A.DefineDef),
                K.FUNCTION_DEF: ("function", A.FunctionDef), K.PLAN_DEF: ("plan", A.PlanDef)}


def _collect(node: SyntaxNode, out: list, seen_vars: set) -> None:
    for c in node.children():
        k = c.kind
        sym = None
        if k in _DEFINITIONS:
            kind, view = _DEFINITIONS[k]
            d = view(c)
            params = ", ".join("$" + p.name for p in d.params())
            sym = Symbol(d.qualified_name or "<anonymous>", kind, c.range, _name_range(d.name_token, c),
                         f"({params})" if params else "")
            for p in d.params():
                if p.name_token is not None:
                    sym.children.append(Symbol("$" + p.name, "parameter", p.range, (p.name_token.offset, p.name_token.end)))
            _collect(c, sym.children, set())
        elif k == K.NODE_DEF:
            n = A.NodeDef(c)
            names = []
            for h in n.matches():
                v = h.value()
                names.append(v if isinstance(v, str) else ("default" if v is A.DEFAULT else h.syntax.trimmed_text()))
            first = c.first_token()
            sym = Symbol(", ".join(names), "node", c.range,
                         n.matches()[0].range if n.matches() else _name_range(first, c))
            _collect(c, sym.children, set())
        elif k in (K.TYPE_ALIAS, K.TYPE_DEFINITION):
            t = A.TypeAlias(c) if k == K.TYPE_ALIAS else A.TypeDefinition(c)
            first = c.first_token()
            name_node = t.name_expr() if isinstance(t, A.TypeAlias) else None
            sym = Symbol(t.name or "<anonymous>", "type_alias", c.range,
                         name_node.range if name_node is not None else _name_range(first, c))
        elif k == K.RESOURCE_EXPR:
            r = A.ResourceExpr(c)
            te = r.type_expr()
            tname = te.syntax.trimmed_text() if te is not None else "?"
            for b in r.bodies():
                title = b.title()
                tt = title.syntax.trimmed_text() if title is not None else "?"
                bs = Symbol(f"{tname}[{tt}]", "resource", b.range, title.range if title is not None else b.range)
                out.append(bs)
                _collect(b.syntax, bs.children, seen_vars)
            continue
        elif k == K.ASSIGNMENT:
            a = A.Assignment(c)
            left = a.left()
            targets = [left] if isinstance(left, A.VariableExpr) else (
                [e for e in left.elements() if isinstance(e, A.VariableExpr)] if isinstance(left, A.Array) else [])
            for v in targets:
                if v.name not in seen_vars:
                    seen_vars.add(v.name)
                    out.append(Symbol("$" + v.name, "variable", c.range, v.range))
            _collect(c, out, seen_vars)
            continue
        if sym is not None:
            out.append(sym)
            continue
        if k == K.HEREDOC_BODY:
            continue
        _collect(c, out, seen_vars)


def workspace_symbols(index, query: str, limit: int = 200) -> list:
    """Classes, defined types, functions, type aliases and resource types of the workspace
    index whose names contain ``query`` (case-insensitively), best matches first: the
    ``Entity`` objects, which carry the path and name range."""
    q = query.lower().lstrip(":")
    found = []
    for kind in ("class", "define", "function", "type_alias", "resource_type", "plan"):
        for e in index.entities(kind):
            if not e.path:
                continue
            name = e.name.lower()
            if q in name:
                rank = 0 if name == q else (1 if name.startswith(q) or name.endswith("::" + q) else 2)
                found.append((rank, len(name), e.name, e))
    found.sort(key=lambda x: x[:3])
    return [f[3] for f in found[:limit]]
