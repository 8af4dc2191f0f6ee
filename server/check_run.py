"""Running ``puppet-ls check`` over many files: the per-file loop behind the command, which
``cli.check`` only feeds with files and options and whose reports it prints.

Each file is parsed once per run.  The workspace index the checks need (what the checked modules
and the modulepath define) is built first; a checked file that is also a module file is parsed
for the index and the same tree and scopes are kept to check it afterwards (up to
``KEEP_CHARS`` characters of source per run, shared by its processes, beyond which a file is
parsed again rather than held: memory stays bounded).  With ``jobs`` > 1 the indexing and the
checks run in worker processes (``python -m puppet_ls.server.check_run``).  Reports come back
in the order of the files, whatever order they were made in.

Results are kept in the cache folder of ``index_cache.py``: a file whose bytes, path and
configuration did not change is not checked again while the answers its checks got from the
index are the same (see ``run_check`` and docs/decisions.md).

A failure of puppet-ls on one file, or a file taking over the time limit, becomes a diagnostic
on that file while the others are still checked, also when it happens in a worker.
"""
from __future__ import annotations

import collections
import contextlib
import functools
import gc
import hashlib
import json
import marshal
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, cast

from puppet_ls.language.diagnostics import Diagnostic
from puppet_ls.language.ide.diagnostics import file_diagnostics, internal_error, source_diagnostics
from puppet_ls.language.ide.filekinds import PUPPETFILE, document_kind, is_puppet
from puppet_ls.language.ide.puppetfile import puppetfile_diagnostics
from puppet_ls.language.syntax.lexer import detect_bom
from puppet_ls.language.syntax.parser import ParseResult

from .deadline import DEFAULT_FILE_TIMEOUT, FileTimeout, left_out_of_index, time_limit
from .files import DEFAULT_MAX_FILE_BYTES, ReadProblem, display_path, read_bounded
from .pipes import answers_stream, receive_message, send_message

if TYPE_CHECKING:   # the checker is imported only when a file is checked: a warm run needs none of it
    from puppet_ls.language.check.scopes import FileModel

# Trees kept from indexing until their file is checked, with their scope model, cost about 17
# bytes of memory per character of source (tree 8.7, model 7.8; the tree was 20 before green
# tokens were shared, when this was 3 M): beyond this many characters (per run, shared by the
# processes) a file is parsed again instead.  5 M keeps the whole corpus but for its largest
# module files within the 300 MB that `check --jobs 2` may take over it (benchmarks/check_speed.py).
KEEP_CHARS = 5_000_000


@dataclass
class FileReport:
    path: str                 # as printed (bytes that are not UTF-8 shown as \xNN)
    text: str | None          # what positions refer to (None when nothing could be read)
    diagnostics: list
    ignored: list = field(default_factory=list)   # (diagnostic, reason) silenced by control comments


@dataclass(frozen=True)
class CheckOptions:
    """What every file of a run is checked with."""

    max_bytes: int = DEFAULT_MAX_FILE_BYTES
    file_timeout: float | None = DEFAULT_FILE_TIMEOUT
    lint: frozenset | None = None     # the style checks to run (None: none)
    keep_chars: int = KEEP_CHARS
    cache_dir: str | None = None      # where results are kept between runs (None: nowhere)
    config_key: str = ""              # what else the results depend on (the configuration)
    jobs: int = 1
    facts: str = ""                   # --facts: a built-in fact set or a facts file ("": none)
    node: str = ""                    # --node
    external_facts: tuple = ()        # folders of the node's external facts (modules' facts.d, --external-facts)


def source_text(data: bytes) -> tuple[str | None, list[Diagnostic], str | None]:
    """The text of a source file's bytes, or diagnostics saying why there is none (a byte
    order mark, bytes that are not UTF-8), and the text the diagnostics' positions refer to."""
    bom = detect_bom(data)
    if bom is not None:
        name, mark = bom
        diag = Diagnostic.of("ILLEGAL_BOM", 0, 0, kind=name, bytes=" ".join(f"{b:02X}" for b in mark))
        if name != "UTF-8":
            return None, [diag], ""
        data = data[len(mark):]
        prefix_diags = [diag]
    else:
        prefix_diags = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # Point at the first bad byte: decode what is valid before it to get a character offset.
        good = data[:exc.start].decode("utf-8", errors="replace")
        return None, [Diagnostic.of("NOT_UTF8", len(good), len(good) + 1, byte=exc.start, value=f"{data[exc.start]:#04x}")], \
            data.decode("utf-8", errors="replace")
    return text, prefix_diags, text


def read_source(path: str | os.PathLike, limit: int = DEFAULT_MAX_FILE_BYTES
                ) -> tuple[str | None, list[Diagnostic], str | None]:
    """The text of a source file, or diagnostics saying why there is none, and the text that
    the diagnostics' positions refer to."""
    data = read_bounded(path, limit)
    if isinstance(data, ReadProblem):
        return None, [Diagnostic.of(data.code, 0, 0, **data.args)], None
    return source_text(data)


@dataclass
class Parsed:
    """A checked file's tree and scopes, kept from indexing it."""

    result: ParseResult
    model: FileModel


def check_data(path: str | os.PathLike, data: bytes | ReadProblem, env=None, options: CheckOptions = CheckOptions(),
               parsed: Parsed | None = None) -> FileReport:
    """Every diagnostic of one file whose bytes were read (or could not be).  ``parsed``: the
    tree the index made of the same text, checked instead of parsing again.  Never raises for
    anything the file holds: reading problems, a failure of puppet-ls and running out of time
    all become diagnostics."""
    shown = display_path(path)
    try:
        if isinstance(data, ReadProblem):
            return FileReport(shown, None, [Diagnostic.of(data.code, 0, 0, **data.args)])
        text, diags, located = source_text(data)
        if text is None:
            return FileReport(shown, located, diags)
        ignored: list = []
        timeout = options.file_timeout
        # the absolute path (links not resolved, as puppet-lint does) for the layout check
        # (standard input without --stdin-filename has no path: no layout check)
        where = os.path.abspath(path) if os.fspath(path) != "-" else ""
        kind = document_kind(where)
        if not is_puppet(kind):     # a Puppetfile, YAML, JSON, Ruby: never parsed as Puppet
            return FileReport(shown, text, diags + _other_document(kind, text, env))
        try:
            with time_limit(timeout):
                analysis = None
                if parsed is not None and parsed.result.text == text:
                    from puppet_ls.language.check.analysis import Analysis
                    analysis = Analysis(parsed.result, env, parsed.model)
                    result: ParseResult | None = parsed.result
                    found = file_diagnostics(parsed.result, env, analysis, path=where, lint=options.lint,
                                             ignored=ignored)
                else:
                    result, found = source_diagnostics(text, where, env, lint=options.lint, ignored=ignored)
                if options.facts and result is not None:
                    found = sorted(found + node_diagnostics(result, env, options, analysis), key=lambda d: d.offset)
        except FileTimeout:
            found = [Diagnostic.of("CHECK_TIMEOUT", 0, 0, seconds=f"{timeout:g}")]
        return FileReport(shown, text, diags + found, ignored)
    except Exception as exc:  # noqa: BLE001 - last line of defence: a bug outside the engine stages
        return FileReport(shown, None, [internal_error("checking", exc)])


@functools.lru_cache(maxsize=4)
@functools.lru_cache(maxsize=4)
def _node_context(facts: str, node: str, external: tuple):
    """The context of ``--facts``, read once per process (every file of a run shares it)."""
    from .factsfile import load_context
    return load_context(facts, node, external=external)[0]


def node_diagnostics(result: ParseResult, env, options: CheckOptions, analysis=None) -> list:
    """``check --facts``: what the chosen node runs into (``NODE_FAILS``: a ``fail()`` its
    facts lead to), from ``language/ide/preview.node_findings``; nothing for a file with
    syntax errors.  Class parameters take their defaults (no Hiera, no other classes)."""
    from puppet_ls.language.check import analyze
    from puppet_ls.language.ide.preview import PreviewBudget, node_findings
    from puppet_ls.language.syntax import kinds as K
    ctx = _node_context(options.facts, options.node, options.external_facts)
    if ctx is None or result.errors or result.root.kind != K.SOURCE_FILE:
        return []
    an = analysis if analysis is not None else analyze(result, env)
    return node_findings(an, PreviewBudget(steps=200_000, seconds=1.0, total_seconds=10.0, context=ctx))


def _other_document(kind: str, text: str, env) -> list:
    """The findings of a file that is not Puppet code: a Puppetfile's modules that the index
    does not hold (nothing without an index: every module would look missing)."""
    if kind == PUPPETFILE and env is not None:
        return puppetfile_diagnostics(text, env.modules())
    return []


def check_file(path: str | os.PathLike, env=None, max_bytes: int = DEFAULT_MAX_FILE_BYTES,
               timeout: float | None = DEFAULT_FILE_TIMEOUT, lint: frozenset | None = None,
               data: bytes | None = None) -> FileReport:
    """Every diagnostic of one file (with the style checks named in ``lint``), read from disk
    unless its bytes are given (standard input)."""
    if data is not None:
        return check_data(path, data, env, CheckOptions(max_bytes, timeout, lint))
    try:
        read = read_bounded(path, max_bytes)
    except Exception as exc:  # noqa: BLE001 - last line of defence, as in check_data
        return FileReport(display_path(path), None, [internal_error("checking", exc)])
    return check_data(path, read, env, CheckOptions(max_bytes, timeout, lint))


def _identity(path: str) -> tuple | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _tasks_mode(path: str) -> bool:
    """Whether ``parse_for_path`` parses ``path`` with Bolt's plan keywords."""
    return "/plans/" in path.replace("\\", "/")


# ---- where results are kept -------------------------------------------------------------------

CACHE_FOLDER_NAME = ".puppet-ls-cache"
NO_CACHE_VAR = "PUPPET_LS_NO_CACHE"
_PROJECT_MARKERS = (".git", ".puppet-lint.rc", "environment.conf", "metadata.json")


def default_cache_dir(start: str | None = None) -> str | None:
    """Where ``check`` keeps results: ``$PUPPET_LS_CACHE_DIR`` when set; else a
    ``.puppet-ls-cache`` folder at the project root (the nearest folder at or above ``start``,
    the working directory, holding ``.git``, ``.puppet-lint.rc``, ``environment.conf`` or
    ``metadata.json``) when it may be written; else the user's cache folder
    (``$XDG_CACHE_HOME/puppet-ls``).  None when ``$PUPPET_LS_NO_CACHE`` is set."""
    from .index_cache import ENV_VAR, default_folder
    if os.environ.get(NO_CACHE_VAR):
        return None
    if os.environ.get(ENV_VAR):
        return default_folder()
    here = os.path.abspath(start or os.getcwd())
    while True:
        if any(os.path.exists(os.path.join(here, m)) for m in _PROJECT_MARKERS):
            if os.access(here, os.W_OK):
                return prepare_cache_dir(os.path.join(here, CACHE_FOLDER_NAME))
            break
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    return default_folder()


def prepare_cache_dir(folder: str) -> str:
    """Make a project's cache folder ignored by git and by backup tools, as ruff does (a
    failure only means the marker files are missing)."""
    if not os.path.isdir(folder):
        try:
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, ".gitignore"), "w", encoding="utf-8") as f:
                f.write("# Made by puppet-ls check: its cache, safe to remove.\n*\n")
            with open(os.path.join(folder, "CACHEDIR.TAG"), "w", encoding="utf-8") as f:
                f.write("Signature: 8a477f597d28d172789f06886806bc55\n"
                        "# This folder is the cache of puppet-ls check (https://bford.info/cachedir/).\n")
        except OSError:
            pass
    return folder


# ---- what a file's checks asked of the index -----------------------------------------------------

@functools.lru_cache(maxsize=1)
def _fingerprinted() -> tuple:
    """Which fields of ``Entity`` (in ``_entity_tuple``'s order) a lookup's fingerprint keeps."""
    from .index_cache import _ENTITY_FIELDS
    return tuple(name not in ("offset", "end", "doc", "extra") for name in _ENTITY_FIELDS)


def fingerprint(env, query: tuple) -> str:
    """A digest of the index's answer to ``query`` (as ``RecordingEnv`` records it): equal
    fingerprints, equal answers, so a cached result that asked it still holds."""
    from .index_cache import _entity_tuple
    op = query[0]
    value: Any
    if op == "lookup":
        # Where a definition sits in its file and its documentation are left out: no check
        # reports them for another file's definition, and they change with every edit above it.
        keep_field = _fingerprinted()
        # sets sorted: their order follows string hashes, which differ between processes
        value = [tuple(tuple(sorted(v)) if isinstance(v, frozenset) else v
                       for v, keep in zip(_entity_tuple(e), keep_field) if keep)
                 for e in env.lookup(query[1], query[2])]
    elif op == "names":
        value = env.names(query[1])
    elif op == "has_fact":
        value = env.has_fact(query[1])
    elif op == "has_top_variable":
        value = env.has_top_variable(query[1])
    elif op == "modules":
        value = sorted(env.modules())
    elif op == "alias_scope":
        value = sorted((e.name, e.body_text) for e in env.entities("type_alias"))
    else:
        value = env.complete
    # repr, not marshal: marshal's bytes depend on which strings are interned and which
    # objects are shared, which differ between processes that imported different modules (a
    # worker's fingerprints then never matched the main process's: every result that asked
    # about a changed file's module was checked again)
    return hashlib.blake2b(repr(value).encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


class RecordingEnv:
    """The index (an ``Environment``) as the checks of one file see it, noting each question
    they ask and the fingerprint of its answer (``deps``): what decides whether the file's cached result is
    still right when other files change.  ``answers`` memoizes fingerprints across files."""

    def __init__(self, env, answers: dict):
        self._env = env
        self._answers = answers
        self.deps: dict = {}

    def _note(self, query: tuple) -> None:
        fp = self._answers.get(query)
        if fp is None:
            fp = self._answers[query] = fingerprint(self._env, query)
        self.deps[query] = fp

    @property
    def complete(self) -> bool:
        self._note(("complete",))
        return self._env.complete

    def modules(self) -> frozenset:
        self._note(("modules",))
        return self._env.modules()

    def lookup(self, kind: str, name: str) -> list:
        self._note(("lookup", kind, name))
        return self._env.lookup(kind, name)

    def names(self, kind: str) -> list:
        self._note(("names", kind))
        return self._env.names(kind)

    def has_fact(self, name: str) -> bool:
        self._note(("has_fact", name))
        return self._env.has_fact(name)

    def has_top_variable(self, name: str) -> bool:
        self._note(("has_top_variable", name))
        return self._env.has_top_variable(name)

    def alias_scope(self):
        self._note(("alias_scope",))
        return self._env.alias_scope()

    def knows_module_of(self, name: str) -> bool:
        # the protocol's own rule, asked through this object so that modules() is noted
        from puppet_ls.language.check.env import Environment
        return Environment.knows_module_of(self, name)  # type: ignore[arg-type]


# ---- results as plain data (for the cache and the worker processes) ---------------------------

_MAGIC = "puppet-ls-check"
# Findings that depend on the moment, not on the file: never kept.
_TRANSIENT = frozenset({"CHECK_TIMEOUT", "CHECK_INTERNAL_ERROR"})


def _diag_tuple(d: Diagnostic) -> tuple:
    return (d.offset, d.end, d.severity, d.code, d.message, d.related)


def report_data(report: FileReport, deps: dict) -> tuple:
    """(diagnostics, ignored, deps, cacheable) of a report, as ``marshal`` can carry them."""
    diags = tuple(_diag_tuple(d) for d in report.diagnostics)
    ignored = tuple((_diag_tuple(d), reason) for d, reason in report.ignored)
    cacheable = report.text is not None and not any(d.code in _TRANSIENT for d in report.diagnostics)
    return diags, ignored, tuple(deps.items()), cacheable


def report_of(path: str, data: bytes, diags: tuple, ignored: tuple) -> FileReport:
    located = source_text(data)[2]
    return FileReport(display_path(path), located, [Diagnostic(*d) for d in diags],
                      [(Diagnostic(*d), reason) for d, reason in ignored])


def _cached(blob: bytes | None) -> tuple | None:
    """(index digest, deps, diagnostics, ignored) of a stored result (None for anything else)."""
    if blob is None:
        return None
    try:
        magic, digest, deps, diags, ignored = marshal.loads(blob)
    except (EOFError, ValueError, TypeError):
        return None
    return (digest, deps, diags, ignored) if magic == _MAGIC else None


def config_key(options: CheckOptions) -> str:
    """What a check's result depends on besides the file, its path and the index."""
    lint = ",".join(sorted(options.lint)) if options.lint else ""
    node = ""
    if options.facts:
        # a facts file's content, not only its name, decides the findings
        data = read_bounded(options.facts, DEFAULT_MAX_FILE_BYTES) if os.path.isfile(options.facts) else b""
        digest = hashlib.blake2b(data if isinstance(data, bytes) else b"", digest_size=8).hexdigest()
        node = f"|facts={options.facts}:{digest}|node={options.node}"
        if options.external_facts:
            from .factsfile import external_facts
            found = json.dumps(external_facts(options.external_facts)[0], sort_keys=True, default=str)
            node += "|external=" + hashlib.blake2b(found.encode(), digest_size=8).hexdigest()
    return f"{CACHE_FORMAT}|{lint}|{options.config_key}{node}"


CACHE_FORMAT = 3      # changes with what results or fingerprints hold


# ---- the run ----------------------------------------------------------------------------------

def run_check(files: list, modulepath: list, options: CheckOptions,
              warn: Callable[[str], None] = lambda message: None, roots: list | None = None,
              exclude=None) -> Iterator[FileReport]:
    """The reports of ``files`` (paths), in their order, checked against an index of the
    modules they belong to and of the ``modulepath`` directories.  ``warn`` receives what the
    user should know that is no file's diagnostic (a module file left out of the index).
    ``roots``: the module and environment folders to index (by default those of ``files``);
    ``exclude``: what the index does not read (server/config.py's excluder).

    With a cache folder (``options.cache_dir``), a file whose bytes, path and configuration
    are unchanged is not checked again: when no module file changed either its stored result
    is used as is; otherwise the index is rebuilt (from the cache where it can) and the stored
    result is used when every question its checks asked of the index has the same answer."""
    from .index_cache import IndexCache
    from .workspace import index_files, module_roots_of

    paths = [str(f) for f in files]
    if exclude is None:
        index, sources = index_files(module_roots_of(paths) if roots is None else roots, modulepath)
    else:
        index, sources = index_files(module_roots_of(paths) if roots is None else roots, modulepath, exclude=exclude)
    cache = IndexCache(options.cache_dir) if options.cache_dir else None
    digest = hashlib.blake2b(digest_size=16)
    digest.update(repr((index.complete, sorted(index.module_roots.items()))).encode("utf-8", "surrogateescape"))
    items: list = []        # (SourceFile, bytes, cache key) of the module files
    for sf in sources:
        data = read_bounded(sf.path, options.max_bytes)
        if isinstance(data, ReadProblem):
            continue
        key = cache.key(sf.path, sf.module, sf.role, data) if cache is not None else ""
        digest.update(key.encode("ascii") + b"\0")
        items.append((sf, data, key))
    index_digest = digest.hexdigest()
    # one snapshot of the index per set of module folders
    snapshot_key = (cache.key("", "check-index-snapshot", repr(sorted(index.module_roots.items())), b"")
                    if cache is not None else "")

    config = config_key(options)
    # Results made with another index that were found still right with this one (a single
    # record, rather than rewriting every result after each change to a module file).
    valid_key = cache.key("", "check-valid", config, index_digest.encode("ascii")) if cache is not None else ""
    validated = _key_set(cache.get_blob(valid_key)) if cache is not None else frozenset()
    count = len(paths)
    ready: list = [None] * count
    datas: list = [None] * count
    keys: list = [""] * count
    stale: dict = {}        # position -> a stored result made with another index
    pending: list = []
    # by (device, inode): a module file named through a link (a modulepath of symlinked
    # module folders) is still the file the index read
    module_data = {sf.ident: data for sf, data, _ in items if sf.ident}
    for n, path in enumerate(paths):
        try:
            # a checked module file was just read for the index
            known = module_data.get(_identity(path)) if module_data else None
            data = known if known is not None else read_bounded(path, options.max_bytes)
        except Exception as exc:  # noqa: BLE001 - last line of defence, as in check_data
            ready[n] = FileReport(display_path(path), None, [internal_error("checking", exc)])
            continue
        datas[n] = data
        if cache is not None and not isinstance(data, ReadProblem):
            keys[n] = cache.key(os.path.abspath(path), "check", config, data)
            found = _cached(cache.get_blob(keys[n]))
            if found is not None:
                if found[0] == index_digest or keys[n] in validated:
                    ready[n] = report_of(path, data, found[2], found[3])
                    continue
                stale[n] = found
        pending.append(n)

    with _batch_gc():
        yield from _finish(paths, datas, ready, keys, pending, stale, items, index, index_digest,
                           cache, valid_key, validated, options, warn, snapshot_key)


def _finish(paths: list, datas: list, ready: list, keys: list, pending: list, stale: dict, items: list,
            index, index_digest: str, cache, valid_key: str, validated: frozenset, options: CheckOptions,
            warn: Callable[[str], None], snapshot_key: str) -> Iterator[FileReport]:
    """The second half of ``run_check``: index and check what the cache did not answer, and
    give out every report in order."""
    count = len(paths)
    work: _CheckWork | _WorkerPool | None = None
    if pending:
        fresh = [n for n in pending if n not in stale]     # certainly checked
        work = _CheckWork(paths, datas, options, warn)
        if len(fresh) >= PARALLEL_MIN:
            work = _pool_or(work, paths, datas, options, warn)
        answers: dict = {}
        _build_index(index, items, cache, work, set(fresh), snapshot_key)
        gc.freeze()
        todo = []
        still = []
        for n in pending:
            found = stale.get(n)
            if found is not None and all(_answer(answers, index, q) == fp for q, fp in found[1]):
                ready[n] = report_of(paths[n], datas[n], found[2], found[3])
                still.append(keys[n])
            else:
                todo.append(n)
        if still and cache is not None:
            cache.put_blob(valid_key, marshal.dumps(("puppet-ls-valid", tuple(sorted(validated.union(still))))))
        if len(todo) >= PARALLEL_MIN and isinstance(work, _CheckWork):
            work = _pool_or(work, paths, datas, options, warn)
        results = work.check(index, todo, answers)
    else:
        results = iter(())
    try:
        for n in range(count):
            while ready[n] is None:
                m, report, (diags, ignored, deps, cacheable) = next(results)
                ready[m] = report
                if cache is not None and cacheable:
                    cache.put_blob(keys[m], marshal.dumps((_MAGIC, index_digest, deps, diags, ignored)))
            yield ready[n]
            ready[n] = _DONE
    finally:
        if isinstance(work, _WorkerPool):
            work.close()
        if cache is not None:
            cache.close()


_DONE = FileReport("", None, [])     # a report already given out


def _pool_or(work: _CheckWork, paths: list, datas: list, options: CheckOptions,
             warn: Callable[[str], None]) -> _CheckWork | _WorkerPool:
    """Worker processes for the rest of the run when ``options.jobs`` asks for them and they
    start, else ``work`` (this process)."""
    if options.jobs <= 1:
        return work
    pool = _WorkerPool(options.jobs, paths, datas, options, warn)
    return pool if pool.start() else work


@contextmanager
def _batch_gc() -> Iterator[None]:
    """The cyclic garbage collector tuned for a batch run: collections less often, and
    (``gc.freeze`` once the index and the kept trees exist) never over those long-lived
    objects, which hold no garbage: 10% of the CPU of checking the corpus in one process."""
    old = gc.get_threshold()
    gc.set_threshold(20_000, 50, 1000)
    try:
        yield
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()


def _key_set(blob: bytes | None) -> frozenset:
    try:
        magic, keys = marshal.loads(blob) if blob is not None else ("", ())
    except (EOFError, ValueError, TypeError):
        return frozenset()
    return frozenset(keys) if magic == "puppet-ls-valid" else frozenset()


def _answer(answers: dict, index, query: tuple) -> str:
    fp = answers.get(query)
    if fp is None:
        fp = answers[query] = fingerprint(index, query)
    return fp


def _build_index(index, items: list, cache, work: _CheckWork | _WorkerPool, to_check: set,
                 snapshot_key: str = "") -> None:
    """Add every module file's entry to ``index`` in file order: from the cache, or parsed
    by ``work``, which keeps the trees of the files in ``to_check`` for their checks.  The
    stored forms of the whole index are kept as one snapshot (under ``snapshot_key``) rather
    than as one entry per file: a run after a change reads one file instead of one per module
    file, and a cold run writes one instead of thousands."""
    from .index_cache import dumps, loads
    wanted: dict = {}
    for n in to_check:
        ident = _identity(work.paths[n])
        if ident is not None:
            wanted.setdefault(ident, n)
    stored = _snapshot(cache.get_blob(snapshot_key)) if cache is not None and snapshot_key else {}
    slots: list = [None] * len(items)
    blobs: dict = {}
    misses = []
    for i, (sf, data, key) in enumerate(items):
        blob = stored.get(key)
        entry = loads(blob) if blob is not None else None
        if entry is not None:
            blobs[key] = blob
        elif cache is not None:
            entry = cache.get(key)
        if entry is None:
            misses.append((i, sf, data, wanted.get(sf.ident, -1)))
        else:
            slots[i] = entry
    for i, entry in work.index(misses):
        slots[i] = entry
        if entry is not None and cache is not None and not snapshot_key:
            cache.put(items[i][2], entry)
    for entry in slots:
        if entry is not None:
            index.add(entry)
    if cache is not None and snapshot_key and len(blobs) != len(items):
        forms = tuple((key, blobs.get(key) or dumps(entry))
                      for (_, _, key), entry in zip(items, slots) if entry is not None)
        cache.put_blob(snapshot_key, marshal.dumps((_SNAPSHOT, forms)))


_SNAPSHOT = "puppet-ls-index-snapshot"


def _snapshot(blob: bytes | None) -> dict:
    try:
        magic, forms = marshal.loads(blob) if blob is not None else ("", ())
    except (EOFError, ValueError, TypeError):
        return {}
    return dict(forms) if magic == _SNAPSHOT else {}


class _CheckWork:
    """Indexing and checking in this process."""

    def __init__(self, paths: Any, datas: Any, options: CheckOptions, warn: Callable[[str], None]):
        self.paths = paths      # position -> path, bytes: the run's lists, or a worker's dicts
        self.datas = datas
        self.options = options
        self.warn = warn
        self.kept: dict = {}
        self.budget = options.keep_chars    # characters of source whose trees may still be kept

    def guard(self, path: str) -> AbstractContextManager:
        # One module file that takes too long to index is left out, with a word, not waited for.
        return left_out_of_index(path, self.options.file_timeout, self.warn)

    def index(self, misses: list) -> Iterator[tuple]:
        """(position, entry or None) of each (position, SourceFile, bytes, checked file or -1)."""
        from puppet_ls.language.check.scopes import FileModel
        from puppet_ls.language.ide.index import PUPPET_ROLES, index_model, parse_for_role

        from .index_worker import decode, index_one
        for i, sf, data, n in misses:
            entry = None
            if (n >= 0 and sf.role in PUPPET_ROLES and len(data) <= self.budget
                    and _tasks_mode(self.paths[n]) == (sf.role == "plan")):
                text = decode(data)
                try:
                    with self.guard(sf.path):
                        model = FileModel(parse_for_role(text, sf.role))
                        entry = index_model(sf.path, sf.module, sf.role, model)
                        self.kept[n] = Parsed(model.result, model)
                        self.budget -= len(text)
                except Exception:   # noqa: BLE001 - one odd file must not stop indexing
                    entry = None
            else:
                entry = index_one(sf.path, sf.module, sf.role, data, self.guard)
            yield i, entry

    def check(self, index, todo: list, answers: dict) -> Iterator[tuple]:
        """(position, report, ``report_data``) of each file of ``todo``."""
        for n in todo:
            env = RecordingEnv(index, answers)
            report = check_data(self.paths[n], self.datas[n], env, self.options, self.kept.pop(n, None))
            yield n, report, report_data(report, env.deps)


# ---- worker processes -------------------------------------------------------------------------

PARALLEL_MIN = 64       # fewer files to check than this: starting processes costs more than it saves
WORKER_COMMAND = [sys.executable, "-m", "puppet_ls.server.check_run"]
_GRACE = 5.0            # a worker's own alarm stops a slow file; this long after it, the worker is killed


def worker_main() -> int:
    """A worker process (``python -m puppet_ls.server.check_run``): reads framed ``marshal``-ed
    requests on stdin (options, files to index, the index, files to check) and answers each
    file on stdout.  A plain child process, not ``multiprocessing``: that would import the
    parent's ``__main__`` again in every worker, while this imports only the checker."""
    from puppet_ls.language.ide.index import WorkspaceIndex

    from .index_cache import dumps, loads
    stdin = sys.stdin.buffer
    stdout = answers_stream()
    # Ctrl-C reaches the whole process group: the parent decides, and closes our stdin.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    work: _CheckWork | None = None
    index = None
    answers: dict = {}
    while True:
        msg = receive_message(stdin)
        if msg is None:
            return 0
        op = msg[0]
        if op == "options":
            max_bytes, timeout, lint, keep, facts, node, external = msg[1:]
            options = CheckOptions(max_bytes, timeout, frozenset(lint) if lint is not None else None, keep,
                                   facts=facts, node=node, external_facts=tuple(external))
            warnings: list = []
            work = _CheckWork({}, {}, options, warnings.append)
            gc.set_threshold(20_000, 50, 1000)   # see _batch_gc
        elif op == "index":
            assert work is not None
            i, path, module, role, ident, data, n, check_path = msg[1:]
            warnings.clear()
            if n >= 0:
                work.paths[n] = check_path
            from .workspace import SourceFile
            (_, entry), = work.index([(i, SourceFile(path, module, role, ident), data, n)])
            send_message(stdout, ("indexed", i, dumps(entry) if entry is not None else None, n in work.kept,
                                  tuple(warnings)))
        elif op == "env":
            complete, roots, blobs = msg[1:]
            index = WorkspaceIndex(complete)
            for name, root in roots:
                index.add_module(name, root)
            for blob in blobs:
                entry = loads(blob)
                if entry is not None:
                    index.add(entry)
            answers = {}
            gc.freeze()         # see _batch_gc
        elif op == "check":
            assert work is not None
            n, path, data = msg[1:]
            work.paths[n] = path
            work.datas[n] = data
            (_, _report, rdata), = work.check(index, [n], answers)
            work.datas.pop(n, None)
            send_message(stdout, ("checked", n) + rdata)


@dataclass
class _Worker:
    proc: subprocess.Popen
    task: tuple | None = None       # what it is working on
    deadline: float | None = None
    has_env: bool = False

    @property
    def stdin(self) -> IO[bytes]:
        return cast(IO[bytes], self.proc.stdin)

    @property
    def stdout(self) -> IO[bytes]:
        return cast(IO[bytes], self.proc.stdout)


class _WorkerPool:
    """Indexing and checking in ``jobs`` worker processes, with the interface of ``_CheckWork``:
    a file's tree stays in the worker that indexed it, which checks it (others would parse it
    again); a worker that dies or stops answering costs only the file it was working on."""

    def __init__(self, jobs: int, paths: list, datas: list, options: CheckOptions, warn: Callable[[str], None]):
        self.jobs = jobs
        self.paths = paths
        self.datas = datas
        self.options = options
        self.warn = warn
        self.workers: list = []
        self.owner: dict = {}       # checked file -> the worker keeping its tree
        self.env_message: tuple | None = None
        self.sel = selectors.DefaultSelector()

    def _start(self) -> _Worker | None:
        try:
            proc = subprocess.Popen(WORKER_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        except OSError:
            return None
        w = _Worker(proc)
        o = self.options
        try:
            send_message(w.stdin, ("options", o.max_bytes, o.file_timeout,
                                   tuple(sorted(o.lint)) if o.lint is not None else None, o.keep_chars // self.jobs,
                                   o.facts, o.node, o.external_facts))
        except OSError:
            self._stop(w)
            return None
        self.sel.register(w.stdout, selectors.EVENT_READ, w)
        return w

    def start(self) -> bool:
        for _ in range(self.jobs):
            w = self._start()
            if w is not None:
                self.workers.append(w)
        return bool(self.workers)

    def _stop(self, w: _Worker) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self.sel.unregister(w.stdout)
        with contextlib.suppress(OSError):
            w.proc.kill()
        w.proc.wait()
        for stream in (w.stdin, w.stdout):
            with contextlib.suppress(OSError):
                stream.close()

    def close(self) -> None:
        for w in self.workers:
            with contextlib.suppress(OSError):
                w.stdin.close()
        for w in self.workers:
            try:
                w.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                w.proc.kill()
                w.proc.wait()
            with contextlib.suppress(OSError):
                w.stdout.close()
        self.sel.close()

    def _give(self, w: _Worker, task: tuple) -> bool:
        timeout = self.options.file_timeout
        try:
            if task[0] == "check" and not w.has_env:
                assert self.env_message is not None
                send_message(w.stdin, self.env_message)
                w.has_env = True
            send_message(w.stdin, task)
        except OSError:
            return False
        w.task = task
        w.deadline = time.monotonic() + timeout + _GRACE if timeout else None
        return True

    def _replace(self, w: _Worker) -> None:
        """Stop ``w`` (dead or stuck) and start another in its place (trees it kept are lost:
        their files are parsed again by whoever checks them)."""
        self._stop(w)
        self.workers.remove(w)
        for n, owner in list(self.owner.items()):
            if owner is w:
                del self.owner[n]
        fresh = self._start()
        if fresh is not None:
            self.workers.append(fresh)

    def _run(self, tasks: Callable[[_Worker | None], tuple | None], failed: Callable[[tuple, str], tuple]) -> Iterator[tuple]:
        """Hand out ``tasks(worker)`` to idle workers until there are none, yielding (worker,
        task, answer) for each; a task whose worker died or timed out is answered by
        ``failed(task, why)`` (and its worker is None)."""
        while True:
            for w in list(self.workers):
                if w.task is None:
                    task = tasks(w)
                    if task is not None and not self._give(w, task):
                        yield None, task, failed(task, "ended")
                        self._replace(w)
            if not self.workers:    # none could be (re)started: what is left fails
                while (task := tasks(None)) is not None:
                    yield None, task, failed(task, "ended")
                return
            busy = [w for w in self.workers if w.task is not None]
            if not busy:
                return
            deadlines = [w.deadline for w in busy if w.deadline is not None]
            wait = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
            for key, _ in self.sel.select(wait):
                w = key.data
                task = w.task
                answer = receive_message(w.stdout)
                w.task = w.deadline = None
                if answer is None:
                    if task is not None:
                        yield None, task, failed(task, "ended")
                    self._replace(w)
                elif task is not None:
                    yield w, task, answer
            now = time.monotonic()
            for w in list(self.workers):
                if w.task is not None and w.deadline is not None and now > w.deadline:
                    task = w.task
                    yield None, task, failed(task, "timeout")
                    self._replace(w)

    def index(self, misses: list) -> Iterator[tuple]:
        queue = collections.deque(misses)

        def next_task(w: _Worker | None) -> tuple | None:
            if not queue:
                return None
            i, sf, data, n = queue.popleft()
            return ("index", i, sf.path, sf.module, sf.role, sf.ident, data, n, self.paths[n] if n >= 0 else "")

        def failed(task: tuple, why: str) -> tuple:
            if why == "timeout":
                self.warn(f"indexing {display_path(task[2])} was stopped after {self.options.file_timeout:g} s; "
                          "what it defines is unknown")
            return ("indexed", task[1], None, False, ())

        from .index_cache import loads
        for w, task, answer in self._run(next_task, failed):
            _, i, blob, kept, warnings = answer
            for message in warnings:
                self.warn(message)
            if kept and w is not None:
                self.owner[task[7]] = w
            yield i, loads(blob) if blob is not None else None

    def check(self, index, todo: list, answers: dict) -> Iterator[tuple]:
        from .index_cache import dumps
        self.env_message = ("env", index.complete, tuple(index.module_roots.items()),
                            tuple(dumps(e) for e in index.files.values()))
        own: dict = collections.defaultdict(collections.deque)
        shared: collections.deque = collections.deque()
        for n in todo:
            data = self.datas[n]
            if isinstance(data, ReadProblem):     # nothing to check: said here
                report = check_data(self.paths[n], data, None, self.options)
                yield n, report, report_data(report, {})
                continue
            owner = self.owner.get(n)
            (own[id(owner)] if owner is not None else shared).append(n)

        def next_task(w: _Worker | None) -> tuple | None:
            queue = own.get(id(w))
            if not queue:
                queue = shared if shared else max(own.values(), key=len, default=None)
            if not queue:
                return None
            n = queue.popleft()
            return ("check", n, self.paths[n], self.datas[n])

        def failed(task: tuple, why: str) -> tuple:
            if why == "timeout":
                diag = Diagnostic.of("CHECK_TIMEOUT", 0, 0, seconds=f"{self.options.file_timeout:g}")
            else:
                diag = Diagnostic.of("CHECK_INTERNAL_ERROR", 0, 0, stage="checking",
                                     summary="the worker process checking it ended")
            return ("checked", task[1], (_diag_tuple(diag),), (), (), False)

        for _w, _task, answer in self._run(next_task, failed):
            _, n, diags, ignored, deps, cacheable = answer
            yield n, report_of(self.paths[n], self.datas[n], diags, ignored), (diags, ignored, deps, cacheable)


if __name__ == "__main__":
    # Run as a worker: through the package, so that there is one copy of this module.
    from puppet_ls.server.check_run import worker_main as _worker_main
    sys.exit(_worker_main())


# ---- Hiera data (hiera.yaml and the data files of the environments being checked) -------------

def hiera_reports(env_roots: list, modulepath: list, index, max_bytes: int = DEFAULT_MAX_FILE_BYTES,
                  excluded: Callable[[str], bool] = lambda path: False) -> list:
    """Reports for the Hiera files of each environment in ``env_roots``: its hiera.yaml and
    those of its own modules (problems of the configuration), and every data file below a
    datadir of those layers (YAML errors, keys that bind no class parameter, values of the
    wrong type, judged against ``index``).  Files outside the environment folder (modules of
    the base modulepath) are not reported."""
    from puppet_ls.language.hiera import read_config, read_data
    from puppet_ls.language.hiera.editor import data_diagnostics

    from .workspace import hiera_for_environment, read_text

    reports: list = []
    seen: set = set()
    cwd = os.getcwd()

    def shown(path: str) -> str:
        # as the Puppet files of the run are shown: relative to the current folder when inside it
        return display_path(os.path.relpath(path, cwd) if path.startswith(cwd + os.sep) else path)

    for env in env_roots:
        env_real = os.path.realpath(env)
        hiera = hiera_for_environment(env, modulepath)

        def ours(path: str, env_real: str = env_real) -> bool:
            real = os.path.realpath(path)
            return real.startswith(env_real + os.sep) and real not in seen and not excluded(path)

        for layer in hiera.all_layers:
            cfg_path = layer.config.path
            if cfg_path is None or not ours(cfg_path):
                continue
            seen.add(os.path.realpath(cfg_path))
            text = read_text(cfg_path, max_bytes) or ""
            diags = read_config(cfg_path, os.path.dirname(cfg_path), text, layer.name).diagnostics
            reports.append(FileReport(shown(cfg_path), text, sorted(diags, key=lambda d: (d.offset, d.end))))
        options = hiera.all_lookup_options()
        for _layer, level, path in hiera.data_paths():
            if not ours(path):
                continue
            seen.add(os.path.realpath(path))
            data_text = read_text(path, max_bytes)
            if data_text is None:
                continue
            df = read_data(path, data_text, eyaml=level.function == "eyaml_lookup_key")
            reports.append(FileReport(shown(path), data_text, data_diagnostics(df, index, options)))
    return reports
