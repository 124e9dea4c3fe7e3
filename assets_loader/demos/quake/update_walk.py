"""Walking NetQuake entity updates with a length table, and rebuilding their records from the positions walked.

An update's length follows from its first bytes alone (the bits say which fields follow, and each field has a fixed
size), so :func:`update_lengths` works out, with numpy and for every byte of the file at once, how long an update
starting there would be.  The message loop then crosses a run of updates by adding lengths — one table look-up per
update — and keeps only where each update starts.  Everything else about the updates (bits, entity number, which
field table and baseline apply, which of them the view entity sent) is read back from those positions with numpy
when the timeline is made (:func:`update_records`, then :func:`.updates.decode_updates`).

The lengths are exact for NetQuake's field tables, where each field is present by one bit of its own (so a length is
a sum over the bits bytes).  A Nehahra update (protocol 15 with ``U_TRANS``) carries floats whose count depends on
their value: its length is 0 in the table and the message loop reads it itself.

References: QuakeSpasm ``cl_parse.c`` ``CL_ParseUpdate`` (bits bytes: ``U_MOREBITS``, ``U_EXTEND1``,
``U_EXTEND2``); Uwe Girlich, "The unofficial DEM format description" v1.0.9, section 7 (``svc_updateentity``).
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence

import numpy as np

from . import protocol as P
from .updates import NO_ALPHA, NO_BASELINE, UPDATE_DTYPE, UpdateTable

__all__ = ["CHUNK", "RUN_FIELDS", "update_bits", "update_lengths", "update_records"]

#: Bytes of the file :func:`update_lengths` works on at once (its numpy temporaries are ~10 bytes per byte).
CHUNK = 1 << 20
#: Per run of updates, what the message loop records: first update's position, field table index, baselines
#: received so far, baselines received before the level started, view entity.
RUN_FIELDS = 5


def update_bits(buf: np.ndarray, at: np.ndarray, extended: bool) -> tuple[np.ndarray, np.ndarray]:
    """Bits of the updates whose message byte is at ``at`` and where their entity number starts (each update's
    bytes up to its entity number inside ``buf``)."""
    bits = buf[at].astype(np.int64) & 0x7F
    pos = at + 1
    more = (bits & P.U_MOREBITS) != 0
    bits |= np.where(more, buf[pos].astype(np.int64) << 8, 0)
    pos = pos + more
    if extended:
        ext1 = (bits & P.U_EXTEND1) != 0
        bits |= np.where(ext1, buf[pos].astype(np.int64) << 16, 0)
        pos = pos + ext1
        ext2 = (bits & P.U_EXTEND2) != 0
        bits |= np.where(ext2, buf[pos].astype(np.int64) << 24, 0)
        pos = pos + ext2
    return bits, pos


def _size_by_byte(table: UpdateTable) -> np.ndarray:
    """[4, 256]: the bytes of entity number and fields each bits byte value adds (fields present by one bit each;
    the number is one byte, two with the wide bit)."""
    out = np.zeros((4, 256), np.int64)
    values = np.arange(256)
    present = [(f.when, struct.calcsize("<" + f.code)) for f in table.fields]
    present.append((table.wide_bit, table.number_size(table.wide_bit) - table.number_size(0)))
    for when, size in present:
        bit = (when & -when).bit_length() - 1
        if when != 1 << bit:
            raise ValueError(f"update bits {when:#x} are not one bit")
        out[bit // 8] += np.where(values & (1 << bit % 8), size, 0)
    out[0] += table.number_size(0)
    return out


def update_lengths(data: bytes, table: UpdateTable, extended: bool) -> bytes:
    """For every position of ``data``: the length of an update whose message byte is there (message byte, bits
    bytes, entity number, fields), 0 where no update can start (a byte below 0x80) or the loop must read it itself
    (Nehahra).  Byte arithmetic over the file, :data:`CHUNK` bytes at a time (a bits byte counts only when the one
    before says it follows; past the end of the file reads zeros)."""
    if any(f.unless for f in table.fields):
        raise ValueError("update fields present unless a bit is set are not walked by length")
    by_byte = _size_by_byte(table).astype(np.uint16)
    first_two = _first_two_bytes(by_byte, extended)
    out = bytearray()
    for start in range(0, len(data), CHUNK):
        chunk = np.frombuffer(data[start:start + CHUNK + 3].ljust(min(CHUNK, len(data) - start) + 3, b"\0"), np.uint8)
        n = len(chunk) - 3
        size = first_two[chunk[:n].astype(np.uint16) << 8 | chunk[1:n + 1]]
        if extended:
            ext1 = (chunk[:n] & P.U_MOREBITS).astype(bool) & ((chunk[1:n + 1] & (P.U_EXTEND1 >> 8)) != 0)
            b2 = np.where(ext1, chunk[2:n + 2], 0)
            ext2 = (b2 & (P.U_EXTEND2 >> 16)) != 0
            b3 = np.where(ext2, chunk[3:n + 3], 0)
            size += by_byte[2][b2] + by_byte[3][b3] + ext1 + ext2
            size[(chunk[:n] < 0x80) | (size > 255)] = 0
        out += size.astype(np.uint8).tobytes()
    return bytes(out)


def _first_two_bytes(by_byte: np.ndarray, extended: bool) -> np.ndarray:
    """[65536] by ``message byte << 8 | next byte``: the update's length counting the bits those two bytes give
    (the next byte is a bits byte only with ``U_MOREBITS``); 0 when no update starts there, and for Nehahra."""
    b0, b1 = np.arange(65536) >> 8, np.arange(65536) & 0xFF
    more = b0 & P.U_MOREBITS
    b1 = np.where(more, b1, 0)
    size = by_byte[0][b0 & 0x7F] + by_byte[1][b1] + 1 + more
    size[b0 < 0x80] = 0
    if not extended:
        size[(b1 & (P.U_TRANS >> 8)) != 0] = 0
        size[size > 255] = 0
    return size.astype(np.uint16)


def update_records(data: bytes, at: np.ndarray, runs: np.ndarray, tables: Sequence[UpdateTable],
                   baseline_numbers: np.ndarray, alphas: Mapping[int, int]) -> np.ndarray:
    """The :data:`~.updates.UPDATE_DTYPE` records of the updates whose message bytes are at ``at`` (in file order
    within each frame): ``runs`` [R, :data:`RUN_FIELDS`] says which field table and baselines were current,
    ``baseline_numbers`` the entity of each baseline received, ``alphas`` the Nehahra alphas by position."""
    out = np.zeros(len(at), UPDATE_DTYPE)
    if not len(at):
        return out
    buf = np.frombuffer(data, np.uint8)
    run = runs[np.searchsorted(runs[:, 0], at, side="right") - 1]
    table_of = run[:, 1]
    bits = np.zeros(len(at), np.int64)
    pos = np.zeros(len(at), np.int64)
    for t, table in enumerate(tables):
        mine = table_of == t
        if mine.all():
            bits, pos = update_bits(buf, at, table.extended)
        elif mine.any():
            bits[mine], pos[mine] = update_bits(buf, at[mine], table.extended)
    wide = (bits & P.U_LONGENTITY) != 0
    high = buf[np.minimum(pos + 1, len(buf) - 1)].astype(np.int64)      # (read only where the number is wide)
    number = buf[pos].astype(np.int64) | np.where(wide, high << 8, 0)
    out["number"], out["bits"], out["pos"], out["table"] = number, bits, pos, table_of
    out["base"] = _baselines_of(number, run[:, 2], run[:, 3], baseline_numbers)
    out["alpha"] = NO_ALPHA
    if alphas:
        nehahra = np.fromiter(alphas.keys(), np.int64, len(alphas))
        where = np.searchsorted(nehahra, at)
        hit = (where < len(nehahra)) & (nehahra[np.minimum(where, len(nehahra) - 1)] == at)
        out["alpha"][hit] = np.fromiter(alphas.values(), np.int64, len(alphas))[where[hit]]
        out["bits"][hit] &= np.uint32(0xFFFFFFFF & ~P.U_TRANS)
    return out


def _baselines_of(number: np.ndarray, received: np.ndarray, level_start: np.ndarray,
                  baseline_numbers: np.ndarray) -> np.ndarray:
    """Per update: the index of the last baseline of its entity among the first ``received`` baselines, if it came
    after ``level_start`` (a new level clears the baselines), else ``NO_BASELINE``."""
    if not len(baseline_numbers):
        return np.full(len(number), NO_BASELINE, np.int64)
    count = len(baseline_numbers)
    order = np.argsort(baseline_numbers, kind="stable")            # by entity, then in the order received
    keys = baseline_numbers[order].astype(np.int64) * (count + 1) + order
    found = np.searchsorted(keys, number * (count + 1) + received) - 1
    safe = np.maximum(found, 0)
    index = order[safe]
    ok = (found >= 0) & (baseline_numbers[index] == number) & (index >= level_start)
    return np.where(ok, index, NO_BASELINE)
