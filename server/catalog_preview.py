"""``puppet-ls preview``: the catalog a class would produce on a node, compiled in the sandbox
(``language/ide/preview.preview_catalog``) from the class's manifest and, as the compilation asks
for them, the manifests of the classes and defined types it uses, found in the modulepath by
Puppet's autoloading layout (``<module>/manifests/<path>.pp``)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from puppet_ls.language.ide.preview import CatalogPreview, PreviewContext, preview_catalog
from puppet_ls.language.syntax import ast as A
from puppet_ls.language.syntax import kinds as K
from puppet_ls.language.syntax import parse

from .workspace import environment_root_of, read_text

# Where modules are looked for without --modulepath: the working directory's modules and site
# folders (a control repository), then Puppet's default base modulepath on Debian.
DEFAULT_MODULEPATH = ("modules", "site", "/etc/puppet/code/modules", "/usr/share/puppet/modules")
# Manifests loaded for one preview at most (each retry compiles again).
MAX_LOADS = 60


@dataclass
class PreviewRun:
    catalog: CatalogPreview
    class_name: str
    files: list = field(default_factory=list)     # the manifests compiled, in load order
    where: str = ""                               # "file:line" of the error, when known


def manifest_of(name: str, modulepath: list) -> str | None:
    """Where Puppet's autoloader looks for class, defined type or type alias ``name``."""
    parts = name.lower().removeprefix("::").split("::")
    rest = parts[1:] or ["init"]
    for root in modulepath:
        for folder in ("manifests", "types"):
            path = os.path.join(root, parts[0], folder, *rest[:-1], rest[-1] + ".pp")
            if os.path.isfile(path):
                return path
    return None


def ruby_types(modulepath: list) -> frozenset:
    """The resource types the modules define in Ruby (``<module>/lib/puppet/type/<name>.rb``)."""
    out: set = set()
    for root in modulepath:
        try:
            modules = os.listdir(root)
        except OSError:
            continue
        for mod in modules:
            try:
                files = os.listdir(os.path.join(root, mod, "lib", "puppet", "type"))
            except OSError:
                continue
            out.update(f[:-3].lower() for f in files if f.endswith(".rb"))
    return frozenset(out)


def first_class(text: str) -> str | None:
    for node in parse(text).root.descendants():
        if node.kind == K.CLASS_DEF:
            name = A.ClassDef(node).name
            if isinstance(name, str) and name:
                return name
    return None


def modulepath_of(path: str) -> list:
    """The modules directory of a manifest inside ``<dir>/<module>/manifests/``."""
    parts = os.path.abspath(path).split(os.sep)
    if "manifests" in parts:
        i = len(parts) - 1 - parts[::-1].index("manifests")
        if i >= 2:
            return [os.sep.join(parts[:i - 1])]
    return []


def environment_of(start: str) -> str | None:
    """The environment whose Hiera data a preview reads: the nearest folder at or above
    ``start`` holding an environment.conf, else ``start`` itself when it has a hiera.yaml."""
    env = environment_root_of(start)
    if env is None and os.path.isfile(os.path.join(start, "hiera.yaml")):
        env = os.path.abspath(start)
    return env


def catalog_parameters(hiera, context: PreviewContext):
    """Automatic parameter lookup for a compiled preview: (class, parameter) -> (value,) with
    the data Hiera gives on the context's node (``convert_to`` applied), an unknown value when
    the answer depends on what the fact set lacks, or None (the default applies)."""
    from puppet_ls.language.eval.context import Settings, Unknown
    from puppet_ls.language.hiera.automatic import FOUND, UNKNOWN, class_parameter
    from puppet_ls.language.hiera.convert import convert
    from puppet_ls.language.hiera.interpolate import HieraError
    settings = context.evaluator_settings()
    variables = {"environment": Settings().environment}

    def bind(class_name: str, param: str) -> tuple | None:
        pv = class_parameter(hiera, class_name, param, settings["facts"], settings["trusted"], variables)
        if pv.status == UNKNOWN:
            return (Unknown.of_call("lookup"),)
        if pv.status != FOUND:
            return None
        if pv.converted_to:
            try:
                return (convert(pv.value, pv.converted_to),)
            except HieraError:
                return (Unknown.of_call("lookup"),)
        return (pv.value,)
    return bind


def run(target: str, context: PreviewContext, modulepath: list, hiera=None) -> PreviewRun | str:
    """Compile ``target`` (a manifest file, or a class name found in ``modulepath``); a
    string is what is wrong with the target.  ``hiera`` (a ``language.hiera.Hiera``) gives
    class parameters their data by automatic parameter lookup."""
    if target.endswith(".pp") or os.path.isfile(target):
        path = target
        text = read_text(path)
        if text is None:
            return f"cannot read {target}"
        name = first_class(text)
        if name is None:
            return f"{target} defines no class"
        modulepath = modulepath + [p for p in modulepath_of(path) if p not in modulepath]
    else:
        name = target.removeprefix("::")
        found = manifest_of(name, modulepath)
        if found is None:
            return f"class {name} not found in the modulepath ({os.pathsep.join(modulepath) or 'empty'})"
        path = found
        text = read_text(path)
        if text is None:
            return f"cannot read {path}"
    sources = {os.path.abspath(path): text}
    types = ruby_types(modulepath)
    bind = catalog_parameters(hiera, context) if hiera is not None else None
    for _ in range(MAX_LOADS):
        program = "\n".join(sources.values()) + f"\ninclude {name}\n"
        cat = preview_catalog(program, context, resource_types=types, parameter_lookup=bind)
        wanted = cat.missing_class or cat.missing_type
        more = manifest_of(wanted, modulepath) if wanted else None
        if cat.ok or more is None or os.path.abspath(more) in sources:
            return PreviewRun(cat, name, list(sources), _where(sources, cat.error_offset))
        more_text = read_text(more)
        if more_text is None:
            return PreviewRun(cat, name, list(sources), _where(sources, cat.error_offset))
        sources[os.path.abspath(more)] = more_text
    return PreviewRun(cat, name, list(sources), _where(sources, cat.error_offset))


def _where(sources: dict, offset: int | None) -> str:
    if offset is None:
        return ""
    start = 0
    for path, text in sources.items():
        if offset <= start + len(text):
            return f"{path}:{text.count(chr(10), 0, offset - start) + 1}"
        start += len(text) + 1
    return ""
