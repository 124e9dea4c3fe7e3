"""``qdv cut`` for QuakeWorld ``.mvd`` and ``.qwd`` (issue 35): the cut decodes in qdv as the original's range (an
MVD from every player's eye), its first frame is a full (non-delta) entity set (with every player in an MVD), a
``.qwd``'s netchan sequence numbers rise from its level packets through the range, and it ends as its
format ends."""

from __future__ import annotations

import warnings
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assets_loader.demos import load_demo
from assets_loader.demos.quakeworld import protocol as P
from assets_loader.demos.writers.quakeworld import _MvdWalk, _QwdWalk, _qwd_blocks, _walk
from tests.conftest import QUAKEWORLD
from tests.cut_check import assert_same_range, cut_and_load

DEMOS = {"2on2": QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd", "lqdm2": QUAKEWORLD / "lq_lqdm2_mvd.mvd"}
RANGES = {"start": (0.0, 0.05), "middle": (0.45, 0.5), "end": (0.95, 1.0)}


@cache
def _demo(name: str):
    path = DEMOS[name]
    return path.read_bytes(), load_demo(path)


def _first_frame_messages(cut: bytes) -> list[int]:
    walk = _walk(_MvdWalk, cut, "cut.mvd", 0)               # every message parses (else a FormatError)
    return [cmd for frame, _h, _e, messages, _q in walk.walked if frame == 0 for cmd, _s, _e2 in messages]


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


QWD = QUAKEWORLD / "lq_lqdm2_ranger.qwd"


@cache
def _qwd():
    return QWD.read_bytes(), load_demo(QWD)


def _sequences(cut: bytes) -> list[int]:
    seqs = []
    for pos, _end, typ in _qwd_blocks(cut, 0, len(cut)):
        if typ == P.dem_read and cut[pos + 9:pos + 13] != b"\xff\xff\xff\xff":
            seqs.append(int.from_bytes(cut[pos + 9:pos + 13], "little") & 0x7FFFFFFF)
    return seqs


@pytest.mark.parametrize("where", sorted(RANGES))
def test_qwd_cut_equals_the_original_range(where):
    data, tl = _qwd()
    a, b = RANGES[where]
    start, end = tl.start_time + a * tl.duration, tl.start_time + b * tl.duration
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cut, ct = cut_and_load(data, tl, start, end, ".qwd")
    assert ct.warnings == () and ct.events[-1].kind == "disconnect"
    assert cut.endswith(b"\xff\xff\xff\xff\x02EndOfDemo\0")
    walk = _walk(_QwdWalk, cut, "cut.qwd", 0)              # every message parses (else a FormatError)
    first = [cmd for frame, _h, _e, messages, _q in walk.walked if frame == 0 for cmd, _s, _e2 in messages]
    assert P.svc_packetentities in first and P.svc_deltapacketentities not in first
    assert walk.counters["delta_from_mismatch"] == 0 and walk.counters["dropped_packets"] == 0
    seqs = _sequences(cut)
    assert seqs[0] == 1 and all(b > a for a, b in zip(seqs, seqs[1:]))
    assert_same_range(tl, ct, start, end)


@settings(max_examples=5, deadline=None)
@given(st.floats(0.0, 0.95), st.floats(0.01, 0.1))
def test_qwd_random_ranges(a, length):
    data, tl = _qwd()
    start = tl.start_time + a * tl.duration
    end = start + length * tl.duration
    cut, ct = cut_and_load(data, tl, start, end, ".qwd")
    assert_same_range(tl, ct, start, end, most=15)
