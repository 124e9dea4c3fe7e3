"""Shared-range shapes: small maps and models whose records point at the same data many times (issue 30 class 2).

Each function builds one shape with the writers of ``tests/builders`` (a few hundred KB at most), sized so that
gathering every range would cost gigabytes while the budgets of :mod:`assets_loader.budgets` stop it first. They
are the regression cases of ``tests/test_budgets.py`` and seeds for the map and model fuzzers, whose mutations
then vary the counts and offsets around them.
"""

from __future__ import annotations

import struct

from tests.builders.bsp import BspSpec, assemble, build_lumps
from tests.builders.bsp38 import Bsp38Spec
from tests.builders.bsp38 import assemble as assemble38
from tests.builders.bsp38 import build_lumps as build_lumps38
from tests.builders.bsp46 import Bsp46Spec, build_bsp46, patch_verts, quad_verts, surface
from tests.builders.md3 import build_md3_shared_block

_MST_PLANAR, _MST_PATCH = 1, 2
_BSP29_FACES, _BSP29_TEXINFO, _BSP29_LIGHTING, _BSP29_LEAFS, _BSP29_MARKS, _BSP29_SURFEDGES = 7, 6, 8, 10, 11, 13
_BSP38_LEAFS, _BSP38_LEAFFACES = 8, 9


def bsp46_shared_patches(count: int = 200, side: int = 31) -> bytes:
    """``count`` patch surfaces of ``side × side`` control points, all reusing the same vertices (the shape of
    ``bad-input/bsp46_patch_2000.bsp``)."""
    grid = [[(8.0 * x, 8.0 * y, float((x * y) % 5)) for x in range(side)] for y in range(side)]
    patch = surface(1, _MST_PATCH, 0, side * side, lightmap=0, patch=(side, side))
    return build_bsp46(Bsp46Spec(verts=patch_verts(grid), indexes=[], surfaces=[patch] * count,
                                 leafs=[(0, 0, 1, 0, 0), (1, 0, 1, 0, 1)], leaf_surfaces=[0],
                                 models=[((0, 0, 0), (256, 256, 64), 0, count, 0, 1)]))


def bsp46_shared_indices(count: int = 500, triangles: int = 10_000) -> bytes:
    """``count`` planar surfaces sharing one range of ``3 × triangles`` indices over four vertices."""
    face = surface(0, _MST_PLANAR, 0, 4, 0, 3 * triangles, lightmap=0)
    return build_bsp46(Bsp46Spec(verts=quad_verts(0, 64, 0, 64, 0), indexes=[0, 2, 1] * triangles,
                                 surfaces=[face] * count, leafs=[(0, 0, 1, 0, 0), (1, 0, 1, 0, 1)],
                                 leaf_surfaces=[0], models=[((0, 0, 0), (128, 128, 128), 0, count, 0, 1)]))


def bsp46_shared_leaf_brushes(leafs: int = 500, brushes: int = 10_000) -> bytes:
    """``leafs`` leafs all listing the same ``brushes`` brush references (``CM_LoadMap``'s shape)."""
    return build_bsp46(Bsp46Spec(leafs=[(0, 0, 1, 0, brushes)] * leafs, leaf_brushes=[0] * brushes))


def bsp29_shared_lightmaps(faces: int = 64) -> bytes:
    """``faces`` copies of one 4-style face 4096 units of texture space wide, all reading the same light samples:
    257 × 257 × 4 samples each, within the old "64 × the lighting lump" check."""
    lumps = build_lumps(BspSpec())
    lumps[_BSP29_TEXINFO] = struct.pack("<8fii", 64, 0, 0, 0, 0, 64, 0, 0, 0, 0) * 2
    lumps[_BSP29_FACES] = struct.pack("<hhihh4Bi", 0, 0, 0, 4, 0, 0, 1, 2, 3, 0) * faces
    lumps[_BSP29_LIGHTING] = bytes(257 * 257 * 4)
    lumps[_BSP29_SURFEDGES] += struct.pack("<i", 1) * faces  # unused, so the faces' shared edges stay in bounds
    return assemble("BSP29", lumps)


def bsp29_shared_marksurfaces(leafs: int = 100, marks: int = 65_535) -> bytes:
    """``leafs`` leafs all listing the same ``marks`` marksurfaces (the drawing code's shape)."""
    lumps = build_lumps(BspSpec(visibility=False))
    leaf = struct.pack("<ii3h3hHH4B", -1, -1, 0, 0, 0, 192, 64, 0, 0, marks, 0, 0, 0, 0)
    lumps[_BSP29_LEAFS] = lumps[_BSP29_LEAFS][:28] + leaf * leafs
    lumps[_BSP29_MARKS] = struct.pack("<H", 0) * marks
    return assemble("BSP29", lumps)


def bsp38_shared_leaffaces(leafs: int = 100, faces: int = 65_535) -> bytes:
    """``leafs`` leafs all listing the same ``faces`` leaf faces."""
    lumps = build_lumps38(Bsp38Spec(visibility=False))
    leaf = struct.pack("<ihh3h3hHHHH", 0, -1, 1, 0, 0, 0, 96, 64, 0, 0, faces, 0, 0)
    lumps[_BSP38_LEAFS] = lumps[_BSP38_LEAFS] + leaf * leafs
    lumps[_BSP38_LEAFFACES] = struct.pack("<H", 0) * faces
    return assemble38(lumps)


def md3_shared_block(surfaces: int = 3, frames: int = 512, verts: int = 4096) -> bytes:
    """``surfaces`` surfaces of ``frames × verts`` vertices all reading one block (16 MB of zeros at the
    defaults, which a pk3 stores in a few KB)."""
    return build_md3_shared_block(surfaces, frames, verts)
