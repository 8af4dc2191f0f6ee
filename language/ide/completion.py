"""Completion: what may be typed at the cursor, worked out from the tokens before it (so it
works in the half-written code completion is asked for), offering:

* variables in scope after ``$`` (parameters, assignments, lambda parameters, ``$facts``,
  ``$trusted`` and the other built-ins; ``$class::`` offers that class's variables);
* data types (built-in ones with snippet parameters such as ``Integer[${1:from}, ${2:to}]``,
  type aliases, resource and class references) for a capitalised word, and inside the ``[``
  of a type;
* attributes of the resource type being declared (and metaparameters), and the values an
  attribute accepts (``ensure => present``, a defined type's ``Enum`` values);
* class names after ``include``/``contain``/``require`` and in ``class { '…': }``;
* functions (with signatures), keywords and resource types elsewhere; functions after ``.``.

Items are plain data; ``edit_start`` says which part of the text before the cursor an item
replaces (the server turns it into a text edit).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache, partial

from ..check.analysis import Analysis
from ..check.builtins import BUILTIN_VARIABLES, CORE_FACTS
from ..knowledge import facts
from ..check.signatures import builtin_doc, builtin_function_names, builtin_signatures
from ..knowledge.resource_types import metaparameters, resource_type, resource_types
from ..syntax import kinds as K
from ..types.build import BUILTIN_RESOURCE_TYPES
from ..types.type_docs import CATALOGUE
from . import bolt as bolt_items
from . import lookup
from .hover import KEYWORD_DOCS
from .tokens import enclosing_bracket, enclosing_opener, tokens_before, tokens_between


@dataclass
class CompletionItem:
    label: str
    kind: str                      # variable, type, function, keyword, class, resource_type,
    #                                attribute, value, module, snippet, fact
    detail: str = ""
    documentation: str = ""        # markdown
    insert_text: str = ""          # plain text to insert (default: label)
    snippet: str = ""              # the same as a snippet (used when the client supports them)
    edit_start: int = -1           # replace [edit_start, cursor) (-1: the client's word)
    sort_text: str = ""
    filter_text: str = ""
    # The documentation, made only when asked (``full_documentation``; the editor's
    # completionItem/resolve): formatting it for every item of a long list (each class of a
    # workspace) cost most of the list's time and ~1.4 KB of the answer per item.
    later: Callable[[], str] | None = field(default=None, repr=False, compare=False)

    def full_documentation(self) -> str:
        if self.documentation or self.later is None:
            return self.documentation
        return self.later()


# Snippets for the parameterised built-in types.
TYPE_SNIPPETS = {
    "Integer": "Integer[${1:from}, ${2:to}]", "Float": "Float[${1:from}, ${2:to}]",
    "String": "String[${1:min_length}, ${2:max_length}]", "Enum": "Enum[${1:'value'}]",
    "Pattern": "Pattern[${1:/regexp/}]", "Array": "Array[${1:Type}]", "Hash": "Hash[${1:String}, ${2:Type}]",
    "Struct": "Struct[{${1:'key'} => ${2:Type}}]", "Tuple": "Tuple[${1:Type}]", "Variant": "Variant[${1:Type}, ${2:Type}]",
    "Optional": "Optional[${1:Type}]", "NotUndef": "NotUndef[${1:Type}]", "Type": "Type[${1:Type}]",
    "Callable": "Callable[${1:Type}]", "Sensitive": "Sensitive[${1:Type}]", "Iterable": "Iterable[${1:Type}]",
    "Iterator": "Iterator[${1:Type}]", "Collection": "Collection[${1:min_size}, ${2:max_size}]",
    "Regexp": "Regexp[${1:/regexp/}]", "Boolean": "Boolean[${1:true}]", "Resource": "Resource[${1:type}, ${2:'title'}]",
    "Class": "Class[${1:name}]", "SemVer": "SemVer[${1:'>=1.0.0'}]", "Timespan": "Timespan[${1:from}, ${2:to}]",
    "Timestamp": "Timestamp[${1:from}, ${2:to}]", "Init": "Init[${1:Type}]", "Runtime": "Runtime[${1:ruby}, ${2:'Class'}]",
    "URI": "URI[${1:'https://'}]", "Object": "Object[{${1:attributes} => {${2}}}]",
}

_STATEMENT_KEYWORDS = ["if", "unless", "case", "class", "define", "node", "function", "type",
                       "and", "or", "in", "undef", "default", "true", "false", "else", "elsif", "inherits"]
_KEYWORD_SNIPPETS = {
    "if": "if ${1:condition} {\n\t$0\n}", "unless": "unless ${1:condition} {\n\t$0\n}",
    "case": "case ${1:\\$value} {\n\t${2:'value'}: { $0 }\n\tdefault: { }\n}",
    "class": "class ${1:name} (\n\t$2\n) {\n\t$0\n}", "define": "define ${1:name} (\n\t$2\n) {\n\t$0\n}",
    "function": "function ${1:name}(${2}) >> ${3:Any} {\n\t$0\n}", "node": "node ${1:'name'} {\n\t$0\n}",
}
_WORD = re.compile(r"[A-Za-z0-9_:]*\Z")
# a variable being typed, maybe half-way through a '::' ('$:', '$apache:')
_VAR = re.compile(r"\$(\{)?((?:::?)?(?:[a-z0-9_]+::)*[a-z0-9_]*:?)\Z")
# $facts['os']['fam| : the keys before the one being typed, its opening quote, what is typed
_FACTS_KEY = re.compile(r"\$\{?(?:::)?facts((?:\[\s*(['\"])[\w.-]*\2\s*\])*)\[\s*(['\"]?)([\w.-]*)\Z")
_KEY = re.compile(r"\[\s*['\"]([\w.-]*)['\"]\s*\]")
_CLASS_DECL = re.compile(r"\b(?:include|contain|require)\s+(?:[\w:'\"]+\s*,\s*)*(['\"]?)((?:::)?[\w:]*)\Z")
_CLASS_RESOURCE = re.compile(r"\bclass\s*\{\s*(['\"])((?:::)?[\w:]*)\Z")
# what a variable being typed is assigned to: '$x = ', 'Type $x = ' or 'x => '
_TARGET = re.compile(r"(?:\$(\w+)\s*=|\b(\w+)\s*=>)\s*\Z")
_METHOD = re.compile(r"[\w)\]}'\"]\s*\.\s*([a-z_]\w*)?\Z")


def complete(an: Analysis, offset: int) -> list:
    """Completion items for the cursor at ``offset``."""
    text = an.result.text
    offset = max(0, min(offset, len(text)))
    line_start = text.rfind("\n", 0, offset) + 1
    before = text[max(line_start, offset - 400):offset]
    root = an.result.root
    cur = None
    for t in tokens_before(root, offset, significant=False):
        cur = t
        break
    if cur is not None and cur.end >= offset:
        if cur.kind in (K.COMMENT, K.ML_COMMENT, K.EPP_COMMENT):
            return []
        if cur.kind == K.HEREDOC_BODY or (cur.parent is not None and cur.parent.kind == K.HEREDOC_TEXT
                                           and cur.kind == K.STRING_TEXT):
            return []
    tasks = bolt_items.task_items(an, before, offset, CompletionItem)   # run_task('…', $t, …)
    if tasks is not None:
        return tasks
    m = _FACTS_KEY.search(before)
    if m:
        return _fact_keys(an, _KEY.findall(m.group(1)), m.group(3), m.group(4), offset)
    m = _VAR.search(before)
    if m and (cur is None or cur.kind not in (K.STRING,) or cur.end < offset):
        items = _variables(an, offset, m.group(2), offset - len(m.group(2)))
        h = _TARGET.search(before, 0, m.start())
        if h is not None:
            # '$port = $app::params::p', 'String $port = ...', 'port => $...': the same name first
            want = h.group(1) or h.group(2)
            for it in items:
                if it.label.rpartition("::")[2] == want and "::" in it.label.lstrip(":"):
                    it.sort_text = " " + it.sort_text
        if m.group(1) and "::" not in m.group(2):
            # "${basename($path)}": inside an interpolation a bare word is a call too
            items += _functions(an, offset - len(m.group(2)))
        return items
    m = _CLASS_DECL.search(before) or _CLASS_RESOURCE.search(before)
    if m:
        return _classes(an, m.group(2), offset - len(m.group(2)))
    if cur is not None and cur.end >= offset and cur.offset < offset and cur.kind in (K.STRING, K.STRING_TEXT, K.DQ_OPEN):
        return []          # inside a string
    wm = _WORD.search(before)      # matches at the end of any text, possibly empty
    word = wm.group(0) if wm else ""
    word = word.lstrip(":")            # "::apache::mod" (or its first ":") names the same as "apache::mod"
    start = offset - len(word)
    m = _METHOD.search(before)
    if m and not word[:1].isupper():
        return _functions(an, start, method=True)
    opener = enclosing_bracket(root, start)
    if opener is not None and opener.parent is not None and opener.parent.kind == K.ERROR:
        opener, _ = enclosing_opener(root, start)     # broken code: count brackets instead
    if opener is not None:
        ctx = _bracket_context(an, root, opener, start, word)
        if ctx is not None:
            return ctx
    if word[:1].isupper():
        return _types(an, start, refs_first=not _type_position(root, opener, start))
    inside = opener is not None and opener.kind in (K.LPAREN, K.WSLPAREN, K.LBRACK, K.LISTSTART, K.INTERP_OPEN)
    return _general(an, start, word, statements=not inside)


# ---- contexts ------------------------------------------------------------------------------------

_STATEMENT_PARENTS = frozenset({K.BLOCK, K.SOURCE_FILE, K.HASH, K.SELECTOR_EXPR, K.CASE_EXPR,
                                K.LAMBDA, K.COLLECT_EXPR, K.EPP_FILE})


def _bracket_context(an: Analysis, root, opener, start: int, word: str) -> list | None:
    k = opener.kind
    parent_kind = opener.parent.kind if opener.parent is not None else ""
    if k in (K.LBRACE, K.SELBRACE) and parent_kind in _STATEMENT_PARENTS:
        return None          # a block, hash or selector: not a resource body
    prev = None
    for t in tokens_before(root, opener.offset):
        if t.end <= opener.offset:
            prev = t
            break
    if k in (K.LBRACK, K.LISTSTART) and prev is not None and prev.kind == K.CLASSREF and k == K.LBRACK:
        if prev.text in ("Enum", "Pattern", "Regexp"):
            return []
        return _types(an, start)
    if k in (K.LBRACE,) and prev is not None:
        # resource body: 'type {' or 'Type {' or 'Type[...] {' or 'class {'
        type_name = None
        titled = False
        if prev.kind == K.NAME or prev.kind == K.CLASS:
            type_name = "class" if prev.kind == K.CLASS else prev.text
            titled = True
        elif prev.kind == K.CLASSREF:
            type_name = prev.text
        elif prev.kind == K.RBRACK:
            ref = _reference_type(root, prev)
            if ref is not None:
                type_name = ref
        if type_name is None:
            return None
        between = tokens_between(root, opener.end, start)
        segment, depth_colon = _current_segment(between)
        if titled and not depth_colon:
            return [] if between else None    # typing the title
        title_value = _title_of(an, between) if type_name == "class" else None
        arrow = next((i for i, t in enumerate(segment) if t.kind in (K.FARROW, K.PARROW)), None)
        if arrow is None:
            if segment and segment[-1].end < start:
                return []
            return _attributes(an, type_name, start, title_value)
        attr = segment[arrow - 1].text if arrow > 0 and segment[arrow - 1].kind == K.NAME else ""
        items = _attribute_values(an, type_name, attr, start, title_value)
        if word[:1] == "$":
            return None
        if word[:1].isupper():
            return items + _types(an, start, refs_first=True)     # require => File['x']
        return items + _general(an, start, word, statements=False)
    return None


def _type_position(root, opener, start: int) -> bool:
    """Is a capitalised word at ``start`` more likely a data type (in a parameter list, after
    ``=``, ``=~``, ``>>``) than a resource reference (``File['x'] -> Service['y']``, statement
    start, an array of references)?"""
    if opener is not None and opener.parent is not None and opener.parent.kind == K.PARAM_LIST:
        return True
    prev = next(iter(tokens_before(root, start)), None)
    return prev is not None and prev.end <= start and prev.kind in (K.EQUALS, K.MATCH, K.NOMATCH, K.RSHIFT)


def _reference_type(root, rbrack) -> str | None:
    """'Type' of 'Type[...] {' (a resource override)."""
    depth = 0
    for t in tokens_before(root, rbrack.end):
        if t.kind == K.RBRACK:
            depth += 1
        elif t.kind in (K.LBRACK, K.LISTSTART):
            depth -= 1
            if depth == 0:
                for u in tokens_before(root, t.offset):
                    return u.text if u.kind == K.CLASSREF else None
    return None


def _current_segment(between: list) -> tuple:
    """Tokens of the current attribute (after the last ',' ';' or title ':' at depth 0), and
    whether a title colon was seen."""
    depth = 0
    last_sep = -1
    colon = False
    for i, t in enumerate(between):
        if t.kind in (K.LBRACK, K.LISTSTART, K.LPAREN, K.WSLPAREN, K.LBRACE, K.SELBRACE):
            depth += 1
        elif t.kind in (K.RBRACK, K.RPAREN, K.RBRACE):
            depth -= 1
        elif depth == 0 and t.kind in (K.COMMA, K.SEMIC, K.COLON):
            last_sep = i
            if t.kind in (K.COLON, K.SEMIC):
                colon = True if t.kind == K.COLON else colon
    return between[last_sep + 1:], colon


def _title_of(an: Analysis, between: list):
    for t in between:
        if t.kind == K.STRING:
            from ..syntax.ast import single_quoted_value
            return single_quoted_value(t.text)
        if t.kind == K.STRING_TEXT:
            return t.text
        if t.kind == K.COLON:
            break
    return None


def _variables(an: Analysis, offset: int, typed: str, edit_start: int) -> list:
    out = []
    bare = typed.lstrip(":")
    lead = "::" if typed.startswith(":") else ""
    if "::" in bare:
        cls = bare.rpartition("::")[0]
        for t in lookup.find(an, "class", cls):
            names = list(t.params)
            if t.path is None:
                named = [n for n in an.model.named if n.kind == "class" and n.name.lstrip(":").lower() == cls.lower()]
                if named and named[0].scope is not None:
                    names = list(named[0].scope.variables)
            else:
                for e in an.env.lookup("class", cls.lower()):
                    names = sorted(set(names) | set(e.variables))
            prefix = lead + cls + "::"
            for n in names:
                out.append(CompletionItem(prefix + n, "variable", f"variable of class {t.name}",
                                          edit_start=edit_start, sort_text="0" + n))
            break
        # '$postgresql::s': the variables of the classes whose names go on that way
        out += _qualified_variables(an, lead, bare.lower(), edit_start, "1")
        return out
    stem = bare.rstrip(":").lower()
    if stem or lead:
        # '$etc' in the etcd module: its own and its dependencies' classes' variables
        for module, tier in sorted(_near_modules(an).items(), key=lambda mt: mt[1]):
            if module.startswith(stem):
                out += _qualified_variables(an, lead, module, edit_start, "3" + tier, module=module)
    qualified = len(out)
    visible = an.model.visible_variables(offset)
    for name, d in sorted(visible.items()):
        if d.offset > offset:
            continue          # assigned later: it would still be undef here
        if d.kind == "variable" and d.node.offset <= offset <= d.node.end:
            continue          # the assignment being written
        if d.offset <= offset <= d.end:
            continue          # the variable being typed itself
        t = an.definition_type(d)
        from ..types.format import type_to_string
        detail = f"{d.kind.replace('_', ' ')}: {type_to_string(t)}"
        out.append(CompletionItem(name, "variable", detail, edit_start=edit_start, sort_text="0" + name))
    for name, doc in BUILTIN_VARIABLES.items():
        if name not in visible:
            out.append(CompletionItem(name, "variable", "built-in variable", doc, edit_start=edit_start,
                                      sort_text="1" + name))
    if lead:
        for it in out[qualified:]:
            it.label = "::" + it.label
        # the facts this file already reads first, then the custom facts of the current module
        # and its dependencies, then the rest
        used = {a or b for a, b in _TOP_FACT_USE.findall(an.result.text)}
        near = _near_modules(an)
        for f in sorted(CORE_FACTS):
            out.append(CompletionItem("::" + f, "variable", "fact", edit_start=edit_start,
                                      sort_text="2" + ("0" if f in used else "3") + f))
        for f in an.env.names("fact"):
            if f not in CORE_FACTS:
                origin = _fact_origin(an, f)
                tier = "0" if f in used else "1" if origin.strip(" ()") in near else "2"
                out.append(CompletionItem("::" + f, "variable", "custom fact" + origin,
                                          edit_start=edit_start, sort_text="2" + tier + f))
    return out


# $::fact and $facts['fact'] as written in a file
_TOP_FACT_USE = re.compile(r"\$\{?(?:::([a-z]\w*)\b(?!::)|(?:::)?facts\[\s*['\"](\w+))")
_QUALIFIED_USE = re.compile(r"\$\{?(?:::)?((?:[a-z]\w*::)+)[a-z_]\w*")


# More classes than this matching a typed prefix are not expanded into their variables.
_MAX_CLASSES = 200


def _qualified_variables(an: Analysis, lead: str, typed_class: str, edit_start: int, rank: str,
                         module: str = "") -> list:
    """``$cls::var`` for every indexed class whose name starts with ``typed_class`` (of
    ``module`` only, when given), the current module's and its dependencies' first."""
    # offered for a bare '$ap', a class of this file is left out: its variables are read unqualified
    here = {n.name.lstrip(":").lower() for n in an.model.named if n.kind == "class"} if module else set()
    classes = [c for c in an.env.names("class") if (c + "::").startswith(typed_class) and c not in here
               and (not module or c == module or c.startswith(module + "::"))][:_MAX_CLASSES]
    near = _near_modules(an)
    # classes whose variables this file already reads, or that its classes inherit, first
    seen = {m.rstrip(":").lstrip(":").lower() for m in _QUALIFIED_USE.findall(an.result.text)}
    seen |= {n.scope.parent_class.lstrip(":").lower() for n in an.model.named
             if n.kind == "class" and n.scope is not None and n.scope.parent_class}
    out = []
    for c in classes:
        tier = "0" if c in seen else "1" + near.get(c.split("::", 1)[0], "2")
        names: set = set()
        for e in an.env.lookup("class", c):
            names |= set(e.variables) | {p.name for p in e.params}
        for n in sorted(names):
            label = f"{lead}{c}::{n}"
            out.append(CompletionItem(label, "variable", f"variable of class {c}", edit_start=edit_start,
                                      sort_text=rank + tier + label.lstrip(":")))
    return out


@lru_cache(maxsize=2)
def _use_counts(env, generation: int) -> dict:
    """{class name: how many indexed files declare it} (``generation`` changes with the
    index, so a stale count is never used)."""
    counts: dict = {}
    for f in getattr(env, "files", {}).values():
        for name in {n for k, n, _s, _e in f.uses if k == "class"}:
            counts[name] = counts.get(name, 0) + 1
    return counts


def _own_module(an: Analysis) -> str:
    """The module of the analysed file, read from the first class or defined type it defines."""
    for n in an.model.named:
        if n.kind == "class" or (n.kind == "define" and "::" in n.name.lstrip(":")):
            return n.name.lstrip(":").split("::", 1)[0].lower()
    return ""


def _near_modules(an: Analysis) -> dict:
    """{module: tier}: "0" for the current module, "1" for the modules its metadata.json
    depends on (``puppetlabs/stdlib`` is ``stdlib``)."""
    own = _own_module(an)
    if not own:
        return {}
    out = {own: "0"}
    meta = getattr(an.env, "module_meta", {}).get(own) or {}
    deps = meta.get("dependencies") if isinstance(meta, dict) else None
    for d in deps if isinstance(deps, list) else []:
        name = d.get("name") if isinstance(d, dict) else None
        if isinstance(name, str) and name:
            out.setdefault(name.replace("-", "/").split("/")[-1].lower(), "1")
    return out


def _fact_origin(an: Analysis, name: str) -> str:
    """" (module)" of the module whose lib/facter or facts.d adds a custom fact, when known."""
    for e in an.env.lookup("fact", name):
        entry = getattr(an.env, "files", {}).get(e.path)
        if entry is not None and entry.module:
            return f" ({entry.module})"
    return ""


def _fact_keys(an: Analysis, path: list, quote: str, typed: str, offset: int) -> list:
    """The keys of ``$facts`` (or of the structured fact at ``path``) that Facter's schema
    names, and at the top the workspace's custom and external facts, quoted when the quote is
    not typed yet."""
    out = []
    if not path:
        known = {f.name for f in facts.children([])}
        for name in an.env.names("fact"):
            if name in known or not name.startswith(typed):
                continue
            insert = name if quote else f"'{name}'"
            out.append(CompletionItem(name, "fact", "custom fact" + _fact_origin(an, name), "", insert,
                                      edit_start=offset - len(typed), sort_text="1" + name, filter_text=name))
    for f in facts.children(path):
        if not f.name.startswith(typed):
            continue
        insert = f.name if quote else f"'{f.name}'"
        detail = f"{'legacy ' if f.legacy else ''}fact: {f.type}"
        out.append(CompletionItem(f.name, "fact", detail, f.description, insert, edit_start=offset - len(typed),
                                  sort_text=("2" if f.legacy else "0") + f.name, filter_text=f.name))
    return out


def _classes(an: Analysis, typed: str, edit_start: int) -> list:
    names = {n.name.lstrip(":") for n in an.model.named if n.kind == "class"}
    names |= set(an.env.names("class"))
    prefix = "::" if typed.startswith(":") else ""
    near = _near_modules(an)
    own = {n.name.lstrip(":") for n in an.model.named if n.kind == "class"}
    counts = _use_counts(an.env, getattr(an.env, "generation", 0))
    out = []
    for n in sorted(names):
        # the current module's classes first, then its dependencies' (metadata.json), then
        # the rest; a class of this very file last (a class seldom includes itself)
        tier = "3" if n in own else near.get(n.split("::", 1)[0], "2")
        # within a tier, the classes the workspace declares most often first
        used = min(counts.get(n.lower(), 0), 99999)
        out.append(CompletionItem(prefix + n, "class", "class", edit_start=edit_start,
                                  sort_text=f"{tier}{99999 - used:05d}{n}", later=partial(_class_doc, an, n)))
    return out


def _class_doc(an: Analysis, name: str) -> str:
    found = lookup.find(an, "class", name)
    return found[0].doc if found else ""


def _types(an: Analysis, start: int, refs_first: bool = False) -> list:
    """Data types, type aliases and resource references; ``refs_first`` where a value is
    expected, so that ``Fil`` offers ``File`` before any data type."""
    out = []
    ref_rank = "0" if refs_first else "2"
    for name, info in CATALOGUE.items():
        snippet = TYPE_SNIPPETS.get(name, "") if info.parameterized else ""
        out.append(CompletionItem(name, "type", info.signature, info.doc, name, snippet, start,
                                  sort_text=("1" if refs_first and name != "Class" else "0") + name))
    seen = set(CATALOGUE)
    for n in an.model.named:
        if n.kind == "type_alias" and n.name not in seen:
            seen.add(n.name)
            out.append(CompletionItem(n.name, "type", "type alias", edit_start=start, sort_text="1" + n.name))
    for name in an.env.names("type_alias"):
        if name not in seen:
            seen.add(name)
            e = an.env.lookup("type_alias", name)
            out.append(CompletionItem(name, "type", e[0].signature[:120] if e else "type alias",
                                      e[0].doc if e else "", edit_start=start, sort_text="1" + name))
    out += bolt_items.type_items(an, start, seen, CompletionItem)
    res_names = set(BUILTIN_RESOURCE_TYPES) | set(an.env.names("define")) | set(an.env.names("resource_type"))
    res_names |= {n.name.lstrip(":").lower() for n in an.model.named if n.kind == "define"}
    for low in sorted(res_names):
        cap = "::".join(p[:1].upper() + p[1:] for p in low.split("::"))
        if cap in seen:
            continue
        seen.add(cap)
        out.append(CompletionItem(cap, "resource_type", "resource type reference", edit_start=start,
                                  snippet=f"{cap}[${{1:'title'}}]", insert_text=cap, sort_text=ref_rank + cap))
    return out


def _attributes(an: Analysis, type_name: str, start: int, class_title=None) -> list:
    out = []
    low = type_name.lstrip(":").lower()
    params: dict = {}
    if low == "class":
        if isinstance(class_title, str):
            ts = lookup.find(an, "class", class_title)
            if ts:
                params = {k: (f"{v[0]} " if v[0] else "") + "parameter" + (f" = {v[1]}" if v[1] else "")
                          for k, v in ts[0].params.items()}
                docs = {k: v[2] for k, v in ts[0].params.items()}
            else:
                docs = {}
        else:
            docs = {}
    elif (info := resource_type(low)) is not None:
        params = {a.name: a.kind for a in info.attributes.values()}
        docs = {a.name: a.doc for a in info.attributes.values()}
    else:
        t = lookup.resource_type_target(an, low)
        docs = {}
        if t is not None:
            for k, v in t.params.items():
                params[k] = ((f"{v[0]} " if v[0] else "") + "parameter" + (f" = {v[1]}" if v[1] else "")) \
                    if t.kind != "resource_type" else "attribute"
                docs[k] = v[2]
    width = max((len(n) for n in params), default=0)
    for name, detail in params.items():
        values = lookup.attribute_values(an, low, name) if low != "class" else []
        snippet = f"{name}{' ' * (width - len(name))} => ${{1}}," if not values else \
            f"{name}{' ' * (width - len(name))} => ${{1|{','.join(values)}|}},"
        out.append(CompletionItem(name, "attribute", detail, docs.get(name, ""), f"{name} => ", snippet, start,
                                  sort_text=("0" if name == "ensure" else "1") + name))
    for name, a in metaparameters().items():
        if name not in params:
            out.append(CompletionItem(name, "attribute", "metaparameter", a.doc, f"{name} => ",
                                      f"{name} => ${{1}},", start, sort_text="3" + name))
    return out


def _attribute_values(an: Analysis, type_name: str, attr: str, start: int, class_title=None) -> list:
    if not attr:
        return []
    values = lookup.attribute_values(an, type_name, attr)
    # Values Puppet names for its own types are bare words; a defined type's Enum values are
    # strings and are inserted quoted.
    bare = resource_type(type_name) is not None or attr in metaparameters()
    out = []
    for v in values:
        text = v if bare or v in ("true", "false") else "'" + v.replace("'", "\\'") + "'"
        out.append(CompletionItem(text, "value", f"value of {attr}", insert_text=text, edit_start=start,
                                  sort_text="0" + v))
    return out


def _functions(an: Analysis, start: int, method: bool = False) -> list:
    out = []
    seen = set()
    for n in an.model.named:
        if n.kind == "function":
            name = n.name.lstrip(":")
            seen.add(name)
            t = lookup.find(an, "function", name)
            out.append(CompletionItem(name, "function", t[0].signature if t else "", t[0].doc if t else "",
                                      name, f"{name}(${{1}})" if not method else f"{name}", start, sort_text="1" + name))
    for name, detail, doc in builtin_function_summaries():
        if name in seen or name in ("break", "next", "return", "import") and method:
            continue
        seen.add(name)
        snippet = f"{name}(${{1}})" if not method else name
        out.append(CompletionItem(name, "function", detail, doc, name, snippet, start, sort_text="2" + name))
    out += bolt_items.function_items(an, start, seen, method, CompletionItem)
    for name in an.env.names("function"):
        if name in seen:
            continue
        seen.add(name)
        e = an.env.lookup("function", name)
        detail = e[0].signature.split("\n")[0] if e else ""
        out.append(CompletionItem(name, "function", detail, e[0].doc if e else "", name,
                                  f"{name}(${{1}})" if not method else name, start, sort_text="3" + name))
    return out


@lru_cache(maxsize=1)
def builtin_function_summaries() -> tuple:
    """(name, signature, doc) of every built-in function; Puppet's library does not change
    while the server runs, so this is computed once (the server warms it at start-up)."""
    out = []
    for name in builtin_function_names():
        sigs = builtin_signatures(name)
        if sigs:
            detail = sigs[0].label() + (f"  (+{len(sigs) - 1} more)" if len(sigs) > 1 else "")
        else:
            detail = f"{name}(...)"
        out.append((name, detail, builtin_doc(name)))
    return tuple(out)


def _general(an: Analysis, start: int, word: str, statements: bool = True) -> list:
    out = []
    for kw in _STATEMENT_KEYWORDS:
        out.append(CompletionItem(kw, "keyword", "keyword", KEYWORD_DOCS.get(kw, ""), kw,
                                  _KEYWORD_SNIPPETS.get(kw, "") if statements else "", start, sort_text="4" + kw))
    out += _functions(an, start)
    if statements:
        names = set(resource_types()) | (set(BUILTIN_RESOURCE_TYPES) - {"component", "whit"})
        names |= set(an.env.names("define")) | set(an.env.names("resource_type"))
        names |= {n.name.lstrip(":").lower() for n in an.model.named if n.kind == "define"}
        names.discard("component")
        names.discard("whit")
        for name in sorted(names):
            t = resource_type(name)
            out.append(CompletionItem(name, "resource_type", "resource type", t.doc if t else "", name,
                                      f"{name} {{ ${{1:'title'}}:\n\t$0\n}}", start, sort_text="5" + name))
    return out
