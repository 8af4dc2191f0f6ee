"""The ``puppet-ls`` command: the language server (default) and the command-line tools.

    puppet-ls [--stdio | --tcp HOST:PORT]     run the language server
    puppet-ls check PATH...                   report every syntax and validation problem
    puppet-ls parse FILE --dump               print the syntax tree
    puppet-ls symbols FILE                    print the outline of a file
    puppet-ls eval 'EXPR'                     evaluate Puppet code in the sandbox

Exit status: 0 when no errors were found, 1 when some were, 2 on bad usage.  Nothing here
ever prints a Python traceback for bad input: unreadable files, directories given as files,
non-UTF-8 bytes and byte order marks become diagnostics.
"""
from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import click

from puppet_ls.language.diagnostics import Diagnostic
from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.language.ide.symbols import document_symbols
from puppet_ls.language.syntax.lexer import detect_bom
from puppet_ls.language.syntax.lines import LineIndex

from . import __version__

SOURCE_SUFFIXES = (".pp", ".epp")


@dataclass
class FileReport:
    path: str
    text: str | None          # what positions refer to (None when nothing could be read)
    diagnostics: list


def read_source(path: Path) -> tuple[str | None, list[Diagnostic], str | None]:
    """The text of a source file, or diagnostics saying why there is none, and the text that
    the diagnostics' positions refer to."""
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        return None, [Diagnostic.of("FILE_IS_DIRECTORY", 0, 0, path=str(path))], None
    except OSError as exc:
        return None, [Diagnostic.of("FILE_UNREADABLE", 0, 0, path=str(path), reason=exc.strerror or str(exc))], None
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


def collect_files(paths: tuple[str, ...]) -> tuple[list[Path], list[str]]:
    """Files to check (directories are searched for .pp/.epp files) and paths that do not
    exist."""
    files: list[Path] = []
    missing: list[str] = []
    seen: set = set()

    def add(f: Path) -> None:
        key = os.path.realpath(f)
        if key not in seen:
            seen.add(key)
            files.append(f)

    for p in paths:
        path = Path(p)
        if path.is_dir():
            for root, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for n in sorted(names):
                    if n.endswith(SOURCE_SUFFIXES):
                        add(Path(root) / n)
        elif path.exists() or path.is_symlink():
            add(path)
        else:
            missing.append(p)
    return files, missing


def check_file(path: Path) -> FileReport:
    text, diags, located = read_source(path)
    if text is None:
        return FileReport(str(path), located, diags)
    result = parse_for_path(text, str(path))
    return FileReport(str(path), text, diags + file_diagnostics(result))


def diagnostic_record(report: FileReport, d: Diagnostic, index: LineIndex | None) -> dict:
    if index is not None:
        line, col = index.position(d.offset)
        end_line, end_col = index.position(d.end)
    else:
        line = col = end_line = end_col = 0
    return {"path": report.path, "line": line + 1, "column": col + 1, "end_line": end_line + 1,
            "end_column": end_col + 1, "severity": d.severity, "code": d.code, "message": d.message}


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--stdio", "stdio", is_flag=True, help="Run the language server over stdin/stdout (the default).")
@click.option("--tcp", "tcp", metavar="HOST:PORT", help="Run the language server on a TCP socket.")
@click.option("--log-file", type=click.Path(dir_okay=False), help="Write the server's log here instead of stderr.")
@click.version_option(__version__, prog_name="puppet-ls")
@click.pass_context
def main(ctx: click.Context, stdio: bool, tcp: str | None, log_file: str | None) -> None:
    """puppet-ls: a fast, fault-tolerant language server and toolchain for Puppet.

    Without a command it runs the language server on stdio, which is what editors start.
    """
    if ctx.invoked_subcommand is not None:
        return
    from .lsp import run_server
    host = port = None
    if tcp:
        host, _, port_s = tcp.rpartition(":")
        if not host or not port_s.isdigit():
            raise click.UsageError("--tcp expects HOST:PORT, for example 127.0.0.1:8765")
        port = int(port_s)
    sys.exit(run_server(host=host, port=port, log_file=log_file))


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: one 'path:line:col: severity code message' per line; json: a JSON list.")
@click.option("--quiet", "-q", is_flag=True, help="Do not print the summary line.")
@click.option("--modulepath", "modulepath", multiple=True, metavar="DIRS",
              help="Directories of modules the code may use (':'-separated, repeatable).  Their "
                   "classes, defined types, functions and types are known, and names found "
                   "nowhere are reported as unknown.")
def check(paths: tuple[str, ...], fmt: str, quiet: bool, modulepath: tuple[str, ...]) -> None:
    """Check Puppet manifests and EPP templates: syntax, validation and static checks.

    PATHS are files or directories; directories are searched for *.pp and *.epp files.
    Lines and columns are 1-based; columns count characters.  Exit status is 0 when no
    errors were found (warnings allowed), 1 when there were errors, 2 on bad usage.
    """
    from .workspace import build_index, module_roots_of
    files, missing = collect_files(paths)
    for m in missing:
        click.echo(f"puppet-ls check: no such file or directory: {m}", err=True)
    if missing:
        sys.exit(2)
    dirs = [d for entry in modulepath for d in entry.split(os.pathsep) if d]
    for d in dirs:
        if not os.path.isdir(d):
            click.echo(f"puppet-ls check: --modulepath: not a directory: {d}", err=True)
            sys.exit(2)
    # The modules being checked and the modulepath are indexed so that what they define is
    # known; the same engine (file_diagnostics with this environment) serves the server.
    env = build_index(module_roots_of(str(f) for f in files), dirs)

    def check_one(path: Path) -> FileReport:
        text, diags, located = read_source(path)
        if text is None:
            return FileReport(str(path), located, diags)
        return FileReport(str(path), text, diags + file_diagnostics(parse_for_path(text, str(path)), env))

    show_progress = sys.stderr.isatty() and len(files) > 50 and fmt == "text"
    records: list[dict] = []
    errors = warnings = 0
    reports = []
    if show_progress:
        with click.progressbar(files, label="Checking", file=sys.stderr) as bar:
            reports = [check_one(f) for f in bar]
    else:
        reports = [check_one(f) for f in files]
    for report in reports:
        index = LineIndex(report.text) if report.text is not None else None
        for d in report.diagnostics:
            rec = diagnostic_record(report, d, index)
            records.append(rec)
            if d.severity == "error":
                errors += 1
            elif d.severity == "warning":
                warnings += 1
            if fmt == "text":
                click.echo(f"{rec['path']}:{rec['line']}:{rec['column']}: {rec['severity']} {rec['code']} {rec['message']}")
    if fmt == "json":
        click.echo(json.dumps(records, indent=1, ensure_ascii=False))
    if not quiet and fmt == "text":
        click.echo(f"{len(files)} file{'s' if len(files) != 1 else ''} checked: "
                   f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}", err=True)
    sys.exit(1 if errors else 0)


def _read_single(file: str) -> tuple[str, str]:
    path = Path(file)
    if not path.exists():
        raise click.UsageError(f"no such file: {file}")
    if path.is_dir():
        raise click.UsageError(f"{file} is a directory; give a .pp or .epp file")
    text, diags, _ = read_source(path)
    if text is None:
        raise click.ClickException(diags[0].message)
    return text, str(path)


@main.command()
@click.argument("file", type=click.Path())
@click.option("--dump", is_flag=True, help="Print the syntax tree.")
@click.option("--format", "fmt", type=click.Choice(["tree", "puppet"]), default="tree", show_default=True,
              help="tree: our lossless tree with kinds and offsets; puppet: Puppet's S-expression dump.")
@click.option("--trivia", is_flag=True, help="Include whitespace and comment tokens in the tree dump.")
def parse(file: str, dump: bool, fmt: str, trivia: bool) -> None:
    """Parse FILE and print its syntax errors (and its tree with --dump)."""
    from puppet_ls.language.syntax.puppet_format import puppet_dump
    from puppet_ls.language.syntax.tree import dump_tree
    text, path = _read_single(file)
    result = parse_for_path(text, path)
    if dump:
        click.echo(puppet_dump(result.root) if fmt == "puppet" else dump_tree(result.root, include_trivia=trivia), nl=fmt == "puppet")
    index = LineIndex(text)
    for e in result.errors:
        line, col = index.position(e.offset)
        click.echo(f"{path}:{line + 1}:{col + 1}: error {e.code} {e.full_message}", err=True)
    sys.exit(1 if result.errors else 0)


@main.command()
@click.argument("file", type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def symbols(file: str, fmt: str) -> None:
    """Print the outline of FILE: classes, defined types, nodes, functions, type aliases,
    resources and variables, with their ranges (1-based lines and columns)."""
    text, path = _read_single(file)
    result = parse_for_path(text, path)
    index = LineIndex(text)

    def rng(r):
        (l1, c1), (l2, c2) = index.position(r[0]), index.position(r[1])
        return {"start": {"line": l1 + 1, "column": c1 + 1}, "end": {"line": l2 + 1, "column": c2 + 1}}

    def to_json(s):
        return {"name": s.name, "kind": s.kind, "detail": s.detail, "range": rng(s.range),
                "selection_range": rng(s.selection_range), "children": [to_json(c) for c in s.children]}

    syms = document_symbols(result)
    if fmt == "json":
        click.echo(json.dumps([to_json(s) for s in syms], indent=1, ensure_ascii=False))
        return

    def show(s, depth):
        line, col = index.position(s.selection_range[0])
        click.echo(f"{'  ' * depth}{s.kind} {s.name}{(' ' + s.detail) if s.detail else ''}  ({line + 1}:{col + 1})")
        for c in s.children:
            show(c, depth + 1)

    for s in syms:
        show(s, 0)


@main.command(name="eval")
@click.argument("source", required=False)
@click.option("--jsonl", is_flag=True, help="Read one JSON request per line on stdin, write one JSON result per line.")
@click.option("--strict", type=click.Choice(["off", "warning", "error"]), default="error", show_default=True)
@click.option("--strict-variables/--no-strict-variables", default=True, show_default=True)
def eval_(source: str | None, jsonl: bool, strict: str, strict_variables: bool) -> None:
    """Evaluate Puppet code in the sandbox and print the value and its type."""
    try:
        from puppet_ls.language.eval import run_request
    except ImportError:
        raise click.ClickException("the evaluator is not available in this build")
    if jsonl:
        # Lines are read as bytes: one line that is not UTF-8 is a bad request, not the end.
        for raw in sys.stdin.buffer:
            _write_json(_jsonl_answer(raw, run_request))
        return
    if source is None:
        raise click.UsageError("give the code to evaluate, or --jsonl")
    res = run_request({"src": source, "strict": strict, "strict_variables": strict_variables})
    for log in res.get("logs", []):
        if log.get("level") != "err":   # the error itself is printed below, once
            _write_text(f"{log.get('level', 'notice')}: {log.get('message')}", err=True)
    if res.get("ok"):
        _write_text(f"{res.get('str')}  : {res.get('type')}")
    else:
        err = res.get("error") or {}
        # the message already carries Puppet's location suffix
        _write_text(f"error: {err.get('message')}", err=True)
        sys.exit(1)


def _jsonl_answer(raw: bytes, run_request) -> dict | None:
    """The answer to one --jsonl input line (None for a blank line); never raises, so one bad
    line (not UTF-8, not JSON, wrong field types, an internal failure) never ends the batch."""
    from puppet_ls.language.eval.api import bad_request
    try:
        line = raw.decode("utf-8").strip()
    except UnicodeDecodeError as exc:
        return bad_request(f"the line is not UTF-8 ({exc.reason} at byte {exc.start})")
    if not line:
        return None
    try:
        req = json.loads(line)
    except ValueError as exc:
        return bad_request(f"invalid JSON: {exc}")
    if not isinstance(req, dict):
        return bad_request("a request must be a JSON object")
    try:
        return run_request(req)
    except BaseException as exc:  # noqa: BLE001 - the batch must go on whatever one line does
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        out = bad_request(f"internal error: {type(exc).__name__}: {exc}", req)
        out["error"]["issue_code"] = "INTERNAL_ERROR"
        return out


_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape_surrogates(text: str, json_escape: bool) -> str:
    """Lone surrogates (from ``"\\u{D800}"`` escapes or JSON input) have no UTF-8 encoding:
    show them as escapes instead of failing to print the whole answer."""
    fmt = "\\u{:04x}" if json_escape else "\\u{{{:04X}}}"
    return _SURROGATE.sub(lambda mt: fmt.format(ord(mt.group())), text)


def _write_json(obj: dict | None) -> None:
    if obj is None:
        return
    # inside a JSON string "\udXXX" is a valid escape, and surrogates only occur in strings
    text = _escape_surrogates(json.dumps(obj, ensure_ascii=False), True)
    sys.stdout.buffer.write(text.encode("utf-8", "backslashreplace") + b"\n")
    sys.stdout.buffer.flush()


def _write_text(text: str, err: bool = False) -> None:
    stream = sys.stderr if err else sys.stdout
    stream.flush()
    stream.buffer.write(_escape_surrogates(text, False).encode("utf-8", "backslashreplace")
                        + b"\n")
    stream.buffer.flush()


if __name__ == "__main__":  # pragma: no cover
    main()
