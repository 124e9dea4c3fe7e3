"""The fuzz engine itself: mutations are deterministic, and an input that raises something else than a
``FormatError``, burns its CPU budget or allocates past its memory budget is a failure."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.errors import FormatError
from tests.fuzz import engine
from tests.fuzz.engine import Stats, Target, check_one, mutate


def test_mutations_are_deterministic_and_stay_in_range():
    data = bytes(range(200))
    edits = [(0, 7, 0xAB, 1), (1, 3, 1, 4), (3, 11, 0, 16), (4, 5, 0, 8), (5, 2, 9, 3), (2, 99, 0, 1)]
    assert mutate(data, edits) == mutate(data, edits)
    assert mutate(b"", [(0, 0, 0x1234, 1)]) == (0x1234).to_bytes(4, "little")
    assert mutate(data, [(2, 0, 0, 1)]) == data[:1]  # a cut keeps at least one byte


def _target(load) -> Target:
    return Target("t", load, lambda: [("seed", b"abc")])


def test_results_and_format_errors_are_counted():
    stats = Stats()
    check_one(_target(lambda data, name: len(data)), b"abc", "seed", stats)

    def refuse(data, name):
        raise FormatError(name, "T", 0, "nothing")

    check_one(_target(refuse), b"abc", "seed", stats)
    assert (stats.inputs, stats.results, stats.format_errors) == (2, 1, 1)


def test_another_exception_is_a_failure():
    with pytest.raises(ValueError):
        check_one(_target(lambda data, name: int("not a number")), b"abc", "seed", Stats())


def test_an_input_over_its_cpu_budget_is_a_failure(monkeypatch):
    import signal

    monkeypatch.setattr(engine, "CPU_SECONDS", 0.2)
    previous = signal.signal(signal.SIGPROF, engine._on_cpu_limit)

    def spin(data, name):
        while True:
            pass

    try:
        with pytest.raises(AssertionError, match=r"t on a mutated seed: CpuTimeExceeded: more than 0.2 s of CPU"):
            check_one(_target(spin), b"abc", "seed", Stats())
    finally:
        signal.signal(signal.SIGPROF, previous)


def test_an_input_over_its_memory_budget_is_a_failure(monkeypatch):
    monkeypatch.setattr(engine, "INPUT_MB", 20)
    with pytest.raises(AssertionError, match=r"t on a mutated seed: allocated \d+ MB \(> 20\)"):
        check_one(_target(lambda data, name: np.ones(200 << 20, np.uint8).sum()), b"abc", "seed", Stats())
