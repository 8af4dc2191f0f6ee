"""Evaluation the editor triggers (inlay hints, code lenses, hover values, "evaluate selection")
runs in a supervised worker process, so that it can be stopped for real.

The evaluator's own budget is checked between evaluator steps; it cannot interrupt Python's
``re`` backtracking inside C code, nor a single huge allocation.  A separate process can be
killed whatever it is doing, and can be given resource limits.  This module is both sides:

* ``python -m puppet_ls.server.evalworker`` is the worker: it caps its address space
  (``RLIMIT_AS``) and, per job, its CPU time (``RLIMIT_CPU``, a backstop should the server be
  unable to kill it), asks the kernel to kill it when its parent dies (``PR_SET_PDEATHSIG``)
  and ends at the EOF of its stdin; it answers one JSON line per JSON line it reads.
* ``EvalWorker`` is the server's handle: it spawns the worker in the background (the first
  answers of the server never wait for it), sends one job at a time, waits for the answer
  until the job's deadline (the expression's time budget plus a small grace, capped by the
  request's total deadline), kills the worker on overrun or cancellation and respawns it.

Answers are cached per (program, budget): editors ask for inlay hints again after every
edit, and a program that had to be killed must not kill the next worker too.
"""
from __future__ import annotations

import collections
import json
import logging
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING

from .pipes import write_all
from .lifetime import die_with_parent

if TYPE_CHECKING:
    from puppet_ls.language.ide.preview import PreviewContext

log = logging.getLogger("puppet-ls")

# Time the worker gets beyond the expression's own budget before it is killed: the evaluator
# stops itself at its budget when it can, and a round trip costs well under a millisecond.
GRACE_SECONDS = 0.03
# Longest value text sent back (previews show 60 characters; "evaluate selection" a message).
MAX_VALUE_CHARS = 20_000
# The server kills the worker itself this long after the worker's own alarm should have.
BACKSTOP_SECONDS = 0.02
_CACHE_SIZE = 512


class EvalWorker:
    """The server side: thread-safe ``evaluate(program, budget, deadline, token)``; one job at
    a time (callers queue on a lock, each until its own deadline)."""

    def __init__(self, memory_mb: int = 256, python: str | None = None):
        self.memory_mb = memory_mb
        self.python = python or sys.executable
        self._lock = threading.Lock()            # one job at a time
        self._state = threading.Lock()           # guards the fields below
        self._proc: subprocess.Popen | None = None
        self._ready = threading.Event()
        self.ever_ready = threading.Event()      # the first worker has started
        self._pending: Future | None = None
        self._job_token: threading.Event | None = None
        self._seq = 0
        self._closed = False
        self._spawn_wanted = threading.Event()
        self._cache: collections.OrderedDict = collections.OrderedDict()
        # figures for logs and the benchmark
        self.kills = 0
        self.spawns = 0
        self.last_stop_ms: float | None = None    # kill latency after the deadline, last overrun
        # called (from a worker thread) when a worker is ready
        self.on_ready: Callable[[], None] | None = None
        # Spawning happens in one long-lived thread: PR_SET_PDEATHSIG fires when the *thread*
        # that forked the worker ends, so a short-lived thread would kill its worker.
        self._supervisor = threading.Thread(target=self._supervise, name="puppet-ls-evalworker", daemon=True)
        self._supervisor.start()
        self._spawn_wanted.set()

    # ---- lifetime -----------------------------------------------------------------------------
    def _supervise(self) -> None:
        while not self._closed:
            self._spawn_wanted.wait()
            self._spawn_wanted.clear()
            if self._closed:
                return
            with self._state:
                if self._proc is not None and self._proc.poll() is None:
                    continue
            try:
                self._spawn()
            except Exception:
                log.exception("could not start the evaluation worker")
                time.sleep(1.0)
                self._spawn_wanted.set()

    def _spawn(self) -> None:
        env = dict(os.environ)
        env["PYTHONDONTWRITEBYTECODE"] = env.get("PYTHONDONTWRITEBYTECODE", "1")
        proc = subprocess.Popen(
            [self.python, "-m", "puppet_ls.server.evalworker", "--memory-mb", str(self.memory_mb),
             "--parent", str(os.getpid())],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None, env=env, bufsize=0,
            close_fds=True)
        with self._state:
            if self._closed:
                proc.kill()
                proc.wait()
                return
            self._proc = proc
            self._ready.clear()
            self.spawns += 1
        threading.Thread(target=self._read_answers, args=(proc,), name="puppet-ls-evalworker-reader",
                         daemon=True).start()

    def _read_answers(self, proc: subprocess.Popen) -> None:
        out = proc.stdout
        assert out is not None
        for line in iter(out.readline, b""):
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if msg.get("ready"):
                with self._state:
                    if self._proc is proc:
                        self._ready.set()
                        self.ever_ready.set()
                cb = self.on_ready
                if cb is not None:
                    try:
                        cb()
                    except Exception:
                        log.exception("evaluation worker ready callback failed")
                continue
            with self._state:
                fut = self._pending if self._proc is proc else None
            if fut is not None and not fut.done() and msg.get("seq") == self._seq:
                fut.set_result(msg)
        # EOF: the worker ended (killed, memory ceiling, CPU limit)
        code = proc.wait()
        with self._state:
            mine = self._proc is proc
            fut = self._pending if mine else None
            if mine:
                self._proc = None
                self._ready.clear()
        if fut is not None and not fut.done():
            fut.set_exception(WorkerDied(_death_reason(code), timed_out=code == -signal.SIGALRM))
        if mine and not self._closed:
            self._spawn_wanted.set()

    def _kill(self, why: str) -> None:
        with self._state:
            proc = self._proc
            self._proc = None
            self._ready.clear()
            fut = self._pending
        if proc is not None and proc.poll() is None:
            self.kills += 1
            log.info("stopping the evaluation worker (%s)", why)
            try:
                proc.kill()
                proc.wait(timeout=2)
            except Exception:
                log.exception("killing the evaluation worker failed")
        if fut is not None and not fut.done():
            fut.set_exception(WorkerDied(why))
        if not self._closed:
            self._spawn_wanted.set()

    def close(self) -> None:
        """Kill the worker for good (the server is ending)."""
        self._closed = True
        self._spawn_wanted.set()
        with self._state:
            proc = self._proc
            self._proc = None
        if proc is not None:
            try:
                proc.kill()
            except OSError:   # already gone
                pass

    def set_memory_limit(self, memory_mb: int) -> None:
        """A new address-space ceiling, for the next worker (the running one is replaced)."""
        if memory_mb != self.memory_mb:
            self.memory_mb = memory_mb
            self._kill("the memory limit changed")

    def pid(self) -> int | None:
        with self._state:
            return self._proc.pid if self._proc is not None else None

    def wait_ready(self, timeout: float) -> bool:
        return self._ready.wait(timeout)

    # ---- jobs ---------------------------------------------------------------------------------
    def cancel(self, token: threading.Event) -> None:
        """Cancel every job of ``token`` (a request): the running one is stopped, later ones
        are refused; safe from any thread."""
        token.set()
        with self._state:
            running = token is not None and self._job_token is token and self._pending is not None \
                and not self._pending.done()
        if running:
            self._kill("the request was cancelled")

    def evaluate(self, program: str, steps: int, seconds: float, deadline: float,
                 token: threading.Event | None = None, context: PreviewContext | None = None) -> tuple:
        """(ok, value, type, error) of ``program`` within ``steps``/``seconds``, with the facts
        and node of ``context``; stopped at ``deadline`` (time.monotonic()) at the latest, or
        when ``token`` is set (the request was cancelled).  Never raises."""
        key = (program, steps, seconds, context.key if context is not None else "")
        with self._state:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        cancelled = (False, "", "", "not evaluated: the request was cancelled")
        token = token or threading.Event()
        if not _wait(lambda t: self._lock.acquire(timeout=t), deadline, token):
            return cancelled if token.is_set() else (False, "", "", "not evaluated: the evaluator is busy")
        try:
            if not _wait(self._ready.wait, deadline, token):
                return cancelled if token.is_set() else (False, "", "", "not evaluated: the evaluator is starting")
            with self._state:
                if token.is_set():
                    return cancelled
                proc = self._proc
                if proc is None or proc.stdin is None:
                    return False, "", "", "not evaluated: the evaluator is starting"
                self._seq += 1
                fut: Future = Future()
                self._pending = fut
                self._job_token = token
                stop_at = min(deadline, time.monotonic() + seconds + GRACE_SECONDS)
                job = {"seq": self._seq, "program": program, "steps": steps, "seconds": seconds,
                       "wall": max(0.001, stop_at - time.monotonic())}
                if context is not None:
                    job["context"] = context.to_json()
                line = json.dumps(job, default=str).encode() + b"\n"
            try:
                proc.stdin.write(line)
            except OSError:
                self._kill("its input pipe broke")
                return False, "", "", "not evaluated: the evaluator stopped"
            try:
                # the worker's alarm stops it at stop_at; killing it from here is the backstop
                msg = fut.result(timeout=max(0.0, stop_at - time.monotonic()) + BACKSTOP_SECONDS)
            except FutureTimeout:
                t0 = time.monotonic()
                self._kill("an evaluation overran its deadline")
                self.last_stop_ms = (time.monotonic() - stop_at) * 1000
                log.info("evaluation stopped %.0f ms after its deadline (%.0f ms to kill)",
                         self.last_stop_ms, (time.monotonic() - t0) * 1000)
                res = (False, "", "", "stopped: the evaluation did not finish in time")
                if stop_at < deadline:
                    self._remember(key, res)    # its own budget, not the request's, ran out
                return res
            except WorkerDied as exc:
                if exc.timed_out:
                    # the worker's own alarm fired at the deadline (inside C code too)
                    self.last_stop_ms = (time.monotonic() - stop_at) * 1000
                    log.info("evaluation stopped %.0f ms after its deadline (its alarm; 0 ms to kill)",
                             self.last_stop_ms)
                    res = (False, "", "", "stopped: the evaluation did not finish in time")
                    if stop_at < deadline:
                        self._remember(key, res)
                    return res
                res = (False, "", "", f"stopped: {exc}")
                if "cancelled" not in str(exc):
                    self._remember(key, res)
                return res
            res = (bool(msg.get("ok")), msg.get("value", ""), msg.get("type", ""), msg.get("error", ""))
            self._remember(key, res)
            return res
        finally:
            with self._state:
                self._pending = None
                self._job_token = None
            self._lock.release()

    def _remember(self, key, res) -> None:
        with self._state:
            self._cache[key] = res
            while len(self._cache) > _CACHE_SIZE:
                self._cache.popitem(last=False)


def _wait(wait, deadline: float, token: threading.Event) -> bool:
    """``wait(seconds)`` in short slices until it succeeds, ``deadline`` passes or ``token``
    is set."""
    while not token.is_set():
        left = deadline - time.monotonic()
        if left <= 0:
            return bool(wait(0))
        if wait(min(left, 0.02)):
            return True
    return False


class WorkerDied(Exception):
    def __init__(self, reason: str, timed_out: bool = False):
        super().__init__(reason)
        self.timed_out = timed_out


def _death_reason(code: int | None) -> str:
    if code == -signal.SIGKILL:
        return "the evaluation was stopped"
    if code == -signal.SIGALRM:
        return "the evaluation did not finish in time"
    if code == -signal.SIGXCPU:
        return "the evaluation exceeded its CPU time limit"
    if code == 3:
        return "the evaluation exceeded the memory limit"
    return f"the evaluator ended (status {code})"


# ---- the worker process -------------------------------------------------------------------------

def _cpu_used() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def worker_main(argv: list) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog="puppet-ls-evalworker")
    ap.add_argument("--memory-mb", type=int, default=256)
    ap.add_argument("--parent", type=int, default=os.getppid())
    args = ap.parse_args(argv)
    die_with_parent(args.parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # the editor's Ctrl-C is not for us
    signal.signal(signal.SIGALRM, signal.SIG_DFL)    # the job deadline: ends the process
    limit = args.memory_mb * 1024 * 1024
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ValueError, OSError):
        pass
    from puppet_ls.language.ide.preview import PreviewBudget, PreviewContext, evaluate_in_process
    evaluate_in_process("[1].map |$x| { $x }", PreviewBudget())     # warm the evaluator
    out = sys.stdout.buffer
    write_all(out, b'{"ready": true}\n')
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    for line in sys.stdin.buffer:
        try:
            job = json.loads(line)
        except ValueError:
            continue
        seconds = float(job.get("seconds", 0.05))
        try:
            soft = int(_cpu_used() + seconds + 2)
            resource.setrlimit(resource.RLIMIT_CPU, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))
        except (ValueError, OSError):
            pass
        # The wall-clock deadline, enforced by the kernel: SIGALRM's default action ends the
        # process even while C code holds the interpreter (a server starved of CPU by a large
        # analysis might otherwise kill it late).
        wall = float(job.get("wall", 0) or 0)
        if wall > 0:
            signal.setitimer(signal.ITIMER_REAL, wall)
        try:
            ctx = job.get("context")
            ok, value, type_text, error = evaluate_in_process(
                job.get("program", ""), PreviewBudget(steps=int(job.get("steps", 20_000)), seconds=seconds,
                                                      context=PreviewContext.from_json(ctx)
                                                      if isinstance(ctx, dict) else None))
        except MemoryError:
            # State after a MemoryError is uncertain: answer, then make room for a fresh worker.
            write_all(out, json.dumps({"seq": job.get("seq"), "ok": False,
                                       "error": "the evaluation exceeded the memory limit"}).encode() + b"\n")
            os._exit(3)
        except Exception as exc:  # noqa: BLE001 - isolation boundary: a failed job is answered, the worker lives on
            ok, value, type_text, error = False, "", "", f"evaluation failed: {exc}"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if len(value) > MAX_VALUE_CHARS:
            value = value[:MAX_VALUE_CHARS - 1] + "…"
        write_all(out, json.dumps({"seq": job.get("seq"), "ok": ok, "value": value, "type": type_text[:MAX_VALUE_CHARS],
                                   "error": error}).encode() + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(worker_main(sys.argv[1:]))
