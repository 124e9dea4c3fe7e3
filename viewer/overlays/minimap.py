"""The minimap: the map from above in a corner of the picture, its floors shaded by height (higher is lighter),
each player an arrow in their colour pointing where they look, with the trail of their last
:data:`TRAIL_SECONDS`.

The floors are the world's triangles facing up (:meth:`~assets_loader.game_map.GameMap.world_triangles`), worked
out once per map segment; without the map, the box the players moved in stands for it. Map +X is the minimap's
right, +Y its top.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assets_loader.demos import DemoTimeline
from assets_loader.game_map import GameMap

#: A triangle whose normal's upward part is at least this is a floor (about 45° slopes and flatter).
FLOOR_NORMAL_Z = 0.7
#: The side (units) of the squares a map without its file is drawn with where players stood.
WALKED_CELL = 48.0
#: Seconds of trail behind each player.
TRAIL_SECONDS = 4.0
#: The minimap's side as a share of the picture's shorter side, and its margin from the corner.
SIDE_SHARE = 0.34
MARGIN_SHARE = 0.02


@dataclass(frozen=True, slots=True, eq=False)
class Floors:
    """A map's floors from above: ``triangles`` ``f4 [T, 3, 2]`` (x, y), ``shade`` ``f4 [T]`` (0 lowest .. 1
    highest), and the ``mins`` / ``maxs`` ``(x, y)`` of what the minimap shows."""

    triangles: np.ndarray
    shade: np.ndarray
    mins: tuple[float, float]
    maxs: tuple[float, float]


def map_floors(game_map: GameMap) -> Floors | None:
    """The up-facing triangles of ``game_map``'s world, ``None`` when it has none."""
    tri = np.asarray(game_map.world_triangles(), np.float64)
    if not len(tri):
        return None
    normal = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    length = np.linalg.norm(normal, axis=1)
    up = (length > 1e-6) & (normal[:, 2] >= FLOOR_NORMAL_Z * np.maximum(length, 1e-6))
    floors = tri[up]
    if not len(floors):
        return None
    z = floors[:, :, 2].mean(axis=1)
    low, high = float(z.min()), float(z.max())
    shade = (z - low) / (high - low) if high > low else np.full(len(z), 0.5)
    xy = floors[:, :, :2]
    return Floors(xy.astype(np.float32), shade.astype(np.float32),
                  (float(xy[..., 0].min()), float(xy[..., 1].min())), (float(xy[..., 0].max()),
                                                                       float(xy[..., 1].max())))


def walked_floors(timeline: DemoTimeline, segment: int) -> Floors | None:
    """The floors of a map the game data lacks, as the players walked them in ``segment``: a square of
    :data:`WALKED_CELL` units wherever a player stood, shaded by its height; ``None`` when no player was seen."""
    players = timeline.players
    if players is None or not 0 <= segment < len(timeline.segments):
        return None
    seg = timeline.segments[segment]
    rows = (players.row_frame >= seg.start_frame) & (players.row_frame < seg.end_frame)
    where = np.asarray(players.row_origin[rows], np.float64)
    if not len(where):
        return None
    cells, inverse = np.unique(np.floor(where[:, :2] / WALKED_CELL).astype(np.int64), axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    z = np.bincount(inverse, where[:, 2]) / np.bincount(inverse)
    low, high = float(z.min()), float(z.max())
    shade = (z - low) / (high - low) if high > low else np.full(len(z), 0.5)
    x0, y0 = cells[:, 0] * WALKED_CELL, cells[:, 1] * WALKED_CELL
    x1, y1 = x0 + WALKED_CELL, y0 + WALKED_CELL
    squares = np.stack([np.c_[x0, y0], np.c_[x1, y0], np.c_[x1, y1], np.c_[x0, y0], np.c_[x1, y1], np.c_[x0, y1]],
                       axis=1).reshape(-1, 3, 2)
    pad = 2 * WALKED_CELL
    return Floors(squares.astype(np.float32), np.repeat(shade, 2).astype(np.float32),
                  (float(x0.min()) - pad, float(y0.min()) - pad), (float(x1.max()) + pad, float(y1.max()) + pad))


@dataclass(frozen=True, slots=True)
class Placement:
    """Where the minimap is on a picture: ``rect`` ``(x, y, w, h)`` pixels, and the map → pixel rule (``scale``
    pixels a unit, map ``(centre_x, centre_y)`` at the rect's centre)."""

    rect: tuple[float, float, float, float]
    scale: float
    centre: tuple[float, float]

    def to_pixels(self, xy) -> np.ndarray:
        """Map ``(x, y)`` points ``[..., 2]`` → pixels ``f8 [..., 2]`` (y down)."""
        p = np.asarray(xy, np.float64)
        x, y, w, h = self.rect
        px = x + w / 2 + (p[..., 0] - self.centre[0]) * self.scale
        py = y + h / 2 - (p[..., 1] - self.centre[1]) * self.scale
        return np.stack([px, py], axis=-1)


def minimap_rect(size: tuple[int, int]) -> tuple[float, float, float, float]:
    """Where the minimap is on a ``size`` picture, ``(x, y, w, h)`` pixels: a square of :data:`SIDE_SHARE` of the
    shorter side in the top-right corner (the window's corner readout goes under it)."""
    w, h = size
    side = SIDE_SHARE * min(w, h)
    margin = MARGIN_SHARE * min(w, h)
    return (w - margin - side, margin, side, side)


def placement(floors: Floors, size: tuple[int, int]) -> Placement:
    """The minimap of ``floors`` in its corner (:func:`minimap_rect`), the map's whole extent fitted in."""
    rect = minimap_rect(size)
    side = rect[2]
    span = max(floors.maxs[0] - floors.mins[0], floors.maxs[1] - floors.mins[1], 1.0)
    centre = ((floors.mins[0] + floors.maxs[0]) / 2, (floors.mins[1] + floors.maxs[1]) / 2)
    return Placement(rect, side * 0.94 / span, centre)


def arrow(tip_at, yaw: float, length: float) -> np.ndarray:
    """A player's arrow, pixels ``f8 [3, 2]``: its point ``length`` ahead of ``tip_at`` (the player's place) along
    ``yaw`` (degrees, map angles: 0 = +X, 90 = +Y), its back corners behind it."""
    a = np.radians(yaw)
    forward = np.array((np.cos(a), -np.sin(a)))    # pixels: y down
    side = np.array((-forward[1], forward[0]))
    centre = np.asarray(tip_at, np.float64)
    return np.array([centre + forward * length, centre - forward * length * 0.6 + side * length * 0.6,
                     centre - forward * length * 0.6 - side * length * 0.6])


def trail(timeline: DemoTimeline, slot: int, t: float, segment: int, seconds: float = TRAIL_SECONDS) -> np.ndarray:
    """Where player ``slot`` was over the ``seconds`` before ``t`` within map ``segment``, ``f8 [K, 3]`` oldest
    first (each frame the player was in)."""
    players = timeline.players
    if players is None or not 0 <= slot < players.num_slots:
        return np.zeros((0, 3))
    seg = timeline.segments[segment]
    times = np.asarray(timeline.times)
    first = max(int(np.searchsorted(times, t - seconds)), seg.start_frame)
    last = min(int(np.searchsorted(times, t, side="right")), seg.end_frame)
    a, b = int(players.slot_start[slot]), int(players.slot_start[slot + 1])
    frames = players.row_frame[a:b]
    pick = np.flatnonzero((frames >= first) & (frames < last))
    return np.asarray(players.row_origin[a:b][pick], np.float64)
