"""World visibility: frustum planes, box culling, PVS + frustum index lists."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.bsp import load_bsp
from tests.builders.bsp import build_bsp
from viewer.render.view_math import view_projection
from viewer.render.refdef import Camera
from viewer.render.bsp.visibility import (BACKFACE_MARGIN, FLATNESS, WorldVisibility, box_distances, boxes_in_frustum,
                                          face_boxes, face_planes, frustum_planes, visible_set)


def planes_for(camera: Camera) -> np.ndarray:
    return frustum_planes(view_projection(camera, 1.0))


def test_box_ahead_is_inside_and_behind_is_outside() -> None:
    planes = planes_for(Camera((0, 0, 0), (0, 0, 0)))  # looking along +X
    mins = np.array([[100, -10, -10], [-200, -10, -10], [100, 500, -10]], float)
    maxs = mins + 20
    assert boxes_in_frustum(mins, maxs, planes).tolist() == [True, False, False]


def test_box_straddling_a_plane_is_kept() -> None:
    planes = planes_for(Camera((0, 0, 0), (0, 0, 0)))
    assert boxes_in_frustum(np.array([[50.0, 40, -5]]), np.array([[60.0, 200, 5]]), planes).tolist() == [True]


def test_visible_set_keeps_only_leafs_in_view() -> None:
    world = load_bsp(build_bsp())
    all_leafs = np.array([1, 2])
    both = visible_set(world, all_leafs, None)
    assert len(both.indices) == 6  # quad A only: quad B is submodel *1's, drawn as a brush entity
    looking_at_a = planes_for(Camera((32, 32, 40), (90, 0, 0), fov=60))
    looking_away = planes_for(Camera((32, 32, 40), (-90, 0, 0), fov=60))
    assert len(visible_set(world, all_leafs, looking_at_a).indices) == 6
    assert len(visible_set(world, all_leafs, looking_away).indices) == 0


def test_ranges_cover_the_index_list_by_texture(lq1_pak) -> None:
    world = load_bsp(lq1_pak.read("maps/lqdm3.bsp"))
    start = next(e for e in world.entities if e.get("classname") == "info_player_deathmatch")
    x, y, z = (float(v) for v in start["origin"].split())
    camera = Camera((x, y, z + 22), (0.0, float(start.get("angle", 0)), 0.0))
    pvs = np.flatnonzero(world.leaf_pvs(world.point_leaf(camera.origin)))
    culled = visible_set(world, pvs, planes_for(camera))
    unculled = visible_set(world, pvs, None)
    assert 0 < len(culled.indices) < len(unculled.indices)
    assert culled.ranges[:, 2].sum() == len(culled.indices)
    assert (np.diff(culled.ranges[:, 1]) > 0).all()
    textures = culled.ranges[:, 0]
    assert len(set(textures.tolist())) == len(textures), "one range per texture"


@pytest.mark.parametrize("angles", [(0, 0, 0), (0, 120, 0), (60, 240, 0)])
def test_culling_keeps_every_triangle_on_screen(lq1_pak, angles) -> None:
    """Every triangle the unculled set projects into the view is also in the culled set."""
    world = load_bsp(lq1_pak.read("maps/lq_e0m1.bsp"))
    start = next(e for e in world.entities if e.get("classname") == "info_player_start")
    x, y, z = (float(v) for v in start["origin"].split())
    camera = Camera((x, y, z + 22), angles)
    vp = view_projection(camera, 1.0)
    pvs = np.flatnonzero(world.leaf_pvs(world.point_leaf(camera.origin)))
    kept = set(map(tuple, visible_set(world, pvs, frustum_planes(vp)).indices.reshape(-1, 3).tolist()))
    tris = visible_set(world, pvs, None).indices.reshape(-1, 3)
    pos = world.mesh.vertices["position"][tris].astype(np.float64)  # [T, 3, 3]
    clip = np.einsum("ij,tkj->tki", vp, np.concatenate([pos, np.ones(pos.shape[:2] + (1,))], axis=2))
    w = clip[..., 3]
    ndc = clip[..., :2] / np.where(w > 1e-6, w, np.nan)[..., None]
    inside = ((np.abs(ndc) < 0.9).all(axis=2) & (w > 1)).any(axis=1)
    missing = [t for t, on in zip(map(tuple, tris.tolist()), inside) if on and t not in kept]
    assert not missing


def test_box_culling_matches_testing_every_corner() -> None:
    rng = np.random.default_rng(1)
    planes = planes_for(Camera((0, 0, 0), (10, 30, 0)))
    mins = rng.uniform(-500, 500, (400, 3))
    maxs = mins + rng.uniform(1, 100, (400, 3))
    corners = np.stack([np.where(np.array([(i >> k) & 1 for k in range(3)], bool), maxs, mins) for i in range(8)], 1)
    outside_any = ((corners @ planes[:, :3].T + planes[:, 3]) < 0).all(axis=1).any(axis=1)
    assert (boxes_in_frustum(mins, maxs, planes) == ~outside_any).all()


def start_view(world, classname="info_player_deathmatch", angles=None):
    start = next(e for e in world.entities if e.get("classname") == classname)
    x, y, z = (float(v) for v in start["origin"].split())
    camera = Camera((x, y, z + 22), angles or (0.0, float(start.get("angle", 0)), 0.0))
    pvs = np.flatnonzero(world.leaf_pvs(world.point_leaf(camera.origin)))
    return camera, pvs


def triangles(indices: np.ndarray) -> set:
    return set(map(tuple, indices.reshape(-1, 3).tolist()))


def test_front_to_back_order_keeps_the_set_and_sorts_by_distance(lq1_pak) -> None:
    world = load_bsp(lq1_pak.read("maps/lqdm3.bsp"))
    camera, pvs = start_view(world)
    planes = planes_for(camera)
    boxes = face_boxes(world)
    plain = visible_set(world, pvs, planes, boxes=boxes)
    ordered = visible_set(world, pvs, planes, camera=camera.origin, boxes=boxes)
    assert triangles(ordered.indices) == triangles(plain.indices)
    assert sorted(ordered.ranges[:, 0].tolist()) == sorted(plain.ranges[:, 0].tolist())
    assert ordered.ranges[:, 2].sum() == len(ordered.indices)
    assert (np.diff(ordered.ranges[:, 1]) > 0).all()
    # Map every index-list position back to its face to check the order.
    mesh = world.mesh
    faces = np.flatnonzero(mesh.face_count > 0)
    dist = box_distances(boxes[0][faces], boxes[1][faces], camera.origin)
    tri_face = {}
    for f in faces:
        for t in triangles(mesh.indices[mesh.face_first[f]:mesh.face_first[f] + mesh.face_count[f]]):
            tri_face[t] = f
    face_dist = dict(zip(faces.tolist(), dist.tolist()))
    nearest = []
    for texture, first, count, _key in ordered.ranges.tolist():
        d = [face_dist[tri_face[t]] for t in map(tuple, ordered.indices[first:first + count].reshape(-1, 3).tolist())]
        assert d == sorted(d), f"texture {texture} is not front to back"
        nearest.append(d[0])
    assert nearest == sorted(nearest), "textures are drawn nearest first"


def test_keys_split_each_texture_range(lq1_pak) -> None:
    world = load_bsp(lq1_pak.read("maps/lqdm3.bsp"))
    camera, pvs = start_view(world)
    keys = (world.lightmap.num_styles > 1).astype(np.int64)
    split = visible_set(world, pvs, planes_for(camera), keys=keys)
    pairs = [tuple(r) for r in split.ranges[:, [0, 3]].tolist()]
    assert len(set(pairs)) == len(pairs), "one range per (texture, key)"
    assert {k for _, k in pairs} == {0, 1}, "the start sees faces with one and with several light styles"
    mesh = world.mesh
    faces = np.flatnonzero(mesh.face_count > 0)
    vertex_face = np.full(len(mesh.vertices), -1)
    for f in faces:  # every face has its own vertices (its own lightmap coordinates)
        vertex_face[mesh.indices[mesh.face_first[f]:mesh.face_first[f] + mesh.face_count[f]]] = f
    for _texture, first, count, key in split.ranges.tolist():
        assert (keys[vertex_face[split.indices[first:first + count]]] == key).all()


def test_world_visibility_reuses_the_set_while_the_view_is_unchanged(lq1_pak) -> None:
    world = load_bsp(lq1_pak.read("maps/lq_e0m1.bsp"))
    camera, pvs = start_view(world, "info_player_start")
    vis = WorldVisibility(world)
    vp = view_projection(camera, 16 / 9)
    first, changed = vis.update(camera.origin, vp)
    assert changed
    again, changed = vis.update(camera.origin, vp)
    assert not changed and again is first
    assert triangles(first.indices) == triangles(visible_set(world, pvs, frustum_planes(vp), camera=camera.origin,
                                                             facing=face_planes(world)).indices)
    turned = Camera(camera.origin, (0.0, camera.angles[1] + 90, 0.0))
    other, changed = vis.update(turned.origin, view_projection(turned, 16 / 9))
    assert changed and triangles(other.indices) != triangles(first.indices)


def test_face_planes_lie_on_the_faces_and_point_to_their_drawn_side(lq1_pak) -> None:
    world = load_bsp(lq1_pak.read("maps/lqdm3.bsp"))
    planes = face_planes(world)
    mesh = world.mesh
    flat = np.flatnonzero(np.abs(planes[:, :3]).sum(axis=1) > 0)
    assert len(flat) > 0.99 * np.count_nonzero(mesh.face_count >= 3)
    for f in flat[::50].tolist():
        points = mesh.vertices["position"][mesh.indices[mesh.face_first[f]:mesh.face_first[f] + mesh.face_count[f]]]
        assert np.abs(points @ planes[f, :3] - planes[f, 3]).max() <= FLATNESS
        # The BSP's own plane, flipped for a face on its back side, is the side the face is drawn from.
        bsp_normal = world.planes["normal"][world.faces["planenum"][f]] * (-1 if world.faces["side"][f] else 1)
        assert float(np.dot(bsp_normal, planes[f, :3])) > 0.99


def test_faces_seen_from_behind_are_dropped_and_the_others_keep_their_order(lq1_pak) -> None:
    world = load_bsp(lq1_pak.read("maps/lqdm3.bsp"))
    camera, pvs = start_view(world)
    planes, boxes, facing = planes_for(camera), face_boxes(world), face_planes(world)
    both = visible_set(world, pvs, planes, camera=camera.origin, boxes=boxes)
    front = visible_set(world, pvs, planes, camera=camera.origin, boxes=boxes, facing=facing)
    kept, all_tris = triangles(front.indices), triangles(both.indices)
    assert kept < all_tris and len(kept) < 0.8 * len(all_tris)
    mesh = world.mesh
    tri_face = {}
    for f in np.flatnonzero(mesh.face_count > 0).tolist():
        for tri in triangles(mesh.indices[mesh.face_first[f]:mesh.face_first[f] + mesh.face_count[f]]):
            tri_face[tri] = f
    eye = np.asarray(camera.origin, np.float64)
    for tri in all_tris - kept:
        f = tri_face[tri]
        assert facing[f, :3] @ eye - facing[f, 3] < -BACKFACE_MARGIN
    # The kept triangles come in the same order as in the whole set.
    order = {tri: i for i, tri in enumerate(map(tuple, both.indices.reshape(-1, 3).tolist()))}
    positions = [order[tri] for tri in map(tuple, front.indices.reshape(-1, 3).tolist())]
    assert positions == sorted(positions)
