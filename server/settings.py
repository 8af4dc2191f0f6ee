"""The server's settings: typed, with documented defaults (docs/server.md lists them).

Settings come from ``initializationOptions``, ``workspace/didChangeConfiguration`` and
``workspace/configuration`` (section ``puppet``), as JSON.  ``parse_settings`` never fails: a
value of the wrong type or out of range is reported in the returned problem list and replaced
by its default, so a typo in a user's configuration gives a message, not a broken server.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Settings:
    # directories of modules the code may use (absolute, or relative to the first workspace
    # folder); also read from a workspace's environment.conf
    modulepath: tuple = ()
    # index the workspace and modulepath in the background
    index_enable: bool = True
    index_max_files: int = 50_000
    # keep what indexing found between runs (server/index_cache.py); '' = the user's cache
    # folder ($PUPPET_LS_CACHE_DIR overrides both)
    index_cache: bool = True
    index_cache_dir: str = ""
    # diagnostics: on/off, and how long to wait after the last keystroke
    diagnostics_enable: bool = True
    diagnostics_debounce_ms: int = 150
    # evaluated previews (inlay hints, or code lenses for clients without inlay hints)
    previews_enable: bool = True
    previews_max_steps: int = 20_000
    previews_timeout_ms: int = 50
    # address-space ceiling of the process that evaluates previews (MiB)
    previews_memory_mb: int = 256
    # what previews know of the node: a built-in fact set (debian12, ubuntu2404, rhel9,
    # windows2022) or a facts file (facter --json / puppet facts, JSON or YAML; relative to the
    # first workspace folder); '' = none (only what the file alone determines)
    previews_facts: str = ""
    # the node's name ($trusted['certname']; with a built-in set also its fqdn/hostname/domain)
    previews_node: str = ""
    # folders of external facts the node also has (Facter's facts.d; relative to the first
    # workspace folder); the modulepath's modules' facts.d folders are always read
    previews_external_facts: tuple = ()
    # documents longer than this (characters) are kept but not analysed: one diagnostic says so
    documents_max_size: int = 524_288
    # hover: show values computed by the evaluator
    hover_values: bool = True
    # completion: offer snippets (when the client supports them)
    completion_snippets: bool = True
    # server log level: error, warning, info, debug
    log_level: str = "info"
    # Hiera: the facts lookups are shown for (a JSON object like `facter --json`'s; empty:
    # a few facts of this machine), and the global hiera.yaml ('' = none)
    hiera_facts: dict = field(default_factory=dict)
    hiera_global_config: str = ""


# JSON path (inside the "puppet" section) -> field name
_KEYS = {
    ("modulepath",): "modulepath",
    ("index", "enable"): "index_enable",
    ("index", "maxFiles"): "index_max_files",
    ("index", "cache"): "index_cache",
    ("index", "cacheDir"): "index_cache_dir",
    ("diagnostics", "enable"): "diagnostics_enable",
    ("diagnostics", "debounceMs"): "diagnostics_debounce_ms",
    ("previews", "enable"): "previews_enable",
    ("previews", "maxSteps"): "previews_max_steps",
    ("previews", "timeoutMs"): "previews_timeout_ms",
    ("previews", "memoryMb"): "previews_memory_mb",
    ("previews", "facts"): "previews_facts",
    ("previews", "node"): "previews_node",
    ("previews", "externalFacts"): "previews_external_facts",
    ("documents", "maxSize"): "documents_max_size",
    ("hover", "values"): "hover_values",
    ("completion", "snippets"): "completion_snippets",
    ("log", "level"): "log_level",
    ("hiera", "facts"): "hiera_facts",
    ("hiera", "globalConfig"): "hiera_global_config",
}
_RANGES = {"index_max_files": (1, 1_000_000), "diagnostics_debounce_ms": (0, 10_000),
           "previews_max_steps": (100, 10_000_000), "previews_timeout_ms": (1, 10_000),
           "previews_memory_mb": (64, 16_384), "documents_max_size": (1_024, 64 * 1024 * 1024)}
_CHOICES = {"log_level": ("error", "warning", "info", "debug")}
DEFAULTS = Settings()


def _get(obj, path):
    for p in path:
        if not isinstance(obj, dict) or p not in obj:
            return None, False
        obj = obj[p]
    return obj, True


def parse_settings(raw) -> tuple:
    """(Settings, problems) from the JSON of the ``puppet`` section (or an object holding a
    ``puppet`` key).  Unknown keys are ignored; wrong values become defaults and a problem."""
    problems: list = []
    if isinstance(raw, dict) and isinstance(raw.get("puppet"), dict):
        raw = raw["puppet"]
    if raw is None:
        return DEFAULTS, problems
    if not isinstance(raw, dict):
        return DEFAULTS, [f"puppet settings must be an object, got {type(raw).__name__}"]
    values: dict = {}
    for path, name in _KEYS.items():
        v, present = _get(raw, path)
        if not present or v is None:
            continue
        key = "puppet." + ".".join(path)
        default = getattr(DEFAULTS, name)
        if name in ("modulepath", "previews_external_facts"):
            if isinstance(v, str):
                v = [p for p in v.split(os.pathsep) if p]
            if not isinstance(v, list) or not all(isinstance(p, str) for p in v):
                problems.append(f"{key} must be a list of directories (or a '{os.pathsep}'-separated string)")
                continue
            values[name] = tuple(v)
            continue
        if name == "hiera_facts":
            if not isinstance(v, dict):
                problems.append(f"{key} must be an object of facts (as `facter --json` prints them)")
                continue
            values[name] = dict(v)
            continue
        if isinstance(default, bool):
            if not isinstance(v, bool):
                problems.append(f"{key} must be true or false, got {v!r}; using {default}")
                continue
        elif isinstance(default, int):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or (isinstance(v, float) and not v.is_integer()):
                problems.append(f"{key} must be a whole number, got {v!r}; using {default}")
                continue
            v = int(v)
            bounds = _RANGES.get(name)
            if bounds is not None and not bounds[0] <= v <= bounds[1]:
                lo, hi = bounds
                problems.append(f"{key} must be between {lo} and {hi}, got {v}; using {default}")
                continue
        elif isinstance(default, str) and (not isinstance(v, str) or (name in _CHOICES and v not in _CHOICES[name])):
            choices = ", ".join(_CHOICES.get(name, ()))
            problems.append(f"{key} must be one of {choices}, got {v!r}; using {default!r}")
            continue
        values[name] = v
    return Settings(**values), problems
