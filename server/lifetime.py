"""Keeps worker processes (the evaluator's, the indexer's) from outliving the server that
started them."""
from __future__ import annotations

import os
import signal
import sys
import threading
import time


def die_with_parent(parent: int) -> None:
    """End this process when ``parent`` (the process that started it) ends: a worker must never
    outlive the server that started it (an editor killed, a crash)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            PR_SET_PDEATHSIG = 1
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):   # no prctl here: the stdin EOF still ends the worker
            pass
    if os.getppid() != parent:       # the parent died before prctl took effect
        os._exit(0)

    # Belt and braces for systems without PR_SET_PDEATHSIG (it cannot run while C code holds
    # the interpreter, which is what RLIMIT_CPU is for).
    def watch():
        while True:
            time.sleep(0.25)
            if os.getppid() != parent:
                os._exit(0)
    threading.Thread(target=watch, daemon=True).start()
