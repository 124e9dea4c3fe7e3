"""The delta-field compiler: interpreted readers (rare masks) give exactly what compiled readers give, so the cap on
compilation (issue 19: one compile per distinct mask made a crafted demo take seconds) changes no timeline."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assets_loader.demos import load_demo
from assets_loader.demos.kit import deltas
from assets_loader.demos.kit.deltas import DeltaPlans, compile_delta, interpret_delta
from assets_loader.demos.quake import parse as nq
from assets_loader.demos.quake import protocol as NQ
from assets_loader.demos.quakeworld import parse as qw
from tests.conftest import DATA
from tests.test_timeline_identity import CORPUS, EXPECTED, columns_digest

NQ_TABLES = [nq.update_fields(NQ.PROTOCOL_NETQUAKE, 0), nq.update_fields(NQ.PROTOCOL_FITZQUAKE, 0),
             nq.update_fields(NQ.PROTOCOL_RMQ, NQ.PRFL_24BITCOORD | NQ.PRFL_SHORTANGLE),
             nq.update_fields(NQ.PROTOCOL_RMQ, NQ.PRFL_FLOATCOORD | NQ.PRFL_FLOATANGLE)]
QW_TABLES = [qw.delta_fields(False, False, False), qw.delta_fields(True, True, True)]


def _ncols(row: struct.Struct) -> int:
    return len(row.unpack(bytes(row.size)))


def _outcome(reader, *args):
    """What a reader returns, or ``"short"`` when the payload ran out; ``repr`` so that a NaN decoded from random
    bytes compares equal to itself."""
    try:
        return repr(reader(*args))
    except struct.error:
        return "short"


@settings(max_examples=300, deadline=None)
@given(table=st.sampled_from(NQ_TABLES), bits=st.integers(0, (1 << 24) - 1), payload=st.binary(max_size=40),
       base=st.lists(st.integers(0, 300), min_size=15, max_size=15))
def test_netquake_interpreted_reader_equals_compiled(table, bits, payload, base) -> None:
    row = nq.ROW_LAYOUT.row
    out_c: list[bytes] = []
    out_i: list[bytes] = []
    kw = {"number": "B", "default": [0] * 15}
    got_c = _outcome(compile_delta(table, bits, 15, row, **kw), payload, 0, lambda n: base, out_c.append)
    got_i = _outcome(interpret_delta(table, bits, 15, row, **kw), payload, 0, lambda n: base, out_i.append)
    assert got_c == got_i and out_c == out_i


@settings(max_examples=300, deadline=None)
@given(table=st.sampled_from(QW_TABLES), bits=st.integers(0, (1 << 27) - 1), payload=st.binary(max_size=40),
       number=st.integers(1, 2047))
def test_quakeworld_interpreted_reader_equals_compiled(table, bits, payload, number) -> None:
    row = qw.ROW_LAYOUT.row
    base = (7, 3, 2, 1, 0, 4, 1.5, -2.0, 8.0, 90.0, 0.0, 45.0, 0)
    ncols = _ncols(row)
    got_c = _outcome(compile_delta(table, bits, ncols, row), payload, 0, base, number)
    got_i = _outcome(interpret_delta(table, bits, ncols, row), payload, 0, base, number)
    assert got_c == got_i


@pytest.mark.parametrize("name", ["demo1.dem", "2on2.mvd"])
def test_timelines_are_unchanged_when_every_mask_is_interpreted(name, monkeypatch) -> None:
    monkeypatch.setattr(deltas, "MAX_COMPILED", 0)
    assert columns_digest(load_demo(CORPUS[name])) == EXPECTED[name][0]


def test_a_new_mask_per_update_compiles_at_most_the_cap(monkeypatch) -> None:
    """(NetQuake now compiles no reader at all: its updates are decoded with numpy, ``quake/updates.py``.)"""
    built: list[int] = []
    real_compile = deltas.compile_delta
    monkeypatch.setattr(deltas, "compile_delta", lambda *a, **k: built.append(a[1]) or real_compile(*a, **k))
    tl = load_demo(DATA / "bad-input" / "plan_bomb_20000.dem")
    assert tl.num_frames >= 1 and len(built) <= deltas.MAX_COMPILED


def test_plans_cache_is_bounded() -> None:
    plans = DeltaPlans(QW_TABLES[0], 13, qw.ROW_LAYOUT.row)
    for bits in range(deltas.MAX_CACHED + 50):
        plans[bits << 9]
    assert len(plans) == deltas.MAX_CACHED and plans.compiled == deltas.MAX_COMPILED
