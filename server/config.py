"""The lint configuration shared by ``puppet-ls check`` and the language server: which codes are
reported, which files are skipped, the modulepath, when the run fails, from four layers.

Precedence, lowest first (docs/configuration.md): the defaults; ``.puppet-lint.rc`` files,
found and read the way puppet-lint 3.0.1 reads them (``/etc/puppet-lint.rc``,
``~/.puppet-lint.rc``, then ``.puppet-lint.rc`` in the current directory; each line one
command-line argument); the puppet-ls TOML file (``puppet-ls.toml``, ``.puppet-ls.toml`` or
``[tool.puppet-ls]`` of ``pyproject.toml``, the nearest one upward from the checked paths, or
the one ``--config`` names); the command line.  In each layer ``select`` replaces the selection,
then ``extend-select`` adds and ``ignore`` removes, so a later layer's word wins.

Nothing here raises for what a file holds: a problem becomes a ``ConfigProblem`` with its
position (errors end ``check`` with exit status 2; an unknown ``.puppet-lint.rc`` option is a
warning, since it may belong to a puppet-lint plugin).
"""
from __future__ import annotations

import fnmatch
import os
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import pathspec

from puppet_ls.language.diagnostics import Diagnostic
from puppet_ls.language.lint import CHECKS, default_enabled
from puppet_ls.language.messages import all_issues

from .files import read_bounded, ReadProblem

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10: the same parser, as a package
    import tomli as tomllib

# Skipped when walking directories, by `check` and by the server's indexer alike (gitignore
# patterns; "spec/fixtures/" at any depth, since a control repository holds many modules).
DEFAULT_EXCLUDES = (".git/", "vendor/", "pkg/", "**/spec/fixtures/")
TOML_NAMES = ("puppet-ls.toml", ".puppet-ls.toml", "pyproject.toml")
FAIL_ON = ("error", "warning", "never")
MAX_CONFIG_BYTES = 1 << 20
SYSTEM_RC = "/etc/puppet-lint.rc"       # puppet-lint's system-wide file (tests point it elsewhere)


@dataclass(frozen=True)
class ConfigProblem:
    """A mistake in a configuration file (or option), where it is."""
    path: str
    line: int            # 1-based; 0 when the file as a whole is meant
    severity: str        # "error" or "warning"
    message: str
    column: int = 0

    def __str__(self) -> str:
        where = self.path + (f":{self.line}" if self.line else "") + (f":{self.column}" if self.column else "")
        return f"{where}: {self.severity}: {self.message}"


@dataclass(frozen=True)
class Layer:
    """What one source (a file, or the command line) says; None: nothing."""
    source: str
    select: tuple | None = None
    extend_select: tuple = ()
    ignore: tuple = ()
    per_file_ignores: tuple = ()          # (pattern, codes) pairs
    exclude: tuple | None = None
    extend_exclude: tuple = ()
    modulepath: tuple | None = None
    fail_on: str | None = None
    output_format: str | None = None
    output_format_at: str = ""            # where it was said (file:line), for messages
    show_ignored: bool | None = None
    error_level: str | None = None        # puppet-lint's --error-level: all, warning, error
    ignore_paths: tuple = ()              # puppet-lint's --ignore-paths (fnmatch patterns)
    relative: bool | None = None
    base: str = ""                        # directory that relative patterns and paths start from


# ---- codes -------------------------------------------------------------------------------------

def _codes() -> dict[str, str]:
    """Every code a user may name, by its lower-case spelling."""
    out = {i.code.lower(): i.code for i in all_issues()}
    out.update({name.lower(): name for name in CHECKS})
    return out


def resolve_codes(names: Iterable[str]) -> tuple[set[str], list[str]]:
    """The codes named (``ALL``: every one; case does not matter, puppet-lint's names may be
    spelt with dashes), and the names that are no code."""
    table = _codes()
    found: set[str] = set()
    unknown: list[str] = []
    for name in names:
        key = name.strip().lower()
        if key == "all":
            found.update(table.values())
        elif key in table:
            found.add(table[key])
        elif key.replace("-", "_") in table:
            found.add(table[key.replace("-", "_")])
        else:
            unknown.append(name)
    return found, unknown


# ---- the resolved configuration ----------------------------------------------------------------

class Excluder:
    """gitignore-style exclusion: each pattern list is read relative to its base directory
    (the config file's, or the current directory for the command line); a path outside that
    base, and every path for the default patterns, is matched relative to the directory being
    walked (so that `check vendor/x` still checks what it is pointed at)."""

    def __init__(self, groups: Iterable[tuple[str, tuple]]):
        # (bases normalised once: _relative compares normalised paths)
        groups = [(base, tuple(patterns)) for base, patterns in groups if patterns]
        # what the exclusions are, to compare (the index snapshot is kept for one set of them)
        self.signature = tuple((os.path.abspath(base) if base else "", patterns) for base, patterns in groups)
        self.groups = [(os.path.abspath(base) if base else "", pathspec.GitIgnoreSpec.from_lines(list(patterns)))
                       for base, patterns in groups]
        # Patterns that all name directories ('vendor/') leave out no file of a walk that
        # they did not already leave out with its folder: a walk need not ask about files.
        self.directories_only = all(p.endswith("/") and not p.startswith("!") for _, ps in groups for p in ps)

    def __bool__(self) -> bool:
        return bool(self.groups)

    def excluded(self, path: str, is_dir: bool, walk_root: str = "") -> bool:
        absolute = os.path.abspath(path)
        for base, spec in self.groups:
            rel = _relative(absolute, base) if base else None
            if rel is None:
                # a file named on the command line (no walk) is seen from the current directory
                rel = _relative(absolute, _absolute_root(walk_root))
            if rel is None:
                rel = os.path.basename(absolute)
            if rel in ("", "."):
                continue
            if spec.match_file(rel + "/" if is_dir else rel):
                return True
        return False


def relative_to(path: str, base: str) -> str | None:
    """``path`` relative to ``base`` with '/' separators; None when it is not inside it."""
    return _relative(os.path.abspath(path), os.path.abspath(base))


def _absolute_root(walk_root: str) -> str:
    # asked for every path met in a walk (thousands), always about the same root; a relative
    # one (or none: the current directory) is worked out each time, as the directory may change
    key = walk_root if os.path.isabs(walk_root) else (walk_root, os.getcwd())
    if key != _ROOT_MEMO[0]:
        _ROOT_MEMO[:] = [key, os.path.abspath(walk_root or os.getcwd())]
    return _ROOT_MEMO[1]


_ROOT_MEMO: list = [None, ""]


def _relative(path: str, base: str) -> str | None:
    """``path`` relative to ``base``, both absolute and normalised (os.path.abspath)."""
    if os.sep == "/":
        # the common case without relpath's splitting and joining (called for every path a
        # walk meets): a normalised path is inside a normalised base exactly when it starts
        # with it and a separator
        if path == base:
            return "."
        prefix = base if base.endswith("/") else base + "/"
        return path[len(prefix):] if path.startswith(prefix) else None
    try:
        rel = os.path.relpath(path, base)
    except ValueError:      # another drive
        return None
    if rel == ".." or rel.startswith(".." + os.sep):
        return None
    return rel.replace(os.sep, "/")


DEFAULT_EXCLUDER = Excluder([("", DEFAULT_EXCLUDES)])


@dataclass
class Config:
    """The configuration in force: ``lint`` is the set of style checks to run, ``selected``
    every code reported (errors of puppet-ls's own are reported unless ignored by name)."""
    lint: frozenset = field(default_factory=default_enabled)
    selected: frozenset = field(default_factory=frozenset)
    named_ignores: frozenset = frozenset()
    per_file_ignores: tuple = ()          # (base, PathSpec, frozenset of codes)
    excluder: Excluder = DEFAULT_EXCLUDER
    ignore_paths: tuple = ()
    modulepath: tuple = ()
    fail_on: str = "error"
    output_format: str | None = None
    output_format_at: str = ""
    show_ignored: bool = False
    error_level: str = "all"
    relative: bool = False
    sources: tuple = ()                   # the files read, in order
    problems: list = field(default_factory=list)

    @property
    def errors(self) -> list:
        return [p for p in self.problems if p.severity == "error"]

    def excluded(self, path: str, is_dir: bool = False, walk_root: str = "") -> bool:
        """Is ``path`` left out by the exclude patterns?"""
        return self.excluder.excluded(path, is_dir, walk_root) or (not is_dir and self.ignored_path(path))

    def ignored_path(self, path: str) -> bool:
        """Is the file ``path`` left out by puppet-lint's --ignore-paths?  Like puppet-lint,
        it applies to files named on the command line too; its patterns are shell patterns
        whose ``*`` crosses ``/``, matched against the path as given and relative to the
        current directory."""
        if not self.ignore_paths:
            return False
        forms = {path, os.path.normpath(path)}
        rel = _relative(os.path.abspath(path), os.getcwd())
        if rel is not None:
            forms.add(rel)
        return any(fnmatch.fnmatchcase(f, p) for p in self.ignore_paths for f in forms)

    def file_ignores(self, path: str) -> frozenset:
        """The codes per-file-ignores silence in ``path``."""
        out: set = set()
        absolute = os.path.abspath(path)
        for base, spec, codes in self.per_file_ignores:
            rel = _relative(absolute, base)
            if rel is not None and spec.match_file(rel):
                out |= codes
        return frozenset(out)

    def lint_for(self, path: str) -> frozenset:
        """The style checks to run on ``path`` (and the lint options that are on)."""
        checks = self.lint - self.file_ignores(path) if self.per_file_ignores else self.lint
        return checks | {"relative"} if self.relative else checks

    def keep(self, path: str) -> Callable[[Diagnostic], bool]:
        """Whether a diagnostic of ``path`` is reported."""
        silenced = self.file_ignores(path) if self.per_file_ignores else frozenset()
        checks = CHECKS
        selected, named = self.selected, self.named_ignores

        def keep(d: Diagnostic) -> bool:
            code = d.code
            if code in silenced:
                return False
            if code in checks:
                return code in self.lint
            if code in named:
                return False
            # what Puppet rejects is reported unless ignored by name
            return d.severity == "error" or code in selected
        return keep

    def visible(self, d: Diagnostic) -> bool:
        """Is a kept diagnostic printed at puppet-lint's --error-level?  (Like puppet-lint,
        the ones it hides still count for the exit status.)"""
        level = self.error_level
        if level == "all":
            return True
        if level == "error":
            return d.severity == "error"
        return d.severity != "error" or d.code not in CHECKS

    def filter(self, path: str, diags: list) -> list:
        """What is shown of a file's diagnostics (the server's view)."""
        keep = self.keep(path)
        return [d for d in diags if keep(d) and self.visible(d)]

    def fails(self, errors: int, warnings: int) -> bool:
        if self.fail_on == "never":
            return False
        return bool(errors or (self.fail_on == "warning" and warnings))


def resolve(layers: Iterable[Layer], problems: list | None = None) -> Config:
    """The configuration that ``layers`` (lowest precedence first) make."""
    problems = list(problems or [])
    everything = set(_codes().values())
    lint_names = set(CHECKS)
    selected = set(default_enabled()) | (everything - lint_names)
    named: set = set()
    cfg = Config(problems=problems)
    excludes: list = [("", DEFAULT_EXCLUDES)]
    pfi: list = []
    sources: list = []
    ignore_paths: list = []
    for layer in layers:
        if layer.source and layer.source not in sources and layer.source != "command line":
            sources.append(layer.source)
        if layer.select is not None:
            selected = set(layer.select)
            named -= selected
        selected |= set(layer.extend_select)
        named -= set(layer.extend_select)
        selected -= set(layer.ignore)
        named |= set(layer.ignore)
        if layer.exclude is not None:
            excludes = [(layer.base, layer.exclude)]
        if layer.extend_exclude:
            excludes.append((layer.base, layer.extend_exclude))
        for pattern, codes in layer.per_file_ignores:
            pfi.append((os.path.abspath(layer.base), pathspec.GitIgnoreSpec.from_lines([pattern]), frozenset(codes)))
        ignore_paths.extend(layer.ignore_paths)
        if layer.modulepath is not None:
            cfg.modulepath = tuple(p if os.path.isabs(p) else os.path.join(layer.base, p)
                                   for p in (os.path.expanduser(m) for m in layer.modulepath))
        for name in ("fail_on", "output_format", "show_ignored", "error_level", "relative"):
            value = getattr(layer, name)
            if value is not None:
                setattr(cfg, name, value)
        if layer.output_format is not None:
            cfg.output_format_at = layer.output_format_at or layer.source
    cfg.lint = frozenset(selected & lint_names)
    cfg.selected = frozenset(selected)
    cfg.named_ignores = frozenset(named - lint_names)
    cfg.excluder = Excluder(excludes)
    cfg.per_file_ignores = tuple(pfi)
    cfg.ignore_paths = tuple(ignore_paths)
    cfg.sources = tuple(sources)
    return cfg


# ---- .puppet-lint.rc ---------------------------------------------------------------------------

# puppet-lint's options, by name (underscores written as dashes, as its parser compares them),
# and whether each takes an argument.
_RC_OPTIONS = {
    "version": False, "no-config": False, "config": True, "with-context": False,
    "with-filename": False, "fail-on-warnings": False, "error-level": True, "show-ignored": False,
    "relative": False, "load": True, "load-from-puppet": True, "fix": False, "log-format": True,
    "json": False, "sarif": False, "list-checks": False, "only-checks": True, "ignore-paths": True,
    "help": False,
}
_RC_SHORT = {"c": "config", "l": "load", "f": "fix", "h": "help"}
# Options that change what puppet-lint does in a way `check` does not follow from a file.
_RC_NOT_APPLIED = {
    "fix": "--fix in .puppet-lint.rc is not applied by puppet-ls check; give --fix on the command line",
    "load": "puppet-lint plugins (--load) are not loaded; puppet-ls has its own checks",
    "load-from-puppet": "puppet-lint plugins (--load-from-puppet) are not loaded; puppet-ls has its own checks",
}
_ERROR_LEVELS = ("all", "warning", "error")


def puppet_lint_rc_paths(cwd: str, home: str | None) -> list[str]:
    """Where puppet-lint 3.0.1 looks, in its order: /etc/puppet-lint.rc, ~/.puppet-lint.rc
    (when $HOME is readable), .puppet-lint.rc in the current directory."""
    paths = [SYSTEM_RC]
    if home and os.access(home, os.R_OK):
        paths.append(os.path.join(home, ".puppet-lint.rc"))
    paths.append(os.path.join(cwd, ".puppet-lint.rc"))
    return paths


def _read_text(path: str) -> str | None | ReadProblem:
    """A configuration file's text; None when there is none; the problem when it cannot be read."""
    if not os.path.exists(path):
        return None
    data = read_bounded(path, MAX_CONFIG_BYTES)
    if isinstance(data, ReadProblem):
        return data
    return data.decode("utf-8", errors="replace")


def read_puppet_lint_rc(path: str, cwd: str, _depth: int = 0) -> tuple[list[Layer], list[ConfigProblem]]:
    """The layers a ``.puppet-lint.rc`` makes (one, plus those of files it loads with
    ``--config``).  Like puppet-lint, each line is one argument, taken as written: a line that
    is no option (a comment, a blank or indented line) is passed over, an option's value is
    after ``=`` or on the next line, and option names may be shortened to a unique prefix."""
    text = _read_text(path)
    if text is None:
        return [], []
    shown = shown_path(path, cwd)
    if isinstance(text, ReadProblem):
        return [], [ConfigProblem(shown, 0, "warning", f"cannot read it: {text.args.get('reason', text.code)}")]
    problems: list[ConfigProblem] = []
    layers: list[Layer] = []
    values: dict = {"select": None, "extend_select": [], "ignore": [], "ignore_paths": []}
    checks = {name.replace("_", "-"): name for name in CHECKS}
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    i = 0

    def warn(line: int, message: str) -> None:
        problems.append(ConfigProblem(shown, line, "warning", message))

    while i < len(lines):
        arg, lineno = lines[i].rstrip("\r"), i + 1
        i += 1
        if arg == "--":
            break
        if not arg.startswith("-") or arg == "-":
            continue        # not an option: puppet-lint passes over it too
        value: str | None = None
        if arg.startswith("--"):
            name, eq, rest = arg[2:].partition("=")
            if eq:
                value = rest
            name = name.replace("_", "-")
        else:
            short, rest = arg[1:2], arg[2:]
            if short not in _RC_SHORT:
                warn(lineno, f"unknown option {arg!r}; it is ignored")
                continue
            name = _RC_SHORT[short]
            value = rest or None
        # --no-<check>-check and --<check>-check
        m = re.fullmatch(r"(no-)?(.+)-check", name)
        if m and name not in _RC_OPTIONS:
            check = checks.get(m.group(2))
            if check is None:
                warn(lineno, f"unknown option '--{name}': puppet-ls has no check '{m.group(2).replace('-', '_')}' "
                             "(a puppet-lint plugin?); it is ignored")
            elif m.group(1):
                values["ignore"].append(check)
                values["extend_select"] = [c for c in values["extend_select"] if c != check]
            else:
                values["extend_select"].append(check)
                values["ignore"] = [c for c in values["ignore"] if c != check]
            continue
        candidates = [o for o in _RC_OPTIONS if o == name] or [o for o in _RC_OPTIONS if o.startswith(name)]
        if len(candidates) != 1:
            what = "ambiguous" if candidates else "unknown"
            warn(lineno, f"{what} option '{arg.split('=')[0]}'; it is ignored")
            continue
        option = candidates[0]
        if _RC_OPTIONS[option] and value is None:
            if i >= len(lines):
                warn(lineno, f"option --{option} needs a value; it is ignored")
                continue
            value, i = lines[i].rstrip("\r"), i + 1
        if option in _RC_NOT_APPLIED:
            warn(lineno, _RC_NOT_APPLIED[option])
        elif option == "config" and value is not None:
            target = value if os.path.isabs(value) else os.path.join(cwd, value)
            if _depth > 8 or not os.path.exists(target):
                warn(lineno, f"--config {value}: no such file; it is ignored")
            else:
                sub, sub_problems = read_puppet_lint_rc(target, cwd, _depth + 1)
                layers.append(_rc_layer(shown, values, cwd))
                values = {"select": None, "extend_select": [], "ignore": [], "ignore_paths": []}
                layers.extend(sub)
                problems.extend(sub_problems)
        elif option == "fail-on-warnings":
            values["fail_on"] = "warning"
        elif option == "error-level" and value is not None:
            level = [e for e in _ERROR_LEVELS if e.startswith(value)] if value else []
            if len(level) != 1:
                warn(lineno, f"--error-level takes all, warning or error, not {value!r}; it is ignored")
            else:
                values["error_level"] = level[0]
        elif option == "show-ignored":
            values["show_ignored"] = True
        elif option == "relative":
            values["relative"] = True
        elif option == "only-checks" and value is not None:
            named = [c for c in value.split(",") if c]
            found = [c for c in named if c in CHECKS]
            for c in named:
                if c not in CHECKS:
                    warn(lineno, f"--only-checks: puppet-ls has no check {c!r}; it is ignored")
            values["select"] = found
            values["extend_select"], values["ignore"] = [], []
        elif option == "ignore-paths" and value is not None:
            values["ignore_paths"] = [p for p in value.split(",") if p]
        elif option in ("json", "sarif"):
            values["output_format"] = option
            values["output_format_at"] = f"{shown}:{lineno}"
        # --with-filename, --with-context, --log-format, --version, --list-checks, --help,
        # --no-config: about how puppet-lint prints or what it does instead of checking.
    layers.append(_rc_layer(shown, values, cwd))
    return layers, problems


def _rc_layer(source: str, values: dict, cwd: str) -> Layer:
    only = values["select"]
    # --only-checks chooses among the style checks; puppet-ls's own codes stay reported.
    select = None if only is None else tuple(only) + tuple(c for c in _codes().values() if c not in CHECKS)
    return Layer(source=source, select=select, extend_select=tuple(values["extend_select"]),
                 ignore=tuple(values["ignore"]), fail_on=values.get("fail_on"),
                 error_level=values.get("error_level"), show_ignored=values.get("show_ignored"),
                 relative=values.get("relative"), output_format=values.get("output_format"),
                 output_format_at=values.get("output_format_at", ""),
                 ignore_paths=tuple(values["ignore_paths"]), base=cwd)


# ---- puppet-ls's TOML --------------------------------------------------------------------------

# key -> (kind, Layer field)
_TOML_KEYS = {
    "select": ("codes", "select"),
    "extend-select": ("codes", "extend_select"),
    "ignore": ("codes", "ignore"),
    "per-file-ignores": ("per-file", "per_file_ignores"),
    "exclude": ("patterns", "exclude"),
    "extend-exclude": ("patterns", "extend_exclude"),
    "modulepath": ("paths", "modulepath"),
    "fail-on": ("fail-on", "fail_on"),
    "format": ("word", "output_format"),
    "show-ignored": ("bool", "show_ignored"),
}


def find_toml(start: str) -> str | None:
    """The nearest puppet-ls configuration at or above ``start`` (a file or directory): in
    each directory puppet-ls.toml, .puppet-ls.toml, then a pyproject.toml with a
    [tool.puppet-ls] table."""
    d = os.path.abspath(start)
    if not os.path.isdir(d):
        d = os.path.dirname(d)
    while True:
        for name in TOML_NAMES:
            candidate = os.path.join(d, name)
            if os.path.isfile(candidate):
                if name != "pyproject.toml":
                    return candidate
                text = _read_text(candidate)
                if isinstance(text, str) and re.search(r"(?m)^\s*\[\s*tool\s*\.\s*(\"puppet-ls\"|puppet-ls)\s*[.\]]", text):
                    return candidate
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def _key_line(text: str, key: str, table: str | None) -> int:
    """The line of ``key`` (inside ``table`` when given): tomllib gives no positions."""
    lines = text.split("\n")
    start = 0
    if table is not None:
        header = re.compile(r"^\s*\[\s*" + r"\s*\.\s*".join(
            f"(?:{re.escape(p)}|\"{re.escape(p)}\")" for p in table.split(".")) + r"\s*\]")
        start = next((n for n, line in enumerate(lines) if header.match(line)), 0)
    pattern = re.compile(r"^\s*(?:\"" + re.escape(key) + r"\"|" + re.escape(key) + r")\s*[=.\]]|^\s*\[\s*"
                         + re.escape(key) + r"\s*\]")
    for n in range(start, len(lines)):
        if pattern.match(lines[n]):
            return n + 1
    return start + 1 if table is not None else 0


def shown_path(path: str, cwd: str | None = None) -> str:
    """A configuration file's path as messages show it: relative to ``cwd`` when inside it."""
    rel = _relative(os.path.abspath(path), os.path.abspath(cwd or os.getcwd()))
    return rel if rel is not None else path


def read_toml(path: str, cwd: str | None = None) -> tuple[list[Layer], list[ConfigProblem]]:
    """The layer of a puppet-ls TOML file, and its mistakes (errors, with their line)."""
    shown = shown_path(path, cwd)
    text = _read_text(path)
    if text is None:
        return [], [ConfigProblem(shown, 0, "error", "no such file")]
    if isinstance(text, ReadProblem):
        return [], [ConfigProblem(shown, 0, "error", f"cannot read it: {text.args.get('reason', text.code)}")]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc)) or "not valid TOML"
        line, col = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
        return [], [ConfigProblem(shown, line, "error", f"not valid TOML: {message}", col)]
    table_name: str | None = None
    if os.path.basename(path) == "pyproject.toml":
        table_name = "tool.puppet-ls"
        table = data.get("tool", {}).get("puppet-ls", {})
        if not isinstance(table, dict):
            return [], [ConfigProblem(shown, _key_line(text, "puppet-ls", "tool"), "error",
                                      "[tool.puppet-ls] must be a table")]
    else:
        table = data
    problems: list[ConfigProblem] = []
    values: dict = {}
    prefix = "" if table_name is None else "[tool.puppet-ls] "

    def error(key: str, message: str, sub: str | None = None) -> None:
        line = _key_line(text, sub or key, (f"{table_name}.{key}" if table_name else key) if sub else table_name)
        problems.append(ConfigProblem(shown, line, "error", f"{prefix}{key}: {message}"))

    for key, value in table.items():
        if key not in _TOML_KEYS:
            close = [k for k in _TOML_KEYS if k.replace("-", "") == key.replace("-", "").replace("_", "")]
            hint = f" (did you mean '{close[0]}'?)" if close else f"; known keys: {', '.join(_TOML_KEYS)}"
            problems.append(ConfigProblem(shown, _key_line(text, key, table_name), "error",
                                          f"{prefix}unknown key '{key}'{hint}"))
            continue
        kind, attr = _TOML_KEYS[key]
        if kind in ("codes", "patterns", "paths"):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                error(key, "must be a list of strings")
                continue
            if kind == "codes":
                found, unknown = resolve_codes(value)
                if unknown:
                    error(key, f"unknown code{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} "
                               "(a puppet-lint check name, a puppet-ls code, or ALL)")
                    continue
                values[attr] = tuple(sorted(found))
            else:
                values[attr] = tuple(value)
        elif kind == "per-file":
            if not isinstance(value, dict):
                error(key, "must be a table of pattern = [codes]")
                continue
            pairs = []
            for pattern, codes in value.items():
                if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
                    error(key, f"the value of {pattern!r} must be a list of codes", pattern)
                    continue
                found, unknown = resolve_codes(codes)
                if unknown:
                    error(key, f"{pattern!r}: unknown code{'s' if len(unknown) > 1 else ''} "
                               f"{', '.join(map(repr, unknown))}", pattern)
                    continue
                pairs.append((pattern, tuple(sorted(found))))
            values[attr] = tuple(pairs)
        elif kind == "fail-on":
            if value not in FAIL_ON:
                error(key, f"must be one of {', '.join(FAIL_ON)}, not {value!r}")
                continue
            values[attr] = value
        elif kind == "bool":
            if not isinstance(value, bool):
                error(key, f"must be true or false, not {value!r}")
                continue
            values[attr] = value
        elif kind == "word":
            if not isinstance(value, str):
                error(key, f"must be a string, not {value!r}")
                continue
            values[attr] = value
            values["output_format_at"] = f"{shown}:{_key_line(text, key, table_name)}"
    return [Layer(source=shown, base=os.path.dirname(os.path.abspath(path)), **values)], problems


# ---- loading -----------------------------------------------------------------------------------

def load(paths: Iterable[str] = (), *, config_file: str | None = None, isolated: bool = False,
         cwd: str | None = None, home: str | None = None, cli: Layer | None = None,
         rc: bool = True) -> Config:
    """The configuration for checking ``paths``: .puppet-lint.rc files (unless ``isolated``
    or not ``rc``), the TOML file (``config_file``, or the nearest one above the first path),
    then the ``cli`` layer."""
    cwd = os.path.abspath(cwd or os.getcwd())
    home = os.environ.get("HOME") if home is None else home
    layers: list[Layer] = []
    problems: list[ConfigProblem] = []
    if not isolated and rc:
        for rc_path in puppet_lint_rc_paths(cwd, home):
            got, found = read_puppet_lint_rc(rc_path, cwd)
            layers += got
            problems += found
    toml = config_file
    if toml is None and not isolated:
        starts = [p for p in paths if p != "-"] or [cwd]
        toml = find_toml(starts[0])
    if toml is not None:
        got, found = read_toml(toml, cwd)
        layers += got
        problems += found
    if cli is not None:
        layers.append(cli)
    return resolve(layers, problems)



def apply(config: Config, path: str, report):
    """A file's report (``diagnostics`` and control-comment ``ignored`` pairs) less what the
    configuration does not report: the one filter the check loop calls per file."""
    keep = config.keep(path)
    report.diagnostics = [d for d in report.diagnostics if keep(d)]
    if report.ignored:
        report.ignored = [(d, why) for d, why in report.ignored if keep(d)]
    return report
