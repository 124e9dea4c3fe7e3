"""``qdv cut`` for Quake II ``.dm2`` (issue 35): the cut decodes in qdv as the original's range, its first frame
has no delta frame and carries every entity and the whole player state, its frame numbers start at 1 and rise, and
it ends with the ``-1`` block length."""

from __future__ import annotations

import struct
import warnings
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assets_loader.demos import load_demo
from assets_loader.demos.quake2 import protocol as P
from assets_loader.demos.writers.quake2 import _walk
from tests.conftest import QUAKE2
from tests.cut_check import assert_same_range, cut_and_load

DEMOS = {name: QUAKE2 / "demos" / f"{name}.dm2"
         for name in ("libq2-testduel", "AQtion-bandaging-guide", "AQtion-demo-guide")}
RANGES = {"start": (0.0, 0.05), "middle": (0.45, 0.5), "end": (0.95, 1.0)}
#: Stats holding the previous server frame's values for the engine's lerps: none before a cut's first frame.
LERP_STATS = ("gunframe_prev", "fov_prev")


@cache
def _demo(path: Path):
    return path.read_bytes(), load_demo(path)


def _check(path: Path, a: float, b: float, most: int = 150) -> None:
    data, tl = _demo(path)
    start, end = tl.start_time + a * tl.duration, tl.start_time + b * tl.duration
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cut, ct = cut_and_load(data, tl, start, end, ".dm2")
    assert ct.warnings == () and cut.endswith(struct.pack("<i", -1))
    walk, blocks = _walk(cut, "cut.dm2", lambda w, f: False)       # every message parses (else a FormatError)
    assert walk.frame_number[0] == 1 and walk.frame_delta[0] == -1
    assert all(q > p for p, q in zip(walk.frame_number, walk.frame_number[1:]))
    assert walk.invalid_deltas == 0
    first = [cmd for cmd, _s, _e in blocks[walk.frame_block[0]][2]]
    assert P.svc_frame in first and P.svc_playerinfo in first and P.svc_packetentities in first
    assert_same_range(tl, ct, start, end, most=most, lerp_stats=LERP_STATS)


@pytest.mark.parametrize("where", sorted(RANGES))
@pytest.mark.parametrize("name", sorted(DEMOS))
def test_cut_equals_the_original_range(name, where):
    _check(DEMOS[name], *RANGES[where])


@settings(max_examples=5, deadline=None)
@given(st.floats(0.0, 0.95), st.floats(0.01, 0.1))
def test_random_ranges(a, length):
    _check(DEMOS["AQtion-demo-guide"], a, min(a + length, 1.0), most=15)
