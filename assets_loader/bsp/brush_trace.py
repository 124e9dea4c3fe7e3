"""Line traces through a map's convex brushes (Quake II and Quake III): where a point-sized line stops.

Quake II and Quake III collide against brushes, not against the drawing tree's leafs: the line is split at every
node plane it crosses (near side first, ``DIST_EPSILON`` either side of the split so no brush on the plane is
missed), and in each leaf it reaches every brush listed there whose contents share a bit with ``mask`` is clipped:
the line enters a brush where it crosses the last of the brush's planes it starts in front of, and leaves at the
first one it crosses going out. The nearest entry wins, pulled back ``DIST_EPSILON`` (1/32 unit) so the end point
is never inside the brush. A line starting inside a brush reports ``start_solid``; if it never gets out,
``fraction`` is 0 and ``end`` is ``start``.

Both games keep ``CONTENTS_SOLID`` at bit 1 (and lava, slime and water at 8, 16 and 32), so one mask serves both.
:class:`BrushTree` holds the tables the walk reads as Python tuples, made once when the map loads (a trace reads a
few dozen entries; converting the arrays per trace cost more than the trace).

References: Quake II ``qcommon/cmodel.c`` and Quake III ``qcommon/cm_trace.c`` (``CM_BoxTrace``,
``CM_RecursiveHullCheck``/``CM_TraceThroughTree``, ``CM_TraceToLeaf``/``CM_TraceThroughLeaf``,
``CM_ClipBoxToBrush``/``CM_TraceThroughBrush``, ``CM_PointLeafnum``, ``CM_PointContents``) for a zero-size box.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import BadIndexError
from ..game_map import Contents
from .trace import DIST_EPSILON, Trace

Vec3 = tuple[float, float, float]
#: ``CONTENTS_*`` bits both games share, and Quake II's ``CONTENTS_WINDOW`` (2, unused in Quake III) as solid.
_CONTENTS_BITS = ((0x1 | 0x2, Contents.SOLID), (0x8, Contents.LAVA), (0x10, Contents.SLIME),
                  (0x20, Contents.WATER))


def contents_of(bits: int) -> Contents:
    """Quake II's or Quake III's ``CONTENTS_*`` bits as :class:`Contents` (fog, clips, triggers... are empty)."""
    out = Contents.EMPTY
    for mask, flag in _CONTENTS_BITS:
        if bits & mask:
            out |= flag
    return out


@dataclass(frozen=True, slots=True)
class BrushTree:
    """A map's collision tables: node planes and children (``< 0`` = ``-(leaf + 1)``), each leaf's contents bits
    and brushes, each brush's contents bits and side planes. ``name``/``version`` name the map in errors."""

    name: str
    version: str
    normals: tuple[Vec3, ...]
    dists: tuple[float, ...]
    node_plane: tuple[int, ...]
    children: tuple[tuple[int, int], ...]
    leaf_contents: tuple[int, ...]
    leaf_brushes: tuple[tuple[int, ...], ...]
    brush_contents: tuple[int, ...]
    brush_planes: tuple[tuple[int, ...], ...]

    @classmethod
    def build(cls, name: str, version: str, planes: np.ndarray, node_plane: np.ndarray, children: np.ndarray,
              leaf_contents: np.ndarray, leaf_first: np.ndarray, leaf_count: np.ndarray, leaf_brushes: np.ndarray,
              brush_contents: np.ndarray, brush_first: np.ndarray, brush_count: np.ndarray,
              side_plane: np.ndarray) -> BrushTree:
        """From the lumps' columns (the loader has checked every index against its table)."""
        lb = leaf_brushes.tolist()
        sp = side_plane.tolist()
        return cls(name, version,
                   tuple(map(tuple, planes["normal"].astype(np.float64).tolist())),
                   tuple(planes["dist"].astype(np.float64).tolist()),
                   tuple(node_plane.tolist()), tuple(map(tuple, children.tolist())),
                   tuple(leaf_contents.tolist()),
                   tuple(tuple(lb[f:f + n]) for f, n in zip(leaf_first.tolist(), leaf_count.tolist())),
                   tuple(brush_contents.tolist()),
                   tuple(tuple(sp[f:f + n]) for f, n in zip(brush_first.tolist(), brush_count.tolist())))

    def _distance(self, plane: int, p: Vec3) -> float:
        n = self.normals[plane]
        return n[0] * p[0] + n[1] * p[1] + n[2] * p[2] - self.dists[plane]

    def trace_line(self, start, end, mask: int, head: int = 0) -> Trace:
        """Trace a point-sized line from ``start`` to ``end`` (``[3]`` each) from node ``head`` (0 = the world's
        root). Brushes whose contents share a bit with ``mask`` stop it; ``hit_contents`` is the stopping brush's
        contents bits (0 if nothing stopped it)."""
        p1, p2 = _point(start), _point(end)
        t = _LineTrace(self, p1, p2, mask)
        t.check(head, 0.0, 1.0, p1, p2)
        if t.all_solid:
            return Trace(0.0, p1, True, t.hit)
        stop = p2 if t.fraction >= 1.0 else _lerp(p1, p2, t.fraction)
        return Trace(t.fraction, stop, t.start_solid, t.hit)

    def point_contents(self, point, head: int = 0) -> int:
        """Contents bits of the leaf holding ``point`` (Quake II's ``CM_PointContents``)."""
        return self.leaf_contents[self._leaf(_point(point), head)]

    def brush_point_contents(self, point, head: int = 0) -> int:
        """Contents bits of the brushes of ``point``'s leaf that hold it (Quake III's ``CM_PointContents``: a point
        on a brush's side is inside), exact where a leaf's own contents are the union of all its brushes'."""
        p = _point(point)
        out = 0
        for b in self.leaf_brushes[self._leaf(p, head)]:
            if all(self._distance(plane, p) <= 0 for plane in self.brush_planes[b]):
                out |= self.brush_contents[b]
        return out

    def _leaf(self, p: Vec3, head: int) -> int:
        """The leaf holding ``p`` from node ``head`` (``CM_PointLeafnum``: a point on a plane is in front)."""
        num = head
        for _ in range(len(self.node_plane) + 1):
            if num < 0:
                return -1 - num
            num = self.children[num][1 if self._distance(self.node_plane[num], p) < 0 else 0]
        raise BadIndexError(self.name, self.version, None, "a BSP tree without cycles",
                            f"more than {len(self.node_plane)} nodes on a path")


def _point(p) -> Vec3:
    x, y, z = (float(v) for v in np.asarray(p, dtype=np.float64).reshape(3))
    return (x, y, z)


def _lerp(a: Vec3, b: Vec3, f: float) -> Vec3:
    return (a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]), a[2] + f * (b[2] - a[2]))


class _LineTrace:
    """One trace in progress over a :class:`BrushTree` and the result being built (never shared)."""

    def __init__(self, tree: BrushTree, start: Vec3, end: Vec3, mask: int) -> None:
        self.tree = tree
        self.start, self.end, self.mask = start, end, mask
        self.fraction = 1.0
        self.start_solid = self.all_solid = False
        self.hit = 0
        self.checked: set[int] = set()
        self.visits = 0
        self.limit = 4 * len(tree.node_plane) + 64

    def check(self, num: int, p1f: float, p2f: float, p1: Vec3, p2: Vec3) -> None:
        """``CM_RecursiveHullCheck`` for a point: descend from node ``num`` along ``p1 → p2``."""
        tree = self.tree
        self.visits += 1
        if self.visits > self.limit:
            raise BadIndexError(tree.name, tree.version, None, "a BSP tree without cycles",
                                f"more than {self.limit} node visits in one trace")
        if self.fraction <= p1f:
            return
        if num < 0:
            self.trace_to_leaf(-1 - num)
            return
        plane = tree.node_plane[num]
        t1, t2 = tree._distance(plane, p1), tree._distance(plane, p2)
        front, back = tree.children[num]
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
        tree = self.tree
        if not tree.leaf_contents[leaf] & self.mask:
            return
        for b in tree.leaf_brushes[leaf]:
            if b in self.checked:
                continue
            self.checked.add(b)
            if tree.brush_contents[b] & self.mask:
                self.clip_to_brush(b)
                if self.fraction == 0.0:
                    return

    def clip_to_brush(self, brush: int) -> None:
        """``CM_ClipBoxToBrush`` for a point: where the whole line enters and leaves the convex brush."""
        tree = self.tree
        enter, leave = -1.0, 1.0
        starts_out = gets_out = False
        for plane in tree.brush_planes[brush]:
            d1, d2 = tree._distance(plane, self.start), tree._distance(plane, self.end)
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
                self.hit = tree.brush_contents[brush]
            return
        if enter < leave and -1.0 < enter < self.fraction:
            self.fraction = max(enter, 0.0)
            self.hit = tree.brush_contents[brush]
