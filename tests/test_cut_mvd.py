"""``qdv cut`` for QuakeWorld ``.mvd`` (issue 35): the cut decodes in qdv as the original's range from every
player's eye, its first frame is a full (non-delta) entity set with every player, and it ends with
``svc_disconnect``."""

from __future__ import annotations

import warnings
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assets_loader.demos import load_demo
from assets_loader.demos.quakeworld import protocol as P
from assets_loader.demos.writers.quakeworld import _Walk
from tests.conftest import QUAKEWORLD
from tests.cut_check import assert_same_range, cut_and_load

DEMOS = {"2on2": QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd", "lqdm2": QUAKEWORLD / "lq_lqdm2_mvd.mvd"}
RANGES = {"start": (0.0, 0.05), "middle": (0.45, 0.5), "end": (0.95, 1.0)}


@cache
def _demo(name: str):
    path = DEMOS[name]
    return path.read_bytes(), load_demo(path)


def _first_frame_messages(cut: bytes) -> list[int]:
    walk = _Walk(cut, "cut.mvd", 0)
    assert walk.read_blocks() is None                      # every message parses
    return [cmd for frame, _h, _e, messages in walk.walked if frame == 0 for cmd, _s, _e2 in messages]


@pytest.mark.parametrize("where", sorted(RANGES))
@pytest.mark.parametrize("name", sorted(DEMOS))
def test_cut_equals_the_original_range(name, where):
    data, tl = _demo(name)
    a, b = RANGES[where]
    start, end = tl.start_time + a * tl.duration, tl.start_time + b * tl.duration
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cut, ct = cut_and_load(data, tl, start, end, ".mvd")
    assert ct.warnings == () and ct.events[-1].kind == "disconnect"
    first = _first_frame_messages(cut)
    assert P.svc_packetentities in first and P.svc_deltapacketentities not in first
    assert first.count(P.svc_playerinfo) == len(tl.players.seen_slots())
    for slot in tl.players.seen_slots():
        assert_same_range(tl, ct, start, end, most=40, pov=int(slot))
    assert_same_range(tl, ct, start, end)


@settings(max_examples=5, deadline=None)
@given(st.floats(0.0, 0.95), st.floats(0.01, 0.1))
def test_random_ranges(a, length):
    data, tl = _demo("lqdm2")
    start = tl.start_time + a * tl.duration
    end = start + length * tl.duration
    cut, ct = cut_and_load(data, tl, start, end, ".mvd")
    assert_same_range(tl, ct, start, end, most=15)
