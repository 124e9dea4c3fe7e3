"""Picking a sub-picture of a timed group (alias skin groups, alias frame groups, sprite frame groups).

Group intervals are cumulative end times in seconds: ``[0.1, 0.2, 0.3]`` shows picture 0 for ``[0, 0.1)``,
picture 1 for ``[0.1, 0.2)``, picture 2 for ``[0.2, 0.3)``, then loops over ``intervals[-1]`` seconds.

References: Quake ``R_GetSpriteFrame`` (r_sprite.c / gl_rmain.c), ``R_AliasSetupFrame`` and
``R_AliasSetupSkin`` (r_alias.c) — the software renderer's use of the full interval list (GLQuake keeps only the
first interval of a frame group and cycles skin groups at a fixed 10 Hz).
"""

from __future__ import annotations

import math

import numpy as np


def pick_interval(intervals: np.ndarray, time: float) -> int:
    """Index into a group with cumulative end times ``intervals`` (``f4[n]``, all > 0) at ``time`` seconds.

    ``time`` is the client time plus the entity's sync base; an empty or one-element group gives 0.
    """
    n = len(intervals)
    if n <= 1:
        return 0
    full = float(intervals[-1])
    target = time - math.trunc(time / full) * full
    for i in range(n - 1):
        if intervals[i] > target:
            return i
    return n - 1
