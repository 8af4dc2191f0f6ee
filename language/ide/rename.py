"""Rename: what may be renamed at a position (``prepare_rename``) and the text edits, across
the workspace, that rename it (``rename``), changing nothing but the characters of the name.

Renamed are local variables, the variables and parameters of classes (with ``$cls::x`` anywhere,
uses in classes that inherit it, and attributes ``x => …`` of its declarations), the parameters
of defined types (with their attributes), classes, defined types, Puppet-language functions and
type aliases.  A rename is refused, with the reason, when it cannot be done safely: built-in
names and facts, names defined in Ruby or nowhere in the workspace, names that code spells in a
string rename does not rewrite (``defined('x')``, ``getvar('x::y')``), variables an ERB template
rendered by their scope may read, and new names that are not valid Puppet names or that collide
with a name already in use.  Files are never moved.  Other files' texts come from ``sources``, as
in ``navigation``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..check.analysis import Analysis
from ..check.builtins import BUILTIN_VARIABLES, is_core_fact
from ..check.scopes import FileModel
from ..knowledge.resource_types import metaparameters, resource_type
from ..messages import render
from ..syntax import ast as A
from ..syntax import kinds as K
from ..syntax.lines import LineIndex
from ..syntax.tree import SyntaxNode, SyntaxToken
from ..types.build import BUILTIN_RESOURCE_TYPES
from ..types.type_docs import describe
from . import lookup
from .navigation import (Occurrence, Sources, SymbolRef, _Files, _local_occurrences, _string_of,
                         _member_definition, _var_spans, _variable_finder, _variable_token, member_occurrences,
                         symbol_at)


@dataclass(frozen=True)
class Renameable:
    """What prepareRename answers: the range of the name at the cursor and its text."""

    kind: str                  # variable, parameter, class, define, function, type_alias
    name: str                  # the full name ('apache::vhost', 'port', 'Stdlib::Port')
    start: int
    end: int
    placeholder: str


@dataclass(frozen=True)
class Refusal:
    """Why nothing is renamed (shown to the user)."""

    message: str


@dataclass(frozen=True)
class Edit:
    path: str | None           # None: the analysed file
    start: int
    end: int
    new_text: str


_LOWER_NAME = re.compile(r"\A[a-z][a-z0-9_]*(::[a-z][a-z0-9_]*)*\Z")
_ALIAS_NAME = re.compile(r"\A[A-Z][A-Za-z0-9_]*(::[A-Z][A-Za-z0-9_]*)*\Z")
_VARIABLE = re.compile(r"\A[a-z_][A-Za-z0-9_]*\Z")
_PARAMETER = re.compile(r"\A[a-z][a-z0-9_]*\Z")
# Words a class, defined type or function may not be called (Puppet's keywords and the names
# it gives its own scopes).
# Variables Puppet does not let code assign or declare as parameters.
_RESERVED_VARIABLES = frozenset({"trusted", "facts", "server_facts", "title", "name"})
_RESERVED = frozenset(K.KEYWORDS) | frozenset(K.TASK_KEYWORDS) | {"main", "settings", "environment", "init"}


@dataclass
class _Plan:
    kind: str
    name: str
    occurrences: list
    here: Occurrence           # the occurrence at the cursor
    owner: tuple | None = None
    files: _Files | None = None


def prepare_rename(an: Analysis, offset: int, sources: Sources | None = None,
                   this_path: str = "", cache: dict | None = None) -> Renameable | Refusal:
    """Whether the symbol at ``offset`` can be renamed, and the range of its name there.
    ``cache``: a dict the caller may keep between calls, so that a file is parsed once while
    its text is unchanged."""
    plan = _plan(an, offset, sources, this_path, cache)
    if isinstance(plan, Refusal):
        return plan
    h = plan.here
    return Renameable(plan.kind, plan.name, h.name_start, h.name_end, an.result.text[h.name_start:h.name_end])


def rename(an: Analysis, offset: int, new_name: str, sources: Sources | None = None,
           this_path: str = "", cache: dict | None = None) -> list | Refusal:
    """The edits (``Edit``, grouped by file in source order) that rename the symbol at
    ``offset`` to ``new_name``, or why it cannot be done."""
    plan = _plan(an, offset, sources, this_path, cache)
    if isinstance(plan, Refusal):
        return plan
    new_name = new_name.strip()
    if plan.kind in ("variable", "parameter"):
        new_name = new_name.removeprefix("$")
    if plan.kind in ("class", "define", "function"):
        new_name = new_name.removeprefix("::")
        if _ALIAS_NAME.match(new_name):
            new_name = new_name.lower()     # typed over a reference written `Web::Vhost`
    bad = _check_new_name(an, plan, new_name, plan.files)
    if bad is not None:
        return bad
    edits = []
    for o in plan.occurrences:
        text = _styled(new_name, o.style)
        edits.append(Edit(o.path, o.name_start, o.name_end, text))
    edits.sort(key=lambda e: (e.path or "", e.start))
    return edits


def _styled(name: str, style: str) -> str:
    if style == "capitalized":
        return "::".join(s[:1].upper() + s[1:] for s in name.split("::"))
    return name


# ---- what is renamed, and where ----------------------------------------------------------------

def _plan(an: Analysis, offset: int, sources: Sources | None, this_path: str,
          cache: dict | None = None) -> _Plan | Refusal:
    sym = symbol_at(an, offset)
    if sym is None:
        return Refusal(render("RENAME_NOTHING_HERE"))
    files = _Files(an, sources, this_path, cache)
    if sym.kind in ("variable", "attribute"):
        return _variable_plan(an, sym, files, offset)
    kind, name = _named_kind(an, sym)
    if kind == "":
        return Refusal(name)
    occ = _name_occurrences(an.model, None, kind, name)
    # every occurrence spells the whole name (`Cls::Name` too, once lower-cased)
    for path in files.paths(name.lower()):
        m = files.model(path)
        if m is not None:
            occ += _name_occurrences(m, path, kind, name)
    occ = list({(o.path, o.name_start): o for o in occ}.values())
    bad = [o for o in occ if o.style == "nested"]
    if bad:
        return Refusal(render("RENAME_NESTED_DEFINITION", name=name, where=_where(files, bad[0])))
    if not any(o.write for o in occ):
        return Refusal(render("RENAME_NOT_IN_WORKSPACE", name=name))
    strings = _strings_naming(an, files, name, occ, kind)
    if strings is not None:
        return Refusal(render("RENAME_NAMED_IN_STRING", name=name, where=strings))
    here = _here(occ, offset)
    if here is None:
        return Refusal(render("RENAME_NOTHING_HERE"))
    return _Plan(kind, name, occ, here, None, files)


def _here(occ: list, offset: int) -> Occurrence | None:
    for o in occ:
        if o.path is None and o.start <= offset <= o.end:
            return o
    return None


def _named_kind(an: Analysis, sym: SymbolRef) -> tuple:
    """(kind, name) of the class, defined type, function or type alias at the cursor, or
    ('', reason) when it is none of those or is not Puppet code of the workspace."""
    k, name = sym.kind, sym.name.lstrip(":")
    if k == "function":
        if lookup.builtin_function_target(name) is not None and not any(
                t.path is None for t in lookup.find(an, "function", name)):
            return "", render("RENAME_BUILTIN", name=name)
        found = lookup.find(an, "function", name)
        if found and all(t.extra.get("api", "puppet") != "puppet" for t in found):
            return "", render("RENAME_DEFINED_IN_RUBY", name=name)
        return "function", name.lower()
    if k == "class":
        return "class", name.lower()
    if k in ("define", "resource_type"):
        if k == "resource_type" and not lookup.find(an, "define", name):
            if resource_type(name.lower()) is not None or name.lower() in BUILTIN_RESOURCE_TYPES:
                return "", render("RENAME_BUILTIN", name=name)
            if an.env.lookup("resource_type", name.lower()):
                return "", render("RENAME_DEFINED_IN_RUBY", name=name)
        return "define", name.lower()
    if k == "type":
        if lookup.find(an, "type_alias", name):
            return "type_alias", name
        if name.lower() != "class" and lookup.find(an, "define", name.lower()):
            return "define", name.lower()
        if describe(name) is not None or resource_type(name.lower()) is not None \
                or name.lower() in BUILTIN_RESOURCE_TYPES:
            return "", render("RENAME_BUILTIN", name=name)
        if an.env.lookup("resource_type", name.lower()):
            return "", render("RENAME_DEFINED_IN_RUBY", name=name)
        return "type_alias", name
    return "", render("RENAME_NOTHING_HERE")


def _variable_plan(an: Analysis, sym: SymbolRef, files: _Files, offset: int) -> _Plan | Refusal:
    name = sym.name.lstrip(":")
    var = name.rpartition("::")[2] if sym.kind == "variable" else name
    if sym.kind == "variable" and sym.definition is None and sym.owner is None:
        if var in BUILTIN_VARIABLES or name.startswith("facts") or name == "trusted":
            return Refusal(render("RENAME_BUILTIN", name="$" + name))
        if is_core_fact(var) or an.env.has_fact(var) or an.env.has_top_variable(var) or sym.name.startswith("::"):
            return Refusal(render("RENAME_FACT_OR_TOP", name="$" + name))
        return Refusal(render("RENAME_NOT_IN_WORKSPACE", name="$" + name))
    if sym.kind == "attribute" and var in metaparameters():
        return Refusal(render("RENAME_BUILTIN", name=var))
    if sym.owner is not None:
        if not _member_definition(files, sym.owner, var):
            return Refusal(render("RENAME_NOT_IN_WORKSPACE", name="$" + name))
        occ = member_occurrences(an, sym.owner, var, files.sources, files.this_path, files)
        kind = "parameter" if _is_parameter(an, files, sym.owner, var) else "variable"
        scope_node = _owner_scope(an, files, sym.owner)
    else:
        d = sym.definition
        assert d is not None
        occ = _local_occurrences(an.model, d)
        kind = "parameter" if d.kind in ("parameter", "lambda_parameter", "template_parameter") else "variable"
        scope_node = (None, d.scope.definition_scope)
    erb = _erb_occurrences(scope_node, var, files)
    if erb is None:
        return Refusal(render("RENAME_ERB_SCOPE", name="$" + var))
    # a template rendered twice is found twice: one edit per place
    occ = list({(o.path, o.name_start): o for o in occ + erb}.values())
    if sym.owner is not None and sym.owner[0] == "class":
        qualified = f"{sym.owner[1]}::{var}"
        strings = _strings_naming(an, files, qualified, occ, "variable")
        if strings is not None:
            return Refusal(render("RENAME_NAMED_IN_STRING", name="$" + qualified, where=strings))
    here = _here(occ, offset)
    if here is None:
        return Refusal(render("RENAME_NOTHING_HERE"))
    return _Plan(kind, var, occ, here, sym.owner, files)


def _is_parameter(an: Analysis, files: _Files, owner: tuple, var: str) -> bool:
    for t in lookup.find(an, owner[0], owner[1]):
        return var in t.params
    return False


def _owner_scope(an: Analysis, files: _Files, owner: tuple) -> tuple:
    """(path, Scope) of the class or defined type ``owner``."""
    for n in an.model.named:
        if n.kind == owner[0] and n.name.lstrip(":").lower() == owner[1]:
            return (None, n.scope)
    for t in lookup.find(an, owner[0], owner[1]):
        m = files.model(t.path) if t.path else None
        for n in (m.named if m is not None else []):
            if n.kind == owner[0] and n.name.lstrip(":").lower() == owner[1]:
                return (t.path, n.scope)
    return (None, None)


def _erb_occurrences(scope_node: tuple, var: str, files: _Files) -> list | None:
    """The ``@var`` of the ERB templates the scope renders (``template('m/x.erb')``,
    ``inline_template('…')``): ERB sees every variable of the scope that renders it.  None
    when rename cannot be sure to rewrite them all: a template whose name is computed or that
    cannot be read, one that reads the name otherwise than as ``@var`` (``scope['var']``), or
    a template file that other code renders as well."""
    scope_path, scope = scope_node
    if scope is None:
        return []
    word = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(var) + r"(?![A-Za-z0-9_])")
    out: list = []
    stack = [scope.node]
    while stack:
        node = stack.pop()
        stack.extend(node.children())
        if node.kind not in (K.CALL_EXPR, K.STATEMENT_CALL):
            continue
        v = A.view(node)
        if not isinstance(v, (A.CallExpr, A.StatementCall)):
            continue
        fn = (v.name or "").lstrip(":")
        if fn not in ("template", "inline_template"):
            continue
        for arg in v.args():
            text = _string_of(arg)
            if text is None:
                return None
            if fn == "inline_template":
                tok = arg.syntax.first_token() if isinstance(arg, A.Literal) else None
                if tok is None or tok.kind != K.STRING:
                    return None if word.search(text) else out
                found = _at_names(tok.text, word, var)
                if found is None:
                    return None
                out += [Occurrence(scope_path, tok.offset + i, tok.offset + j, tok.offset + i + 1, tok.offset + j,
                                   False, "erb") for i, j in found]
                continue
            path = _template_path(files, text)
            body = files.sources(path) if path is not None and files.sources is not None else None
            if path is None or body is None:
                return None
            found = _at_names(body, word, var)
            if found is None:
                return None
            if found and _rendered_elsewhere(files, text, scope):
                return None
            out += [Occurrence(path, i, j, i + 1, j, False, "erb") for i, j in found]
    return out


_ERB_TAG = re.compile(r"<%(?!%).*?%>", re.DOTALL)


def _at_names(text: str, word, var: str) -> list | None:
    """(start, end) of every ``@var`` inside the Ruby of an ERB text (``<% … %>``: text
    outside the tags is output, not code); None when the Ruby also names it otherwise
    (``scope['var']``, a local ``var``)."""
    out = []
    for tag in _ERB_TAG.finditer(text):
        for m in word.finditer(text, tag.start(), tag.end()):
            if text[m.start() - 1] != "@":
                return None
            out.append((m.start() - 1, m.end()))
    return out


def _rendered_elsewhere(files: _Files, name: str, scope) -> bool:
    """Does a scope other than ``scope`` render the template ``name``?"""
    models = [files.an.model] + [m for m in (files.model(p) for p in files.paths(name.lower())) if m is not None]
    for m in models:
        for c in m.calls:
            if c.name.lstrip(":") != "template":
                continue
            v = A.view(c.node)
            args = v.args() if isinstance(v, (A.CallExpr, A.StatementCall)) else []
            if any(_string_of(a) == name for a in args) and c.scope.definition_scope is not scope:
                return True
    return False


def _template_path(files: _Files, name: str) -> str | None:
    """The file of the template ``module/file.erb`` (in the module's ``templates/``)."""
    module, _, rest = name.partition("/")
    root = getattr(files.an.env, "module_roots", {}).get(module)
    if not root or not rest:
        return None
    return root.rstrip("/") + "/templates/" + rest


def _name_occurrences(model: FileModel, path: str | None, kind: str, name: str) -> list:
    """Where a class, defined type, function or type alias ``name`` is spelled in a file."""
    low = name.lower()
    out: list = []
    for n in model.named:
        nk = "type_alias" if n.kind == "type_alias" else n.kind
        if nk != kind or n.name.lstrip(":").lower() != low:
            continue
        tok = _name_token(n)
        if tok is None:
            continue
        written = tok.text.lstrip(":")
        skip = len(tok.text) - len(written)
        style = "nested" if written.lower() != low else ("alias" if kind == "type_alias" else "lower")
        out.append(Occurrence(path, tok.offset, tok.end, tok.offset + skip, tok.end, True, style))
    if kind == "class":
        out += _class_uses(model, path, low)
    elif kind == "define":
        for r in model.resources:
            written = r.type_name.lstrip(":")
            if written.lower() == low and written[:1].islower():
                out.append(Occurrence(path, r.offset, r.end, r.end - len(written), r.end))
        out += _type_ref_uses(model, path, low, "capitalized")
    elif kind == "function":
        for c in model.calls:
            if c.name.lstrip(":").lower() == low:
                written = c.name.lstrip(":")
                out.append(Occurrence(path, c.offset, c.end, c.end - len(written), c.end))
    elif kind == "type_alias":
        out += _type_ref_uses(model, path, low, "alias")
    return out


def _name_token(n):
    d = A.view(n.node)
    if isinstance(d, A.Definition):
        return d.name_token
    if isinstance(d, A.TypeAlias):
        ne = d.name_expr()
        return ne.syntax.first_token() if ne is not None else None
    return None


def _type_ref_uses(model: FileModel, path: str | None, low: str, style: str) -> list:
    out = []
    declared = {tok.offset for n in model.named if n.kind == "type_alias" for tok in [_name_token(n)] if tok is not None}
    for t in model.type_refs:
        if t.name.lstrip(":").lower() == low and t.offset not in declared:
            written = t.name.lstrip(":")
            out.append(Occurrence(path, t.offset, t.end, t.end - len(written), t.end, False, style))
    return out


def _class_uses(model: FileModel, path: str | None, low: str) -> list:
    out = []

    def name_in(node) -> None:
        if node is None:
            return
        v = A.view(node) if isinstance(node, SyntaxNode) else node
        if isinstance(v, A.Array):
            for e in v.elements():
                name_in(e)
            return
        inner_start, inner = -1, ""
        if isinstance(v, A.Literal) and v.token_kind == K.STRING:
            lt = v.token
            if lt is not None:
                inner_start, inner = lt.offset + 1, lt.text[1:-1]
        elif isinstance(v, A.QName):
            qt = v.syntax.first_token()
            if qt is not None:
                inner_start, inner = qt.offset, qt.text
        elif isinstance(v, A.DqString):
            parts = [c for c in v.syntax.children_with_tokens() if c.kind not in (K.DQ_OPEN, K.DQ_CLOSE)]
            if len(parts) == 1 and isinstance(parts[0], SyntaxToken) and parts[0].kind == K.STRING_TEXT:
                inner_start, inner = parts[0].offset, parts[0].text
        if inner_start < 0:
            return
        written = inner.lstrip(":")
        if written.lower() == low and "\\" not in written:
            s = inner_start + len(inner) - len(written)
            r = v.syntax.range
            # `Class['Apt::Update']` keeps its capitals
            style = "capitalized" if written != low and written == _styled(low, "capitalized") else "lower"
            out.append(Occurrence(path, r[0], r[1], s, s + len(written), False, style))

    for c in model.calls:
        if c.name in ("include", "contain", "require") and c.form in ("call", "statement"):
            v = A.CallExpr(c.node) if c.form == "call" else A.StatementCall(c.node)
            for a in v.args():
                name_in(a)
    for r in model.resources:
        if r.type_name == "class":
            for body in A.ResourceExpr(r.node).bodies():
                name_in(body.title())
    for t in model.type_refs:
        parent = t.node.parent
        if t.name == "Class" and parent is not None and parent.kind == K.ACCESS_EXPR:
            for k in A.AccessExpr(parent).keys():   # noqa: SIM118 - the AST's index expressions, not a dict
                name_in(k)
    for n in model.named:
        p = n.node.child(K.PARENT) if n.kind == "class" else None
        tok = p.last_token() if p is not None else None
        if tok is not None and tok.kind == K.NAME and tok.text.lstrip(":").lower() == low:
            written = tok.text.lstrip(":")
            out.append(Occurrence(path, tok.offset, tok.end, tok.end - len(written), tok.end))
    # $cls::var names the class too
    naming = [ref.offset for ref in model.references
              if "::" in ref.name.lstrip(":") and ref.name.lstrip(":").rpartition("::")[0].lower() == low]
    find = _variable_finder(model.result.root, len(naming))
    for offset in naming:
        tok = find(offset)
        if tok is not None:
            cs, ce, _ = _var_spans(tok)
            out.append(Occurrence(path, tok.offset, tok.end, cs, ce))
    return out


def _strings_naming(an: Analysis, files: _Files, name: str, occ: list, kind: str) -> str | None:
    """Where (``file:line``) a string that rename will not rewrite spells ``name`` whole, or
    None."""
    covered = {(o.path, o.name_start) for o in occ}
    low = name.lower()
    models = [(None, an.model)] + [(p, m) for p, m in files.models.items() if m is not None]
    for path, m in models:
        if low not in m.text.lower():
            continue
        for tok in m.result.root.all_tokens():
            if tok.kind not in (K.STRING, K.STRING_TEXT):
                continue
            inner = tok.text[1:-1] if tok.kind == K.STRING else tok.text
            written = inner.lstrip(":")
            if written.lower() != low:
                continue
            start = tok.offset + (1 if tok.kind == K.STRING else 0) + len(inner) - len(written)
            if (path, start) in covered:
                continue
            line = LineIndex(m.text).position(tok.offset)[0] + 1
            return f"{_short(path or files.this_path)}:{line}"
    return None


def _where(files: _Files, o: Occurrence) -> str:
    m = files.an.model if o.path is None else files.model(o.path)
    line = LineIndex(m.text).position(o.start)[0] + 1 if m is not None else 0
    return f"{_short(o.path or files.this_path)}:{line}"


def _short(path: str) -> str:
    """A file as a user finds it in a message: from its module's folder on."""
    p = path.replace("\\", "/")
    for role in ("/manifests/", "/functions/", "/types/", "/plans/"):
        i = p.rfind(role)
        if i > 0:
            return p[p.rfind("/", 0, i) + 1:]
    return p.rpartition("/")[2] or "this file"


# ---- the new name --------------------------------------------------------------------------------

def _check_new_name(an: Analysis, plan: _Plan, new: str, files: _Files | None) -> Refusal | None:
    kind = plan.kind
    if kind in ("variable", "parameter"):
        pattern = _PARAMETER if kind == "parameter" and plan.owner is not None else _VARIABLE
        if not pattern.match(new):
            return Refusal(render("RENAME_INVALID_NAME", name=new, what="parameter" if kind == "parameter" else "variable"))
        if new in _RESERVED_VARIABLES or (kind == "parameter" and plan.owner is not None
                                          and new in metaparameters()):
            return Refusal(render("RENAME_RESERVED", name=new))
        if new == plan.name:
            return None
        return _variable_collision(an, plan, new, files)
    if kind == "type_alias":
        if not _ALIAS_NAME.match(new):
            return Refusal(render("RENAME_INVALID_NAME", name=new, what="type alias"))
    elif not _LOWER_NAME.match(new) or any(seg in _RESERVED for seg in new.split("::")):
        return Refusal(render("RENAME_INVALID_NAME", name=new, what={"class": "class", "define": "defined type",
                                                                     "function": "function"}[kind]))
    if new.lower() == plan.name.lower():
        return None
    taken = bool(lookup.find(an, kind, new))
    if kind == "define":
        taken = taken or resource_type(new) is not None or new in BUILTIN_RESOURCE_TYPES \
            or bool(an.env.lookup("resource_type", new))
    elif kind == "function":
        taken = taken or lookup.builtin_function_target(new) is not None
    elif kind == "type_alias":
        taken = taken or describe(new) is not None or resource_type(new.lower()) is not None
    if taken:
        return Refusal(render("RENAME_COLLISION", name=new))
    return None


def _variable_collision(an: Analysis, plan: _Plan, new: str, files: _Files | None) -> Refusal | None:
    """Would ``new`` be captured by, or capture, another variable where the old name is
    used?"""
    word = re.compile(r"(?<![A-Za-z0-9_@])@" + re.escape(new) + r"(?![A-Za-z0-9_])")
    for o in plan.occurrences:
        if o.style == "erb":
            # the template must not read another `@new` already
            text = an.result.text if o.path is None else (files.sources(o.path) if files and files.sources else None)
            if text is None or word.search(text):
                return Refusal(render("RENAME_COLLISION", name="@" + new))
            continue
        m = an.model if o.path is None else (files.model(o.path) if files is not None else None)
        if m is None:
            continue
        tok = _variable_token(m.result.root, o.start)
        if tok is None:
            # an attribute: the declaration must not set the new name already
            continue
        if tok.text.lstrip("$").lstrip(":") != tok.text.lstrip("$").lstrip(":").rpartition("::")[2]:
            continue      # $cls::x: qualified, cannot be captured
        if o.write:
            d = m.definition_at(o.start)
            if d is None:
                continue
            if new in d.scope.variables:
                return Refusal(render("RENAME_COLLISION", name="$" + new))
            # a use of another `$new` (a built-in, an outer variable) inside the scope would
            # read the renamed variable instead
            for r in m.references:
                if r.name == new and _inside(r.scope, d.scope):
                    return Refusal(render("RENAME_COLLISION", name="$" + new))
            continue
        # the renamed use must not find another `$new` first (a lambda's, say)
        target, _ = m.lookup(new, m.scope_at(o.start), o.start)
        if target is not None:
            return Refusal(render("RENAME_COLLISION", name="$" + new))
    return None


def _inside(scope, outer) -> bool:
    s = scope
    while s is not None:
        if s is outer:
            return True
        if s.kind != "lambda":
            return False
        s = s.parent
    return False


def apply_edits(text: str, edits: list) -> str:
    """``text`` with ``edits`` of one file applied (they never overlap)."""
    out = []
    pos = 0
    for e in sorted(edits, key=lambda e: e.start):
        out.append(text[pos:e.start])
        out.append(e.new_text)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


def moved_offset(offset: int, edits: list) -> int:
    """Where ``offset`` of a file is once ``edits`` of that file are applied."""
    delta = 0
    for e in edits:
        if e.end <= offset:
            delta += len(e.new_text) - (e.end - e.start)
        elif e.start <= offset:
            return e.start + delta + min(offset - e.start, len(e.new_text))
    return offset + delta
