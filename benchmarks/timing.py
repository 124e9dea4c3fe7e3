"""Shared timing helper for the benchmark scripts (run by hand: ``python benchmarks/bench_*.py``)."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(fn: Callable[[], object], repeat: int, clock: Callable[[], float] = time.perf_counter) -> float:
    """The least time by ``clock`` over ``repeat`` calls of ``fn()``, in seconds (wall time by default)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = clock()
        fn()
        best = min(best, clock() - t0)
    return best


def best_cpu_of(fn: Callable[[], object], repeat: int) -> float:
    """The least CPU time of this thread (``time.thread_time``) over ``repeat`` calls of ``fn()``, in seconds: on
    a machine shared with other jobs, wall time includes their turns on the cores, CPU time does not."""
    return best_of(fn, repeat, time.thread_time)
