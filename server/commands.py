"""The command line tools of ``puppet-ls`` (``check``, ``format``, ``parse``, ``symbols``, ``eval``,
``preview``), which ``cli.main`` loads when one of them is run or listed: the language server
does not import them.

Exit status: 0 when no errors were found, 1 when some were, 2 on bad usage.  Nothing here
ever prints a Python traceback, blocks or reads without bound for bad input: unreadable files,
directories given as files, FIFOs and devices, link loops, files over --max-file-size,
non-UTF-8 bytes and byte order marks become diagnostics (file access is ``server/files.py``),
and a failure of puppet-ls on one file or a file taking over --file-timeout becomes a
diagnostic on that file while the others are still checked.
"""
from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import NoReturn

import click

from puppet_ls.language.diagnostics import Diagnostic
from puppet_ls.language.ide.diagnostics import internal_error, parse_for_path
from puppet_ls.language.ide.symbols import document_symbols
from puppet_ls.language.syntax.lines import KnownPositions, LineIndex

from .check_run import CheckOptions, FileReport, check_file, read_source
from .deadline import DEFAULT_FILE_TIMEOUT, FileTimeout, time_limit
from .files import display_path, format_size, parse_size, walk_sources
from .format_cli import make_format_command
from .report_formats import FORMAT_HELP, FORMATS, IGNORED, CheckOutput, Tool, render, text_line, tool_info

SOURCE_SUFFIXES = (".pp", ".epp")
# What `check` finds in a directory besides code: a control repository's Puppetfile.
CHECKED_NAMES = (*SOURCE_SUFFIXES, "Puppetfile")


def collect_files(paths: tuple[str, ...], exclude: Callable[[str, bool, str], bool] | None = None,
                  force_exclude: bool = False, names: tuple = SOURCE_SUFFIXES,
                  exclude_files: bool = True) -> tuple[list[Path], list[str], list[FileReport]]:
    """Files to check (directories are searched for .pp/.epp files, following symbolic links
    to directories once per real directory, leaving out what ``exclude(path, is_dir, root)``
    names, asked about the files of a walk only with ``exclude_files``; files named on the
    command line are left out only with ``force_exclude``), paths
    that do not exist, and reports for directories met on the way that could not be listed."""
    files: list[Path] = []
    missing: list[str] = []
    unlisted: list[FileReport] = []
    seen: set = set()
    walked: set = set()

    def add(f: str, ident: tuple | None = None) -> None:
        # the same file by another path: told by its (device, inode), which costs one stat
        # (none when the walk knew it) where realpath costs one per path component
        key: object = ident
        if key is None:
            try:
                st = os.stat(f)
                key = (st.st_dev, st.st_ino)
            except OSError:
                key = os.path.realpath(f)
        if key not in seen:
            seen.add(key)
            files.append(Path(f))

    for p in paths:
        try:
            os.lstat(p)
        except FileNotFoundError:
            missing.append(p)
            continue
        except NotADirectoryError:
            missing.append(p)
            continue
        except OSError:
            pass     # e.g. a parent we may not search: reading it reports why
        if os.path.isdir(p):
            skip = None if exclude is None else (lambda path, is_dir, root=p: exclude(path, is_dir, root))
            for found in walk_sources(p, names, visited=walked, exclude=skip, exclude_files=exclude_files):
                if found.problem is not None:
                    unlisted.append(FileReport(display_path(found.path), None,
                                               [Diagnostic.of(found.problem.code, 0, 0, **found.problem.args)]))
                else:
                    add(found.path, found.ident)
        elif not (force_exclude and exclude is not None and exclude(p, False, "")):
            add(p)
    return files, missing, unlisted


def diagnostic_record(report: FileReport, d: Diagnostic, index: LineIndex | KnownPositions | None) -> dict:
    if index is not None:
        line, col = index.position(d.offset)
        end_line, end_col = index.position(d.end)
    else:
        line = col = end_line = end_col = 0
    return {"path": report.path, "line": line + 1, "column": col + 1, "end_line": end_line + 1,
            "end_column": end_col + 1, "severity": d.severity, "code": d.code, "message": d.message}


# The tools' commands; ``cli.main`` finds them here when one is run or listed.
tools = click.Group("puppet-ls")


class SizeParam(click.ParamType):
    name = "SIZE"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        try:
            return parse_size(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


def _file_options(f):
    """--max-file-size and --file-timeout, shared by check, parse and symbols."""
    f = click.option("--file-timeout", "file_timeout", type=click.FloatRange(min=0), default=DEFAULT_FILE_TIMEOUT,
                     show_default=True, metavar="SECONDS",
                     help="Stop working on one file after this many seconds and report CHECK_TIMEOUT "
                          "for it (0: no limit).")(f)
    f = click.option("--max-file-size", "max_bytes", type=SizeParam(), default="10MB", show_default=True,
                     help="Files larger than this are reported (FILE_TOO_LARGE), not read.")(f)
    return f


tools.add_command(make_format_command(_file_options))


_SEVERITY_COLOURS = {"error": "red", "warning": "yellow"}


def _echo_diagnostic(report: FileReport, d: Diagnostic, index: LineIndex | None, err: bool = False,
                     color: bool = False) -> dict:
    rec = diagnostic_record(report, d, index)
    line = text_line(rec)
    click.echo(_colour_text(line) if color else line, err=err, color=color or None)
    return rec


_TEXT_LINE = re.compile(r"^(.*?:\d+:\d+: )(error|warning|info|hint|ignored) (\S+)", re.MULTILINE)


def _colour_text(text: str) -> str:
    """The text format with each finding's severity and code coloured (for a terminal)."""
    return _TEXT_LINE.sub(lambda m: m.group(1) + click.style(m.group(2), fg=_SEVERITY_COLOURS.get(m.group(2), "cyan"),
                                                             bold=True) + " " + click.style(m.group(3), bold=True), text)


def write_report(fmt: str, reports: list[FileReport], output_file: str | None = None, *,
                 show_ignored: bool = False, show_source: bool = False, color: bool = False) -> None:
    """Print the findings of ``reports`` in the output format ``fmt`` (one of
    ``report_formats.FORMATS``), to ``output_file`` when one is given.  A file that cannot be
    written ends the command with exit status 2."""
    records: list[dict] = []
    sources: dict[str, str] = {}
    for report in reports:
        if report.text is None:
            index = None
        else:
            sources[report.path] = report.text
            # (only a file with findings needs positions: most of a big run has none)
            index = KnownPositions(report.text, [o for d in (*report.diagnostics, *(d for d, _ in report.ignored))
                                                 for o in (d.offset, d.end)]) \
                if report.diagnostics or report.ignored else None
        records += [diagnostic_record(report, d, index) for d in report.diagnostics]
        records += [diagnostic_record(report, d, index) | {"severity": IGNORED, "reason": reason}
                    for d, reason in report.ignored]
    # (the home page is read from the package's metadata, which costs a few per cent of a run
    # answered from the cache: only SARIF shows it)
    out = CheckOutput(records, [r.path for r in reports], sources, os.getcwd(), show_ignored, show_source,
                      tool_info() if fmt == "sarif" else Tool())
    text = render(fmt, out)
    if color and fmt == "text" and not show_source:
        text = _colour_text(text)
    if output_file in (None, "-"):
        click.echo(text, nl=False, color=color or None)
        return
    try:
        with open(output_file, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as exc:
        click.echo(f"puppet-ls check: cannot write --output-file {display_path(output_file or '')}: "
                   f"{exc.strerror or exc}", err=True)
        sys.exit(2)


def _codes_option(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    """Codes given to --select/--ignore/--extend-select (comma-separated, repeatable), as
    registered; an unknown one is a usage error."""
    from .config import resolve_codes
    names = [n for entry in value for n in entry.split(",") if n.strip()]
    found, unknown = resolve_codes(names)
    if unknown:
        raise click.BadParameter(f"unknown code{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} "
                                 "(a puppet-lint check name, a puppet-ls code, or ALL)")
    return tuple(sorted(found))


def _split(value: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(p for entry in value for p in entry.split(",") if p)


def _external_facts_option(lead: str):
    """``--external-facts DIR`` of ``check`` and ``preview``; ``lead`` begins its help."""
    return click.option(
        "--external-facts", "external_facts", multiple=True, metavar="DIR", type=click.Path(exists=True, file_okay=False),
        help=f"{lead} folder of external facts the node also has (Facter's facts.d: name=value .txt, .yaml and "
             ".json files; repeatable).  The facts.d folders of the modulepath's modules, which Puppet's pluginsync "
             "gives every agent, are always read.  A fact the set has keeps its value.")


@tools.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("--format", "fmt", type=click.Choice(FORMATS, case_sensitive=False), default="text",
              show_default=True, help=FORMAT_HELP)
@click.option("--output-file", "-o", "output_file", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the findings to this file instead of standard output ('-': standard output).")
@click.option("--show-source", is_flag=True,
              help="With --format text: print each finding's source line with a caret under its columns.")
@click.option("--quiet", "-q", is_flag=True, help="Do not print the summary line.")
@click.option("--show-ignored", is_flag=True,
              help="Also print what '# lint:ignore:<check>' control comments silenced (severity 'ignored', with "
                   "the reason).  SARIF always carries them, as suppressed results.")
@click.option("--modulepath", "modulepath", multiple=True, metavar="DIRS",
              help="Directories of modules the code may use (':'-separated, repeatable).  Their "
                   "classes, defined types, functions and types are known, and names found "
                   "nowhere are reported as unknown.  Added to what an environment.conf above the "
                   "checked paths names; replaces the configuration's modulepath.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Read this puppet-ls TOML file instead of the nearest puppet-ls.toml, "
                   ".puppet-ls.toml or pyproject.toml [tool.puppet-ls] above the first path.")
@click.option("--isolated", is_flag=True,
              help="Read no configuration file (neither .puppet-lint.rc nor puppet-ls's TOML).")
@click.option("--select", "select", multiple=True, metavar="CODES", callback=_codes_option,
              help="Report only these codes: puppet-lint check names and puppet-ls codes, any case, "
                   "comma-separated, ALL for every one (errors Puppet itself would reject are always reported "
                   "unless named in --ignore).")
@click.option("--extend-select", "extend_select", multiple=True, metavar="CODES", callback=_codes_option,
              help="Report these codes too (e.g. checks that are off by default).")
@click.option("--ignore", "ignore", multiple=True, metavar="CODES", callback=_codes_option, help="Do not report these codes.")
@click.option("--exclude", "exclude", multiple=True, metavar="PATTERNS",
              help="gitignore-style patterns of files and directories to skip, replacing the defaults "
                   "(.git/, vendor/, pkg/, spec/fixtures/) and the configuration's (comma-separated, repeatable).")
@click.option("--extend-exclude", "extend_exclude", multiple=True, metavar="PATTERNS",
              help="Patterns to skip besides the default and configured ones.")
@click.option("--force-exclude", is_flag=True,
              help="Apply the exclude patterns to files named on the command line too (for pre-commit).")
@click.option("--stdin-filename", metavar="PATH",
              help="With the path '-': the code on standard input is checked as if it were this file "
                   "(its module, layout check, configuration and per-file ignores).")
@click.option("--fail-on", "fail_on", type=click.Choice(["error", "warning", "never"]), default=None,
              help="Exit with status 1 when there is an error (the default), an error or a warning, or never.")
@click.option("--statistics", is_flag=True,
              help="Print how many findings each code has (most first) instead of the findings.")
@click.option("--color", "color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="Colour the text output: auto colours only when writing to a terminal.")
@click.option("--fix", "fix", is_flag=True,
              help="First fix what puppet-lint's --fix fixes (arrow alignment, quoting, whitespace, "
                   "'ensure' first, file modes, ...), writing the files in place, then report what remains.  "
                   "A fix is made only when the code still means the same.")
@click.option("--diff", "diff", is_flag=True,
              help="Print the fixes --fix would make as a unified diff and write nothing (also with "
                   "--fix); exit status 1 when something would change, 0 otherwise.")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, metavar="N",
              help="Check in N processes (default 0: one per CPU core; 1: in this process).")
@click.option("--cache-dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Keep results here between runs (default: $PUPPET_LS_CACHE_DIR, else "
                   ".puppet-ls-cache/ at the project root, else $XDG_CACHE_HOME/puppet-ls).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache (also: $PUPPET_LS_NO_CACHE=1).")
@click.option("--facts", "facts", default="", metavar="SET_OR_FILE",
              help="Also report what this node runs into (NODE_FAILS: a fail() its facts lead to): a built-in "
                   "fact set (debian12, ubuntu2404, rhel9, windows2022) or a `facter --json`/`puppet facts` file.")
@click.option("--node", "node", default="", metavar="NAME",
              help="The node's certname with --facts ($trusted['certname']); default: the facts' fqdn.")
@_external_facts_option("With --facts, a")
@_file_options
@click.pass_context
def check(ctx: click.Context, paths: tuple[str, ...], fmt: str, output_file: str | None, show_source: bool,
          quiet: bool, show_ignored: bool,
          modulepath: tuple[str, ...], config_file: str | None, isolated: bool, select: tuple[str, ...],
          extend_select: tuple[str, ...], ignore: tuple[str, ...], exclude: tuple[str, ...],
          extend_exclude: tuple[str, ...], force_exclude: bool, stdin_filename: str | None,
          fail_on: str | None, statistics: bool, color: str, jobs: int, cache_dir: str | None, no_cache: bool,
          max_bytes: int, file_timeout: float, fix: bool = False, diff: bool = False, facts: str = "",
          node: str = "", external_facts: tuple[str, ...] = ()) -> None:
    """Check Puppet manifests and EPP templates: syntax, validation, static checks and
    puppet-lint's style checks (those it runs by default, under its names).

    A '# lint:ignore:<check>' comment at the end of a line silences that check (or any code,
    e.g. lint:ignore:undefined_variable) on the line; on a line of its own it opens a block
    closed by '# lint:endignore'.

    PATHS are files or directories ('-' is standard input); directories are searched for
    *.pp and *.epp files (symbolic links to directories are followed, each real directory
    once; hidden directories and the exclude patterns are skipped).  Anything that is not a
    regular file (FIFO, device, socket), a dangling or looping link, an unreadable or too large
    file, and a failure of puppet-ls itself on one file are reported as an error diagnostic on
    that path; the other files are still checked.  Lines and columns are 1-based; columns count
    characters.

    Configuration (docs/configuration.md), lowest precedence first: .puppet-lint.rc
    (/etc/puppet-lint.rc, ~/.puppet-lint.rc, ./.puppet-lint.rc, as puppet-lint reads them),
    the nearest puppet-ls.toml, .puppet-ls.toml or pyproject.toml [tool.puppet-ls] above the
    first path (or --config FILE), then these options.

    Exit status: 0 when nothing reached the --fail-on level (by default: no errors), 1 when
    something did, 2 on bad usage (e.g. a path that does not exist, a mistake in a
    configuration file).
    For CI, --format github annotates a pull request, sarif feeds code scanning, gitlab is a
    Code Quality report, and junit and checkstyle suit other dashboards; --output-file writes
    the report to a file (docs/ci.md has GitHub Actions and GitLab CI set-ups).

    Each file is parsed once, in --jobs processes.  Results are kept in a cache folder
    (.puppet-ls-cache/ at the project root by default): a file that did not change is not
    checked again unless something it uses from another file changed.
    """
    from . import config as lintconfig
    from .check_run import default_cache_dir, prepare_cache_dir, run_check
    from .workspace import build_index, environment_roots_of, modulepath_from_environment, module_roots_of
    cli_dirs = tuple(d for entry in modulepath for d in entry.split(os.pathsep) if d)
    cli = lintconfig.Layer(
        source="command line", base=os.getcwd(),
        select=select or None, extend_select=extend_select, ignore=ignore, exclude=_split(exclude) if exclude else None, extend_exclude=_split(extend_exclude),
        fail_on=fail_on, show_ignored=True if show_ignored else None,
        modulepath=tuple(os.path.abspath(d) for d in cli_dirs) or None)
    if "-" in paths and stdin_filename is None and len(paths) > 1:
        raise click.UsageError("'-' (standard input) cannot be mixed with other paths")
    starts = [stdin_filename if p == "-" and stdin_filename else p for p in paths]
    cfg = lintconfig.load(starts, config_file=config_file, isolated=isolated, cli=cli)
    for problem in cfg.problems:
        click.echo(f"puppet-ls check: {problem}", err=True)
    if cfg.errors:
        sys.exit(2)
    if cfg.output_format is not None and ctx.get_parameter_source("fmt") in (
            click.core.ParameterSource.DEFAULT, None):
        choices = next((getattr(p.type, "choices", ()) for p in ctx.command.params if p.name == "fmt"), ())
        if cfg.output_format in choices:
            fmt = cfg.output_format
        elif cfg.output_format_at.rsplit(":", 1)[0].endswith(".toml"):
            # (a .puppet-lint.rc's --json/--sarif is only followed where puppet-ls has the format)
            click.echo(f"puppet-ls check: {cfg.output_format_at}: error: format: "
                       f"{cfg.output_format!r} is not an output format ({', '.join(choices)})", err=True)
            sys.exit(2)
    show_ignored = cfg.show_ignored
    fmt = fmt.lower()
    if show_source and fmt != "text":
        raise click.UsageError("--show-source applies to --format text only")

    def excluded(path: str, is_dir: bool, root: str) -> bool:
        return cfg.excluded(path, is_dir, root)

    # (puppet-lint's --ignore-paths, which are about files, are applied just below)
    files, missing, unlisted = collect_files(tuple(p for p in paths if p != "-"), excluded, force_exclude,
                                             CHECKED_NAMES, exclude_files=not cfg.excluder.directories_only)
    files = [f for f in files if not cfg.ignored_path(str(f))]
    for m in missing:
        click.echo(f"puppet-ls check: no such file or directory: {display_path(m)}", err=True)
    if missing:
        sys.exit(2)
    dirs = list(cfg.modulepath)
    for d in dirs:
        if not os.path.isdir(d):
            where = "--modulepath" if cli.modulepath else f"modulepath of {', '.join(cfg.sources) or 'the configuration'}"
            click.echo(f"puppet-ls check: {where}: not a directory: {display_path(d)}", err=True)
            sys.exit(2)
    stdin_data: bytes | None = None
    stdin_path = stdin_filename or "-"
    if "-" in paths:
        stdin_data = sys.stdin.buffer.read(max_bytes + 1)

    if no_cache:
        cache_dir = None
    elif cache_dir:
        cache_dir = prepare_cache_dir(cache_dir)
    else:
        cache_dir = default_cache_dir()
    if node and not facts:
        raise click.UsageError("--node needs --facts")
    if external_facts and not facts:
        raise click.UsageError("--external-facts needs --facts")
    if facts:
        from .factsfile import load_context
        facts_context, problem = load_context(facts, node)
        if facts_context is None:
            raise click.UsageError(problem or "--facts is empty")
        if os.path.isfile(facts):
            facts = os.path.abspath(facts)
    options = CheckOptions(max_bytes=max_bytes, file_timeout=file_timeout, lint=cfg.lint_for(""),
                           cache_dir=cache_dir, jobs=jobs or os.cpu_count() or 1, facts=facts, node=node)
    # The modules being checked and the modulepath are indexed so that what they define is
    # known; the same engine (file_diagnostics with this environment) serves the server.  The
    # environment (control repository) above a checked path is indexed with the modulepath its
    # environment.conf names, whether a file of it or its folder was given, as the editor does.
    checked_paths = [str(f) for f in files] + ([stdin_path] if stdin_data is not None and stdin_filename else [])
    roots = module_roots_of(checked_paths)
    for env_root in environment_roots_of(checked_paths):
        if env_root not in roots:
            roots.append(env_root)
        dirs += [d for d in modulepath_from_environment(env_root, []) if d not in dirs]
    if facts:
        # the node's external facts: its modules' (pluginsync) and the folders given, read once
        # in each process from these folders
        from .factsfile import load_context, module_fact_dirs
        fact_dirs = tuple(module_fact_dirs(roots + dirs)) + tuple(os.path.abspath(d) for d in external_facts)
        problem = load_context(facts, node, external=fact_dirs)[1]
        if problem:
            click.echo(f"puppet-ls check: {problem}", err=True)
        options = replace(options, external_facts=fact_dirs)

    if fix or diff:
        from .fix_cli import run_fixes
        changed = run_fixes(files, cfg.lint_for(""), write=not diff, max_bytes=max_bytes)
        if diff:
            sys.exit(1 if changed else 0)

    def warn(message: str) -> None:
        click.echo(f"puppet-ls check: {message}", err=True)

    # Every check the configuration selects runs (cfg.lint_for("")), and lintconfig.apply then
    # leaves out what it does not report for each file (its per-file ignores): the cached result
    # of a file does not depend on the per-file configuration.
    checked = (lintconfig.apply(cfg, str(path), report)
               for path, report in zip(files, run_check(files, dirs, options, warn=warn, roots=roots,
                                                        exclude=cfg.excluder)))

    def check_stdin(data: bytes) -> FileReport:
        env = build_index(roots, dirs, max_file_bytes=max_bytes, exclude=cfg.excluder)
        return lintconfig.apply(cfg, stdin_path,
                                check_file(stdin_path, env, max_bytes, file_timeout, cfg.lint_for(stdin_path), data))

    show_progress = sys.stderr.isatty() and len(files) > 50 and (fmt == "text" or output_file not in (None, "-"))
    use_color = color == "always" or (color == "auto" and sys.stdout.isatty() and "NO_COLOR" not in os.environ
                                      and output_file in (None, "-"))
    reports = list(unlisted)
    if stdin_data is not None:
        if len(stdin_data) > max_bytes:
            reports.append(FileReport(display_path(stdin_path), None, [Diagnostic.of(
                "FILE_TOO_LARGE", 0, 0, path=display_path(stdin_path), size="more", limit=format_size(max_bytes))]))
        else:
            reports.append(check_stdin(stdin_data))
    if show_progress:
        with click.progressbar(checked, length=len(files), label="Checking", file=sys.stderr) as bar:
            reports += list(bar)
    else:
        reports += list(checked)
    # Hiera: the hiera.yaml and data files of the environments being checked (not for
    # standard input, nor for single files named on their own)
    env_roots = [r for r in environment_roots_of([str(p) for p in paths if p != "-" and os.path.isdir(p)])
                 if os.path.isfile(os.path.join(r, "hiera.yaml"))]
    hiera_count = 0
    if env_roots and not (fix or diff):
        from .check_run import hiera_reports
        env_index = build_index(roots, dirs, max_file_bytes=max_bytes, exclude=cfg.excluder)
        found = hiera_reports(env_roots, dirs, env_index, max_bytes, lambda path: cfg.ignored_path(path))
        hiera_count = len(found)
        reports += [lintconfig.apply(cfg, r.path, r) for r in found]
    # Every finding counts for the exit status; the configuration decides which are shown
    # (puppet-lint's --error-level hides findings that still fail the run).
    errors = sum(1 for r in reports for d in r.diagnostics if d.severity == "error")
    warnings = sum(1 for r in reports for d in r.diagnostics if d.severity == "warning")
    shown = [replace(r, diagnostics=[d for d in r.diagnostics if cfg.visible(d)]) for r in reports]
    if statistics:
        per_code: dict[str, list] = {}
        for r in shown:
            for d in r.diagnostics:
                per_code.setdefault(d.code, [0, d.severity])[0] += 1
        rows = sorted(per_code.items(), key=lambda kv: (-kv[1][0], kv[0]))
        if fmt == "json":
            click.echo(json.dumps([{"code": c, "severity": sev, "count": n} for c, (n, sev) in rows], indent=1))
        else:
            width = max((len(c) for c in per_code), default=0)
            for c, (n, sev) in rows:
                click.echo(f"{n:>6}  {c:<{width}}  {sev}")
    else:
        write_report(fmt, shown, output_file, show_ignored=show_ignored, show_source=show_source, color=use_color)
    if not quiet and fmt == "text":
        count = len(files) + (stdin_data is not None) + hiera_count
        click.echo(f"{count} file{'s' if count != 1 else ''} checked: "
                   f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}", err=True)
    sys.exit(1 if cfg.fails(errors, warnings) else 0)


def _read_single(file: str, max_bytes: int) -> tuple[str, str]:
    """The text of the one FILE of ``parse``/``symbols``; a path that does not exist or is a
    directory is a usage error (exit 2), a file that cannot be read is reported like
    ``check`` reports it and ends the command with exit status 1."""
    if not os.path.lexists(file):
        raise click.UsageError(f"no such file: {display_path(file)}")
    if os.path.isdir(file):
        raise click.UsageError(f"{display_path(file)} is a directory; give a .pp or .epp file")
    text, diags, located = read_source(file, max_bytes)
    if text is None:
        report = FileReport(display_path(file), located, diags)
        index = LineIndex(located) if located is not None else None
        for d in diags:
            _echo_diagnostic(report, d, index, err=True)
        sys.exit(1)
    return text, file


def _fail_single(file: str, text: str | None, diag: Diagnostic) -> NoReturn:
    _echo_diagnostic(FileReport(display_path(file), text, [diag]), diag,
                     LineIndex(text) if text is not None else None, err=True)
    sys.exit(1)


@tools.command()
@click.argument("file", type=click.Path())
@click.option("--dump", is_flag=True, help="Print the syntax tree.")
@click.option("--format", "fmt", type=click.Choice(["tree", "puppet"]), default="tree", show_default=True,
              help="tree: our lossless tree with kinds and offsets; puppet: Puppet's S-expression dump.")
@click.option("--trivia", is_flag=True, help="Include whitespace and comment tokens in the tree dump.")
@_file_options
def parse(file: str, dump: bool, fmt: str, trivia: bool, max_bytes: int, file_timeout: float) -> None:
    """Parse FILE and print its syntax errors (and its tree with --dump).  Exit status: 0 when
    it has no syntax error, 1 when it has or cannot be read, 2 on bad usage."""
    from puppet_ls.language.syntax.puppet_format import puppet_dump
    from puppet_ls.language.syntax.tree import dump_tree
    text, path = _read_single(file, max_bytes)
    try:
        with time_limit(file_timeout):
            result = parse_for_path(text, path)
            out = None
            if dump:
                out = puppet_dump(result.root) if fmt == "puppet" else dump_tree(result.root, include_trivia=trivia)
    except FileTimeout:
        _fail_single(file, text, Diagnostic.of("CHECK_TIMEOUT", 0, 0, seconds=f"{file_timeout:g}"))
    except Exception as exc:  # noqa: BLE001 - isolation boundary: a bug is reported as the file's internal error
        _fail_single(file, text, internal_error("parsing", exc))
    if out is not None:
        click.echo(out, nl=fmt == "puppet")
    index = LineIndex(text)
    for e in result.errors:
        line, col = index.position(e.offset)
        click.echo(f"{display_path(path)}:{line + 1}:{col + 1}: error {e.code} {e.full_message}", err=True)
    sys.exit(1 if result.errors else 0)


@tools.command()
@click.argument("file", type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@_file_options
def symbols(file: str, fmt: str, max_bytes: int, file_timeout: float) -> None:
    """Print the outline of FILE: classes, defined types, nodes, functions, type aliases,
    resources and variables, with their ranges (1-based lines and columns).  A file that
    cannot be read or outlined is reported on stderr with exit status 1."""
    text, path = _read_single(file, max_bytes)
    try:
        with time_limit(file_timeout):
            syms = document_symbols(parse_for_path(text, path))
    except FileTimeout:
        _fail_single(file, text, Diagnostic.of("CHECK_TIMEOUT", 0, 0, seconds=f"{file_timeout:g}"))
    except Exception as exc:  # noqa: BLE001 - isolation boundary: a bug is reported as the file's internal error
        _fail_single(file, text, internal_error("outlining", exc))
    index = LineIndex(text)

    def rng(r):
        (l1, c1), (l2, c2) = index.position(r[0]), index.position(r[1])
        return {"start": {"line": l1 + 1, "column": c1 + 1}, "end": {"line": l2 + 1, "column": c2 + 1}}

    def to_json(s):
        return {"name": s.name, "kind": s.kind, "detail": s.detail, "range": rng(s.range),
                "selection_range": rng(s.selection_range), "children": [to_json(c) for c in s.children]}

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


@tools.command(name="eval")
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


# ---- preview (issue 16): the catalog a class would produce on a node ------------------------------
@tools.command()
@click.argument("target", metavar="CLASS_OR_FILE")
@click.option("--facts", "facts", default="debian12", show_default=True, metavar="SET_OR_FILE",
              help="A built-in fact set (debian12, ubuntu2404, rhel9, windows2022) or a facts file written "
                   "by `facter --json` or `puppet facts` (JSON or YAML).")
@click.option("--node", "node", default="", metavar="NAME",
              help="The node's certname ($trusted['certname']); default: the facts' fqdn, or node.example.com.")
@click.option("--modulepath", "modulepath", multiple=True, metavar="DIRS",
              help=f"Directories of modules ('{os.pathsep}'-separated, repeatable) where classes and defined "
                   "types are found; the modules directory of a FILE is added.  Default: the modulepath of the "
                   "environment's environment.conf (see --environment), then ./modules, ./site, "
                   "/etc/puppet/code/modules, /usr/share/puppet/modules.")
@click.option("--environment", "environment", default="", metavar="DIR",
              help="The environment (control repository) whose hiera.yaml and data give class parameters "
                   "their values by automatic parameter lookup.  Default: the nearest folder at or above "
                   "the current one with an environment.conf, else the current one if it has a hiera.yaml.")
@click.option("--hiera-config", "hiera_config", default="", metavar="FILE",
              help="A global hiera.yaml, consulted before the environment's and the modules' data.")
@_external_facts_option("A")
@click.option("--no-hiera", "no_hiera", is_flag=True,
              help="Class parameters take their defaults: no Hiera data is read.")
@click.option("--show-sensitive", "show_sensitive", is_flag=True,
              help="Print the content of Sensitive values.  Default: a parameter whose value is or holds a "
                   "Sensitive is printed as #<Sensitive [value redacted]>, as Puppet's logs and reports show "
                   "it (the JSON lists such parameters under \"sensitive\" either way).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def preview(target: str, facts: str, node: str, modulepath: tuple, environment: str, hiera_config: str,
            external_facts: tuple, no_hiera: bool, show_sensitive: bool, fmt: str) -> None:
    """Print the catalog CLASS_OR_FILE would produce on a node: its resources with their final
    attribute values, what contains them, their relationships and the notices, compiled in
    the sandbox.  Class parameters the declaration does not give take what Hiera has for
    CLASS::PARAM on that node (global, environment, then the module's data), else their
    defaults; a value that depends on a fact the set lacks is unknown.  Functions that need
    the outside world (template, lookup, file, …) and functions of modules are never run:
    their values show as ⟨unknown: name(…)⟩.  Exit status 1 when the catalog cannot be
    compiled, 2 for a bad target or facts."""
    from .catalog_preview import environment_of, run as run_preview
    from .catalog_preview import modulepath_of
    from .factsfile import load_context
    if environment and not os.path.isdir(environment):
        raise click.UsageError(f"--environment: {environment} is not a folder")
    env = environment or environment_of(os.getcwd()) or (
        environment_of(os.path.dirname(os.path.abspath(target))) if os.path.isfile(target) else None) or ""
    dirs = [d for entry in modulepath for d in entry.split(os.pathsep) if d]
    if not dirs:
        # the environment's modulepath (environment.conf, as the editor and `check` read it),
        # then the usual places; $basemodulepath is the system's module folders
        from .catalog_preview import DEFAULT_MODULEPATH, SYSTEM_MODULEPATH
        from .workspace import modulepath_from_environment
        dirs = modulepath_from_environment(env, [d for d in SYSTEM_MODULEPATH if os.path.isdir(d)]) if env else []
        dirs += [d for d in DEFAULT_MODULEPATH if os.path.isdir(d) and d not in dirs]
    ctx, problem = load_context(facts, node, modulepath=dirs + modulepath_of(target), external=external_facts)
    if ctx is None:
        raise click.UsageError(problem or "--facts is empty")
    if problem:
        _write_text(f"warning: {problem}", err=True)
    hiera = None
    if not no_hiera:
        if hiera_config and not os.path.isfile(hiera_config):
            raise click.UsageError(f"--hiera-config: {hiera_config} is not a file")
        from puppet_ls.language.hiera.convert import convert
        from .workspace import hiera_for_environment
        # no environment: its layer is left out (a folder without hiera.yaml gives none)
        hiera = hiera_for_environment(env or os.devnull, dirs, hiera_config or None, convert)
    res = run_preview(target, ctx, dirs, hiera)
    if isinstance(res, str):
        raise click.UsageError(res)
    cat = res.catalog if show_sensitive else res.catalog.redacted()
    if fmt == "json":
        out = {"class": res.class_name, "node": ctx.node, "facts": ctx.label, "files": res.files,
               **cat.to_json()}
        if res.where:
            out["where"] = res.where
        _write_json(out)
    else:
        _write_text(f"Catalog of class {res.class_name} on {ctx.node} (facts: {ctx.label})")
        for r in cat.resources:
            _write_text(f"{r['ref']}  (in {r['container']})" if r["container"] else r["ref"])
            width = max((len(k) for k in r["parameters"]), default=0)
            for k, v in r["parameters"].items():
                _write_text(f"  {k.ljust(width)} => {v}")
        if cat.relationships:
            _write_text("Relationships:")
            for a, op, b in cat.relationships:
                _write_text(f"  {a} {op} {b}")
        for n in cat.notices:
            _write_text(f"notice: {n}")
        unknown = sum(len(r["unknown"]) for r in cat.resources)
        if cat.ok:
            _write_text(f"{len(cat.resources)} resources; {unknown} attribute values unknown "
                        "(they need the outside world); compiled from " + ", ".join(res.files))
    if not cat.ok:
        _write_text(f"error: {cat.error}" + (f" ({res.where})" if res.where else ""), err=True)
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
    except BaseException as exc:   # the batch must go on whatever one line does
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
