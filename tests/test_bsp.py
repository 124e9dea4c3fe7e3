"""BSP loader: real corpus facts, synthetic round trips (BSP29, BSP2, 2PSB) and one test per bad-input kind."""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest

from assets_loader.bsp import (WorldMesh, animated_texture, decompress_vis, load_bsp, parse_entities)
from assets_loader.bsp import dtypes as D
from assets_loader.bsp.lightmap import calc_surface_extents, pack_shelves
from assets_loader.errors import BadIndexError, BadMagicError, FormatError, TruncatedError
from assets_loader.pak import load_pak
from tests.builders.bsp import BspSpec, assemble, build_bsp, build_lit, build_lumps, lump_offset
from tests.conftest import LQ1, QUAKEWORLD

VERSIONS = ["BSP29", "BSP2", "2PSB"]


def _bsp_names(pak_path) -> list[str]:
    if not pak_path.is_file():
        return []
    return [e.name for e in load_pak(pak_path).entries if e.name.endswith(".bsp")]


LQ1_MAPS = _bsp_names(LQ1 / "pak0.pak")
QW_MAPS = _bsp_names(QUAKEWORLD / "id1" / "pak0.pak")


@pytest.fixture(scope="module")
def qw_pak():
    return load_pak(QUAKEWORLD / "id1" / "pak0.pak")


def _load_from_pak(pak, name: str) -> WorldMesh:
    lit_name = name[:-4] + ".lit"
    lit = pak.read(lit_name) if lit_name in pak else None
    return load_bsp(pak.read(name), name, lit=lit)


def _check_world(w: WorldMesh, data: bytes) -> None:
    """Facts every valid map must satisfy."""
    faces = w.faces
    # triangle count = sum(numedges - 2) over faces in some model
    in_model = faces["model"] >= 0
    assert w.mesh.num_triangles == int((faces["numverts"][in_model].astype(int) - 2).clip(0).sum())
    assert len(w.mesh.vertices) == int(faces["numverts"].sum())
    assert w.mesh.indices.dtype == np.uint32 and (w.mesh.indices < len(w.mesh.vertices)).all()
    # every face's lightmap (offset + styles * size) lies inside the lighting lump
    lofs, llen = lump_offset(data, D.LUMP_LIGHTING)
    lit = faces["lightofs"] >= 0
    smax = (faces["extents"][:, 0] >> 4) + 1
    tmax = (faces["extents"][:, 1] >> 4) + 1
    n = w.lightmap.num_styles.astype(int)
    assert ((faces["lightofs"] + smax * tmax * n)[lit] <= llen).all()
    # atlas rects inside the atlas and pairwise disjoint (checked via a coverage count)
    rects = w.lightmap.rects
    cover = np.zeros(w.lightmap.atlas.shape[:2], np.int32)
    for i in np.flatnonzero(n):
        x, y, sm, tm = rects[i]
        assert x + sm * n[i] <= w.lightmap.width and y + tm <= w.lightmap.height
        cover[y:y + tm, x:x + sm * n[i]] += 1
    assert cover.max() <= 1
    # draws: sorted by (model, texture), contiguous, covering every index
    d = w.mesh.draws
    key = d["model"].astype(np.int64) * 1_000_000 + d["texture"]
    assert (np.diff(key) > 0).all()
    assert int(d["count"].sum()) == len(w.mesh.indices)
    assert (d["first"][1:] == (d["first"] + d["count"])[:-1]).all()
    for sm_ in w.submodels:
        assert (d["model"][sm_.first_draw:sm_.first_draw + sm_.num_draws] == sm_.index).all()
    assert all(t.name or t.is_missing for t in w.textures)
    assert w.entities and w.entities[0]["classname"] == "worldspawn"
    # PVS rows decompress to num_leafs booleans
    for leaf in range(0, w.num_leafs, max(1, w.num_leafs // 50)):
        pvs = w.leaf_pvs(leaf)
        assert pvs.shape == (w.num_leafs,) and pvs.dtype == bool and not pvs[0]


@pytest.mark.parametrize("name", LQ1_MAPS)
def test_lq1_maps_load(lq1_pak, name):
    w = _load_from_pak(lq1_pak, name)
    assert w.version == "BSP29"
    _check_world(w, lq1_pak.read(name))
    assert w.lit == (name[:-4] + ".lit" in lq1_pak)


def test_lq1_corpus_is_present():
    assert "maps/lqdm3.bsp" in LQ1_MAPS and "maps/lq_e0m1.bsp" in LQ1_MAPS and len(LQ1_MAPS) >= 13


@pytest.mark.parametrize("name, models", [("maps/lqdm3.bsp", 8), ("maps/lq_e0m1.bsp", 24)])
def test_submodel_counts(lq1_pak, name, models):
    w = _load_from_pak(lq1_pak, name)
    assert w.num_models == models
    assert [s.name for s in w.submodels[:2]] == ["*0", "*1"]
    # each brush entity's "*N" names an existing submodel
    refs = [e["model"] for e in w.entities if e.get("model", "").startswith("*")]
    assert refs and all(int(r[1:]) < models for r in refs)


@pytest.mark.parametrize("name", ["maps/lqdm3.bsp", "maps/lq_e0m1.bsp"])
def test_player_start_is_in_open_leaf(lq1_pak, name):
    w = _load_from_pak(lq1_pak, name)
    starts = [e for e in w.entities if e.get("classname") == "info_player_start"]
    assert starts
    for e in starts:
        origin = [float(x) for x in e["origin"].split()]
        leaf = w.point_leaf(origin)
        assert 0 < leaf < w.num_leafs
        assert w.leafs["contents"][leaf] != D.CONTENTS_SOLID
        pvs = w.leaf_pvs(leaf)
        assert pvs[leaf]  # a leaf sees itself
        assert 0 < pvs.sum() <= w.submodels[0].visleafs
        assert len(w.visible_faces(leaf)) > 0


def test_lit_colours_differ_from_grey(lq1_pak):
    data = lq1_pak.read("maps/lq_e0m1.bsp")
    grey = load_bsp(data, "e0m1")
    lit = load_bsp(data, "e0m1", lit=lq1_pak.read("maps/lq_e0m1.lit"))
    assert grey.lightmap.atlas.shape == lit.lightmap.atlas.shape
    g = grey.lightmap.atlas
    assert (g[..., 0] == g[..., 1]).all() and (g[..., 1] == g[..., 2]).all()
    c = lit.lightmap.atlas
    assert (c[..., 0] != c[..., 2]).any()


def test_atlas_blocks_match_lit_samples(lq1_pak):
    lit = lq1_pak.read("maps/lq_e0m1.lit")
    w = load_bsp(lq1_pak.read("maps/lq_e0m1.bsp"), "e0m1", lit=lit)
    raw = np.frombuffer(lit, np.uint8, offset=8).reshape(-1, 3)
    multi = np.flatnonzero(w.lightmap.num_styles > 1)
    assert len(multi)
    for i in list(multi[:20]) + list(np.flatnonzero(w.lightmap.num_styles == 1)[:20]):
        x, y, sm, tm = w.lightmap.rects[i]
        n = int(w.lightmap.num_styles[i])
        lo = int(w.faces["lightofs"][i])
        blocks = raw[lo:lo + sm * tm * n].reshape(n, tm, sm, 3)
        for k in range(n):
            assert (w.lightmap.atlas[y:y + tm, x + k * sm:x + (k + 1) * sm] == blocks[k]).all()


def test_animated_and_special_textures(lq1_pak):
    w = _load_from_pak(lq1_pak, "maps/lq_e0m1.bsp")
    anim = [t for t in w.textures if t.is_animated]
    assert anim
    for t in anim:
        seq = [w.textures[i].name for i in t.anim_frames]
        assert all(n[2:].lower() == t.name[2:].lower() for n in seq)
    assert any(t.is_sky for t in w.textures)
    assert any(t.liquid == "slime" for t in w.textures) and any(t.liquid == "water" for t in w.textures)
    for t in w.textures:
        assert len(t.mips) == 4
        for i, m in enumerate(t.mips):
            assert m.dtype == np.uint8 and m.shape == (t.height >> i, t.width >> i)


def test_front_faces_are_counter_clockwise(lq1_pak):
    w = _load_from_pak(lq1_pak, "maps/lq_e0m1.bsp")
    v = w.mesh.vertices["position"].astype(np.float64)
    tri = w.mesh.indices.reshape(-1, 3).astype(np.int64)
    cross = np.cross(v[tri[:, 1]] - v[tri[:, 0]], v[tri[:, 2]] - v[tri[:, 0]])
    face = np.searchsorted(w.faces["firstvertex"].astype(np.int64), tri[:, 0], "right") - 1
    normal = w.planes["normal"][w.faces["planenum"][face]] * np.where(w.faces["side"][face] != 0, -1, 1)[:, None]
    dots = (cross * normal).sum(axis=1)
    assert (dots > 1e-6).mean() > 0.99


@pytest.mark.parametrize("name", QW_MAPS)
def test_quakeworld_maps_load(qw_pak, name):
    w = _load_from_pak(qw_pak, name)
    _check_world(w, qw_pak.read(name))


# --- synthetic round trips ---------------------------------------------------------------------------------


@pytest.mark.parametrize("version", VERSIONS)
def test_round_trip(version):
    spec = BspSpec(version=version)
    w = load_bsp(build_bsp(spec), "synthetic.bsp")
    assert w.version == version and w.name == "synthetic.bsp"
    assert w.num_faces == 2 and w.num_leafs == 3 and w.num_models == 2
    assert w.mesh.num_triangles == 4 and len(w.mesh.vertices) == 8
    pos = w.mesh.vertices["position"]
    assert pos[:4].tolist() == [[0, 0, 0], [0, 64, 0], [64, 64, 0], [64, 0, 0]]  # the negative surfedge resolved
    assert (w.mesh.vertices["uv"][:4] == pos[:4, :2] / 16).all()
    # draws: world texture 0, then *1 texture 0
    assert w.mesh.draws.tolist() == [(0, 0, 0, 6), (1, 0, 6, 6)]
    assert (w.submodels[1].first_draw, w.submodels[1].num_draws) == (1, 1)
    assert w.submodels[1].mins == (128.0, 0.0, 0.0)
    # faces point up (+z): counter-clockwise seen from above
    tri = w.mesh.indices[:3]
    a, b, c = pos[tri].astype(float)
    assert np.cross(b - a, c - a)[2] > 0
    # textures: "wall" with 4 mips, then a placeholder for the -1 offset
    wall, missing = w.textures
    assert wall.name == "wall" and (wall.width, wall.height) == (16, 16) and not wall.is_missing
    assert [m.shape for m in wall.mips] == [(16, 16), (8, 8), (4, 4), (2, 2)]
    assert [int(m[0, 0]) for m in wall.mips] == [0, 1, 2, 3]
    assert missing.is_missing and missing.mips[0].shape == (16, 16)
    # lightmap: 5x5 per quad, quad B with two styles side by side
    assert w.faces["extents"].tolist() == [[64, 64], [64, 64]]
    assert w.faces["texturemins"].tolist() == [[0, 0], [128, 0]]
    assert w.lightmap.num_styles.tolist() == [1, 2]
    x, y, sm, tm = w.lightmap.rects[1]
    block = w.lightmap.atlas[y:y + 5, x:x + 10, 0]
    assert block[:, :5].ravel().tolist() == list(range(100, 125))
    assert block[:, 5:].ravel().tolist() == list(range(125, 150))
    v = w.mesh.vertices[4:8]
    assert v["styles"].tolist() == [[0, 2, 255, 255]] * 4
    assert np.allclose(v["lm_step"], 5 / w.lightmap.width)
    # vertex (128,0,0) samples texel centre (x + 0.5, y + 0.5)
    assert np.allclose(v["lm_uv"][0], ((x + 0.5) / w.lightmap.width, (y + 0.5) / w.lightmap.height))
    # PVS and tree walk
    assert w.point_leaf((150, 32, 16)) == 1 and w.point_leaf((10, 32, 16)) == 2
    assert w.leaf_pvs(1).tolist() == [False, True, True]
    assert w.leaf_pvs(2).tolist() == [False, False, True]
    assert w.leaf_faces(1).tolist() == [1]
    assert w.visible_faces(1).tolist() == [0, 1]
    assert [e["classname"] for e in w.entities] == ["worldspawn", "info_player_start", "func_door"]
    assert np.allclose(w.bounds[1], (192, 64, 0))


@pytest.mark.parametrize("version", VERSIONS)
def test_round_trip_lit(version):
    spec = BspSpec(version=version)
    w = load_bsp(build_bsp(spec), lit=build_lit(spec))
    assert w.lit
    x, y, _, _ = w.lightmap.rects[0]
    assert w.lightmap.atlas[y, x].tolist() == [10, 245, 7]


def test_unlit_map_is_white():
    w = load_bsp(build_bsp(lighting=False))
    assert w.lightmap.num_styles.tolist() == [0, 0]
    x, y = w.lightmap.white
    assert w.lightmap.atlas[y, x].tolist() == [255, 255, 255]
    assert w.mesh.vertices["styles"][0].tolist() == [0, 255, 255, 255]


def test_no_visibility_sees_everything():
    w = load_bsp(build_bsp(visibility=False))
    assert w.leaf_pvs(2).tolist() == [False, True, True]


def test_bad_texinfo_miptex_uses_placeholder():
    w = load_bsp(build_bsp(quad_miptex=(0, 7)))
    assert w.textures[-1].is_missing and w.textures[-1].name == "notexture"
    assert w.faces["texture"].tolist() == [0, len(w.textures) - 1]


def test_sky_and_liquid_faces_are_not_lightmapped():
    w = load_bsp(build_bsp(textures=["sky4", "*lava1"], quad_miptex=(0, 1)))
    assert w.textures[0].is_sky and w.textures[1].liquid == "lava"
    assert w.lightmap.num_styles.tolist() == [0, 0]
    x, y = w.lightmap.white
    assert (w.lightmap.rects[:, :2] == (x, y)).all()


def test_animation_chains():
    names = ["+1slip", "+0slip", "+aslip", "wall", "+2slip", "+bslip"]
    w = load_bsp(build_bsp(textures=names))
    primary = (1, 0, 4)
    alternate = (2, 5)
    for i in primary:
        assert w.textures[i].anim_frames == primary and w.textures[i].alt_frames == alternate
    for i in alternate:
        assert w.textures[i].anim_frames == alternate and w.textures[i].alt_frames == primary
    assert not w.textures[3].is_animated
    assert [animated_texture(w.textures, 0, t) for t in (0.0, 0.2, 0.4, 0.6)] == [1, 0, 4, 1]
    assert animated_texture(w.textures, 0, 0.2, alternate=True) == 5
    assert animated_texture(w.textures, 3, 1.0) == 3


def test_animation_gap_is_an_error():
    with pytest.raises(FormatError, match="frame 1"):
        load_bsp(build_bsp(textures=["+0slip", "+2slip"]))


# --- entities, vis, extents, packing -----------------------------------------------------------------------


def test_entities_tolerant_parsing():
    text = (b'// comment\n{ "classname"  "worldspawn" /* block\n comment */ "wad" "a.wad"\n}'
            b'{"a " "1" "a" "2" bare word}\0junk')
    assert parse_entities(text) == [{"classname": "worldspawn", "wad": "a.wad"}, {"a": "2", "bare": "word"}]
    assert parse_entities(b"") == [] and parse_entities(b"  \n\0") == []


@pytest.mark.parametrize("text, err", [
    (b'{ "classname" "worldspawn', TruncatedError),
    (b'{ "classname" "worldspawn"', TruncatedError),
    (b'{ "classname" }', FormatError),
    (b'"classname" "x"', FormatError),
    (b'{ "a" "b" { }', FormatError),
    (b'{ "a" "b" } /* open', TruncatedError),
    (b'{ "lonely" ', TruncatedError),
])
def test_entities_errors(text, err):
    with pytest.raises(err):
        parse_entities(text, "x.bsp", 100)


def test_entity_error_through_loader():
    data = build_bsp(entities='{ "classname" "worldspawn" ')
    with pytest.raises(TruncatedError) as info:
        load_bsp(data, "e.bsp")
    assert info.value.path == "e.bsp" and info.value.offset >= lump_offset(data, D.LUMP_ENTITIES)[0]


def test_decompress_vis_zero_runs():
    # 20 leafs = 3 bytes: 0x05, then a run of one zero byte, then 0x08
    assert np.flatnonzero(decompress_vis(bytes([0x05, 0, 1, 0x08]), 0, 20)).tolist() == [0, 2, 19]
    # a run may overshoot the row, as in the engine
    assert not decompress_vis(bytes([0, 9]), 0, 16).any()
    with pytest.raises(TruncatedError):
        decompress_vis(bytes([0x05]), 0, 20)
    with pytest.raises(TruncatedError):
        decompress_vis(bytes([0x05, 0]), 0, 20)


def _f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


def test_surface_extents_match_engine_arithmetic():
    rng = np.random.default_rng(1)
    pos = rng.uniform(-4096, 4096, (60, 3)).astype(np.float32)
    vecs = rng.uniform(-2, 2, (2, 4)).astype(np.float32)
    st = (pos.astype(np.float64) @ vecs[:, :3].T.astype(np.float64) + vecs[:, 3]).astype(np.float32)
    starts = np.array([0, 10, 30]), np.array([10, 20, 30])
    mins, ext = calc_surface_extents(st, *starts)
    for f, (s0, n) in enumerate(zip(*starts)):
        for j in range(2):
            vals = []
            for p in pos[s0:s0 + n]:
                v = (float(p[0]) * float(vecs[j, 0]) + float(p[1]) * float(vecs[j, 1])
                     + float(p[2]) * float(vecs[j, 2]) + float(vecs[j, 3]))
                vals.append(_f32(v))
            bmin, bmax = math.floor(_f32(min(vals) / 16)), math.ceil(_f32(max(vals) / 16))
            assert mins[f, j] == bmin * 16 and ext[f, j] == (bmax - bmin) * 16


def test_pack_shelves_no_overlap():
    rng = np.random.default_rng(2)
    w, h = rng.integers(1, 40, 300), rng.integers(1, 20, 300)
    xs, ys, W, H = pack_shelves(w, h)
    grid = np.zeros((H, W), np.int32)
    for x, y, a, b in zip(xs, ys, w, h):
        grid[y:y + b, x:x + a] += 1
    assert grid.max() == 1 and W & (W - 1) == 0


# --- bad input: one test per kind ----------------------------------------------------------------------------


def _with_lump(index: int, transform, version: str = "BSP29", **spec) -> bytes:
    lumps = build_lumps(BspSpec(version=version, **spec))
    lumps[index] = transform(lumps[index])
    return assemble(version, lumps)


def _patch(blob: bytes, offset: int, fmt: str, *values) -> bytes:
    out = bytearray(blob)
    struct.pack_into(fmt, out, offset, *values)
    return bytes(out)


def test_bad_magic():
    data = build_bsp()
    with pytest.raises(BadMagicError) as info:
        load_bsp(struct.pack("<i", 30) + data[4:], "m.bsp")
    assert info.value.offset == 0 and info.value.path == "m.bsp"
    with pytest.raises(BadMagicError):
        load_bsp(b"IBSP" + data[4:])


@pytest.mark.parametrize("size", [0, 3, 4, 60, 123])
def test_truncated_header(size):
    with pytest.raises(TruncatedError):
        load_bsp(build_bsp()[:size])


def test_truncated_file():
    data = build_bsp()
    with pytest.raises(TruncatedError):
        load_bsp(data[:-8])


@pytest.mark.parametrize("version", VERSIONS)
def test_lump_outside_file(version):
    data = build_bsp(version=version)
    with pytest.raises(TruncatedError) as info:
        load_bsp(_patch(data, 4 + 8 * D.LUMP_FACES, "<ii", len(data) - 4, 100))
    assert info.value.offset == 4 + 8 * D.LUMP_FACES
    with pytest.raises(TruncatedError):
        load_bsp(_patch(data, 4 + 8 * D.LUMP_EDGES, "<ii", -4, 8))


@pytest.mark.parametrize("lump", [D.LUMP_PLANES, D.LUMP_VERTEXES, D.LUMP_NODES, D.LUMP_TEXINFO, D.LUMP_FACES,
                                  D.LUMP_LEAFS, D.LUMP_EDGES, D.LUMP_SURFEDGES, D.LUMP_MODELS,
                                  D.LUMP_MARKSURFACES])
@pytest.mark.parametrize("version", VERSIONS)
def test_lump_size_not_multiple(lump, version):
    with pytest.raises(TruncatedError, match="multiple"):
        load_bsp(_with_lump(lump, lambda b: b + b"\0", version))


@pytest.mark.parametrize("version", VERSIONS)
def test_edge_vertex_out_of_range(version):
    width = 2 if version == "BSP29" else 4
    fmt = "<H" if width == 2 else "<I"
    with pytest.raises(BadIndexError, match="edges"):
        load_bsp(_with_lump(D.LUMP_EDGES, lambda b: _patch(b, 2 * width, fmt, 9), version))


def test_surfedge_out_of_range():
    with pytest.raises(BadIndexError, match="surfedges"):
        load_bsp(_with_lump(D.LUMP_SURFEDGES, lambda b: _patch(b, 4, "<i", -9)))
    with pytest.raises(BadIndexError):
        load_bsp(_with_lump(D.LUMP_SURFEDGES, lambda b: _patch(b, 4, "<i", -2 ** 31)))


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("field, value", [("texinfo", 5), ("planenum", 2), ("planenum", -1), ("firstedge", 6),
                                          ("numedges", -1), ("lightofs", 60), ("lightofs", -5)])
def test_face_index_out_of_range(version, field, value):
    dtype = D.LAYOUTS[version][0]
    off = dtype.fields[field][1]
    fmt = "<" + dtype.fields[field][0].base.char
    with pytest.raises(BadIndexError, match=field):
        load_bsp(_with_lump(D.LUMP_FACES, lambda b: _patch(b, off, fmt, value), version))


def test_bad_miptex_offsets():
    with pytest.raises(BadIndexError, match="miptex 0"):
        load_bsp(_with_lump(D.LUMP_TEXTURES, lambda b: _patch(b, 4, "<i", 10_000)))
    with pytest.raises(BadIndexError, match="miptex count"):
        load_bsp(_with_lump(D.LUMP_TEXTURES, lambda b: _patch(b, 0, "<i", 1_000_000)))
    with pytest.raises(BadIndexError, match="mip 2"):  # mip level offset past the lump
        load_bsp(_with_lump(D.LUMP_TEXTURES, lambda b: _patch(b, 12 + 16 + 8 + 8, "<I", 100_000)))
    with pytest.raises(FormatError, match="16-aligned"):
        load_bsp(_with_lump(D.LUMP_TEXTURES, lambda b: _patch(b, 12 + 16, "<I", 12)))


@pytest.mark.parametrize("version", VERSIONS)
def test_node_indices_out_of_range(version):
    nt = D.LAYOUTS[version][2]
    with pytest.raises(BadIndexError, match="planenum"):
        load_bsp(_with_lump(D.LUMP_NODES, lambda b: _patch(b, 0, "<i", 2), version))
    child = ("<H", 65000) if version == "BSP29" else ("<i", -50)
    with pytest.raises(BadIndexError, match="children"):
        load_bsp(_with_lump(D.LUMP_NODES, lambda b: _patch(b, nt.fields["children"][1], *child), version))
    with pytest.raises(BadIndexError, match="firstface"):
        fmt = "<" + nt.fields["numfaces"][0].base.char
        load_bsp(_with_lump(D.LUMP_NODES, lambda b: _patch(b, nt.fields["numfaces"][1], fmt, 3), version))


@pytest.mark.parametrize("version", VERSIONS)
def test_model_face_range_out_of_range(version):
    firstface = D.D_MODEL.fields["firstface"][1]
    with pytest.raises(BadIndexError, match="models"):
        load_bsp(_with_lump(D.LUMP_MODELS, lambda b: _patch(b, firstface, "<ii", 1, 5), version))
    headnode = D.D_MODEL.fields["headnode"][1]
    with pytest.raises(BadIndexError, match="headnode"):
        load_bsp(_with_lump(D.LUMP_MODELS, lambda b: _patch(b, headnode, "<i", 4), version))
    with pytest.raises(FormatError, match="at least one model"):
        load_bsp(_with_lump(D.LUMP_MODELS, lambda b: b"", version))


@pytest.mark.parametrize("version", VERSIONS)
def test_leaf_face_list_out_of_range(version):
    lt = D.LAYOUTS[version][3]
    off = lt.itemsize + lt.fields["nummarksurfaces"][1]
    fmt = "<" + lt.fields["nummarksurfaces"][0].base.char
    with pytest.raises(BadIndexError, match="marksurface"):
        load_bsp(_with_lump(D.LUMP_LEAFS, lambda b: _patch(b, off, fmt, 9), version))
    with pytest.raises(BadIndexError, match="visofs"):
        load_bsp(_with_lump(D.LUMP_LEAFS, lambda b: _patch(b, lt.itemsize + 4, "<i", 99), version))
    mfmt = "<H" if version == "BSP29" else "<I"
    with pytest.raises(BadIndexError, match="marksurfaces"):
        load_bsp(_with_lump(D.LUMP_MARKSURFACES, lambda b: _patch(b, 0, mfmt, 2), version))


def test_bad_lit_files():
    spec = BspSpec()
    data = build_bsp(spec)
    lit = build_lit(spec)
    with pytest.raises(BadMagicError):
        load_bsp(data, lit=b"XLIT" + lit[4:])
    with pytest.raises(BadMagicError):
        load_bsp(data, lit=lit[:4] + struct.pack("<i", 2) + lit[8:])
    with pytest.raises(TruncatedError):
        load_bsp(data, lit=lit[:-3])


def test_error_carries_file_offset_and_expectation():
    data = _with_lump(D.LUMP_FACES, lambda b: _patch(b, 20 + 10, "<h", 5))  # face 1 texinfo
    with pytest.raises(BadIndexError) as info:
        load_bsp(data, "faces.bsp")
    err = info.value
    assert err.path == "faces.bsp" and err.fmt == "BSP29"
    assert err.offset == lump_offset(data, D.LUMP_FACES)[0] + 20 + 10
    assert "below 2" in err.expected and err.found == "5"


def test_path_source(tmp_path):
    p = tmp_path / "x.bsp"
    p.write_bytes(build_bsp())
    lit = tmp_path / "x.lit"
    lit.write_bytes(build_lit(BspSpec()))
    w = load_bsp(p, lit=lit)
    assert w.name == str(p) and w.lit


def test_external_wad_texture_keeps_its_size():
    def strip_pixels(lump: bytes) -> bytes:  # miptex 0 header at 12: offsets 0 (pixels in a WAD), size 64x32
        return _patch(lump, 12 + 16, "<II4I", 64, 32, 0, 0, 0, 0)
    w = load_bsp(_with_lump(D.LUMP_TEXTURES, strip_pixels))
    t = w.textures[0]
    assert t.is_missing and t.name == "wall" and (t.width, t.height) == (64, 32)
    assert t.mips[0].shape == (32, 64)
    assert np.allclose(w.mesh.vertices["uv"][2], (64 / 64, 64 / 32))
