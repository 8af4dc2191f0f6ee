"""Outcomes of the shared conformance corpus' ``eval`` and ``compile`` cases, in the shape its
``check.py`` expects: ``{"value": canonical text}``, ``{"error": message, "phase": ...}`` or
``{"notices": [...], "resources": {ref: {param: canonical text}}}``.
"""
from __future__ import annotations

from typing import Any

from ..types.format import format_value
from .api import compile_catalog, evaluate, format_error, safe_parse
from .budget import Budget
from .context import Settings
from .iteration import IteratorValue
from .stringconv import object_to_s
from .runtime import ObjectValue, Deferred, Sensitive


def canonical(value: Any) -> str:
    """The corpus' canonical value text (Puppet source for the value)."""
    if isinstance(value, IteratorValue):
        return format_value(list(value))
    if isinstance(value, (ObjectValue, Deferred)):
        return object_to_s(value)
    if type(value) in (list, tuple) and any(isinstance(x, (ObjectValue, Deferred)) for x in value):
        return "[" + ", ".join(canonical(x) for x in value) + "]"
    return format_value(value)


def _settings(case: dict) -> Settings:
    s = Settings.from_dict(case.get("settings") or {})
    return s


def outcome(case: dict, budget: Budget | None = None) -> dict:
    mode = case["mode"]
    settings = _settings(case)
    if mode == "eval":
        src = case["source"]
        pr = safe_parse(src, tasks=settings.tasks)
        res = evaluate(pr, settings, budget or Budget(steps=500_000, seconds=10),
                       scope="top" if case.get("scope") == "top" else "node",
                       setup=case.get("setup"))
        if res.error is not None:
            return {"error": format_error(res.error, res.context), "phase": res.error.phase}
        try:
            return {"value": canonical(res.value)}
        # isolation boundary: one case must not stop the harness
        except Exception as exc:  # noqa: BLE001
            return {"error": f"could not render value: {exc}", "phase": "eval"}
    if mode == "compile":
        settings.node_name = "testnode"
        res = compile_catalog(case["source"], settings, budget or Budget(steps=500_000,
                                                                         seconds=10))
        if res.error is not None:
            return {"error": format_error(res.error, res.context, "testnode"),
                    "phase": res.error.phase}
        notices = [log.message for log in res.logs if log.level == "notice"]
        resources: dict = {}
        for r in res.catalog.visible_resources():
            params = {}
            for k, v in r.params.items():
                if isinstance(v, Sensitive):
                    v = v.value  # the catalog keeps sensitive parameters unwrapped (marked)
                try:
                    params[k] = canonical(v)
                except Exception:  # noqa: BLE001 - isolation boundary: as above
                    params[k] = repr(v)
            resources[r.ref] = params
        return {"notices": notices, "resources": resources}
    return {"error": f"mode {mode} is not an evaluation mode", "phase": "parse"}
