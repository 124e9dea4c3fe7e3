"""Where each player's name goes over the picture: projected above the head, hidden when a wall is between the
camera and the head (a line traced through the map, :meth:`~assets_loader.game_map.GameMap.trace`) unless x-ray is
on. The player whose eyes the camera is in gets no name."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from assets_loader.game_map import GameMap

from .players import PlayerMark
from .projection import project

#: Units above the eye the name's bottom sits at (a Quake or Quake III player's box ends 32 over its origin, about
#: 10 over the eye; the name floats a little above that).
ABOVE_EYE = 20.0
#: A camera this close to a player's eye is that player's own view: it gets no name or outline.
OWN_EYE = 24.0


@dataclass(frozen=True, slots=True)
class NameTag:
    """A player's name at pixel ``x`` (its centre) and ``y`` (its bottom); ``seen``: in the line of sight."""

    mark: PlayerMark
    x: float
    y: float
    seen: bool


def name_point(mark: PlayerMark, view_height: float) -> np.ndarray:
    """The world point a player's name is drawn at: :data:`ABOVE_EYE` over the eye (``view_height`` over the
    origin)."""
    return mark.origin + (0.0, 0.0, view_height + ABOVE_EYE)


def in_own_eye(mark: PlayerMark, camera_origin, view_height: float) -> bool:
    """Whether the camera is ``mark``'s own eyes."""
    eye = mark.origin + (0.0, 0.0, view_height)
    return float(np.linalg.norm(eye - np.asarray(camera_origin, np.float64))) < OWN_EYE


def line_of_sight(game_map: GameMap | None, start, end) -> bool:
    """Whether nothing solid lies between ``start`` and ``end`` (always, without a map)."""
    if game_map is None:
        return True
    return game_map.trace(tuple(float(v) for v in start), tuple(float(v) for v in end)).fraction >= 0.999


def name_tags(marks: Sequence[PlayerMark], view_proj: np.ndarray, size: tuple[int, int], camera_origin,
              view_height: float, game_map: GameMap | None, xray: bool = False) -> tuple[NameTag, ...]:
    """The names to draw over a ``size`` picture drawn with ``view_proj`` from ``camera_origin``: players in front
    of the camera, on the picture, not the camera's own, and (unless ``xray``) seen from the camera."""
    if not marks:
        return ()
    points = np.array([name_point(m, view_height) for m in marks])
    pixels, front = project(view_proj, points, size)
    w, h = size
    tags = []
    for mark, (x, y), ahead in zip(marks, pixels, front):
        if not ahead or not (0 <= x < w and 0 <= y < h) or in_own_eye(mark, camera_origin, view_height):
            continue
        seen = line_of_sight(game_map, camera_origin, mark.origin + (0.0, 0.0, view_height))
        if seen or xray:
            tags.append(NameTag(mark, float(x), float(y), seen))
    return tuple(tags)
