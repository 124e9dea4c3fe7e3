"""Name labels over the ghosts of a race (:mod:`viewer.ghosts`): each ghost's name in its tint, centred over its
head where the camera projects it, left out when it is behind the camera or a wall of the map is in the way (a
line of sight from the camera: :meth:`~assets_loader.game_map.GameMap.trace`).

Self-contained on purpose (labels of any point with a name and a colour), so general name overlays can take it in.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from assets_loader.game_map import GameMap

from ..render.refdef import Camera, Rect, Text, UiLayout
from ..render.view_math import view_projection
from .timeline_bar import CHAR

#: Height (units) over a ghost's origin the label sits at: above a player's head (Quake's box top is +32).
LABEL_HEIGHT = 40.0
#: The box behind a label.
LABEL_BACK = (0.0, 0.0, 0.0, 0.45)

#: One label: its text, its colour (RGB 0..1) and the point ``[3]`` it names.
Label = tuple[str, tuple[float, float, float], Sequence[float] | np.ndarray]


def label_layout(labels: Sequence[Label], camera: Camera, size: tuple[int, int], scale: int, *,
                 fov_across_width: bool = False, warp: float = 0.0, world: GameMap | None = None) -> UiLayout:
    """``labels`` seen from ``camera`` in a ``size`` picture projected as the renderer does (the game's fov rule,
    the underwater ``warp``), each centred ``LABEL_HEIGHT`` over its point; hidden behind ``world``'s walls."""
    w, h = size
    view_proj = view_projection(camera, w / h, fov_across_width, warp=warp)
    ch = CHAR * max(1, scale)
    pad = max(1, scale)
    rects, texts = [], []
    for text, color, point in labels:
        top = np.array([point[0], point[1], point[2] + LABEL_HEIGHT], np.float64)
        clip = view_proj @ np.append(top, 1.0)
        if clip[3] <= 1e-6:
            continue   # behind the camera
        x_ndc, y_ndc = clip[0] / clip[3], clip[1] / clip[3]
        if abs(x_ndc) > 1.0 or abs(y_ndc) > 1.0:
            continue
        if world is not None and world.trace(camera.origin, top).fraction < 1.0:
            continue   # a wall in the way
        tw = len(text) * ch
        x = (x_ndc + 1.0) / 2.0 * w - tw / 2.0
        y = (1.0 - y_ndc) / 2.0 * h - ch - 2 * pad
        rects.append(Rect(x - pad, y - pad, tw + 2 * pad, ch + 2 * pad, LABEL_BACK))
        texts.append(Text(x, y, text, ch, (*color, 1.0)))
    return UiLayout(tuple(rects), tuple(texts))
