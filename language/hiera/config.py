"""hiera.yaml to a :class:`HieraConfig`: the version 5 hierarchy of one layer, with positioned
problems.

Version 3 and 4 files are recognised and reported, never guessed at (Puppet still reads them;
puppet-ls shows no data from such a layer).  Puppet's own checks of a version 5 file are made
here with Puppet's issue codes (one data provider function and one location kind per level,
unique level names); keys Puppet does not know are errors, as in Puppet's type check.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from ..diagnostics import Diagnostic
from .yamldata import compose, kind_of, node_value

FUNCTION_KEYS = ("data_hash", "lookup_key", "data_dig")
ALL_FUNCTION_KEYS = (*FUNCTION_KEYS, "hiera3_backend")
LOCATION_KEYS = ("paths", "path", "globs", "glob", "uris", "uri", "mapped_paths")
LEVEL_KEYS = ("name", "datadir", "options", *ALL_FUNCTION_KEYS, *LOCATION_KEYS)
DEFAULTS_KEYS = ("datadir", "options", *FUNCTION_KEYS)
TOP_KEYS = ("version", "defaults", "hierarchy", "default_hierarchy", "plan_hierarchy")
# The backends puppet-ls reads (others are skipped, with an information).
READABLE = {("data_hash", "yaml_data"), ("data_hash", "json_data"), ("lookup_key", "eyaml_lookup_key")}


@dataclass(frozen=True, slots=True)
class Level:
    """One hierarchy level as written: locations are still to be interpolated."""
    name: str
    kind: str                   # data_hash | lookup_key | data_dig | hiera3_backend
    function: str               # yaml_data, json_data, eyaml_lookup_key, ...
    datadir: str                # relative to the directory of hiera.yaml (or absolute)
    location_kind: str          # one of LOCATION_KEYS, or "" (no location: the function alone)
    locations: tuple            # the paths/globs/uris; for mapped_paths the (var, key, template)
    options: tuple = ()         # the options hash as (key, value) pairs
    span: tuple = (0, 0)        # the level's `name` value in hiera.yaml

    @property
    def readable(self) -> bool:
        return (self.kind, self.function) in READABLE


@dataclass(slots=True)
class HieraConfig:
    path: str | None            # None: the default configuration of a layer without hiera.yaml
    root: str                   # the directory paths are relative to
    version: int | None = 5
    hierarchy: list = field(default_factory=list)
    default_hierarchy: list = field(default_factory=list)
    diagnostics: list = field(default_factory=list)

    @property
    def usable(self) -> bool:
        """Lookups read this layer: a version 5 file without errors."""
        return self.version == 5 and not any(d.severity == "error" for d in self.diagnostics)

    @property
    def is_default(self) -> bool:
        return self.path is None


def default_config(root: str) -> HieraConfig:
    """Puppet's version 5 default: one level 'Common', data/common.yaml, yaml_data."""
    return HieraConfig(None, root, 5, [Level("Common", "data_hash", "yaml_data", "data", "path", ("common.yaml",))])


def _span(node: yaml.Node) -> tuple:
    return node.start_mark.index, node.end_mark.index


def _mapping(node: yaml.Node | None) -> list:
    return list(node.value) if isinstance(node, yaml.MappingNode) else []


class _Reader:
    def __init__(self, config: HieraConfig) -> None:
        self.config = config

    def problem(self, code: str, node: yaml.Node, **args: Any) -> None:
        self.config.diagnostics.append(Diagnostic.of(code, *_span(node), **args))

    def string(self, node: yaml.Node, key: str, where: str) -> str | None:
        if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:str" and node.value:
            return node.value
        self.problem("HIERA_BAD_VALUE", node, key=key, where=where, expected="a non-empty string")
        return None

    def strings(self, node: yaml.Node, key: str, where: str) -> list:
        if not isinstance(node, yaml.SequenceNode):
            self.problem("HIERA_BAD_VALUE", node, key=key, where=where, expected="an array of non-empty strings")
            return []
        out = [self.string(n, key, where) for n in node.value]
        return [s for s in out if s is not None]

    def keys(self, node: yaml.Node, allowed: tuple, where: str) -> dict:
        found: dict = {}
        for k, v in _mapping(node):
            name = k.value if isinstance(k, yaml.ScalarNode) else None
            if name not in allowed:
                self.problem("HIERA_UNKNOWN_KEY", k, key=name if name is not None else kind_of(k),
                             where=where, expected=", ".join(allowed))
                continue
            found[name] = (k, v)
        return found

    def defaults(self, node: yaml.Node) -> dict:
        if not isinstance(node, yaml.MappingNode):
            self.problem("HIERA_BAD_VALUE", node, key="defaults", where="hiera.yaml", expected="a hash")
            return {}
        found = self.keys(node, DEFAULTS_KEYS, "defaults")
        if sum(1 for k in FUNCTION_KEYS if k in found) > 1:
            self.problem("HIERA_MULTIPLE_DATA_PROVIDER_FUNCTIONS", node, name="defaults")
        return found

    def level(self, node: yaml.Node, defaults: dict, names: set, in_module: bool) -> Level | None:
        if not isinstance(node, yaml.MappingNode):
            self.problem("HIERA_BAD_VALUE", node, key="hierarchy", where="hiera.yaml",
                         expected="an array of hashes (one per level)")
            return None
        name_pair = None
        for k, v in _mapping(node):
            if isinstance(k, yaml.ScalarNode) and k.value == "name":
                name_pair = (k, v)
        if name_pair is None:
            self.problem("HIERA_BAD_VALUE", node, key="name", where="a hierarchy level", expected="a non-empty string")
            return None
        name = self.string(name_pair[1], "name", "a hierarchy level")
        if name is None:
            return None
        where = f"hierarchy level '{name}'"
        found = self.keys(node, LEVEL_KEYS, where)
        if name in names:
            self.problem("HIERA_HIERARCHY_NAME_MULTIPLY_DEFINED", name_pair[1], name=name)
        names.add(name)
        functions = [k for k in ALL_FUNCTION_KEYS if k in found]
        if len(functions) > 1:
            self.problem("HIERA_MULTIPLE_DATA_PROVIDER_FUNCTIONS", name_pair[1], name=name)
        kind, function = "", ""
        if functions:
            kind = functions[0]
            function = self.string(found[kind][1], kind, where) or ""
        else:
            in_defaults = [k for k in FUNCTION_KEYS if k in defaults]
            if not in_defaults:
                self.problem("HIERA_MISSING_DATA_PROVIDER_FUNCTION", name_pair[1], name=name)
                return None
            kind = in_defaults[0]
            function = node_value(defaults[kind][1]) if isinstance(defaults[kind][1], yaml.ScalarNode) else ""
            function = str(function)
        locs = [k for k in LOCATION_KEYS if k in found]
        if len(locs) > 1:
            self.problem("HIERA_MULTIPLE_LOCATION_SPECS", name_pair[1], name=name)
        location_kind = ""
        locations: tuple = ()
        if locs:
            location_kind = locs[0]
            loc_node = found[location_kind][1]
            if location_kind in ("path", "glob", "uri"):
                one = self.string(loc_node, location_kind, where)
                locations = (one,) if one is not None else ()
            elif location_kind == "mapped_paths":
                triplet = self.strings(loc_node, location_kind, where)
                if len(triplet) != 3:
                    self.problem("HIERA_BAD_VALUE", loc_node, key="mapped_paths", where=where,
                                 expected="an array of three strings: variable, key, path template")
                else:
                    locations = tuple(triplet)
            else:
                locations = tuple(self.strings(loc_node, location_kind, where))
        datadir_node = found.get("datadir", defaults.get("datadir", (None, None)))[1]
        datadir = "data"
        if datadir_node is not None:
            datadir = self.string(datadir_node, "datadir", where) or "data"
        options_node = found.get("options", defaults.get("options", (None, None)))[1]
        options: tuple = ()
        if options_node is not None:
            value = node_value(options_node)
            if isinstance(value, dict):
                options = tuple(value.items())
            else:
                self.problem("HIERA_BAD_VALUE", options_node, key="options", where=where, expected="a hash")
        if kind == "hiera3_backend" and not in_module:
            pass  # allowed in the global layer only; Puppet checks the owner, the layer is skipped
        level = Level(name, kind, function, datadir, location_kind, locations, options, _span(name_pair[1]))
        if function and not level.readable:
            self.problem("HIERA_UNKNOWN_FUNCTION", found[kind][1] if kind in found else name_pair[1],
                         kind=kind, name=function, name_of_level=name)
        return level


def read_config(path: str, root: str, text: str, layer: str = "environment") -> HieraConfig:
    """Read the hiera.yaml at ``path`` (its directory ``root``) of ``layer`` (global,
    environment or module)."""
    config = HieraConfig(path, root)
    node, err = compose(text)
    if err is not None:
        config.diagnostics.append(err)
        config.version = None
        return config
    if not isinstance(node, yaml.MappingNode):
        config.version = 3
        config.diagnostics.append(Diagnostic.of("HIERA_CONFIG_NOT_HASH", *(_span(node) if node is not None else (0, 0)),
                                                kind=kind_of(node)))
        return config
    reader = _Reader(config)
    top = {}
    for k, v in _mapping(node):
        name = k.value if isinstance(k, yaml.ScalarNode) else None
        top[name] = (k, v)
    version_pair = top.get("version") or top.get(":version")
    version = 3
    if version_pair is not None:
        raw = node_value(version_pair[1])
        try:
            version = int(raw)
        except (TypeError, ValueError):
            reader.problem("HIERA_BAD_VALUE", version_pair[1], key="version", where="hiera.yaml", expected="5")
            config.version = None
            return config
    config.version = version
    if version in (3, 4):
        at = version_pair[1] if version_pair is not None else node
        start = at.start_mark.index
        end = at.end_mark.index if at is not node else start
        config.diagnostics.append(Diagnostic.of("HIERA_OLD_VERSION", start, end, version=version))
        return config
    if version != 5 and version_pair is not None:
        reader.problem("HIERA_UNSUPPORTED_VERSION", version_pair[1], version=version)
        return config
    reader.keys(node, TOP_KEYS, "hiera.yaml")
    # Without `defaults`, Puppet's: datadir "data" (the level's fallback) and yaml_data.
    defaults: dict = reader.defaults(top["defaults"][1]) if "defaults" in top else {
        "data_hash": (None, yaml.ScalarNode("tag:yaml.org,2002:str", "yaml_data"))}
    for key, target in (("hierarchy", config.hierarchy), ("default_hierarchy", config.default_hierarchy)):
        if key not in top:
            continue
        if key == "default_hierarchy" and layer != "module":
            reader.problem("HIERA_DEFAULT_HIERARCHY_NOT_IN_MODULE", top[key][0])
            continue
        levels = top[key][1]
        if not isinstance(levels, yaml.SequenceNode):
            reader.problem("HIERA_BAD_VALUE", levels, key=key, where="hiera.yaml",
                           expected="an array of hashes (one per level)")
            continue
        names: set = set()
        for lnode in levels.value:
            level = reader.level(lnode, defaults, names, layer == "module")
            if level is not None:
                target.append(level)
    if "hierarchy" not in top:
        config.hierarchy = default_config(root).hierarchy
    return config
