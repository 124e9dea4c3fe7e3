"""Alias-model rendering on Mesa llvmpipe: visibility, winding, player colours, fullbrights, lighting, pose lerp,
skin groups, alpha, depth, the placeholder box, and the real player/armor models."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.models import ANORMS, load_mdl
from assets_loader.models.anorms import normal_vectors
from assets_loader.palette import Palette, load_palette, translation_table
from tests.builders.models import MdlSpec, build_mdl
from viewer.render.view_math import entity_matrix, view_projection
from viewer.render.refdef import Camera
from viewer.render.alias_program import NORMALS, AliasLight, shade_vector
from viewer.render.bsp.alias import MAX_TRANSLATIONS, AliasRenderer
from viewer.render.boxes import BoxRenderer
from viewer.render.context import OffscreenTarget

SIZE = 64
CAMERA = Camera((-64.0, 0.0, 0.0), (0.0, 0.0, 0.0))   # looks along +X; screen right is world -Y, up is +Z
UNLIT = AliasLight(ambient=128.0, shade=0.0)            # light multiplier exactly 1.0
BACKGROUND = (0, 0, 0)
TOLERANCE = 3


def _palette() -> Palette:
    i = np.arange(256)
    rgb = np.stack([(i * 7 + 30) % 200 + 40, (i * 53 + 90) % 200 + 40, (i * 101 + 11) % 200 + 40], axis=1)
    return Palette(rgb.astype(np.uint8))


PALETTE = _palette()
FACING_CAMERA = int(np.argmin(ANORMS @ np.array([1.0, 0.0, 0.0])))   # the normal closest to -X


def _square(cy: float, half: float = 16.0) -> np.ndarray:
    """``u1[4, 4]`` packed vertices of a square in the plane x = 0 centred on (0, cy, 0): BL, TL, TR, BR as seen
    from CAMERA (origin −128, scale 1, so packed 128 is 0)."""
    corners = [(0, cy + half, -half), (0, cy + half, half), (0, cy - half, half), (0, cy - half, -half)]
    packed = np.array([[x + 128, y + 128, z + 128, FACING_CAMERA] for x, y, z in corners])
    return packed.astype(np.uint8)


def _model(skins: list, poses=(0.0,), reverse: bool = False):
    tris = [(1, 0, 1, 2), (1, 0, 2, 3)]
    if reverse:
        tris = [(1, a, c, b) for _, a, b, c in tris]
    spec = MdlSpec(skin_width=8, skin_height=4, st=[(0, 0, 3), (0, 0, 0), (0, 7, 0), (0, 7, 3)], triangles=tris,
                   skins=skins, frames=[(f"pose{i}", _square(cy)) for i, cy in enumerate(poses)],
                   scale=(1.0, 1.0, 1.0), origin=(-128.0, -128.0, -128.0))
    return load_mdl(build_mdl(spec), name="square.mdl")


def _fill(index: int) -> np.ndarray:
    return np.full((4, 8), index, np.uint8)


@pytest.fixture(scope="module")
def renderer(ctx):
    r = AliasRenderer(ctx)
    yield r
    r.release()


@pytest.fixture()
def target(ctx):
    t = OffscreenTarget(ctx, (SIZE, SIZE))
    yield t
    t.release()


def _render(ctx, target, renderer, model, camera=CAMERA, size=SIZE, **kw) -> np.ndarray:
    handle = renderer.upload(model, kw.pop("palette", PALETTE))
    target.use()
    ctx.clear(*(c / 255 for c in BACKGROUND), 1.0, depth=1.0)
    kw.setdefault("light", UNLIT)
    renderer.draw(handle, view_projection(camera, 1.0), entity_matrix((0, 0, 0), (0, 0, 0)), kw.pop("pose_a", 0),
                  **kw)
    pixels = target.read_rgb().astype(int)
    handle.release()
    return pixels


def _close(pixel, colour) -> bool:
    return bool(np.all(np.abs(np.asarray(pixel, int) - np.asarray(colour, int)) <= TOLERANCE))


def _drawn(pixels: np.ndarray) -> np.ndarray:
    return np.abs(pixels - np.array(BACKGROUND)).sum(axis=-1) > 3 * TOLERANCE


def test_model_is_visible_at_the_centre(ctx, target, renderer) -> None:
    px = _render(ctx, target, renderer, _model([_fill(5)]))
    assert _close(px[32, 32], PALETTE.rgb[5])
    assert _close(px[2, 2], BACKGROUND) and _close(px[61, 61], BACKGROUND)
    ys, xs = np.nonzero(_drawn(px))
    assert 14 <= len(set(xs)) <= 18 and 14 <= len(set(ys)) <= 18   # 32 units at 64 units away, 90° fov → 16 px


def test_clockwise_triangles_face_the_camera(ctx, target, renderer) -> None:
    """Quake's front faces are clockwise on screen: the same square wound the other way is culled."""
    px = _render(ctx, target, renderer, _model([_fill(5)], reverse=True))
    assert not _drawn(px).any()


def test_top_colour_translates_the_shirt_range(ctx, target, renderer) -> None:
    model = _model([_fill(20), _fill(100)])
    plain = _render(ctx, target, renderer, model, skin=0)[32, 32]
    shirt = _render(ctx, target, renderer, model, skin=0, translation=translation_table(6, 0))[32, 32]
    shirt_bottom = _render(ctx, target, renderer, model, skin=0, translation=translation_table(6, 11))[32, 32]
    assert _close(plain, PALETTE.rgb[20])
    assert _close(shirt, PALETTE.rgb[translation_table(6, 0)[20]]) and not _close(shirt, plain)
    assert _close(shirt_bottom, shirt)   # the bottom colour leaves the shirt alone


def test_bottom_colour_translates_the_pants_range(ctx, target, renderer) -> None:
    model = _model([_fill(20), _fill(100)])
    plain = _render(ctx, target, renderer, model, skin=1, translation=translation_table(0, 1))[32, 32]
    pants = _render(ctx, target, renderer, model, skin=1, translation=translation_table(0, 12))[32, 32]
    top_only = _render(ctx, target, renderer, model, skin=1, translation=translation_table(9, 1))[32, 32]
    assert _close(plain, PALETTE.rgb[translation_table(0, 1)[100]])
    assert _close(pants, PALETTE.rgb[translation_table(0, 12)[100]]) and not _close(pants, plain)
    assert _close(top_only, plain)


def test_fullbright_texels_ignore_light(ctx, target, renderer) -> None:
    dark = AliasLight(ambient=0.0, shade=0.0)
    model = _model([_fill(240), _fill(5)])
    assert _close(_render(ctx, target, renderer, model, skin=0, light=dark)[32, 32], PALETTE.rgb[240])
    assert _close(_render(ctx, target, renderer, model, skin=1, light=dark)[32, 32], (0, 0, 0))
    lit = AliasLight(ambient=0.0, shade=0.0, fullbright=True)   # whole-model fullbright
    assert _close(_render(ctx, target, renderer, model, skin=1, light=lit)[32, 32], PALETTE.rgb[5])


def test_light_units_scale_the_colour(ctx, target, renderer) -> None:
    model = _model([_fill(5)])
    half = _render(ctx, target, renderer, model, light=AliasLight(ambient=64.0, shade=0.0))[32, 32]
    assert _close(half, PALETTE.rgb[5] * 0.5)
    # shade adds (anorm_dot - 1) * shade; with the light behind the face the dot term is negative (darker)
    behind = _render(ctx, target, renderer, model, light=AliasLight(ambient=128.0, shade=128.0, yaw=0.0))[32, 32]
    d = float(ANORMS[FACING_CAMERA] @ shade_vector(0.0))
    term = 1 + d * 13 / 44 if d < 0 else 1 + d
    expect = np.minimum(PALETTE.rgb[5] * (128 + 128 * (term - 1)) / 128, 255)
    assert np.all(np.abs(behind - expect) <= TOLERANCE + 1)


def test_pose_lerp_moves_halfway(ctx, target, renderer) -> None:
    model = _model([_fill(5)], poses=(24.0, -24.0))   # pose 0 on the left of the screen, pose 1 on the right

    def centroid(blend: float) -> float:
        px = _render(ctx, target, renderer, model, pose_a=0, pose_b=1, blend=blend)
        return float(np.nonzero(_drawn(px))[1].mean())

    left, middle, right = centroid(0.0), centroid(0.5), centroid(1.0)
    assert left == pytest.approx(20, abs=1) and right == pytest.approx(44, abs=1)
    assert middle == pytest.approx((left + right) / 2, abs=0.75)


def test_skin_group_picture_follows_time(ctx, target, renderer) -> None:
    model = _model([([0.1, 0.2], [_fill(5), _fill(60)])])
    assert _close(_render(ctx, target, renderer, model, time=0.05)[32, 32], PALETTE.rgb[5])
    assert _close(_render(ctx, target, renderer, model, time=0.15)[32, 32], PALETTE.rgb[60])


def test_alpha_blends_with_the_background(ctx, target, renderer) -> None:
    px = _render(ctx, target, renderer, _model([_fill(5)]), alpha=0.5)
    assert _close(px[32, 32], PALETTE.rgb[5] * 0.5)


def test_depth_test_keeps_the_nearer_model(ctx, target, renderer) -> None:
    near, far = renderer.upload(_model([_fill(5)]), PALETTE), renderer.upload(_model([_fill(60)]), PALETTE)
    vp = view_projection(CAMERA, 1.0)
    target.use()
    ctx.clear(0, 0, 0, 1, depth=1.0)
    renderer.draw(near, vp, entity_matrix((-10, 0, 0), (0, 0, 0)), 0, light=UNLIT)
    renderer.draw(far, vp, entity_matrix((10, 0, 0), (0, 0, 0)), 0, light=UNLIT)
    assert _close(target.read_rgb()[32, 32], PALETTE.rgb[5])
    near.release()
    far.release()


def test_placeholder_is_a_magenta_box(ctx, target, renderer) -> None:
    boxes = BoxRenderer(renderer.programs)
    target.use()
    ctx.clear(0, 0, 0, 1, depth=1.0)
    boxes.draw(view_projection(Camera((-40, -40, 40), (35, 45, 0)), 1.0), entity_matrix((0, 0, 0), (0, 0, 0)),
               (-16, -16, -24), (16, 16, 32))
    boxes.release()
    px = target.read_rgb().astype(int)
    r, g, b = px[32, 32]
    assert r > 80 and b > 80 and g < 20
    shades, counts = np.unique(px[_drawn(px)], axis=0, return_counts=True)
    assert (counts >= 40).sum() >= 3   # three visible faces, each its own shade


def test_light_level_rules() -> None:
    assert AliasLight.from_level(200) == AliasLight(128.0, 64.0, 0.0, False)
    assert AliasLight.from_level(50) == AliasLight(50.0, 50.0, 0.0, False)
    assert AliasLight.from_level(3, view_model=True).ambient == 24.0
    assert AliasLight.from_level(3, player=True).ambient == 8.0
    assert AliasLight.from_level(3).ambient == 3.0


def test_shade_vector_quantizes_yaw() -> None:
    assert np.allclose(shade_vector(0), np.array([1, 0, 1]) / np.sqrt(2), atol=1e-6)
    assert np.allclose(shade_vector(90), np.array([0, -1, 1]) / np.sqrt(2), atol=1e-6)
    assert np.allclose(shade_vector(10), shade_vector(0))   # 22.5° steps


@pytest.mark.parametrize("name", ["progs/player.mdl", "progs/armor.mdl"])
def test_real_models_render(ctx, renderer, lq1_pak, name) -> None:
    palette = load_palette(lq1_pak.read("gfx/palette.lmp"))
    model = load_mdl(lq1_pak.read(name), name)
    target = OffscreenTarget(ctx, (128, 128))
    try:
        front = _render(ctx, target, renderer, model, camera=Camera((60, 0, 8), (0, 180, 0)), palette=palette,
                        translation=translation_table(4, 12), light=AliasLight.from_level(160))
    finally:
        target.release()
    drawn = _drawn(front)
    assert drawn.sum() > 300
    assert len({tuple(p) for p in front[drawn]}) > 40


def test_two_coloured_players_keep_their_colours_with_one_texture_per_pair(ctx, target) -> None:
    """Each colour pair gets its own cached translation texture: drawing red then blue (then red again) in one
    frame reads each one's own colours, and a repeated pair makes no new texture."""
    own = AliasRenderer(ctx)
    model = _model([_fill(20), _fill(100)])
    red, blue = translation_table(4, 4), translation_table(13, 13)
    first_red = _render(ctx, target, own, model, skin=0, translation=red)[32, 32]
    assert own.translation_count == 1
    first_blue = _render(ctx, target, own, model, skin=0, translation=blue)[32, 32]
    assert own.translation_count == 2
    assert _close(first_red, PALETTE.rgb[red[20]]) and _close(first_blue, PALETTE.rgb[blue[20]])
    assert not _close(first_red, first_blue)
    handle = own.upload(model, PALETTE)
    target.use()
    ctx.clear(*(c / 255 for c in BACKGROUND), 1.0, depth=1.0)
    vp = view_projection(CAMERA, 1.0)
    own.draw(handle, vp, entity_matrix((0, 16, 0), (0, 0, 0)), 0, translation=red, light=UNLIT)
    own.draw(handle, vp, entity_matrix((0, -16, 0), (0, 0, 0)), 0, translation=blue, light=UNLIT)
    both = target.read_rgb().astype(int)
    handle.release()
    drawn = np.nonzero(_drawn(both))
    colours = {tuple(int(c) for c in both[y, x]) for y, x in zip(*drawn)}
    assert any(_close(np.array(c), PALETTE.rgb[red[20]]) for c in colours)
    assert any(_close(np.array(c), PALETTE.rgb[blue[20]]) for c in colours)
    assert own.translation_count == 2
    own.release()
    assert own.translation_count == 0


def test_translation_cache_is_bounded(ctx) -> None:
    """Every shirt/pants pair fits (pairs with equal tables share one); a table past the bound replaces the
    oldest."""
    own = AliasRenderer(ctx)
    tables = [translation_table(top, bottom) for top in range(16) for bottom in range(16)]
    for table in tables:
        own._translation_texture(table)
    distinct = {np.asarray(t).astype(np.uint8).tobytes() for t in tables}
    assert own.translation_count == len(distinct) <= MAX_TRANSLATIONS
    for i in range(MAX_TRANSLATIONS - len(distinct) + 1):
        own._translation_texture(np.roll(np.arange(256, dtype=np.uint8)[::-1], i))
    assert own.translation_count == MAX_TRANSLATIONS
    own.release()


def test_uploaded_poses_are_positions_and_normal_indices_and_indexed_skins_wait_for_player_colours(ctx, target,
                                                                                                   renderer) -> None:
    """A pose vertex on the GPU is 12 bytes of position and one byte naming its normal in the shader's table
    (out-of-range indices name (0, 0, 1), as ``normal_vectors`` does); the palette-index skins that player colours
    read are uploaded on the first draw with colours, not for every model."""
    square = _square(0.0)
    square[0, 3] = 200   # past the 162 anorms
    spec = MdlSpec(skin_width=8, skin_height=4, st=[(0, 0, 3), (0, 0, 0), (0, 7, 0), (0, 7, 3)],
                   triangles=[(1, 0, 1, 2), (1, 0, 2, 3)], skins=[_fill(20)], frames=[("pose", square)],
                   scale=(1.0, 1.0, 1.0), origin=(-128.0, -128.0, -128.0))
    model = load_mdl(build_mdl(spec), name="square.mdl")
    handle = renderer.upload(model, PALETTE)
    m = handle.num_mesh_verts
    assert handle.pose_buffer.size == model.num_poses * m * 12 and handle.normal_buffer.size == model.num_poses * m
    normals = np.frombuffer(handle.normal_buffer.read(), np.uint8).reshape(model.num_poses, m)
    indices = np.asarray(model.normals)[:, model.mesh.vertex_index]
    assert np.array_equal(NORMALS[normals], normal_vectors(indices)) and (NORMALS[normals] == (0, 0, 1)).all(-1).any()
    assert not handle.indexed
    target.use()
    renderer.draw(handle, view_projection(CAMERA, 1.0), entity_matrix((0, 0, 0), (0, 0, 0)), 0, light=UNLIT)
    assert not handle.indexed
    renderer.draw(handle, view_projection(CAMERA, 1.0), entity_matrix((0, 0, 0), (0, 0, 0)), 0, light=UNLIT,
                  translation=translation_table(4, 4))
    assert len(handle.indexed) == 1
    handle.release()
