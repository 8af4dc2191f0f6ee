"""Call hierarchy: which definitions call a function (or declare a class or defined type), and
which functions a function, class, defined type, plan or node calls.

``prepare`` says what the cursor names as a ``CallItem``; ``incoming`` groups every use of an
item in the workspace by the definition it is written in (a use outside any definition, in a
site manifest say, is grouped under its file); ``outgoing`` lists the functions an item's body
calls, each with its call sites.  Other files are read through ``sources`` (a path to its text,
None when unreadable), supplied by the caller: this module reads no file.  An item's ``path``
is None for the analysed file.

A function built into Puppet has no file: it is reported at the first place it is called
(``builtin`` set), so that an editor can still show it and ask for its incoming calls.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..check.analysis import Analysis
from ..check.scopes import FileModel
from .index import _USE_KINDS, PUPPET_ROLES, parse_for_role, uses_of
from .lookup import builtin_function_target
from .navigation import Sources, symbol_at

# the definitions a call can be written in, and items can be made of
CALLERS = ("class", "define", "function", "plan", "node")


@dataclass(frozen=True)
class CallItem:
    kind: str                 # function, class, define, plan, node; "file" for top-level code
    name: str
    path: str | None          # None: the analysed file
    start: int                # the whole definition
    end: int
    sel_start: int            # its name
    sel_end: int
    builtin: bool = False


@dataclass
class Call:
    """An item and the ranges, in ``path`` (None: the analysed file), where the calls are."""

    item: CallItem
    path: str | None
    ranges: list


class _Models:
    """Models of the analysed file and of the other files a question reads, parsed once each."""

    def __init__(self, env, an: Analysis | None, this_path: str, sources: Sources | None):
        self.env, self.an, self.this_path, self.sources = env, an, this_path, sources
        self._cache: dict = {}

    def get(self, path: str | None) -> FileModel | None:
        if path is None or (path == self.this_path and self.an is not None):
            return self.an.model if self.an is not None else None
        if path not in self._cache:
            text = self.sources(path) if self.sources is not None else None
            entry = self.files.get(path)
            self._cache[path] = (FileModel(parse_for_role(text, entry.role if entry is not None else "manifest"))
                                 if text is not None else None)
        return self._cache[path]

    @property
    def files(self) -> dict:
        return getattr(self.env, "files", {})

    def norm(self, path: str | None) -> str | None:
        return None if path == self.this_path and self.an is not None else path


def _item_of(named, path: str | None) -> CallItem:
    r = named.node.range
    return CallItem(named.kind, named.name.lstrip(":").lower() if named.kind != "node" else named.name,
                    path, r[0], r[1], named.offset, named.end)


def prepare(an: Analysis, offset: int, sources: Sources | None = None, this_path: str = "") -> list:
    """The items the cursor names: a function (at a call or its definition), or a class or
    defined type (at its definition or where it is declared)."""
    sym = symbol_at(an, offset)
    if sym is None or sym.kind not in ("function", "class", "define"):
        return []
    name = sym.name.lstrip(":").lower()
    own = [n for n in an.model.named if n.kind == sym.kind and n.name.lstrip(":").lower() == name]
    if own:
        return [_item_of(own[0], None)]
    if sym.kind == "function" and builtin_function_target(name) is not None:
        return [CallItem("function", name, None, sym.start, sym.end, sym.start, sym.end, builtin=True)]
    models = _Models(an.env, an, this_path, sources)
    for e in an.env.lookup(sym.kind, name):
        if not e.path:
            continue
        model = models.get(e.path) if e.path.endswith(".pp") else None
        for n in model.named if model is not None else []:
            if n.kind == sym.kind and n.offset == e.offset:
                return [_item_of(n, models.norm(e.path))]
        return [CallItem(sym.kind, name, models.norm(e.path), e.offset, e.end, e.offset, e.end)]
    return []


def _container(model: FileModel, offset: int, path: str | None, file_name: str) -> CallItem:
    """The innermost definition around ``offset``, else the file."""
    best = None
    for n in model.named:
        if n.kind in CALLERS:
            s, e = n.node.range
            if s <= offset < e and (best is None or s >= best.node.range[0]):
                best = n
    if best is not None:
        return _item_of(best, path)
    return CallItem("file", file_name, path, 0, len(model.text), 0, 0)


def incoming(item: CallItem, env, sources: Sources | None = None, an: Analysis | None = None,
             this_path: str = "", open_paths: tuple = ()) -> list:
    """Every use of ``item`` in the indexed workspace ``env``, in the analysed file ``an`` if
    given, and in ``open_paths`` (files being edited, which the index may not know yet), as
    ``Call``s grouped by the definition each is written in."""
    if item.kind not in ("function", "class", "define"):
        return []
    models = _Models(env, an, this_path, sources)
    wanted = _USE_KINDS[item.kind]
    paths: list = [None] if an is not None else []
    seen = {this_path} if an is not None else set()
    for path, entry in list(models.files.items()):     # (a copy: the index may grow meanwhile)
        if path in seen or entry.role not in PUPPET_ROLES:
            continue
        if any(n == item.name and k in wanted for k, n, _, _ in entry.uses):
            paths.append(path)
            seen.add(path)
    paths += [p for p in open_paths if p not in seen]
    out: list = []
    for path in paths:
        model = models.get(path)
        if model is None:
            continue
        groups: dict = {}
        for k, n, s, e in uses_of(model):
            if n != item.name or k not in wanted:
                continue
            fname = (path or this_path or "").replace("\\", "/").rpartition("/")[2] or "file"
            caller = _container(model, s, path, fname)
            groups.setdefault(caller, []).append((s, e))
        out += [Call(c, path, sorted(rs)) for c, rs in groups.items()]
    return out


def outgoing(item: CallItem, env, sources: Sources | None = None, an: Analysis | None = None,
             this_path: str = "") -> list:
    """The functions ``item``'s body calls (not those of definitions nested in it), each with
    its call sites, in the order first called."""
    if item.builtin or item.kind not in CALLERS:
        return []
    models = _Models(env, an, this_path, sources)
    entry = models.files.get(item.path)
    if entry is not None and entry.role not in PUPPET_ROLES:
        return []        # a Ruby function: its body is not Puppet
    model = models.get(item.path)
    if model is None:
        return []
    body = next((n for n in model.named if n.offset == item.sel_start and n.kind == item.kind), None)
    if body is None:
        return []
    start, end = body.node.range
    nested = [n.node.range for n in model.named
              if n is not body and n.kind in CALLERS and start <= n.node.range[0] and n.node.range[1] <= end]
    groups: dict = {}
    for c in model.calls:
        if start <= c.offset < end and not any(s <= c.offset < e for s, e in nested):
            groups.setdefault(c.name.lstrip(":").lower(), []).append((c.offset, c.end))
    out = []
    for name, ranges in sorted(groups.items(), key=lambda g: min(g[1])):
        ranges.sort()
        target = _function_item(name, model, item.path, ranges[0], models)
        if target is not None:
            out.append(Call(target, item.path, ranges))
    return out


def _function_item(name: str, model: FileModel, path: str | None, first: tuple, models: _Models) -> CallItem | None:
    own = [n for n in model.named if n.kind == "function" and n.name.lstrip(":").lower() == name]
    if own:
        return _item_of(own[0], path)
    if builtin_function_target(name) is not None:
        # Puppet's own functions win over same-named module functions (its loaders ask the
        # system loader first); they have no file, so the item is the call itself.
        return CallItem("function", name, path, first[0], first[1], first[0], first[1], builtin=True)
    for e in models.env.lookup("function", name):
        if not e.path:
            continue
        m = models.get(e.path) if e.path.endswith(".pp") else None
        for n in m.named if m is not None else []:
            if n.kind == "function" and n.offset == e.offset:
                return _item_of(n, models.norm(e.path))
        return CallItem("function", name, models.norm(e.path), e.offset, e.end, e.offset, e.end)
    return None
