"""Line traces through a map's drawing tree: where a point-sized line from ``start`` to ``end`` stops.

The trace walks the BSP node tree (hull 0, the tree the renderer draws with) the way the server's
``SV_RecursiveHullCheck`` walks a clipping hull: the segment is split at every node plane it crosses, the near
part is traced first, and when the far side of a plane is solid the line stops there, pulled back
``DIST_EPSILON`` (1/32 unit) onto the near side so the end point is never inside the wall. Leaf contents
decide what is solid: ``CONTENTS_SOLID`` always, ``CONTENTS_SKY`` when asked (cameras must not fly out through
the sky into the void). Water, slime and lava never stop a line.

A line that starts inside solid reports ``start_solid``; if it gets out it goes on as the engine's does and stops
at the next wall. A line that never leaves solid (``all solid`` in the engine) reports ``fraction`` 0 and ``end``
equal to ``start``, as Quake II's ``CM_BoxTrace`` does, instead of Quake's untouched fraction 1.

References: Quake ``world.c`` ``SV_RecursiveHullCheck`` / ``SV_HullPointContents``, ``gl_model.c``
``Mod_MakeHull0`` (hull 0 built from the drawing nodes); QuakeSpasm ``chase.c`` ``TraceLine``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import BadIndexError
from .dtypes import CONTENTS_SKY, CONTENTS_SOLID

if TYPE_CHECKING:  # the world's own trace method calls this module
    from .world import WorldMesh

#: How far short of a blocking plane a trace stops (``DIST_EPSILON``, 1/32 unit).
DIST_EPSILON = 0.03125
#: ``hit_contents`` of a trace that hit nothing.
CONTENTS_NONE = 0


@dataclass(frozen=True, slots=True)
class Trace:
    """The result of :func:`trace_line`.

    ``fraction``: how far along ``start → end`` the line got, 0..1 (1 = nothing in the way). ``end``: where it
    stopped (``end`` itself when ``fraction`` is 1). ``start_solid``: ``start`` is inside solid.
    ``hit_contents``: the contents of what stopped the line (``CONTENTS_SOLID`` or ``CONTENTS_SKY``), or
    :data:`CONTENTS_NONE` (0) if nothing did.
    """

    fraction: float
    end: tuple[float, float, float]
    start_solid: bool
    hit_contents: int


class _Hull:
    """Views of one model's drawing tree, and the per-trace result being built (not shared between traces)."""

    __slots__ = ("planenum", "children", "normals", "dists", "types", "contents", "solid", "head", "limit",
                 "name", "start_solid", "all_solid", "fraction", "end", "hit", "visits")

    def __init__(self, world: WorldMesh, model: int, solid: frozenset[int]) -> None:
        self.planenum = world.nodes["planenum"]
        self.children = world.nodes["children"]
        self.normals = world.planes["normal"]
        self.dists = world.planes["dist"]
        self.types = world.planes["type"]
        self.contents = world.leafs["contents"]
        self.solid = solid
        self.head = int(world.submodels[model].headnode[0])
        self.limit = len(world.nodes) + len(world.leafs) + 1
        self.name = world.name
        self.start_solid = False
        self.all_solid = True
        self.fraction = 1.0
        self.end: tuple[float, float, float] = (0.0, 0.0, 0.0)
        self.hit = CONTENTS_NONE
        self.visits = 0

    def _cycle(self) -> BadIndexError:
        return BadIndexError(self.name, "BSP", None, "a BSP tree without cycles",
                             f"more than {self.limit} node visits in one trace")

    def leaf_contents(self, num: int) -> int:
        return int(self.contents[-1 - num])

    def distance(self, node: int, p: tuple[float, float, float]) -> float:
        plane = int(self.planenum[node])
        kind = int(self.types[plane])
        if kind < 3:  # axial plane: no dot product, exactly as the engine does
            return p[kind] - float(self.dists[plane])
        n = self.normals[plane]
        return p[0] * float(n[0]) + p[1] * float(n[1]) + p[2] * float(n[2]) - float(self.dists[plane])

    def point_contents(self, num: int, p: tuple[float, float, float]) -> int:
        """``SV_HullPointContents``: a point exactly on a plane belongs to the front child."""
        for _ in range(self.limit):
            if num < 0:
                return self.leaf_contents(num)
            num = int(self.children[num, 1] if self.distance(num, p) < 0 else self.children[num, 0])
        raise self._cycle()

    def check(self, num: int, p1f: float, p2f: float, p1: tuple[float, float, float],
              p2: tuple[float, float, float]) -> bool:
        """Trace ``p1 → p2`` (fractions ``p1f..p2f`` of the whole line) through ``num``; False once stopped."""
        while True:
            self.visits += 1
            if self.visits > self.limit:
                raise self._cycle()
            if num < 0:
                contents = self.leaf_contents(num)
                if contents in self.solid:
                    self.start_solid = True
                    self.hit = contents
                else:
                    self.all_solid = False
                return True
            t1 = self.distance(num, p1)
            t2 = self.distance(num, p2)
            if t1 >= 0 and t2 >= 0:
                num = int(self.children[num, 0])
                continue
            if t1 < 0 and t2 < 0:
                num = int(self.children[num, 1])
                continue
            # the line crosses the plane: put the crossing DIST_EPSILON on the near side
            frac = (t1 + DIST_EPSILON) / (t1 - t2) if t1 < 0 else (t1 - DIST_EPSILON) / (t1 - t2)
            frac = min(max(frac, 0.0), 1.0)
            midf = p1f + (p2f - p1f) * frac
            mid = _lerp(p1, p2, frac)
            side = 1 if t1 < 0 else 0
            near, far = int(self.children[num, side]), int(self.children[num, side ^ 1])
            if not self.check(near, p1f, midf, p1, mid):
                return False
            contents = self.point_contents(far, mid)
            if contents not in self.solid:
                num, p1f, p1 = far, midf, mid  # go past the plane
                continue
            if self.all_solid:
                return False  # never got out of the solid area
            # the far side is solid: this is the impact; back off if the point still rounds into solid
            self.hit = contents
            while self.point_contents(self.head, mid) in self.solid:
                frac -= 0.1
                if frac < 0:
                    break
                midf = p1f + (p2f - p1f) * frac
                mid = _lerp(p1, p2, frac)
            self.fraction = midf
            self.end = mid
            return False


def _lerp(a: tuple[float, float, float], b: tuple[float, float, float], f: float) -> tuple[float, float, float]:
    return (a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]), a[2] + f * (b[2] - a[2]))


def _point(p) -> tuple[float, float, float]:
    x, y, z = (float(v) for v in np.asarray(p, dtype=np.float64).reshape(3))
    return (x, y, z)


def _solid_set(sky_is_solid: bool) -> frozenset[int]:
    return frozenset((CONTENTS_SOLID, CONTENTS_SKY)) if sky_is_solid else frozenset((CONTENTS_SOLID,))


def trace_line(world: WorldMesh, start, end, *, sky_is_solid: bool = False, model: int = 0) -> Trace:
    """Trace a point-sized line from ``start`` to ``end`` (``[3]`` each) through ``model``'s drawing tree.

    Solid leafs stop the line (and sky leafs too with ``sky_is_solid``); the returned ``end`` lies
    ``DIST_EPSILON`` in front of the blocking plane, so :func:`point_contents` there is never solid. ``model`` is
    the submodel whose tree is walked (0 = the world), in that model's own coordinates.
    """
    p1, p2 = _point(start), _point(end)
    hull = _Hull(world, model, _solid_set(sky_is_solid))
    hull.end = p2
    hull.check(hull.head, 0.0, 1.0, p1, p2)
    if hull.all_solid:
        return Trace(0.0, p1, True, hull.hit)
    if hull.fraction >= 1.0:
        return Trace(1.0, p2, hull.start_solid, CONTENTS_NONE)
    return Trace(hull.fraction, hull.end, hull.start_solid, hull.hit)


def point_contents(world: WorldMesh, point, *, model: int = 0) -> int:
    """Contents (``CONTENTS_EMPTY``, ``CONTENTS_SOLID``, ``CONTENTS_WATER``...) of the leaf holding ``point``.

    Walks the tree as ``SV_HullPointContents`` does: a point exactly on a plane counts as in front of it.
    """
    hull = _Hull(world, model, _solid_set(False))
    return hull.point_contents(hull.head, _point(point))
