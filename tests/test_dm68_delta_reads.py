"""The inlined reads of the Quake III delta decoder (:mod:`assets_loader.demos.quake3.delta`: table look-ups in
the message windows, no bounds test per value) give what a plain ``MSG_ReadDeltaEntity`` /
``MSG_ReadDeltaPlayerstate`` written with :meth:`BitReader.read_bits` gives, for every protocol's tables: the same
state and bit position, and an error exactly when that reader runs past the message (deltas cut anywhere, bytes
changed anywhere)."""

from __future__ import annotations

import struct

from hypothesis import given, settings
from hypothesis import strategies as st

from assets_loader.demos.quake3.bitstream import BitReader, MessageFormatError
from assets_loader.demos.quake3.delta import (
    _INTEGRAL_FLOAT_BITS,
    null_player,
    null_state,
    read_delta_entity,
    read_delta_player,
)
from assets_loader.demos.quake3.protocol import MAX_PS_ARRAY, PLAYER_ARRAYS, PROTOCOLS, FieldTable
from assets_loader.demos.writers.quake3 import BitWriter, write_delta_entity, write_delta_player


def _value(draw: st.DrawFn, width: int) -> int:
    """A field value as the decoder holds it: a float's IEEE bits (integral ones sent in 13 bits), else an int."""
    if width == 0:
        if draw(st.booleans()):
            return _INTEGRAL_FLOAT_BITS[draw(st.integers(0, (1 << 13) - 1))]
        number = draw(st.floats(width=32, allow_nan=False, allow_infinity=False)) or 0.0  # -0.0 is sent as 0
        return int(struct.unpack("<i", struct.pack("<f", number))[0])
    n = abs(width)
    if width < 0:
        return draw(st.integers(-(1 << (n - 1)), (1 << (n - 1)) - 1))
    value = draw(st.integers(0, (1 << n) - 1))
    return value - (1 << 32) if n == 32 and value >= 1 << 31 else value


@st.composite
def _deltas(draw: st.DrawFn) -> tuple[FieldTable, bool, list[int], bytes]:
    """(table, entity?, state written, message bytes: the delta, then cut or with bytes changed)."""
    tables = PROTOCOLS[draw(st.sampled_from(sorted(PROTOCOLS)))]
    entity = draw(st.booleans())
    table = tables.entity if entity else tables.player
    width = len(table.bits) + (0 if entity else len(PLAYER_ARRAYS) * MAX_PS_ARRAY)
    state = [0] * width
    for i in draw(st.lists(st.integers(0, len(table.bits) - 1), max_size=len(table.bits))):
        state[i] = _value(draw, table.bits[i])
    if not entity:
        for a, (_, element_bits) in enumerate(PLAYER_ARRAYS):
            for k in draw(st.lists(st.integers(0, MAX_PS_ARRAY - 1), max_size=3)):
                state[len(table.bits) + a * MAX_PS_ARRAY + k] = _value(draw, element_bits)
    w = BitWriter()
    if entity:
        write_delta_entity(w, 7, state, null_state(width), table.bits)
    else:
        write_delta_player(w, state, null_player(table), table.bits)
    data = bytearray(w.data())
    for _ in range(draw(st.integers(0, 3))):
        data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
    cut = draw(st.integers(1, len(data)) | st.integers(max(1, len(data) - 4), len(data)))  # often in the last field
    return table, entity, state, bytes(data[:cut])


def _reference(r: BitReader, table: FieldTable, entity: bool) -> list[int] | None:
    """``MSG_ReadDeltaEntity`` (after the entity number) or ``MSG_ReadDeltaPlayerstate``, one ``read_bits`` a
    field."""
    base = [0] * (len(table.bits) + (0 if entity else len(PLAYER_ARRAYS) * MAX_PS_ARRAY))
    if entity:
        if r.read_bits(1):
            return None
        if not r.read_bits(1):
            return base
    count = r.read_bits(8)
    if count > len(table.bits):
        raise r.error("a field count in range")
    state = base.copy()
    for i in range(count):
        if not r.read_bits(1):
            continue
        if entity and not r.read_bits(1):
            state[i] = 0
        elif table.bits[i]:
            state[i] = r.read_bits(table.bits[i])
        elif r.read_bits(1):
            state[i] = r.read_bits(32)
        else:
            state[i] = _INTEGRAL_FLOAT_BITS[r.read_bits(13)]
    if not entity and r.read_bits(1):
        start = len(table.bits)
        for _, element_bits in PLAYER_ARRAYS:
            if r.read_bits(1):
                mask = r.read_bits(MAX_PS_ARRAY)
                for k in range(MAX_PS_ARRAY):
                    if mask >> k & 1:
                        state[start + k] = r.read_bits(element_bits)
            start += MAX_PS_ARRAY
    return state


def _decode(data: bytes, table: FieldTable, entity: bool, reference: bool) -> tuple[list[int] | None, int] | str:
    """(state, bit position after it) or "error" when the read runs past the message."""
    r = BitReader(data)

    def read(r: BitReader) -> list[int] | None:
        if entity:
            r.read_bits(10)  # the entity number
        if reference:
            return _reference(r, table, entity)
        width = len(table.bits) + (0 if entity else len(PLAYER_ARRAYS) * MAX_PS_ARRAY)
        base = null_state(width)
        state = read_delta_entity(r, base, table) if entity else read_delta_player(r, base, table)
        return None if state is None else list(state)

    try:
        return r.run(read), r.pos
    except MessageFormatError:
        return "error"


@settings(max_examples=400, deadline=None)
@given(_deltas())
def test_inlined_reads_match_read_bits(delta: tuple[FieldTable, bool, list[int], bytes]) -> None:
    table, entity, state, data = delta
    got = _decode(data, table, entity, reference=False)
    assert got == _decode(data, table, entity, reference=True)


@settings(max_examples=100, deadline=None)
@given(_deltas())
def test_a_whole_delta_decodes_to_the_state_written(delta: tuple[FieldTable, bool, list[int], bytes]) -> None:
    table, entity, state, _ = delta
    w = BitWriter()
    width = len(state)
    if entity:
        write_delta_entity(w, 7, state, null_state(width), table.bits)
    else:
        write_delta_player(w, state, null_player(table), table.bits)
    got = _decode(w.data(), table, entity, reference=False)
    assert got != "error" and got[0] == state
