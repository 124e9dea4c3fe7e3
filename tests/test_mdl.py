"""Alias models: synthetic round trips, the on-seam fix, groups, typed errors, and the real corpus."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from assets_loader.errors import BadIndexError, BadMagicError, TruncatedError
from assets_loader.models import ANORMS, EF_ROCKET, EF_ROTATE, AliasModel, load_mdl, normal_vectors
from assets_loader.pak import load_pak
from tests.builders.models import build_mdl, default_spec, simple_verts
from tests.conftest import QUAKEWORLD

HEADER = 84


def test_round_trip_header_and_geometry():
    spec = default_spec(flags=EF_ROTATE | EF_ROCKET, synctype=1)
    m = load_mdl(build_mdl(spec), name="tiny.mdl")
    assert isinstance(m, AliasModel) and m.path == "tiny.mdl" and m.version == 6
    assert (m.num_verts, m.num_tris, m.num_frames, m.num_poses) == (3, 2, 2, 2)
    assert (m.skin_width, m.skin_height) == (8, 4)
    assert m.scale.tolist() == [0.5, 0.25, 2.0] and m.origin.tolist() == [-10.0, 0.0, 5.0]
    assert m.eye_position.tolist() == [0.0, 0.0, 22.0] and m.bounding_radius == 12.0 and m.size == 3.0
    assert m.has_flag(EF_ROTATE) and m.has_flag(EF_ROCKET) and m.synctype == 1
    assert m.st.tolist() == [[0, 0], [0, 3], [7, 3]] and m.onseam.tolist() == [False, True, False]
    assert m.triangles.tolist() == [[0, 1, 2], [0, 2, 1]] and m.faces_front.tolist() == [True, False]
    assert m.skin_images.shape == (1, 4, 8) and (m.skin_images == 5).all()
    assert m.pose_names == ("stand1", "stand2") and m.frames[1].name == "stand2"


def test_positions_are_scale_times_packed_plus_origin():
    spec = default_spec()
    m = load_mdl(build_mdl(spec))
    packed = simple_verts(3, 1)
    assert m.positions.shape == (2, 3, 3) and m.positions.dtype == np.float32
    expect = packed[:, :3] * np.array(spec.scale, np.float32) + np.array(spec.origin, np.float32)
    assert np.allclose(m.positions[1], expect)
    assert (m.normals[1] == packed[:, 3]).all() and m.normals.dtype == np.uint8
    assert np.allclose(m.pose_bbox_min[1], expect.min(axis=0)) and np.allclose(m.pose_bbox_max[1], expect.max(axis=0))
    assert np.allclose(m.frames[1].bbox_max, expect.max(axis=0))


def test_on_seam_fix_splits_back_facing_seam_vertices():
    m = load_mdl(build_mdl(default_spec()))
    mesh = m.mesh
    # vertex 1 is on the seam and used by a front (tri 0) and a back (tri 1) triangle → two mesh vertices
    assert len(mesh.vertex_index) == 4
    assert mesh.indices.shape == (2, 3) and mesh.indices.dtype == np.uint32
    corners = mesh.vertex_index[mesh.indices]
    assert corners.tolist() == m.triangles.tolist()
    front_uv = mesh.uv[mesh.indices[0, 1]]
    back_uv = mesh.uv[mesh.indices[1, 2]]
    assert np.allclose(front_uv, [(0 + 0.5) / 8, (3 + 0.5) / 4])
    assert np.allclose(back_uv, [(0 + 4 + 0.5) / 8, (3 + 0.5) / 4])   # s + skinwidth/2
    # a vertex that is not on the seam is shared by both triangles
    assert mesh.indices[0, 0] == mesh.indices[1, 0]


def test_skin_groups_and_frame_groups_flatten():
    spec = default_spec()
    a, b = np.full((4, 8), 1, np.uint8), np.full((4, 8), 2, np.uint8)
    spec.skins = [np.zeros((4, 8), np.uint8), ([0.25, 0.5], [a, b])]
    spec.frames = [("base", simple_verts(3, 0)),
                   ([0.1, 0.2, 0.4], [("run1", simple_verts(3, 1)), ("run2", simple_verts(3, 2)),
                                      ("run3", simple_verts(3, 3))])]
    m = load_mdl(build_mdl(spec))
    assert m.skin_images.shape == (3, 4, 8)
    assert not m.skins[0].is_group and m.skins[1].is_group and (m.skins[1].first, m.skins[1].count) == (1, 2)
    assert m.skin_image_at(1, 0.1) == 1 and m.skin_image_at(1, 0.3) == 2 and m.skin_image_at(1, 0.6) == 1
    assert m.num_frames == 2 and m.num_poses == 4
    g = m.frames[1]
    assert g.is_group and (g.first_pose, g.num_poses, g.name) == (1, 3, "run1")
    assert g.intervals.tolist() == pytest.approx([0.1, 0.2, 0.4])
    assert [m.pose_at(1, t) for t in (0.0, 0.15, 0.3, 0.45, 0.79)] == [1, 2, 3, 1, 3]
    assert m.pose_at(0, 123.0) == 0 and m.pose_at(99, 0.0) == 0
    assert m.pose_names == ("base", "run1", "run2", "run3")


def test_anorms_table():
    assert ANORMS.shape == (162, 3)
    assert np.allclose(np.linalg.norm(ANORMS, axis=1), 1.0, atol=1e-4)
    assert normal_vectors(np.array([[5, 255]], np.uint8)).shape == (1, 2, 3)


def _patched(offset: int, fmt: str, *values) -> bytes:
    data = bytearray(build_mdl(default_spec()))
    struct.pack_into(fmt, data, offset, *values)
    return bytes(data)


def test_bad_magic_and_version():
    with pytest.raises(BadMagicError) as e:
        load_mdl(b"IDP2" + bytes(200), name="q2.mdl")
    assert e.value.offset == 0 and "q2.mdl" in str(e.value)
    with pytest.raises(BadMagicError) as e:
        load_mdl(_patched(4, "<i", 7))
    assert e.value.offset == 4 and "version 6" in str(e.value)


@pytest.mark.parametrize("offset,value", [(48, 0), (52, 0), (52, 100000), (56, -3), (60, 0), (64, -1), (68, 0)])
def test_bad_header_counts(offset, value):
    with pytest.raises(BadIndexError) as e:
        load_mdl(_patched(offset, "<i", value))
    assert e.value.offset == offset


@pytest.mark.parametrize("offset,value", [(60, 10_000_000), (68, 1 << 30), (48, 1 << 30), (64, 99999)])
def test_counts_that_cannot_fit_are_refused_before_allocating(offset, value):
    with pytest.raises(TruncatedError):
        load_mdl(_patched(offset, "<i", value))


def test_absurd_skin_size():
    with pytest.raises(BadIndexError):
        load_mdl(_patched(52, "<ii", 1 << 20, 1 << 20))


def test_triangle_index_out_of_range():
    spec = default_spec()
    spec.triangles = [(1, 0, 1, 2), (0, 0, 3, 1)]
    with pytest.raises(BadIndexError) as e:
        load_mdl(build_mdl(spec), name="bad.mdl")
    tri_at = HEADER + 4 + 8 * 4 + 3 * 12
    assert e.value.offset == tri_at + 16 + 4 + 4 and "bad.mdl" in str(e.value)


def test_truncated_everywhere():
    data = build_mdl(default_spec())
    for cut in range(0, len(data)):
        with pytest.raises((TruncatedError, BadMagicError)):
            load_mdl(data[:cut])


def test_bad_group_interval():
    spec = default_spec()
    spec.frames = [([0.1, 0.0], [("a", simple_verts(3)), ("b", simple_verts(3))])]
    with pytest.raises(BadIndexError):
        load_mdl(build_mdl(spec))


def _check_model(m: AliasModel, name: str) -> None:
    V = m.num_verts
    assert m.positions.shape == (m.num_poses, V, 3), name
    assert m.normals.shape == (m.num_poses, V), name
    assert (m.triangles >= 0).all() and (m.triangles < V).all(), name
    assert m.mesh.uv.min() >= 0.0 and m.mesh.uv.max() <= 1.0, name
    assert int(m.mesh.indices.max()) < len(m.mesh.vertex_index), name
    assert sum(f.num_poses for f in m.frames) == m.num_poses, name
    assert m.skin_images.shape[1:] == (m.skin_height, m.skin_width), name
    # every decoded vertex lies inside its pose's bounding box (within one packing step)
    lo, hi = m.pose_bbox_min[:, None, :], m.pose_bbox_max[:, None, :]
    step = np.abs(m.scale) + 1e-3
    assert ((m.positions >= lo - step) & (m.positions <= hi + step)).all(), name


def test_every_real_mdl_loads(lq1_pak):
    names = [e.name for e in lq1_pak.entries if e.name.endswith(".mdl")]
    assert len(names) > 70
    for n in names:
        _check_model(load_mdl(lq1_pak.read(n), n), n)


def test_every_quakeworld_mdl_loads():
    pak = load_pak(QUAKEWORLD / "id1" / "pak0.pak")
    names = [e.name for e in pak.entries if e.name.endswith(".mdl")]
    assert len(names) > 30
    for n in names:
        _check_model(load_mdl(pak.read(n), n), n)


def test_real_facts(lq1_pak):
    player = load_mdl(lq1_pak.read("progs/player.mdl"), "progs/player.mdl")
    assert 100 <= player.num_frames <= 400          # id's player has 143 frames (stand, run, pain, death…)
    assert 200 <= player.num_verts <= 2000 and player.num_tris >= player.num_verts // 2
    assert player.bounding_radius > 16
    z = player.positions[0, :, 2]
    assert z.min() < -16 and z.max() > 16          # roughly a 56-unit-tall figure around its origin
    assert load_mdl(lq1_pak.read("progs/missile.mdl")).has_flag(EF_ROCKET)
    assert load_mdl(lq1_pak.read("progs/armor.mdl")).has_flag(EF_ROTATE)
    flame = load_mdl(lq1_pak.read("progs/flame.mdl"))
    assert any(f.is_group and f.num_poses > 1 for f in flame.frames)
