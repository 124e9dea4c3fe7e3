"""Bad .qwd / .mvd input never escapes as anything but FormatError (or a valid partial timeline with warnings)."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assets_loader.demos.quakeworld import decode_mvd, decode_qwd
from assets_loader.errors import FormatError
from tests.conftest import QUAKEWORLD

# The first ~30 KB hold the signon and the first frames: mutations there reach every message parser quickly.
QWD = (QUAKEWORLD / "lq_lqdm2_ranger.qwd").read_bytes()[:30000]
MVD = (QUAKEWORLD / "lq_lqdm2_mvd.mvd").read_bytes()[:30000]


def check(decode, data: bytes) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            tl = decode(data, "fuzz")
        except FormatError:
            return
    assert tl.num_frames >= 1
    assert np.all(np.diff(tl.times) >= 0)
    t = tl.start_time + tl.duration / 2
    tl.sample(t)
    for slot in tl.pov_slots[:2]:
        tl.sample(t, pov=slot)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_random_bytes_qwd(data):
    check(decode_qwd, data)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_random_bytes_mvd(data):
    check(decode_mvd, data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(QWD) - 1), st.integers(0, 255)), min_size=1, max_size=8))
def test_mutated_qwd(mutations):
    data = bytearray(QWD)
    for pos, value in mutations:
        data[pos] = value
    check(decode_qwd, bytes(data))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(MVD) - 1), st.integers(0, 255)), min_size=1, max_size=8))
def test_mutated_mvd(mutations):
    data = bytearray(MVD)
    for pos, value in mutations:
        data[pos] = value
    check(decode_mvd, bytes(data))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, len(QWD)))
def test_truncated_qwd(cut):
    check(decode_qwd, QWD[:cut])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, len(MVD)))
def test_truncated_mvd(cut):
    check(decode_mvd, MVD[:cut])
