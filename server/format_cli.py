"""The ``puppet-ls format`` sub-command: files (or stdin) through language.formatter.

Files are found exactly as ``check`` finds them (``commands.collect_files``, imported when the
command runs so that cli.py can register this command without an import cycle, and
``check_run.read_source``).  Many files are formatted in ``--jobs`` worker processes
(``format_worker.py``, marshal over pipes, as the indexer's); results come back as plain data
and this process reports, diffs and writes them in the order of the files.  A file is rewritten
only when its formatted text differs, through a temporary file renamed over it, with its
permissions kept.
"""
from __future__ import annotations

import dataclasses
import difflib
import logging
import marshal
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import click

from puppet_ls.language.diagnostics import Diagnostic
from puppet_ls.language.formatter import FormatOptions, FormatResult, format_text
from puppet_ls.language.ide.diagnostics import internal_error
from puppet_ls.language.syntax.lines import LineIndex


log = logging.getLogger("puppet-ls")

# Fewer files than this are formatted in this process: starting workers (~0.2 s each) costs
# more than it saves.
PARALLEL_MIN = 64
WORKER_COMMAND = [sys.executable, "-m", "puppet_ls.server.format_worker"]


def _format_source(text: str, path: str, options: FormatOptions) -> FormatResult:
    tasks = "/plans/" in path.replace("\\", "/")
    return format_text(text, epp=path.endswith(".epp"), options=options, tasks=tasks)


def _write_atomically(path: Path, text: str) -> None:
    data = text.encode("utf-8")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".puppet-ls", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _diff(old: str, new: str, name: str) -> str:
    return "".join(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                        fromfile=f"{name} (original)", tofile=f"{name} (formatted)"))


def _plain(diags: list[Diagnostic]) -> tuple:
    return tuple((d.offset, d.end, d.severity, d.code, d.message, d.related) for d in diags)


def options_of(values: tuple) -> FormatOptions:
    """The options a worker was sent (``dataclasses.astuple`` of them)."""
    return FormatOptions(*values)


def format_path(path: str, options: FormatOptions, max_bytes: int, file_timeout: float) -> tuple:
    """One file read and formatted, as plain data (``marshal`` carries it back from a worker):
    (status, text, formatted text, diagnostics).  ``ok``: the formatted text is None when
    nothing changes; ``unreadable`` (or a byte order mark Puppet refuses: nothing to format
    safely) and ``failed`` (an internal error, or over the time limit): the text to place the
    diagnostics in, or None."""
    from .check_run import read_source
    from .deadline import FileTimeout, time_limit
    text, diags, located = read_source(path, max_bytes)
    if text is None or diags:
        return ("unreadable", located, None, _plain(diags))
    try:
        with time_limit(file_timeout):
            result = _format_source(text, path, options)
    except FileTimeout:
        return ("failed", text, None, _plain([Diagnostic.of("CHECK_TIMEOUT", 0, 0, seconds=f"{file_timeout:g}")]))
    except Exception as exc:  # noqa: BLE001 - one file's failure must not stop the others
        return ("failed", None, None, _plain([internal_error("formatting", exc)]))
    return ("ok", text, result.text if result.changed else None, _plain(result.diagnostics))


def _run_worker(paths: list, message: tuple) -> list | None:
    """The results of ``paths`` from one worker process (None when it failed: the caller
    formats them itself)."""
    try:
        proc = subprocess.run([*WORKER_COMMAND], input=marshal.dumps((*message, paths)), capture_output=True,
                              env={**os.environ, "PUPPET_LS_PARENT_PID": str(os.getpid())}, check=False)
        out = marshal.loads(proc.stdout) if proc.returncode == 0 else None
    except (OSError, EOFError, ValueError, TypeError):
        out = None
    if not isinstance(out, list) or len(out) != len(paths):
        log.warning("a formatting process failed; going on in this one")
        return None
    return out


def format_paths(paths: list, options: FormatOptions, max_bytes: int, file_timeout: float, jobs: int) -> list:
    """``format_path`` of each of ``paths``, in their order: in ``jobs`` worker processes
    (files dealt out in turn, so that the shares are alike) when there are enough files, else,
    and for the files of a worker that failed, in this process."""
    results: list = [None] * len(paths)
    todo = list(range(len(paths)))
    if jobs > 1 and len(paths) >= PARALLEL_MIN:
        message = (dataclasses.astuple(options), max_bytes, file_timeout)
        shares = [list(range(k, len(paths), jobs)) for k in range(jobs)]
        with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="puppet-ls-format") as pool:
            outs = list(pool.map(lambda share: _run_worker([paths[i] for i in share], message), shares))
        todo = []
        for share, out in zip(shares, outs):
            if out is None:
                todo.extend(share)
            else:
                for i, r in zip(share, out):
                    results[i] = r
        todo.sort()
    for i in todo:
        results[i] = format_path(paths[i], options, max_bytes, file_timeout)
    return results


def make_format_command(file_options) -> click.Command:
    """The command, built with ``check``'s shared file options (``--max-file-size``,
    ``--file-timeout``)."""

    @click.command(name="format")
    @click.argument("paths", nargs=-1, required=True, type=click.Path())
    @click.option("--check", "check_only", is_flag=True,
                  help="Write nothing; exit with status 1 when some file would be reformatted.")
    @click.option("--diff", "show_diff", is_flag=True,
                  help="Write nothing; print a unified diff of what would change.")
    @click.option("--stdin-filename", metavar="PATH",
                  help="With '-': the name the text read from stdin has (an .epp name formats it "
                       "as a template; it is also the name in messages).")
    @click.option("--no-trailing-commas", "no_trailing_commas", is_flag=True,
                  help="Do not add a comma after the last element of multi-line resource "
                       "bodies, hashes and arrays.")
    @click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, metavar="N",
                  help="Format in N processes (default 0: one per CPU core; 1: in this process).")
    @file_options
    def format_command(paths: tuple[str, ...], check_only: bool, show_diff: bool, stdin_filename: str | None,
                       no_trailing_commas: bool, jobs: int, max_bytes: int, file_timeout: float) -> None:
        """Format Puppet manifests and EPP templates in place, the Puppet style guide's way.

        PATHS are files or directories, searched as `check` searches them; '-' formats
        stdin to stdout.  Layout only: indentation, spacing, `=>` alignment, one attribute per
        line, quotes, `ensure` first; the result is proven to parse to the same tree before it
        is written, otherwise the file is left alone and an error is printed.  In a file with
        syntax errors only the top-level statements that parsed cleanly are formatted (an info
        line names each statement left as it is).  Exit status: 0 when all went well, 1 when
        --check or --diff found a file to reformat or a file could not be read or formatted,
        2 on bad usage.
        """
        from .commands import FileReport, _echo_diagnostic, collect_files
        from .deadline import FileTimeout, time_limit
        from .files import display_path
        options = FormatOptions(trailing_commas=not no_trailing_commas)

        def report(name: str, text: str | None, diags: list[Diagnostic]) -> None:
            if not diags:
                return
            rep = FileReport(name, text, diags)
            index = LineIndex(text) if text is not None else None
            for d in diags:
                _echo_diagnostic(rep, d, index, err=True)

        def format_one(text: str, name: str) -> FormatResult | None:
            try:
                with time_limit(file_timeout):
                    return _format_source(text, name, options)
            except FileTimeout:
                report(name, text, [Diagnostic.of("CHECK_TIMEOUT", 0, 0, seconds=f"{file_timeout:g}")])
            except Exception as exc:  # noqa: BLE001 - one file's failure must not stop the others
                report(name, None, [internal_error("formatting", exc)])
            return None

        if paths == ("-",):
            name = stdin_filename or "-"
            raw = sys.stdin.buffer.read()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise click.UsageError(f"stdin is not UTF-8 (byte {exc.start})") from None
            result = format_one(text, name)
            if result is None:
                sys.stdout.write(text)
                sys.exit(1)
            report(name, text, result.diagnostics)
            if show_diff:
                sys.stdout.write(_diff(text, result.text, name))
            elif not check_only:
                sys.stdout.buffer.write(result.text.encode("utf-8"))
            failed = any(d.severity == "error" for d in result.diagnostics)
            sys.exit(1 if failed or ((check_only or show_diff) and result.changed) else 0)
        if "-" in paths:
            raise click.UsageError("'-' (stdin) cannot be mixed with other paths")
        if stdin_filename:
            raise click.UsageError("--stdin-filename is only meaningful with '-'")

        files, missing, unlisted = collect_files(paths)
        for m in missing:
            click.echo(f"puppet-ls format: no such file or directory: {display_path(m)}", err=True)
        if missing:
            sys.exit(2)
        problems = len(unlisted)
        for rep in unlisted:
            report(rep.path, rep.text, rep.diagnostics)
        changed = unchanged = 0
        results = format_paths([str(p) for p in files], options, max_bytes, file_timeout, jobs or os.cpu_count() or 1)
        for path, (status, text, formatted, plain) in zip(files, results):
            name = display_path(path)
            diags = [Diagnostic(*d) for d in plain]
            report(name, text, diags)
            if status != "ok" or any(d.severity == "error" for d in diags):
                problems += 1
            if status != "ok":
                continue
            if formatted is None:
                unchanged += 1
                continue
            changed += 1
            if show_diff:
                click.echo(_diff(text, formatted, name), nl=False)
            elif check_only:
                click.echo(f"would reformat {name}", err=True)
            else:
                try:
                    _write_atomically(Path(path), formatted)
                except OSError as exc:
                    click.echo(f"puppet-ls format: cannot write {name}: {exc.strerror}", err=True)
                    problems += 1
                    changed -= 1
        verb = "would be reformatted" if (check_only or show_diff) else "reformatted"
        click.echo(f"{changed} file{'s' if changed != 1 else ''} {verb}, {unchanged} left unchanged"
                   + (f", {problems} with problems" if problems else ""), err=True)
        sys.exit(1 if problems or ((check_only or show_diff) and changed) else 0)

    return format_command
