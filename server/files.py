"""Reading source files and finding them in directories without ever blocking, tracing back or
exhausting memory, whatever sits at the path: the one place the command line and the index touch
the file system for source text.

A path may name a FIFO (opening it blocks until a writer comes), a device (``/dev/zero`` never
ends), a socket, a symbolic link loop or a dangling link, a file we may not read, a file removed
since it was listed, or a file of gigabytes.  ``read_bounded`` answers each with a
``ReadProblem`` (a registered diagnostic code and its arguments) instead of bytes: only regular
files are opened, with ``O_NONBLOCK`` so that a FIFO swapped in after the check cannot block,
the opened descriptor is checked again, and at most ``limit + 1`` bytes are read.

``walk_sources`` lists the ``.pp``/``.epp`` files under a directory, following symbolic links to
directories once per real directory (so a link loop ends and Debian's module links are seen),
and reports the directories it cannot list instead of skipping them silently.
"""
from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024

_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


@dataclass(frozen=True)
class ReadProblem:
    """Why a path has no text: a code of ``puppet_ls.language.messages`` and its arguments."""
    code: str
    args: dict = field(default_factory=dict)


def display_path(path: str | os.PathLike) -> str:
    """A path as printable text: bytes that are not UTF-8 in a name are shown as ``\\xNN``
    (printing the raw surrogates Python decodes them to would fail), and so are control
    characters (a newline in a name would split a ``path:line:col: ...`` line in two)."""
    if type(path) is str and path.isascii() and path.isprintable():
        return path     # (nearly every path: no need to look at each character)
    text = os.fsencode(path).decode("utf-8", errors="backslashreplace")
    return "".join(f"\\x{ord(c):02x}" if c < " " or c == "\x7f" else c for c in text)


def format_size(n: int) -> str:
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            value = n / size
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{n} bytes"


def parse_size(text: str) -> int:
    """``10MB``, ``512k``, ``1G`` or a plain number of bytes; ValueError otherwise."""
    s = text.strip().upper().removesuffix("B").removesuffix("I")
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(s[-1:], 1)
    digits = s[:-1] if scale != 1 else s
    if not digits.isdigit():
        raise ValueError(f"not a size: {text!r} (examples: 10MB, 512K, 1048576)")
    return int(digits) * scale


def _unreadable(path: str, exc: OSError) -> ReadProblem:
    if exc.errno == errno.ELOOP:
        reason = "too many levels of symbolic links (a symbolic link loop?)"
    elif exc.errno == errno.ENOENT and os.path.islink(path):
        reason = f"the symbolic link points to {display_path(os.readlink(path))}, which does not exist"
    elif exc.errno == errno.ENOENT:
        reason = "the file no longer exists"
    else:
        reason = exc.strerror or str(exc)
    return ReadProblem("FILE_UNREADABLE", {"path": display_path(path), "reason": reason})


def not_regular(path: str, mode: int) -> ReadProblem | None:
    """The problem with a file of this mode, or None when it is a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return ReadProblem("FILE_IS_DIRECTORY", {"path": display_path(path)})
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    return ReadProblem("FILE_NOT_REGULAR", {"path": display_path(path), "kind": kind})


def _too_large(path: str, size: int | None, limit: int) -> ReadProblem:
    return ReadProblem("FILE_TOO_LARGE", {"path": display_path(path),
                                          "size": format_size(size) if size is not None else "more",
                                          "limit": format_size(limit)})


def read_bounded(path: str | os.PathLike, limit: int = DEFAULT_MAX_FILE_BYTES) -> bytes | ReadProblem:
    """The bytes of a regular file of at most ``limit`` bytes, or why there are none."""
    p = os.fspath(path)
    try:
        st = os.stat(p)                  # follows links: a link to a regular file is read
    except OSError as exc:
        return _unreadable(p, exc)
    problem = not_regular(p, st.st_mode)
    if problem is not None:
        return problem
    if st.st_size > limit:
        return _too_large(p, st.st_size, limit)
    try:
        # O_NONBLOCK: if the path was replaced by a FIFO since the stat, open must not wait.
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        return _unreadable(p, exc)
    try:
        fst = os.fstat(fd)
        problem = not_regular(p, fst.st_mode)
        if problem is not None:
            return problem
        chunks: list[bytes] = []
        got = 0
        # Read limit + 1 bytes at most: a file that grew past the limit since the stat is
        # still refused, and nothing can make us read without end.
        while got <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as exc:
        return _unreadable(p, exc)
    finally:
        os.close(fd)
    if got > limit:
        return _too_large(p, None, limit)
    return b"".join(chunks)


@dataclass(frozen=True)
class Found:
    """A path met while walking: a candidate source file, or a directory that could not be
    listed (``problem`` set)."""
    path: str
    problem: ReadProblem | None = None
    # (device, inode) when the walk knew it without a system call (an entry that is no link)
    ident: tuple | None = None


def walk_sources(root: str, suffixes: tuple, skip_dir=lambda name: name.startswith("."),
                 visited: set | None = None,
                 exclude: Callable[[str, bool], bool] | None = None,
                 exclude_files: bool = True) -> Iterator[Found]:
    """Every file under ``root`` whose name ends with one of ``suffixes``, in sorted order,
    following symbolic links to directories once per real directory (``visited`` holds the
    (device, inode) of the directories already walked; share it between roots to walk each
    directory once in all: one stat per directory, where realpath costs one per component).
    Entries of any kind with a matching name are yielded (a FIFO named ``x.pp`` is then
    reported by ``read_bounded`` rather than skipped without a word); directories that cannot
    be listed are yielded with their problem.  ``exclude(path, is_dir)`` says which files and
    directories to leave out (the configured exclude patterns, server/config.py); with
    ``exclude_files`` False it is asked about directories only."""
    seen = visited if visited is not None else set()
    stack = [root]
    while stack:
        d = stack.pop()
        try:
            st = os.stat(d)
            ident = (st.st_dev, st.st_ino)
            if ident in seen:
                continue
            seen.add(ident)
            with os.scandir(d) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            yield Found(d, _unreadable(d, exc))
            continue
        subdirs = []
        for e in entries:
            try:
                is_dir = e.is_dir()      # follows links; a loop or dangling link is not a dir
            except OSError:
                is_dir = False
            if is_dir:
                if not skip_dir(e.name) and (exclude is None or not exclude(e.path, True)):
                    subdirs.append(e.path)
            elif e.name.endswith(suffixes) and (exclude is None or not exclude_files or not exclude(e.path, False)):
                file_ident: tuple | None
                try:
                    file_ident = None if e.is_symlink() else (st.st_dev, e.inode())
                except OSError:
                    file_ident = None
                yield Found(e.path, None, file_ident)
        # Depth first in sorted order: push in reverse so the first name is walked first.
        stack.extend(reversed(subdirs))
