"""NetQuake entity updates as records, decoded column-wise: the states a demo's ~100,000 updates give, in one pass.

Reading an update field by field in Python for each of the ~100,000 updates of a dense demo costs more than the
rest of the decode together.  So the message loop only walks the updates (:mod:`.update_walk`), and each update
becomes one :data:`UPDATE_DTYPE` record — where it is, its bits, which field table (:class:`UpdateTable`) and which
baseline it applies to.  :func:`decode_updates` reads all records at once with numpy and combines them with the
baselines exactly as the per-update readers of :mod:`..kit.deltas` do (the same float64 operations in the same
order), so the rows are the ones those readers would pack:

* records sharing a bit mask (nearly all of a real demo: ~20 masks) are read as one packed structured array per
  mask;
* the rest (rare masks, or a crafted file with a new mask in every update) are read field by field across all of
  them, so the cost stays a fixed number of numpy calls per field, whatever the number of masks.

References: QuakeSpasm ``cl_parse.c`` ``CL_ParseUpdate`` (field order, baseline fallback); Uwe Girlich, "The
unofficial DEM format description" v1.0.9, section 7 (``svc_updateentity``).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy as np

from ..kit.deltas import Field, Op

__all__ = ["UPDATE_DTYPE", "NO_BASELINE", "NO_ALPHA", "MIN_GROUP", "UpdateTable",
           "decode_updates"]

#: One update: entity number, update bits, offset of the entity number in the file, index of the baseline it starts
#: from (``NO_BASELINE``: the table's default state), the Nehahra alpha that replaces the decoded one (``NO_ALPHA``:
#: none), and which field table reads it.
UPDATE_DTYPE = np.dtype([("number", "<i4"), ("bits", "<u4"), ("pos", "<u8"), ("base", "<i4"), ("alpha", "<i2"),
                         ("table", "<u2")])
NO_BASELINE = -1
NO_ALPHA = -1
#: Masks with fewer records than this are read with the rare ones, field by field.
MIN_GROUP = 32


class UpdateTable(dict):
    """One update field table (wire order), the entity number's struct code (``wide_number`` when ``wide_bit`` is
    set), the default state and whether the bits run to 4 bytes (``extended``: FitzQuake, RMQ); ``table[bits]`` is
    the size of an update with ``bits`` after its bits bytes (number and fields), worked out on first use."""

    def __init__(self, fields: Sequence[Field], number: str, wide_number: str, wide_bit: int,
                 default: Sequence[float], extended: bool = False) -> None:
        super().__init__()
        self.extended = extended
        self.lengths: bytes | None = None     # the message loop's length table (:mod:`.update_walk`), made once
        self.fields = tuple(f for f in fields if f.op != Op.COPY)   # NetQuake copies no column
        self.number = number
        self.wide_number = wide_number
        self.wide_bit = wide_bit
        self.default = tuple(default)

    def number_size(self, bits: int) -> int:
        return struct.calcsize("<" + (self.wide_number if bits & self.wide_bit else self.number))

    def sent(self, bits: int) -> list[Field]:
        """The fields an update with ``bits`` carries, in wire order."""
        return [f for f in self.fields if bits & f.when == f.when and not bits & f.unless]

    def __missing__(self, bits: int) -> int:
        size = self.number_size(bits) + struct.calcsize("<" + "".join(f.code for f in self.sent(bits)))
        self[bits] = size
        return size


def _apply(f: Field, v: np.ndarray, state: np.ndarray, rows: np.ndarray) -> None:
    """One field's values ``v`` into its column of ``state`` at ``rows`` (the arithmetic of :mod:`..kit.deltas`:
    the unpacked number, as float64, times the scale, plus the offset)."""
    if f.op == Op.SKIP:
        return
    if f.op == Op.HIGH_BYTE:
        low = state[rows, f.column].astype(np.int64) & 255
        state[rows, f.column] = low | (v.astype(np.int64) << 8)
        return
    x = v.astype(np.float64)
    if f.scale != 1:
        x = x * f.scale
    if f.offset:
        x = x + f.offset
    if f.op == Op.ADD:
        x = state[rows, f.column] + x
    elif f.op == Op.INTERVAL:
        x = np.maximum(x, 0.001)
    state[rows, f.column] = x


def _read_mask(buf: np.ndarray, start: np.ndarray, fields: Sequence[Field], state: np.ndarray,
               rows: np.ndarray) -> None:
    """Rows ``rows`` of ``state``, all updates with the same ``fields``, whose fields start at ``start``."""
    if not fields:
        return
    dtype = np.dtype([(f"v{i}", "<" + f.code) for i, f in enumerate(fields)])   # packed: the wire layout
    values = buf[start[:, None] + np.arange(dtype.itemsize)].view(dtype)[:, 0]
    for i, f in enumerate(fields):
        _apply(f, values[f"v{i}"], state, rows)


def _read_fieldwise(buf: np.ndarray, table: UpdateTable, records: np.ndarray, state: np.ndarray,
                    rows: np.ndarray) -> None:
    """Rows ``rows`` of ``state`` from ``records`` (any masks of ``table``): one pass per field in wire order,
    each update's read position moving past the fields it carries."""
    bits = records["bits"].astype(np.int64)
    wide = (bits & table.wide_bit) != 0
    offset = records["pos"].astype(np.int64) + np.where(wide, table.number_size(table.wide_bit),
                                                         table.number_size(0))
    for f in table.fields:
        present = ((bits & f.when) == f.when) & ((bits & f.unless) == 0)
        size = struct.calcsize("<" + f.code)
        sel = np.flatnonzero(present)
        if len(sel):
            values = buf[offset[sel, None] + np.arange(size)].view("<" + f.code)[:, 0]
            _apply(f, values, state, rows[sel])
        offset += present * size


def decode_updates(data: bytes, records: np.ndarray, tables: Sequence[UpdateTable],
                   baselines: Sequence[Sequence[float]], *, number_column: int, alpha_column: int) -> np.ndarray:
    """The state rows [N, ncol] float64 of ``records`` (:data:`UPDATE_DTYPE`): ``tables[record.table]`` reads an
    update, ``baselines[record.base]`` (or the table's default state) gives the fields it does not send.  Every
    record must lie inside ``data`` (the message loop checked it)."""
    ncol = len(tables[0].default)
    starts = np.array([list(b) for b in baselines] + [list(t.default) for t in tables], np.float64).reshape(-1, ncol)
    base = records["base"].astype(np.int64)
    base = np.where(base == NO_BASELINE, len(baselines) + records["table"], base)   # the table's default
    state = np.take(starts, base, axis=0)
    state[:, number_column] = records["number"]
    if not len(records):
        return state
    buf = np.frombuffer(data, np.uint8)
    key = records["table"].astype(np.int64) << 32 | records["bits"].astype(np.int64)
    order = np.argsort(key, kind="stable")          # records grouped by (table, bits)
    grouped = key[order]
    bounds = np.flatnonzero(grouped[1:] != grouped[:-1]) + 1
    rare: list[np.ndarray] = []
    with np.errstate(all="ignore"):     # NaN / inf floats of a crafted file: as Python's float arithmetic, silent
        for lo, hi in zip([0] + bounds.tolist(), bounds.tolist() + [len(order)]):
            rows = order[lo:hi]
            if hi - lo < MIN_GROUP:
                rare.append(rows)
                continue
            k = int(grouped[lo])
            table, bits = tables[k >> 32], k & 0xFFFFFFFF
            _read_mask(buf, records["pos"][rows].astype(np.int64) + table.number_size(bits), table.sent(bits),
                       state, rows)
        if rare:
            rows = np.concatenate(rare)
            which = records["table"][rows]
            for t in np.unique(which).tolist():
                mine = rows[which == t]
                _read_fieldwise(buf, tables[t], records[mine], state, mine)
    alpha = records["alpha"]
    replaced = alpha != NO_ALPHA
    state[replaced, alpha_column] = alpha[replaced]
    return state
