"""Bezier patch tessellation: a ``width × height`` grid of control points → a grid of vertices and triangles.

A patch is ``(width-1)/2 × (height-1)/2`` biquadratic Bezier pieces sharing their border rows and columns.
Each piece is cut into ``level × level`` quads (a fixed level, where the engine's ``R_SubdividePatchToGrid``
adapts to ``r_subdivisions``; 8 gives about what ioquake3 draws at its default setting on this data).

No cracks: the weights of sample ``i`` are computed from integers (``(L-i)², 2i(L-i), i²`` over ``L²``), so a
curve walked backwards uses exactly the mirrored weights, and the sum ``(w0·P0 + w2·P2) + w1·P1`` is symmetric
in its end points. An edge shared by two patches therefore gets bit-identical vertices whichever way either
patch runs along it, and along an edge the weights across it are exactly 1 and 0.

References: ioquake3 ``renderergl1/tr_curve.c`` (``R_SubdividePatchToGrid``, ``LerpDrawVert``); ``tr_bsp.c``
(``ParseMesh``).
"""

from __future__ import annotations

import numpy as np

PATCH_LEVEL = 8


def _weights(level: int, pieces: int) -> tuple[np.ndarray, np.ndarray]:
    """For each output sample along one direction: control indices ``[n, 3]`` and weights ``[n, 3]``."""
    n = level * pieces + 1
    sample = np.arange(n)
    piece = np.minimum(sample // level, pieces - 1)
    i = (sample - piece * level).astype(np.float64)
    d = float(level * level)
    w = np.stack([(level - i) ** 2 / d, 2 * i * (level - i) / d, i * i / d], axis=1)
    ctrl = np.stack([2 * piece, 2 * piece + 1, 2 * piece + 2], axis=1)
    return ctrl, w


def _curve(points: np.ndarray, ctrl: np.ndarray, w: np.ndarray, axis: int) -> np.ndarray:
    """Evaluate quadratic Bezier curves along ``axis`` of ``points`` (float64) at the given samples."""
    p0 = np.take(points, ctrl[:, 0], axis=axis)
    p1 = np.take(points, ctrl[:, 1], axis=axis)
    p2 = np.take(points, ctrl[:, 2], axis=axis)
    shape = [1] * points.ndim
    shape[axis] = len(w)
    w0, w1, w2 = (w[:, k].reshape(shape) for k in range(3))
    return (w0 * p0 + w2 * p2) + w1 * p1


def tessellate(control: np.ndarray, width: int, height: int, level: int = PATCH_LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Tessellate one patch of control values ``control[height * width, C]`` (float64, any attributes).

    Returns ``(values[rows * cols, C], triangles[(rows-1) * (cols-1) * 2, 3])`` with grid indices local to the
    patch; the triangle of each quad corner order is ``(a, c, b), (b, c, d)`` for ``a b / c d`` in the grid.
    """
    grid = control.reshape(height, width, -1)
    cu, wu = _weights(level, (width - 1) // 2)
    cv, wv = _weights(level, (height - 1) // 2)
    rows_done = _curve(grid, cv, wv, axis=0)
    out = _curve(rows_done, cu, wu, axis=1)
    rows, cols = out.shape[:2]
    r, c = np.meshgrid(np.arange(rows - 1), np.arange(cols - 1), indexing="ij")
    a = (r * cols + c).ravel()
    b, cc, d = a + 1, a + cols, a + cols + 1
    tris = np.stack([np.stack([a, cc, b], 1), np.stack([b, cc, d], 1)], 1).reshape(-1, 3)
    return out.reshape(rows * cols, -1), tris
