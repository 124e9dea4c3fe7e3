"""``deformVertexes autosprite`` and ``autosprite2`` on the CPU: quads turned to face the viewer each frame.

Both work on quads of four consecutive vertices. ``autosprite`` rebuilds each quad as a square around its middle
facing the view plane (its texture corners reset to 0..1); ``autosprite2`` keeps each quad's long axis and turns
the quad around it to face the view (beams, flames).

References: ioquake3 ``renderergl1/tr_shade_calc.c`` (``AutospriteDeform``, ``Autosprite2Deform``),
``tr_surface.c`` (``RB_AddQuadStampExt``).
"""

from __future__ import annotations

import numpy as np

_EDGES = np.array([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])
#: Texture corners of a rebuilt sprite quad, in ``RB_AddQuadStampExt`` order.
_SPRITE_ST = np.array([(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)], np.float32)


def autosprite(positions: np.ndarray, left: np.ndarray, up: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Quads ``positions [4Q, 3]`` as squares facing the view plane spanned by the view's ``left`` and ``up``
    axes: ``(positions [4Q, 3], st [4Q, 2])``; the triangles of each quad stay (0, 1, 2, 3 wound like the
    original face)."""
    quads = positions.reshape(-1, 4, 3).astype(np.float64)
    mid = quads.mean(axis=1)
    radius = np.linalg.norm(quads[:, 0] - mid, axis=1, keepdims=True) * np.sqrt(0.5)
    lv, uv = np.asarray(left, np.float64) * radius, np.asarray(up, np.float64) * radius
    out = np.stack([mid + lv + uv, mid - lv + uv, mid - lv - uv, mid + lv - uv], axis=1)
    st = np.tile(_SPRITE_ST, (len(quads), 1))
    return out.reshape(-1, 3).astype(np.float32), st


def autosprite2(positions: np.ndarray, forward: np.ndarray) -> np.ndarray:
    """Quads ``positions [4Q, 3]`` turned about their long axis to face a view looking along ``forward``."""
    quads = positions.reshape(-1, 4, 3).astype(np.float64)
    out = quads.copy()
    fwd = np.asarray(forward, np.float64)
    for q, quad in enumerate(quads):
        lengths = np.sum((quad[_EDGES[:, 0]] - quad[_EDGES[:, 1]]) ** 2, axis=1)
        short = np.argsort(lengths, kind="stable")[:2]
        mids = [(quad[_EDGES[e, 0]] + quad[_EDGES[e, 1]]) / 2 for e in short]
        minor = np.cross(mids[1] - mids[0], fwd)
        norm = np.linalg.norm(minor)
        if norm == 0:
            continue
        minor /= norm
        # The two short edges run opposite ways round the quad's perimeter (0, 1, 2, 3): the vertex each one
        # starts from goes to opposite sides, so the quad keeps its shape and winding.
        for sign, e, mid in zip((1.0, -1.0), short, mids, strict=True):
            a, b = _EDGES[e]
            first, second = (a, b) if (b - a) % 4 == 1 else (b, a)
            half = 0.5 * np.sqrt(lengths[e]) * sign
            out[q, first] = mid + minor * half
            out[q, second] = mid - minor * half
    return out.reshape(-1, 3).astype(np.float32)
