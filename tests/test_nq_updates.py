"""NetQuake entity updates decoded column-wise (:mod:`assets_loader.demos.quake.updates`) give exactly the rows the
per-update readers of :mod:`assets_loader.demos.kit.deltas` pack, for both of its paths (one array per mask, and
field by field across rare masks)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assets_loader.demos import load_demo
from assets_loader.demos.kit.deltas import DeltaPlans
from assets_loader.demos.quake import parse as nq
from assets_loader.demos.quake import protocol as P
from assets_loader.demos.quake import update_walk, updates
from assets_loader.demos.quake.update_walk import update_lengths
from assets_loader.demos.quake.updates import NO_ALPHA, NO_BASELINE, UPDATE_DTYPE, UpdateTable, decode_updates
from tests.test_timeline_identity import CORPUS, EXPECTED, columns_digest

_TABLES = [nq.update_fields(P.PROTOCOL_NETQUAKE, 0), nq.update_fields(P.PROTOCOL_FITZQUAKE, 0),
           nq.update_fields(P.PROTOCOL_RMQ, P.PRFL_24BITCOORD | P.PRFL_SHORTANGLE),
           nq.update_fields(P.PROTOCOL_RMQ, P.PRFL_FLOATCOORD | P.PRFL_FLOATANGLE)]
_DEFAULT = (0, 0, 0, 0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 16, 0.1)


def _plans(fields) -> DeltaPlans:
    return DeltaPlans(fields, 15, nq.ROW_LAYOUT.row, number="B", wide_number="H", wide_bit=P.U_LONGENTITY,
                      default=_DEFAULT)


def _table(fields) -> UpdateTable:
    return UpdateTable(fields, "B", "H", P.U_LONGENTITY, _DEFAULT)


@st.composite
def _updates(draw):
    """A field table, baselines, and updates laid out in one buffer as the message loop would record them."""
    table = draw(st.integers(0, len(_TABLES) - 1))
    sizes = _table(_TABLES[table])
    baselines = draw(st.lists(st.lists(st.integers(0, 300), min_size=15, max_size=15), max_size=3))
    masks = draw(st.lists(st.integers(0, (1 << 24) - 1), min_size=1, max_size=4))
    data = bytearray(b"\xff")
    records = []
    for _ in range(draw(st.integers(1, 40))):
        bits = draw(st.sampled_from(masks))
        number = draw(st.integers(0, 65535 if bits & P.U_LONGENTITY else 255))
        head = number.to_bytes(2 if bits & P.U_LONGENTITY else 1, "little")
        body = draw(st.binary(min_size=sizes[bits] - len(head), max_size=sizes[bits] - len(head)))
        base = draw(st.integers(NO_BASELINE, len(baselines) - 1))
        alpha = draw(st.sampled_from([NO_ALPHA, 0, 128]))
        records.append((number, bits, len(data), base, alpha, table))
        data += head + body
    return bytes(data), np.array(records, UPDATE_DTYPE), baselines


def _expected(data, records, baselines) -> np.ndarray:
    tables = [_plans(t) for t in _TABLES]
    rows = []
    for _number, bits, pos, base, alpha, table in records.tolist():
        out: list[bytes] = []
        start = baselines[base] if base != NO_BASELINE else None
        tables[table][bits](data, pos, lambda _n, start=start: start, out.append)
        row = np.frombuffer(out[0], np.float64).copy()
        if alpha != NO_ALPHA:
            row[12] = alpha
        rows.append(row)
    return np.array(rows)


@pytest.mark.parametrize("min_group", [1, 10 ** 9])
@settings(max_examples=150, deadline=None)
@given(case=_updates())
def test_rows_equal_the_per_update_readers(case, min_group) -> None:
    data, records, baselines = case
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(updates, "MIN_GROUP", min_group)
        got = decode_updates(data, records, [_table(t) for t in _TABLES], baselines, number_column=0,
                             alpha_column=12)
    want = _expected(data, records, baselines)
    assert got.tobytes() == want.tobytes()          # bit for bit, NaN from random float bytes included


def test_no_records_give_no_rows() -> None:
    rows = decode_updates(b"", np.zeros(0, UPDATE_DTYPE), [_table(_TABLES[0])], [], number_column=0,
                          alpha_column=12)
    assert rows.shape == (0, 15)


def test_sizes_count_the_number_and_the_fields() -> None:
    sizes = _table(_TABLES[0])
    assert sizes[0] == 1
    assert sizes[P.U_LONGENTITY] == 2
    assert sizes[P.U_ORIGIN1 | P.U_ANGLE1 | P.U_FRAME] == 1 + 2 + 1 + 1


def test_demo1_is_unchanged_when_every_update_is_read_field_by_field(monkeypatch) -> None:
    monkeypatch.setattr(updates, "MIN_GROUP", 10 ** 9)
    assert columns_digest(load_demo(CORPUS["demo1.dem"])) == EXPECTED["demo1.dem"][0]


def _length_by_hand(data: bytes, i: int, table: UpdateTable) -> int:
    """CL_ParseUpdate's bits bytes, then the table's size for those bits (0: not an update, or Nehahra)."""
    padded = data + b"\0\0\0"
    if padded[i] < 0x80:
        return 0
    bits, p = padded[i] & 0x7F, i + 1
    if bits & P.U_MOREBITS:
        bits |= padded[p] << 8
        p += 1
    if table.extended:
        if bits & P.U_EXTEND1:
            bits |= padded[p] << 16
            p += 1
        if bits & P.U_EXTEND2:
            bits |= padded[p] << 24
            p += 1
    elif bits & P.U_TRANS:
        return 0
    return p - i + table[bits]


@pytest.mark.parametrize("chunk", [5, 1 << 20])
@settings(max_examples=200, deadline=None)
@given(which=st.integers(0, len(_TABLES) - 1), data=st.binary(min_size=1, max_size=64))
def test_length_table_matches_the_bits_read_one_by_one(which, data, chunk) -> None:
    table = UpdateTable(_TABLES[which], "B", "H", P.U_LONGENTITY, _DEFAULT, which > 0)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(update_walk, "CHUNK", chunk)
        lengths = update_lengths(data, table, table.extended)
    assert list(lengths) == [_length_by_hand(data, i, table) for i in range(len(data))]
