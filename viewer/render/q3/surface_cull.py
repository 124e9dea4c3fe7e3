"""Which of a Quake III map's visible surfaces one view draws this frame (``R_CullSurface``): a planar face whose
drawn side looks away from the camera by more than 8 units (``r_facePlaneCull``), and any surface whose box lies
wholly beyond one side of the view, are left out of the frame's index list.

The GL would drop every triangle of them anyway (back faces, or nothing on screen), but only after the driver had
transformed all their vertices on the CPU: in the OpenArena demos they are 70–80 % of the world's indices in the
batches on screen. A face is only tested when all its triangles lie in its plane and face along it, so leaving it
out drops exactly the triangles the rasterizer would have culled; surfaces of batches that are never culled (sky,
deformed vertices, autosprites, portals) always stay. Brush entities are left out by the same box test
(:func:`boxes_off_screen`, ``R_CullLocalBox``).

References: ioquake3 ``renderergl1/tr_world.c`` (``R_CullSurface``: the face plane test with its 8-unit margin;
``R_RecursiveWorldNode``: the view frustum), ``tr_bsp.c`` (``ParseFace``: a face's plane).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from assets_loader.bsp46 import MST_PLANAR, Bsp46World
from assets_loader.q3shaders import Shader
from assets_loader.ranges import range_positions

from ..shaded.dlights import SurfaceBounds
from ..shaded.painter import shader_cull

#: ``R_CullSurface``: "don't cull exactly on the plane" (units).
FACE_EPSILON = 8.0
#: A face's triangles must face along its plane this closely (cosine), and its vertices lie this near it (units),
#: for the plane test to stand for the rasterizer's.
_ALONG = 0.99
_ON_PLANE = 0.5
#: Clip space's ``x - w``, ``-x - w``, ``y - w``, ``-y - w``, ``-z - w`` (a point is past the right, left, top, bottom
#: or near side of the view by their value) and ``w`` itself, as rows to multiply a view-projection matrix by.
_SIDES = np.array([[1, 0, 0, -1], [-1, 0, 0, -1], [0, 1, 0, -1], [0, -1, 0, -1], [0, 0, -1, -1], [0, 0, 0, 1]],
                  np.float64)


def boxes_off_screen(centres: np.ndarray, half: np.ndarray, clip_from: np.ndarray) -> np.ndarray:
    """``b [N]``: which boxes (``centres`` ``f8 [N, 4]`` with ``w`` 1, ``half`` sizes ``f8 [N, 3]``) lie wholly beyond
    one side of the view (left, right, top, bottom or near) that ``clip_from`` maps their space to clip space: each
    side tested at the box's corner nearest to it, with a margin (a thousandth of the largest ``|w|`` over the box,
    plus 0.001) so no pixel the GL would have drawn is lost."""
    sides = _SIDES @ np.asarray(clip_from, np.float64)
    at = centres @ sides.T                                                      # [N, 6] at the centres
    reach = half @ np.abs(sides[:, :3]).T                                       # how far the corners go
    margin = 1e-3 * (np.abs(at[:, 5]) + reach[:, 5]) + 1e-3
    return ((at[:, :5] - reach[:, :5]) > margin[:, None]).any(axis=1)


@dataclass(frozen=True)
class SurfaceCulling:
    """Per map surface: ``side`` ``i1 [S]`` (+1: drawn only from in front of its plane, −1: only from behind it, 0:
    never face-culled), the plane ``normal`` ``f8 [S, 3]`` and ``dist`` ``f8 [S]``, ``boxed`` ``b [S]`` (may be
    left out when off screen) and the box ``mins``/``maxs`` ``f4 [S, 3]``."""

    side: np.ndarray
    normal: np.ndarray
    dist: np.ndarray
    boxed: np.ndarray
    mins: np.ndarray
    maxs: np.ndarray

    @staticmethod
    def of(world: Bsp46World, bounds: SurfaceBounds, shaders: Sequence[Shader],
           cullable: Sequence[bool]) -> SurfaceCulling:
        """The culling data of ``world``'s surfaces; ``shaders`` and ``cullable`` per batch (a batch that is not
        cullable keeps all its surfaces)."""
        surfaces = world.surfaces
        firsts = world.batches["first_index"].astype(np.int64)
        owner = np.clip(np.searchsorted(firsts, surfaces["first_index"].astype(np.int64), side="right") - 1, 0, None)
        boxed = np.zeros(len(surfaces), bool)
        side = np.zeros(len(surfaces), np.int8)
        if len(firsts):
            boxed = np.asarray(cullable, bool)[owner]
            culls = np.array([{"back": 1, "front": -1}.get(shader_cull(s) or "", 0) for s in shaders], np.int8)
            side = np.where(boxed & bounds.planar & _flat(world, bounds), culls[owner], 0).astype(np.int8)
        return SurfaceCulling(side, bounds.normal.astype(np.float64), bounds.dist.astype(np.float64), boxed,
                              bounds.mins, bounds.maxs)

    def listed(self, numbers: np.ndarray) -> ListedSurfaces:
        """What :meth:`ListedSurfaces.kept` needs of surfaces ``numbers`` (a visible list's), gathered once."""
        side = self.side[numbers]
        return ListedSurfaces(*box_centres(self.mins[numbers], self.maxs[numbers]), self.normal[numbers],
                              self.dist[numbers], side == 1, side == -1, self.boxed[numbers])


@dataclass(frozen=True)
class ListedSurfaces:
    """:class:`SurfaceCulling`'s data of the surfaces of one visible list: box ``centres`` ``f8 [N, 4]`` (with
    ``w`` 1) and ``half`` sizes ``f8 [N, 3]``, plane ``normal`` and ``dist``, which are drawn only from in
    ``front`` of their plane or only from ``behind`` it, and which are ``boxed``."""

    centres: np.ndarray
    half: np.ndarray
    normal: np.ndarray
    dist: np.ndarray
    front: np.ndarray
    behind: np.ndarray
    boxed: np.ndarray

    def kept(self, view_proj: np.ndarray, camera, faces: bool = True) -> np.ndarray:
        """``b [N]``: which surfaces the view draws: not wholly off screen in ``view_proj``
        (:func:`boxes_off_screen`) nor, when ``faces``, facing away from ``camera`` by more than
        :data:`FACE_EPSILON`."""
        off = self.boxed & boxes_off_screen(self.centres, self.half, view_proj)
        if faces:
            d = self.normal @ np.asarray(camera, np.float64) - self.dist
            off |= (self.front & (d < -FACE_EPSILON)) | (self.behind & (d > FACE_EPSILON))
        return ~off


def box_centres(mins: np.ndarray, maxs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The centres ``f8 [N, 4]`` (``w`` 1) and half sizes ``f8 [N, 3]`` of boxes ``mins``…``maxs`` (``[N, 3]``)."""
    lo, hi = np.asarray(mins, np.float64), np.asarray(maxs, np.float64)
    return np.concatenate([(lo + hi) / 2, np.ones((len(lo), 1))], axis=1), (hi - lo) / 2


def _flat(world: Bsp46World, bounds: SurfaceBounds) -> np.ndarray:
    """``b [S]``: the planar faces whose every triangle faces the way the rasterizer sees it from in front of their
    plane (q3map2 winds them clockwise from the front: their geometric normal points backwards) and whose vertices
    all lie in it."""
    surfaces = world.surfaces
    count = surfaces["num_indices"].astype(np.int64)
    planar = (surfaces["kind"] == MST_PLANAR) & (count > 0) & (count % 3 == 0)
    n = len(surfaces)
    if not planar.any():
        return np.zeros(n, bool)
    first = surfaces["first_index"].astype(np.int64)[planar]
    used = count[planar]
    index = range_positions(first, used)
    owner = np.repeat(np.flatnonzero(planar), used // 3)
    tri = world.indices[index].reshape(-1, 3)
    pos = world.vertices["position"].astype(np.float64)
    p0, p1, p2 = pos[tri[:, 0]], pos[tri[:, 1]], pos[tri[:, 2]]
    cross = np.cross(p1 - p0, p2 - p0)
    length = np.linalg.norm(cross, axis=1)
    normal = bounds.normal.astype(np.float64)[owner]
    along = np.where(length > 1e-9, -(cross * normal).sum(axis=1) / np.maximum(length, 1e-9), 1.0)
    dist = bounds.dist.astype(np.float64)[owner]
    apart = np.max(np.abs(np.stack([(p * normal).sum(axis=1) - dist for p in (p0, p1, p2)])), axis=0)
    worst_along = np.ones(n)
    worst_apart = np.zeros(n)
    np.minimum.at(worst_along, owner, along)
    np.maximum.at(worst_apart, owner, apart)
    return planar & (worst_along >= _ALONG) & (worst_apart <= _ON_PLANE)
