"""The limits that value-level code must honour while an evaluation runs: a deadline for every
match of a user regular expression, and a size meter for every walk over a value.

The evaluator owns the budget (``language/eval/budget.py``) but the regexp matching and most of
the value walkers (inference, instance checks) live here in ``types/``, which must not import
the evaluator.  So the evaluator installs its limits for the duration of an evaluation with
:func:`active`, and this module reads them through a context variable (one per thread or task,
so concurrent evaluations in a server never see each other's limits).

Outside an evaluation (the static checker, hover) no limits are installed: values there come
from source text, so sizes are not checked, and a regexp match gets
:data:`DEFAULT_REGEXP_SECONDS`, after which it counts as "no match" (the conservative answer
for an instance check) instead of raising.  Rendering an evaluation's value for a preview
installs default :class:`Limits` (``render_value``).

Exceeding a limit raises :class:`LimitExceeded`.  It derives from ``BaseException`` on purpose:
several value helpers catch the errors they expect and turn them into
"no match" or "not an instance", and a limit must stop the whole evaluation, not become a
wrong answer.  The evaluator turns it into an ordinary Puppet error at its boundary.
"""
from __future__ import annotations

import contextvars
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Iterator

# What a match may take inline before it moves to a helper thread (see run_match).
_INLINE_SECONDS = 0.05
# What a match outside any evaluation may take (hover over a Pattern type, the checker).
DEFAULT_REGEXP_SECONDS = 1.0
# Elements plus characters one value may reach (shared sub-values counted as often as they are
# reachable): far above any real manifest's data, far below what exhausts memory or time.
DEFAULT_MAX_VALUE_SIZE = 5_000_000
# Decimal digits of the largest Integer made from text (Python's own default limit for
# converting integers to text is 4300).
MAX_INTEGER_DIGITS = 4000
# The memo of sizes keeps the collections it knows alive: past this many remembered members
# in all (about 8 bytes each) it starts afresh, so it never holds on to much memory.
_MEMO_MEMBERS = 1_000_000


class LimitExceeded(BaseException):
    """A hard limit of the running evaluation was reached (see the module doc for the base)."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.message = message
        self.code = code
        # (offset, end) of the expression that hit the limit, filled in by the evaluator
        self.where: tuple | None = None


@dataclass
class Limits:
    """The limits of one evaluation: an absolute ``deadline`` (``time.monotonic()``; None for
    none) and ``max_value_size`` (elements and characters of one value; None for none)."""

    deadline: float | None = None
    max_value_size: int | None = DEFAULT_MAX_VALUE_SIZE
    seconds: float | None = None   # the budget's setting, for the message only
    # id -> (collection, size): sizes already measured in this evaluation.
    sizes: dict = field(default_factory=dict, repr=False)
    # Calls of tick() so far: the clock is read on every 1024th.
    ticks: int = 0


_CURRENT: contextvars.ContextVar[Limits | None] = contextvars.ContextVar(
    "puppet_ls_eval_limits", default=None)


@contextmanager
def active(limits: Limits) -> Iterator[Limits]:
    """Install ``limits`` for the code run inside the ``with`` block (the same thread/task)."""
    token = _CURRENT.set(limits)
    try:
        yield limits
    finally:
        _CURRENT.reset(token)


def current() -> Limits | None:
    return _CURRENT.get()


def _budget_text(limits: Limits | None) -> str:
    return f" of {limits.seconds:g} seconds" if limits and limits.seconds is not None else ""


def _text(code: str, **args: Any) -> str:
    # the registered text, without the registry's "(puppet-ls)" origin note
    from ..messages import issue
    return issue(code).format(**args).removesuffix(" (puppet-ls)")


def timeout_error(limits: Limits | None) -> LimitExceeded:
    return LimitExceeded(_text("EVAL_REGEXP_TIMEOUT", budget=_budget_text(limits)),
                         "EVAL_REGEXP_TIMEOUT")


def too_large(what: str, size: int | None = None, limit: int | None = None) -> LimitExceeded:
    lim = limit if limit is not None else (max_value_size() or DEFAULT_MAX_VALUE_SIZE)
    return LimitExceeded(_text("EVAL_VALUE_TOO_LARGE", what=what, limit=lim),
                         "EVAL_VALUE_TOO_LARGE")


def check_integer_digits(text: str, base: int, what: str = "the Integer") -> None:
    """Refuse to make an Integer from ``text`` (digits in ``base``) with more decimal digits
    than :data:`MAX_INTEGER_DIGITS`: Python refuses to turn such an integer into text (the
    conversion takes quadratic time), so it could be made but never shown."""
    import math
    if len(text) * math.log10(base) > MAX_INTEGER_DIGITS:
        raise LimitExceeded(_text("EVAL_INTEGER_TOO_LARGE", what=what, limit=MAX_INTEGER_DIGITS),
                            "EVAL_INTEGER_TOO_LARGE")


def tick() -> None:
    """One unit of work of a walker over values (formatting, inference): walks happen inside
    one evaluation step, so they read the deadline themselves, every 1024 units."""
    limits = _CURRENT.get()
    if limits is None or limits.deadline is None:
        return
    limits.ticks += 1
    if limits.ticks & 1023 == 0 and time.monotonic() > limits.deadline:
        raise LimitExceeded(_text("EVAL_TIMEOUT", seconds=f"{limits.seconds:g}"),
                            "EVAL_TIMEOUT")


def max_value_size() -> int | None:
    """The size limit in force; None outside an evaluation, where values come from source
    text (the checker, hover) and a limit would only turn a large literal into a crash."""
    limits = _CURRENT.get()
    return limits.max_value_size if limits is not None else None


def check_size(size: int, what: str = "the value") -> None:
    """Refuse to build a flat value (a string, an array) of ``size`` units over the limit."""
    lim = max_value_size()
    if lim is not None and size > lim:
        raise too_large(what, size, lim)


def measure(value: Any) -> int:
    """The size of ``value`` in elements and characters, shared sub-values counted each time
    they are reachable; raises EVAL_VALUE_TOO_LARGE as soon as it passes the limit.

    Called where a collection is built and at the entry of every walker over values, so a
    value with 2**40 leaves made from a few shared arrays is refused before anything walks it.
    The cost is bounded by the limit, and inside an evaluation the size of each collection is
    remembered (by identity, keeping the object alive so the identity stays its own), so
    measuring ``[$a, $a]`` costs two look-ups, not a walk of ``$a``.
    """
    t = type(value)
    if t is str:
        n = len(value)
        lim = max_value_size()
        if lim is not None and n > lim:
            raise too_large("a string", n, lim)
        return n
    if t is not list and t is not dict and t is not tuple:
        return 1
    limits = _CURRENT.get()
    if limits is None or limits.max_value_size is None:
        return 1
    return _measure(value, limits.max_value_size, limits.sizes)


_HELD = "members held"   # the memo's own bookkeeping entry (no id() is a str)
_SHARED = "the value (its parts counted each time they are reachable)"


def measure_joined(out: list, parts: list) -> int:
    """The size of ``out``, a new list made by joining the lists ``parts``: the sum of their
    (usually remembered) sizes, so doubling an array does not walk it every time."""
    limits = _CURRENT.get()
    if limits is None or limits.max_value_size is None:
        return 1
    total = sum(measure(p) for p in parts)
    if total > limits.max_value_size:
        raise too_large(_SHARED, total, limits.max_value_size)
    limits.sizes[id(out)] = (out, total)
    return total


def _members(coll: Any) -> Any:
    return iter(coll.values()) if type(coll) is dict else iter(coll)


def _measure(root: Any, lim: int, memo: dict) -> int:
    hit = memo.get(id(root))
    if hit is not None and hit[0] is root:
        return hit[1]
    total = 0
    # An explicit stack (values may nest deeper than Python recursion allows) of
    # [collection, iterator over its members, total when it was entered].
    stack: list = [[root, _members(root), 0]]
    # collections being measured: one containing itself (only Python code can make one)
    # counts as a leaf there instead of looping
    open_ids = {id(root)}
    while stack:
        top = stack[-1]
        child = None
        for x in top[1]:
            total += 1
            tx = type(x)
            if tx is str:
                total += len(x)
            elif tx is list or tx is tuple or tx is dict:
                h = memo.get(id(x))
                if h is not None and h[0] is x:
                    total += h[1]
                elif id(x) not in open_ids:
                    child = x
            if total > lim:
                raise too_large(_SHARED, total, lim)
            if child is not None:
                break
        if child is not None:
            stack.append([child, _members(child), total])
            open_ids.add(id(child))
            continue
        coll, _, begun = stack.pop()
        open_ids.discard(id(coll))
        if type(coll) is dict:
            # keys count too (flat in practice: strings, numbers)
            total += sum(len(k) if type(k) is str else 1 for k in coll)
            if total > lim:
                raise too_large(_SHARED, total, lim)
        held = memo.get(_HELD, 0) + len(coll)
        if held > _MEMO_MEMBERS:
            memo.clear()
            held = len(coll)
        memo[_HELD] = held
        memo[id(coll)] = (coll, total - begun)
    return total


def regexp_timeout() -> float | None:
    """Seconds the next match may take: what is left of the evaluation's (wall) time, at least
    a sliver so a match at the deadline still stops with the regexp's own error; the default
    outside an evaluation; None when the evaluation has no time limit."""
    limits = _CURRENT.get()
    if limits is None:
        return DEFAULT_REGEXP_SECONDS
    if limits.deadline is None:
        return None
    return max(0.001, limits.deadline - time.monotonic())


def run_match(fn: Any, *args: Any, **kw: Any) -> Any:
    """Call a ``regex`` matching method so that it ends by the evaluation's deadline.

    The engine's ``timeout`` stops the matcher from inside, but it counts CPU time of the
    process, and on a busy machine the process gets only part of a core: a match given the
    wall time left would end several times past the deadline.  So a match first runs inline
    for at most :data:`_INLINE_SECONDS` (every ordinary match is done by then); one that is
    still running is restarted on a helper thread with the GIL released and waited for in
    wall time.  If the deadline passes first the evaluation stops, and the abandoned match
    stops itself within the same budget of CPU time.

    Inside an evaluation a timeout raises EVAL_REGEXP_TIMEOUT; outside one the match is
    abandoned and None returned ("no match").
    """
    limits = _CURRENT.get()
    timeout = regexp_timeout()
    if timeout is None:
        return fn(*args, **kw)
    first = min(timeout, _INLINE_SECONDS)
    try:
        return fn(*args, timeout=first, **kw)
    except TimeoutError:
        if first >= timeout:
            return _timed_out(limits)
    left = regexp_timeout() or 0.001
    box: dict = {}

    def work() -> None:
        try:
            box["value"] = fn(*args, timeout=left, concurrent=True, **kw)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            box["error"] = exc

    # the helper sees the same limits (a substitution's callback checks sizes)
    helper = threading.Thread(target=contextvars.copy_context().run, args=(work,),
                              name="puppet-ls-regexp", daemon=True)
    helper.start()
    helper.join(left)
    if helper.is_alive() or isinstance(box.get("error"), TimeoutError):
        return _timed_out(limits)
    if "error" in box:
        raise box["error"]
    return box.get("value")


def _timed_out(limits: Limits | None) -> Any:
    if limits is None:
        return None
    raise timeout_error(limits) from None
