"""Bolt tasks in the index: a task's metadata (``tasks/<name>.json``) as an entity of kind
``task``, and its hover text.

A task ``<module>::<name>`` (``<module>`` for ``init``) is the metadata file plus the
executable it describes (a sibling ``tasks/<name>.<ext>``, or the files its
``implementations`` name).  The metadata gives each parameter a Puppet type and a description;
a parameter whose type accepts undef (``Optional[...]``, none given) or that has a default is
not required.  ``check/tasks.py`` checks ``run_task`` calls against it.
"""
from __future__ import annotations

import json

from ..check.env import Entity, ParamSig


def task_name(module: str, relpath: str) -> str:
    """``apache::reload`` for ``tasks/reload.json`` of module apache; ``apache`` for init."""
    base = relpath.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return module if base == "init" else f"{module}::{base}"


def index_task(path: str, module: str, data: dict) -> Entity:
    """The task entity a metadata file defines (``data``: the file's JSON object)."""
    name = task_name(module, path)
    raw = data.get("parameters")
    params = []
    docs = {}
    sensitive = []
    if isinstance(raw, dict):
        for pname, spec in raw.items():
            if not isinstance(pname, str):
                continue
            spec = spec if isinstance(spec, dict) else {}
            raw_type = spec.get("type")
            type_text = raw_type if isinstance(raw_type, str) else ""
            optional = not type_text or type_text.replace(" ", "").startswith(("Optional[", "Any", "Undef"))
            params.append(ParamSig(pname, type_text, optional or "default" in spec, False,
                                   json.dumps(spec["default"]) if "default" in spec else ""))
            if isinstance(spec.get("description"), str):
                docs[pname] = spec["description"]
            if spec.get("sensitive") is True:
                sensitive.append(pname)
    impls = data.get("implementations")
    files = tuple(i["name"] for i in impls if isinstance(i, dict) and isinstance(i.get("name"), str)) \
        if isinstance(impls, list) else ()
    raw_description = data.get("description")
    description = raw_description if isinstance(raw_description, str) else ""
    sig = f"task {name}(" + ", ".join(f"{p.type_text or 'Any'} ${p.name}" for p in params) + ")"
    return Entity("task", name, path, 0, 0, tuple(params), sig, description,
                  extra={"param_docs": docs, "implementations": files, "sensitive": tuple(sensitive),
                         "supports_noop": data.get("supports_noop") is True})


def task_markdown(e: Entity) -> str:
    """Hover text of a task: signature, description, parameters and where it is defined."""
    lines = [f"**{e.name}** — Bolt task", f"```puppet\n{e.signature}\n```"]
    if e.doc:
        lines.append(e.doc)
    docs = e.extra.get("param_docs", {})
    if e.params:
        lines.append("\n".join(f"* `{p.name}` `{p.type_text or 'Any'}`{'' if p.has_default else ' (required)'}"
                               + (f": {docs[p.name]}" if docs.get(p.name) else "") for p in e.params))
    impls = e.extra.get("implementations") or ()
    if impls:
        lines.append("Implementations: " + ", ".join(f"`{i}`" for i in impls))
    lines.append(f"*Bolt task, defined in* `{e.path}`")
    return "\n\n".join(lines)
