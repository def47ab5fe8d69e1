"""A question's allowance of CPU time: the second line of defence behind the referee's
bounded searches. The search calls `check()` in its loops; past the allowance it raises
`OutOfTime`, which the web layer answers with a 503. Each check is counted (`steps`), so
that tests can bound the work a question takes without timing it.

>>> budget = Budget()  # no limit: only counts
>>> budget.check(); budget.check(); budget.steps
2
>>> Budget(0.5, clock=iter([0.0, 0.2, 0.7]).__next__).check()  # started at 0.0, now 0.2
>>> spent = Budget(0.5, clock=iter([0.0, 0.7]).__next__)
>>> spent.check()
Traceback (most recent call last):
...
tichu_scorer.engine.budget.OutOfTime: the question took more than 0.5 s of CPU
"""

from __future__ import annotations

import time
from collections.abc import Callable


class OutOfTime(Exception):
    """A question's search used up its CPU allowance (not a fault of the question)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the question took more than {seconds:g} s of CPU")
        self.seconds = seconds


# The calling thread's CPU time; Pyodide (the phone's copy, one thread) has no such clock:
# there the wall clock counts.
THREAD_TIME: Callable[[], float] = getattr(time, "thread_time", time.perf_counter)


class Budget:
    """`seconds` of CPU time for one question, counted from now on `clock` (the calling
    thread's CPU time: a worker's other threads do not spend it); None for no limit."""

    __slots__ = ("seconds", "clock", "start", "steps")

    def __init__(self, seconds: float | None = None,
                 clock: Callable[[], float] = THREAD_TIME) -> None:
        self.seconds = seconds
        self.clock = clock
        self.start = clock() if seconds is not None else 0.0
        self.steps = 0

    def check(self) -> None:
        """Count a step; OutOfTime once the allowance is spent (a zero allowance at once)."""
        self.steps += 1
        if self.seconds is not None and self.clock() - self.start >= self.seconds:
            raise OutOfTime(self.seconds)


__all__ = ["Budget", "OutOfTime"]
