"""World points to a picture's pixels, with the matrix the picture was drawn with
(:func:`~viewer.render.view_math.frame_view_projection`), so an overlay lands where the entity is drawn."""

from __future__ import annotations

import numpy as np

from ..render.view_math import NEAR_CLIP


def project(view_proj: np.ndarray, points, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """``points`` ``[N, 3]`` → pixels ``f8 [N, 2]`` from the target's top-left corner (x right, y down) and
    whether each point is in front of the camera (``bool [N]``; the pixels of the others mean nothing)."""
    p = np.asarray(points, np.float64).reshape(-1, 3)
    clip = np.c_[p, np.ones(len(p))] @ np.asarray(view_proj, np.float64).T
    w = clip[:, 3]
    front = w > NEAR_CLIP * 0.5
    safe = np.where(front, w, 1.0)
    w_px, h_px = size
    x = (clip[:, 0] / safe + 1.0) * 0.5 * w_px
    y = (1.0 - clip[:, 1] / safe) * 0.5 * h_px
    return np.c_[x, y], front
