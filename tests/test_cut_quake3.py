"""``qdv cut`` for Quake III ``.dm_68`` / ``.dm_71`` (issue 35): the cut decodes in qdv as the original's range
(entities, view, stats, scores), starts with a gamestate and a non-delta snapshot, its message numbers rise from the
gamestate's 1, every message decodes and it ends with the ``(-1, -1)`` marker."""

from __future__ import annotations

import struct
import warnings
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assets_loader.demos import load_demo
from assets_loader.demos.quake3.framing import split_messages
from assets_loader.demos.quake3.parse import parse_demo
from assets_loader.demos.writers.quake3 import BitWriter
from assets_loader.demos.quake3.bitstream import BitReader
from tests.conftest import DATA, QUAKE3
from tests.cut_check import assert_same_range, cut_and_load

DEMOS = {"p68": QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68", "p71": QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71"}
RANGES = {"start": (0.0, 0.05), "middle": (0.45, 0.5), "end": (0.95, 1.0)}
CPMA = DATA / "public" / "quake3" / "cpma_duel.dm_68"


@cache
def _demo(path: Path):
    return path.read_bytes(), load_demo(path)


def _check(path: Path, a: float, b: float, most: int = 150) -> None:
    data, tl = _demo(path)
    start, end = tl.start_time + a, tl.start_time + b
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cut, ct = cut_and_load(data, tl, start, end, path.suffix)
    assert ct.warnings == ()
    framing = split_messages(cut, "cut")
    assert framing.cut is None and cut.endswith(struct.pack("<ii", -1, -1))
    sequences = [block.sequence for block in framing.blocks]
    assert sequences[0] == 1 and all(q > p for p, q in zip(sequences, sequences[1:]))
    demo = parse_demo(cut, "cut" + path.suffix)               # every message decodes (else a FormatError)
    assert demo.gamestates[0].message == 0 and demo.snapshots.delta_num[0] == -1
    assert_same_range(tl, ct, start, end, most=most)


@pytest.mark.parametrize("where", sorted(RANGES))
@pytest.mark.parametrize("name", sorted(DEMOS))
def test_cut_equals_the_original_range(name, where):
    _data, tl = _demo(DEMOS[name])
    a, b = RANGES[where]
    _check(DEMOS[name], a * tl.duration, b * tl.duration)


def test_cpma_duel_frag():
    """A public CPMA duel: the lightning-gun frag at 53.3 s and the rocket one at 58.1 s."""
    _check(CPMA, 50.0, 60.0, most=60)
    data, tl = _demo(CPMA)
    _cut, ct = cut_and_load(data, tl, tl.start_time + 50.0, tl.start_time + 60.0, ".dm_68")
    kills = [e for e in ct.events if e.kind == "obituary"]
    assert [(k.killer, k.weapon) for k in kills] == [("myT", "lightning"), ("myT", "rocket splash")]


@settings(max_examples=4, deadline=None)
@given(st.floats(0.0, 0.95), st.floats(0.01, 0.1))
def test_random_ranges(a, length):
    _data, tl = _demo(DEMOS["p71"])
    _check(DEMOS["p71"], a * tl.duration, (a + length) * tl.duration, most=15)


@given(st.lists(st.tuples(st.integers(0, (1 << 32) - 1), st.sampled_from([1, 3, 8, 10, 13, 16, 19, 32])),
                max_size=40))
@settings(max_examples=50, deadline=None)
def test_bit_writer_is_the_reader_inverted(values):
    w = BitWriter()
    for value, bits in values:
        w.write_bits(value, bits)
    r = BitReader(w.data())
    for value, bits in values:
        got = r.read_bits(bits)
        assert got & ((1 << bits) - 1) == value & ((1 << bits) - 1)
