"""Delta-decoding of ``entityState_t`` and ``playerState_t`` over their field tables.

States are flat lists of 32-bit values in field-table order (:mod:`.protocol`); a decoded delta returns a new
list and never changes its base, so unchanged entities can share one list between snapshots.

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

from .bitstream import BitReader
from .protocol import MAX_PS_ARRAY, PLAYER_ARRAYS, FieldTable

__all__ = ["FLOAT_INT_BITS", "null_player", "read_delta_entity", "read_delta_player"]

FLOAT_INT_BITS = 13
FLOAT_INT_BIAS = 1 << (FLOAT_INT_BITS - 1)

#: IEEE bit pattern (as a signed int32) of the float each 13-bit integral value stands for.  The table is twice
#: as long as 13 bits need because a corrupt stream can decode the Huffman "not yet transmitted" leaf as 256,
#: which ``MSG_ReadBits`` shifts into bit 13 like any byte.
_INTEGRAL_FLOAT_BITS: tuple[int, ...] = struct.unpack(
    f"<{2 << FLOAT_INT_BITS}i",
    struct.pack(f"<{2 << FLOAT_INT_BITS}f", *range(-FLOAT_INT_BIAS, (2 << FLOAT_INT_BITS) - FLOAT_INT_BIAS)))


def null_player(table: FieldTable) -> list[int]:
    """The all-zero player state (the base of a non-delta snapshot)."""
    return [0] * (len(table.bits) + len(PLAYER_ARRAYS) * MAX_PS_ARRAY)


def read_delta_entity(r: BitReader, base: list[int], table: FieldTable) -> list[int] | None:
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
    count = r.read_bits(8)
    widths = table.bits
    if count > len(widths):
        raise r.error(f"an entity field count ≤ {len(widths)}", str(count))
    state = base.copy()
    p = r.pos
    read = r.read_bits
    for i in range(count):
        if not bits[p]:
            p += 1
            continue
        if not bits[p + 1]:
            p += 2
            state[i] = 0
            continue
        p += 2
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
    return state


def read_delta_player(r: BitReader, base: list[int], table: FieldTable) -> list[int]:
    """One ``MSG_ReadDeltaPlayerstate``: the new player state (field values, then the four arrays)."""
    count = r.read_bits(8)
    widths = table.bits
    if count > len(widths):
        raise r.error(f"a player field count ≤ {len(widths)}", str(count))
    state = base.copy()
    bits = r.bits
    read = r.read_bits
    p = r.pos
    for i in range(count):
        if not bits[p]:
            p += 1
            continue
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
