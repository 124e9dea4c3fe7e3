"""Quake II models: MD2 (frames, texture coordinates, skins, Quake-style pose picking) and SP2 sprites, from tiny
builders and from every model of the real pak."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from assets_loader.errors import BadIndexError, BadMagicError, TruncatedError
from assets_loader.models import AliasModel, load_mdl
from assets_loader.models.md2 import load_md2, load_md2_skins
from assets_loader.models.md3 import load_md3
from assets_loader.models.sp2 import load_sp2
from assets_loader.pcx import load_pcx
from assets_loader.vfs import QUAKE2_BASE_GAME, VirtualFS
from tests.builders.models import build_mdl
from tests.builders.quake2_images import build_pcx
from tests.builders.quake2_models import Md2Spec, build_md2, build_sp2, default_md2
from tests.conftest import QUAKE2 as QUAKE2_DATA


@pytest.fixture(scope="module")
def fs() -> VirtualFS:
    return VirtualFS(QUAKE2_DATA, "action", base=QUAKE2_BASE_GAME)


# --- MD2 from the builder --------------------------------------------------------------------------------------------

def test_md2_round_trip() -> None:
    spec = default_md2()
    m = load_md2(build_md2(spec), "t.md2")
    assert (m.version, m.skin_width, m.skin_height, m.num_verts, m.num_tris, m.num_glcmds) == (8, 8, 4, 3, 2, 1)
    assert m.skin_names == ("models/test/skin.pcx",)
    assert m.num_frames == m.num_poses == 2 and m.pose_names == ("stand01", "stand02")
    for i, (_name, scale, translate, verts) in enumerate(spec.frames):
        expected = verts[:, :3].astype(np.float32) * np.float32(scale) + np.float32(translate)
        assert np.array_equal(m.positions[i], expected)
        assert np.array_equal(m.normals[i], verts[:, 3])
        assert np.array_equal(m.frame_scale[i], np.float32(scale))
        assert np.array_equal(m.pose_bbox_min[i], expected.min(axis=0))
    assert m.triangles.tolist() == [[0, 1, 2], [2, 1, 0]] and m.triangle_st.tolist() == [[0, 1, 2], [3, 1, 0]]


def test_md2_mesh_splits_corners_with_two_texture_coordinates() -> None:
    m = load_md2(build_md2(), "t.md2")
    mesh = m.mesh
    assert len(mesh.vertex_index) == 4  # vertex 2 is used with st 2 and st 3
    corners = mesh.indices.astype(int)
    assert np.array_equal(mesh.vertex_index[corners], m.triangles)
    assert np.allclose(mesh.uv[corners], m.st[m.triangle_st] / (8, 4))
    assert mesh.uv[corners[1, 0]].tolist() == [1.0, 1.0]  # st (8, 4) on an 8x4 skin


def test_md2_poses_read_like_quake_alias_models() -> None:
    """A renderer reads the same fields with the same shapes from both and picks poses the same way."""
    md2 = load_md2(build_md2(), "t.md2")
    mdl: AliasModel = load_mdl(build_mdl())
    for field in ("positions", "normals", "pose_bbox_min"):
        a, b = getattr(md2, field), getattr(mdl, field)
        assert a.dtype == b.dtype and a.ndim == b.ndim
    for field in ("vertex_index", "uv", "indices"):
        assert getattr(md2.mesh, field).dtype == getattr(mdl.mesh, field).dtype
    for frame in range(-1, 4):
        assert md2.pose_at(frame, 12.3) == mdl.pose_at(frame, 12.3) == (frame if 0 <= frame < 2 else 0)
    assert [f.num_poses for f in md2.frames] == [1, 1] and not any(f.is_group for f in md2.frames)


def test_md2_bad_input() -> None:
    with pytest.raises(BadMagicError, match="IDP2"):
        load_md2(build_md2(Md2Spec(ident=b"IDPO", frames=default_md2().frames)))
    with pytest.raises(BadMagicError, match="MD3"):
        load_md2(b"IDP3" + bytes(200))
    with pytest.raises(BadMagicError, match="version 8"):
        load_md2(build_md2(Md2Spec(version=7, frames=default_md2().frames)))
    with pytest.raises(TruncatedError):
        load_md2(build_md2()[:40])
    with pytest.raises(BadIndexError, match="index_st below 4"):
        load_md2(build_md2(Md2Spec(triangles=[(0, 1, 2, 0, 1, 9)], frames=default_md2().frames)))
    with pytest.raises(BadIndexError, match="index_xyz below 3"):
        load_md2(build_md2(Md2Spec(triangles=[(0, 1, -1, 0, 1, 2)], frames=default_md2().frames)))
    with pytest.raises(BadIndexError, match="frames"):
        load_md2(build_md2()[:-30])
    small = bytearray(build_md2())
    struct.pack_into("<i", small, 16, 20)
    with pytest.raises(BadIndexError, match="frame size"):
        load_md2(bytes(small))
    many = bytearray(build_md2())
    struct.pack_into("<i", many, 24, 5000)
    with pytest.raises(BadIndexError, match="vertex count"):
        load_md2(bytes(many))


def test_md2_frame_padding_is_skipped() -> None:
    spec = default_md2(frame_padding=12)
    m = load_md2(build_md2(spec), "t.md2")
    assert np.array_equal(m.normals[1], spec.frames[1][3][:, 3])


def test_md2_skins_from_a_game_dir(tmp_path: Path) -> None:
    skin = (np.arange(8 * 16).reshape(8, 16) % 256).astype(np.uint8)
    path = tmp_path / "baseq2" / "models" / "test" / "skin.pcx"
    path.parent.mkdir(parents=True)
    path.write_bytes(build_pcx(skin))
    fs = VirtualFS(tmp_path, None, base=QUAKE2_BASE_GAME)
    spec = default_md2(skins=["models/test/skin.pcx", "models/test/gone.pcx"])
    skins = load_md2_skins(load_md2(build_md2(spec)), fs)
    images = skins.indices
    assert images.shape == (2, 4, 8) and skins.missing == ("models/test/gone.pcx",)
    assert skins.truecolor == (None, None)
    assert np.array_equal(images[0], skin[::2, ::2])  # a 16x8 skin resampled to the header's 8x4
    assert set(np.unique(images[1]).tolist()) == {0, 15}
    bare = load_md2_skins(load_md2(build_md2(default_md2(skins=[]))), fs)
    assert bare.indices.shape == (1, 4, 8) and bare.missing == ()


def test_md2_skins_in_truecolour_or_under_another_extension(tmp_path: Path) -> None:
    skin = (np.arange(4 * 8).reshape(4, 8) % 256).astype(np.uint8)
    folder = tmp_path / "baseq2" / "models" / "test"
    folder.mkdir(parents=True)
    (folder / "skin.pcx").write_bytes(build_pcx(skin))
    red = np.zeros((8, 16, 3), np.uint8)
    red[..., 0] = 200
    Image.fromarray(red).save(folder / "red.tga")
    fs = VirtualFS(tmp_path, None, base=QUAKE2_BASE_GAME)
    spec = default_md2(skins=["models/test/skin.tga", "models/test/red.pcx", "models/test/red.tga"])
    skins = load_md2_skins(load_md2(build_md2(spec)), fs)
    assert skins.missing == ()
    assert np.array_equal(skins.indices[0], skin) and skins.truecolor[0] is None   # the .tga name found as .pcx
    for rgba in skins.truecolor[1:]:                                              # the .pcx name found as .tga
        assert rgba is not None and rgba.shape == (4, 8, 4)
        assert (rgba[..., 0] == 200).all() and (rgba[..., 1:3] == 0).all() and (rgba[..., 3] == 255).all()


# --- SP2 -------------------------------------------------------------------------------------------------------------

def test_sp2_round_trip_and_frame_placement() -> None:
    s = load_sp2(build_sp2([("sprites/a.pcx", 32, 16, 8, 4), ("sprites/b.pcx", 16, 16, 16, 16)]), "t.sp2")
    assert s.num_frames == 2 and s.version == 2
    a = s.frames[0]
    assert (a.name, a.width, a.height) == ("sprites/a.pcx", 32, 16)
    assert (a.left, a.right, a.down, a.up) == (-8, 24, -4, 12)
    assert s.frame_at(3) is s.frames[1] and s.frame_at(-2) is s.frames[0]


def test_sp2_bad_input() -> None:
    with pytest.raises(BadMagicError, match="IDS2"):
        load_sp2(build_sp2([("a", 1, 1, 0, 0)], ident=b"IDSP"))
    with pytest.raises(BadMagicError, match="version 2"):
        load_sp2(build_sp2([("a", 1, 1, 0, 0)], version=1))
    with pytest.raises(BadIndexError, match="at least one frame"):
        load_sp2(build_sp2([]))
    with pytest.raises(TruncatedError):
        load_sp2(build_sp2([("a", 1, 1, 0, 0)] * 3)[:-10])
    with pytest.raises(BadIndexError, match="width"):
        load_sp2(build_sp2([("a", -1, 1, 0, 0)]))


# --- the real pak ----------------------------------------------------------------------------------------------------

def test_every_md2_of_the_pak_loads(fs: VirtualFS) -> None:
    """Some AQtion ``tris.md2`` files are Quake III MD3 models (``IDP3``) under an .md2 name: the MD2 loader names
    them, the MD3 loader reads them (Q2PRO picks the loader by magic)."""
    loaded = md3 = 0
    for name in fs.list("*.md2"):
        data = fs.read(name)
        if data[:4] == b"IDP3":
            with pytest.raises(BadMagicError, match="MD3"):
                load_md2(data, name)
            assert load_md3(data, name).num_frames >= 1
            md3 += 1
            continue
        m = load_md2(data, name)
        loaded += 1
        assert m.positions.shape == (m.num_frames, m.num_verts, 3) and np.isfinite(m.positions).all()
        assert (m.mesh.uv >= -0.01).all() and (m.mesh.uv <= 1.01).all()
        skins = load_md2_skins(m, fs)
        assert skins.indices.shape[1:] == (m.skin_height, m.skin_width)
        assert set(skins.missing) == {n for n in m.skin_names if fs.find_image(n) is None}
    assert loaded >= 30 and md3 >= 1 and loaded + md3 == len(fs.list("*.md2"))


def test_player_models_have_the_198_standard_frames(fs: VirtualFS) -> None:
    for name in ("players/sydney/tris.md2", "players/male/tris.md2"):
        m = load_md2(fs.read(name), name)
        assert m.num_frames == 198 and len(set(m.pose_names)) == 198
    sydney = load_pcx(fs.read("players/sydney/sydney.pcx"), "sydney.pcx")
    assert sydney.width > 64 and sydney.height > 64


def test_every_sp2_of_the_pak_loads_with_its_pictures(fs: VirtualFS) -> None:
    names = fs.list("*.sp2")
    assert names  # SOURCES.md says there are none, but the pak holds sprites/lsight.sp2 and sprites/null.sp2
    for name in names:
        sprite = load_sp2(fs.read(name), name)
        for frame in sprite.frames:
            pic = load_pcx(fs.read(frame.name), frame.name)
            assert (pic.width, pic.height) == (frame.width, frame.height)

