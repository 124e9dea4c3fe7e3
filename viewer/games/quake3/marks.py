"""Impact marks laid on the map's surfaces as Quake III lays them: the mark's square is cut out of every world
triangle it covers, so a mark at a corner lies on both walls and none hangs in the air past an edge.

``CG_ImpactMark`` makes the square (half-size ``radius`` in the plane of the surface normal, turned by its
orientation) and asks for the fragments of the world under it projected 20 units along the normal into the wall
(``R_MarkFragments``): the world surfaces in the box around the square and its projection (and 20 units out in
front) are gathered, without those whose shader has ``nomarks``, ``noimpact`` or ``sky`` or which are fog; each
triangle of a planar face facing the projection (normal · direction ≤ -0.5) or of a patch (< -0.1; triangle soups
take no marks by default, ``r_marksOnTriangleMeshes 0``) is clipped, keeping what lies within the square's four
side planes along the projection and between 32 units in front of the wall and 20 behind it (epsilon 0.5).  The
texture coordinates come from each point's offset to the mark's origin along the square's axes, so the picture
is the same on every fragment; at most 128 fragments and 384 points per mark.  The engine lifts nothing (its
mark shaders use ``polygonOffset``); here the fragments are also lifted :data:`LIFT` along their surface.

The world's mark-taking triangles are gathered once per map (:class:`MarkSurfaces`) and each mark is clipped
once, when first drawn: marks are a pure function of the timeline.

References: ioquake3 ``code/cgame/cg_marks.c`` (``CG_ImpactMark``: ``MAX_MARK_FRAGMENTS``, ``MAX_MARK_POINTS``),
``code/renderergl1/tr_marks.c`` (``R_MarkFragments``, ``R_BoxSurfaces_r``, ``R_AddMarkFragments``,
``R_ChopPolyBehindPlane``), ``code/qcommon/surfaceflags.h`` (``SURF_NOIMPACT``, ``SURF_NOMARKS``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assets_loader.bsp46 import MST_PATCH, MST_PLANAR, Bsp46World
from assets_loader.bsp46.dtypes import CONTENTS_FOG, SURF_SKY
from assets_loader.ranges import range_positions

from . import shapes

__all__ = ["MarkFragment", "MarkSurfaces", "mark_fragments"]

SURF_NOIMPACT, SURF_NOMARKS = 0x10, 0x20
#: How far the square is projected into the wall, and how far in front of it the surfaces are looked for.
PROJECTION, FRONT_REACH = 20.0, 20.0
#: The near (in front of the wall) and far (behind it) clipping distances from the square's plane.
NEAR_CLIP, FAR_CLIP = 32.0, 20.0
CLIP_EPSILON = 0.5
#: Facing tests against the projection direction: planar faces need ≤ this, patch triangles < this.
FACE_FACING, PATCH_FACING = -0.5, -0.1
MAX_MARK_FRAGMENTS, MAX_MARK_POINTS = 128, 384
#: Fragments are lifted this far off their surface (besides the mark shaders' polygon offset).
LIFT = 0.25


@dataclass(frozen=True, slots=True, eq=False)
class MarkFragment:
    """One piece of a mark on one world triangle: ``positions`` ``f4 [N, 3]`` of a convex fan and ``st``
    ``f4 [N, 2]``."""

    positions: np.ndarray
    st: np.ndarray


@dataclass(frozen=True, slots=True, eq=False)
class MarkSurfaces:
    """The world triangles marks can land on: ``corners`` ``f8 [T, 3, 3]``, unit ``normals`` ``f8 [T, 3]`` (the
    side the surface faces), ``patch`` bool ``[T]`` (a patch's triangle, else a planar face's) and each
    triangle's box ``mins`` / ``maxs`` ``f8 [T, 3]``."""

    corners: np.ndarray
    normals: np.ndarray
    patch: np.ndarray
    mins: np.ndarray
    maxs: np.ndarray

    @classmethod
    def of(cls, level: Bsp46World) -> MarkSurfaces:
        """Every triangle of the world model's planar faces and patches whose shader takes marks."""
        surfs = level.surfaces
        flags = level.shaders["surfaceFlags"][surfs["shader"]]
        contents = level.shaders["contentFlags"][surfs["shader"]]
        ok = (surfs["model"] == 0) & np.isin(surfs["kind"], (MST_PLANAR, MST_PATCH)) \
            & ((flags & (SURF_SKY | SURF_NOIMPACT | SURF_NOMARKS)) == 0) & ((contents & CONTENTS_FOG) == 0)
        picked = np.flatnonzero(ok & (surfs["num_indices"] > 0))
        counts = surfs["num_indices"][picked].astype(np.int64)
        starts = surfs["first_index"][picked].astype(np.int64)
        flat = range_positions(starts, counts)
        tris = level.indices[flat].astype(np.int64).reshape(-1, 3)
        corners = level.vertices["position"][tris].astype(np.float64)
        normals = level.vertices["normal"][tris].astype(np.float64).sum(axis=1)
        lengths = np.linalg.norm(normals, axis=1, keepdims=True)
        normals = np.divide(normals, lengths, out=np.zeros_like(normals), where=lengths > 1e-9)
        patch = np.repeat(surfs["kind"][picked] == MST_PATCH, counts // 3)
        return cls(corners, normals, patch, corners.min(axis=1), corners.max(axis=1))


def _chop(points: list[np.ndarray], normal: np.ndarray, dist: float) -> list[np.ndarray]:
    """``R_ChopPolyBehindPlane``: the part of the polygon in front of the plane (points within the epsilon count
    as on it); nothing when no point is in front."""
    dists = [float(p @ normal) - dist for p in points]
    sides = [1 if d > CLIP_EPSILON else -1 if d < -CLIP_EPSILON else 0 for d in dists]
    if 1 not in sides:
        return []
    if -1 not in sides:
        return points
    out: list[np.ndarray] = []
    n = len(points)
    for i in range(n):
        j = (i + 1) % n
        if sides[i] >= 0:
            out.append(points[i])
            if sides[i] == 0:
                continue
        if sides[j] == 0 or sides[j] == sides[i]:
            continue
        d = dists[i] - dists[j]
        frac = dists[i] / d if d else 0.0
        out.append(points[i] + frac * (points[j] - points[i]))
    return out


def mark_fragments(surfaces: MarkSurfaces, origin, normal, radius: float,
                   rotation: float) -> tuple[MarkFragment, ...]:
    """The pieces of the mark of half-size ``radius`` centred on ``origin`` on the wall facing ``normal``, turned
    ``rotation`` degrees (rules: module docstring)."""
    o = np.asarray(origin, np.float64)
    axis0, axis1, axis2 = shapes.mark_axes(normal, rotation)
    square = [o - radius * axis1 - radius * axis2, o + radius * axis1 - radius * axis2,
              o + radius * axis1 + radius * axis2, o - radius * axis1 + radius * axis2]
    into = -axis0                                   # the projection's direction
    pts = np.array(square)
    box = np.concatenate([pts, pts + into * PROJECTION, pts - into * FRONT_REACH])
    lo, hi = box.min(axis=0), box.max(axis=0)
    planes = [(_unit(np.cross(square[(i + 1) % 4] - square[i], -into * PROJECTION)), square[i]) for i in range(4)]
    clip = [(n, float(n @ p)) for n, p in planes]
    clip.append((into, float(into @ square[0]) - NEAR_CLIP))
    clip.append((-into, float(-into @ square[0]) - FAR_CLIP))
    facing = surfaces.normals @ into
    mins, maxs = surfaces.mins, surfaces.maxs               # the boxes overlap, axis by axis (no 3-long reduction)
    near = (maxs[:, 0] >= lo[0]) & (maxs[:, 1] >= lo[1]) & (maxs[:, 2] >= lo[2]) \
        & (mins[:, 0] <= hi[0]) & (mins[:, 1] <= hi[1]) & (mins[:, 2] <= hi[2]) \
        & np.where(surfaces.patch, facing < PATCH_FACING, facing <= FACE_FACING)
    rows = np.flatnonzero(near)
    if not len(rows):
        return ()
    normals = np.array([n for n, _ in clip])
    dists = np.array([d for _, d in clip])
    behind = surfaces.corners[rows] @ normals.T - dists <= CLIP_EPSILON        # [T, 3 corners, 6 planes]
    behind = behind[:, 0] & behind[:, 1] & behind[:, 2]                       # whole triangles behind a plane
    rows = rows[~(behind[:, 0] | behind[:, 1] | behind[:, 2] | behind[:, 3] | behind[:, 4] | behind[:, 5])]
    out: list[MarkFragment] = []
    used = 0
    for r in rows.tolist():
        poly = list(surfaces.corners[r])
        for n, d in clip:
            poly = _chop(poly, n, d)
            if not poly:
                break
        if len(poly) < 3 or used + len(poly) > MAX_MARK_POINTS:
            continue
        used += len(poly)
        xyz = np.array(poly)
        delta = xyz - o
        st = np.stack([0.5 + delta @ axis1 * (0.5 / radius), 0.5 + delta @ axis2 * (0.5 / radius)], axis=1)
        out.append(MarkFragment((xyz + surfaces.normals[r] * LIFT).astype(np.float32), st.astype(np.float32)))
        if len(out) == MAX_MARK_FRAGMENTS:
            break
    return tuple(out)


def _unit(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-9 else v
