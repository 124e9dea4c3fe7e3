"""Delta-decoding of ``entityState_t`` and ``playerState_t`` over their field tables.

States are flat arrays of 32-bit values in field-table order (:mod:`.protocol`), held as 64-bit
``array('q')`` (a corrupt stream can shift the NYT symbol past bit 31): unlike lists they are not tracked by the
cyclic garbage collector, copy as one block, and a demo's states join into one numpy array as bytes
(:func:`state_rows`).  A decoded delta returns a new array and never changes its base, so unchanged entities can
share one array between snapshots.

Entity delta (``MSG_ReadDeltaEntity``): a "removed" bit; a "changed" bit (0 = the base as it is); the count of
leading table fields that may have changed (a byte); then per field a "changed" bit, a "non-zero" bit and the
value: ``bits`` bits for an integer, or for a float a bit choosing a 13-bit integer biased by 4096 or 32 raw
bits.  Player delta (``MSG_ReadDeltaPlayerstate``): the field count, then per field a "changed" bit and the
value (no "non-zero" bit); then a bit for "arrays changed" and per array (stats, persistant, ammo, powerups) a
bit, a 16-bit mask and one signed short (a long for powerups) per set mask bit.

References: ioquake3 ``code/qcommon/msg.c`` (``MSG_ReadDeltaEntity``, ``MSG_ReadDeltaPlayerstate``,
``FLOAT_INT_BITS``, ``FLOAT_INT_BIAS``); spec 004 section 6.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Iterable
from typing import TypeAlias

import numpy as np

from .bitstream import BitReader
from .huffman import prefixed_table
from .protocol import GENTITYNUM_BITS, MAX_PS_ARRAY, PLAYER_ARRAYS, FieldTable

__all__ = ["FLOAT_INT_BITS", "State", "null_player", "null_state", "read_delta_entity", "read_delta_player",
           "state_rows"]

#: One entity or player state while decoding (see the module docstring).
State: TypeAlias = "array[int]"

FLOAT_INT_BITS = 13
FLOAT_INT_BIAS = 1 << (FLOAT_INT_BITS - 1)

#: IEEE bit pattern (as a signed int32) of the float each 13-bit integral value stands for.  The table is twice
#: as long as 13 bits need because a corrupt stream can decode the Huffman "not yet transmitted" leaf as 256,
#: which ``MSG_ReadBits`` shifts into bit 13 like any byte.
_INTEGRAL_FLOAT_BITS: tuple[int, ...] = struct.unpack(
    f"<{2 << FLOAT_INT_BITS}i",
    struct.pack(f"<{2 << FLOAT_INT_BITS}f", *range(-FLOAT_INT_BIAS, (2 << FLOAT_INT_BITS) - FLOAT_INT_BIAS)))


#: :func:`.huffman.prefixed_table` of a 10-bit read (2 raw bits, one Huffman byte).
_TEN_BIT_TABLE = prefixed_table(GENTITYNUM_BITS - 8)


def null_state(width: int) -> State:
    """The all-zero state of ``width`` values (an entity's base without a baseline)."""
    return array("q", bytes(8 * width))


def null_player(table: FieldTable) -> State:
    """The all-zero player state (the base of a non-delta snapshot)."""
    return null_state(len(table.bits) + len(PLAYER_ARRAYS) * MAX_PS_ARRAY)


def state_rows(states: Iterable[State], count: int, width: int) -> np.ndarray:
    """``i4 [count, width]`` of ``count`` states of ``width`` values each (wrapped to 32 bits like the engine's
    ``int``)."""
    return np.frombuffer(b"".join(states), np.int64, count * width).reshape(count, width).astype(np.int32)


def read_delta_entity(r: BitReader, base: State, table: FieldTable) -> State | None:
    """One ``MSG_ReadDeltaEntity`` after the entity number: the new state, ``base`` itself if unchanged, or
    ``None`` if the entity is removed."""
    bits = r.bits
    p = r.pos
    if bits[p]:
        r.pos = p + 1
        return None
    if not bits[p + 1]:
        r.pos = p + 2
        return base
    r.pos = p + 2
    return _read_fields(r, base, table.bits, True)


def read_delta_player(r: BitReader, base: State, table: FieldTable) -> State:
    """One ``MSG_ReadDeltaPlayerstate``: the new player state (field values, then the four arrays)."""
    state = _read_fields(r, base, table.bits, False)
    widths = table.bits
    bits = r.bits
    read = r.read_bits
    p = r.pos
    r.pos = p + 1
    if not bits[p]:
        return state
    start = len(widths)
    for element_bits in (width for _, width in PLAYER_ARRAYS):
        if r.read_bit():
            mask = r.read_bits(MAX_PS_ARRAY)
            for k in range(MAX_PS_ARRAY):
                if mask >> k & 1:
                    state[start + k] = read(element_bits)
        start += MAX_PS_ARRAY
    return state


def _read_fields(r: BitReader, base: State, widths: tuple[int, ...], entity: bool) -> State:
    """The fields of a delta from ``base`` (``MSG_ReadDeltaEntity`` / ``MSG_ReadDeltaPlayerstate``,
    ``MSG_ReadDeltaField``): how many leading fields are sent (a byte), then per field a "changed" bit, for an
    entity a "non-zero" bit, then the value.  Returns the new state.

    The hot loop of the decoder, so the common values are inlined table look-ups in the 30-bit ``windows``
    (:class:`.bitstream.FileBits`): 13-bit integral floats (5 raw bits and a Huffman byte from one window),
    8-bit fields (one Huffman byte), 10-bit ones (:func:`.huffman.prefixed_table`) and 32-bit ones (two Huffman
    bytes a window).  Windows read as zeros past the message, where :meth:`BitReader.read_bits` would raise; so a
    delta that ends past the message, or reads past ``bits`` or the windows, is read again by
    :func:`_read_fields_exactly`, which raises where the engine's reader overflows.  A delta that ends inside
    the message read nothing past it, so its values are those :meth:`BitReader.read_bits` gives.
    """
    bits = r.bits
    windows = r.windows
    code = r.table
    p = r.pos
    e = code[(windows[p >> 3] >> (p & 7)) & 0x7FF]  # r.read_bits(8), inlined: it raises where that would
    count = e >> 4
    start = p = p + (e & 15)
    if count > len(widths):
        r.pos = p
        raise r.error(f"{'an entity' if entity else 'a player'} field count ≤ {len(widths)}", str(count))
    state = base[:]
    ten = _TEN_BIT_TABLE
    try:
        for i in range(count):
            if not bits[p]:
                p += 1
                continue
            if entity:
                if not bits[p + 1]:
                    p += 2
                    state[i] = 0
                    continue
                p += 2
            else:
                p += 1
            width = widths[i]
            if not width:
                p += 1
                if not bits[p - 1]:
                    w = windows[p >> 3] >> (p & 7)
                    e = code[(w >> 5) & 0x7FF]
                    state[i] = _INTEGRAL_FLOAT_BITS[(w & 31) | (e >> 4) << 5]
                    p += 5 + (e & 15)
                    continue
                width = 32
            if width == 32:
                w = windows[p >> 3] >> (p & 7)
                e = code[w & 0x7FF]
                n = e & 15
                f = code[(w >> n) & 0x7FF]
                value = e >> 4 | (f >> 4) << 8
                p += n + (f & 15)
                w = windows[p >> 3] >> (p & 7)
                e = code[w & 0x7FF]
                n = e & 15
                f = code[(w >> n) & 0x7FF]
                value = (value | (e >> 4) << 16 | (f >> 4) << 24) & 0xFFFFFFFF
                p += n + (f & 15)
                state[i] = value - (1 << 32) if value & 0x80000000 else value
            elif width == 8:
                e = code[(windows[p >> 3] >> (p & 7)) & 0x7FF]
                state[i] = e >> 4
                p += e & 15
            elif width == 10:
                e = ten[(windows[p >> 3] >> (p & 7)) & 0x1FFF]
                state[i] = e >> 5
                p += e & 31
            else:
                r.pos = p
                state[i] = r.read_bits(width)
                p = r.pos
    except IndexError:
        pass
    else:
        if p <= r.size << 3:
            r.pos = p
            return state
    r.pos = start
    _read_fields_exactly(r, state, widths, count, entity)
    return state


def _read_fields_exactly(r: BitReader, state: State, widths: tuple[int, ...], count: int, entity: bool) -> None:
    """:func:`_read_fields` through ``bits`` and :meth:`BitReader.read_bits` only: a read past the message raises
    ``IndexError`` with ``r.pos`` after the last value read, or at the field whose value runs past it."""
    bits = r.bits
    read = r.read_bits
    p = r.pos
    for i in range(count):
        if not bits[p]:
            p += 1
            continue
        if entity:
            if not bits[p + 1]:
                p += 2
                state[i] = 0
                continue
            p += 2
        else:
            p += 1
        width = widths[i]
        if width:
            r.pos = p
            state[i] = read(width)
        elif bits[p]:
            r.pos = p + 1
            state[i] = read(32)
        else:
            r.pos = p + 1
            state[i] = _INTEGRAL_FLOAT_BITS[read(FLOAT_INT_BITS)]
        p = r.pos
    r.pos = p
