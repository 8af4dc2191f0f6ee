"""Lookups over the Hiera layers (global -> environment -> module) for one scope, with the
explain trail of which level gave what.

The caller gives the layers' configurations and two functions: ``read(path) -> text | None``
and ``list_files(directory) -> [path, ...] | None`` (every file below it, for globs); nothing
here touches a file.  The order of the work is Puppet's ``LookupAdapter``: ``lookup_options``
(hash-merged per layer; global over environment, environment over module; exact keys before
``^`` patterns), the merge strategy (given, else from ``lookup_options``, else first found)
applied over layers, then levels, then each level's paths, interpolation of every found value,
digging into dotted keys after the merge, and ``convert_to`` last.
"""
from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..messages import render
from .config import HieraConfig, Level
from .interpolate import HieraError, Interpolator, NotFound, Unresolved, dig, split_key
from .merge import HashMerge, strategy as make_strategy
from .yamldata import DataFile, read_data

Reader = Callable[[str], "str | None"]
Lister = Callable[[str], "list | None"]


@dataclass(frozen=True, slots=True)
class Layer:
    name: str                       # "global", "environment" or "module"
    config: HieraConfig
    module: str | None = None       # the module of a module layer


@dataclass(frozen=True, slots=True)
class Step:
    """One place looked at: where, and what was found there."""
    layer: str
    level: str
    path: str                       # the resolved data file ("" for a level without a file)
    found: bool
    value: Any = None
    exists: bool = True
    span: tuple | None = None       # the key in the data file


@dataclass(slots=True)
class LookupResult:
    key: str
    found: bool = False
    value: Any = None
    merge: Any = None               # the strategy used (name or hash), None: first found
    merge_source: str = ""          # "lookup_options" when it came from there
    trail: list = field(default_factory=list)
    error: str = ""                 # the failure, as text (from the registry)
    error_code: str = ""
    converted_to: Any = None
    unknown: str = ""               # the variable the answer depends on that the scope lacks


Converter = Callable[[Any, list], Any]   # (value, convert_to list) -> converted value


def _ruby_regexp(pattern: str) -> re.Pattern | None:
    try:
        return re.compile(pattern.replace("\\A", "^").replace("\\z", "$").replace("\\Z", "$"))
    except re.error:
        return None


def module_of(key: str) -> str | None:
    """The module a key belongs to (``apache::port`` -> ``apache``), Puppet's ``LookupKey``."""
    root = split_key(key)[0] if key else key
    if not isinstance(root, str):
        return None
    parts = root.split("::")
    return parts[0] if len(parts) > 1 and parts[0] else None


class Hiera:
    """The layers of one environment and what was read from them (data files are cached by
    path for the life of the object)."""

    def __init__(self, layers: list, read: Reader, list_files: Lister,
                 converter: Converter | None = None) -> None:
        self.layers = [la for la in layers if la.config.usable]
        self.all_layers = list(layers)
        self.read = read
        self.list_files = list_files
        self.converter = converter
        self._files: dict = {}

    # ---- files -----------------------------------------------------------------------------
    def data_file(self, path: str, eyaml: bool = False) -> DataFile | None:
        key = (path, eyaml)
        if key not in self._files:
            text = self.read(path)
            self._files[key] = None if text is None else read_data(path, text, eyaml)
        return self._files[key]

    def module_layer(self, module: str) -> Layer | None:
        for la in self.layers:
            if la.name == "module" and la.module == module:
                return la
        return None

    def data_paths(self) -> list:
        """Every data file of every readable level's datadir: (layer, level, path)."""
        out: list = []
        seen: set = set()
        for layer in self.layers:
            for level in layer.config.hierarchy:
                if not level.readable:
                    continue
                datadir = posixpath.normpath(posixpath.join(layer.config.root, level.datadir))
                ext = (".json",) if level.function == "json_data" else (
                    (".eyaml", ".yaml") if level.function == "eyaml_lookup_key" else (".yaml", ".yml"))
                for f in self.list_files(datadir) or []:
                    if f.endswith(ext) and f not in seen:
                        seen.add(f)
                        out.append((layer, level, f))
        return out

    def all_keys(self) -> dict:
        """key -> [(path, offset, end)] over every data file (for completion and definition)."""
        keys: dict = {}
        for _layer, level, path in self.data_paths():
            df = self.data_file(path, eyaml=level.function == "eyaml_lookup_key")
            if df is None:
                continue
            for k, span in df.key_spans.items():
                if isinstance(k, str):
                    keys.setdefault(k, []).append((path, *span))
        return keys

    def all_lookup_options(self) -> dict:
        """The lookup_options of every data file, merged (the first file that names a key
        wins): for judging data without a fact set."""
        out: dict = {}
        for _layer, level, path in self.data_paths():
            df = self.data_file(path, eyaml=level.function == "eyaml_lookup_key")
            opts = df.data.get("lookup_options") if df is not None else None
            if isinstance(opts, dict):
                for k, v in opts.items():
                    out.setdefault(k, v)
        return out

    # ---- locations ------------------------------------------------------------------------
    def locations(self, layer: Layer, level: Level, interp: Interpolator) -> list:
        """The resolved paths of a level: [(path, exists)]."""
        root = layer.config.root
        datadir = posixpath.normpath(posixpath.join(root, interp.value(level.datadir, False)))
        out: list = []
        kind = level.location_kind
        if kind in ("path", "paths"):
            for p in level.locations:
                full = posixpath.normpath(posixpath.join(datadir, interp.value(p, False)))
                exists = self.read(full) is not None
                if layer.config.is_default and not exists:
                    continue
                out.append((full, exists))
        elif kind in ("glob", "globs"):
            files = self.list_files(datadir) or []
            for g in level.locations:
                pattern = posixpath.normpath(posixpath.join(datadir, interp.value(g, False)))
                rx = glob_regex(pattern)
                out.extend((f, True) for f in sorted(f for f in files if rx.fullmatch(f)))
        elif kind == "mapped_paths" and len(level.locations) == 3:
            var, key, template = level.locations
            values = interp.scope_value(var)
            if isinstance(values, str):
                values = [values]
            if isinstance(values, dict):
                values = list(values.items())
            for v in values or []:
                sub = Interpolator({**interp.scope, key: v}, interp.lookup, interp.missing)
                full = posixpath.normpath(posixpath.join(datadir, sub.value(template, False)))
                out.append((full, self.read(full) is not None))
        return out

    # ---- one layer ---------------------------------------------------------------------------
    def _in_layer(self, layer: Layer, root_key: str, strat: Any, interp: Interpolator,
                  trail: list | None) -> Any:
        levels = [lv for lv in layer.config.hierarchy if lv.readable]

        def in_level(level: Level) -> Any:
            locs = self.locations(layer, level, interp)

            def in_location(loc: tuple) -> Any:
                path, exists = loc
                if not exists:
                    if trail is not None:
                        trail.append(Step(layer.name, level.name, path, False, exists=False))
                    raise NotFound
                df = self.data_file(path, eyaml=level.function == "eyaml_lookup_key")
                if df is None or root_key not in df.data:
                    if trail is not None:
                        trail.append(Step(layer.name, level.name, path, False))
                    raise NotFound
                try:
                    value = interp.value(df.data[root_key], True)
                except HieraError:
                    if trail is not None:
                        trail.append(Step(layer.name, level.name, path, True, df.data[root_key],
                                          span=df.key_spans.get(root_key)))
                    raise
                if trail is not None:
                    trail.append(Step(layer.name, level.name, path, True, value,
                                      span=df.key_spans.get(root_key)))
                return value
            return strat.lookup(locs, in_location)
        return strat.lookup(levels, in_level)

    # ---- lookup_options ----------------------------------------------------------------------
    def _layer_options(self, layer: Layer | None, interp: Interpolator) -> dict | None:
        if layer is None:
            return None
        try:
            opts = self._in_layer(layer, "lookup_options", HashMerge(key="lookup_options"), interp, None)
        except NotFound:
            return None
        if not isinstance(opts, dict):
            raise HieraError("HIERA_LOOKUP_OPTIONS_NOT_HASH")
        if layer.module:
            pfx = layer.module + "::"
            for k in opts:
                if not (str(k)[1:1 + len(pfx)] == pfx if str(k).startswith("^") else str(k).startswith(pfx)):
                    raise HieraError("HIERA_LOOKUP_OPTIONS_MODULE_KEY", module=layer.module)
        return opts

    def lookup_options(self, key: str, interp: Interpolator) -> dict:
        """The options that apply to ``key`` (``merge``, ``convert_to``)."""
        glob = next((la for la in self.layers if la.name == "global"), None)
        env = next((la for la in self.layers if la.name == "environment"), None)
        g = self._layer_options(glob, interp)
        e = self._layer_options(env, interp)
        opts = e if g is None else (g if e is None else {**e, **g})
        module = module_of(key)
        if module is not None:
            layer = self.module_layer(module)
            m = self._layer_options(layer, interp)
            if m is not None:
                opts = m if opts is None else {**m, **opts}
        if not opts:
            return {}
        root = split_key(key)[0]
        exact = {k: v for k, v in opts.items() if not str(k).startswith("^")}
        if root in exact and isinstance(exact[root], dict):
            return exact[root]
        for k, v in opts.items():
            if str(k).startswith("^"):
                rx = _ruby_regexp(str(k))
                if rx is not None and rx.search(str(root)) and isinstance(v, dict):
                    return v
        return {}

    # ---- lookup ------------------------------------------------------------------------------
    def lookup(self, key: str, scope: dict, merge: Any = None, explain: bool = True,
               strict_scope: bool = False, convert: bool = True) -> LookupResult:
        """Look ``key`` up for ``scope`` (see ``interpolate.scope_for``). Never raises.

        ``strict_scope`` (previews): a variable the scope lacks, in a hierarchy path or a value,
        makes the answer unknown (``unknown`` names it) instead of being read as empty.
        ``convert=False`` leaves a ``convert_to`` of ``lookup_options`` to the caller
        (``converted_to`` names it; the value is the data as found)."""
        result = LookupResult(key)
        interp = Interpolator(scope, missing=_unresolved if strict_scope else None)
        interp.lookup = lambda k: self._nested(k, interp)
        try:
            found, value = interp._checked(key, lambda: self._lookup(
                key, interp, merge, result.trail if explain else None, result, convert))
            result.found, result.value = found, value
        except Unresolved as u:
            result.unknown = u.variable
        except HieraError as e:
            result.error_code = e.code
            result.error = render(e.code, **e.args_)
        except RecursionError:
            result.error_code = "HIERA_RECURSIVE_LOOKUP"
            result.error = render("HIERA_RECURSIVE_LOOKUP", chain=key)
        return result

    def _nested(self, key: str, interp: Interpolator) -> tuple:
        return self._lookup(key, interp, None, None, None)

    def _lookup(self, key: str, interp: Interpolator, merge: Any, trail: list | None,
                result: LookupResult | None, convert: bool = True) -> tuple:
        if key == "lookup_options" or key.startswith("lookup_options."):
            return False, None
        segments = split_key(key)
        root = segments[0]
        if not isinstance(root, str):
            return False, None
        options = self.lookup_options(key, interp)
        if merge is None and options.get("merge") is not None:
            merge = options["merge"]
            if result is not None:
                result.merge_source = "lookup_options"
        if result is not None:
            result.merge = merge
        strat = make_strategy(merge, key)
        module = module_of(key)
        variants = [la for la in self.layers if la.name != "module"]
        if module is not None:
            ml = self.module_layer(module)
            if ml is not None:
                variants.append(ml)
        try:
            value = strat.lookup(variants, lambda la: self._in_layer(la, root, strat, interp, trail))
            value = dig(key, value, segments[1:])
        except NotFound:
            return False, None
        convert_to = options.get("convert_to")
        if convert_to is not None:
            args = convert_to if isinstance(convert_to, list) else [convert_to]
            if not convert:
                if result is not None:
                    result.converted_to = args
            elif self.converter is not None:
                try:
                    value = self.converter(value, args)
                except HieraError as e:
                    raise HieraError("HIERA_CONVERT_TO_FAILED", key=key, reason=render(e.code, **e.args_)) from e
                if result is not None:
                    result.converted_to = args
        return True, value


def _unresolved(variable: str) -> None:
    raise Unresolved(variable)


def glob_regex(pattern: str) -> re.Pattern:
    """Ruby's ``Dir.glob`` pattern as a regular expression (``*``, ``**/``, ``?``, ``[...]``,
    ``{a,b}``); ``*`` does not match a leading dot, as in Ruby."""
    i, out = 0, []
    depth = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:[^/.][^/]*/)*")
            i += 3
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = pattern.find("]", i)
            if j < 0:
                out.append(re.escape(c))
            else:
                out.append("[" + pattern[i + 1:j].replace("!", "^", 1) + "]")
                i = j
        elif c == "{":
            depth += 1
            out.append("(?:")
        elif c == "}" and depth:
            depth -= 1
            out.append(")")
        elif c == "," and depth:
            out.append("|")
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out))


def key_location(hiera: Hiera, step: Step) -> tuple | None:
    """(path, offset, end) of the key a step found, for definition."""
    if not step.found or step.span is None:
        return None
    return (step.path, *step.span)


