"""Hiera in the editor, as plain data: the lookup key or class parameter under the cursor in
Puppet code, the hover text of a lookup (the value at each hierarchy level and the merged
result), and the findings and completions of a Hiera data file against the classes of the
workspace (automatic parameter lookup binds ``<class>::<param>``)."""
from __future__ import annotations

import difflib
import json
import posixpath
import re
from dataclasses import dataclass
from typing import Any

import yaml

from ..check.analysis import has_unresolved
from ..check.env import Environment
from ..diagnostics import Diagnostic
from ..messages import render
from ..syntax import kinds as K
from ..syntax.ast import ClassDef, Param
from ..syntax.parser import ParseResult
from ..types.algebra import generalize, infer_set
from ..types.errors import TypeSystemError
from ..types.format import format_value, type_to_string
from ..types.relations import is_instance
from .interpolate import interpolation_problems
from .lookup import LookupResult
from .yamldata import DataFile, Encrypted, compose

# Functions whose first argument is a Hiera key.
LOOKUP_FUNCTIONS = ("lookup", "hiera", "hiera_array", "hiera_hash", "hiera_include")
_CALL_BEFORE = re.compile(r"\b(?:" + "|".join(LOOKUP_FUNCTIONS) + r")\s*\(\s*(?:\[\s*(?:(['\"])[^'\"]*\1\s*,\s*)*)?$")
_KEY_LINE = re.compile(r"^([A-Za-z0-9_:\"'.-]*)$")


@dataclass(frozen=True, slots=True)
class KeyAt:
    key: str
    start: int          # the key's text (inside the quotes)
    end: int
    complete: bool      # the closing quote is there


def lookup_key_at(text: str, offset: int) -> KeyAt | None:
    """The key of a ``lookup('...')`` (or ``hiera*``) string that contains ``offset``."""
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    line = text[line_start: len(text) if line_end < 0 else line_end]
    col = offset - line_start
    for m in re.finditer(r"'([^'\\\n]*)('?)|\"([^\"\\$\n]*)(\"?)", line):
        if m.start() < col <= m.end() - (1 if (m.group(2) or m.group(4)) else 0) or (
                m.start() < col == m.end() and not (m.group(2) or m.group(4))):
            if not _CALL_BEFORE.search(line[:m.start()]):
                return None
            key = m.group(1) if m.group(1) is not None else (m.group(3) or "")
            return KeyAt(key, line_start + m.start() + 1, line_start + m.start() + 1 + len(key),
                         bool(m.group(2) or m.group(4)))
    return None


def class_param_at(result: ParseResult, offset: int) -> tuple | None:
    """(class name, parameter name, start, end) when ``offset`` is on a class parameter's
    name where it is declared (automatic parameter lookup binds ``<class>::<param>``)."""
    tok = result.root.token_at(offset)
    if tok is None or tok.kind != K.VARIABLE:
        return None
    param = tok.parent
    if param is None or param.kind != K.PARAM or param.parent is None or param.parent.kind != K.PARAM_LIST:
        return None
    owner = param.parent.parent
    if owner is None or owner.kind != K.CLASS_DEF:
        return None
    name = Param(param).name
    return ClassDef(owner).qualified_name.lower(), name, tok.offset, tok.end


def show(value: Any) -> str:
    """A found value as the hover shows it (JSON-like; encrypted values are not shown)."""
    if isinstance(value, Encrypted):
        return "(encrypted eyaml value)"
    return json.dumps(value, default=lambda v: "(encrypted eyaml value)" if isinstance(v, Encrypted) else str(v),
                      ensure_ascii=False)


def _merge_text(merge: Any) -> str:
    if merge is None:
        return "first found"
    if isinstance(merge, dict):
        opts = ", ".join(f"{k}: {json.dumps(v)}" for k, v in merge.items() if k != "strategy")
        return f"{merge.get('strategy', 'first')}" + (f" ({opts})" if opts else "")
    return str(merge)


def hover_markdown(result: LookupResult, root: str = "", facts_label: str = "") -> str:
    """The value of a lookup at each level that has the key, and the merged result."""
    head = f"**Hiera** `{result.key}`"
    if facts_label:
        head += f" for {facts_label}"
    lines = [head, ""]
    if result.error:
        lines.append(f"Lookup fails: {result.error}")
    elif result.found:
        src = " (from lookup_options)" if result.merge_source else ""
        lines.append(f"Result ({_merge_text(result.merge)}{src}):")
        lines += ["```json", show(result.value), "```"]
        if result.converted_to:
            lines.append(f"converted to `{result.converted_to[0]}`")
    else:
        lines.append("Not found in any hierarchy level.")
    found = [s for s in result.trail if s.found]
    if found:
        lines += ["", "| level | file | value |", "|---|---|---|"]
        for s in found:
            path = posixpath.relpath(s.path, root) if root and s.path.startswith(root) else s.path
            value = show(s.value).replace("|", "\\|")
            if len(value) > 120:
                value = value[:117] + "..."
            lines.append(f"| {s.layer}: {s.level} | `{path}` | `{value}` |")
    return "\n".join(lines)


# ---- data files --------------------------------------------------------------------------------

def _value_type_text(v: Any) -> str:
    try:
        t = infer_set(v)
        text = type_to_string(generalize(t) if isinstance(v, (list, dict)) else t)
        if isinstance(v, (str, int, float)) and not isinstance(v, bool) and len(format_value(v)) < 40:
            return f"{text} ({format_value(v)})"
        return text
    except (ValueError, RecursionError, TypeError):
        return "a value"


def _param_type(env: Environment, type_text: str) -> Any:
    from ..types.build import build_type
    from ..types.from_ast import type_call_from_text
    call = type_call_from_text(type_text)
    if call is None:
        return None
    try:
        return build_type(call, env.alias_scope(), None)
    except (TypeSystemError, RecursionError):   # an unbuildable type: no finding
        return None


def _is_data(v: Any) -> bool:
    if isinstance(v, (list,)):
        return all(_is_data(e) for e in v)
    if isinstance(v, dict):
        return all(isinstance(k, str) and _is_data(e) for k, e in v.items())
    return v is None or isinstance(v, (str, int, float, bool))


def interpolation_diagnostics(df: DataFile) -> list:
    """Interpolations that cannot work, each at its ``%{...}`` in the text when it is written
    there as it is (else on the whole string)."""
    out = []
    for start, end, value in df.interpolated:
        raw = df.text[start:end]
        for s_, e_, code, args in interpolation_problems(value):
            at = raw.find(value[s_:e_])
            span = (start + at, start + at + e_ - s_) if at >= 0 else (start, end)
            out.append(Diagnostic.of(code, *span, **args))
    return out


def _not_judged(key: str, options: dict) -> bool:
    """Does ``lookup_options`` convert the key's value (``convert_to``) or merge it (one file
    then holds only a part of the value the parameter gets)?"""
    def applies(v: Any) -> bool:
        return isinstance(v, dict) and ("convert_to" in v or v.get("merge") not in (None, "first"))
    if key in options:
        return applies(options[key])
    for k, v in options.items():
        if isinstance(k, str) and k.startswith("^"):
            try:
                if re.search(k, key):
                    return applies(v)
            except re.error:
                continue
    return False


def data_diagnostics(df: DataFile, env: Environment, lookup_options: dict | None = None) -> list:
    """The findings of one data file: its reading problems, then each ``<class>::<param>``
    key whose class is indexed but has no such parameter (with a did-you-mean), and each
    value whose type does not match the parameter's (interpolated values, and values that
    ``lookup_options`` convert or merge, are not judged)."""
    out = list(df.diagnostics)
    out += interpolation_diagnostics(df)
    for key, (start, end) in df.key_spans.items():
        if not isinstance(key, str) or "::" not in key or key == "lookup_options":
            continue
        cls, _, param = key.rpartition("::")
        entities = env.lookup("class", cls.lower())
        if not entities:
            continue
        ent = entities[0]
        params = {p.name: p for p in ent.params}
        if param not in params:
            close = difflib.get_close_matches(param, list(params), n=1, cutoff=0.6)
            if close:   # most likely a typo of a parameter: the value is silently unused
                out.append(Diagnostic.of("HIERA_UNKNOWN_CLASS_PARAMETER", start, end, key=key, cls=cls, param=param,
                                         suggestion=render("HIERA_DID_YOU_MEAN", name=f"{cls}::{close[0]}")))
            else:       # keys of a class read by an explicit lookup() are common
                out.append(Diagnostic.of("HIERA_UNBOUND_CLASS_KEY", start, end, key=key, cls=cls))
            continue
        value = df.data.get(key)
        p = params[param]
        if (not p.type_text or not _is_data(value) or _has_interpolation(value)
                or _not_judged(key, lookup_options or {})):
            continue
        ptype = _param_type(env, p.type_text)
        if ptype is None or has_unresolved(ptype):
            continue
        try:
            ok = is_instance(ptype, value)
        except (TypeSystemError, RecursionError):   # a type it cannot decide: no finding
            ok = True
        if not ok:
            vs, ve = df.value_spans.get(key, (start, end))
            out.append(Diagnostic.of("HIERA_VALUE_TYPE_MISMATCH", vs, ve, key=key, param=param, cls=cls,
                                     expected=p.type_text, actual=_value_type_text(value)))
    return sorted(out, key=lambda d: (d.offset, d.end))


def _has_interpolation(v: Any) -> bool:
    if isinstance(v, str):
        return "%{" in v
    if isinstance(v, list):
        return any(_has_interpolation(e) for e in v)
    if isinstance(v, dict):
        return any(_has_interpolation(k) or _has_interpolation(e) for k, e in v.items())
    return False


_TOP_KEY = re.compile(r"""^(["']?)([A-Za-z0-9_:]+)\1\s*:""")


def data_key_at(text: str, offset: int) -> tuple | None:
    """(key, start, end) of the top-level key of a data file under ``offset``."""
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    m = _TOP_KEY.match(text[line_start: len(text) if line_end < 0 else line_end])
    if m is None:
        return None
    start = line_start + m.start(2)
    end = line_start + m.end(2)
    return (m.group(2), start, end) if start <= offset <= end else None


def data_key_hover(text: str, offset: int, env: Environment) -> tuple | None:
    """(markdown, start, end) for a ``<class>::<param>`` key: the parameter it binds, with its
    type, default and documentation."""
    at = data_key_at(text, offset)
    if at is None or "::" not in at[0]:
        return None
    key, start, end = at
    cls, _, param = key.rpartition("::")
    ents = env.lookup("class", cls.lower())
    if not ents:
        return None
    ent = ents[0]
    p = next((p for p in ent.params if p.name == param), None)
    if p is None:
        return None
    sig = f"{p.type_text + ' ' if p.type_text else ''}${p.name}" + (f" = {p.default_text}" if p.default_text else "")
    lines = [f"Binds parameter `${p.name}` of class `{ent.name}` (automatic parameter lookup)",
             "", "```puppet", sig, "```"]
    doc = (ent.extra.get("param_docs") or {}).get(p.name) if isinstance(ent.extra, dict) else None
    if doc:
        lines += ["", str(doc)]
    return "\n".join(lines), start, end


@dataclass(frozen=True, slots=True)
class KeyCompletion:
    label: str
    detail: str
    documentation: str
    start: int
    end: int


def data_key_completions(text: str, offset: int, env: Environment) -> list:
    """At the start of a top-level key in a data file: ``<class>::<param>`` for every
    parameter of every indexed class whose name starts with what is typed."""
    line_start = text.rfind("\n", 0, offset) + 1
    typed = text[line_start:offset]
    m = _KEY_LINE.match(typed)
    if m is None:
        return []
    prefix = typed.strip("\"'")
    out = []
    for name in env.names("class"):
        ents = env.lookup("class", name)
        if not ents:
            continue
        ent = ents[0]
        for p in ent.params:
            label = f"{ent.name}::{p.name}"
            if label.startswith(prefix):
                detail = f"{p.type_text or 'Any'} ${p.name}" + (" (has a default)" if p.has_default else " (required)")
                out.append(KeyCompletion(label, detail, ent.doc or "", line_start, offset))
    return sorted(out, key=lambda c: c.label)


_CLASS_NAME = re.compile(r"(?:::)?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*")


def class_links(text: str) -> list:
    """(start, end, class name) of each class named in a data file's ``classes`` array (a
    top-level key ``classes`` or ``<prefix>::classes``, the list a ``lookup('classes', …)
    .include`` declares): what the editor links to the class's manifest."""
    root, _ = compose(text)
    if not isinstance(root, yaml.MappingNode):
        return []
    out = []
    for k, v in root.value:
        if not (isinstance(k, yaml.ScalarNode) and (k.value == "classes" or k.value.endswith("::classes"))):
            continue
        for item in v.value if isinstance(v, yaml.SequenceNode) else []:
            if not isinstance(item, yaml.ScalarNode) or item.tag != "tag:yaml.org,2002:str":
                continue
            start, end = item.start_mark.index, item.end_mark.index
            if text[start:start + 1] in ("'", '"'):
                start, end = start + 1, end - 1
            name = item.value
            if _CLASS_NAME.fullmatch(name) and text[start:end] == name:
                out.append((start, end, name.lstrip(":")))
    return out
