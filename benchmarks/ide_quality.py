#!/usr/bin/env python3
"""Editor answer quality over real code (issue 17, acceptance 1): completion with the token cut
short, go-to-definition and references, at seeded random positions of the corpus, stratified by
token kind, each judged against a ground truth worked out without the editor code.

    python3 benchmarks/ide_quality.py [--seed 17] [--per-kind 60] [--modules DIR] [--show 3] [--kinds a,b]

The workspace is every module under --modules (default /usr/share/puppet/modules, where the
corpus lives), indexed as the server does (``server/workspace.py:build_index``).

Ground truth ("the world") is read from the module files with plain patterns and from the
Puppet installation, never from ``language/ide`` or ``language/check``:
  classes, defined types, Puppet functions, type aliases   ``class|define|function|type`` lines of
                                                            manifests/functions/types, with their line
  Ruby functions, resource types and their attributes,     ``create_function``/``newfunction``,
  custom facts                                              ``newtype``/``newparam``/``newproperty``,
                                                            ``Facter.add`` in the modules and in Puppet
  the data types                                           Puppet's ``P<Name>Type`` classes
  core facts                                               ``facter --json`` on this machine
  variables, parameters and their scopes                   the syntax tree (parser only) of the file
Kinds sampled (tokens found in the syntax tree, only where the world knows the name):
  variable            $x read where $x is a parameter or is assigned in the same scope
  qualified variable  $mod::cls::x where cls assigns x or has it as a parameter
  resource type       the type of a resource declaration (file { ... })
  resource reference  File[...], Service[...], Class[...]
  class name          include/contain/require x, class { 'x': }
  function call       f(...) and statement calls
  attribute name      the attributes of a declaration of a known type or class
  type                a data type or type alias in a type position
  fact key            $facts['x']
  top-scope fact      $::x where x is a fact
For each position: completion at a random point inside the token, with the rest of the token
deleted (the file reparsed), as a client would filter it: items whose filter text (else label)
starts with what was typed since the item's edit start, sorted by sort text then label.
"Offered" = the original token is among them; rank = its place (1 = first).  Definition: some
answer is in the file and on the line the world gives (counted where the world has one).
References (local variables): the set of tokens the server returns in the file equals the
variable's uses in its scope (lambda parameters shadow; a class's own ``$cls::x`` counts).
Prints a table per kind; with --show N, N misses per kind and measure.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpus import corpus_files
from puppet_ls.language.check import analyze
from puppet_ls.language.ide import completion, navigation
from puppet_ls.language.ide.diagnostics import parse_for_path
from puppet_ls.language.ide.index import index_source
from puppet_ls.language.syntax import kinds as K
from puppet_ls.language.syntax import parse
from puppet_ls.server.workspace import build_index

PUPPET_LIB = Path("/usr/lib/ruby/vendor_ruby/puppet")
KINDS = ["variable", "qualified variable", "resource type", "resource reference", "class name",
         "function call", "attribute name", "type", "fact key", "top-scope fact"]
_CLASS_STATEMENTS = {"include", "contain", "require"}
_SCOPES = {K.CLASS_DEF, K.DEFINE_DEF, K.FUNCTION_DEF, "PLAN_DEF", "NODE_DEF"}


# ---- the world: ground truth from the files themselves -----------------------------------------

@dataclass
class World:
    defs: dict = field(default_factory=dict)          # (kind, lower name) -> (path, line)
    type_attrs: dict = field(default_factory=dict)    # resource type -> attribute names
    metaparams: set = field(default_factory=set)
    data_types: set = field(default_factory=set)
    facts: set = field(default_factory=set)
    _class_vars: dict = field(default_factory=dict)

    def has(self, kind: str, name: str) -> bool:
        return (kind, name.lstrip(":").lower()) in self.defs

    def where(self, kind: str, name: str):
        return self.defs.get((kind, name.lstrip(":").lower()))

    def definition_vars(self, kind: str, name: str) -> dict:
        """{variable: [line]} of the parameters and class-level assignments of a class or
        defined type, from its file's syntax tree."""
        key = (kind, name.lstrip(":").lower())
        if key in self._class_vars:
            return self._class_vars[key]
        out: dict = {}
        loc = self.defs.get(key)
        if loc is not None:
            text = _read(loc[0])
            root = parse(text).root
            node_kind = K.CLASS_DEF if kind == "class" else K.DEFINE_DEF
            for n in root.descendants():
                if n.kind == node_kind and (nm := n.token(K.NAME)) is not None and nm.text.lower() == key[1]:
                    for tok, _scope in scope_definitions(n):
                        out.setdefault(tok.text.lstrip("$"), []).append(line_of(text, tok.offset))
                    break
        self._class_vars[key] = out
        return out


def _read(path) -> str:
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        return f.read()


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


_DEF_LINE = re.compile(r"^[ \t]*(class|define|function|type)[ \t]+([A-Za-z:][\w:]*)", re.MULTILINE)
_RB_FUNCTION4 = re.compile(r"create_function\(\s*:?['\"]?([\w:]+)")
_RB_FUNCTION3 = re.compile(r"newfunction\(\s*:?['\"]?(\w+)")
_RB_TYPE = re.compile(r"newtype\(\s*:(\w+)")
_RB_ATTR = re.compile(r"new(?:param|property)\(\s*:(\w+)")
_RB_META = re.compile(r"newmetaparam\(\s*:(\w+)")
_RB_FACT = re.compile(r"Facter\.add\(\s*:?['\"]?(\w+)")


def build_world(modules: str) -> World:
    w = World()

    def ruby(path: str, rel: str) -> None:
        text = _read(path)
        if "/functions/" in "/" + rel:
            pat = _RB_FUNCTION3 if "parser/functions" in rel else _RB_FUNCTION4
            for m in pat.finditer(text):
                w.defs.setdefault(("function", m.group(1).lower()), (path, line_of(text, m.start())))
        elif rel.startswith("puppet/type/") or "/puppet/type/" in rel:
            m = _RB_TYPE.search(text)
            if m:
                w.defs.setdefault(("resource_type", m.group(1)), (path, line_of(text, m.start())))
                w.type_attrs.setdefault(m.group(1), set()).update(_RB_ATTR.findall(text))
        if rel.startswith("facter/") or "/facter/" in rel:
            w.facts.update(_RB_FACT.findall(text))

    for mod in sorted(os.listdir(modules)):
        root = os.path.join(modules, mod)
        for dirpath, _dirs, files in os.walk(root, followlinks=True):
            rel_dir = os.path.relpath(dirpath, root)
            for f in files:
                path = os.path.join(dirpath, f)
                rel = os.path.join(rel_dir, f)
                if f.endswith(".pp") and rel.split(os.sep)[0] in ("manifests", "functions", "types"):
                    text = _read(path)
                    for m in _DEF_LINE.finditer(text):
                        kind = {"type": "type_alias"}.get(m.group(1), m.group(1))
                        w.defs.setdefault((kind, m.group(2).lower()), (path, line_of(text, m.start(2))))
                elif f.endswith(".rb") and rel.startswith("lib" + os.sep):
                    ruby(path, rel[4:].replace(os.sep, "/"))
    # Puppet itself: core resource types, functions, metaparameters, data types.
    for sub in ("type", "functions", "parser/functions"):
        d = PUPPET_LIB / sub
        if d.is_dir():
            for p in sorted(d.glob("*.rb")):
                ruby(str(p), f"puppet/{sub}/{p.name}" if sub == "type" else f"x/{sub}/{p.name}")
    if (PUPPET_LIB / "type.rb").is_file():
        w.metaparams = set(_RB_META.findall(_read(PUPPET_LIB / "type.rb")))
    types_rb = PUPPET_LIB / "pops" / "types" / "types.rb"
    if types_rb.is_file():
        w.data_types = {n for n in re.findall(r"class P(\w+?)Type\b", _read(types_rb))}
        w.data_types |= {"Boolean", "Class", "Resource", "Type", "Struct", "Tuple", "Callable"}
    w.data_types |= {n for (k, n) in w.defs if k == "type_alias"}
    try:
        facts = json.loads(subprocess.run(["facter", "--json", "--show-legacy"], capture_output=True, text=True,
                                          timeout=120, check=False).stdout or "{}")
        w.facts |= set(facts)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        pass
    return w


# ---- scopes from the syntax tree ---------------------------------------------------------------

def _tokens(node, kinds: tuple):
    return (t for t in node.all_tokens() if t.kind in kinds)


def _var_name(tok) -> str:
    t = tok.text
    t = t.removeprefix("${")
    return t.lstrip("$")


def is_definition(tok) -> bool:
    """A parameter, or the variable on the left of '='."""
    p = tok.parent
    if p is None:
        return False
    if p.kind == K.PARAM:
        return True
    if p.kind == K.VARIABLE_EXPR and p.parent is not None and p.parent.kind == K.ASSIGNMENT:
        first = next(p.parent.children(), None)
        return first is not None and first.offset == p.offset
    return False


def scope_of(tok):
    """The node whose scope defines ``tok``'s variable: the nearest lambda naming it as a
    parameter, else the enclosing class/define/function, else the file."""
    name = _var_name(tok)
    node = tok.parent
    while node is not None:
        if node.kind == K.LAMBDA:
            pl = node.child(K.PARAM_LIST)
            if pl is not None and any(_var_name(v) == name for v in _tokens(pl, (K.VARIABLE,))):
                return node
        if node.kind in _SCOPES:
            return node
        if node.parent is None:
            return node
        node = node.parent
    return None


def scope_definitions(scope) -> list:
    """(token, scope) of every parameter and assignment whose scope is ``scope``."""
    out = []
    for tok in _tokens(scope, (K.VARIABLE,)):
        if is_definition(tok) and _same(scope_of(tok), scope):
            out.append((tok, scope))
    return out


def _same(a, b) -> bool:
    """Red nodes are made on demand: the same node is recognised by its place and kind."""
    return a is not None and b is not None and a.offset == b.offset and a.kind == b.kind


def _scope_uses(scope, own_class) -> dict:
    """{name: [token]} of every variable token whose scope is ``scope`` (definitions included;
    in a class, ``$<class>::name`` counts as a use of ``name``)."""
    out: dict = {}
    for u in _tokens(scope, (K.VARIABLE, K.STRING_VAR)):
        un = _var_name(u)
        if scope.kind == K.CLASS_DEF and own_class and un.lstrip(":").lower().startswith(own_class + "::"):
            rest = un.lstrip(":")[len(own_class) + 2:]
            if "::" not in rest:
                out.setdefault(rest, []).append(u)
            continue
        if _same(scope_of(u), scope):
            out.setdefault(un, []).append(u)
    return out


# ---- positions --------------------------------------------------------------------------------

@dataclass
class Sample:
    kind: str
    path: str
    tok_start: int          # the token's extent in the original text
    tok_end: int
    name_start: int         # where the name itself starts (after '$', a quote)
    expected: str           # the completion label wanted
    definition: object = None      # (path, line) or a set of lines in this file, or None
    refs: frozenset | None = None  # token offsets of every use (local variables)


def collect(path: str, text: str, world: World) -> list:
    root = parse_for_path(text, path).root
    out: list = []
    by_scope: dict = {}
    own_class = None
    for n in root.children():
        if n.kind == K.CLASS_DEF and (nm := n.token(K.NAME)) is not None:
            own_class = nm.text.lower()
    for tok in _tokens(root, (K.VARIABLE, K.NAME, K.CLASSREF, K.STRING, K.STRING_VAR)):
        p = tok.parent
        if p is None:
            continue
        k = tok.kind
        if k in (K.VARIABLE, K.STRING_VAR):
            dollar = 1 if tok.text.startswith("$") else 0
            name = _var_name(tok)
            if not name or is_definition(tok) or name.startswith("{"):
                continue
            if name.startswith("::") and "::" not in name[2:]:
                if name[2:] in world.facts and dollar:
                    out.append(Sample("top-scope fact", path, tok.offset, tok.end, tok.offset + 1, name))
                continue
            if "::" in name:
                cls, _, var = name.lstrip(":").rpartition("::")
                lines = world.definition_vars("class", cls).get(var)
                if lines and dollar:
                    loc = world.where("class", cls)
                    out.append(Sample("qualified variable", path, tok.offset, tok.end, tok.offset + 1,
                                      name, (loc[0], frozenset(lines))))
                continue
            scope = scope_of(tok)
            if scope is None:
                continue
            uses = by_scope.get((scope.offset, scope.kind))
            if uses is None:
                uses = by_scope[(scope.offset, scope.kind)] = _scope_uses(scope, own_class)
            defs = [d for d in uses.get(name, ()) if is_definition(d)]
            if not defs:
                continue
            refs = {u.offset for u in uses.get(name, ())}
            lines = frozenset(line_of(text, d.offset) for d in defs)
            if dollar:
                out.append(Sample("variable", path, tok.offset, tok.end, tok.offset + 1, name,
                                  (None, lines), frozenset(refs)))
        elif k == K.NAME and p.kind == K.QNAME and p.parent is not None and p.parent.kind == K.RESOURCE_EXPR:
            name = tok.text.lower()
            if world.has("resource_type", name):
                out.append(Sample("resource type", path, tok.offset, tok.end, tok.offset, tok.text))
            elif world.has("define", name):
                out.append(Sample("resource type", path, tok.offset, tok.end, tok.offset, tok.text,
                                  _loc(world, "define", name)))
        elif k == K.CLASSREF and p.kind == K.TYPE_REF:
            gp = p.parent
            low = tok.text.lower()
            nxt = _next_significant(tok)
            if gp is not None and gp.kind == K.ACCESS_EXPR and nxt is not None and nxt.kind == K.LBRACK \
                    and (low == "class" or world.has("resource_type", low) or world.has("define", low)):
                out.append(Sample("resource reference", path, tok.offset, tok.end, tok.offset, tok.text,
                                  _loc(world, "define", low) if world.has("define", low) else None))
            elif tok.text in world.data_types and _in_type_position(tok):
                loc = _loc(world, "type_alias", tok.text) if world.has("type_alias", tok.text) else None
                out.append(Sample("type", path, tok.offset, tok.end, tok.offset, tok.text, loc))
        elif k == K.NAME and p.kind == K.QNAME and p.parent is not None and p.parent.kind == K.STATEMENT_CALL \
                and _statement_name(p.parent) in _CLASS_STATEMENTS and world.has("class", tok.text):
            out.append(Sample("class name", path, tok.offset, tok.end, tok.offset, tok.text.lstrip(":"),
                              _loc(world, "class", tok.text)))
        elif k == K.STRING and _is_class_title(tok):
            name = tok.text[1:-1]
            if world.has("class", name):
                out.append(Sample("class name", path, tok.offset, tok.end, tok.offset + 1, name.lstrip(":"),
                                  _loc(world, "class", name)))
        elif k == K.NAME and (p.kind == K.QNAME and p.parent is not None and p.parent.kind == K.CALL_EXPR
                              or p.kind == K.STATEMENT_CALL and p.first_token().offset == tok.offset):
            if tok.text in _CLASS_STATEMENTS:
                continue
            if world.has("function", tok.text):
                out.append(Sample("function call", path, tok.offset, tok.end, tok.offset, tok.text,
                                  _loc(world, "function", tok.text) if not _is_core(world, tok.text) else None))
        elif k == K.NAME and p.kind == K.ATTRIBUTE_OP:
            typ, title = _resource_type_of(p)
            if typ is None:
                continue
            attrs: set = set(world.metaparams)
            loc = None
            if typ == "class" and title and world.has("class", title):
                params = world.definition_vars("class", title)
                attrs |= set(params)
                if tok.text in params:
                    loc = (world.where("class", title)[0], frozenset(params[tok.text]))
            elif world.has("define", typ):
                params = world.definition_vars("define", typ)
                attrs |= set(params)
                if tok.text in params:
                    loc = (world.where("define", typ)[0], frozenset(params[tok.text]))
            elif world.has("resource_type", typ):
                attrs |= world.type_attrs.get(typ, set())
            else:
                continue
            if tok.text in attrs:
                out.append(Sample("attribute name", path, tok.offset, tok.end, tok.offset, tok.text, loc))
        elif k == K.STRING and _is_facts_key(tok):
            key = tok.text[1:-1]
            if key in world.facts:
                out.append(Sample("fact key", path, tok.offset, tok.end, tok.offset + 1, key))
    return out


def _loc(world: World, kind: str, name: str):
    w = world.where(kind, name)
    return (w[0], frozenset([w[1]])) if w else None


def _is_core(world: World, name: str) -> bool:
    w = world.where("function", name)
    return w is not None and str(w[0]).startswith(str(PUPPET_LIB))


def _next_significant(tok):
    node = tok.parent
    while node is not None and node.end <= tok.end:
        node = node.parent
    if node is None:
        return None
    for t in node.significant_tokens():
        if t.offset >= tok.end:
            return t
    return None


def _statement_name(call) -> str:
    t = call.first_token()
    return t.text if t is not None else ""


def _in_type_position(tok) -> bool:
    node = tok.parent
    while node is not None:
        if node.kind in (K.PARAM, K.TYPE_ALIAS, K.RETURN_TYPE):
            return True
        if node.kind not in (K.TYPE_REF, K.ACCESS_EXPR, K.ARRAY, K.HASH, K.HASH_ENTRY, K.LITERAL):
            return False
        node = node.parent
    return False


def _is_class_title(tok) -> bool:
    lit = tok.parent
    body = lit.parent if lit is not None else None
    if lit is None or lit.kind != K.LITERAL or body is None or body.kind != K.RESOURCE_BODY:
        return False
    expr = body.parent
    first = expr.first_token() if expr is not None else None
    return first is not None and first.kind == K.CLASS and next(body.children(), None) is lit


def _is_facts_key(tok) -> bool:
    lit = tok.parent
    acc = lit.parent if lit is not None else None
    if lit is None or lit.kind != K.LITERAL or acc is None or acc.kind != K.ACCESS_EXPR:
        return False
    first = next(acc.children(), None)
    return first is not None and first.kind == K.VARIABLE_EXPR and _var_name(first.first_token()).lstrip(":") == "facts"


def _resource_type_of(attr_op):
    """(type name, title) of the resource declaration an attribute belongs to."""
    body = attr_op.parent
    if body is None or body.kind != K.RESOURCE_BODY or body.parent is None or body.parent.kind != K.RESOURCE_EXPR:
        return None, None
    first = body.parent.first_token()
    if first is None:
        return None, None
    title = None
    lit = next(body.children(), None)
    if lit is not None and lit.kind == K.LITERAL:
        s = lit.first_token()
        if s is not None and s.kind == K.STRING:
            title = s.text[1:-1].lstrip(":").lower()
    if first.kind == K.CLASS:
        return "class", title
    if first.kind == K.NAME:
        return first.text.lower(), title
    return None, None


# ---- measuring ---------------------------------------------------------------------------------

_WORDCHARS = re.compile(r"[\w:]*\Z")


def completion_rank(sample: Sample, text: str, env, rng: random.Random):
    """(rank or None, cut text) of the expected label when the token is cut short."""
    quoted = 1 if text[sample.tok_start] in "'\"" else 0      # keep the closing quote
    name_len = sample.tok_end - quoted - sample.name_start
    cut = sample.name_start + rng.randint(1, max(1, name_len - 1))
    new = text[:cut] + text[sample.tok_end - quoted:]
    # the index holds the file as cut (as a server re-indexing the edited file would), so the
    # token being measured does not count itself among the workspace's uses
    entry = env.files.get(sample.path)
    if entry is not None:
        env.add(index_source(sample.path, new, entry.module, entry.role))
    try:
        an = analyze(parse_for_path(new, sample.path), env)
        items = completion.complete(an, cut)
    finally:
        if entry is not None:
            env.add(entry)
    line_start = new.rfind("\n", 0, cut) + 1
    word = _WORDCHARS.search(new[line_start:cut]).group(0)
    keep = []
    for it in items:
        typed_text = new[it.edit_start:cut] if it.edit_start >= 0 else word
        key = it.filter_text or it.label
        if key.lower().startswith(typed_text.lower()):
            keep.append(it)
    keep.sort(key=lambda i: (i.sort_text or i.label, i.label))
    for i, it in enumerate(keep, 1):
        if sample.expected.lstrip(":") in (it.label.lstrip(":"), it.insert_text.lstrip(":")):
            return i, new[max(line_start, cut - 40):cut]
    return None, new[max(line_start, cut - 40):cut]


def definition_ok(sample: Sample, an, text: str) -> tuple:
    want_path, lines = sample.definition
    offset = sample.name_start + 1
    # as the server asks it: other files are read through a sources function (an open
    # document's text, else the file's), and the file itself is named
    got = navigation.definition(an, offset, _source_or_none, sample.path)
    shown = []
    for loc in got:
        if loc.path is None:
            ok = want_path is None or os.path.realpath(want_path) == os.path.realpath(sample.path)
            line = line_of(text, loc.start)
            shown.append(f"here:{line}")
        else:
            ok = want_path is not None and os.path.realpath(loc.path) == os.path.realpath(want_path)
            line = line_of(_cached_text(loc.path), loc.start)
            shown.append(f"{os.path.basename(loc.path)}:{line}")
        if ok and line in lines:
            return True, shown
    return False, shown


_TEXTS: dict = {}


def _source_or_none(path: str) -> str | None:
    try:
        return _cached_text(path)
    except OSError:
        return None


def _cached_text(path: str) -> str:
    if path not in _TEXTS:
        _TEXTS[path] = _read(path)
    return _TEXTS[path]


def references_ok(sample: Sample, an) -> tuple:
    got = set()
    root = an.result.root
    for loc in navigation.references(an, sample.name_start + 1, include_declaration=True):
        if loc.path is None:
            t = root.token_at(loc.start)
            got.add(t.offset if t is not None else loc.start)
    return got == set(sample.refs or ()), got


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--per-kind", type=int, default=60, help="positions per token kind")
    ap.add_argument("--per-file", type=int, default=2, help="at most this many positions of a kind per file")
    ap.add_argument("--modules", default="/usr/share/puppet/modules")
    ap.add_argument("--files", default=None, help="the corpus list (default ../shared/corpus/corpus_files.txt)")
    ap.add_argument("--kinds", default="", help="comma-separated kinds to measure (default: all)")
    ap.add_argument("--show", type=int, default=0, help="print this many misses per kind and measure")
    args = ap.parse_args(argv)
    files = corpus_files(args.files)
    if not files or not os.path.isdir(args.modules):
        print("corpus or modules not found: nothing measured")
        return 0
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()] or KINDS
    t0 = time.time()
    world = build_world(args.modules)
    env = build_index([], [args.modules])
    print(f"world: {len(world.defs)} definitions, {len(world.facts)} facts; index: {len(env.files)} files "
          f"({time.time() - t0:.1f} s)")
    rng = random.Random(args.seed)
    order = list(files)
    rng.shuffle(order)
    chosen: dict = defaultdict(list)
    texts: dict = {}
    for path in order:
        if all(len(chosen[k]) >= args.per_kind for k in kinds):
            break
        text = _read(path)
        found = defaultdict(list)
        for s in collect(path, text, world):
            found[s.kind].append(s)
        for k in kinds:
            if len(chosen[k]) < args.per_kind and found[k]:
                picks = rng.sample(found[k], min(args.per_file, len(found[k]), args.per_kind - len(chosen[k])))
                chosen[k] += picks
                texts[path] = text
    analyses: dict = {}
    print(f"{'kind':<20}{'n':>4}{'offered':>10}{'median rank':>13}{'p90 rank':>10}"
          f"{'definition':>16}{'references':>16}")
    totals = [0, 0, 0, 0, 0, 0]
    for k in kinds:
        ranks: list = []
        misses: dict = defaultdict(list)
        d_ok = d_n = r_ok = r_n = 0
        for s in chosen[k]:
            text = texts[s.path]
            rank, shown = completion_rank(s, text, env, rng)
            if rank is None:
                misses["completion"].append(f"{s.path}:{line_of(text, s.tok_start)} {shown!r} wants {s.expected}")
            else:
                ranks.append(rank)
            if s.definition is None and s.refs is None:
                continue
            if s.path not in analyses:
                analyses[s.path] = analyze(parse_for_path(text, s.path), env)
            an = analyses[s.path]
            if s.definition is not None:
                d_n += 1
                ok, got = definition_ok(s, an, text)
                d_ok += ok
                if not ok:
                    misses["definition"].append(f"{s.path}:{line_of(text, s.tok_start)} {s.expected}: got {got}, "
                                                f"want {os.path.basename(s.definition[0] or s.path)}:{sorted(s.definition[1])}")
            if s.refs is not None:
                r_n += 1
                ok, got = references_ok(s, an)
                r_ok += ok
                if not ok:
                    misses["references"].append(f"{s.path}:{line_of(text, s.tok_start)} ${s.expected}: "
                                                f"extra {sorted(got - s.refs)} missing {sorted(s.refs - got)}")
        n = len(chosen[k])
        totals[0] += n
        totals[1] += len(ranks)
        totals[2] += d_ok
        totals[3] += d_n
        totals[4] += r_ok
        totals[5] += r_n
        med = statistics.median(ranks) if ranks else float("nan")
        p90 = sorted(ranks)[int(0.9 * (len(ranks) - 1))] if ranks else float("nan")
        print(f"{k:<20}{n:>4}{_pct(len(ranks), n):>10}{med:>13}{p90:>10}"
              f"{_frac(d_ok, d_n):>16}{_frac(r_ok, r_n):>16}")
        for what, lines in misses.items():
            for line in lines[:args.show]:
                print(f"    {what} miss: {line}")
    print(f"{'all':<20}{totals[0]:>4}{_pct(totals[1], totals[0]):>10}{'':>13}{'':>10}"
          f"{_frac(totals[2], totals[3]):>16}{_frac(totals[4], totals[5]):>16}")
    print(f"({time.time() - t0:.0f} s)")
    return 0


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "-"


def _frac(a: int, b: int) -> str:
    return f"{a}/{b} {100 * a / b:.0f}%" if b else "-"


if __name__ == "__main__":
    sys.exit(main())
