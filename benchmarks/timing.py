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
