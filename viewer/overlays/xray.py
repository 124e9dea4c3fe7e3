"""X-ray outlines: each player's box (``PM_``'s player bounds) as twelve edges projected onto the picture, drawn
over it whatever the walls in between, in the player's colour. The camera's own player has none.

References: Quake ``client.qc``/``PutClientInServer`` (``setsize(self, VEC_HULL_MIN, VEC_HULL_MAX)``: -16 -16 -24,
16 16 32), Quake II ``p_client.c`` ``PutClientInServer`` (the same box), Quake III ``bg_pmove.c`` ``PM_CheckDuck``
(-15 -15 -24, 15 15 32; 16 is used for every game).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .names import in_own_eye
from .players import RGB, PlayerMark
from .projection import project

BOX_MINS = np.array((-16.0, -16.0, -24.0))
BOX_MAXS = np.array((16.0, 16.0, 32.0))
#: Corner ``k`` takes the max of axis ``a`` when bit ``a`` of ``k`` is set; edges join corners one bit apart.
_CORNERS = np.array([[(k >> a) & 1 for a in range(3)] for k in range(8)], bool)
EDGES = tuple((i, i | (1 << a)) for i in range(8) for a in range(3) if not i & (1 << a))


def box_corners(origin) -> np.ndarray:
    """The eight corners ``[8, 3]`` of a player's box at ``origin``."""
    return np.asarray(origin, np.float64) + np.where(_CORNERS, BOX_MAXS, BOX_MINS)


def outline_segments(marks: Sequence[PlayerMark], view_proj: np.ndarray, size: tuple[int, int], camera_origin,
                     view_height: float) -> list[tuple[np.ndarray, RGB]]:
    """Per player wholly in front of the camera (not the camera's own): its box edges as pixel segments
    ``f8 [12, 2, 2]`` and its colour."""
    out = []
    for mark in marks:
        if in_own_eye(mark, camera_origin, view_height):
            continue
        pixels, front = project(view_proj, box_corners(mark.origin), size)
        if not front.all():
            continue
        out.append((np.array([(pixels[a], pixels[b]) for a, b in EDGES]), mark.colour))
    return out
