"""Hiera data text (YAML or JSON) to plain values that remember where each top-level key is.

PyYAML's composer builds the node tree with marks (code-point offsets into the text); values
are built from the nodes here, the way Ruby's Psych ``safe_load`` (what Puppet uses) would
build them: YAML 1.1 scalars (``yes``/``no`` are booleans, ``0755`` is octal), a timestamp
kept as its text.  An ``ENC[...]`` string of an eyaml file becomes :class:`Encrypted` and is
never decrypted.  Reading never raises: broken text gives an empty hash and a positioned
diagnostic.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from ..diagnostics import Diagnostic


@dataclass(frozen=True, slots=True)
class Encrypted:
    """An eyaml value (``ENC[PKCS7,...]``): shown as encrypted, never decrypted."""
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(slots=True)
class DataFile:
    """One data file: its values, the spans of its top-level keys and their values, problems."""
    path: str
    data: dict = field(default_factory=dict)
    key_spans: dict = field(default_factory=dict)     # key -> (offset, end) of the key
    value_spans: dict = field(default_factory=dict)   # key -> (offset, end) of its value
    diagnostics: list = field(default_factory=list)
    ok: bool = True                                   # False when the text could not be read
    interpolated: list = field(default_factory=list)  # (offset, end, value) of each scalar holding '%{'
    text: str = ""


_CONSTRUCTOR = yaml.SafeLoader("")   # only its scalar constructors are used, never its reader


def _scalar(node: yaml.ScalarNode, eyaml: bool) -> Any:
    tag = node.tag
    if tag == "tag:yaml.org,2002:str" or tag == "!" or not tag.startswith("tag:yaml.org,2002:"):
        if eyaml and node.value.startswith("ENC[") and node.value.rstrip().endswith("]"):
            return Encrypted(node.value)
        return node.value
    if tag == "tag:yaml.org,2002:timestamp":
        return node.value
    try:
        return _CONSTRUCTOR.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, TypeError):
        return node.value


def node_value(node: yaml.Node, eyaml: bool = False, depth: int = 0) -> Any:
    """The plain value of a composed node (anchors shared, cycles and depth cut off)."""
    if depth > 200:
        return None
    if isinstance(node, yaml.ScalarNode):
        return _scalar(node, eyaml)
    if isinstance(node, yaml.SequenceNode):
        return [node_value(n, eyaml, depth + 1) for n in node.value]
    if isinstance(node, yaml.MappingNode):
        out: dict = {}
        for k, v in _pairs(node):
            key = node_value(k, eyaml, depth + 1)
            try:
                out[key] = node_value(v, eyaml, depth + 1)
            except TypeError:           # an unhashable key (a list or hash as key)
                out[str(key)] = node_value(v, eyaml, depth + 1)
        return out
    return None


def _pairs(node: yaml.MappingNode) -> list:
    """The key/value node pairs of a mapping, with ``<<`` merge keys expanded (Psych does)."""
    pairs: list = []
    for k, v in node.value:
        if k.tag == "tag:yaml.org,2002:merge":
            merged = [v] if isinstance(v, yaml.MappingNode) else [
                n for n in getattr(v, "value", []) if isinstance(n, yaml.MappingNode)]
            for m in merged:
                pairs.extend(_pairs(m))
        else:
            pairs.append((k, v))
    return pairs


def _collect_interpolated(node: yaml.Node, out: list) -> None:
    stack = [node]
    seen: set = set()
    while stack:
        n = stack.pop()
        if id(n) in seen:       # an anchor used twice is one node
            continue
        seen.add(id(n))
        if isinstance(n, yaml.ScalarNode):
            if "%{" in n.value:
                out.append((n.start_mark.index, n.end_mark.index, n.value))
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(reversed(n.value))
        elif isinstance(n, yaml.MappingNode):
            for k, v in reversed(n.value):
                stack.extend((v, k))
    out.sort()


def compose(text: str) -> tuple[yaml.Node | None, Diagnostic | None]:
    """The root node of ``text`` (``None`` for an empty document), or the positioned error."""
    try:
        return yaml.compose(text, Loader=yaml.SafeLoader), None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        # Reaching the end of the text inside a construct (an unclosed quote or bracket) is
        # best shown where the construct began.
        if e.context_mark is not None and mark is not None and mark.index >= len(text.rstrip()):
            mark = e.context_mark
        offset = mark.index if mark is not None else 0
        problem = e.problem or e.context or "invalid YAML"
        if e.context and e.problem:
            problem = f"{e.problem} ({e.context})"
        return None, Diagnostic.of("HIERA_YAML_SYNTAX", offset, min(len(text), offset + 1), problem=problem)
    except yaml.YAMLError as e:    # a reader error (a control character) without a mark
        return None, Diagnostic.of("HIERA_YAML_SYNTAX", 0, 0, problem=str(e).splitlines()[0])
    except RecursionError:
        return None, Diagnostic.of("HIERA_YAML_SYNTAX", 0, 0, problem="nested too deeply")


def kind_of(node: yaml.Node | None) -> str:
    if isinstance(node, yaml.SequenceNode):
        return "an array"
    if isinstance(node, yaml.ScalarNode):
        return "a single value"
    return "nothing"


def read_data(path: str, text: str, eyaml: bool = False) -> DataFile:
    """Read one data file; JSON is read by the same YAML reader (JSON is YAML), with JSON's
    code for its errors."""
    result = DataFile(path, text=text)
    node, err = compose(text)
    if err is not None:
        if path.endswith(".json"):
            err = Diagnostic.of("HIERA_JSON_SYNTAX", err.offset, err.end,
                                problem=err.message.split(": ", 1)[-1])
        result.diagnostics.append(err)
        result.ok = False
        return result
    if node is None:        # an empty file is an empty hash
        return result
    if not isinstance(node, yaml.MappingNode):
        result.diagnostics.append(Diagnostic.of(
            "HIERA_DATA_NOT_HASH", node.start_mark.index, node.end_mark.index, kind=kind_of(node)))
        result.ok = False
        return result
    _collect_interpolated(node, result.interpolated)
    for k, v in _pairs(node):
        key = node_value(k, eyaml)
        try:
            result.data[key] = node_value(v, eyaml)
        except TypeError:
            key = str(key)
            result.data[key] = node_value(v, eyaml)
        result.key_spans[key] = (k.start_mark.index, k.end_mark.index)
        result.value_spans[key] = (v.start_mark.index, v.end_mark.index)
    return result
