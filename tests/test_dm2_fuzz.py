"""Bad .dm2 input never escapes as anything but FormatError (or a valid partial timeline with warnings)."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assets_loader.demos.quake2 import decode_dm2
from assets_loader.errors import FormatError
from tests.conftest import QUAKE2

# The first ~20 KB hold the signon (configstrings, baselines) and the first frames of each demo.
DUEL = (QUAKE2 / "demos" / "libq2-testduel.dm2").read_bytes()[:20000]
GUIDE = (QUAKE2 / "demos" / "AQtion-bandaging-guide.dm2").read_bytes()[:20000]


def check(data: bytes) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            tl = decode_dm2(data, "fuzz")
        except FormatError:
            return
    assert tl.num_frames >= 1
    assert np.all(np.diff(tl.times) >= 0)
    tl.sample(tl.start_time + tl.duration / 2)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_random_bytes(data: bytes) -> None:
    check(data)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([DUEL, GUIDE]),
       st.lists(st.tuples(st.integers(0, 19999), st.integers(0, 255)), min_size=1, max_size=8))
def test_mutated_corpus(base: bytes, mutations: list[tuple[int, int]]) -> None:
    data = bytearray(base)
    for pos, value in mutations:
        data[pos] = value
    check(bytes(data))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(DUEL)))
def test_cut_anywhere(cut: int) -> None:
    check(DUEL[:cut])
