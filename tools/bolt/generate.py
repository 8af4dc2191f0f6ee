"""Write language/knowledge/bolt.json from a Bolt source checkout.

Bolt is a Ruby gem that cannot be installed here, so its knowledge is read from its sources, as
text (nothing is executed):

* every plan function: ``bolt-modules/*/lib/puppet/functions/**/*.rb``: the function's name
  (``create_function(:name)`` / ``(:'ns::name')``), the comment above it (the doc, its first
  sentence the summary) and each ``dispatch`` block (``param``/``required_param``,
  ``optional_param``, ``repeated_param``, ``required_repeated_param``, ``block_param``,
  ``optional_block_param``, ``required_block_param``, ``return_type``; ``scope_param`` is
  Puppet's and invisible to callers) with the ``@param``/``@return`` tags of the comment above it;
* every data type Bolt defines in Ruby: ``bolt-modules/*/lib/puppet/datatypes/*.rb``
  (``create_type('Name')`` and its ``interface`` text: attributes and functions);
* every type alias of ``bolt-modules/*/types/*.pp`` (``type Boltlib::X = ...`` and its comment);
* the global aliases Bolt's PAL declares (``lib/bolt/pal.rb``: ``type TargetSpec =
  Boltlib::TargetSpec``).

The output is data only (names, signatures, doc text), in a stable order:

    {"bolt": SOURCE, "generated_by": ..., "functions": [...], "types": [...]}

Run it again against a newer checkout:

    python3 tools/bolt/generate.py /path/to/bolt [--source "puppetlabs/bolt <commit>"]
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "language" / "knowledge" / "bolt.json"

_CREATE_FUNCTION = re.compile(r"create_function\(\s*:'?([\w:]+)'?")
_CREATE_TYPE = re.compile(r"create_type\(\s*'(\w+)'")
_DISPATCH = re.compile(r"^\s*dispatch\s+:(\w+)\s+do\s*$")
_PARAM = re.compile(r"^\s*(param|required_param|optional_param|repeated_param|required_repeated_param|"
                    r"block_param|optional_block_param|required_block_param)\b\s*(?:'([^']*)'\s*,\s*:(\w+))?")
_RETURN = re.compile(r"^\s*return_type\s+'([^']*)'")
_ALIAS = re.compile(r"^type\s+([\w:]+)\s*=\s*(.*)", re.DOTALL)
_EVAL_ALIAS = re.compile(r"evaluate_string\('type\s+(\w+)\s*=\s*([\w:]+)'\)")
_KINDS = {"param": "required", "required_param": "required", "optional_param": "optional",
          "repeated_param": "repeated", "required_repeated_param": "required_repeated"}


def _comment_block(lines: list[str], end: int) -> list[str]:
    """The ``#`` comment lines directly above line ``end`` (markers removed, Ruby's frozen-string
    pragma and rubocop switches left out)."""
    out: list[str] = []
    i = end - 1
    while i >= 0 and lines[i].lstrip().startswith("#"):
        text = lines[i].lstrip()[1:]
        out.append(text.removeprefix(" "))
        i -= 1
    out.reverse()
    return [t for t in out if not t.startswith(("frozen_string_literal", "rubocop:"))]


def _summary(doc: str) -> str:
    first = doc.strip().split("\n\n", 1)[0]
    first = " ".join(first.split())
    m = re.match(r"(.+?\.)(\s|$)", first)
    return m.group(1) if m else first


def _tags(comment: list[str]) -> tuple[str, dict, str]:
    """(description, {param: text}, return text) of a dispatch's comment."""
    desc: list[str] = []
    params: dict[str, str] = {}
    ret = ""
    current: tuple[str, str] | None = None   # ("param", name) or ("return", "")
    for line in comment:
        s = line.strip()
        if s.startswith("@"):
            current = None
            m = re.match(r"@param\s+(\w+)\s*(.*)", s)
            if m:
                params[m.group(1)] = m.group(2)
                current = ("param", m.group(1))
            elif s.startswith("@return"):
                ret = re.sub(r"^@return\s*(\[[^\]]*\]\s*)?", "", s)
                current = ("return", "")
            continue
        if current is None:
            if not params and not ret:
                desc.append(line)
            continue
        if not s:
            current = None
        elif current[0] == "param":
            params[current[1]] += " " + s
        else:
            ret += " " + s
    return "\n".join(desc).strip(), params, ret.strip()


def _created(path: Path, pattern: re.Pattern) -> tuple[str, list[str], int, str] | None:
    """(text, lines, line index, name) of the first line of a Ruby source where ``pattern``
    (``create_function``, ``create_type``) finds the name of what the file defines; None if no line does."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = pattern.search(line)
        if m:
            return text, lines, i, m.group(1)
    return None


def read_function(path: Path) -> dict | None:
    if (found := _created(path, _CREATE_FUNCTION)) is None:
        return None
    _, lines, start, name = found
    doc = "\n".join(_comment_block(lines, start)).strip()
    signatures = []
    i = start + 1
    while i < len(lines):
        m = _DISPATCH.match(lines[i])
        if not m:
            i += 1
            continue
        description, param_docs, ret_doc = _tags(_comment_block(lines, i))
        params: list[dict] = []
        block = None
        return_type = None
        i += 1
        while i < len(lines) and lines[i].strip() != "end":
            line = lines[i]
            pm = _PARAM.match(line)
            rm = _RETURN.match(line)
            if pm:
                kind, type_text, pname = pm.group(1), pm.group(2), pm.group(3)
                if "block" in kind:
                    block = {"name": pname or "block", "type": type_text or "Callable",
                             "optional": kind == "optional_block_param"}
                else:
                    params.append({"name": pname, "type": type_text, "kind": _KINDS[kind],
                                   "doc": " ".join(param_docs.get(pname, "").split())})
            elif rm:
                return_type = rm.group(1)
            i += 1
        signatures.append({"params": params, "block": block, "return_type": return_type,
                           "description": " ".join(description.split()), "return_doc": " ".join(ret_doc.split())})
    return {"name": name, "module": path.parts[path.parts.index("bolt-modules") + 1],
            "summary": _summary(doc or (signatures[0]["description"] if signatures else "")),
            "doc": doc, "signatures": signatures}


def _interface_members(interface: str, section: str) -> list[str]:
    """The member names of the ``attributes`` or ``functions`` hash of an interface text."""
    m = re.search(section + r"\s*=>\s*\{", interface)
    if not m:
        return []
    depth, i, names = 1, m.end(), []
    start = i
    while i < len(interface) and depth:
        c = interface[i]
        if c in "{[(":
            depth += 1
        elif c in "}])":
            depth -= 1
        i += 1
    body = interface[start:i - 1]
    depth = 0
    for piece in re.finditer(r"[{}\[\]()]|(?:^|,)\s*'?([\w\[\]]+)'?\s*=>", body):
        tok = piece.group(0)
        if tok in "{[(":
            depth += 1
        elif tok in "}])":
            depth -= 1
        elif depth == 0 and piece.group(1):
            names.append(piece.group(1))
    return names


def read_datatype(path: Path) -> dict | None:
    if (found := _created(path, _CREATE_TYPE)) is None:
        return None
    text, lines, start, name = found
    doc_lines = [t for t in _comment_block(lines, start) if not t.startswith("@!method")]
    doc = "\n".join(doc_lines).strip()
    m = re.search(r"interface\s+<<-PUPPET\n(.*?)\n\s*PUPPET", text, re.DOTALL)
    interface = "\n".join(line.strip() for line in m.group(1).splitlines()) if m else ""
    return {"name": name, "kind": "object", "summary": _summary(doc) if doc else f"Bolt's {name} data type.",
            "doc": doc, "definition": interface,
            "attributes": _interface_members(interface, "attributes"),
            "functions": _interface_members(interface, "functions")}


def read_alias(path: Path) -> dict | None:
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("type ")), None)
    if start is None:
        return None
    m = _ALIAS.match("\n".join(lines[start:]))
    if not m:
        return None
    doc = "\n".join(_comment_block(lines, start)).strip()
    definition = " ".join(m.group(2).split())
    return {"name": m.group(1), "kind": "alias", "summary": _summary(doc) if doc else "",
            "doc": doc, "definition": definition}


def generate(root: Path, source: str) -> dict:
    mods = root / "bolt-modules"
    functions = [f for p in sorted(mods.glob("*/lib/puppet/functions/**/*.rb")) if (f := read_function(p))]
    types = [t for p in sorted(mods.glob("*/lib/puppet/datatypes/*.rb")) if (t := read_datatype(p))]
    aliases = [a for p in sorted(mods.glob("*/types/*.pp")) if (a := read_alias(p))]
    by_name = {a["name"]: a for a in aliases}
    pal = root / "lib" / "bolt" / "pal.rb"
    if pal.exists():
        for m in _EVAL_ALIAS.finditer(pal.read_text(encoding="utf-8")):
            target = by_name.get(m.group(2))
            aliases.append({"name": m.group(1), "kind": "alias",
                            "summary": (target or {}).get("summary", ""), "doc": (target or {}).get("doc", ""),
                            "definition": m.group(2)})
    return {"bolt": source, "generated_by": "tools/bolt/generate.py",
            "functions": sorted(functions, key=lambda f: f["name"]),
            "types": sorted(types + aliases, key=lambda t: t["name"])}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", type=Path, help="a Bolt source checkout (holds bolt-modules/)")
    ap.add_argument("--source", default="", help="what the checkout is (repository and commit or version)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    if not (args.root / "bolt-modules").is_dir():
        print(f"generate: {args.root}/bolt-modules not found", file=sys.stderr)
        return 2
    data = generate(args.root, args.source or str(args.root))
    args.out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {len(data['functions'])} functions, {len(data['types'])} types")
    return 0


if __name__ == "__main__":
    sys.exit(main())
