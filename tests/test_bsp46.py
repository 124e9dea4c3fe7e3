"""Quake III maps: the synthetic builder's map read back field by field, patches without cracks, bad indices as
typed errors, and the real oa_dm1 with counts from its own header."""

from __future__ import annotations

import warnings

import struct

import numpy as np
import pytest

from assets_loader.bsp46 import (
    LIGHTMAP_BY_VERTEX,
    LightGrid,
    MST_FLARE,
    MST_PATCH,
    MST_PLANAR,
    MST_TRIANGLE_SOUP,
    color_shift,
    load_bsp46,
    tessellate,
)
from assets_loader.bsp46.dtypes import CONTENTS_SOLID
from assets_loader.bsp46.materials import load_world_materials
from assets_loader.errors import BadIndexError, BadMagicError, FormatError, TruncatedError
from assets_loader.q3images import ImageLoader
from assets_loader.q3shaders import load_shader_library
from tests.builders.bsp46 import GRID_CELL, LM0_RGB, LM1_RGB, Bsp46Spec, build_bsp46, patch_verts, quad_verts, surface


@pytest.fixture(scope="module")
def world():
    return load_bsp46(build_bsp46(), "test.bsp")


def test_header_checks() -> None:
    data = build_bsp46()
    with pytest.raises(BadMagicError):
        load_bsp46(b"RBSP" + data[4:])
    with pytest.raises(BadMagicError):
        load_bsp46(data[:4] + struct.pack("<i", 47) + data[8:])
    with pytest.raises(TruncatedError):
        load_bsp46(data[:100])


def test_surfaces_and_kinds(world) -> None:
    s = world.surfaces
    assert s["kind"].tolist() == [MST_PLANAR, MST_PATCH, MST_TRIANGLE_SOUP, MST_FLARE, MST_PLANAR]
    assert s["model"].tolist() == [0, 0, 0, 0, 1]
    # Soups and flares find their shader by vertex; planar and patches keep their lightmap.
    assert s["lightmap"].tolist() == [0, 1, LIGHTMAP_BY_VERTEX, LIGHTMAP_BY_VERTEX, 0]
    # Flares and the nodraw quad draw nothing; the patch is 8x8 quads per piece.
    assert s["num_indices"].tolist() == [6, 8 * 8 * 6, 3, 0, 0]
    assert s["num_vertices"][1] == 9 * 9 and s["patch_size"][1].tolist() == [3, 3]
    assert world.shader_names[:2] == ("textures/test/floor", "textures/test/curve")


def test_batches_cover_each_surface_once(world) -> None:
    b = world.batches
    assert [tuple(r) for r in b[["model", "shader", "lightmap", "fog"]].tolist()] == [
        (0, 0, LIGHTMAP_BY_VERTEX, -1), (0, 0, 0, -1), (0, 1, 0, -1)]
    assert b["num_indices"].sum() == len(world.indices)
    assert world.models[0].num_batches == 3 and world.models[1].num_batches == 0
    for s in world.surfaces:
        if s["num_indices"]:
            inside = (b["first_index"] <= s["first_index"]) & (s["first_index"] + s["num_indices"]
                                                               <= b["first_index"] + b["num_indices"])
            assert inside.sum() == 1
    quad = world.surfaces[0]
    tris = world.indices[quad["first_index"]:quad["first_index"] + 6]
    assert world.vertices["position"][tris][:3].tolist() == [[100, 0, 0], [164, 64, 0], [164, 0, 0]]


def test_vertex_colours_and_lightmap_coordinates(world) -> None:
    v = world.vertices
    soup = world.surfaces[2]
    # R_ColorShiftLightingBytes: (64,128,32) << 2 = (256,512,128) → scaled by 255/512.
    assert v["color"][soup["first_vertex"]].tolist() == [127, 255, 63, 255]
    # The quad's lightmap st 0.25 in tile 0 at (0, 0) of a 256-wide atlas (2 maps + white tile → 2x2 tiles).
    atlas = world.lightmaps
    assert atlas.pixels.shape == (256, 256, 4) and atlas.count == 2
    assert v["lightmap"][0].tolist() == [0.125, 0.125]
    # Triangle soups use the white tile.
    wx, wy = atlas.tiles[2]
    assert v["lightmap"][soup["first_vertex"]].tolist() == [(wx + 64) / 256, (wy + 64) / 256]
    assert (atlas.pixels[wy:wy + 128, wx:wx + 128] == 255).all()


def test_lightmap_overbright_shift(world) -> None:
    px = world.lightmaps.pixels
    assert px[5, 5].tolist() == color_shift(np.array(LM0_RGB, np.uint8)).tolist() + [255] == [127, 255, 63, 255]
    assert px[5, 133].tolist() == [40, 80, 120, 255]  # (10,20,30) << 2, no overflow
    assert color_shift(np.array(LM1_RGB, np.uint8), 0).tolist() == list(LM1_RGB)


def test_light_grid(world) -> None:
    grid = world.light_grid
    assert grid.bounds == (3, 3, 2) and grid.origin == (0.0, 0.0, 0.0)
    amb = color_shift(np.array(GRID_CELL[:3], np.uint8)).astype(float)
    directed = color_shift(np.array(GRID_CELL[3:6], np.uint8)).astype(float)
    on_cell = grid.sample((0, 0, 0))
    assert on_cell.ambient == pytest.approx(tuple(amb * 0.6))
    assert on_cell.directed == pytest.approx(tuple(directed))
    assert on_cell.direction == pytest.approx((0.0, 0.0, 1.0))  # latitude 0, longitude 0: straight up
    # Halfway to the black cell (1,1,0): its weight is dropped and the rest renormalised to the same light.
    near_wall = grid.sample((32, 32, 0))
    assert near_wall.ambient == pytest.approx(tuple(amb * 0.6))


def test_a_light_grid_keeps_the_cells_around_a_point_and_samples_as_a_fresh_one(world) -> None:
    grid = world.light_grid
    points = np.random.default_rng(7).uniform(-80, 260, (400, 3))
    for point in points:
        fresh = LightGrid(grid.origin, grid.size, grid.bounds, grid.cells)
        assert grid.sample(point) == fresh.sample(point)      # exact: the same floats in the same order
    assert 0 < len(grid._around) <= int(np.prod(grid.bounds))


@pytest.mark.parametrize("gridsize", ["nan 1 1", "1e-300 1 1", "0 64 128", "-1 2 3"])
def test_unusable_gridsize_means_no_light_grid(gridsize) -> None:
    entities = '{\n"classname" "worldspawn"\n"gridsize" "' + gridsize + '"\n}\n'
    assert load_bsp46(build_bsp46(Bsp46Spec(entities=entities))).light_grid is None


def test_pvs_and_point_leaf(world) -> None:
    assert world.point_leaf((100, 0, 0)) == 0 and world.point_leaf((10, 0, 0)) == 1
    assert world.cluster_pvs(0).tolist() == [True, False]
    assert world.cluster_pvs(1).tolist() == [True, True]
    assert world.cluster_pvs(-1).tolist() == [True, True]
    assert world.visible_surfaces((100, 0, 0)).tolist() == [0]
    assert world.visible_surfaces((10, 0, 0)).tolist() == [0, 1, 2, 3]


def test_without_vis_data_everything_is_visible() -> None:
    world = load_bsp46(build_bsp46(Bsp46Spec(visibility=b"")))
    assert world.num_clusters == 0 and world.visible_surfaces((100, 0, 0)).tolist() == [0, 1, 2, 3]


def test_fog_models_entities(world) -> None:
    (fog,) = world.fogs
    assert (fog.shader, fog.brush, fog.mins, fog.maxs) == ("textures/test/fog", 0, (0, 0, 0), (32, 32, 32))
    assert fog.surface_plane == (0.0, 0.0, -1.0, -32.0)  # the +z side, facing in
    assert world.models[1].mins == (200.0, 0.0, 0.0) and world.models[1].first_surface == 4
    assert world.worldspawn["message"] == "q3 test"
    assert len(world.brushes) == 1 and len(world.brush_sides) == 6


def _shared_edge_map() -> bytes:
    """Two 3x3 patches meeting along x = 64: the second runs its rows the other way and along columns."""
    a = [[(0.0, 0.0, 0.0), (32.0, 0.0, 10.0), (64.0, 0.0, 0.0)],
         [(0.0, 32.0, 7.0), (32.0, 32.0, 30.0), (64.0, 33.0, 13.0)],
         [(0.0, 64.0, 0.0), (32.0, 64.0, 10.0), (64.0, 64.0, 3.0)]]
    edge = [row[2] for row in a]                   # x = 64 column, y increasing
    b = [[edge[2], edge[1], edge[0]],              # first row is the shared edge, reversed
         [(96.0, 64.0, 5.0), (96.0, 30.0, 20.0), (96.0, 0.0, 5.0)],
         [(128.0, 64.0, 0.0), (128.0, 32.0, 1.0), (128.0, 0.0, 0.0)]]
    spec = Bsp46Spec(verts=quad_verts(100, 164, 0, 64, 0) + patch_verts(a) + patch_verts(b),
                     surfaces=[surface(0, 1, 0, 4, 0, 6, lightmap=0), surface(1, 2, 4, 9, lightmap=0, patch=(3, 3)),
                               surface(1, 2, 13, 9, lightmap=0, patch=(3, 3))],
                     indexes=[0, 2, 1, 0, 3, 2], leaf_surfaces=[0, 1, 2, 2],
                     models=[((0, 0, 0), (128, 128, 128), 0, 3, 0, 1)])
    return build_bsp46(spec)


def test_patches_sharing_an_edge_do_not_crack() -> None:
    world = load_bsp46(_shared_edge_map())
    pos = world.vertices["position"]
    s1, s2 = world.surfaces[1], world.surfaces[2]
    p1 = pos[s1["first_vertex"]:s1["first_vertex"] + s1["num_vertices"]]
    p2 = pos[s2["first_vertex"]:s2["first_vertex"] + s2["num_vertices"]]
    edge1 = {tuple(p) for p in p1[p1[:, 0] == 64.0]}
    edge2 = {tuple(p) for p in p2[p2[:, 0] == 64.0]}
    assert len(edge1) == 9 and edge1 == edge2
    # Bit-identical, not just close: the edge is a curve (z varies), so this is not trivially true.
    assert len({p[2] for p in edge1}) > 3


def test_tessellation_interpolates_corners_and_is_watertight_inside() -> None:
    control = np.array([[x, y, (x * y) % 7] for y in range(5) for x in range(3)], np.float64)
    values, tris = tessellate(control, 3, 5, level=4)
    assert values.shape == (9 * 5, 3) and tris.shape == (8 * 4 * 2, 3)
    grid = values.reshape(9, 5, 3)
    assert grid[0, 0].tolist() == control[0].tolist() and grid[-1, -1].tolist() == control[-1].tolist()
    # Every interior edge is shared by exactly two triangles: no gaps between the two pieces.
    edges: dict[tuple[int, int], int] = {}
    for t in tris:
        for a, b in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0])):
            key = (int(min(a, b)), int(max(a, b)))
            edges[key] = edges.get(key, 0) + 1
    assert set(edges.values()) == {1, 2}
    assert sum(v == 1 for v in edges.values()) == 2 * (4 + 8)


def test_patch_winding_matches_faces(world) -> None:
    """Faces are clockwise seen from the side their normal faces; tessellated patches are wound the same way."""
    v = world.vertices
    for s in world.surfaces[:2]:
        t = world.indices[s["first_index"]:s["first_index"] + 3]
        a, b, c = v["position"][t]
        assert np.dot(np.cross(b - a, c - a), v["normal"][t[0]]) < 0


@pytest.mark.parametrize("change, error", [
    ({"indexes": [0, 1, 9, 0, 2, 3, 0, 1, 2]}, "an index below surface 0"),
    ({"leaf_surfaces": [0, 1, 2, 7]}, "below 5 surfaces"),
    ({"nodes": [(0, -1, -3)]}, "children"),
    ({"nodes": [(9, -1, -2)]}, "planeNum"),
    ({"brush_sides": [(99, 3)] * 6}, "planeNum"),
    ({"fogs": [("f", 5, 0)]}, "brushNum"),
    ({"visibility": struct.pack("<ii", 2, 1) + b"\x01"}, "cluster visibility"),
])
def test_bad_indices_are_typed_errors(change, error) -> None:
    with pytest.raises(FormatError, match=error):
        load_bsp46(build_bsp46(Bsp46Spec(**change)), "bad.bsp")


def test_bad_patch_size() -> None:
    spec = Bsp46Spec()
    spec.surfaces[1] = surface(1, 2, 4, 9, lightmap=1, patch=(2, 3))
    with pytest.raises(BadIndexError, match="odd sizes"):
        load_bsp46(build_bsp46(spec))


def test_oa_dm1_counts_match_its_header(q3_fs) -> None:
    data = q3_fs.read("maps/oa_dm1.bsp")
    lumps = np.frombuffer(data, "<i4", 34, 8).reshape(17, 2)
    count = {name: int(lumps[i, 1]) // size for i, (name, size) in enumerate([
        ("entities", 1), ("shaders", 72), ("planes", 16), ("nodes", 36), ("leafs", 48), ("leafsurfaces", 4),
        ("leafbrushes", 4), ("models", 40), ("brushes", 12), ("brushsides", 8), ("drawverts", 44),
        ("drawindexes", 4), ("fogs", 72), ("surfaces", 104), ("lightmaps", 128 * 128 * 3), ("lightgrid", 8),
        ("visibility", 1)])}
    world = load_bsp46(data, "maps/oa_dm1.bsp")
    assert len(world.shader_names) == count["shaders"] == 44
    assert len(world.planes) == count["planes"] and len(world.nodes) == count["nodes"]
    assert len(world.leafs) == count["leafs"] and len(world.leaf_surfaces) == count["leafsurfaces"]
    assert len(world.models) == count["models"] == 9 and len(world.brushes) == count["brushes"]
    assert len(world.surfaces) == count["surfaces"] == 902 and len(world.fogs) == count["fogs"] == 1
    assert world.lightmaps.count == count["lightmaps"] == 14
    grid = world.light_grid
    assert grid is not None and int(np.prod(grid.bounds)) == count["lightgrid"]
    vis_header = np.frombuffer(data, "<i4", 2, int(lumps[16, 0]))
    assert world.num_clusters == vis_header[0] and world.cluster_bytes == vis_header[1]
    kinds = np.bincount(world.surfaces["kind"], minlength=5)
    assert kinds[MST_PLANAR] + kinds[MST_TRIANGLE_SOUP] + kinds[MST_FLARE] + kinds[MST_PATCH] == 902
    # Without patches every planar/soup index of the file is kept.
    drawn = (world.surfaces["kind"] == MST_PLANAR) | (world.surfaces["kind"] == MST_TRIANGLE_SOUP)
    raw = np.frombuffer(data, "<i4", count["surfaces"] * 26, int(lumps[13, 0])).reshape(-1, 26)
    nodraw = (world.shaders["surfaceFlags"][raw[:, 0]] & 0x80) != 0
    assert len(world.indices) == int(raw[drawn & ~nodraw, 6].sum())
    start = world.entities[1]
    assert start["classname"] == "info_player_deathmatch"
    leaf = world.point_leaf([float(v) for v in start["origin"].split()])
    assert world.leafs["cluster"][leaf] >= 0
    light = grid.sample([float(v) for v in start["origin"].split()])
    assert max(light.ambient) > 0 and max(light.directed) > 0


def test_oa_dm1_materials_resolve(q3_fs) -> None:
    world = load_bsp46(q3_fs.read("maps/oa_dm1.bsp"), "maps/oa_dm1.bsp")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        library = load_shader_library(q3_fs)
        mats = load_world_materials(world, library, ImageLoader(q3_fs))
    # shaders are parsed when used: the menu shader with an unknown blend is not, so nothing warns
    assert not caught
    assert len(mats.shaders) == len(world.batches)
    assert mats.missing == ()  # SOURCES.md: every image the map draws with is in the pk3
    lava = [s for s in mats.shaders if s.name == "textures/liquids/lavahell"]
    assert lava and lava[0].explicit and lava[0].fog is not None
    plain = [s for s in mats.shaders if not s.explicit]
    assert plain and all(s.stages[0].images == ("$lightmap",) or s.stages[0].rgb_gen == "exactvertex" for s in plain)
    for img in mats.images.values():
        assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 4


def test_oa_dm1_brush_trace_stops_at_walls(q3_fs) -> None:
    """``collision``: lines from the player starts stop at solid brushes in every direction (none escapes the map),
    the stop point is outside every solid brush, and a short line in the open goes through."""
    world = load_bsp46(q3_fs.read("maps/oa_dm1.bsp"), "maps/oa_dm1.bsp")
    tree = world.collision
    starts = [np.array([float(v) for v in e["origin"].split()]) + (0, 0, 26) for e in world.entities
              if e.get("classname") == "info_player_deathmatch"]
    assert starts
    mins, maxs = world.bounds
    for eye in starts:
        assert tree.trace_line(eye, eye + (0, 0, 4), CONTENTS_SOLID).fraction == 1.0
        for yaw in range(0, 360, 45):
            for pitch in (-60.0, 0.0, 60.0):
                p, y = np.radians(pitch), np.radians(yaw)
                end = eye + 20000.0 * np.array([np.cos(p) * np.cos(y), np.cos(p) * np.sin(y), -np.sin(p)])
                tr = tree.trace_line(eye, end, CONTENTS_SOLID)
                assert tr.fraction < 1.0 and tr.hit_contents & CONTENTS_SOLID and not tr.start_solid
                assert np.all(np.array(tr.end) >= mins - 1) and np.all(np.array(tr.end) <= maxs + 1)
                assert tree.trace_line(eye, tr.end, CONTENTS_SOLID).fraction == 1.0
