"""The preview context of the server and the CLI: a built-in fact set chosen by name, or the
user's facts file (``facter --json``, ``puppet facts``, as JSON or YAML) read from disk, the
external facts every node of the environment has (its modules' ``facts.d`` folders), and the
node name.

``load_context`` never raises: what is wrong with the file comes back as a message.
"""
from __future__ import annotations

import collections
import importlib
import json
import os
import re
import threading
import time
from collections.abc import Callable
from typing import Any

from puppet_ls.language.check import analyze
from puppet_ls.language.check.analysis import Analysis
from puppet_ls.language.ide.diagnostics import parse_for_path

from puppet_ls.language.ide.preview import PreviewContext, facts_of_document, make_context
from puppet_ls.language.knowledge.factsets import fact_set, fact_set_names

from .workspace import read_text


def _yaml_load(text: str):
    """YAML as ``puppet facts --render-as yaml`` writes it: Ruby object tags
    (``!ruby/object:Puppet::Node::Facts``) are read as the plain maps they tag."""
    yaml = importlib.import_module("yaml")    # PyYAML, only needed for YAML facts files

    Loader: Any = type("Loader", (yaml.SafeLoader,), {})

    def untagged(loader, _suffix, node):
        if isinstance(node, yaml.MappingNode):
            return loader.construct_mapping(node, deep=True)
        if isinstance(node, yaml.SequenceNode):
            return loader.construct_sequence(node, deep=True)
        return loader.construct_scalar(node)

    Loader.add_multi_constructor("!", untagged)
    return yaml.load(text, Loader=Loader)


def parse_facts(text: str, path: str) -> dict:
    """The facts in a facts file's text (JSON, else YAML); ValueError says what is wrong."""
    stripped = text.lstrip()
    if stripped.startswith("{") or path.endswith(".json"):
        try:
            doc = json.loads(text)
        except ValueError as exc:
            raise ValueError(f"not valid JSON: {exc}") from None
    else:
        try:
            doc = _yaml_load(text)
        except ImportError:
            raise ValueError("reading YAML needs PyYAML (pip install PyYAML), or give the facts as JSON") from None
        except Exception as exc:   # noqa: BLE001 - PyYAML's errors have no common base we may name
            raise ValueError(f"not valid YAML: {exc}") from None
    return facts_of_document(doc)


# Facter's external fact files (its parser registry): ``key=value`` lines, a YAML map, a JSON
# map.  Anything else in a facts.d folder is an executable, which a preview never runs.
EXTERNAL_FACT_SUFFIXES = (".txt", ".yaml", ".json")
_TXT_FACT = re.compile(r"^(.+?)=(.+)$")
_MAX_EXTERNAL_FILES = 200


def parse_external_facts(text: str, path: str) -> dict:
    """The facts of one external fact file, read as Facter reads it: a ``.txt`` file's lines
    ``name=value`` (split at the first ``=``, nothing stripped, lines without a value
    skipped), a ``.yaml`` or ``.json`` file's map; names are lower-cased (Facter's fact names
    are).  ValueError says what is wrong."""
    if path.endswith(".txt"):
        data: dict = {}
        for line in text.splitlines():
            m = _TXT_FACT.match(line)
            if m:
                data[m.group(1)] = m.group(2)
    else:
        data = parse_facts(text, path)
        # YAML dates and times become strings, as they would in the JSON a node sends
        data = json.loads(json.dumps(data, default=str))
    return {k.lower(): v for k, v in data.items()}


def module_fact_dirs(modulepath: list | tuple) -> list:
    """The ``facts.d`` folders of the modules on ``modulepath``.  Puppet's pluginsync copies
    them to every agent of the environment, and Facter reads them as external facts, so every
    node the environment serves has these facts."""
    out = []
    for base in modulepath:
        own = os.path.join(base, "facts.d")
        if os.path.isdir(own) and os.path.isdir(os.path.join(base, "manifests")):
            out.append(own)         # a module itself (a workspace folder), not a folder of modules
            continue
        try:
            names = sorted(os.listdir(base))
        except OSError:
            continue
        for name in names:
            d = os.path.join(base, name, "facts.d")
            if os.path.isdir(d):
                out.append(d)
    return out


def external_facts(dirs: list | tuple) -> tuple[dict, list]:
    """(facts, problems) of the external fact files in ``dirs``: within a folder the files are
    read in name order, and a name a file before it set keeps that value (Facter keeps one of
    them; which is not specified).  Unreadable or malformed files are problems, never errors."""
    facts: dict = {}
    problems: list = []
    seen = 0
    for d in dirs:
        try:
            names = sorted(n for n in os.listdir(d) if not n.startswith("."))
        except OSError as exc:
            problems.append(f"external facts: cannot read {d}: {exc.strerror or exc}")
            continue
        for name in names:
            if not name.endswith(EXTERNAL_FACT_SUFFIXES):
                continue
            seen += 1
            if seen > _MAX_EXTERNAL_FILES:
                problems.append(f"external facts: more than {_MAX_EXTERNAL_FILES} files; the rest are not read")
                return facts, problems
            path = os.path.join(d, name)
            text = read_text(path)
            if text is None:
                problems.append(f"external facts: cannot read {path}")
                continue
            try:
                found = parse_external_facts(text, path)
            except ValueError as exc:
                problems.append(f"external facts: {path}: {exc}")
                continue
            for k, v in found.items():
                facts.setdefault(k, v)
    return facts, problems


def with_external_facts(ctx: PreviewContext, dirs: list | tuple) -> tuple[PreviewContext, list]:
    """(context, problems): ``ctx`` with the external facts of ``dirs`` that its fact set lacks
    (a fact the set has keeps its value: a built-in set's core facts, or what the user's own
    node reported, which already holds the external facts it had)."""
    extra, problems = external_facts(dirs)
    extra = {k: v for k, v in extra.items() if k not in ctx.facts}
    if not extra:
        return ctx, problems
    return PreviewContext({**ctx.facts, **extra}, ctx.node, ctx.label), problems


def load_context(spec: str, node: str = "", base: str | None = None, modulepath: list | tuple = (),
                 external: list | tuple = ()) -> tuple[PreviewContext | None, str | None]:
    """(context, problem) for ``spec``: a built-in fact set's name or a facts file (relative
    to ``base``), with the external facts of the modules on ``modulepath`` and of the folders
    ``external`` (relative to ``base``); an empty spec means no context (previews use what the
    file alone says).  With a context, the problem is about an external fact file."""
    ctx, problem = _fact_set_context(spec, node, base)
    if ctx is None:
        return ctx, problem
    dirs = module_fact_dirs(modulepath) + [workspace_path(d, base) for d in external]
    ctx, problems = with_external_facts(ctx, dirs)
    return ctx, "; ".join(problems) or None


def workspace_path(path: str, base: str | None) -> str:
    """``path`` of a setting (``~`` expanded), relative to the workspace folder ``base``."""
    path = os.path.expanduser(path)
    return os.path.join(base, path) if base and not os.path.isabs(path) else path


def _fact_set_context(spec: str, node: str, base: str | None) -> tuple[PreviewContext | None, str | None]:
    spec = spec.strip()
    if not spec:
        return None, None
    builtin = fact_set(spec)
    if builtin is not None:
        return make_context(builtin, node or None, spec, rename=True), None
    path = workspace_path(spec, base)
    if not os.path.isfile(path):
        return None, (f"facts: {spec!r} is neither a built-in fact set ({', '.join(fact_set_names())}) "
                      "nor a facts file")
    text = read_text(path)
    if text is None:
        return None, f"facts: cannot read {path}"
    try:
        facts = parse_facts(text, path)
    except ValueError as exc:
        return None, f"facts: {path}: {exc}"
    return make_context(facts, node or None, os.path.basename(path)), None


def class_resolver(find: Callable[[str], str | None], read: Callable[[str], str | None] = read_text,
                   limit: int = 256) -> Callable[[str], Analysis | None]:
    """``classes`` of a preview context: the analysis of the file that ``find`` says defines a
    class (read with ``read``), kept for the ``limit`` most recently used files."""
    cache: collections.OrderedDict = collections.OrderedDict()
    lock = threading.Lock()          # the server previews from several threads

    def resolve(name: str) -> Analysis | None:
        path = find(name)
        if path is None:
            return None
        text = read(path)
        if text is None:
            return None
        key = (path, hash(text))
        with lock:
            found = cache.get(key)
            if found is not None:
                cache.move_to_end(key)
                return found
        found = analyze(parse_for_path(text, path))
        with lock:
            cache[key] = found
            while len(cache) > limit:
                cache.popitem(last=False)
        return found
    return resolve


RECHECK_SECONDS = 1.0


def parameter_resolver(hiera_of: Callable[[], Any], context: PreviewContext, limit: int = 4096,
                       generation: Callable[[], int] = lambda: 0) -> Callable[[str, str], tuple | None]:
    """``parameters`` of a preview context: automatic parameter lookup in the Hiera that
    ``hiera_of`` gives (the server makes it again when data change; None: no Hiera), asked
    again at most every ``RECHECK_SECONDS`` (a preview reads many parameters) unless
    ``generation`` says the data changed, for the context's node; answers are kept while that
    Hiera object is the same."""
    from puppet_ls.language.eval.context import Settings
    from puppet_ls.language.hiera.automatic import FOUND, UNKNOWN, class_parameter
    settings = context.evaluator_settings()
    facts, trusted = settings["facts"], settings["trusted"]
    # a top-scope variable a hierarchy may interpolate besides facts: the environment previews assume
    variables = {"environment": Settings().environment}
    memo: dict = {}
    state: dict = {"hiera": None, "asked": -RECHECK_SECONDS, "generation": generation()}
    lock = threading.Lock()

    def current_hiera() -> Any:
        now = time.monotonic()
        gen = generation()
        with lock:
            if now - state["asked"] < RECHECK_SECONDS and gen == state["generation"]:
                return state["hiera"]
        hiera = hiera_of()
        with lock:
            if hiera is not state["hiera"]:
                memo.clear()
            state["hiera"], state["asked"], state["generation"] = hiera, now, gen
        return hiera

    def resolve(class_name: str, param: str) -> tuple | None:
        hiera = current_hiera()
        if hiera is None:
            return None
        key = (class_name, param)
        with lock:
            if key in memo:
                return memo[key]
        pv = class_parameter(hiera, class_name, param, facts, trusted, variables)
        answer = None if pv.status not in (FOUND, UNKNOWN) else (pv.source if pv.status == FOUND else None, pv.origin)
        with lock:
            if len(memo) >= limit:
                memo.clear()
            memo[key] = answer
        return answer
    return resolve
