"""Ranges into a shared list (leafs' marksurfaces, leaf faces, leaf surfaces, surfaces' indices and vertices).

A hostile map can give thousands of leafs the same long range; gathering every range's entries would cost their
total length (gigabytes), while what they cover is never more than the list itself. :func:`listed_union` marks
the covered positions with a difference array instead, in time and memory of the list plus the ranges.
:func:`range_positions` lists every range's positions, for ranges that do not overlap (a surface's own indices).
"""

from __future__ import annotations

import numpy as np


def listed_union(firsts: np.ndarray, counts: np.ndarray, listed: np.ndarray) -> np.ndarray:
    """Sorted unique values of ``listed[first:first + count]`` over every range (ranges checked to lie inside);
    ``listed`` holds indices the loader checked (below a count the file paid for), so they are marked in a mask
    of ``max + 1`` flags rather than sorted (10× faster than ``np.unique`` on Quake II maps' leaf faces)."""
    first = np.asarray(firsts, np.int64)
    count = np.asarray(counts, np.int64)
    keep = count > 0
    n = len(listed)
    starts = np.bincount(first[keep], minlength=n + 1)
    ends = np.bincount(first[keep] + count[keep], minlength=n + 1)
    covered = np.cumsum(starts[:n] - ends[:n]) > 0
    seen = np.zeros(int(listed.max()) + 1 if n else 0, bool)
    seen[listed[covered]] = True
    return np.flatnonzero(seen).astype(listed.dtype)


def range_positions(firsts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``i8 [sum(counts)]``: the positions ``first … first + count - 1`` of each range, one range after the other
    (to gather their entries at once)."""
    first = np.asarray(firsts, np.int64)
    count = np.asarray(counts, np.int64)
    return np.repeat(first - np.cumsum(count) + count, count) + np.arange(int(count.sum()))
