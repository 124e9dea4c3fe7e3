"""Which world triangles to draw: the PVS of the camera's leaf, then the view frustum, per leaf box.

Pure numpy on a :class:`WorldMesh` (no GL), so it is unit tested directly. The result is a compacted index
list in the static index buffer's order (faces stay sorted by texture) and, per texture, its slice of it.

References: Quake ``gl_rmain.c`` ``R_MarkLeaves`` (PVS), ``R_SetFrustum``/``R_CullBox`` (frustum), and
``R_RecursiveWorldNode``; Gribb & Hartmann, "Fast Extraction of Viewing Frustum Planes from the
World-View-Projection Matrix" (2001).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assets_loader.bsp import WorldMesh


@dataclass(frozen=True, slots=True)
class VisibleSet:
    """``indices`` u32 [I] to draw; ``ranges`` i8 [R, 3] rows of (texture, first, count) into ``indices``."""

    indices: np.ndarray
    ranges: np.ndarray


def frustum_planes(view_proj: np.ndarray) -> np.ndarray:
    """The left, right, bottom, top and near planes ``f8[5, 4]`` (a, b, c, d; inside where ax + by + cz + d ≥ 0)."""
    m = np.asarray(view_proj, np.float64)
    return np.stack([m[3] + m[0], m[3] - m[0], m[3] + m[1], m[3] - m[1], m[3] + m[2]])


def boxes_in_frustum(mins: np.ndarray, maxs: np.ndarray, planes: np.ndarray) -> np.ndarray:
    """``bool [N]``: boxes ``[N, 3]`` not entirely outside any plane (``R_CullBox``, conservative)."""
    normals = planes[:, :3]
    # For each plane the box corner furthest along its normal ("positive vertex").
    far = np.where(normals[None, :, :] > 0, maxs[:, None, :], mins[:, None, :])
    return ((far * normals[None]).sum(axis=2) + planes[None, :, 3] >= 0).all(axis=1)


def visible_set(world: WorldMesh, pvs_leafs: np.ndarray, planes: np.ndarray | None) -> VisibleSet:
    """Triangles of world faces in ``pvs_leafs`` (leaf numbers) whose leaf box meets the frustum ``planes``."""
    leafs = world.leafs[pvs_leafs]
    if planes is not None and len(leafs):
        keep = boxes_in_frustum(leafs["mins"].astype(np.float64), leafs["maxs"].astype(np.float64), planes)
        leafs = leafs[keep]
    first = leafs["firstmarksurface"].astype(np.int64)
    count = leafs["nummarksurfaces"].astype(np.int64)
    gather = np.repeat(first - np.cumsum(count) + count, count) + np.arange(int(count.sum()))
    faces = np.unique(world.marksurfaces[gather])
    faces = faces[world.faces["model"][faces] == 0]
    mesh = world.mesh
    counts = mesh.face_count[faces].astype(np.int64)
    firsts = mesh.face_first[faces].astype(np.int64)
    keep = counts > 0
    firsts, counts = firsts[keep], counts[keep]
    order = np.argsort(firsts, kind="stable")
    firsts, counts = firsts[order], counts[order]
    starts = np.concatenate([[0], np.cumsum(counts)])
    indices = mesh.indices[np.repeat(firsts - starts[:-1], counts) + np.arange(int(starts[-1]))]
    draws = mesh.draws[mesh.draws["model"] == 0]
    lo = np.searchsorted(firsts, draws["first"].astype(np.int64))
    hi = np.searchsorted(firsts, draws["first"].astype(np.int64) + draws["count"])
    ranges = np.stack([draws["texture"].astype(np.int64), starts[lo], starts[hi] - starts[lo]], axis=1)
    return VisibleSet(indices, ranges[ranges[:, 2] > 0])
