"""Line traces through a Quake II map's brushes: where a point-sized line from ``start`` to ``end`` stops.

Quake II collides against the map's convex brushes, not against the drawing tree's leafs: the line is split at
every node plane it crosses (near side first, ``DIST_EPSILON`` either side of the split so no brush on the plane
is missed), and in each leaf it reaches every brush listed there whose contents match ``mask`` is clipped: the
line enters a brush where it crosses the last of the brush's planes it starts in front of, and leaves at the first
one it crosses going out. The nearest entry wins, pulled back ``DIST_EPSILON`` (1/32 unit) so the end point is
never inside the brush. A line starting inside a brush reports ``start_solid``; if it never gets out, ``fraction``
is 0 and ``end`` is ``start``.

References: Quake II ``CM_BoxTrace``, ``CM_RecursiveHullCheck``, ``CM_TraceToLeaf``, ``CM_ClipBoxToBrush`` and
``CM_PointLeafnum`` (qcommon/cmodel.c), for a zero-size box.
"""

from __future__ import annotations

import numpy as np

from ..bsp.trace import DIST_EPSILON, Trace
from ..errors import BadIndexError
from .dtypes import MASK_SOLID
from .world import World38

Vec3 = tuple[float, float, float]


def _point(p) -> Vec3:
    x, y, z = (float(v) for v in np.asarray(p, dtype=np.float64).reshape(3))
    return (x, y, z)


def _lerp(a: Vec3, b: Vec3, f: float) -> Vec3:
    return (a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]), a[2] + f * (b[2] - a[2]))


class _LineTrace:
    """One trace in progress: the tables as Python lists and the result being built (never shared)."""

    def __init__(self, world: World38, start: Vec3, end: Vec3, mask: int) -> None:
        self.world = world
        self.normals = world.planes["normal"].astype(np.float64).tolist()
        self.dists = world.planes["dist"].astype(np.float64).tolist()
        self.node_plane = world.nodes["planenum"].tolist()
        self.children = world.nodes["children"].tolist()
        self.start, self.end, self.mask = start, end, mask
        self.fraction = 1.0
        self.start_solid = self.all_solid = False
        self.hit = 0
        self.checked: set[int] = set()
        self.visits = 0

    def _distance(self, plane: int, p: Vec3) -> float:
        n = self.normals[plane]
        return n[0] * p[0] + n[1] * p[1] + n[2] * p[2] - self.dists[plane]

    def check(self, num: int, p1f: float, p2f: float, p1: Vec3, p2: Vec3) -> None:
        """``CM_RecursiveHullCheck`` for a point: descend from node ``num`` along ``p1 → p2``."""
        self.visits += 1
        if self.visits > 4 * len(self.children) + 64:
            raise BadIndexError(self.world.name, self.world.version, None, "a BSP tree without cycles",
                                f"more than {4 * len(self.children) + 64} node visits in one trace")
        if self.fraction <= p1f:
            return
        if num < 0:
            self.trace_to_leaf(-1 - num)
            return
        plane = self.node_plane[num]
        t1, t2 = self._distance(plane, p1), self._distance(plane, p2)
        front, back = self.children[num]
        if t1 >= 0 and t2 >= 0:
            self.check(front, p1f, p2f, p1, p2)
            return
        if t1 < 0 and t2 < 0:
            self.check(back, p1f, p2f, p1, p2)
            return
        if t1 < t2:
            idist = 1.0 / (t1 - t2)
            near, far = back, front
            frac2, frac = (t1 + DIST_EPSILON) * idist, (t1 - DIST_EPSILON) * idist
        elif t1 > t2:
            idist = 1.0 / (t1 - t2)
            near, far = front, back
            frac2, frac = (t1 - DIST_EPSILON) * idist, (t1 + DIST_EPSILON) * idist
        else:
            near, far = front, back
            frac, frac2 = 1.0, 0.0
        frac, frac2 = min(max(frac, 0.0), 1.0), min(max(frac2, 0.0), 1.0)
        self.check(near, p1f, p1f + (p2f - p1f) * frac, p1, _lerp(p1, p2, frac))
        self.check(far, p1f + (p2f - p1f) * frac2, p2f, _lerp(p1, p2, frac2), p2)

    def trace_to_leaf(self, leaf: int) -> None:
        """``CM_TraceToLeaf``: clip against each brush of ``leaf`` whose contents match the mask (once each)."""
        rec = self.world.leafs[leaf]
        if not int(rec["contents"]) & self.mask:
            return
        first = int(rec["firstleafbrush"])
        for b in self.world.leafbrushes[first:first + int(rec["numleafbrushes"])].tolist():
            if b in self.checked:
                continue
            self.checked.add(b)
            brush = self.world.brushes[b]
            if int(brush["contents"]) & self.mask:
                self.clip_to_brush(brush)
                if self.fraction == 0.0:
                    return

    def clip_to_brush(self, brush: np.void) -> None:
        """``CM_ClipBoxToBrush`` for a point: where the whole line enters and leaves the convex brush."""
        enter, leave = -1.0, 1.0
        starts_out = gets_out = False
        first = int(brush["firstside"])
        for plane in self.world.brushsides["planenum"][first:first + int(brush["numsides"])].tolist():
            d1, d2 = self._distance(plane, self.start), self._distance(plane, self.end)
            if d2 > 0:
                gets_out = True
            if d1 > 0:
                starts_out = True
            if d1 > 0 and d2 >= d1:  # wholly in front of this side: the line misses the brush
                return
            if d1 <= 0 and d2 <= 0:
                continue
            if d1 > d2:
                enter = max(enter, (d1 - DIST_EPSILON) / (d1 - d2))
            else:
                leave = min(leave, (d1 + DIST_EPSILON) / (d1 - d2))
        if not starts_out:
            self.start_solid = True
            if not gets_out:
                self.all_solid = True
                self.fraction = 0.0
                self.hit = int(brush["contents"])
            return
        if enter < leave and -1.0 < enter < self.fraction:
            self.fraction = max(enter, 0.0)
            self.hit = int(brush["contents"])


def trace_line(world: World38, start, end, *, mask: int = MASK_SOLID, model: int = 0) -> Trace:
    """Trace a point-sized line from ``start`` to ``end`` (``[3]`` each) through ``model``'s brushes.

    Brushes whose contents share a bit with ``mask`` (default ``MASK_SOLID``: solid and windows) stop the line;
    ``hit_contents`` is the stopping brush's contents bits (0 if nothing stopped it). ``model`` is the submodel
    whose tree is walked (0 = the world), in that model's own coordinates.
    """
    p1, p2 = _point(start), _point(end)
    t = _LineTrace(world, p1, p2, mask)
    t.check(world.submodels[model].headnode[0], 0.0, 1.0, p1, p2)
    if t.all_solid:
        return Trace(0.0, p1, True, t.hit)
    stop = p2 if t.fraction >= 1.0 else _lerp(p1, p2, t.fraction)
    return Trace(t.fraction, stop, t.start_solid, t.hit)


def point_contents(world: World38, point, *, model: int = 0) -> int:
    """Contents bits of the leaf holding ``point`` (``CM_PointContents``: a point on a plane is in front of it)."""
    p = _point(point)
    normals = world.planes["normal"]
    dists = world.planes["dist"]
    num = world.submodels[model].headnode[0]
    for _ in range(len(world.nodes) + 1):
        if num < 0:
            return int(world.leafs["contents"][-1 - num])
        plane = int(world.nodes["planenum"][num])
        d = float(np.dot(normals[plane], p)) - float(dists[plane])
        num = int(world.nodes["children"][num, 1 if d < 0 else 0])
    raise BadIndexError(world.name, world.version, None, "a BSP tree without cycles",
                        f"more than {len(world.nodes)} nodes on a path")
