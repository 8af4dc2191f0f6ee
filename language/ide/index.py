"""The workspace index: what every module file defines, fed with file texts (the caller does
the reading), answering the checker's ``Environment`` questions and the editor's
"where is X defined / used" questions.

A module is laid out as Puppet autoloads it::

    manifests/**/*.pp                 classes and defined types
    functions/**/*.pp                 Puppet-language functions
    types/**/*.pp                     type aliases
    plans/**/*.pp                     Bolt plans
    tasks/*.json                      Bolt tasks' metadata (ide/tasks.py)
    lib/puppet/functions/**/*.rb      Ruby functions (4.x API): name and dispatch signatures
    lib/puppet/parser/functions/*.rb  Ruby functions (3.x API): name and doc
    lib/puppet/type/*.rb              resource types: name, attributes and their values
    lib/facter/*.rb                   custom facts (top-scope variables)
    metadata.json                     the module's name, version and summary

An environment (control repository) adds ``environment.conf`` (its modulepath) and
``manifests/*.pp`` (site.pp: nodes and top-scope variables).  Ruby files are not executed:
names and signatures are read with patterns, which is enough for hover and completion; the
checker never rejects a call to a Ruby function.
"""
from __future__ import annotations

import functools
import json
import re
import textwrap
from dataclasses import dataclass, field

from ..check.env import Entity, Environment, ParamSig
from ..check.scopes import FileModel
from ..syntax import ast as A
from ..syntax import kinds as K
from ..syntax.parser import parse
from .docs import leading_comment, parse_doc
from .tasks import index_task

_MODULE_NAME = re.compile(r"\A[a-z][a-z0-9_]*\Z")


# ---- layout ----------------------------------------------------------------------------------

def file_role(relpath: str) -> str | None:
    """What a file is, from its path relative to its module (or environment) root."""
    p = relpath.replace("\\", "/").lstrip("/")
    if p.endswith(".pp"):
        for prefix, role in (("manifests/", "manifest"), ("functions/", "function"),
                             ("types/", "type_alias"), ("plans/", "plan")):
            if p.startswith(prefix):
                return role
        return None
    if p.endswith(".json") and p.startswith("tasks/") and p.count("/") == 1:
        return "task"             # a Bolt task's metadata (ide/tasks.py)
    if p.endswith(".rb"):
        if p.startswith("lib/puppet/functions/"):
            return "ruby_function"
        if p.startswith("lib/puppet/parser/functions/"):
            return "ruby3_function"
        if p.startswith("lib/puppet/type/") and p.count("/") == 3:
            return "ruby_type"
        if p.startswith("lib/facter/"):
            return "fact"
    if p.startswith("facts.d/") and p.count("/") == 1 and p.endswith((".txt", ".yaml", ".yml", ".json")):
        return "external_fact"
    return None


def module_name(dirname: str, metadata_text: str | None = None) -> str:
    """A module's name: its directory name when that is a valid module name, else the name in
    its metadata.json (``author-name`` -> ``name``)."""
    if _MODULE_NAME.match(dirname):
        return dirname
    meta = parse_metadata(metadata_text) if metadata_text else {}
    name = meta.get("name", "")
    if isinstance(name, str) and name:
        short = re.split(r"[-/]", name)[-1]
        if _MODULE_NAME.match(short):
            return short
    return dirname.split("-")[-1].lower()


def json_object(text: str) -> dict | None:
    """The object a JSON file holds (metadata.json, a task's metadata, an external fact file);
    None when the text is not valid JSON or holds something else."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def parse_metadata(text: str) -> dict:
    """metadata.json as a dict ({} when it is not valid JSON or not an object)."""
    return json_object(text) or {}


def parse_environment_conf(text: str) -> dict:
    """The settings of an environment.conf (``key = value`` lines, ``#`` comments)."""
    out = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if "=" in line:
            k, _, v = line.partition("=")
            out[k.strip()] = v.strip()
    return out


def environment_modulepath(text: str) -> list:
    """The modulepath entries an environment.conf names, in order, relative to the environment
    ('$basemodulepath' kept as is for the caller to expand)."""
    value = parse_environment_conf(text).get("modulepath", "")
    return [p for p in re.split(r"[:;]", value) if p] if value else []


# ---- one file --------------------------------------------------------------------------------

@dataclass
class FileEntry:
    """What one file contributes to the index."""

    path: str
    module: str
    role: str
    entities: list = field(default_factory=list)
    uses: list = field(default_factory=list)            # (kind, name, offset, end)
    top_variables: frozenset = frozenset()


PUPPET_ROLES = frozenset({"manifest", "function", "type_alias", "plan", "site"})


def index_source(path: str, text: str, module: str = "", role: str = "manifest") -> FileEntry:
    """Index one file's text.  ``role`` is what ``file_role`` says (``site`` for an
    environment's manifests)."""
    entry = FileEntry(path, module, role)
    if role in PUPPET_ROLES:
        _index_puppet(entry, FileModel(parse_for_role(text, role)))
    elif role == "ruby_function":
        _index_ruby4(entry, text)
    elif role == "ruby3_function":
        _index_ruby3(entry, text)
    elif role == "ruby_type":
        _index_ruby_type(entry, text)
    elif role == "task":
        data = json_object(text)
        if data is not None:
            entry.entities.append(index_task(path, module, data))
    elif role == "fact":
        for m in re.finditer(r"Facter\.add\(\s*(?::(\w+)|['\"](\w+)['\"])", text):
            name = m.group(1) or m.group(2)
            entry.entities.append(Entity("fact", name, path, m.start(), m.end()))
    elif role == "external_fact":
        for name, start, end in _external_fact_names(path, text):
            entry.entities.append(Entity("fact", name, path, start, end))
    return entry


_EXTERNAL_FACT_LINE = re.compile(r"^([A-Za-z_][\w.-]*)[ \t]*[=:]", re.MULTILINE)


def _external_fact_names(path: str, text: str) -> list:
    """(name, start, end) of the facts an external fact file of a module's ``facts.d`` sets:
    ``key=value`` lines (.txt), the top-level keys of a .yaml or .json mapping."""
    if path.endswith(".json"):
        data = json_object(text) or {}
        return [(k, max(0, text.find(json.dumps(k))), max(0, text.find(json.dumps(k))) + len(k) + 2)
                for k in data if isinstance(k, str)]
    sep = "=" if path.endswith(".txt") else ":"
    return [(m.group(1), m.start(1), m.end(1)) for m in _EXTERNAL_FACT_LINE.finditer(text)
            if text[m.end() - 1] == sep]


def _params(d) -> tuple:
    out = []
    for p in d.params():
        te, name, rest, has_default, dv = p.parts()
        out.append(ParamSig(name, te.syntax.trimmed_text() if te is not None else "", has_default,
                            rest, dv.syntax.trimmed_text()[:200] if dv is not None else ""))
    return tuple(out)


def _signature(name: str, params: tuple, ret: str = "") -> str:
    parts = []
    for p in params:
        s = f"{p.type_text} " if p.type_text else ""
        s += ("*" if p.captures_rest else "") + "$" + p.name
        if p.has_default:
            s += f" = {p.default_text}" if len(p.default_text) <= 40 else " = …"
        parts.append(s)
    return f"{name}({', '.join(parts)})" + (f" >> {ret}" if ret else "")


def parse_for_role(text: str, role: str):
    """The parse the index makes of a Puppet file of ``role``."""
    return parse(text, tasks=role == "plan")


def index_model(path: str, module: str, role: str, model: FileModel) -> FileEntry:
    """Index a Puppet file from the ``FileModel`` of its ``parse_for_role`` parse, made by
    the caller (``puppet-ls check`` keeps it to check the file without parsing it twice)."""
    entry = FileEntry(path, module, role)
    _index_puppet(entry, model)
    return entry


def _index_puppet(entry: FileEntry, model: FileModel) -> None:
    text = model.text
    for n in model.named:
        doc = parse_doc(leading_comment(text, n.node.range[0]))
        if n.kind in ("class", "define"):
            d = A.view(n.node)
            params = _params(d)
            variables = frozenset(n.scope.variables) if n.scope is not None else frozenset()
            parent = d.parent_name() if isinstance(d, A.ClassDef) else None
            entry.entities.append(Entity(
                n.kind, n.name.lstrip(":").lower(), entry.path, n.offset, n.end, params,
                _signature(("class " if n.kind == "class" else "define ") + n.name.lstrip(":"), params),
                doc.short(), "", (parent or "").lstrip(":").lower(), variables,
                extra={"param_docs": doc.params, "text": doc.text}))
        elif n.kind in ("function", "plan"):
            d = A.view(n.node)
            params = _params(d)
            rt = d.return_type() if isinstance(d, A.FunctionDef) else None
            ret = rt.syntax.trimmed_text() if rt is not None else ""
            entry.entities.append(Entity(
                n.kind, n.name.lstrip(":").lower(), entry.path, n.offset, n.end, params,
                _signature(n.name.lstrip(":"), params, ret), doc.short(), ret, api="puppet",
                extra={"param_docs": doc.params, "text": doc.text}))
        elif n.kind == "type_alias":
            body = A.TypeAlias(n.node).value() if n.node.kind == K.TYPE_ALIAS else None
            entry.entities.append(Entity(
                "type_alias", n.name.lstrip(":"), entry.path, n.offset, n.end,
                signature=f"type {n.name} = {body.syntax.trimmed_text()[:300] if body is not None else '…'}",
                doc=doc.short(), body_text=body.syntax.trimmed_text() if body is not None else ""))
        elif n.kind == "node":
            entry.entities.append(Entity("node", n.name, entry.path, n.offset, n.end))
    # Top-scope variables of site manifests, and node-scope variables of any node definition:
    # Puppet makes both visible in every class (node scope: in the classes the node declares).
    scopes = ([model.top] if entry.role == "site" else []) + [sc for sc in model.scopes if sc.kind == "node"]
    names: set = set()
    for sc in scopes:
        for name, defs in sc.variables.items():
            if name not in names and defs:
                # where hover and go to definition send a class that uses it
                entry.entities.append(Entity("top_variable", name, entry.path, defs[0].offset, defs[0].end,
                                             extra={"scope": "node" if sc.kind == "node" else "top"}))
            names.add(name)
    entry.top_variables = frozenset(names)
    entry.uses = uses_of(model)


def uses_of(model: FileModel) -> list:
    """(kind, name, offset, end) of every use of a function, resource type, type name or class
    name in a file, for cross-file references."""
    out = []
    for c in model.calls:
        out.append(("function", c.name.lstrip(":").lower(), c.offset, c.end))
        if c.name in ("include", "contain", "require") and c.form in ("call", "statement"):
            v = A.CallExpr(c.node) if c.form == "call" else A.StatementCall(c.node)
            for a in v.args():
                name = _class_arg(a)
                if name:
                    r = a.range
                    out.append(("class", name, r[0], r[1]))
    for r in model.resources:
        if r.type_name == "class":
            for body in A.ResourceExpr(r.node).bodies():
                t = body.title()
                name = _class_arg(t) if t is not None else None
                if name:
                    rr = t.range
                    out.append(("class", name, rr[0], rr[1]))
        else:
            out.append(("type", r.type_name.lstrip(":").lower(), r.offset, r.end))
    for n in model.named:
        # `inherits parent` names a class
        p = n.node.child(K.PARENT) if n.kind == "class" else None
        tok = p.last_token() if p is not None else None
        if tok is not None and tok.kind == K.NAME:
            out.append(("class", tok.text.lstrip(":").lower(), tok.offset, tok.end))
    for t in model.type_refs:
        out.append(("type", t.name.lstrip(":").lower(), t.offset, t.end))
        # Class['x'] names a class by string
        parent = t.node.parent
        if t.name == "Class" and parent is not None and parent.kind == K.ACCESS_EXPR:
            for k in A.AccessExpr(parent).keys():   # noqa: SIM118 - the AST's index expressions, not a dict
                name = _class_arg(k)
                if name:
                    rr = k.range
                    out.append(("class", name, rr[0], rr[1]))
    return out


def _class_arg(node) -> str | None:
    if isinstance(node, A.Literal):
        v = node.value()
        return v.lstrip(":").lower() if isinstance(v, str) and v else None
    if isinstance(node, A.QName):
        return node.name.lstrip(":").lower() or None
    if isinstance(node, A.DqString):
        parts = node.parts()
        if all(isinstance(p, str) for p in parts):
            s = "".join(parts)
            return s.lstrip(":").lower() or None
    return None


_RB_CREATE = re.compile(r"create_function\(\s*(?::['\"]?|['\"])([\w:]+)['\"]?")
_RB_DISPATCH = re.compile(r"^\s*dispatch\s+:(\w+)\s+do\b(.*?)^\s*end\b", re.DOTALL | re.MULTILINE)
_RB_PARAM = re.compile(r"\b(required_param|optional_param|repeated_param|required_repeated_param|param|"
                       r"block_param|optional_block_param|return_type)\b\s*\(?\s*(?:['\"]([^'\"]*)['\"])?\s*,?\s*(?::(\w+))?")


def _ruby_doc(text: str, pos: int) -> str:
    doc = parse_doc(leading_comment(text, pos))
    return doc.short()


def _index_ruby4(entry: FileEntry, text: str) -> None:
    m = _RB_CREATE.search(text)
    if not m:
        return
    name = m.group(1).lstrip(":")
    sigs = []
    params_first: tuple = ()
    ret = ""
    for dm in _RB_DISPATCH.finditer(text, m.end()):
        parts = []
        ps = []
        for pm in _RB_PARAM.finditer(dm.group(2)):
            kind, ptype, pname = pm.group(1), pm.group(2) or "", pm.group(3) or ""
            if kind == "return_type":
                ret = ptype
                continue
            if kind in ("block_param", "optional_block_param"):
                parts.append(f"{ptype or 'Callable'} &{pname or 'block'}{'?' if kind.startswith('optional') else ''}")
                continue
            suffix = {"optional_param": "?", "repeated_param": "*", "required_repeated_param": "+"}.get(kind, "")
            parts.append(f"{ptype} ${pname}{suffix}".strip())
            ps.append(ParamSig(pname, ptype, kind == "optional_param", kind.endswith("repeated_param")))
        sigs.append(f"{name}({', '.join(parts)})" + (f" >> {ret}" if ret else ""))
        if not params_first:
            params_first = tuple(ps)
    entry.entities.append(Entity("function", name.lower(), entry.path, m.start(1), m.end(1), params_first,
                                 "\n".join(sigs) or f"{name}(...)", _ruby_doc(text, m.start()), ret,
                                 api="ruby4"))


# 3.x functions: a file may define several (docker's docker_run_flags.rb also defines
# 'docker::escape'), with a quoted namespaced name; the doc is a string or heredoc option.
_RB3_NEW = re.compile(r"\bnewfunction\s*\(\s*(?::(\w+)|:?(['\"])([\w:]+)\2)")
_RB3_DOC = re.compile(r"(?::doc\s*=>|(?<![\w:])doc:)\s*(?:<<([-~]?)(['\"]?)(\w+)\2"
                      r"|\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)')", re.DOTALL)


def _ruby3_doc(text: str, start: int, end: int) -> str:
    """The doc option of the ``newfunction`` call in text[start:end], as puppet-strings text."""
    dm = _RB3_DOC.search(text, start, end)
    if not dm:
        return ""
    if dm.group(3):        # a heredoc: its body starts on the next line
        body_start = text.find("\n", dm.end())
        if body_start < 0:
            return ""
        lines = []
        for line in text[body_start + 1:].split("\n"):
            if line.strip() == dm.group(3):
                break
            lines.append(line)
        raw = "\n".join(lines)
    elif dm.group(4) is not None:
        raw = re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), dm.group(4))
    else:
        raw = re.sub(r"\\([\\'])", r"\1", dm.group(5) or "")
    return textwrap.dedent(raw)


def _index_ruby3(entry: FileEntry, text: str) -> None:
    found = list(_RB3_NEW.finditer(text))
    for i, m in enumerate(found):
        group = 1 if m.group(1) else 3
        name = m.group(group).lstrip(":")
        if not name:
            continue
        end = found[i + 1].start() if i + 1 < len(found) else len(text)
        # no doc option: the comment above the call (as for 4.x functions)
        doc = parse_doc(_ruby3_doc(text, m.end(), end) or leading_comment(text, m.start()))
        entry.entities.append(Entity("function", name.lower(), entry.path, m.start(group), m.end(group),
                                     signature=f"{name}(...)", doc=doc.short(), api="ruby3",
                                     extra={"text": doc.text}))


_RB_ATTR = re.compile(r"\b(newparam|newproperty|newcheck)\s*\(\s*:(\w+)|^\s*(ensurable)\b", re.MULTILINE)


def _index_ruby_type(entry: FileEntry, text: str) -> None:
    m = re.search(r"newtype\(\s*:(\w+)", text)
    if not m:
        return
    attrs: list[tuple[str, str, str, tuple[str, ...]]] = []   # (name, kind, doc, values)
    decls = list(_RB_ATTR.finditer(text))
    for i, d in enumerate(decls):
        end = decls[i + 1].start() if i + 1 < len(decls) else len(text)
        block = text[d.end():end]
        name = d.group(2) or "ensure"
        kind = "property" if d.group(1) == "newproperty" or d.group(3) else "param"
        desc = re.search(r"desc\s+(?:\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'|<<-?~?['\"]?(\w+)['\"]?\s*\n(.*?)\n\s*\3|%q\{(.*?)\})",
                         block, re.DOTALL)
        doc = ""
        if desc:
            raw = desc.group(1) or desc.group(2) or desc.group(4) or desc.group(5) or ""
            doc = " ".join(raw.split())
            sm = re.match(r"(.+?[.!?])(\s|$)", doc)
            doc = (sm.group(1) if sm else doc)[:200]
        values = []
        for vm in re.finditer(r"newvalues?\s*\(([^)\n]*)", block):
            for sym in re.findall(r"(?<![\w:]):(\w+)\b(?!\s*=>)", vm.group(1)):
                if sym not in values and sym not in ("event", "required_features", "invalidate_refreshes"):
                    values.append(sym)
        if d.group(3) and not values:
            values = ["present", "absent"]
        if not any(a[0] == name for a in attrs):
            attrs.append((name, kind, doc, tuple(values)))
    tdoc = ""
    dm = re.search(r"@doc\s*=\s*(?:\"((?:[^\"\\]|\\.)*)\"|%q\{(.*?)\}|<<-?~?['\"]?(\w+)['\"]?\s*\n(.*?)\n\s*\3)", text, re.DOTALL)
    if dm:
        raw = " ".join((dm.group(1) or dm.group(2) or dm.group(4) or "").split())
        sm = re.match(r"(.+?[.!?])(\s|$)", raw)
        tdoc = (sm.group(1) if sm else raw)[:300]
    if not any(a[0] == "provider" for a in attrs):
        attrs.append(("provider", "param", "The specific backend to use for this resource.", ()))
    entry.entities.append(Entity("resource_type", m.group(1).lower(), entry.path, m.start(1), m.end(1),
                                 signature=f"{m.group(1)} {{ title: ... }}", doc=tdoc, api="ruby",
                                 attributes=tuple(attrs)))


# ---- the index -------------------------------------------------------------------------------

class WorkspaceIndex(Environment):
    """Entities of many files by kind and name; answers the checker's questions."""

    def __init__(self, complete: bool = False):
        self.complete = complete
        self.files: dict = {}                 # path -> FileEntry
        self.module_roots: dict = {}          # module name -> root directory
        self.module_meta: dict = {}           # module name -> metadata dict
        self._shadowed_roots: dict = {}       # module name -> later roots of it (not indexed)
        self._by_name: dict = {}              # (kind, name) -> [Entity]
        self._facts: set = set()
        self._top_vars: set = set()
        self._aliases = None
        self._aliases_by_lower: dict | None = None
        self._names: dict = {}                # kind -> sorted names, while "" -> generation holds
        self.generation = 0

    def copy(self) -> WorkspaceIndex:
        """Another index with the same content, changed independently of this one (the
        entries, which are never changed in place, are shared)."""
        other = WorkspaceIndex(self.complete)
        other.files = dict(self.files)
        other.module_roots = dict(self.module_roots)
        other.module_meta = dict(self.module_meta)
        other._shadowed_roots = {k: set(v) for k, v in self._shadowed_roots.items()}
        other._by_name = {k: list(v) for k, v in self._by_name.items()}
        other._facts = set(self._facts)
        other._top_vars = set(self._top_vars)
        other.generation = self.generation
        return other

    # -- building ------------------------------------------------------------------------------
    def add_module(self, name: str, root: str, metadata: dict | None = None) -> None:
        """Record a module folder.  A module found again in a later folder (a second modulepath
        entry) is shadowed there: Puppet loads the first folder that has it, so the first root
        is kept and the files of the later ones are not indexed (see ``add``)."""
        first = self.module_roots.setdefault(name, root)
        if first != root:
            self._shadowed_roots.setdefault(name, set()).add(root.rstrip("/\\"))
            return
        if metadata:
            self.module_meta[name] = metadata

    def module_records(self) -> list:
        """(name, root, metadata) of every ``add_module`` that made this index's modules, in an
        order that makes them again (the first folder of each module, then the later ones)."""
        out = [(name, root, self.module_meta.get(name)) for name, root in self.module_roots.items()]
        for name, roots in self._shadowed_roots.items():
            out += [(name, root, None) for root in sorted(roots)]
        return out

    def shadowed(self, entry: FileEntry) -> bool:
        """Is ``entry`` a file of a module copy that an earlier folder of the same module hides?"""
        roots = self._shadowed_roots.get(entry.module)
        if not roots:
            return False
        path = entry.path.replace("\\", "/")
        first = self.module_roots[entry.module].replace("\\", "/").rstrip("/") + "/"
        return not path.startswith(first) and any(path.startswith(r.replace("\\", "/") + "/") for r in roots)

    def add(self, entry: FileEntry) -> None:
        if self.shadowed(entry):
            return
        if entry.path in self.files:
            self.remove(entry.path)
        self.files[entry.path] = entry
        for e in entry.entities:
            self._by_name.setdefault((e.kind, e.name), []).append(e)
            if e.kind == "fact":
                self._facts.add(e.name)
        self._top_vars |= entry.top_variables
        if any(e.kind == "type_alias" for e in entry.entities):
            self._aliases = self._aliases_by_lower = None
        self.generation += 1

    def remove(self, path: str) -> None:
        entry = self.files.pop(path, None)
        if entry is None:
            return
        for e in entry.entities:
            lst = self._by_name.get((e.kind, e.name))
            if lst is not None:
                lst[:] = [x for x in lst if x.path != path]
                if not lst:
                    del self._by_name[(e.kind, e.name)]
        self._facts = {e.name for es in self._by_name.values() for e in es if e.kind == "fact"}
        self._top_vars = set().union(*(f.top_variables for f in self.files.values())) if self.files else set()
        self._aliases = self._aliases_by_lower = None
        self.generation += 1

    # -- Environment ---------------------------------------------------------------------------
    def modules(self) -> frozenset:
        return frozenset(self.module_roots)

    def lookup(self, kind: str, name: str) -> list:
        key = name.lstrip(":")
        if kind != "type_alias":
            key = key.lower()
        found = self._by_name.get((kind, key))
        if found is None and kind == "type_alias":
            # Type names are matched without case as a fallback; every type reference of a
            # checked file asks (String, Integer, ...), so the lower-case table is kept.
            if self._aliases_by_lower is None:
                table: dict = {}
                for (k, n), es in self._by_name.items():
                    if k == "type_alias":
                        table.setdefault(n.lower(), []).extend(es)
                self._aliases_by_lower = table
            found = self._aliases_by_lower.get(key.lower())
        return list(found or [])

    def names(self, kind: str) -> list:
        # Kept per kind until the index changes: checks ask it for suggestions ("did you
        # mean"), hundreds of times a run over thousands of names.
        memo = self._names
        if memo.get("") != self.generation:
            memo.clear()
            memo[""] = self.generation
        found = memo.get(kind)
        if found is None:
            found = memo[kind] = sorted({n for (k, n) in self._by_name if k == kind})
        return list(found)

    def entities(self, kind: str) -> list:
        return [e for (k, _), es in self._by_name.items() if k == kind for e in es]

    def has_fact(self, name: str) -> bool:
        return name in self._facts

    def has_top_variable(self, name: str) -> bool:
        return name in self._top_vars

    def alias_scope(self):
        if not any(k == "type_alias" for (k, _) in self._by_name):
            return None
        if self._aliases is None:
            from ..types import model as m
            # each body is parsed from its text when a check first needs it
            self._aliases = m.AliasScope({n: m.Deferred(functools.partial(_alias_body, es[0].body_text))
                                          for (k, n), es in self._by_name.items() if k == "type_alias" and es})
        return self._aliases

    # -- references ----------------------------------------------------------------------------
    def uses(self, kind: str, name: str) -> list:
        """(path, offset, end) of every indexed use of a class/define/function/type name."""
        name = name.lstrip(":").lower()
        wanted = _USE_KINDS.get(kind, ("type",))
        out = []
        for f in self.files.values():
            for k, n, s, e in f.uses:
                if n == name and k in wanted:
                    out.append((f.path, s, e))
        return out


def _alias_body(text: str):
    """The body of an indexed alias (``Entity.body_text``): its TypeCall, Any when the text is
    not one static type."""
    from ..types.from_ast import type_call_from_text
    from ..types import model as m
    call = type_call_from_text(text)
    return call if call is not None else m.ANY


# Which recorded uses refer to a definition of each kind.
_USE_KINDS = {"function": ("function",), "class": ("class", "type"), "define": ("type",),
              "type_alias": ("type",), "resource_type": ("type",)}
