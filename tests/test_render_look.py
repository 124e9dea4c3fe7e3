"""Looking like the engines (issue 17): fog on models, sprites and particles with QuakeSpasm's formula, the sky under
the fog, worldspawn water alpha, the screen blend pass, the status bar's opacity, coloured model light and the
per-game light cap, all drawn headless."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assets_loader.bsp import load_bsp
from assets_loader.palette import Palette
from tests.builders.bsp import build_bsp
from tests.test_hud import _state
from tests.test_render_alias import CAMERA, PALETTE, UNLIT, _fill, _model
from viewer.render.bsp.records import BspSegment
from viewer.games.quake.hud import SbarStyle, build_hud
from viewer.games.quake.look import EZQUAKE, EZQUAKE_SBAR, QUAKESPASM, QUAKESPASM_SBAR
from viewer.render.alias_program import AliasLight
from viewer.render.bsp.alias import AliasRenderer
from viewer.render.context import OffscreenTarget
from viewer.render.bsp.renderer import water_alpha_from_worldspawn
from viewer.render.frame import FrameRenderer
from viewer.render.refdef import Camera, Look, SceneFrame
from viewer.render.view_math import entity_matrix, view_projection

SIZE = 64
SKIN_INDEX = 20                      # not fullbright
FOG_RED = (1.0, 0.0, 0.0)


def exp2_fog_share(density: float, depth: float) -> float:
    """QuakeSpasm's GL_EXP2 fog: the share of the fog colour at eye depth ``depth`` (density as in ``fog``)."""
    d = density / 64.0 * depth
    return 1.0 - math.exp(-d * d)


@pytest.fixture(scope="module")
def alias(ctx):
    r = AliasRenderer(ctx)
    yield r
    r.release()


@pytest.fixture()
def target(ctx):
    t = OffscreenTarget(ctx, (SIZE, SIZE))
    yield t
    t.release()


def _draw_square(ctx, target, alias, camera: Camera, fog=(0.0, 0.0, 0.0, 0.0), light=UNLIT, light_max=2.0):
    handle = alias.upload(_model([_fill(SKIN_INDEX)]), PALETTE)
    target.use()
    ctx.clear(0.0, 0.0, 0.0, 1.0, depth=1.0)
    alias.set_look(light_max, fog)
    alias.draw(handle, view_projection(camera, 1.0), entity_matrix((0, 0, 0), (0, 0, 0)), 0, light=light)
    alias.set_look(2.0, (0.0, 0.0, 0.0, 0.0))
    pixels = target.read_rgb().astype(float)
    handle.release()
    return pixels[SIZE // 2, SIZE // 2]


@pytest.mark.parametrize("distance, density", [(64.0, 0.5), (64.0, 1.0), (96.0, 0.5)])
def test_fogged_model_at_distance_has_the_formula_share_of_fog(ctx, target, alias, distance, density) -> None:
    camera = Camera((-distance, 0.0, 0.0), (0.0, 0.0, 0.0))
    skin = np.asarray(PALETTE.rgb[SKIN_INDEX], float)
    share = exp2_fog_share(density, distance)
    expected = (1 - share) * skin + share * np.array(FOG_RED) * 255
    got = _draw_square(ctx, target, alias, camera, fog=(*FOG_RED, density))
    assert np.abs(got - expected).max() <= 3, (got, expected, share)


def test_model_without_fog_is_its_skin(ctx, target, alias) -> None:
    got = _draw_square(ctx, target, alias, CAMERA)
    assert np.abs(got - PALETTE.rgb[SKIN_INDEX]).max() <= 2


def test_coloured_light_tints_the_model(ctx, target, alias) -> None:
    white = _draw_square(ctx, target, alias, CAMERA, light=AliasLight.from_level(np.array([64.0, 64.0, 64.0])))
    reddish = _draw_square(ctx, target, alias, CAMERA, light=AliasLight.from_level(np.array([128.0, 32.0, 32.0])))
    assert reddish[0] > white[0] + 20
    assert reddish[1] < white[1] - 20


def test_light_cap_of_the_look(ctx, target, alias) -> None:
    bright = AliasLight(ambient=255.0, shade=0.0)
    quakespasm = _draw_square(ctx, target, alias, CAMERA, light=bright, light_max=2.0)   # Quake lighting scale
    ezquake = _draw_square(ctx, target, alias, CAMERA, light=bright, light_max=EZQUAKE.light_max)
    skin = np.asarray(PALETTE.rgb[SKIN_INDEX], float)
    assert np.abs(ezquake - skin).max() <= 2                       # never brighter than the skin
    assert np.all(quakespasm >= np.minimum(skin * 1.9, 255) - 3)   # about twice (clamped to white)


# --- the world: water alpha, sky fog, light cap ------------------------------------------------------------------

def _grey_palette() -> Palette:
    rgb = np.full((256, 3), 60, np.uint8)
    rgb[224] = (255, 0, 0)
    return Palette(rgb)


def _frame_pixels(ctx, world, look: Look = QUAKESPASM, **frame_kw) -> np.ndarray:
    target = OffscreenTarget(ctx, (32, 32))
    renderer = FrameRenderer(ctx, BspSegment((), _grey_palette(), look=look, world=world))
    camera = Camera((32.0, 32.0, 40.0), (90.0, 0.0, 0.0), fov=60)
    renderer.draw(SceneFrame(0.0, 0, camera, (), np.ones(64, np.float32), **frame_kw), target)
    pixels = target.read_rgb().astype(float)
    renderer.release()
    target.release()
    return pixels


def _water_map(wateralpha_key: str | None):
    extra = f'"{wateralpha_key}" "0.5"\n' if wateralpha_key else ""
    entities = '{\n"classname" "worldspawn"\n' + extra + '}\n'
    return load_bsp(build_bsp(textures=["*water", None], entities=entities))


@pytest.mark.parametrize("key", ["wateralpha", "_wateralpha"])
def test_worldspawn_water_alpha_blends_the_liquid_over_what_is_behind(ctx, key) -> None:
    opaque = _frame_pixels(ctx, _water_map(None))[16, 16]
    half = _frame_pixels(ctx, _water_map(key))[16, 16]
    assert opaque.max() > 30
    assert np.abs(half - opaque * 0.5).max() <= 3               # over the black clear colour


def test_water_alpha_override_wins_over_the_map(ctx) -> None:
    world = _water_map("wateralpha")
    opaque = _frame_pixels(ctx, world, water_alpha=1.0)[16, 16]
    quarter = _frame_pixels(ctx, world, water_alpha=0.25)[16, 16]
    assert np.abs(quarter - opaque * 0.25).max() <= 3


def test_water_alpha_key_parsing() -> None:
    assert water_alpha_from_worldspawn({}) == 1.0
    assert water_alpha_from_worldspawn({"wateralpha": "0.66"}) == pytest.approx(0.66)
    assert water_alpha_from_worldspawn({"_wateralpha": "0.85"}) == pytest.approx(0.85)
    assert water_alpha_from_worldspawn({"wateralpha": "7"}) == 1.0
    with pytest.warns(UserWarning):
        assert water_alpha_from_worldspawn({"wateralpha": "clear"}) == 1.0


def test_world_light_cap_per_look(ctx) -> None:
    world = load_bsp(build_bsp())
    styles = np.full(64, 40.0, np.float32)           # a very bright style: the lightmap saturates
    camera_kw = dict(styles=styles)
    quakespasm = _frame_pixels_styles(ctx, world, QUAKESPASM, **camera_kw)
    ezquake = _frame_pixels_styles(ctx, world, EZQUAKE, **camera_kw)
    assert ezquake[16, 16].max() == pytest.approx(60, abs=2)        # the texture as painted, never brighter
    assert quakespasm[16, 16].max() == pytest.approx(120, abs=3)    # QuakeSpasm's overbright: twice


def _frame_pixels_styles(ctx, world, look: Look, styles: np.ndarray) -> np.ndarray:
    target = OffscreenTarget(ctx, (32, 32))
    renderer = FrameRenderer(ctx, BspSegment((), _grey_palette(), look=look, world=world))
    camera = Camera((32.0, 32.0, 40.0), (90.0, 0.0, 0.0), fov=60)
    renderer.draw(SceneFrame(0.0, 0, camera, (), styles), target)
    pixels = target.read_rgb().astype(float)
    renderer.release()
    target.release()
    return pixels


# --- the screen blend -----------------------------------------------------------------------------------------

def test_screen_blend_covers_the_view_with_its_share(ctx) -> None:
    world = load_bsp(build_bsp())
    plain = _frame_pixels(ctx, world)
    red = _frame_pixels(ctx, world, blend=(1.0, 0.0, 0.0, 0.4))
    expected = plain * 0.6 + np.array([255.0, 0.0, 0.0]) * 0.4
    assert np.abs(red - expected).max() <= 3


# --- the status bar ------------------------------------------------------------------------------------------

def test_quakespasm_status_bar_is_one_x_translucent_and_over_the_view() -> None:
    layout = build_hud(_state(), (), (1280, 720), 2, sbar=QUAKESPASM_SBAR)
    backgrounds = [q for q in layout.quads if q.kind == "pic" and q.ref in ("sbar", "ibar")]
    assert {q.ref for q in backgrounds} == {"sbar", "ibar"}
    assert all(q.alpha == pytest.approx(0.75) and q.w == 320 and q.h == 24 for q in backgrounds)
    assert not [q for q in layout.quads if q.kind == "tile"]                 # the 3D view shows beside the bar
    assert layout.sbar_lines == 48
    icons = [q for q in layout.quads if q.kind == "pic" and q.ref not in ("sbar", "ibar")]
    assert icons and all(q.alpha == 1.0 for q in icons)


def test_ezquake_status_bar_is_opaque_at_the_hud_scale() -> None:
    layout = build_hud(_state(), (), (1280, 720), 2, sbar=EZQUAKE_SBAR)
    bars = [q for q in layout.quads if q.kind == "pic" and q.ref in ("sbar", "ibar")]
    assert all(q.alpha == 1.0 and q.w == 640 for q in bars)
    assert [q for q in layout.quads if q.kind == "tile"]
    assert layout.sbar_lines == 96


def test_status_bar_alpha_draws_the_view_through(ctx, lq1_pak) -> None:
    from assets_loader.palette import load_palette
    from assets_loader.vfs import VirtualFS
    from tests.conftest import LQ1
    from viewer.games.quake.hud_pics import load_hud_pics
    from viewer.render.hud_overlay import HudRenderer

    hud = HudRenderer(ctx, load_palette(lq1_pak.read("gfx/palette.lmp")), load_hud_pics(VirtualFS(LQ1.parent, "lq1")))
    target = OffscreenTarget(ctx, (320, 200))
    pictures = []
    for background in ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0)):
        target.use()
        ctx.clear(*background)
        hud.draw(build_hud(_state(), (), (320, 200), 1, sbar=SbarStyle(scale=1, alpha=0.75, backtile=False)),
                 (320, 200))
        pictures.append(target.read_rgb().astype(float))
    hud.release()
    target.release()
    on_black, on_white = pictures
    # A background texel of the bar (left of the face): 0.75 picture + 0.25 background.
    diff = on_white[200 - 12, 2] - on_black[200 - 12, 2]
    assert np.abs(diff - 0.25 * 255).max() <= 3


def test_model_light_rules_of_quakespasm_glquake_and_ref_gl() -> None:
    light = AliasLight.from_level(50.0, rule="quakespasm")
    assert light.ambient == pytest.approx(50.0 * 1.28) and light.shade == light.ambient
    assert AliasLight.from_level(200.0, rule="quakespasm").ambient == pytest.approx(96.0 * 1.28)
    assert AliasLight.from_level(0.0, view_model=True, rule="quakespasm").ambient == pytest.approx(24.0 * 1.28)
    glquake = AliasLight.from_level(200.0, rule="glquake")
    ref_gl = AliasLight.from_level(np.array([300.0, 150.0, 150.0]), rule="ref_gl")   # no clamp, the level itself
    assert (ref_gl.ambient, ref_gl.shade) == (200.0, 200.0) and ref_gl.color == (1.5, 0.75, 0.75)
    weapon = AliasLight.from_level(np.array([20.0, 5.0, 5.0]), view_model=True, rule="ref_gl")   # RF_MINLIGHT
    assert (weapon.ambient, weapon.color) == (25.5, (1.0, 1.0, 1.0))
    assert AliasLight.from_level(np.array([30.0, 5.0, 5.0]), view_model=True, rule="ref_gl").ambient \
        == pytest.approx(40.0 / 3)
    assert (glquake.ambient, glquake.shade) == (128.0, 64.0)
