"""Go to definition, find references and document highlights for variables, parameters (also
where they are set as attributes), classes, defined types, functions, resource types and type
aliases, and the exact places a name is spelled (``occurrences``, what rename rewrites).

``symbol_at`` says what the cursor is on; ``definition``/``references`` answer with
``Location``s whose ``path`` is None for the analysed file and a file path for places the
workspace index knows (the server turns those offsets into positions of that file).  Questions
that need another file's text (where in it a class's variable is assigned, where its parameters
are set) read it through ``sources``, a function from a path to that file's text (None when
unreadable) that the caller supplies: this module reads no file.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..check.analysis import Analysis
from ..check.scopes import Definition, FileModel
from ..syntax import ast as A
from ..syntax import kinds as K
from ..syntax.tree import SyntaxNode, SyntaxToken
from . import bolt as bolt_ide
from . import lookup
from .index import PUPPET_ROLES, parse_for_role, uses_of
from .tokens import token_at

Sources = Callable[[str], "str | None"]


@dataclass
class Location:
    path: str | None          # None: the analysed file
    start: int
    end: int
    write: bool = False       # a definition/assignment (for highlights)


@dataclass
class SymbolRef:
    """What the cursor is on."""

    kind: str                 # variable, attribute, function, class, define, type, resource_type
    name: str
    start: int
    end: int
    definition: Definition | None = None
    # a class's variable or a class's/defined type's parameter: ("class"|"define", its name)
    owner: tuple | None = None


_NAMING = frozenset({K.VARIABLE, K.STRING_VAR, K.NAME, K.CLASSREF, K.STRING, K.STRING_TEXT})


def _token(an: Analysis, offset: int) -> SyntaxToken | None:
    """The token at ``offset``; at the end of a name (``$x|`` before a '|'), that name."""
    root = an.result.root
    found = None
    for off in (offset, offset - 1):
        if off < 0:
            continue
        tok = token_at(root, off)
        if tok is not None and not tok.is_trivia and tok.kind != K.EOF:
            if tok.kind in _NAMING:
                return tok
            found = found or tok
    return found


def symbol_at(an: Analysis, offset: int) -> SymbolRef | None:
    tok = _token(an, offset)
    if tok is None:
        return None
    model = an.model
    k = tok.kind
    if k in (K.VARIABLE, K.STRING_VAR):
        d = model.definition_at(tok.offset)
        ref = None
        if d is None:
            ref = model.reference_at(tok.offset)
            d = ref.target if ref is not None else None
        name = _var_body(tok.text)
        owner = _owner_of(d) if d is not None else None
        if d is None and ref is not None and ref.status.startswith("inherited:"):
            # a variable of a parent class defined in another file
            owner = ("class", ref.status.partition(":")[2].lstrip(":").lower())
        if d is None and "::" in name.lstrip(":"):
            cls, _, _ = name.lstrip(":").rpartition("::")
            owner = ("class", cls.lower())
        return SymbolRef("variable", name, tok.offset, tok.end, d, owner)
    parent = tok.parent
    if parent is None:
        return None
    pk = parent.kind
    gp = parent.parent
    if k == K.CLASSREF:
        return SymbolRef("type", tok.text.lstrip(":"), tok.offset, tok.end)
    if k == K.NAME:
        query = _enclosing_query(parent) if pk == K.QNAME else None
        site = parent if pk == K.ATTRIBUTE_OP else query
        if site is not None:
            owner = _attribute_owner(an, site)
            if owner is None:
                return None
            return SymbolRef("attribute", tok.text, tok.offset, tok.end, owner=owner)
        if pk == K.STATEMENT_CALL or pk == K.METHOD_CALL or (pk == K.QNAME and gp is not None and gp.kind == K.CALL_EXPR
                                                            and A.CallExpr(gp).functor().syntax.offset == parent.offset):
            first = parent.first_token() if pk == K.STATEMENT_CALL else None
            if first is not None and first.offset != tok.offset:
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
        if pk == K.QNAME and gp is not None and _is_class_arg(gp):
            return SymbolRef("class", tok.text.lstrip(":").lower(), tok.offset, tok.end)
    if k in (K.STRING, K.STRING_TEXT) and parent is not None:
        expr = parent if parent.kind in (K.LITERAL, K.DQ_STRING) else None
        if expr is not None and expr.parent is not None:
            ep = expr.parent
            is_class = False
            if ep.kind in (K.STATEMENT_CALL, K.ARG_LIST, K.ARRAY):
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


def _enclosing_query(qname: SyntaxNode) -> SyntaxNode | None:
    """The COLLECT_QUERY whose comparison ``qname`` is the attribute of (``<| name == x |>``,
    also inside ``and``/``or`` and parentheses)."""
    node = qname.parent
    if node is None or node.kind != K.BINARY_EXPR or next(iter(node.children()), None) is None \
            or next(iter(node.children())).offset != qname.offset:
        return None
    while node is not None and node.kind in (K.BINARY_EXPR, K.PAREN_EXPR):
        node = node.parent
    return node if node is not None and node.kind == K.COLLECT_QUERY else None


def _var_body(text: str) -> str:
    """A variable token's name: '$x', 'x' (in '${x}'), '$::x' and '$cls::x' as written, less '$'."""
    return text.removeprefix("$")


def _owner_of(d: Definition) -> tuple | None:
    """The class or defined type whose variable ``d`` is, when code elsewhere can name it: any
    variable of a class (``$cls::x``), a parameter of a defined type (as an attribute)."""
    s = d.scope
    if s.kind == "class" and d.kind in ("parameter", "variable"):
        return ("class", s.name.lstrip(":").lower())
    if s.kind == "define" and d.kind == "parameter":
        return ("define", s.name.lstrip(":").lower())
    return None


def _attribute_owner(an: Analysis | None, node: SyntaxNode) -> tuple | None:
    """The class or defined type whose parameter an attribute of ``node`` sets (an ATTRIBUTE_OP,
    or a collector's query); None for resource types and unknown names."""
    resource = node.parent
    if node.kind == K.ATTRIBUTE_OP and resource is not None and resource.kind == K.RESOURCE_BODY:
        body, resource = resource, resource.parent
    else:
        body = None
    if resource is None:
        return None
    if node.kind == K.COLLECT_QUERY:
        resource = node.parent
        if resource is None:
            return None
    rk = resource.kind
    name = ""
    if rk == K.RESOURCE_EXPR:
        te = A.ResourceExpr(resource).type_expr()
        if te is None or (isinstance(te, A.QName) and te.name == "class"):
            title = A.ResourceBody(body).title() if body is not None else None
            v = _string_of(title)
            return ("class", v.lstrip(":").lower()) if v else None
        if isinstance(te, (A.QName, A.TypeRef)):
            name = te.name
    elif rk in (K.RESOURCE_DEFAULTS, K.COLLECT_EXPR):
        t = A.view(resource)
        te = t.type_ref() if isinstance(t, A.ResourceDefaults) else _first_typeref(resource)
        if isinstance(te, A.TypeRef):
            name = te.name
    elif rk == K.RESOURCE_OVERRIDE:
        tgt = A.ResourceOverride(resource).target()
        if isinstance(tgt, A.AccessExpr) and isinstance(tgt.target(), A.TypeRef):
            tname = tgt.target().name
            if tname.lstrip(":") == "Class":
                keys = tgt.keys()
                v = _string_of(keys[0]) if keys else None
                return ("class", v.lstrip(":").lower()) if v else None
            name = tname
    name = name.lstrip(":").lower()
    if not name or name == "class":
        return None
    if an is not None and not lookup.find(an, "define", name):
        return None
    return ("define", name)


def _first_typeref(node: SyntaxNode):
    for c in node.children():
        v = A.view(c)
        if isinstance(v, A.TypeRef):
            return v
    return None


def _string_of(node) -> str | None:
    """A name written as a literal: 'x', "x" (no interpolation) or a bare word."""
    if node is None:
        return None
    if isinstance(node, SyntaxNode):
        node = A.view(node)
    if isinstance(node, A.Literal):
        v = node.value()
        return v if isinstance(v, str) and v else None
    if isinstance(node, A.QName):
        return node.name or None
    if isinstance(node, A.DqString):
        parts = node.parts()
        if parts and all(isinstance(p, str) for p in parts):
            return "".join(parts) or None
    return None


def _is_class_arg(node) -> bool:
    if node.kind == K.ARRAY:
        node = node.parent
        if node is None:
            return False
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


# ---- other files --------------------------------------------------------------------------------

@dataclass
class _Files:
    """The other files a question reads, each parsed once per question (or once while its
    text is unchanged, with a ``cache`` dict the caller keeps between questions)."""

    an: Analysis
    sources: Sources | None
    this_path: str
    cache: dict | None = None
    models: dict = field(default_factory=dict)

    def model(self, path: str) -> FileModel | None:
        if path in self.models:
            return self.models[path]
        m = None
        text = self.sources(path) if self.sources is not None else None
        if text is not None:
            hit = self.cache.get(path) if self.cache is not None else None
            if hit is not None and hit[0] == text:
                m = hit[1]
            else:
                entry = getattr(self.an.env, "files", {}).get(path)
                m = FileModel(parse_for_role(text, entry.role if entry is not None else "manifest"))
                if self.cache is not None:
                    self.cache[path] = (text, m)
        self.models[path] = m
        return m

    def paths(self, *needles: str) -> list:
        """Puppet files of the index other than the analysed one whose text contains every
        one of ``needles`` (lower case; none: all files)."""
        if self.sources is None:
            return []
        out = []
        for path, entry in getattr(self.an.env, "files", {}).items():
            if path == self.this_path or entry.role not in PUPPET_ROLES:
                continue
            if needles:
                text = self.sources(path)
                if text is None:
                    continue
                low = self._lower(path, text)
                if not all(n in low for n in needles):
                    continue
            out.append(path)
        return out

    def _lower(self, path: str, text: str) -> str:
        if self.cache is None:
            return text.lower()
        hit = self.cache.get(("lower", path))
        if hit is not None and hit[0] == text:
            return hit[1]
        low = text.lower()
        self.cache[("lower", path)] = (text, low)
        return low


def _member_definition(files: _Files, owner: tuple, var: str) -> list:
    """Where the class or defined type ``owner`` defines ``var`` (parameter or assignment)."""
    kind, name = owner
    for n in files.an.model.named:
        if n.kind == kind and n.name.lstrip(":").lower() == name and n.scope is not None:
            defs = n.scope.variables.get(var)
            if defs:
                return [Location(None, defs[0].offset, defs[0].end, True)]
    for t in lookup.find(files.an, kind, name):
        if not t.path:
            continue
        m = files.model(t.path)
        if m is None:
            continue
        for n in m.named:
            if n.kind == kind and n.name.lstrip(":").lower() == name and n.scope is not None:
                defs = n.scope.variables.get(var)
                if defs:
                    return [Location(t.path, defs[0].offset, defs[0].end, True)]
    return []


def definition(an: Analysis, offset: int, sources: Sources | None = None, this_path: str = "") -> list:
    """Where the symbol at ``offset`` is defined."""
    task_file = bolt_ide.task_definition(an, offset)      # run_task('mod::task', …): its metadata
    if task_file is not None:
        return [Location(task_file, 0, 0)]
    sym = symbol_at(an, offset)
    if sym is None:
        return []
    files = _Files(an, sources, this_path)
    if sym.kind == "attribute":
        return _member_definition(files, sym.owner, sym.name) if sym.owner else []
    if sym.kind == "variable":
        if sym.definition is not None:
            d = sym.definition
            return [Location(None, d.offset, d.end, True)]
        name = sym.name.lstrip(":")
        if sym.owner is not None:
            found = _member_definition(files, sym.owner, _last(name))
            if found:
                return found
        if "::" in name:
            cls = name.rpartition("::")[0]
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


def references(an: Analysis, offset: int, include_declaration: bool = True, this_path: str = "",
               sources: Sources | None = None) -> list:
    """Every use of the symbol at ``offset`` in this file and, for classes, defined types,
    functions, types and the variables and parameters other files can name, in the indexed
    workspace."""
    sym = symbol_at(an, offset)
    if sym is None:
        return []
    if sym.kind in ("variable", "attribute") and sym.owner is not None:
        occ = member_occurrences(an, sym.owner, sym.name if sym.kind == "attribute" else _last(sym.name),
                                 sources, this_path)
        return _unique([Location(o.path, o.start, o.end, o.write) for o in occ
                        if include_declaration or not o.write])
    if sym.kind == "attribute":
        return []
    if sym.kind == "variable":
        d = sym.definition
        if d is None:
            name = sym.name
            return [Location(None, r.offset, r.end) for r in an.model.references
                    if r.name == name and r.target is None]
        return [Location(None, o.start, o.end, o.write) for o in _local_occurrences(an.model, d)
                if include_declaration or not o.write]
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
    return _unique(out)


def _unique(out: list) -> list:
    """One location per place (a declaration can also be recorded as a use)."""
    unique: dict = {}
    for loc in out:
        key = (loc.path, loc.start)
        if key not in unique or loc.write:
            unique[key] = loc
    return list(unique.values())


def _last(name: str) -> str:
    return name.rpartition("::")[2]


def highlights(an: Analysis, offset: int) -> list:
    """Same-file occurrences of the symbol at ``offset`` (definitions marked as writes)."""
    sym = symbol_at(an, offset)
    if sym is None:
        return []
    if sym.kind in ("variable", "attribute"):
        return sorted((loc for loc in references(an, offset, True) if loc.path is None), key=lambda l: l.start)
    unique: dict = {}
    for loc in _same_file_uses(an, sym) + _declarations(an, sym):
        if loc.start not in unique or loc.write:
            unique[loc.start] = loc
    return sorted(unique.values(), key=lambda l: l.start)


def _is_class_resource(node) -> bool:
    """Is this RESOURCE_EXPR a resource-like class declaration ``class { 'name': }``?"""
    te = A.ResourceExpr(node).type_expr()
    return te is None or (isinstance(te, A.QName) and te.name == "class")


# ---- occurrences: every place a name is spelled ------------------------------------------------

@dataclass(frozen=True)
class Occurrence:
    """One place that spells a name: ``start``/``end`` is what an editor highlights (the whole
    token), ``name_start``/``name_end`` exactly the characters of the name (no '$', no leading
    '::', no quotes, for ``$cls::x`` only the part meant).  ``style`` says how a new name is
    written there: 'lower' as given, 'capitalized' (``Foo::Bar``) for type references."""

    path: str | None
    start: int
    end: int
    name_start: int
    name_end: int
    write: bool = False
    style: str = "lower"


def _var_spans(tok: SyntaxToken) -> tuple:
    """(start of the class part, end of the class part, start of the variable part) of a
    variable token, all absolute; the class part is empty for an unqualified name."""
    text = tok.text
    i = 1 if text.startswith("$") else 0
    if text.startswith("::", i):
        i += 2
    last = text.rfind("::")
    if last < i:
        return tok.offset + i, tok.offset + i, tok.offset + i
    return tok.offset + i, tok.offset + last, tok.offset + last + 2


def _var_occurrence(path: str | None, tok: SyntaxToken, write: bool = False) -> Occurrence:
    _, _, vs = _var_spans(tok)
    return Occurrence(path, tok.offset, tok.end, vs, tok.end, write)


def _variable_token(node: SyntaxNode | None, offset: int) -> SyntaxToken | None:
    """The VARIABLE or STRING_VAR token at ``offset`` below ``node``."""
    if node is None:
        return None
    tok = token_at(node, offset)
    return tok if tok is not None and tok.kind in (K.VARIABLE, K.STRING_VAR) else None


# Past this many lookups, the variable tokens of the file are found in one walk: each
# token_at descends from the root, and a file of many statements (one long line of them) made
# a highlight quadratic.
_TOKEN_WALK_AFTER = 32


def _variable_finder(root: SyntaxNode, lookups: int) -> Callable[[int], SyntaxToken | None]:
    """Finds the VARIABLE or STRING_VAR token at an offset of the file: by descending from the
    root for a few lookups, from a table made in one walk for many."""
    if lookups <= _TOKEN_WALK_AFTER:
        return lambda offset: _variable_token(root, offset)
    tokens = {t.offset: t for t in root.descendants_with_tokens()
              if isinstance(t, SyntaxToken) and t.kind in (K.VARIABLE, K.STRING_VAR)}
    return tokens.get


def _local_occurrences(model: FileModel, d: Definition, path: str | None = None) -> list:
    """Definitions of ``d``'s variable in its scope (every branch's assignment) and the
    references that resolve to them."""
    defs = d.scope.variables.get(d.name, [])
    ids = {id(x) for x in defs}
    refs = [r for r in model.references if r.target is not None and id(r.target) in ids]
    find = _variable_finder(model.result.root, len(defs) + len(refs))
    out = []
    for other in defs:
        tok = find(other.offset)
        if tok is not None:
            out.append(_var_occurrence(path, tok, True))
    for r in refs:
        tok = find(r.offset)
        if tok is not None:
            out.append(_var_occurrence(path, tok))
    return sorted(out, key=lambda o: o.start)


def member_occurrences(an: Analysis, owner: tuple, var: str, sources: Sources | None = None,
                       this_path: str = "", files: _Files | None = None) -> list:
    """Every place that names the variable ``var`` of a class (or the parameter of a defined
    type) ``owner``: its definitions and uses inside, ``$cls::var`` anywhere, uses in classes
    that inherit it, and attributes ``var => …`` of declarations, defaults, overrides and
    collectors of that class or defined type."""
    files = files or _Files(an, sources, this_path)
    out = _member_in_file(an.model, None, owner, var, an)
    # another file names it only with the owner's name: `$cls::x`, `cls { … x => }`,
    # `Cls[…] { x => }`, `inherits cls`
    for path in files.paths(var.lower(), owner[1]):
        m = files.model(path)
        if m is not None:
            out += _member_in_file(m, path, owner, var, None)
    return out


def _member_in_file(model: FileModel, path: str | None, owner: tuple, var: str, an: Analysis | None) -> list:
    kind, oname = owner
    out: list = []
    seen: set = set()

    def add(o: Occurrence) -> None:
        if o.name_start not in seen:
            seen.add(o.name_start)
            out.append(o)

    for n in model.named:
        if n.kind == kind and n.name.lstrip(":").lower() == oname and n.scope is not None:
            defs = n.scope.variables.get(var)
            if defs:
                for o in _local_occurrences(model, defs[0], path):
                    add(o)
    found = []
    for r in model.references:
        if r.target is not None:
            continue
        name = r.name.lstrip(":")
        qualified = kind == "class" and "::" in name and name.rpartition("::")[0].lower() == oname \
            and name.rpartition("::")[2] == var
        inherited = (kind == "class" and r.name == var and r.status == "inherited:" + oname)
        if qualified or inherited:
            found.append(r.offset)
    find = _variable_finder(model.result.root, len(found))
    for offset in found:
        tok = find(offset)
        if tok is not None:
            add(_var_occurrence(path, tok))
    for node in _attribute_sites(model):
        ops = [A.AttributeOp(c) for c in node.children() if c.kind == K.ATTRIBUTE_OP]
        query_names = _query_names(node) if node.kind == K.COLLECT_EXPR else []
        for op in ops:
            if op.name == var and op.name_token is not None and _attribute_owner(None, op.syntax) == owner:
                t = op.name_token
                add(Occurrence(path, t.offset, t.end, t.offset, t.end))
        for q, t in query_names:
            if t.text == var and _attribute_owner(None, q) == owner:
                add(Occurrence(path, t.offset, t.end, t.offset, t.end))
    return out


def _attribute_sites(model: FileModel) -> list:
    """RESOURCE_BODY, RESOURCE_DEFAULTS, RESOURCE_OVERRIDE and COLLECT_EXPR nodes of a file
    (where attributes are set or queried)."""
    out = []
    stack = [model.result.root]
    while stack:
        node = stack.pop()
        k = node.kind
        if k in (K.RESOURCE_BODY, K.RESOURCE_DEFAULTS, K.RESOURCE_OVERRIDE, K.COLLECT_EXPR):
            out.append(node)
        stack.extend(reversed(list(node.children())))
    return out


def _query_names(collect: SyntaxNode) -> list:
    """(COLLECT_QUERY node, attribute NAME token) of a collector's query."""
    q = collect.child(K.COLLECT_QUERY)
    if q is None:
        return []
    out = []
    stack = [q]
    while stack:
        node = stack.pop()
        for c in node.children():
            if c.kind in (K.BINARY_EXPR, K.PAREN_EXPR):
                stack.append(c)
            elif c.kind == K.QNAME and _enclosing_query(c) is q:
                t = c.first_token()
                if t is not None and t.kind == K.NAME:
                    out.append((q, t))
    return out


# ---- type definition ----------------------------------------------------------------------------

def type_definition(an: Analysis, offset: int, sources: Sources | None = None, this_path: str = "") -> list:
    """For a parameter with a declared type (at its declaration, a use, a ``$class::param`` or
    an attribute naming it), where the type aliases its type names are defined: ``Stdlib::Port
    $p`` goes to ``type Stdlib::Port = …``; a type built into Puppet has no place to go."""
    sym = symbol_at(an, offset)
    if sym is None or sym.kind not in ("variable", "attribute"):
        return []
    model, d = an.model, sym.definition if sym.kind == "variable" else None
    if d is None and sym.owner is not None:
        files = _Files(an, sources, this_path)
        found = _member_definition(files, sym.owner, sym.name if sym.kind == "attribute" else _last(sym.name))
        if not found:
            return []
        other = files.model(found[0].path) if found[0].path is not None else model
        if other is None:
            return []
        model = other
        d = model.definition_at(found[0].start)
    if d is None or d.node.kind != K.PARAM:
        return []
    te = A.Param(d.node).type_expr()
    if te is None:
        return []
    names = [A.TypeRef(n).name for n in [te.syntax, *te.syntax.descendants()] if isinstance(A.view(n), A.TypeRef)]
    out = []
    for name in dict.fromkeys(names):
        for t in lookup.find(an, "type_alias", name):
            if t.path != "":
                out.append(Location(t.path, t.offset, t.end))
    return _unique(out)
