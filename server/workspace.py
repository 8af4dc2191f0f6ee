"""Finding and reading the files of workspace folders and a modulepath for the index: the file
IO half of ``puppet_ls.language.ide.index`` (which only ever sees texts).

Used by the language server (in a background thread) and by ``puppet-ls check --modulepath``.
Directories are walked following symbolic links (Debian installs modules as links) with loop
protection; hidden directories, the exclude patterns of ``server/config.py`` (its defaults
``vendor/``, ``pkg/``, ``spec/fixtures/``, the same as ``puppet-ls check`` skips, and the
workspace configuration's), and ``spec``, ``node_modules`` and ``fixtures`` are skipped because
they hold tests and copies of other modules, not the code being edited.

Files are read through ``server/files.py`` (only regular files, at most ``MAX_FILE_BYTES``: a
FIFO or device among module files never blocks indexing), and each file is indexed in isolation
(one that cannot be read or makes the indexer fail is left out).
"""
from __future__ import annotations

import contextlib
import logging
import os
import queue
import subprocess
import sys
import threading
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable, Iterable

from puppet_ls.language.ide.index import (FileEntry, WorkspaceIndex, environment_modulepath,
                                          file_role, index_source, module_name, parse_metadata)

from .config import DEFAULT_EXCLUDER, Excluder
from .files import ReadProblem, read_bounded
from .index_cache import IndexCache, loads
from .index_worker import decode, index_one
from .pipes import receive_message, send_message

log = logging.getLogger("puppet-ls")

# Besides the exclude patterns shared with `check` (config.DEFAULT_EXCLUDES): folders that
# never hold a module's code, so the index does not read them even when `check` may.
_SKIP_DIRS = frozenset({"spec", "node_modules", "fixtures", "__pycache__"})
_ROLE_SEGMENTS = ("manifests", "functions", "types", "plans", "lib", "facts.d", "tasks")
MAX_FILES = 50_000
MAX_FILE_BYTES = 4 * 1024 * 1024


@dataclass
class SourceFile:
    path: str
    module: str
    role: str
    ident: tuple = ()       # (device, inode): the same file reached by another path


def stat_key(path_or_stat) -> tuple | None:
    """What tells a file or folder's state apart (size, times, inode), None when it is missing:
    writing a file or adding one to a folder changes it (and ctime cannot be set back)."""
    try:
        st = os.stat(path_or_stat) if isinstance(path_or_stat, str) else path_or_stat
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def read_text(path: str, limit: int = MAX_FILE_BYTES) -> str | None:
    """A file's text (UTF-8, undecodable bytes replaced), or None when it cannot be read, is
    not a regular file or is too large to be source code."""
    data = read_bounded(path, limit)
    if isinstance(data, ReadProblem):
        return None
    return decode(data)


def _walk(root: str, limit: int, seen_dirs: set | None = None, exclude: Excluder = DEFAULT_EXCLUDER,
          dirs: list | None = None) -> Iterable[tuple]:
    """(path, identity, path parts relative to ``root``) of the files the index reads, a
    directory's files before its sub-directories, names sorted.  ``identity`` is the file's
    (device, inode): directories are told apart the same way, so a link loop ends and a folder
    reached twice (through a link, or from two roots sharing ``seen_dirs``) is read once.
    ``os.scandir`` gives the inode of a file that is not a link without a system call, which
    matters on a workspace of thousands of files (``realpath`` per file cost 0.8 s of 1.5 s)."""
    seen = set() if seen_dirs is None else seen_dirs
    # patterns that name directories only (the defaults, most configurations) leave out no
    # file whose folder they did not leave out: files are matched only when there are others
    check_files = not exclude.directories_only
    count = 0
    stack: list = [(root, ())]
    while stack:
        dirpath, parts = stack.pop()
        try:
            st = os.stat(dirpath)
        except OSError:
            continue
        ident = (st.st_dev, st.st_ino)
        if ident in seen:
            continue
        seen.add(ident)
        if dirs is not None:
            dirs.append((dirpath, stat_key(st)))
        try:
            with os.scandir(dirpath) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        subdirs = []
        for e in entries:
            name = e.name
            try:
                if e.is_dir():
                    if not name.startswith(".") and name not in _SKIP_DIRS and not exclude.excluded(e.path, True, root):
                        subdirs.append(e)
                    continue
                if not (name.endswith((".pp", ".rb")) or name in ("metadata.json", "environment.conf")
                        or parts[-1:] == ("facts.d",) and name.endswith((".txt", ".yaml", ".yml", ".json"))
                        or (name.endswith(".json") and parts[-1:] == ("tasks",))):
                    continue
                if check_files and exclude.excluded(e.path, False, root):
                    continue
                if e.is_symlink():
                    fst = os.stat(e.path)
                    fid = (fst.st_dev, fst.st_ino)
                else:
                    fid = (st.st_dev, e.inode())
            except OSError:
                continue
            count += 1
            if count > limit:
                return
            yield e.path, fid, parts + (name,)
        for e in reversed(subdirs):
            stack.append((e.path, parts + (e.name,)))


def classify(path: str, walk_root: str, module_names: dict, parts: tuple | None = None,
             memo: dict | None = None) -> SourceFile | None:
    """The module and role of a file found under ``walk_root`` (None when it is not indexed);
    ``parts``: its path relative to ``walk_root``, when the caller knows them; ``memo``: what
    was found out about module folders, shared by the calls of one walk (a module without a
    metadata.json was otherwise looked at again for each of its files)."""
    if memo is None:
        memo = {}
    if parts is None:
        parts = Path(os.path.relpath(path, walk_root)).parts
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] not in _ROLE_SEGMENTS:
            continue
        role = file_role("/".join(parts[i:]))
        if role is None:
            continue
        module_root = os.path.join(walk_root, *parts[:i]) if i else walk_root
        if role == "manifest" and len(parts) == i + 2:
            env_key = ("environment", module_root, i == 0)
            if env_key not in memo:
                memo[env_key] = _is_environment(module_root, i == 0)
            if memo[env_key]:
                return SourceFile(path, "", "site")
        name = module_names.get(module_root)
        if not name:
            key = ("module", module_root)
            if key not in memo:
                memo[key] = _module_of(module_root)
            name = memo[key]
        return SourceFile(path, name, role)
    return None


def _is_environment(root: str, is_walk_root: bool) -> bool:
    """Is ``root`` an environment (control repository) rather than a module?  Its manifests
    are then site manifests whose top-level variables are visible everywhere."""
    if os.path.exists(os.path.join(root, "environment.conf")):
        return True
    return (is_walk_root and not os.path.exists(os.path.join(root, "metadata.json"))
            and not os.path.exists(os.path.join(root, "manifests", "init.pp")))


def _module_of(root: str) -> str:
    meta = None
    mpath = os.path.join(root, "metadata.json")
    if os.path.exists(mpath):
        meta = read_text(mpath)
    return module_name(os.path.basename(os.path.normpath(root)), meta)


def modulepath_from_environment(folder: str, basemodulepath: list) -> list:
    """Directories an environment.conf in ``folder`` names (relative ones resolved)."""
    conf = os.path.join(folder, "environment.conf")
    text = read_text(conf) if os.path.exists(conf) else None
    if not text:
        return []
    out = []
    for entry in environment_modulepath(text):
        if entry == "$basemodulepath":
            out.extend(basemodulepath)
        else:
            out.append(entry if os.path.isabs(entry) else os.path.join(folder, entry))
    return out


def index_files(roots: list, modulepath: list, complete: bool | None = None,
                max_files: int = MAX_FILES, exclude: Excluder = DEFAULT_EXCLUDER,
                walked: dict | None = None) -> tuple[WorkspaceIndex, list]:
    """The first half of ``build_index``: an index holding only the modules found under the
    workspace ``roots`` and the ``modulepath`` directories, and the ``SourceFile``s to index
    into it, in the order ``build_index`` adds them.  ``complete``: by default, when a modulepath
    was given and all its directories exist (a control repository whose Puppetfile modules are
    not installed would otherwise have every stdlib type reported).  ``walked``, when given, is
    filled with the ``"stamps"`` of the roots and folders read and the ``"files"`` found
    (index_snapshot.py)."""
    if complete is None:
        complete = bool(modulepath) and all(os.path.isdir(d) for d in modulepath)
    index = WorkspaceIndex(complete=complete)
    files: list = []
    module_names: dict = {}
    walk_roots = [r for r in roots if os.path.isdir(r)] + [d for d in modulepath if os.path.isdir(d)]
    seen_files: set = set()
    seen_dirs: set = set()
    classified: dict = {}
    dirs: list | None = None
    found: list | None = None
    if walked is not None:
        # (path, stat_key) of the roots and of each folder as it was read
        dirs = walked["stamps"] = [(p, stat_key(p)) for p in (*roots, *modulepath)]
        found = walked["files"] = []
    for root in walk_roots:
        for path, ident, parts in _walk(root, max_files, seen_dirs, exclude, dirs):
            if found is not None:
                found.append(path)
            if ident in seen_files:
                continue
            seen_files.add(ident)
            base = os.path.basename(path)
            try:
                if base == "metadata.json":
                    mroot = os.path.dirname(path)
                    text = read_text(path) or ""
                    name = module_name(os.path.basename(mroot), text)
                    module_names[mroot] = name
                    index.add_module(name, mroot, parse_metadata(text))
                    continue
                if base == "environment.conf":
                    continue
                sf = classify(path, root, module_names, parts, classified)
            except Exception:   # one odd file must not stop indexing
                log.exception("indexing %s failed", path)
                continue
            if sf is not None:
                sf.ident = ident
                files.append(sf)
            if len(files) >= max_files:
                log.warning("indexing stopped at %d files (the index.maxFiles setting)", max_files)
                break
    for sf in files:
        # modules without a metadata.json; each copy is recorded, so that the index keeps the
        # first one only when a module is in two modulepath folders (as Puppet does)
        root = _module_root_for(sf) if sf.module else None
        if root is not None and root not in module_names:
            module_names[root] = sf.module
            index.add_module(sf.module, root)
    return index, files


def _module_root_for(sf: SourceFile) -> str | None:
    """The module folder of an indexed file: above the segment ``classify`` found its role at."""
    parts = sf.path.split(os.sep)
    for i in range(len(parts) - 2, 0, -1):
        if parts[i] in _ROLE_SEGMENTS and file_role("/".join(parts[i:])) == sf.role:
            return os.sep.join(parts[:i]) or os.sep
    return None


def build_index(roots: list, modulepath: list, complete: bool | None = None,
                progress: Callable[[int, int, str], None] | None = None,
                cancelled: Callable[[], bool] | None = None,
                skip_paths: Callable[[str], bool] | None = None,
                max_files: int = MAX_FILES,
                guard: Callable[[str], AbstractContextManager] | None = None,
                max_file_bytes: int = MAX_FILE_BYTES,
                cache: IndexCache | None = None, jobs: int = 1,
                exclude: Excluder = DEFAULT_EXCLUDER, walked: dict | None = None) -> WorkspaceIndex:
    """Index every module file under the workspace ``roots`` and the ``modulepath``
    directories.  ``progress(done, total, path)`` is called now and then; ``cancelled()`` stops
    the work early (the partial index is returned).  ``complete`` says whether the result
    covers every module the code may use (by default: when a modulepath was given and all its
    directories exist).  ``exclude``: the files and folders not to read (server/config.py).
    ``guard(path)`` is a context manager entered around the indexing of each file (the
    command line puts a time limit there; it may swallow what it raises to skip the file).
    With a ``cache``, a file whose entry is cached is not parsed, and new entries are stored.
    With ``jobs`` > 1 (and no guard), the files to parse are parsed in that many processes when
    there are at least ``PARALLEL_MIN`` of them."""
    index, files = index_files(roots, modulepath, complete, max_files, exclude, walked)
    if walked is not None:
        # each file's state before it is read: a file written meanwhile differs next time
        walked["stamps"] += [(p, stat_key(p)) for p in walked["files"]]
    total = len(files)
    if guard is not None:
        jobs = 1        # the guard's time limit works in this process only
    # jobs > 1: every entry, or the position of its item in the pool's work, in file order
    pool = _IndexPool(jobs, cache) if jobs > 1 else None
    deferred: list = []
    for i, sf in enumerate(files):
        if cancelled is not None and cancelled():
            break
        if skip_paths is not None and skip_paths(sf.path):
            continue
        data = read_bounded(sf.path, max_file_bytes)
        if isinstance(data, ReadProblem):
            continue
        key = cache.key(sf.path, sf.module, sf.role, data) if cache is not None else ""
        entry = cache.get(key) if cache is not None else None
        if pool is not None:
            deferred.append(entry if entry is not None else pool.add((sf.path, sf.module, sf.role, key, data)))
            continue
        if entry is None:
            entry = index_one(sf.path, sf.module, sf.role, data, guard)
            if entry is not None and cache is not None:
                cache.put(key, entry)
        if entry is not None:
            index.add(entry)
        if progress is not None and (i % 50 == 0 or i == total - 1):
            progress(i + 1, total, sf.path)
    if pool is not None:
        parsed = pool.finish(progress, cancelled)
        for e in deferred:
            entry = parsed[e] if isinstance(e, int) else e
            if entry is not None:
                index.add(entry)
    if cache is not None:
        cache.flush()
    _task_files(index)
    return index


def _task_files(index: WorkspaceIndex) -> None:
    """A Bolt task whose metadata names no ``implementations`` runs the file beside it with the
    same name (``tasks/reload.json`` describes ``tasks/reload.sh``): recorded for its hover."""
    for e in index.entities("task"):
        if e.extra.get("implementations"):
            continue
        folder, base = os.path.split(e.path)
        stem = base.rsplit(".", 1)[0] + "."
        try:
            names = sorted(n for n in os.listdir(folder) if n.startswith(stem) and not n.endswith(".json"))
        except OSError:
            continue
        e.extra["implementations"] = tuple(names)


# Fewer files to parse than this: starting processes costs more than it saves.  Once this
# many cache misses were met, the worker processes start, and get them and every later miss.
PARALLEL_MIN = 200
# Files handed to a worker at a time: small enough that the workers start while the walk goes
# on and finish together, large enough that the messages cost nothing beside the parsing.
BATCH = 16


WORKER_COMMAND = [sys.executable, "-m", "puppet_ls.server.index_worker"]


# The threads of workers that answered every batch and are still storing their entries and
# ending (``settle_workers``).
_ENDING: set = set()
_ENDING_LOCK = threading.Lock()


def settle_workers(timeout: float | None = None) -> bool:
    """Wait until the indexing processes of earlier builds have stored their entries in the
    cache and ended (or ``timeout`` passed); whether they all have."""
    with _ENDING_LOCK:
        threads = list(_ENDING)
    for t in threads:
        t.join(timeout)
    return not any(t.is_alive() for t in threads)


class _IndexPool:
    """The cache misses of one ``build_index`` parsed in ``jobs`` worker processes as the walk
    finds them (every core, and the caller's interpreter stays free: the server keeps answering
    meanwhile).  Batches of ``BATCH`` items go to whichever worker is free, through a queue that
    one thread per worker serves; a worker that cannot start, dies or answers rubbish leaves its
    batch, and the batches nobody took, to this process (``finish``).  Entries come back in
    their stored form and are made here.  The build is done once every batch is answered: a
    worker then stores its entries in the cache and ends on its own (~60 ms each, one after the
    other, as they write to one database: a tenth of a cold build on 2 cores spent waiting)."""

    def __init__(self, jobs: int, cache: IndexCache | None):
        self.jobs = jobs
        self.cache = cache
        self.work: list = []                # the items given to the pool
        self.parsed: list = []              # their entries, once indexed (None: failed or not yet)
        self.done = 0                       # items answered by a worker
        self.left: list = []                # batches to index in this process
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.threads: list = []
        self.procs: list = []
        self.lock = threading.Lock()
        self.batch: list = []               # positions of items not yet queued
        self.answered: set = set()          # the threads whose worker answered all it was given
        self.ended: set = set()             # the threads that are done (failed ones too)
        self.progressed = threading.Event()     # a batch answered, or a thread answered all or ended
        self.killed = False                 # the build was cancelled: every worker is killed

    def add(self, item: tuple) -> int:
        """Give the pool one (path, module, role, key, bytes) item; its position in ``finish``'s
        list."""
        n = len(self.work)
        self.work.append(item)
        self.parsed.append(None)
        self.batch.append(n)
        if len(self.work) >= PARALLEL_MIN and len(self.batch) >= BATCH:
            self._queue()
        return n

    def _queue(self) -> None:
        if not self.threads:
            for _ in range(self.jobs):
                t = threading.Thread(target=self._serve, name="puppet-ls-index-worker", daemon=True)
                t.start()
                self.threads.append(t)
        # the misses met before the workers started come in batches too, to all of them
        for k in range(0, len(self.batch), BATCH):
            self.queue.put(self.batch[k:k + BATCH])
        self.batch = []

    def _serve(self) -> None:
        """One worker process's life: batches from the queue until its end (None)."""
        me = threading.current_thread()
        try:
            self._serve_batches(me)
        finally:
            with self.lock:
                self.ended.add(me)
            self.progressed.set()

    def _serve_batches(self, me: threading.Thread) -> None:
        try:
            proc = subprocess.Popen([*WORKER_COMMAND, self.cache.root if self.cache is not None else ""],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    env={**os.environ, "PUPPET_LS_PARENT_PID": str(os.getpid())})
        except OSError:
            log.warning("cannot start an indexing process", exc_info=True)
            return
        with self.lock:
            self.procs.append(proc)
            if self.killed:         # started as the build was cancelled
                proc.kill()
        stdin, stdout = proc.stdin, proc.stdout
        assert stdin is not None and stdout is not None
        failed = False
        try:
            while (batch := self.queue.get()) is not None:
                try:
                    send_message(stdin, [self.work[n] for n in batch])
                    blobs = receive_message(stdout)
                except OSError:
                    blobs = None
                if not isinstance(blobs, list) or len(blobs) != len(batch):
                    log.warning("an indexing process failed (exit status %s); going on in this one", proc.poll())
                    failed = True
                    with self.lock:
                        self.left.append(batch)
                    return
                entries = [loads(b) if isinstance(b, bytes) else None for b in blobs]
                with self.lock:
                    for n, entry in zip(batch, entries):
                        self.parsed[n] = entry
                        self.work[n] = None     # its bytes are no longer needed
                    self.done += len(batch)
                self.progressed.set()
            with _ENDING_LOCK:
                _ENDING.add(me)
            with self.lock:
                self.answered.add(me)
            self.progressed.set()
        finally:
            if failed:
                proc.kill()         # it may still run, answering rubbish
            with contextlib.suppress(OSError):
                stdin.close()       # the end of the work: the worker stores what it holds, and ends
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            stdout.close()
            with _ENDING_LOCK:
                _ENDING.discard(me)

    def finish(self, progress, cancelled) -> list:
        """Every item's entry (None for a file that failed), once the workers are done; what
        they did not index is indexed here.  ``cancelled()`` kills the workers."""
        if cancelled is not None and cancelled() and not self.threads:
            return self.parsed
        if len(self.work) < PARALLEL_MIN:
            self.left.append(self.batch)        # too few to be worth a process
        else:
            if self.batch:
                self._queue()
            for _ in self.threads:
                self.queue.put(None)
            last = -1
            reported = 0.0
            while True:
                self.progressed.clear()     # before looking: a change after it wakes the wait
                with self.lock:
                    if all(t in self.answered or t in self.ended for t in self.threads):
                        break
                self.progressed.wait(timeout=0.1)
                if cancelled is not None and not self.killed and cancelled():
                    with self.lock:
                        self.killed = True
                        for proc in self.procs:
                            with contextlib.suppress(OSError):
                                proc.kill()
                # (a report a tenth of a second at most: the batches are answered faster)
                now = time.monotonic()
                if progress is not None and self.done != last and self.work and now - reported >= 0.1:
                    last, reported = self.done, now
                    progress(self.done, len(self.work), "")
            if self.killed:
                for t in self.threads:      # cancelled: every worker is gone when this returns
                    t.join(10)
            while True:     # the batches no worker took (none could start, or all failed)
                try:
                    batch = self.queue.get_nowait()
                except queue.Empty:
                    break
                if batch is not None:
                    self.left.append(batch)
        todo = sorted(n for batch in self.left for n in batch)
        for k, n in enumerate(todo):
            if cancelled is not None and cancelled():
                break
            path, module, role, key, data = self.work[n]
            entry = index_one(path, module, role, data)
            if entry is not None and self.cache is not None:
                self.cache.put(key, entry)
            self.parsed[n] = entry
            if progress is not None and (k % 50 == 0 or k == len(todo) - 1):
                progress(len(self.work) - len(todo) + k + 1, len(self.work), path)
        return self.parsed


def index_entry_for(path: str, text: str, roots: list) -> FileEntry | None:
    """Re-index one file (an open or saved document) the way ``build_index`` would."""
    for root in roots:
        try:
            if os.path.commonpath([os.path.realpath(root), os.path.realpath(path)]) != os.path.realpath(root):
                continue
        except ValueError:
            continue
        sf = classify(path, root, {})
        if sf is not None:
            try:
                return index_source(path, text, sf.module, sf.role)
            except Exception:
                log.exception("indexing %s failed", path)
                return None
    return None


def walked_root(path: str, roots: list, exclude: Excluder = DEFAULT_EXCLUDER) -> str | None:
    """The root (of ``roots``) whose walk by ``build_index`` reaches the file ``path``, or None:
    it lies under that root, in no hidden, skipped or excluded folder on the way (a file the
    client reports changed on disk in ``spec/fixtures`` or ``vendor`` is none of the index's)."""
    for root in roots:
        rel = os.path.relpath(path, root)
        if rel == os.curdir or rel.startswith(os.pardir + os.sep) or rel == os.pardir or os.path.isabs(rel):
            continue
        parts = rel.split(os.sep)
        folder = root
        blocked = False
        for name in parts[:-1]:
            folder = os.path.join(folder, name)
            if name.startswith(".") or name in _SKIP_DIRS or exclude.excluded(folder, True, root):
                blocked = True
                break
        if not blocked and not (not exclude.directories_only and exclude.excluded(path, False, root)):
            return root
    return None


def module_root_of(path: str) -> str | None:
    """The module folder of a file inside one (``.../<module>/manifests/x.pp``), as written:
    not resolved, so that entries name the paths the workspace walk names."""
    for c in Path(path).parents:
        if c.name in _ROLE_SEGMENTS:
            return str(c.parent)
    return None


def module_roots_of(paths: Iterable[str]) -> list:
    """The module (or environment) directories that contain the given files, for indexing what
    ``puppet-ls check`` was pointed at.  Worked out once per directory (the files of a run
    share a few hundred), which matters on thousands of files."""
    out: dict = {}
    by_dir: dict = {}
    real: dict = {}
    roots: dict = {}
    for p in paths:
        # realpath, not Path.resolve(): it does not raise on a symbolic link loop.
        if os.path.isdir(p):
            out.setdefault(os.path.realpath(p), None)
            continue
        folder = os.path.dirname(os.path.realpath(p) if os.path.islink(p) else os.path.abspath(p))
        if folder not in by_dir:
            by_dir[folder] = _root_above(_real_folder(folder, real), roots)
        root = by_dir[folder]
        if root is not None:
            out.setdefault(root, None)
    return list(out)


def _real_folder(folder: str, memo: dict) -> str:
    """os.path.realpath of an absolute, normalised ``folder``, from that of its parent (kept in
    ``memo``): one lstat per folder of a run rather than one per component of each."""
    found = memo.get(folder)
    if found is not None:
        return found
    parent, name = os.path.split(folder)
    if parent == folder or not name:
        result = folder
    else:
        candidate = os.path.join(_real_folder(parent, memo), name)
        result = os.path.realpath(candidate) if os.path.islink(candidate) else candidate
    memo[folder] = result
    return result


def _root_above(folder: str, memo: dict | None = None) -> str | None:
    """The module or environment that a file in (the resolved) ``folder`` belongs to
    (``memo``: folder -> answer, shared between the calls of a run)."""
    if memo is not None and folder in memo:
        return memo[folder]
    parent = os.path.dirname(folder)
    if os.path.basename(folder) in _ROLE_SEGMENTS and parent != folder:
        found: str | None = parent
    # os.path.exists: a directory we may not search is "no", not an exception.
    elif os.path.exists(os.path.join(folder, "metadata.json")) or \
            os.path.exists(os.path.join(folder, "environment.conf")):
        found = folder
    else:
        found = None if parent == folder else _root_above(parent, memo)
    if memo is not None:
        memo[folder] = found
    return found


def environment_root_of(path: str, memo: dict | None = None) -> str | None:
    """The environment (control repository) folder at or above ``path``: the nearest one
    holding an environment.conf; None when there is none.  ``memo`` (folder -> answer), shared
    between calls, saves walking up the same folders again for each file of a run."""
    d = os.path.abspath(path)
    if not os.path.isdir(d):
        d = os.path.dirname(d)
    walked = []
    found: str | None = None
    while True:
        if memo is not None and d in memo:
            found = memo[d]
            break
        walked.append(d)
        if os.path.isfile(os.path.join(d, "environment.conf")):
            found = d
            break
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    if memo is not None:
        for w in walked:
            memo[w] = found
    return found


def environment_roots_of(paths: Iterable[str]) -> list:
    """The distinct environment folders of ``paths`` (environment_root_of), in order."""
    memo: dict = {}
    found = (environment_root_of(p, memo) for p in paths)
    return [r for r in dict.fromkeys(found) if r is not None]


# ---- Hiera: the files of the layers, for puppet_ls.language.hiera (which reads none) ---------

def hiera_files_under(folder: str, limit: int = 20_000) -> list:
    """Every regular file below ``folder`` (for Hiera's globs), hidden folders skipped."""
    out: list = []
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=True):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        out.extend(os.path.join(dirpath, f) for f in sorted(filenames))
        if len(out) > limit:
            break
    return out


def _hiera_config(path: str, layer: str):
    from puppet_ls.language.hiera import read_config
    text = read_text(path)
    if text is None:
        return None
    return read_config(path, os.path.dirname(path), text, layer)


def module_folders(modulepath: list) -> dict:
    """Module name -> folder for the modules of a modulepath (the first of a name wins, as in
    Puppet)."""
    found: dict = {}
    for entry in modulepath:
        try:
            names = sorted(os.listdir(entry))
        except OSError:
            continue
        for name in names:
            folder = os.path.join(entry, name)
            if os.path.isdir(folder) and not name.startswith("."):
                found.setdefault(_module_of(folder), folder)
    return found


def hiera_for_environment(env_root: str, modulepath: list, global_config: str | None = None,
                          converter=None):
    """The Hiera layers of an environment: the global hiera.yaml when given, the environment's
    hiera.yaml, and each module's on the modulepath (a layer without hiera.yaml takes no part,
    as in Puppet).  Returns a ``language.hiera.Hiera`` that reads files through ``read_text``."""
    from puppet_ls.language.hiera import Hiera, Layer
    layers = []
    if global_config:
        cfg = _hiera_config(global_config, "global")
        if cfg is not None:
            layers.append(Layer("global", cfg))
    cfg = _hiera_config(os.path.join(env_root, "hiera.yaml"), "environment")
    if cfg is not None:
        layers.append(Layer("environment", cfg))
    for name, folder in module_folders(modulepath).items():
        path = os.path.join(folder, "hiera.yaml")
        if os.path.isfile(path):
            cfg = _hiera_config(path, "module")
            if cfg is not None:
                layers.append(Layer("module", cfg, name))
    return Hiera(layers, read_text, lambda d: hiera_files_under(d) if os.path.isdir(d) else None, converter)
