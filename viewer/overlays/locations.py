"""Location names a map gives its places: Quake III's ``target_location`` entities (their ``message``, which team
games also send as ``CS_LOCATIONS``), and the ``info_location`` of mods that use that name. A point is in the
nearest named place (the game's ``Team_GetLocation`` also wants that place in sight; the panel does not).

References: Quake III ``g_target.c`` ``SP_target_location``, ``g_team.c`` ``Team_GetLocation``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from assets_loader.demos.quake3.colors import strip_colors
from assets_loader.game_map import GameMap

LOCATION_CLASSES = ("target_location", "info_location")


def map_locations(game_map: GameMap | None) -> tuple[tuple[tuple[float, float, float], str], ...]:
    """The named places of ``game_map``: ``(origin, name)`` with the colour codes left out (none without a map)."""
    if game_map is None:
        return ()
    out = []
    for entity in game_map.entities:
        if entity.get("classname") not in LOCATION_CLASSES or not entity.get("message"):
            continue
        try:
            x, y, z = (float(v) for v in entity.get("origin", "").split())
        except ValueError:
            continue
        out.append(((x, y, z), strip_colors(entity["message"]).strip()))
    return tuple(out)


def nearest_location(point, locations: Sequence[tuple[tuple[float, float, float], str]]) -> str:
    """The name of the place nearest ``point`` (``""`` without places)."""
    if not locations:
        return ""
    origins = np.array([origin for origin, _ in locations], np.float64)
    return locations[int(np.argmin(np.linalg.norm(origins - np.asarray(point, np.float64), axis=1)))][1]
