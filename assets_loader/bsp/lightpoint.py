"""The light level under a point, read from the lightmaps the way the engine lights alias models.

A line is traced straight down from the point through the world's node tree; the first lightmapped face it
crosses gives the lightmap sample under the crossing. The caller weights each style's sample by the current
style value, as ``R_LightPoint`` does with ``d_lightstylevalue``.

References: Quake ``gl_rlight.c`` ``R_LightPoint`` / ``RecursiveLightPoint``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # the world's own light_at method calls this module
    from .world import BspWorld

#: How far below the point the trace looks (QuakeSpasm traces 8192 units; the original engine 2048).
TRACE_DEPTH = 8192.0


@dataclass(frozen=True, slots=True)
class LightSample:
    """The lightmap under a point: ``samples`` float32 ``[k, 3]`` (0..255 per style block), ``styles`` the k style
    numbers; ``surface`` the face hit."""

    samples: np.ndarray
    styles: tuple[int, ...]
    surface: int

    def value(self, style_values: np.ndarray) -> np.ndarray:
        """RGB light (0..255 scale, may exceed 255) with the given per-style values (1.0 = normal)."""
        if not self.styles:
            return np.zeros(3, np.float32)
        return (self.samples * np.asarray(style_values)[list(self.styles), None]).sum(axis=0)


def light_point(world: BspWorld, point) -> LightSample | None:
    """The lightmap sample straight below ``point``, or ``None`` if the trace meets no lightmapped face (for many
    points of one world, keep a :class:`LightTracer`)."""
    return LightTracer(world).sample(point)


class LightTracer:
    """:func:`light_point` for many points of one world: each node and face a trace visits is read into a tuple of
    Python numbers once (traces keep to a few), the planes' normals and the texinfo vectors into float64 arrays, so
    a trace does no record lookups; the arithmetic is the same numpy operations on the same float64 values, so the
    samples are the same."""

    def __init__(self, world: BspWorld) -> None:
        self.world = world
        self.headnode = int(world.submodels[0].headnode[0])
        self.normals = np.ascontiguousarray(world.planes["normal"], np.float64)
        self.dists: list[float] = world.planes["dist"].tolist()
        self.vecs = np.ascontiguousarray(world.texinfo["vecs"], np.float64)
        #: node → (plane, front child, back child, first face, face count)
        self._nodes: dict[int, tuple[int, int, int, int, int]] = {}
        #: face → (style count, texinfo, texturemins s, t, extents s, t, styles, lightmap x, y, width)
        self._faces: dict[int, tuple[int, int, int, int, int, int, tuple[int, ...], int, int, int]] = {}

    def sample(self, point) -> LightSample | None:
        """The lightmap sample straight below ``point`` (:func:`light_point`)."""
        start = np.asarray(point, np.float64)
        end = start - (0.0, 0.0, TRACE_DEPTH)
        return self._recursive(self.headnode, start, end)

    def _node(self, node: int) -> tuple[int, int, int, int, int]:
        found = self._nodes.get(node)
        if found is None:
            rec = self.world.nodes[node]
            children = rec["children"]
            found = self._nodes[node] = (int(rec["planenum"]), int(children[0]), int(children[1]),
                                         int(rec["firstface"]), int(rec["numfaces"]))
        return found

    def _face(self, f: int) -> tuple[int, int, int, int, int, int, tuple[int, ...], int, int, int]:
        found = self._faces.get(f)
        if found is None:
            face, lm = self.world.faces[f], self.world.lightmap
            n = int(lm.num_styles[f])
            x, y, smax, _tmax = (int(v) for v in lm.rects[f])
            mins, extents = face["texturemins"], face["extents"]
            found = self._faces[f] = (n, int(face["texinfo"]), int(mins[0]), int(mins[1]), int(extents[0]),
                                      int(extents[1]), tuple(int(s) for s in face["styles"][:n]), x, y, smax)
        return found

    def _recursive(self, node: int, start: np.ndarray, end: np.ndarray) -> LightSample | None:
        while node >= 0:
            plane, front_child, back_child, first, count = self._node(node)
            normal, dist = self.normals[plane], self.dists[plane]
            front = float(start @ normal) - dist
            back = float(end @ normal) - dist
            near, far = (back_child, front_child) if front < 0 else (front_child, back_child)
            if (back < 0) == (front < 0):
                node = near
                continue
            mid = start + (end - start) * (front / (front - back))
            hit = self._recursive(near, start, mid)
            if hit is not None:
                return hit
            hit = self._surface_at(first, count, mid)
            if hit is not None:
                return hit
            start = mid
            node = far
        return None

    def _surface_at(self, first: int, count: int, point: np.ndarray) -> LightSample | None:
        """The first lightmapped face among ``first..first+count`` whose lightmap covers ``point``."""
        for f in range(first, first + count):
            n, texinfo, mins_s, mins_t, extent_s, extent_t, styles, x, y, smax = self._face(f)
            if n == 0:
                continue  # sky, liquids and unlit faces carry no lightmap
            vecs = self.vecs[texinfo]
            ds = int(point @ vecs[0, :3] + vecs[0, 3]) - mins_s
            dt = int(point @ vecs[1, :3] + vecs[1, 3]) - mins_t
            if not (0 <= ds <= extent_s and 0 <= dt <= extent_t):
                continue
            cols = x + np.arange(n) * smax + (ds >> 4)
            samples = self.world.lightmap.atlas[y + (dt >> 4), cols].astype(np.float32)
            return LightSample(samples, styles, f)
        return None
