"""``puppet-ls preview``: the catalog a class would produce on a node, compiled in the sandbox
(``language/ide/preview.preview_catalog``) from the class's manifest and, as the compilation asks
for them, the manifests of the classes and defined types it uses, found in the modulepath by
Puppet's autoloading layout (``<module>/manifests/<path>.pp``)."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from puppet_ls.language.ide.preview import CatalogPreview, PreviewContext, preview_catalog
from puppet_ls.language.syntax import ast as A
from puppet_ls.language.syntax import kinds as K
from puppet_ls.language.syntax import parse

from .workspace import environment_root_of, read_text

# Where modules are looked for without --modulepath: the working directory's modules and site
# folders (a control repository), then Puppet's default base modulepath on Debian.
# Where Debian's Puppet (and the module packages of the corpus) keep modules: $basemodulepath.
SYSTEM_MODULEPATH = ("/etc/puppet/code/modules", "/usr/share/puppet/modules")
DEFAULT_MODULEPATH = ("modules", "site", *SYSTEM_MODULEPATH)
# Manifests loaded for one preview at most (each retry compiles again).
MAX_LOADS = 60
# Manifests loaded ahead of the compilation, because a loaded manifest names them: each one
# the compilation then asks for would cost a compilation of everything loaded so far.
MAX_PRELOADS = 400
# Qualified names in a manifest (``include apache::params``, ``apache::vhost { … }``,
# ``Class['apache::mod::ssl']``, ``$apache::params::user``): where autoloaded definitions are
# found before the compilation asks for them.
_QUALIFIED = re.compile(r"(?<![\w:])(?:::)?([A-Za-z][\w]*(?:::[A-Za-z][\w]*)+)")
# A name completed at run time ("::collectd::repo::${osfamily}", tested with defined() before
# it is included): every manifest of the folder it names may be the one.
# epp('<module>/<file>.epp', …) with a literal name: the templates read for the compilation.
_EPP = re.compile(r"\bepp\(\s*['\"]([\w]+)/([^'\"$]+\.epp)['\"]")
_PREFIX = re.compile(r"(?<![\w:])(?:::)?([A-Za-z][\w]*(?:::[A-Za-z][\w]*)*)::\$")


@dataclass
class PreviewRun:
    catalog: CatalogPreview
    class_name: str
    files: list = field(default_factory=list)     # the manifests compiled, in load order
    where: str = ""                               # "file:line" of the error, when known
    compilations: int = 0                         # how many times the sources were compiled


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


def _module_dirs(modulepath: list):
    """The module folders of the modulepath's roots (a root that cannot be listed has none)."""
    for root in modulepath:
        try:
            modules = os.listdir(root)
        except OSError:
            continue
        for mod in modules:
            yield os.path.join(root, mod)


def _ruby_files(folder: str) -> list:
    """The names of the Ruby files in ``folder``, without '.rb' and in lower case."""
    try:
        return [f[:-3].lower() for f in os.listdir(folder) if f.endswith(".rb")]
    except OSError:
        return []


def ruby_types(modulepath: list) -> frozenset:
    """The resource types the modules define in Ruby (``<module>/lib/puppet/type/<name>.rb``)."""
    out: set = set()
    for mod in _module_dirs(modulepath):
        out.update(_ruby_files(os.path.join(mod, "lib", "puppet", "type")))
    return frozenset(out)


def ruby_functions(modulepath: list) -> frozenset:
    """The functions the modules define in Ruby: ``lib/puppet/functions/**.rb`` (namespaced by
    folder) and ``lib/puppet/parser/functions/*.rb``."""
    out: set = set()
    for mod in _module_dirs(modulepath):
        base = os.path.join(mod, "lib", "puppet", "functions")
        for folder, _dirs, files in os.walk(base):
            space = os.path.relpath(folder, base).replace(os.sep, "::")
            prefix = "" if space == "." else space + "::"
            out.update(prefix + f[:-3].lower() for f in files if f.endswith(".rb"))
        out.update(_ruby_files(os.path.join(mod, "lib", "puppet", "parser", "functions")))
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
    _preload(sources, text, modulepath)
    types, functions = ruby_types(modulepath), ruby_functions(modulepath)
    bind = catalog_parameters(hiera, context) if hiera is not None else None
    for count in range(1, MAX_LOADS + 1):
        program = "\n".join(sources.values()) + f"\ninclude {name}\n"
        cat = preview_catalog(program, context, resource_types=types, functions=functions,
                              templates=epp_templates(sources.values(), modulepath), parameter_lookup=bind)
        wanted = cat.missing_class or cat.missing_type
        more = manifest_of(wanted, modulepath) if wanted else None
        more_text = read_text(more) if more is not None and os.path.abspath(more) not in sources else None
        if cat.ok or more is None or more_text is None:
            break
        sources[os.path.abspath(more)] = more_text
        _preload(sources, more_text, modulepath)
    return PreviewRun(cat, name, list(sources), _where(sources, cat.error_offset), count)


def _preload(sources: dict, text: str, modulepath: list) -> None:
    """Add to ``sources`` the manifests that ``text`` names (and those they name, up to
    MAX_PRELOADS): definitions only, evaluated when the compilation uses them, as Puppet's
    autoloader would load them then.  A variable's class is the name without its last part."""
    todo = [text]
    seen: set = set()
    while todo and len(sources) < MAX_PRELOADS:
        current = todo.pop()
        names = [m.group(1).lower() for m in _QUALIFIED.finditer(current)]
        for m in _PREFIX.finditer(current):
            names.extend(_folder_names(m.group(1).lower(), modulepath))
        for name in names:
            for candidate in (name, name.rpartition("::")[0]):
                if candidate in seen or "::" not in candidate and candidate != name:
                    continue
                seen.add(candidate)
                found = manifest_of(candidate, modulepath)
                if found is None or os.path.abspath(found) in sources:
                    continue
                found_text = read_text(found)
                if found_text is not None:
                    sources[os.path.abspath(found)] = found_text
                    todo.append(found_text)
                break


def epp_templates(texts, modulepath: list) -> dict:
    """The EPP templates the manifests name literally (``epp('apt/_header.epp')``), read from
    ``<module>/templates/`` in the modulepath: ``"<module>/<file>"`` -> text."""
    out: dict = {}
    for text in texts:
        for m in _EPP.finditer(text):
            key = f"{m.group(1)}/{m.group(2)}"
            if key in out:
                continue
            for root in modulepath:
                path = os.path.join(root, m.group(1), "templates", *m.group(2).split("/"))
                if os.path.isfile(path):
                    found = read_text(path)
                    if found is not None:
                        out[key] = found
                    break
    return out


def _folder_names(prefix: str, modulepath: list) -> list:
    """The names of the manifests directly in the folder of ``prefix`` (``collectd::repo``:
    ``collectd/manifests/repo/*.pp``)."""
    parts = prefix.split("::")
    for root in modulepath:
        folder = os.path.join(root, parts[0], "manifests", *parts[1:])
        try:
            files = sorted(os.listdir(folder))
        except OSError:
            continue
        return [f"{prefix}::{f[:-3]}" for f in files if f.endswith(".pp")]
    return []


def _where(sources: dict, offset: int | None) -> str:
    if offset is None:
        return ""
    start = 0
    for path, text in sources.items():
        if offset <= start + len(text):
            return f"{path}:{text.count(chr(10), 0, offset - start) + 1}"
        start += len(text) + 1
    return ""
