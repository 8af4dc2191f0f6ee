"""``puppet-ls check --fix`` and ``--diff``: the style fixes of files, written in place or shown.

Each file is fixed by ``language.lint.fix.fix_text`` (every fix proven to keep the tree, rounds
until nothing changes).  ``--fix`` writes a changed file atomically (a temporary file beside it,
renamed over it) keeping its permissions, its byte order mark and, since fixes only add the
line break the file already uses, its line endings; a symbolic link stays a link (its target is
written).  ``--diff`` prints a unified diff per changed file and writes nothing.  The normal
check then runs on the files as they are and reports what remains.
"""
from __future__ import annotations

import difflib
import os
import tempfile
from collections import Counter
from dataclasses import dataclass, field

import click

from puppet_ls.language.ide.diagnostics import parse_for_path
from puppet_ls.language.lint.fix import FixResult, fix_text

from .files import DEFAULT_MAX_FILE_BYTES, ReadProblem, display_path, read_bounded

_UTF8_BOM = b"\xef\xbb\xbf"


@dataclass
class FileFix:
    path: str
    original: str | None = None      # None: not read (the check reports why)
    result: FixResult | None = None
    bom: bytes = b""
    fixed: Counter = field(default_factory=Counter)

    @property
    def changed(self) -> bool:
        return self.result is not None and self.original is not None and self.result.text != self.original


def fix_file(path: str, enabled: frozenset[str], max_bytes: int = DEFAULT_MAX_FILE_BYTES) -> FileFix:
    """The fixes of one file (nothing when it cannot be read as UTF-8 text, or is a template)."""
    out = FileFix(path)
    if not path.endswith(".pp"):
        return out
    data = read_bounded(path, max_bytes)
    if isinstance(data, ReadProblem):
        return out
    if data.startswith(_UTF8_BOM):
        out.bom, data = _UTF8_BOM, data[len(_UTF8_BOM):]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return out
    out.original = text
    absolute = os.path.abspath(path)
    out.result = fix_text(text, absolute, enabled, reparse=lambda t: parse_for_path(t, absolute),
                          tasks="/plans/" in absolute.replace("\\", "/"))
    return out


def write_atomic(path: str, data: bytes) -> None:
    """Replace the file at ``path`` (the target of a link) by ``data`` in one rename, keeping
    its permission bits."""
    real = os.path.realpath(path)
    mode = os.stat(real).st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(prefix=".puppet-ls-fix-", dir=os.path.dirname(real) or ".")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def unified_diff(path: str, before: str, after: str) -> str:
    shown = display_path(path)
    return "".join(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                        fromfile=shown, tofile=shown))


def run_fixes(paths, enabled: frozenset[str], *, write: bool, max_bytes: int = DEFAULT_MAX_FILE_BYTES) -> int:
    """Fix (``write``) or show the fixes of (diff) every file; the number of files changed or
    that would change.  A summary goes to stderr."""
    changed = 0
    fixed: Counter = Counter()
    for p in paths:
        ff = fix_file(str(p), enabled, max_bytes)
        if ff.result is not None and ff.result.reason:
            click.echo(f"puppet-ls check: not fixed, the file has {ff.result.reason}: {display_path(p)}", err=True)
        if not ff.changed:
            continue
        assert ff.result is not None and ff.original is not None
        changed += 1
        fixed.update(ff.result.fixed)
        if write:
            try:
                write_atomic(str(p), ff.bom + ff.result.text.encode("utf-8"))
            except OSError as exc:
                click.echo(f"puppet-ls check: cannot write {display_path(p)}: {exc.strerror or exc}", err=True)
                changed -= 1
        else:
            click.echo(unified_diff(str(p), ff.original, ff.result.text), nl=False)
    total = sum(fixed.values())
    verb = "fixed" if write else "would fix"
    if total:
        detail = ", ".join(f"{n} {name}" for name, n in sorted(fixed.items()))
        click.echo(f"puppet-ls check: {verb} {total} problem{'s' if total != 1 else ''} in {changed} "
                   f"file{'s' if changed != 1 else ''} ({detail})", err=True)
    return changed
