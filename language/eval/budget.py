"""The evaluation budget: steps, wall time and nesting depth, so runaway code always stops.

Every evaluated node costs one step; iteration functions charge one step per element they
produce, so ``Integer[1, 10000000000].each`` stops as soon as the budget is used up instead of
running for hours.  Time is only read every few hundred steps because reading the clock is
much slower than counting.

Work that a single step can trigger is bounded by the same budget through
:mod:`..types.guard`: every match of a user regexp runs under a hard timeout equal to the time
left, and every value built or walked is limited to ``max_value_size`` elements and characters
(shared sub-values counted as often as they are reachable).  :meth:`Budget.limits` gives those
limits; the entry points install them for the evaluation and for rendering its result.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..types.guard import DEFAULT_MAX_VALUE_SIZE, Limits
from .errors import BudgetExceeded
from ..messages import render

_CLOCK_EVERY = 256


@dataclass
class Budget:
    """Limits for one evaluation.  ``steps``/``seconds`` of None mean "unlimited"."""

    steps: int | None = 2_000_000
    seconds: float | None = 10.0
    max_depth: int = 2500
    max_value_size: int | None = DEFAULT_MAX_VALUE_SIZE
    used: int = 0
    depth: int = 0
    started: float = field(default_factory=time.monotonic)
    _limits: Limits | None = field(default=None, repr=False, compare=False)

    def restart(self) -> None:
        self.used = 0
        self.depth = 0
        self.started = time.monotonic()
        self._limits = None

    def limits(self) -> Limits:
        """The guard limits of this budget: its deadline and value size (see types.guard).
        One object per run, so the sizes it remembers serve rendering the result too."""
        if self._limits is None:
            deadline = None if self.seconds is None else self.started + self.seconds
            self._limits = Limits(deadline=deadline, max_value_size=self.max_value_size,
                                  seconds=self.seconds)
        return self._limits

    def charge(self, n: int = 1) -> None:
        """Use ``n`` steps; raises :class:`BudgetExceeded` when a limit is passed."""
        self.used += n
        if self.steps is not None and self.used > self.steps:
            raise BudgetExceeded(
                render("EVAL_BUDGET_EXCEEDED", steps=self.steps))
        if self.seconds is not None and self.used % _CLOCK_EVERY < n \
                and time.monotonic() - self.started > self.seconds:
            raise BudgetExceeded(
                render("EVALUATION_STOPPED_TIME_BUDGET_SECONDS", seconds=self.seconds),
                "EVAL_TIMEOUT")

    def enter(self) -> None:
        """One level deeper (a nested call or expression); refuses runaway recursion."""
        self.depth += 1
        if self.depth > self.max_depth:
            raise BudgetExceeded(
                render("EVALUATION_STOPPED_NESTING_DEEPER_THAN",
                       max_depth=self.max_depth), "EVAL_RECURSION_LIMIT")

    def leave(self) -> None:
        self.depth -= 1
