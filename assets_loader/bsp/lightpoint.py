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
    """:func:`light_point` for many points of one world: the node tree, planes and faces read into Python lists
    and float64 arrays once, so a trace does no record lookups (the arithmetic is the same numpy operations on
    the same float64 values, so the samples are the same)."""

    def __init__(self, world: BspWorld) -> None:
        self.world = world
        self.headnode = int(world.submodels[0].headnode[0])
        nodes = world.nodes
        self.planenum: list[int] = nodes["planenum"].tolist()
        self.children: list[list[int]] = nodes["children"].tolist()
        self.firstface: list[int] = nodes["firstface"].tolist()
        self.numfaces: list[int] = nodes["numfaces"].tolist()
        self.normals = np.ascontiguousarray(world.planes["normal"], np.float64)
        self.dists: list[float] = world.planes["dist"].tolist()
        faces = world.faces
        self.face_texinfo: list[int] = faces["texinfo"].tolist()
        self.texturemins: list[list[int]] = faces["texturemins"].tolist()
        self.extents: list[list[int]] = faces["extents"].tolist()
        self.styles: list[list[int]] = faces["styles"].tolist()
        self.vecs = np.ascontiguousarray(world.texinfo["vecs"], np.float64)
        self.num_styles: list[int] = world.lightmap.num_styles.tolist()
        self.rects: list[list[int]] = world.lightmap.rects.tolist()

    def sample(self, point) -> LightSample | None:
        """The lightmap sample straight below ``point`` (:func:`light_point`)."""
        start = np.asarray(point, np.float64)
        end = start - (0.0, 0.0, TRACE_DEPTH)
        return self._recursive(self.headnode, start, end)

    def _recursive(self, node: int, start: np.ndarray, end: np.ndarray) -> LightSample | None:
        while node >= 0:
            plane = self.planenum[node]
            normal, dist = self.normals[plane], self.dists[plane]
            front = float(start @ normal) - dist
            back = float(end @ normal) - dist
            side = 1 if front < 0 else 0
            if (back < 0) == (front < 0):
                node = self.children[node][side]
                continue
            mid = start + (end - start) * (front / (front - back))
            hit = self._recursive(self.children[node][side], start, mid)
            if hit is not None:
                return hit
            hit = self._surface_at(self.firstface[node], self.numfaces[node], mid)
            if hit is not None:
                return hit
            start = mid
            node = self.children[node][1 - side]
        return None

    def _surface_at(self, first: int, count: int, point: np.ndarray) -> LightSample | None:
        """The first lightmapped face among ``first..first+count`` whose lightmap covers ``point``."""
        for f in range(first, first + count):
            n = self.num_styles[f]
            if n == 0:
                continue  # sky, liquids and unlit faces carry no lightmap
            vecs = self.vecs[self.face_texinfo[f]]
            mins, extents = self.texturemins[f], self.extents[f]
            ds = int(point @ vecs[0, :3] + vecs[0, 3]) - mins[0]
            dt = int(point @ vecs[1, :3] + vecs[1, 3]) - mins[1]
            if not (0 <= ds <= extents[0] and 0 <= dt <= extents[1]):
                continue
            x, y, smax, _tmax = self.rects[f]
            cols = x + np.arange(n) * smax + (ds >> 4)
            samples = self.world.lightmap.atlas[y + (dt >> 4), cols].astype(np.float32)
            return LightSample(samples, tuple(self.styles[f][:n]), f)
        return None
