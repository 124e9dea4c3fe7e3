"""World renderer: lightstyles, fullbright texels, brush submodels and real maps, drawn headless."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.bsp import load_bsp
from assets_loader.palette import Palette, load_palette
from tests.builders.bsp import build_bsp
from tests.conftest import DATA
from viewer.render.view_math import entity_matrix, view_projection
from viewer.render.refdef import Camera, Look
from viewer.games.quake.fx import Lights
from viewer.render.context import OffscreenTarget
from viewer.render.bsp.world import BrushDraw, WorldRenderer, WorldView

SIZE = (32, 32)


def grey_palette() -> Palette:
    rgb = np.zeros((256, 3), np.uint8)
    rgb[:, :] = 60
    rgb[224] = (255, 0, 0)  # a fullbright index
    return Palette(rgb)


def render(ctx, world, camera: Camera, styles: np.ndarray, brushes=(), lights: Lights | None = None,
           fog=(0.0, 0.0, 0.0, 0.0), look: Look | None = None) -> np.ndarray:
    target = OffscreenTarget(ctx, SIZE)
    renderer = WorldRenderer(ctx, world, grey_palette())
    target.use()
    ctx.clear(0, 0, 0)
    view = WorldView(view_projection(camera, 1.0), camera.origin, 0.0, styles, fog, lights=lights,
                     look=look or Look())
    renderer.draw_world(view)
    renderer.draw_brushes(view, list(brushes))
    pixels = target.read_rgb()
    renderer.release()
    target.release()
    return pixels.astype(int)


def looking_down_at(x: float) -> Camera:
    return Camera((x, 32.0, 40.0), (90.0, 0.0, 0.0), fov=60)


def test_world_quad_is_lit_by_its_lightmap(ctx) -> None:
    world = load_bsp(build_bsp())
    on = render(ctx, world, looking_down_at(32), np.ones(64, np.float32))
    off = render(ctx, world, looking_down_at(32), np.zeros(64, np.float32))
    assert on[16, 16].sum() > 0
    assert off[16, 16].sum() == 0


def test_lightstyle_value_changes_brightness_of_its_block(ctx) -> None:
    world = load_bsp(build_bsp())
    brush = BrushDraw(1, entity_matrix((0, 0, 0), (0, 0, 0)))
    styles = np.ones(64, np.float32)
    styles[2] = 0.0
    base = render(ctx, world, looking_down_at(160), styles, [brush])
    styles[2] = 1.0
    brighter = render(ctx, world, looking_down_at(160), styles, [brush])
    assert brighter[16, 16].sum() > base[16, 16].sum() + 30


def test_the_light_cap_compiled_into_the_program_limits_bright_lightmaps(ctx) -> None:
    """Look.light_max (ezQuake's gl_lightmode 1: never brighter than the texture) reaches the shader as a constant:
    each cap gets its own program, and the capped picture is the texture's own grey where the light exceeds it."""
    from viewer.render.bsp.world import KIND_LIT, world_program

    capped_program = world_program(ctx, KIND_LIT, light=(1.0, 2.0, 1.0))
    assert capped_program is not world_program(ctx, KIND_LIT, light=(1.0, 2.0, 2.0))
    world = load_bsp(build_bsp())
    styles = np.full(64, 8.0, np.float32)          # eight times the lightmap: over the cap of 1
    overbright = render(ctx, world, looking_down_at(32), styles)
    capped = render(ctx, world, looking_down_at(32), styles, look=Look(light_max=1.0))
    assert overbright[16, 16].sum() > capped[16, 16].sum()
    assert list(capped[16, 16]) == [60, 60, 60]


def test_fullbright_texels_ignore_the_lightmap(ctx) -> None:
    world = load_bsp(build_bsp(textures=[f"t{i}" for i in range(15)], quad_miptex=(14, 0)))  # index 14*16 = 224
    dark = render(ctx, world, looking_down_at(32), np.zeros(64, np.float32))
    assert tuple(dark[16, 16]) == pytest.approx((255, 0, 0), abs=2)


def test_brush_entity_follows_its_matrix(ctx) -> None:
    world = load_bsp(build_bsp())
    styles = np.ones(64, np.float32)
    moved = BrushDraw(1, entity_matrix((-130, 0, 0), (0, 0, 0)))
    empty = render(ctx, world, looking_down_at(250), styles, [moved])
    assert empty[16, 16].sum() == 0
    shown = render(ctx, world, looking_down_at(30), styles, [moved])
    assert shown[16, 16].sum() > 0


@pytest.mark.parametrize("name", ["lqdm3", "lq_e0m1"])
def test_real_map_from_the_player_start_is_textured_and_varied(ctx, lq1_pak, name: str) -> None:
    world = load_bsp(lq1_pak.read(f"maps/{name}.bsp"), name=name, lit=lq1_pak.read(f"maps/{name}.lit"))
    start = next(e for e in world.entities if e.get("classname") == "info_player_start")
    x, y, z = (float(v) for v in start["origin"].split())
    camera = Camera((x, y, z + 22), (0.0, float(start.get("angle", 0)), 0.0))
    palette = load_palette(lq1_pak.read("gfx/palette.lmp"))
    target = OffscreenTarget(ctx, (160, 90))
    renderer = WorldRenderer(ctx, world, palette)
    target.use()
    ctx.clear(1.0, 0.0, 1.0)
    renderer.draw_world(WorldView(view_projection(camera, 16 / 9), camera.origin, 0.0, np.ones(64, np.float32)))
    pixels = target.read_rgb()
    renderer.release()
    magenta = (pixels[..., 0] == 255) & (pixels[..., 1] == 0) & (pixels[..., 2] == 255)
    assert magenta.mean() < 0.01, "the camera inside the map sees walls everywhere"
    assert len(np.unique(pixels.reshape(-1, 3) // 16, axis=0)) > 20
    assert 15 < pixels.mean() < 240


def light_at(origin, radius: float, color=(1.0, 1.0, 1.0)) -> Lights:
    return Lights(np.array([origin], np.float32), np.array([radius], np.float32), np.array([color], np.float32))


def test_dynamic_light_above_brightens_the_surface_under_it(ctx) -> None:
    world = load_bsp(build_bsp())
    styles = np.full(64, 0.25, np.float32)  # leave headroom below the overbright clamp
    base = render(ctx, world, looking_down_at(32), styles)
    lit = render(ctx, world, looking_down_at(32), styles, lights=light_at((32, 32, 24), 200))
    assert lit[16, 16].sum() > base[16, 16].sum() + 30
    far = render(ctx, world, looking_down_at(32), styles, lights=light_at((32, 32, 500), 200))
    assert np.array_equal(far, base), "a light whose radius does not reach the plane adds nothing"


def test_dynamic_light_is_coloured_and_falls_off_with_distance(ctx) -> None:
    world = load_bsp(build_bsp())
    styles = np.full(64, 0.25, np.float32)
    base = render(ctx, world, looking_down_at(32), styles)
    red = render(ctx, world, looking_down_at(32), styles, lights=light_at((32, 32, 24), 120, (1.0, 0.0, 0.0)))
    gain = red[16, 16] - base[16, 16]
    assert gain[0] > 20 and abs(gain[1]) <= 1 and abs(gain[2]) <= 1
    near = render(ctx, world, looking_down_at(32), styles, lights=light_at((32, 32, 8), 120))
    high = render(ctx, world, looking_down_at(32), styles, lights=light_at((32, 32, 60), 120))
    assert near[16, 16].sum() > high[16, 16].sum() > base[16, 16].sum()


def test_no_dynamic_lights_leaves_the_picture_unchanged(ctx) -> None:
    world = load_bsp(build_bsp())
    styles = np.full(64, 0.25, np.float32)
    without = render(ctx, world, looking_down_at(32), styles)
    empty = render(ctx, world, looking_down_at(32), styles, lights=Lights.empty())
    assert np.array_equal(without, empty)


def test_fog_blends_towards_its_colour_with_depth(ctx) -> None:
    world = load_bsp(build_bsp())
    styles = np.ones(64, np.float32)
    clear = render(ctx, world, looking_down_at(32), styles)
    foggy = render(ctx, world, looking_down_at(32), styles, fog=(1.0, 0.0, 0.0, 2.0))
    assert foggy[16, 16, 0] > clear[16, 16, 0] + 30
    assert foggy[16, 16, 1] < clear[16, 16, 1]


@pytest.mark.parametrize("name", ["min_no_faces.bsp", "bsp2_no_triangles.bsp"])
def test_a_map_without_drawable_faces_renders_an_empty_world_with_a_warning(ctx, name) -> None:
    world = load_bsp(DATA / "bad-input" / name)
    assert world.mesh.num_triangles == 0
    with pytest.warns(UserWarning, match=f"{name}: the map has no drawable faces; rendering an empty world"):
        pixels = render(ctx, world, looking_down_at(32.0), np.full(64, 1.0, np.float32))
    assert not pixels.any()


def test_q2pro_dynamic_lights_fall_off_sooner_and_skip_what_is_under_the_cutoff(ctx) -> None:
    """Q2PRO's gl_dlight_falloff 1: the same light at the light's foot, none 51.2 units sooner, and nothing where
    less than DLIGHT_CUTOFF (64) of the radius reaches the plane."""
    world = load_bsp(build_bsp())
    styles = np.full(64, 0.25, np.float32)
    q2pro = Look(dlights="q2pro")
    base = render(ctx, world, looking_down_at(32), styles)
    faint = light_at((32, 32, 24), 80)                     # 56 left on the floor
    assert render(ctx, world, looking_down_at(32), styles, lights=faint)[16, 16].sum() > base[16, 16].sum() + 10
    assert np.array_equal(render(ctx, world, looking_down_at(32), styles, lights=faint, look=q2pro), base)
    light = light_at((32, 32, 24), 120)
    quake = render(ctx, world, looking_down_at(32), styles, lights=light)
    falloff = render(ctx, world, looking_down_at(32), styles, lights=light, look=q2pro)
    assert abs(int(quake[16, 16].sum()) - int(falloff[16, 16].sum())) <= 6
    edge = (16, 1)
    assert quake[edge].sum() > falloff[edge].sum() + 6 and falloff[edge].sum() >= base[edge].sum()
