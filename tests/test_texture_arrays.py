"""The BSP worlds' plain textures as texture arrays: which textures qualify, each layer holding its texture's own
pixels, every vertex its layer, and the visible list drawing a size's faces as one front-to-back group."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.bsp38 import load_bsp38
from tests.builders.bsp38 import build_bsp38
from tests.conftest import QUAKE2
from viewer.cameras import map_start_camera
from viewer.games.quake2 import assets
from viewer.render.bsp.surfaces import texture_flags
from viewer.render.bsp.texture_arrays import array_slots, plain_textures, texture_arrays
from viewer.render.bsp.visibility import WorldVisibility
from viewer.render.textures import fullbright_rgba
from viewer.render.view_math import view_projection
from viewer.session import game_filesystem

SURF_SKY, SURF_WARP, SURF_FLOWING = 0x4, 0x8, 0x40


@pytest.mark.parametrize("flags, plain", [(0, True), (SURF_WARP, False), (SURF_FLOWING, False), (SURF_SKY, False)])
def test_a_texture_is_plain_unless_sky_warped_flowing_or_animated(flags: int, plain: bool) -> None:
    world = load_bsp38(build_bsp38(texinfo=[("test/wall", 0, 0, -1), ("test/other", flags, 0, -1)],
                                   quad_texinfo=(0, 1)))
    names = [t.name for t in world.textures]
    found = plain_textures(world, texture_flags(world))
    assert found[names.index("test/wall")]
    assert found[names.index("test/other")] == plain
    animated = load_bsp38(build_bsp38())       # test/anim1 and test/anim2 are one animation
    found = plain_textures(animated, texture_flags(animated))
    frames = [i for i, t in enumerate(animated.textures) if t.anim_frames]
    assert frames and not found[frames].any()
    assert found[[t.name for t in animated.textures].index("test/wall")]


@pytest.fixture(scope="module")
def terminal():
    fs = game_filesystem(None, str(QUAKE2), "action")
    return assets.load_map_assets(fs, "maps/terminal.bsp")


def test_each_plain_texture_is_a_layer_of_its_own_pixels_and_its_faces_carry_the_layer(ctx, terminal) -> None:
    world = terminal.world
    plain = plain_textures(world, texture_flags(world))
    assert 0 < plain.sum() < len(world.textures)        # the sky and the warped water stay apart

    def rgba(i: int) -> np.ndarray:
        return fullbright_rgba(world.textures[i].mips[0], terminal.palette)

    arrays = texture_arrays(ctx, world, plain, rgba, "GL_LINEAR_MIPMAP_NEAREST")
    try:
        assert (arrays.bucket >= 0).sum() == plain.sum() and len(arrays.arrays) < plain.sum()
        for i in np.flatnonzero(plain).tolist():
            array = arrays.arrays[arrays.bucket[i]]
            w, h, n = array.size
            layers = np.frombuffer(array.read(), np.uint8).reshape(n, h, w, 4)
            assert np.array_equal(layers[arrays.layer[i]], rgba(i))
        per_vertex = np.frombuffer(arrays.layers.read(), np.float32)
        mesh = world.mesh
        for face in range(0, len(mesh.face_count), 7):
            count = int(mesh.face_count[face])
            texture = int(world.faces["texture"][face])
            if count and plain[texture]:
                first = int(mesh.face_first[face])
                assert set(per_vertex[mesh.indices[first:first + count]].tolist()) == {arrays.layer[texture]}
    finally:
        arrays.release()


def test_the_visible_faces_of_one_array_are_one_group(ctx, terminal) -> None:
    """The same triangles in fewer draws: the visible faces of all the textures of one array are one group (the
    group's faces then sorted front to back together)."""
    world = terminal.world
    plain = plain_textures(world, texture_flags(world))
    arrays = texture_arrays(ctx, world, plain, lambda i: fullbright_rgba(world.textures[i].mips[0], terminal.palette),
                            "GL_LINEAR_MIPMAP_NEAREST")
    try:
        camera = map_start_camera(world)
        view_proj = view_projection(camera, 90.0, 16 / 9)
        multistyle = (np.asarray(world.lightmap.num_styles) > 1).astype(np.int64)
        per_texture, _ = WorldVisibility(world, multistyle).update(camera.origin, view_proj)
        grouped, _ = WorldVisibility(world, multistyle, slots=array_slots(world, arrays.bucket)).update(
            camera.origin, view_proj)
    finally:
        arrays.release()
    assert sorted(per_texture.indices.tolist()) == sorted(grouped.indices.tolist())
    assert len(grouped.ranges) < len(per_texture.ranges)
    mesh = world.mesh
    texture_of_vertex = np.full(len(mesh.vertices), -1, np.int64)   # every face has vertices of its own
    for face in np.flatnonzero(mesh.face_count > 0).tolist():
        first, count = int(mesh.face_first[face]), int(mesh.face_count[face])
        texture_of_vertex[mesh.indices[first:first + count]] = int(world.faces["texture"][face])
    mixed = [len({int(t) for t in texture_of_vertex[grouped.indices[first:first + count]]})
             for _, first, count, _ in grouped.ranges.tolist()]
    assert max(mixed) > 1
