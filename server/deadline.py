"""A wall-clock limit on one file's work in a process's main thread: ``time_limit`` raises
``FileTimeout`` inside its block when the time is up (SIGALRM).  ``puppet-ls check``
(``--file-timeout``), ``format`` and the indexer's worker processes put each file under it, so
that one file that never ends is left out, with a word, instead of holding the rest back
(``left_out_of_index``: the indexers' way of saying so)."""
from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .files import display_path

# How long one file may take, by default: far beyond any real file (the slowest the fuzzer has
# made takes about a second), so only something pathological is stopped.
DEFAULT_FILE_TIMEOUT = 60.0


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


@contextmanager
def left_out_of_index(path: str, seconds: float | None, warn: Callable[[str], None]) -> Iterator[None]:
    """``time_limit`` around indexing the file ``path``: when the time is up, ``warn`` says the
    file is left out, and the block ends quietly (what the file defines is unknown)."""
    try:
        with time_limit(seconds):
            yield
    except FileTimeout:
        warn(f"indexing {display_path(path)} was stopped after {seconds:g} s; what it defines is unknown")
