"""Which world triangles to draw: the PVS of the camera's leaf, then the view frustum, per face box.

Pure numpy on a map (Quake's ``WorldMesh``, Quake II's ``World38``; no GL), so it is unit tested directly. The
result is a compacted index list grouped by texture (and an optional per-face key), with each group's slice of it;
given the camera, faces are ordered front to back inside each group and groups by their nearest face (early depth
rejection on llvmpipe).
Culling is per face box, which is tighter than per leaf box. Given the camera, faces seen from behind are left out
too (the engines' ``R_RecursiveWorldNode`` skips them by their plane side), only when the camera is clearly behind
(:data:`BACKFACE_MARGIN`): the rasterizer's back-face culling would drop all their triangles anyway, so the
picture is the same, and llvmpipe's vertex stage (on the main thread) has about half as many faces to transform.

References: Quake ``gl_rmain.c`` ``R_MarkLeaves`` (PVS), ``R_SetFrustum``/``R_CullBox`` (frustum), and
``R_RecursiveWorldNode``; Gribb & Hartmann, "Fast Extraction of Viewing Frustum Planes from the
World-View-Projection Matrix" (2001).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assets_loader.ranges import listed_union, range_positions

from ..refdef import MapWorld

#: World units the camera must be behind a face's plane for the face to be culled as back-facing; nearer the plane
#: the GL's own culling decides (a face seen edge-on).
BACKFACE_MARGIN = 1.0
#: How far (world units) a face's vertices may lie off its plane for it to count as flat (cullable by its plane).
FLATNESS = 0.01


@dataclass(frozen=True, slots=True)
class VisibleSet:
    """``indices`` u32 [I] to draw; ``ranges`` i8 [R, 4] rows of (texture, first, count, key) into ``indices``."""

    indices: np.ndarray
    ranges: np.ndarray


def frustum_planes(view_proj: np.ndarray) -> np.ndarray:
    """The left, right, bottom, top and near planes ``f8[5, 4]`` (a, b, c, d; inside where ax + by + cz + d ≥ 0)."""
    m = np.asarray(view_proj, np.float64)
    return np.stack([m[3] + m[0], m[3] - m[0], m[3] + m[1], m[3] - m[1], m[3] + m[2]])


def boxes_in_frustum(mins: np.ndarray, maxs: np.ndarray, planes: np.ndarray) -> np.ndarray:
    """``bool [N]``: boxes ``[N, 3]`` not entirely outside any plane (``R_CullBox``, conservative)."""
    return bounds_in_frustum(box_bounds(mins, maxs), planes)


def box_bounds(mins: np.ndarray, maxs: np.ndarray) -> np.ndarray:
    """``f8 [7, N]``: the boxes ``[N, 3]`` as rows of their centre (3), half size (3) and ones, what
    :func:`bounds_in_frustum` tests in one matrix product."""
    mins = np.asarray(mins, np.float64)
    maxs = np.asarray(maxs, np.float64)
    return np.concatenate([((mins + maxs) * 0.5).T, ((maxs - mins) * 0.5).T, np.ones((1, len(mins)))])


def bounds_in_frustum(bounds: np.ndarray, planes: np.ndarray) -> np.ndarray:
    """:func:`boxes_in_frustum` of the boxes of :func:`box_bounds`."""
    # The box corner furthest along each plane's normal ("positive vertex"): n·c + |n|·h + d, for every plane at
    # once as [n | |n| | d] @ bounds (planes × 7 by 7 × N: numpy's fast matrix product, ~10× the row-wise one).
    normals = planes[:, :3]
    far = np.concatenate([normals, np.abs(normals), planes[:, 3:]], axis=1) @ bounds
    inside = far[0] >= 0   # plane by plane: numpy reduces a short axis slowly
    for k in range(1, len(far)):
        inside &= far[k] >= 0
    return inside


def box_distances(mins: np.ndarray, maxs: np.ndarray, point) -> np.ndarray:
    """``f8 [N]``: distance from ``point`` to each box ``[N, 3]`` (0 inside)."""
    p = np.asarray(point, np.float64)
    d = np.maximum(np.maximum(mins - p, p - maxs), 0.0)
    # np.linalg.norm(d, axis=1)'s sum x² + y² + z² in the same order, without its slow reduction of a short axis.
    return np.sqrt(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1] + d[:, 2] * d[:, 2])


def face_boxes(world: MapWorld) -> tuple[np.ndarray, np.ndarray]:
    """``(mins, maxs)`` f8 ``[F, 3]``: each face's bounding box from its triangles (zeros for faces without any)."""
    mesh = world.mesh
    count = mesh.face_count.astype(np.int64)
    mins = np.zeros((len(count), 3))
    maxs = np.zeros((len(count), 3))
    has = np.flatnonzero(count > 0)
    if len(has):
        order = has[np.argsort(mesh.face_first[has], kind="stable")]
        first = mesh.face_first[order].astype(np.int64)
        pos = mesh.vertices["position"][mesh.indices].astype(np.float64)
        # Gather each face's [first, first + count) index slice contiguously, then reduce per slice.
        gather = np.repeat(first - np.cumsum(count[order]) + count[order], count[order]) + \
            np.arange(int(count[order].sum()))
        starts = np.concatenate([[0], np.cumsum(count[order])[:-1]])
        mins[order] = np.minimum.reduceat(pos[gather], starts, axis=0)
        maxs[order] = np.maximum.reduceat(pos[gather], starts, axis=0)
    return mins, maxs


def face_planes(world: MapWorld) -> np.ndarray:
    """``f8 [F, 4]``: each face's plane (unit normal toward the side its triangles face, distance) from its own
    triangles (the sum of their cross products, so it agrees with the winding the GL culls by); all zeros for a
    face that is not one flat polygon facing one way (no triangles, degenerate, bent): such a face is never culled.
    """
    mesh = world.mesh
    count = mesh.face_count.astype(np.int64)
    planes = np.zeros((len(count), 4))
    has = np.flatnonzero(count >= 3)
    if not len(has):
        return planes
    n = count[has] - count[has] % 3
    gather = range_positions(mesh.face_first[has], n)
    tris = mesh.vertices["position"][mesh.indices[gather]].astype(np.float64).reshape(-1, 3, 3)
    cross = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    starts = np.concatenate([[0], np.cumsum(n // 3)[:-1]])
    normal = np.add.reduceat(cross, starts, axis=0)
    length = np.linalg.norm(normal, axis=1)
    unit = normal / np.where(length > 0, length, 1.0)[:, None]
    dist = (unit * tris[starts, 0]).sum(axis=1)
    per_tri = np.repeat(np.arange(len(has)), n // 3)
    off = np.abs(np.einsum("tvk,tk->tv", tris, unit[per_tri]) - dist[per_tri, None]).max(axis=1)
    facing = (cross * unit[per_tri]).sum(axis=1) >= 0
    flat = (length > 0) & (np.maximum.reduceat(off, starts) <= FLATNESS) & np.logical_and.reduceat(facing, starts)
    planes[has[flat], :3] = unit[flat]
    planes[has[flat], 3] = dist[flat]
    return planes


def pvs_faces(world: MapWorld, pvs_leafs: np.ndarray) -> np.ndarray:
    """Sorted world (model 0) faces with triangles marked by the leafs ``pvs_leafs``."""
    firsts, counts, listed = world.leaf_face_lists()
    faces = listed_union(firsts[pvs_leafs], counts[pvs_leafs], listed)
    faces = faces[(world.faces["model"][faces] == 0) & (world.mesh.face_count[faces] > 0)]
    return faces


def _world_draws(world: MapWorld) -> np.ndarray:
    draws = world.mesh.draws
    return draws[draws["model"] == 0]


@dataclass(frozen=True, slots=True)
class FaceSet:
    """World faces with triangles and, gathered once for them, what culling and ordering them reads (a camera's
    PVS faces are kept while it stays in its leaf, so each frame gathers from these short arrays).

    ``firsts``/``counts`` i8 [N]: each face's slice of the mesh's index list; ``group`` i8 [N]: its draw slot and
    key, one number (slot × (largest key + 1) + key); ``texture``/``key`` i8 [N]: its draw's texture and its key;
    ``mins``/``maxs`` f8 [N, 3] its box (``None`` when nothing asks for an order), ``bounds`` the same boxes
    (:func:`box_bounds`);
    ``plane`` f8 [N, 4] (:func:`face_planes`; ``None``: none culled as back-facing)."""

    faces: np.ndarray
    firsts: np.ndarray
    counts: np.ndarray
    group: np.ndarray
    texture: np.ndarray
    key: np.ndarray
    mins: np.ndarray | None
    maxs: np.ndarray | None
    bounds: np.ndarray | None
    plane: np.ndarray | None


def face_set(world: MapWorld, faces: np.ndarray, keys: np.ndarray | None = None,
             boxes: tuple[np.ndarray, np.ndarray] | None = None, facing: np.ndarray | None = None,
             slots: np.ndarray | None = None) -> FaceSet:
    """The :class:`FaceSet` of ``faces`` (``keys``, ``boxes``, ``facing``: see :func:`ordered_set`; ``slots``:
    ``i8 [D]`` each world draw's group, when draws of several textures share one: textures in one array)."""
    mesh = world.mesh
    draws = _world_draws(world)
    firsts = mesh.face_first[faces].astype(np.int64)
    counts = mesh.face_count[faces].astype(np.int64)
    slot = np.searchsorted(draws["first"].astype(np.int64), firsts, side="right") - 1
    key = np.zeros(len(faces), np.int64) if keys is None else np.asarray(keys)[faces].astype(np.int64)
    texture = draws["texture"].astype(np.int64)[slot]
    if slots is not None:
        slot = slots[slot]
    group = slot * (int(key.max(initial=0)) + 1) + key
    mins = maxs = bounds = None
    if boxes is not None:
        mins, maxs = np.asarray(boxes[0], np.float64)[faces], np.asarray(boxes[1], np.float64)[faces]
        bounds = box_bounds(mins, maxs)
    plane = None if facing is None else facing[faces]
    return FaceSet(faces, firsts, counts, group, texture, key, mins, maxs, bounds, plane)


def ordered_set(world: MapWorld, faces: np.ndarray, keys: np.ndarray | None = None,
                camera=None, boxes: tuple[np.ndarray, np.ndarray] | None = None,
                facing: np.ndarray | None = None) -> VisibleSet:
    """The index list and ranges drawing ``faces`` (world faces with triangles).

    Faces are grouped by texture and then by ``keys[face]`` (small ints, e.g. "needs the multi-style program");
    ``ranges`` rows are (texture, first, count, key). Without ``camera`` the groups follow the static index
    buffer's order; with it, faces within a group are sorted front to back (distance from the camera to the face's
    box, ``boxes`` = :func:`face_boxes`) and the groups by their nearest face, so early depth rejection culls most
    of the overdraw. With ``camera`` and ``facing`` (:func:`face_planes`), the faces the camera sees from behind
    are then dropped, the others keeping their order.
    """
    if camera is not None and boxes is None:
        boxes = face_boxes(world)
    return order_faces(world, face_set(world, faces, keys, boxes, facing), None, camera)


def order_faces(world: MapWorld, found: FaceSet, keep: np.ndarray | None, camera) -> VisibleSet:
    """:func:`ordered_set` of the faces of ``found`` at the positions ``keep`` (``None``: all of them)."""
    sel = np.arange(len(found.faces)) if keep is None else keep
    group = found.group[sel]
    if camera is None or len(sel) == 0:
        order = np.lexsort((found.firsts[sel], group))
        group_sorted = group[order]
        bounds = np.flatnonzero(np.concatenate([[True], group_sorted[1:] != group_sorted[:-1]]))
    else:
        assert found.mins is not None and found.maxs is not None
        dist = box_distances(found.mins[sel], found.maxs[sel], camera)
        by_group = np.lexsort((dist, group))
        group_sorted = group[by_group]
        bounds = np.flatnonzero(np.concatenate([[True], group_sorted[1:] != group_sorted[:-1]]))
        sizes = np.diff(np.concatenate([bounds, [len(sel)]]))
        rank = np.argsort(dist[by_group][bounds], kind="stable")  # groups by their nearest face
        new_sizes = sizes[rank]
        new_bounds = np.concatenate([[0], np.cumsum(new_sizes)[:-1]])
        order = by_group[np.repeat(bounds[rank] - new_bounds, new_sizes) + np.arange(len(sel))]
        bounds = new_bounds
        if found.plane is not None:
            plane = found.plane[sel[order]]
            order = order[plane[:, :3] @ np.asarray(camera, np.float64) - plane[:, 3] >= -BACKFACE_MARGIN]
            group_sorted = group[order]
            bounds = np.flatnonzero(np.concatenate([[True], group_sorted[1:] != group_sorted[:-1]])) \
                if len(order) else np.zeros(0, np.int64)
    at = sel[order]
    firsts, counts = found.firsts[at], found.counts[at]
    starts = np.concatenate([[0], np.cumsum(counts)])
    indices = world.mesh.indices[np.repeat(firsts - starts[:-1], counts) + np.arange(int(starts[-1]))]
    g = at[bounds] if len(order) else np.zeros(0, np.int64)
    ranges = np.stack([found.texture[g], starts[bounds], np.diff(np.concatenate([starts[bounds], [starts[-1]]])),
                       found.key[g]], axis=1) if len(order) else np.zeros((0, 4), np.int64)
    return VisibleSet(indices, ranges)


def visible_set(world: MapWorld, pvs_leafs: np.ndarray, planes: np.ndarray | None, *, keys: np.ndarray | None = None,
                camera=None, boxes: tuple[np.ndarray, np.ndarray] | None = None,
                facing: np.ndarray | None = None) -> VisibleSet:
    """Triangles of world faces in ``pvs_leafs`` (leaf numbers) whose box meets the frustum ``planes``.

    Culls per face box (``boxes``, computed when not given). ``keys`` / ``camera`` / ``facing``: see
    :func:`ordered_set`.
    """
    found = face_set(world, pvs_faces(world, pvs_leafs), keys, boxes if boxes is not None else face_boxes(world),
                     facing)
    return cull_and_order(world, found, planes, camera)


def cull_and_order(world: MapWorld, found: FaceSet, planes: np.ndarray | None, camera) -> VisibleSet:
    """:func:`order_faces` of the faces of ``found`` whose box meets the frustum ``planes``."""
    keep = None
    if planes is not None and len(found.faces):
        assert found.bounds is not None
        keep = np.flatnonzero(bounds_in_frustum(found.bounds, planes))
    return order_faces(world, found, keep, camera)


class WorldVisibility:
    """Per-frame visible sets of one world, caching what only changes with the camera's leaf.

    The PVS face list (and its boxes) is kept per leaf (and area bits); the culled, sorted set is reused while the
    camera's leaf and view-projection matrix are unchanged (a paused or still camera costs nothing). ``drawn``:
    ``bool [F]``, the faces this set may hold (``None``: all; Quake II leaves its translucent and ``SURF_NODRAW``
    faces to other passes); ``slots``: see :func:`face_set`.
    """

    def __init__(self, world: MapWorld, keys: np.ndarray | None = None, drawn: np.ndarray | None = None,
                 slots: np.ndarray | None = None) -> None:
        self.world = world
        self.slots = slots
        self.keys = keys
        self.drawn = drawn
        self.boxes = face_boxes(world)
        self.facing = face_planes(world)
        self._leaf: tuple[int, bytes | None] | None = None
        self._faces = face_set(world, np.zeros(0, np.int64))
        self._point: tuple[float, float, float] | None = None
        self._point_leaf = 0
        self._last: tuple[int, bytes | None, bytes, tuple[float, ...]] | None = None
        self._set = VisibleSet(np.zeros(0, np.uint32), np.zeros((0, 4), np.int64))

    def pvs_leafs(self, leaf: int, areabits: bytes | None = None) -> np.ndarray:
        """Leafs seen from ``leaf``: Quake's PVS (every world leaf from the solid leaf 0), Quake II's by cluster,
        without the leafs of areas ``areabits`` hides."""
        return np.flatnonzero(self.world.leaf_pvs(leaf, areabits))

    def pvs_faces(self, leaf: int, areabits: bytes | None = None) -> FaceSet:
        """The faces of this set in the PVS of ``leaf`` (kept until the leaf or the area bits change)."""
        if (leaf, areabits) != self._leaf:
            self._leaf = (leaf, areabits)
            faces = pvs_faces(self.world, self.pvs_leafs(leaf, areabits))
            self._faces = face_set(self.world, faces if self.drawn is None else faces[self.drawn[faces]], self.keys,
                                   self.boxes, self.facing, self.slots)
        return self._faces

    def leaf(self, camera) -> int:
        """The world leaf holding ``camera`` (the last point asked for is remembered: a frame's passes ask alike)."""
        point = (float(camera[0]), float(camera[1]), float(camera[2]))
        if point != self._point:
            self._point, self._point_leaf = point, int(self.world.point_leaf(camera))
        return self._point_leaf

    def update(self, camera, view_proj: np.ndarray, areabits: bytes | None = None) -> tuple[VisibleSet, bool]:
        """This frame's set and whether it changed since the last call."""
        leaf = self.leaf(camera)
        state = (leaf, areabits, np.asarray(view_proj, np.float32).tobytes(), tuple(float(c) for c in camera))
        if state == self._last:
            return self._set, False
        self.pvs_faces(leaf, areabits)
        self._set = cull_and_order(self.world, self._faces, frustum_planes(view_proj), camera)
        self._last = state
        return self._set, True
