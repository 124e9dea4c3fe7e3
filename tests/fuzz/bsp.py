"""Fuzz the map loaders: BSP29 and BSP2 (Quake), BSP38 (Quake II), BSP46 (Quake III), meshes included."""

from __future__ import annotations

from assets_loader.bsp import load_bsp
from assets_loader.bsp38 import load_bsp38
from assets_loader.bsp46 import load_bsp46

from . import shared_ranges as shared
from .corpus import AQ_PAK, BAD, LQ1_PAK, OA_PK3, from_pak, from_pk3, whole
from .engine import Target


def _bsp29(data: bytes, name: str) -> object:
    return load_bsp(data, name).mesh.num_triangles


def _bsp38(data: bytes, name: str) -> object:
    return load_bsp38(data, name).mesh.num_triangles


def _bsp46(data: bytes, name: str) -> object:
    world = load_bsp46(data, name)
    return world.visible_surfaces((0.0, 0.0, 0.0))


TARGETS = (
    Target("load_bsp (BSP29, BSP2)", _bsp29,
           lambda: [*from_pak(LQ1_PAK, "maps/b_shell0.bsp", "maps/b_nail0.bsp"), whole(BAD / "bsp2_no_triangles.bsp"),
                    whole(BAD / "min_no_faces.bsp"), ("shared_lightmaps.bsp", shared.bsp29_shared_lightmaps(faces=4)),
                    ("shared_marksurfaces.bsp", shared.bsp29_shared_marksurfaces(leafs=8, marks=4096))]),
    Target("load_bsp38", _bsp38, lambda: [
        *from_pak(AQ_PAK, "maps/terminal.bsp"),
        ("shared_leaffaces.bsp", shared.bsp38_shared_leaffaces(leafs=8, faces=4096))]),
    Target("load_bsp46", _bsp46, lambda: [
        *from_pk3(OA_PK3, "maps/oa_dm1.bsp"), ("shared_patches.bsp", shared.bsp46_shared_patches(count=8, side=9)),
        ("shared_indices.bsp", shared.bsp46_shared_indices(count=8, triangles=512)),
        ("shared_brushes.bsp", shared.bsp46_shared_leaf_brushes(leafs=8, brushes=512))]),
)
