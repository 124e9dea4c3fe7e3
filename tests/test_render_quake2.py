"""Quake II drawn through the shared renderer, headless on small frames: the lighting rule, translucent and warped
surfaces, the sky box's faces and rotation, area bits, MD2 models, and terminal.bsp from its player starts."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.bsp38 import World38, load_bsp38
from assets_loader.palette import Palette
from tests.builders.bsp38 import SURF_TRANS33, SURF_WARP, build_bsp38
from tests.conftest import QUAKE2
from viewer.cameras import map_start_camera
from viewer.games.quake2 import assets
from viewer.headless import render_map
from viewer.render.context import OffscreenTarget
from viewer.render.frame import FrameRenderer
from viewer.render.bsp.records import QUAKE_LIGHTING, BspSegment, Lighting, SkyBox
from viewer.render.refdef import Camera, EntityDraw, SceneFrame, SegmentAssets
from viewer.render.bsp.surfaces import flow_scroll, sky_rotation, surface_alpha
from viewer.render.view_math import view_projection
from viewer.render.view_math import entity_matrix
from viewer.render.bsp.world import BrushDraw, WorldRenderer, WorldView
from viewer.session import game_filesystem

SIZE = (32, 32)
SURF_SKY, SURF_NODRAW, SURF_FLOWING = 0x4, 0x80, 0x40
#: Sky box face colours in rt, bk, lf, ft, up, dn order.
SKY_COLOURS = ((255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (0, 255, 255), (255, 0, 255))


def flat_palette(value: int = 200) -> Palette:
    """Every index the same grey: the placeholder checker (indices 0 and 15) becomes a flat texture."""
    return Palette(np.full((256, 3), value, np.uint8))


def checker_palette() -> Palette:
    rgb = np.zeros((256, 3), np.uint8)
    rgb[15] = (240, 240, 240)
    return Palette(rgb)


def quad_map(flags: int) -> World38:
    """The builder's map with quad A (world, x 0..64, y 0..64, z 0, lit by 5x5 samples) given ``flags``; the
    textures are the 16x16 checker placeholders."""
    texinfo = [("test/wall", flags, 0, -1), ("test/anim1", 0, 0, -1)]
    return load_bsp38(build_bsp38(texinfo=texinfo))


def sky_box(rotate: float = 0.0) -> SkyBox:
    faces = np.zeros((6, 4, 4, 4), np.uint8)
    for i, colour in enumerate(SKY_COLOURS):
        faces[i, ..., :3] = colour
        faces[i, ..., 3] = 255
    return SkyBox("test", faces, rotate)


def draw(ctx, world: World38, camera: Camera, *, palette: Palette, lighting: Lighting = assets.QUAKE2_LIGHTING,
         sky: SkyBox | None = None, time: float = 0.0, clear=(0.0, 0.0, 0.0), translucent: bool = True,
         areabits: bytes | None = None) -> np.ndarray:
    target = OffscreenTarget(ctx, SIZE)
    renderer = WorldRenderer(ctx, world, palette, lighting, sky)
    target.use()
    ctx.clear(*clear, depth=1.0)
    view = WorldView(view_projection(camera, 1.0), camera.origin, time, np.ones(64, np.float32), areabits=areabits)
    renderer.draw_world(view)
    if translucent:
        renderer.draw_translucent(view)
    pixels = target.read_rgb().astype(int)
    renderer.release()
    target.release()
    return pixels


def above_quad_a() -> Camera:
    return Camera((32.0, 32.0, 40.0), (90.0, 0.0, 0.0), fov=60)


def test_quake2_lighting_brightens_the_texture_not_the_lightmap(ctx) -> None:
    world = quad_map(0)
    # the middle sample of quad A's 5x5 lightmap is sample 12: RGB (22, 34, 46)
    q2 = draw(ctx, world, above_quad_a(), palette=flat_palette(200))[16, 16]
    quake = draw(ctx, world, above_quad_a(), palette=flat_palette(200), lighting=QUAKE_LIGHTING)[16, 16]
    # Quake II: min(2 * 200/255, 1) * lightmap; Quake: 200/255 * 2 * lightmap
    assert np.abs(q2 - (22, 34, 46)).max() <= 3
    assert np.abs(quake - np.array((22, 34, 46)) * 400 / 255).max() <= 3


def test_translucent_surfaces_blend_after_the_opaque_world(ctx) -> None:
    world = quad_map(SURF_TRANS33)
    blue = (0.0, 0.0, 1.0)
    only_opaque = draw(ctx, world, above_quad_a(), palette=flat_palette(200), clear=blue, translucent=False)
    assert tuple(only_opaque[16, 16]) == (0, 0, 255)   # the opaque pass leaves it out
    blended = draw(ctx, world, above_quad_a(), palette=flat_palette(200), clear=blue)
    # 33 % of the unlit texture over 67 % of the blue behind it
    assert np.abs(blended[16, 16] - np.array((0.33 * 200, 0.33 * 200, 0.33 * 200 + 0.67 * 255))).max() <= 3


def test_translucent_brush_entities_wait_for_the_translucent_pass(ctx) -> None:
    """Quad B is submodel *1 (x 128..192): with a SURF_TRANS33 texture it is blended after the entities."""
    world = load_bsp38(build_bsp38(texinfo=[("test/wall", 0, 0, -1), ("test/glass", SURF_TRANS33, 0, -1)]))
    target = OffscreenTarget(ctx, SIZE)
    renderer = WorldRenderer(ctx, world, flat_palette(200), assets.QUAKE2_LIGHTING)
    camera = Camera((160.0, 32.0, 40.0), (90.0, 0.0, 0.0), fov=60)
    view = WorldView(view_projection(camera, 1.0), camera.origin, 0.0, np.ones(64, np.float32))
    target.use()
    ctx.clear(0.0, 0.0, 1.0, depth=1.0)
    renderer.draw_world(view)
    renderer.draw_brushes(view, [BrushDraw(1, entity_matrix((0, 0, 0), (0, 0, 0)))])
    before = target.read_rgb().astype(int)[16, 16]
    renderer.draw_translucent(view)
    after = target.read_rgb().astype(int)[16, 16]
    renderer.draw_translucent(view)   # drawn once: the deferred list is used up
    again = target.read_rgb().astype(int)[16, 16]
    renderer.release()
    target.release()
    assert tuple(before) == (0, 0, 255)
    assert np.abs(after - np.array((0.33 * 200, 0.33 * 200, 0.33 * 200 + 0.67 * 255))).max() <= 3
    assert tuple(again) == tuple(after)


def test_warped_surfaces_move_with_time_and_flowing_ones_scroll(ctx) -> None:
    world = quad_map(SURF_WARP)
    at_0 = draw(ctx, world, above_quad_a(), palette=checker_palette(), time=0.0)
    at_1 = draw(ctx, world, above_quad_a(), palette=checker_palette(), time=1.0)
    assert at_0.max() > 0 and np.abs(at_0 - at_1).sum() > 0
    assert draw(ctx, world, above_quad_a(), palette=checker_palette(), time=0.0).tolist() == at_0.tolist()
    flowing = quad_map(SURF_FLOWING)
    still = draw(ctx, flowing, above_quad_a(), palette=checker_palette(), lighting=Lighting(1.0, 8.0, False))
    moved = draw(ctx, flowing, above_quad_a(), palette=checker_palette(), lighting=Lighting(1.0, 8.0, False),
                 time=10.1)
    assert np.abs(still - moved).sum() > 0


def test_flow_and_alpha_rules() -> None:
    assert flow_scroll(0, 7.0) == 0.0
    assert flow_scroll(SURF_FLOWING, 0.0) == -64.0          # the wrap shows a whole -64, as the engine's
    assert flow_scroll(SURF_FLOWING, 10.0) == pytest.approx(-16.0)
    assert flow_scroll(SURF_FLOWING | SURF_WARP, 1.0) == pytest.approx(-0.5)
    assert (surface_alpha(0x10), surface_alpha(0x20), surface_alpha(0)) == (0.33, 0.66, 1.0)


@pytest.mark.parametrize(("eye", "face"), [((-68.0, 32.0, 30.0), 0), ((32.0, -68.0, 30.0), 1),
                                            ((90.0, 32.0, 17.0), 2), ((32.0, 132.0, 30.0), 3),
                                            ((32.0, 32.0, 40.0), 5)])
def test_sky_faces_show_the_box_face_in_their_direction(ctx, eye, face) -> None:
    """Looking +X shows rt, +Y bk, -X lf, -Y ft, down dn (Quake II's MakeSkyVec axes)."""
    world = quad_map(SURF_SKY | SURF_NODRAW)
    target = np.array((32.0, 32.0, 0.0))
    delta = target - eye
    yaw = np.degrees(np.arctan2(delta[1], delta[0]))
    pitch = -np.degrees(np.arctan2(delta[2], np.hypot(delta[0], delta[1])))
    pixels = draw(ctx, world, Camera(tuple(eye), (pitch, yaw, 0.0), fov=60), palette=flat_palette(), sky=sky_box())
    assert tuple(pixels[16, 16]) == SKY_COLOURS[face]


def test_the_sky_box_turns_about_its_axis(ctx) -> None:
    """A quarter turn about +Z brings the box's -Y face (ft) to +X after one second at 90 degrees a second."""
    world = quad_map(SURF_SKY)
    eye = Camera((-68.0, 32.0, 30.0), (16.7, 0.0, 0.0), fov=60)
    assert tuple(draw(ctx, world, eye, palette=flat_palette(), sky=sky_box(90.0), time=1.0)[16, 16]) == \
        SKY_COLOURS[3]
    rotation = sky_rotation(sky_box(90.0), 1.0)
    assert np.allclose(rotation.T @ (1.0, 0.0, 0.0), (0.0, -1.0, 0.0), atol=1e-6)


def test_nodraw_faces_without_sky_are_not_drawn(ctx) -> None:
    pixels = draw(ctx, quad_map(SURF_NODRAW), above_quad_a(), palette=flat_palette(), clear=(0.0, 1.0, 0.0))
    assert tuple(pixels[16, 16]) == (0, 255, 0)


def test_area_bits_hide_the_leafs_of_closed_areas(ctx) -> None:
    """Quad A is listed by leaf 2 in area 2: bits without area 2 leave it out; with every area it is drawn."""
    world = quad_map(0)
    camera = above_quad_a()
    assert draw(ctx, world, camera, palette=flat_palette(), areabits=b"\xff")[16, 16].sum() > 0
    assert draw(ctx, world, camera, palette=flat_palette(), areabits=bytes([0b010]))[16, 16].sum() == 0


@pytest.fixture(scope="module")
def terminal() -> SegmentAssets:
    fs = game_filesystem(None, str(QUAKE2), "action")
    return assets.load_map_assets(fs, "maps/terminal.bsp")


def test_terminal_renders_a_textured_lit_picture_from_its_player_start(ctx, terminal: SegmentAssets) -> None:
    assert terminal.world is not None
    start = map_start_camera(terminal.world)
    assert start.origin == (-448.0, -104.0, -146.0)   # info_player_start at z -168, eye 22 units up
    lit = render_map(terminal, start, (160, 90)).astype(int)
    assert lit.mean() > 5 and len(np.unique(lit.reshape(-1, 3), axis=0)) > 500
    ctx.__enter__()   # render_map made (and released) its own context current: make the fixture's current again
    target = OffscreenTarget(ctx, (160, 90))
    renderer = FrameRenderer(ctx, terminal)
    renderer.draw(SceneFrame(0.0, 0, start, (), np.zeros(64, np.float32)), target)
    unlit = target.read_rgb().astype(int)
    renderer.release()
    target.release()
    assert unlit.mean() < lit.mean() / 4   # with every light style off only the sky and unlit surfaces remain


def test_an_md2_player_model_is_drawn_with_the_skin_it_is_given(ctx) -> None:
    fs = game_filesystem(None, str(QUAKE2), "action")
    model = assets.load_model(fs, "players/sydney/tris.md2", ("players/sydney/sydney.pcx",))
    palette = assets.load_palette(fs)
    segment = BspSegment((assets.load_model(fs, ""), model), palette, lighting=assets.QUAKE2_LIGHTING)
    target = OffscreenTarget(ctx, (64, 64))
    renderer = FrameRenderer(ctx, segment)
    camera = Camera((-80.0, 0.0, 0.0), (0.0, 0.0, 0.0), fov=60)
    shown = EntityDraw(1, np.zeros(3), np.array((0.0, 180.0, 0.0)), frame=0, prev_frame=0, blend=0.0)
    renderer.draw(SceneFrame(0.0, 0, camera, (shown,), np.ones(64, np.float32)), target)
    pixels = target.read_rgb().astype(int)
    renderer.release()
    target.release()
    covered = pixels.sum(axis=2) > 0
    assert covered.sum() > 100 and not covered[:, :16].any() and not covered[:, -16:].any()
    assert len(np.unique(pixels[covered], axis=0)) > 10   # skin texels, not a flat placeholder


def test_an_md3_item_is_drawn_lit_by_the_light_under_it(ctx) -> None:
    fs = game_filesystem(None, str(QUAKE2), "action")
    with pytest.warns(UserWarning, match="checker"):
        segment = assets.load_segment_assets(fs, ("", "maps/terminal.bsp", "models/items/breather/tris.md2"))
    assert segment.models[2].kind == "md3"
    target = OffscreenTarget(ctx, (64, 64))
    renderer = FrameRenderer(ctx, segment)
    item = np.array((1532.0, -1257.0, 31.0))   # where the AQtion guide demo puts the rebreather
    camera = Camera((1490.0, -1257.0, 45.0), (15.0, 0.0, 0.0), fov=60)

    def item_pixels(styles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        shown = EntityDraw(2, item, np.zeros(3))
        renderer.draw(SceneFrame(0.0, 0, camera, (), styles), target)
        empty = target.read_rgb().astype(int)
        renderer.draw(SceneFrame(0.0, 0, camera, (shown,), styles), target)
        picture = target.read_rgb().astype(int)
        return picture, np.abs(picture - empty).sum(axis=2) > 0

    lit, where = item_pixels(np.ones(64, np.float32))
    dim, _ = item_pixels(np.full(64, 0.25, np.float32))
    renderer.release()
    target.release()
    assert where.sum() > 30 and not where[:, :8].any() and not where[:, -8:].any()   # the model, mid-view
    assert lit[where].mean() > 20 and dim[where].mean() < lit[where].mean() / 2   # lit by the lightmap under it


def test_a_fullbright_model_ignores_the_light_under_it(ctx) -> None:
    """RF_FULLBRIGHT (explosions): the same MD2 on terminal with the light styles full and dimmed to a quarter is
    the same picture when fullbright, and darker when lit by the map."""
    fs = game_filesystem(None, str(QUAKE2), "action")
    segment = assets.load_segment_assets(fs, ("", "maps/terminal.bsp", "players/sydney/sydney.pcx"))
    target = OffscreenTarget(ctx, (64, 64))
    renderer = FrameRenderer(ctx, segment)
    spot = np.array((1532.0, -1257.0, 31.0))
    camera = Camera((1450.0, -1257.0, 45.0), (10.0, 0.0, 0.0), fov=60)

    def picture(styles: float, fullbright: bool) -> tuple[np.ndarray, np.ndarray]:
        shown = EntityDraw(2, spot, np.array((0.0, 180.0, 0.0)), fullbright=fullbright)
        lights = np.full(64, styles, np.float32)
        renderer.draw(SceneFrame(0.0, 0, camera, (), lights), target)
        empty = target.read_rgb().astype(int)
        renderer.draw(SceneFrame(0.0, 0, camera, (shown,), lights), target)
        shot = target.read_rgb().astype(int)
        return shot, np.abs(shot - empty).sum(axis=2) > 0

    (lit, where), (dim, _) = picture(1.0, False), picture(0.25, False)
    (bright, bright_where), (bright_dim, _) = picture(1.0, True), picture(0.25, True)
    renderer.release()
    target.release()
    assert where.sum() > 100 and bright_where.sum() > 100
    assert dim[where].mean() < lit[where].mean() * 0.6
    assert np.array_equal(bright[bright_where], bright_dim[bright_where])
    assert bright[bright_where].mean() > lit[where].mean()


def test_a_colour_shell_is_the_model_pushed_out_in_one_flat_translucent_colour(ctx) -> None:
    """RF_SHELL_BLUE at 30 %: over black the shell is pure blue, 0.3 × 255 where one layer covers (more where the
    pushed-out mesh overlaps itself: translucent entities write no depth), and it covers more than the model itself
    (4 units out along the normals)."""
    fs = game_filesystem(None, str(QUAKE2), "action")
    segment = BspSegment((assets.load_model(fs, ""), assets.load_precache_model(fs, "players/sydney/sydney.pcx")),
                         assets.load_palette(fs), lighting=assets.QUAKE2_LIGHTING)
    target = OffscreenTarget(ctx, (64, 64))
    renderer = FrameRenderer(ctx, segment)
    camera = Camera((-80.0, 0.0, 0.0), (0.0, 0.0, 0.0), fov=60)

    def picture(draw: EntityDraw) -> np.ndarray:
        renderer.draw(SceneFrame(0.0, 0, camera, (draw,), np.ones(64, np.float32)), target)
        return target.read_rgb().astype(int)

    turned = np.array((0.0, 180.0, 0.0))
    model = picture(EntityDraw(1, np.zeros(3), turned))
    shell = picture(EntityDraw(1, np.zeros(3), turned, alpha=0.3, shell=(0.0, 0.0, 1.0)))
    renderer.release()
    target.release()
    covered, shelled = model.sum(axis=2) > 0, shell.sum(axis=2) > 0
    assert shelled.sum() > covered.sum() * 1.1 and (shelled | ~covered).all()
    blue = shell[shelled][:, 2]
    assert (shell[shelled][:, :2] == 0).all() and blue.min() >= 0.3 * 255 - 2
    assert np.mean(np.abs(blue - 0.3 * 255) <= 2) > 0.3


def test_an_md2_with_a_tga_skin_is_drawn_in_the_skin_colours(ctx, tmp_path) -> None:
    from PIL import Image
    (tmp_path / "action").symlink_to(QUAKE2 / "action")
    (tmp_path / "baseq2" / "players" / "sydney").mkdir(parents=True)
    Image.new("RGB", (32, 32), (0, 0, 220)).save(tmp_path / "baseq2" / "players" / "sydney" / "blue.tga")
    fs = game_filesystem(None, str(tmp_path), "action")
    model = assets.load_precache_model(fs, "players/sydney/blue.pcx")
    segment = BspSegment((assets.load_model(fs, ""), model), assets.load_palette(fs), lighting=assets.QUAKE2_LIGHTING)
    target = OffscreenTarget(ctx, (64, 64))
    renderer = FrameRenderer(ctx, segment)
    shown = EntityDraw(1, np.zeros(3), np.array((0.0, 180.0, 0.0)))
    renderer.draw(SceneFrame(0.0, 0, Camera((-80.0, 0.0, 0.0), (0.0, 0.0, 0.0), fov=60), (shown,),
                             np.ones(64, np.float32)), target)
    pixels = target.read_rgb().astype(int)
    renderer.release()
    target.release()
    covered = pixels.sum(axis=2) > 0
    assert covered.sum() > 100
    assert (pixels[covered][:, 2] > 0).all() and (pixels[covered][:, :2] == 0).all()   # blue, not a checker
