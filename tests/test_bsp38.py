"""Quake II BSP loader: synthetic round trips, one test per bad-input kind, traces, and the real terminal.bsp."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from assets_loader.bsp import BspWorld
from assets_loader.bsp38 import ANIM_FPS, FACE38, World38, load_bsp38
from assets_loader.bsp38 import dtypes as D
from assets_loader.bsp38.trace import point_contents, trace_line
from assets_loader.errors import (
    BadIndexError,
    BadMagicError,
    FormatError,
    TruncatedError,
)
from assets_loader.pak import D_PACKFILE
from assets_loader.vfs import QUAKE2_BASE_GAME, VirtualFS
from tests.builders.bsp38 import (
    Bsp38Spec,
    assemble,
    build_bsp38,
    build_lumps,
    lump_offset,
    sample_rgb,
)
from tests.builders.quake2_images import build_wal
from tests.conftest import QUAKE2 as QUAKE2_DATA

PAK = QUAKE2_DATA / "action" / "aq_terminal.pak"
#: record sizes of qfiles.h, written out here to check the header arithmetic
RECORD_SIZES = {"planes": 20, "vertexes": 12, "nodes": 28, "texinfo": 76, "faces": 20, "leafs": 28, "leaffaces": 2,
                "leafbrushes": 2, "edges": 4, "surfedges": 4, "models": 48, "brushes": 12, "brushsides": 4,
                "areas": 8, "areaportals": 8}


@pytest.fixture(scope="module")
def fs() -> VirtualFS:
    return VirtualFS(QUAKE2_DATA, "action", base=QUAKE2_BASE_GAME)


@pytest.fixture(scope="module")
def terminal(fs: VirtualFS) -> tuple[World38, bytes]:
    data = fs.read("maps/terminal.bsp")
    return load_bsp38(data, "maps/terminal.bsp", fs), data


def _install(tmp_path: Path, textures: dict[str, bytes]) -> VirtualFS:
    for name, data in textures.items():
        path = tmp_path / "baseq2" / "textures" / f"{name}.wal"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return VirtualFS(tmp_path, None, base=QUAKE2_BASE_GAME)


def _with_lump(index: int, lump: bytes, spec: Bsp38Spec | None = None) -> bytes:
    lumps = build_lumps(spec or Bsp38Spec())
    lumps[index] = lump
    return assemble(lumps)


# --- synthetic round trips -------------------------------------------------------------------------------------------

def test_synthetic_geometry_and_draws() -> None:
    w = load_bsp38(build_bsp38(), "unit.bsp")
    assert (w.version, w.num_faces, w.num_leafs, w.num_models, w.num_clusters) == ("IBSP38", 2, 4, 2, 2)
    assert w.mesh.num_triangles == 4 and len(w.mesh.vertices) == 8
    assert w.faces.dtype == FACE38
    # draws: world quad with texinfo 0's texture, submodel quad with texinfo 1's
    assert w.mesh.draws[["model", "texture"]].tolist() == [(0, 0), (1, 1)]
    assert [(s.first_draw, s.num_draws, s.headnode) for s in w.submodels] == [(0, 1, (0,)), (1, 1, (-2,))]
    pos = w.mesh.vertices["position"]
    assert pos[:4].tolist() == [[0, 0, 0], [0, 64, 0], [64, 64, 0], [64, 0, 0]]
    assert pos[4:, 0].min() == 128
    # triangles face +z (counter-clockwise seen from the plane's front)
    tri = pos[w.mesh.indices.reshape(-1, 3)].astype(np.float64)
    normal = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    assert (normal[:, 2] > 0).all()
    assert w.entities[0]["sky"] == "unit1_" and w.worldspawn["classname"] == "worldspawn"


def test_texinfo_flags_values_and_animation_chain() -> None:
    w = load_bsp38(build_bsp38(), "unit.bsp")
    assert [t.name for t in w.textures] == ["test/wall", "test/anim1", "test/anim2", "test/water"]
    assert w.faces["flags"].tolist() == [0, D.SURF_LIGHT]
    assert w.texinfo["value"][w.faces["texinfo"]].tolist() == [0, 300]
    assert w.texinfo_texture.tolist() == [0, 1, 2, 3]
    assert w.textures[1].anim_frames == (1, 2) and w.textures[2].anim_frames == (2, 1)
    assert w.textures[0].anim_frames == () and ANIM_FPS == 2.0


def test_wal_textures_resolve_and_size_the_uv(tmp_path: Path) -> None:
    fs = _install(tmp_path, {"test/wall": build_wal("test/wall", 32, 16, seed=3),
                             "test/anim1": build_wal("test/anim1", 64, 64, next_name="test/anim2")})
    w = load_bsp38(build_bsp38(), "unit.bsp", fs)
    assert w.missing_textures == ("test/anim2", "test/water")
    wall = w.textures[0]
    assert (wall.width, wall.height, wall.is_missing) == (32, 16, False)
    assert wall.mips[0].shape == (16, 32) and int(wall.mips[2][0, 0]) == 5
    assert w.textures[2].is_missing and (w.textures[2].width, w.textures[2].height) == (16, 16)
    uv = w.mesh.vertices["uv"]
    assert uv[2].tolist() == [64 / 32, 64 / 16]      # quad A corner (64, 64) over a 32x16 WAL
    assert uv[6].tolist() == [192 / 64, 64 / 64]     # quad B corner (192, 64) over a 64x64 WAL


def test_rgb_lightmap_styles_in_the_atlas() -> None:
    w = load_bsp38(build_bsp38(), "unit.bsp")
    lm = w.lightmap
    assert lm.num_styles.tolist() == [1, 2]
    assert w.faces["styles"][1].tolist() == [0, 5, 255, 255]
    for face, styles in ((0, 1), (1, 2)):
        x, y, smax, tmax = lm.rects[face].tolist()
        assert (smax, tmax) == (5, 5)
        for k in range(25 * styles):
            style, r = divmod(k, 25)
            t, s = divmod(r, 5)
            assert lm.atlas[y + t, x + style * 5 + s].tolist() == list(sample_rgb(face, k))
    v = w.mesh.vertices
    assert v["styles"][4].tolist() == [0, 5, 255, 255]
    assert np.allclose(v["lm_step"][4], 5 / lm.width)


def test_warped_and_unlit_faces_use_the_white_texel() -> None:
    warped = load_bsp38(build_bsp38(quad_texinfo=(0, 3)), "unit.bsp")
    assert warped.lightmap.num_styles.tolist() == [1, 0]
    assert warped.faces["lightofs"][1] == -1 and warped.faces["flags"][1] == D.SURF_WARP | D.SURF_TRANS33
    wx, wy = warped.lightmap.white
    assert warped.lightmap.rects[1, :2].tolist() == [wx, wy] and warped.lightmap.atlas[wy, wx].tolist() == [255] * 3
    unlit = load_bsp38(build_bsp38(lighting=False), "unit.bsp")
    assert unlit.lightmap.num_styles.tolist() == [0, 0]
    assert (unlit.lightmap.rects[:, :2] == list(unlit.lightmap.white)).all()


def test_pvs_phs_by_cluster_and_leafs() -> None:
    w = load_bsp38(build_bsp38(), "unit.bsp")
    assert w.leafs["cluster"].tolist() == [-1, 0, 1, -1]
    assert w.cluster_pvs(0).tolist() == [True, False] and w.cluster_pvs(1).tolist() == [True, True]
    assert w.cluster_phs(0).tolist() == [True, True]
    assert w.cluster_pvs(-1).tolist() == [True, True]
    assert w.point_leaf((150, 32, 8)) == 1 and w.point_leaf((50, 32, 8)) == 2 and w.point_leaf((110, 32, 8)) == 3
    assert w.leaf_pvs(1).tolist() == [False, True, False, False]
    assert w.leaf_pvs(2).tolist() == [False, True, True, False]
    assert w.leaf_pvs(3).tolist() == [False, True, True, False]  # no cluster: every clustered leaf
    assert w.leaf_faces(1).tolist() == [1] and w.visible_faces(2).tolist() == [0, 1]
    with pytest.raises(BadIndexError):
        w.leaf_pvs(4)
    novis = load_bsp38(build_bsp38(visibility=False), "unit.bsp")
    assert novis.num_clusters == 0 and novis.leaf_pvs(1).tolist() == [False, True, True, False]


def test_areas_portals_and_area_bits() -> None:
    w = load_bsp38(build_bsp38(), "unit.bsp")
    assert w.leafs["area"].tolist() == [0, 1, 2, 0]
    assert w.area_bits(1) == bytes([0b110])
    assert w.area_bits(1, np.array([False, False])) == bytes([0b010])
    assert w.area_bits(2, np.array([False, True])) == bytes([0b110])
    assert w.area_bits(0) == b"\xff"
    # a frame's area bits hide the leafs of the areas it leaves out
    assert w.leaf_pvs(2, areabits=bytes([0b100])).tolist() == [False, False, True, False]
    assert w.visible_faces(2, areabits=bytes([0b010])).tolist() == [1]


def test_brush_traces() -> None:
    w = load_bsp38(build_bsp38(), "unit.bsp")
    assert (w.brushes["contents"].tolist(), w.brushsides["planenum"].tolist()) == ([1], [2, 3, 4, 5, 6, 7])
    hit = trace_line(w, (90, 32, 8), (130, 32, 8))
    assert hit.hit_contents == D.CONTENTS_SOLID and not hit.start_solid
    assert hit.end == pytest.approx((100 - 1 / 32, 32, 8)) and hit.fraction == pytest.approx((10 - 1 / 32) / 40)
    back = trace_line(w, (130, 32, 8), (90, 32, 8))
    assert back.end == pytest.approx((120 + 1 / 32, 32, 8))
    assert trace_line(w, (90, 32, 20), (130, 32, 20)).fraction == 1.0           # passes over the box
    assert trace_line(w, (90, 32, 8), (130, 32, 8), mask=D.CONTENTS_WATER).fraction == 1.0
    out = trace_line(w, (110, 32, 8), (90, 32, 8))
    assert out.start_solid and out.fraction == 1.0
    stuck = trace_line(w, (110, 32, 8), (115, 32, 8))
    assert stuck.start_solid and stuck.fraction == 0.0 and stuck.end == (110, 32, 8)
    assert point_contents(w, (110, 32, 8)) == D.CONTENTS_SOLID and point_contents(w, (50, 32, 8)) == 0


# --- bad input -------------------------------------------------------------------------------------------------------

def test_bad_magic_and_version() -> None:
    data = build_bsp38()
    with pytest.raises(BadMagicError, match="IBSP"):
        load_bsp38(b"XBSP" + data[4:])
    with pytest.raises(BadMagicError, match="version 38"):
        load_bsp38(data[:4] + struct.pack("<i", 46) + data[8:])
    with pytest.raises(TruncatedError):
        load_bsp38(data[:100])


def test_lump_outside_the_file() -> None:
    data = bytearray(build_bsp38())
    struct.pack_into("<ii", data, 8 + 8 * D.LUMP_FACES, len(data) - 4, 40)
    with pytest.raises(TruncatedError, match="faces lump"):
        load_bsp38(bytes(data))


def test_lump_size_not_a_multiple_of_its_record() -> None:
    with pytest.raises(TruncatedError, match="multiple of 76"):
        load_bsp38(_with_lump(D.LUMP_TEXINFO, build_lumps(Bsp38Spec())[D.LUMP_TEXINFO] + b"x"))


@pytest.mark.parametrize(("spec", "needle"), [
    (Bsp38Spec(quad_texinfo=(0, 9)), r"faces\[1\].texinfo below 4"),
    (Bsp38Spec(texinfo=[("a", 0, 0, 5)], quad_texinfo=(0, 0)), r"texinfo\[0\].nexttexinfo -1 or below 1"),
    (Bsp38Spec(texinfo=[("a", 0, 0, 1), ("b", 0, 0, 1)], quad_texinfo=(0, 0)), "animation chain leading back"),
])
def test_bad_texinfo_references(spec: Bsp38Spec, needle: str) -> None:
    with pytest.raises(BadIndexError, match=needle):
        load_bsp38(build_bsp38(spec))


def test_bad_indices_name_the_record() -> None:
    lumps = build_lumps(Bsp38Spec())
    leafs = bytearray(lumps[D.LUMP_LEAFS])
    struct.pack_into("<h", leafs, 28 + 4, 7)            # leaf 1's cluster
    with pytest.raises(BadIndexError, match=r"leafs\[1\].cluster -1 or below 2"):
        load_bsp38(_with_lump(D.LUMP_LEAFS, bytes(leafs)))
    struct.pack_into("<hh", leafs, 28 + 4, 0, 9)        # leaf 1's area
    with pytest.raises(BadIndexError, match=r"leafs\[1\].area below 3"):
        load_bsp38(_with_lump(D.LUMP_LEAFS, bytes(leafs)))
    with pytest.raises(BadIndexError, match="leaffaces"):
        load_bsp38(_with_lump(D.LUMP_LEAFFACES, struct.pack("<2H", 1, 2)))
    with pytest.raises(BadIndexError, match=r"brushes\[0\].firstside"):
        load_bsp38(_with_lump(D.LUMP_BRUSHES, struct.pack("<iii", 3, 6, 1)))
    with pytest.raises(BadIndexError, match=r"areaportals\[1\].otherarea below 3"):
        load_bsp38(_with_lump(D.LUMP_AREAPORTALS, struct.pack("<6i", 0, 0, 1, 5, 1, 1)))
    with pytest.raises(BadIndexError, match="visibility lump"):
        load_bsp38(_with_lump(D.LUMP_VISIBILITY, struct.pack("<i4i", 2, 20, 21, 22, 99) + bytes(4)))
    with pytest.raises(TruncatedError, match="cluster offset pairs"):
        load_bsp38(_with_lump(D.LUMP_VISIBILITY, struct.pack("<i", 1000)))
    with pytest.raises(BadIndexError, match="lighting lump"):
        load_bsp38(_with_lump(D.LUMP_LIGHTING, bytes(100)))


def test_missing_world_model_and_leafs() -> None:
    with pytest.raises(FormatError, match="world"):
        load_bsp38(_with_lump(D.LUMP_MODELS, b""))
    with pytest.raises(FormatError, match="at least one leaf"):
        load_bsp38(_with_lump(D.LUMP_LEAFS, b""))


# --- the real map ----------------------------------------------------------------------------------------------------

def test_pak_entry_count_from_its_header() -> None:
    data = PAK.read_bytes()
    dir_ofs, dir_len = struct.unpack_from("<ii", data, 4)
    assert dir_len // D_PACKFILE.itemsize == 209 and dir_ofs + dir_len <= len(data)


def test_terminal_counts_from_the_header(terminal: tuple[World38, bytes]) -> None:
    w, data = terminal
    count = {name: lump_offset(data, i)[1] // RECORD_SIZES[name]
             for i, name in enumerate(D.LUMP_NAMES) if name in RECORD_SIZES}
    assert data[:4] == b"IBSP" and struct.unpack_from("<i", data, 4)[0] == 38
    assert (len(w.planes), len(w.nodes), len(w.texinfo), w.num_faces, w.num_leafs) == (
        count["planes"], count["nodes"], count["texinfo"], count["faces"], count["leafs"])
    assert (len(w.leaffaces), len(w.leafbrushes), len(w.brushes), len(w.brushsides)) == (
        count["leaffaces"], count["leafbrushes"], count["brushes"], count["brushsides"])
    assert (w.num_models, len(w.areas), len(w.areaportals)) == (count["models"], count["areas"], count["areaportals"])
    vis_ofs, _ = lump_offset(data, D.LUMP_VISIBILITY)
    assert w.num_clusters == struct.unpack_from("<i", data, vis_ofs)[0]
    faces = np.frombuffer(data, [("planenum", "<u2"), ("side", "<i2"), ("firstedge", "<i4"), ("numedges", "<i2"),
                                 ("texinfo", "<i2"), ("styles", "u1", 4), ("lightofs", "<i4")],
                          count["faces"], lump_offset(data, D.LUMP_FACES)[0])
    assert len(w.mesh.vertices) == int(faces["numedges"].sum())
    assert w.mesh.num_triangles == int((faces["numedges"].astype(int) - 2).sum())
    assert int(w.mesh.draws["count"].sum()) == len(w.mesh.indices)
    assert (w.mesh.indices < len(w.mesh.vertices)).all()


def test_terminal_bounds_entities_and_sky(terminal: tuple[World38, bytes]) -> None:
    w, _ = terminal
    mins, maxs = w.bounds
    assert (mins < maxs).all() and (maxs - mins > 256).all() and (np.abs(np.concatenate([mins, maxs])) < 8192).all()
    assert w.worldspawn["sky"] == "wnight" and w.worldspawn["message"].startswith("Terminal")
    starts = [e for e in w.entities if e["classname"] in ("info_player_start", "info_player_deathmatch")]
    assert starts
    for ent in starts:
        origin = [float(v) for v in ent["origin"].split()]
        assert (mins <= origin).all() and (origin <= maxs).all()
        assert not point_contents(w, origin) & D.MASK_SOLID
        leaf = w.point_leaf(origin)
        assert w.leafs["cluster"][leaf] >= 0 and w.leaf_pvs(leaf)[leaf]
        down = trace_line(w, origin, (origin[0], origin[1], origin[2] - 4096))
        assert down.hit_contents & D.CONTENTS_SOLID and 0 < origin[2] - down.end[2] < 64  # standing on a floor


def test_terminal_textures_resolve_as_sources_md_says(terminal: tuple[World38, bytes], fs: VirtualFS) -> None:
    """SOURCES.md: the pak holds all 60 textures the map uses, as 8-bit .wal."""
    w, _ = terminal
    names = {n.split(b"\0", 1)[0].decode().lower() for n in w.texinfo["texture"]}
    assert len(names) == 60 and len(w.textures) == 60
    assert w.missing_textures == () and not any(t.is_missing for t in w.textures)
    assert sorted(f"textures/{n}.wal" for n in names) == fs.list("textures/*.wal")
    assert {t.name.split("/")[0].lower() for t in w.textures} == {"wizardext2", "lundvall", "makro", "wizardext"}


def test_terminal_lightmap_and_surface_flags(terminal: tuple[World38, bytes]) -> None:
    w, data = terminal
    lit_len = lump_offset(data, D.LUMP_LIGHTING)[1]
    lit = w.faces["lightofs"] >= 0
    smax = (w.faces["extents"][:, 0] >> 4) + 1
    tmax = (w.faces["extents"][:, 1] >> 4) + 1
    assert ((w.faces["lightofs"] + 3 * smax * tmax * w.lightmap.num_styles)[lit] <= lit_len).all()
    assert lit.sum() > 0.9 * w.num_faces and 1 <= w.lightmap.num_styles.max() <= 4
    no_lm = (w.faces["flags"] & D.SURF_NO_LIGHTMAP) != 0
    assert no_lm.any() and (w.lightmap.num_styles[no_lm] == 0).all()
    assert ((w.faces["flags"] & D.SURF_SKY) != 0).any() and ((w.faces["flags"] & D.SURF_TRANS33) != 0).any()
    assert 0 < w.lightmap.atlas.mean() < 128


def test_terminal_visibility_culls(terminal: tuple[World38, bytes]) -> None:
    w, _ = terminal
    visible = [int(w.leaf_pvs(leaf).sum()) for leaf in range(0, w.num_leafs, 50) if w.leafs["cluster"][leaf] >= 0]
    clustered = int((w.leafs["cluster"] >= 0).sum())
    assert visible and max(visible) <= clustered and min(visible) < clustered
    phs = w.cluster_phs(0)
    assert phs.shape == (w.num_clusters,) and (phs | ~w.cluster_pvs(0)).all()  # the PHS contains the PVS


def test_terminal_is_drawable_like_a_quake_map(terminal: tuple[World38, bytes]) -> None:
    """The invariants Quake's renderer relies on: draws sorted by (model, texture) and contiguous, lightmap blocks
    inside the atlas and disjoint, lightmap uv inside the atlas."""
    w, _ = terminal
    assert isinstance(w, BspWorld)
    d = w.mesh.draws
    key = d["model"].astype(np.int64) * 1_000_000 + d["texture"]
    assert (np.diff(key) > 0).all() and (d["first"][1:] == (d["first"] + d["count"])[:-1]).all()
    lm = w.lightmap
    n = lm.num_styles.astype(int)
    cover = np.zeros(lm.atlas.shape[:2], np.int32)
    for i in np.flatnonzero(n):
        x, y, smax, tmax = lm.rects[i]
        assert x + smax * n[i] <= lm.width and y + tmax <= lm.height
        cover[y:y + tmax, x:x + smax * n[i]] += 1
    assert cover.max() == 1
    uv = w.mesh.vertices["lm_uv"]
    assert (uv >= 0).all() and (uv <= 1).all()
