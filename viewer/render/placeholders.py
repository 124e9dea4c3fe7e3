"""Where a model the game data lacks is drawn as a placeholder: boxes in the entity's own space, so the entity's
position, size and facing show even without its model.

A player is its bounding box (Quake ``VEC_HULL_MIN``/``VEC_HULL_MAX``; Quake III's game poses its own box,
:mod:`viewer.games.quake3.players`, lying flat with :func:`lying_down`); a missile or a weapon a thin box along
its length; anything else a 16-unit cube.  A small
box on the front face, at eye height, is the nose that shows which way it faces (+x in model space, the entity's
yaw).

References: Quake ``bspfile.h``/``sv_phys.c`` (the player hull).
"""

from __future__ import annotations

import numpy as np

Box = tuple[tuple[float, float, float], tuple[float, float, float]]

#: A thing that is not a player: a 16-unit cube around its origin.
OBJECT_BOX: Box = ((-8.0, -8.0, -8.0), (8.0, 8.0, 8.0))
#: A missile, long along its flight; a weapon in a player's hand, reaching forward from its grip.
MISSILE_BOX: Box = ((-8.0, -2.0, -2.0), (8.0, 2.0, 2.0))
WEAPON_BOX: Box = ((-4.0, -2.0, -2.0), (20.0, 2.0, 4.0))
#: Quake's and Quake II's player hull.
QUAKE_PLAYER_BOX: Box = ((-16.0, -16.0, -24.0), (16.0, 16.0, 32.0))


def with_nose(box: Box) -> tuple[Box, Box]:
    """``box`` and the nose on its front (+x) face: a quarter of its width, a sixth of its height, reaching out a
    quarter of its depth, its top at the box's top less a sixth (about the eyes)."""
    (x0, y0, z0), (x1, y1, z1) = box
    width, height, depth = y1 - y0, z1 - z0, x1 - x0
    mid_y, top = (y0 + y1) / 2.0, z1 - height / 6.0
    nose = ((x1, mid_y - width / 8.0, top - height / 6.0), (x1 + depth / 4.0, mid_y + width / 8.0, top))
    return box, nose


def lying_down(matrix: np.ndarray, box: Box) -> np.ndarray:
    """``matrix`` turned so a model with ``box`` lies on its back, head behind it (pitched 90° about its left
    axis), resting on the floor its standing box stood on."""
    (x0, _, z0), _ = box
    pitch = np.array([[0, 0, -1, 0], [0, 1, 0, 0], [1, 0, 0, z0 - x0], [0, 0, 0, 1]], np.float32)
    return np.asarray(matrix, np.float32) @ pitch
