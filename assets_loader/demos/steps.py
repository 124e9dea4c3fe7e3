"""Compact storage of timeline columns: per-frame values kept where they change, and the narrowest exact dtype.

Most per-frame values of a demo hold still for many frames (stats, the view entity, a spectator's eye); a
:class:`Steps` column stores a row only at the frames where the value changes, so a frame's value is the row of the
last change at or before it (one ``searchsorted``).  :func:`narrowest` picks the smallest dtype that holds a
column's values exactly (``int8``/``int16`` for integers in range, ``float32`` for doubles that round-trip), so
reading back and widening gives the decoded values bit for bit.

References: docs/DESIGN.md ("The one idea": a timeline is columns sampled by time); QuakeSpasm ``client.h``
(``cl.stats`` are ints the server sends as bytes, shorts or longs: most fit 16 bits).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Steps", "compact_column", "is_broadcast", "narrowest"]

_INT_CANDIDATES = (np.int8, np.int16, np.int32)
#: Up to this many changes, a column also keeps its change frames as a tuple: a ``bisect`` costs a fraction of a
#: ``searchsorted`` call, and the tuple stays small.
_BISECT_MAX = 4096


def narrowest(a: np.ndarray) -> np.ndarray:
    """``a`` in the smallest dtype that holds every value exactly (integers: int8/int16/int32 by range; floats:
    float32 when ``a.astype(float32)`` widens back to the same values); ``a`` itself when nothing smaller fits."""
    a = np.asarray(a)
    if a.dtype.kind in "iu" and a.dtype.itemsize > 1:
        lo, hi = (int(a.min()), int(a.max())) if a.size else (0, 0)
        for dtype in _INT_CANDIDATES:
            info = np.iinfo(dtype)
            if dtype().itemsize >= a.dtype.itemsize:
                break
            if info.min <= lo and hi <= info.max:
                return a.astype(dtype)
        return a
    if a.dtype == np.float64:
        small = a.astype(np.float32)
        if np.array_equal(small.astype(np.float64), a, equal_nan=True):
            return small
    return a


def is_broadcast(column: np.ndarray) -> bool:
    """Whether ``column`` is one row repeated without storage (see :func:`compact_column`)."""
    return column.ndim > 0 and len(column) > 1 and column.strides[0] == 0


def compact_column(column: np.ndarray) -> np.ndarray:
    """A column of rows kept small: one row broadcast (read-only, no storage per row) when every row is the same,
    else :func:`narrowest`.  Compacting a compact column returns it as it is."""
    if is_broadcast(column):
        return column
    if len(column) > 1 and (column == column[:1]).all():
        return np.broadcast_to(column[:1].copy(), column.shape)
    return narrowest(column)


@dataclass(frozen=True, slots=True)
class Steps:
    """A per-frame column of ``num_frames`` rows stored at its changes.

    ``frames`` i4 [K] are the frames where a new value starts (increasing; frames before ``frames[0]`` hold the
    first value), ``values`` [K, ...] the rows from there on, in the narrowest exact dtype; ``dtype`` is the dtype
    the column is read back in.  A column that changes so often that the frame numbers would cost more than a row
    per frame is kept with a row per frame instead (``every_frame``: ``values`` [F, ...], ``frames`` empty), and
    read without a search.
    """

    num_frames: int
    frames: np.ndarray
    values: np.ndarray
    dtype: np.dtype
    every_frame: bool = False
    _keys: tuple[int, ...] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        keys = tuple(self.frames.tolist()) if len(self.frames) <= _BISECT_MAX else None
        object.__setattr__(self, "_keys", keys)

    @staticmethod
    def _stored(num_frames: int, frames: np.ndarray, values: np.ndarray, dtype: np.dtype) -> Steps:
        """Steps of the changes ``frames`` / ``values``, or a row per frame when that is no bigger."""
        values = narrowest(values.astype(dtype, copy=False))
        row = values[:1].nbytes
        if len(frames) * (4 + row) < num_frames * row:
            return Steps(num_frames, frames.astype(np.int32), values, dtype)
        rows = np.maximum(np.searchsorted(frames, np.arange(num_frames), side="right") - 1, 0)
        return Steps(num_frames, np.zeros(0, np.int32), values[rows], dtype, every_frame=True)

    @staticmethod
    def of(dense: np.ndarray, dtype: type | np.dtype | None = None) -> Steps:
        """The steps of a dense column (rows [F, ...]), read back as ``dtype`` (default: the column's)."""
        dense = np.asarray(dense)
        out = np.dtype(dtype or dense.dtype)
        n = len(dense)
        if n == 0:
            return Steps(0, np.zeros(0, np.int32), dense.astype(out), out)
        flat = dense.reshape(n, -1)
        changed = np.ones(n, bool)
        changed[1:] = (flat[1:] != flat[:-1]).any(axis=1)
        if changed.all():
            return Steps(n, np.zeros(0, np.int32), narrowest(dense.astype(out, copy=False)), out, every_frame=True)
        frames = np.flatnonzero(changed)
        return Steps._stored(n, frames, dense[frames], out)

    @staticmethod
    def at_frames(num_frames: int, frames: np.ndarray, values: np.ndarray,
                  dtype: type | np.dtype | None = None) -> Steps:
        """The column holding ``values[k]`` from frame ``frames[k]`` on (``frames`` non-decreasing; before the
        first, the first value), with repeated rows dropped."""
        out = np.dtype(dtype or values.dtype)
        if num_frames == 0 or len(frames) == 0:
            return Steps(num_frames, np.zeros(0, np.int32), values[:0].astype(out), out)
        frames = np.asarray(frames)
        if not (frames[1:] != frames[:-1]).all():
            last_of_frame = np.ones(len(frames), bool)      # of several rows at one frame, the last counts
            last_of_frame[:-1] = frames[:-1] != frames[1:]
            frames, values = frames[last_of_frame], values[last_of_frame]
        flat = values.reshape(len(values), -1)
        changed = np.ones(len(frames), bool)
        changed[1:] = (flat[1:] != flat[:-1]).any(axis=1)
        return Steps._stored(num_frames, frames[changed], values[changed], out)

    def __len__(self) -> int:
        return self.num_frames

    @property
    def nbytes(self) -> int:
        return self.frames.nbytes + self.values.nbytes

    def index(self, frame: int) -> int:
        """The row of ``values`` frame ``frame`` holds."""
        if self.every_frame:
            return frame
        if self._keys is not None:
            return max(bisect_right(self._keys, frame) - 1, 0)
        return max(int(self.frames.searchsorted(frame, side="right")) - 1, 0)

    def at(self, frame: int) -> np.ndarray:
        """Frame ``frame``'s value, as ``dtype`` (a fresh array)."""
        return self.values[self.index(frame)].astype(self.dtype)

    def dense(self) -> np.ndarray:
        """Every frame's value, as ``dtype`` [F, ...] (built on each call)."""
        return self.window(0, self.num_frames)

    def window(self, first: int, last: int) -> np.ndarray:
        """The values of frames ``first`` … ``last - 1`` (clipped to the column), as ``dtype`` [N, ...]: only those
        rows are built."""
        first, last = max(first, 0), min(last, self.num_frames)
        if last <= first or (not self.every_frame and not len(self.frames)):
            return np.zeros((max(last - first, 0),) + self.values.shape[1:], self.dtype)
        if self.every_frame:
            return self.values[first:last].astype(self.dtype)
        rows = np.searchsorted(self.frames, np.arange(first, last), side="right") - 1
        return self.values[np.maximum(rows, 0)].astype(self.dtype)
