"""Bad input never escapes as anything but FormatError (or a valid partial timeline with warnings)."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assets_loader.demos import load_demo
from assets_loader.errors import FormatError
from tests.conftest import LQ1

DEMO3 = (LQ1 / "demo3.dem").read_bytes()


def check(data: bytes) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            tl = load_demo(data)
        except FormatError:
            return
    assert tl.num_frames >= 1
    assert np.all(np.diff(tl.times) >= 0)
    tl.sample(tl.start_time + tl.duration / 2)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_random_bytes(data):
    check(data)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_after_a_cd_track_line(data):
    check(b"-1\n" + data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(DEMO3) - 1), st.integers(0, 255)), min_size=1, max_size=8))
def test_mutated_corpus_demo(mutations):
    data = bytearray(DEMO3)
    for pos, value in mutations:
        data[pos] = value
    check(bytes(data))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(DEMO3)))
def test_truncated_corpus_demo(cut):
    check(DEMO3[:cut])
