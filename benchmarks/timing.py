"""Shared timing helper for the benchmark scripts (run by hand: ``python benchmarks/bench_*.py``)."""

from __future__ import annotations

import time


def best_of(fn, repeat: int) -> float:
    """The fastest of ``repeat`` calls of ``fn()``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def best_cpu_of(fn, repeat: int) -> float:
    """The least CPU time of this thread (``time.thread_time``) over ``repeat`` calls of ``fn()``, in seconds: on
    a machine shared with other jobs, wall time includes their turns on the cores, CPU time does not."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.thread_time()
        fn()
        best = min(best, time.thread_time() - t0)
    return best
