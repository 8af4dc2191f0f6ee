"""Running ``puppet-ls check`` over many files: the per-file loop behind the command, which
``cli.check`` only feeds with files and options and whose reports it prints.

Each file is parsed once per run.  The workspace index the checks need (what the checked modules
and the modulepath define) is built first; a checked file that is also a module file is parsed
for the index and the same tree and scopes are kept to check it afterwards (up to
``KEEP_CHARS`` characters of source per process, beyond which a file is parsed again rather
than held).  Reports come back in the order of the files, whatever order they were made in.

A failure of puppet-ls on one file, or a file taking over the time limit, becomes a diagnostic
on that file while the others are still checked.
"""
from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from puppet_ls.language.check.scopes import FileModel
from puppet_ls.language.diagnostics import Diagnostic
from puppet_ls.language.ide.diagnostics import file_diagnostics, internal_error, source_diagnostics
from puppet_ls.language.syntax.lexer import detect_bom
from puppet_ls.language.syntax.parser import ParseResult

from .files import DEFAULT_MAX_FILE_BYTES, ReadProblem, display_path, read_bounded

DEFAULT_FILE_TIMEOUT = 60.0
# Trees kept from indexing until their file is checked cost about 30 bytes of memory per
# character of source: beyond this many characters a file is parsed again instead.
KEEP_CHARS = 3_000_000


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


class FileTimeout(BaseException):
    """Raised by the alarm of ``time_limit``.  A BaseException so that the per-stage
    ``except Exception`` isolation inside the engine lets it through to the command."""


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise FileTimeout in the body after ``seconds`` of wall-clock time (SIGALRM; a no-op off
    the main thread or where there is no SIGALRM).  Python's regular-expression engine checks
    for signals, so even a catastrophically backtracking match is stopped."""
    if not seconds or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_alarm(signum, frame):
        raise FileTimeout()

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


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
        where = os.path.abspath(path)
        try:
            with time_limit(timeout):
                if parsed is not None and parsed.result.text == text:
                    from puppet_ls.language.check.analysis import Analysis
                    analysis = Analysis(parsed.result, env, parsed.model)
                    found = file_diagnostics(parsed.result, env, analysis, path=where, lint=options.lint,
                                             ignored=ignored)
                else:
                    _, found = source_diagnostics(text, where, env, lint=options.lint, ignored=ignored)
        except FileTimeout:
            found = [Diagnostic.of("CHECK_TIMEOUT", 0, 0, seconds=f"{timeout:g}")]
        return FileReport(shown, text, diags + found, ignored)
    except Exception as exc:  # noqa: BLE001 - last line of defence: a bug outside the engine stages
        return FileReport(shown, None, [internal_error("checking", exc)])


def check_file(path: str | os.PathLike, env=None, max_bytes: int = DEFAULT_MAX_FILE_BYTES,
               timeout: float | None = DEFAULT_FILE_TIMEOUT, lint: frozenset | None = None) -> FileReport:
    """Every diagnostic of one file (with the style checks named in ``lint``), read from disk."""
    try:
        data = read_bounded(path, max_bytes)
    except Exception as exc:  # noqa: BLE001 - last line of defence, as in check_data
        return FileReport(display_path(path), None, [internal_error("checking", exc)])
    return check_data(path, data, env, CheckOptions(max_bytes, timeout, lint))


def _identity(path: str) -> tuple | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _tasks_mode(path: str) -> bool:
    """Whether ``parse_for_path`` parses ``path`` with Bolt's plan keywords."""
    return "/plans/" in path.replace("\\", "/")


def run_check(files: list, modulepath: list, options: CheckOptions,
              warn: Callable[[str], None] = lambda message: None) -> Iterator[FileReport]:
    """The reports of ``files`` (paths), in their order, checked against an index of the
    modules they belong to and of the ``modulepath`` directories.  ``warn`` receives what the
    user should know that is no file's diagnostic (a module file left out of the index)."""
    from puppet_ls.language.ide.index import PUPPET_ROLES, index_model, parse_for_role

    from .workspace import decode, index_files, index_one, module_roots_of

    paths = [str(f) for f in files]
    index, sources = index_files(module_roots_of(paths), modulepath)
    wanted: dict = {}
    for n, p in enumerate(paths):
        ident = _identity(p)
        if ident is not None:
            wanted.setdefault(ident, n)
    kept: dict = {}
    budget = options.keep_chars

    @contextmanager
    def guard(path: str) -> Iterator[None]:
        # One module file that takes too long to index is left out, with a word, not waited for.
        try:
            with time_limit(options.file_timeout):
                yield
        except FileTimeout:
            warn(f"indexing {display_path(path)} was stopped after {options.file_timeout:g} s; "
                 "what it defines is unknown")

    for sf in sources:
        data = read_bounded(sf.path, options.max_bytes)
        if isinstance(data, ReadProblem):
            continue
        n = wanted.get(sf.ident, -1)
        entry = None
        if (n >= 0 and sf.role in PUPPET_ROLES and len(data) <= budget
                and _tasks_mode(paths[n]) == (sf.role == "plan")):
            text = decode(data)
            try:
                with guard(sf.path):
                    model = FileModel(parse_for_role(text, sf.role))
                    entry = index_model(sf.path, sf.module, sf.role, model)
                    kept[n] = Parsed(model.result, model)
                    budget -= len(text)
            except Exception:   # noqa: BLE001 - one odd file must not stop indexing
                entry = None
        else:
            entry = index_one(sf.path, sf.module, sf.role, data, guard)
        if entry is not None:
            index.add(entry)

    for n, path in enumerate(paths):
        try:
            data = read_bounded(path, options.max_bytes)
        except Exception as exc:  # noqa: BLE001 - last line of defence, as in check_data
            yield FileReport(display_path(path), None, [internal_error("checking", exc)])
            continue
        yield check_data(path, data, index, options, kept.pop(n, None))
