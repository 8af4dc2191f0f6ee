"""The ``puppet-ls format`` sub-command: files (or stdin) through language.formatter.

Files are found exactly as ``check`` finds them (``cli.collect_files`` and ``cli.read_source``,
imported when the command runs so that cli.py can register this command without an import
cycle).  A file is rewritten only when its formatted text differs, through a temporary file
renamed over it, with its permissions kept.
"""
from __future__ import annotations

import difflib
import os
import sys
import tempfile
from pathlib import Path

import click

from puppet_ls.language.diagnostics import Diagnostic
from puppet_ls.language.formatter import FormatOptions, FormatResult, format_text
from puppet_ls.language.ide.diagnostics import internal_error
from puppet_ls.language.syntax.lines import LineIndex


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
    @file_options
    def format_command(paths: tuple[str, ...], check_only: bool, show_diff: bool, stdin_filename: str | None,
                       no_trailing_commas: bool, max_bytes: int, file_timeout: float) -> None:
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
        from .cli import FileReport, FileTimeout, _echo_diagnostic, collect_files, read_source, time_limit
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
        for path in files:
            name = display_path(path)
            text, diags, located = read_source(path, max_bytes)
            if text is None or diags:
                # unreadable, or a byte order mark Puppet refuses: nothing to format safely
                report(name, located, diags)
                problems += 1
                continue
            result = format_one(text, str(path))
            if result is None:
                problems += 1
                continue
            report(name, text, result.diagnostics)
            if any(d.severity == "error" for d in result.diagnostics):
                problems += 1
            if not result.changed:
                unchanged += 1
                continue
            changed += 1
            if show_diff:
                click.echo(_diff(text, result.text, name), nl=False)
            elif check_only:
                click.echo(f"would reformat {name}", err=True)
            else:
                try:
                    _write_atomically(path, result.text)
                except OSError as exc:
                    click.echo(f"puppet-ls format: cannot write {name}: {exc.strerror}", err=True)
                    problems += 1
                    changed -= 1
        verb = "would be reformatted" if (check_only or show_diff) else "reformatted"
        click.echo(f"{changed} file{'s' if changed != 1 else ''} {verb}, {unchanged} left unchanged"
                   + (f", {problems} with problems" if problems else ""), err=True)
        sys.exit(1 if problems or ((check_only or show_diff) and changed) else 0)

    return format_command
