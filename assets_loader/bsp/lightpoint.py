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
    """The lightmap sample straight below ``point``, or ``None`` if the trace meets no lightmapped face."""
    start = np.asarray(point, np.float64)
    end = start - (0.0, 0.0, TRACE_DEPTH)
    return _recursive(world, int(world.submodels[0].headnode[0]), start, end)


def _recursive(world: BspWorld, node: int, start: np.ndarray, end: np.ndarray) -> LightSample | None:
    while node >= 0:
        rec = world.nodes[node]
        plane = world.planes[rec["planenum"]]
        normal = plane["normal"].astype(np.float64)
        front = float(start @ normal) - float(plane["dist"])
        back = float(end @ normal) - float(plane["dist"])
        side = 1 if front < 0 else 0
        if (back < 0) == (front < 0):
            node = int(rec["children"][side])
            continue
        mid = start + (end - start) * (front / (front - back))
        hit = _recursive(world, int(rec["children"][side]), start, mid)
        if hit is not None:
            return hit
        hit = _surface_at(world, int(rec["firstface"]), int(rec["numfaces"]), mid)
        if hit is not None:
            return hit
        start = mid
        node = int(rec["children"][1 - side])
    return None


def _surface_at(world: BspWorld, first: int, count: int, point: np.ndarray) -> LightSample | None:
    """The first lightmapped face among ``first..first+count`` whose lightmap covers ``point``."""
    lm = world.lightmap
    for f in range(first, first + count):
        face = world.faces[f]
        n = int(lm.num_styles[f])
        if n == 0:
            continue  # sky, liquids and unlit faces carry no lightmap
        vecs = world.texinfo[face["texinfo"]]["vecs"].astype(np.float64)
        ds = int(point @ vecs[0, :3] + vecs[0, 3]) - int(face["texturemins"][0])
        dt = int(point @ vecs[1, :3] + vecs[1, 3]) - int(face["texturemins"][1])
        if not (0 <= ds <= face["extents"][0] and 0 <= dt <= face["extents"][1]):
            continue
        x, y, smax, _tmax = (int(v) for v in lm.rects[f])
        cols = x + np.arange(n) * smax + (ds >> 4)
        samples = lm.atlas[y + (dt >> 4), cols].astype(np.float32)
        return LightSample(samples, tuple(int(s) for s in face["styles"][:n]), f)
    return None
