"""Which level of detail of an MD3 model to draw: ioquake3's ``R_ComputeLOD``.

A model registered with lower levels of detail (``NAME_1.md3``, ``NAME_2.md3`` beside ``NAME.md3``, as Quake III's
player models, weapons and items ship) is drawn with fewer triangles the smaller it shows: the sphere around the
box of its full-detail frame (``RadiusFromBounds``), projected at its origin (``ProjectRadius``: radius × the
projection's vertical scale ÷ distance along the view axis, at most 1), gives ``1 − projected × r_lodscale`` (5),
times the number of levels, truncated and clamped to the levels there are (``r_lodbias`` 0). A model that reaches
behind the view plane (the first-person weapon) keeps full detail.

References: ioquake3 ``renderergl1/tr_mesh.c`` (``R_ComputeLOD``), ``tr_main.c`` (``ProjectRadius``),
``tr_init.c`` (``r_lodscale`` 5, ``r_lodbias`` 0), ``tr_model.c`` (``R_RegisterMD3``: ``MD3_MAX_LODS`` 3).
"""

from __future__ import annotations

import math

import numpy as np

from assets_loader.models.md3 import Md3Model

#: ``r_lodscale``'s default.
LOD_SCALE = 5.0
#: ``MD3_MAX_LODS``: the full model and two lower levels.
MAX_LODS = 3


def lod_level(model: Md3Model, levels: int, frame: int, origin, view_proj: np.ndarray) -> int:
    """The level (0 = ``model`` itself) of ``levels`` to draw of ``model`` at ``frame`` placed at ``origin`` in
    the view ``view_proj`` (``[4, 4]``, clip = ``view_proj`` @ world; its ``w`` is the distance along the view)."""
    if levels < 2 or not model.frames:
        return 0
    box = model.frames[min(max(frame, 0), len(model.frames) - 1)]
    radius = math.sqrt(sum(max(abs(lo), abs(hi)) ** 2 for lo, hi in zip(box.mins, box.maxs, strict=True)))
    x, y, z = float(origin[0]), float(origin[1]), float(origin[2])
    w_row, y_row = view_proj[3], view_proj[1]
    distance = float(w_row[0]) * x + float(w_row[1]) * y + float(w_row[2]) * z + float(w_row[3])
    if not distance > 0:
        return 0    # "object intersects near view plane, e.g. view weapon" (or a position that is not a number)
    y_scale = math.sqrt(float(y_row[0]) ** 2 + float(y_row[1]) ** 2 + float(y_row[2]) ** 2)
    projected = min(radius * y_scale / distance, 1.0)
    if not projected > 0:
        return 0    # nothing projected (or a box that is not a number)
    return min(max(int((1.0 - projected * LOD_SCALE) * levels), 0), levels - 1)
