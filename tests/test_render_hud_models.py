"""The HUD's 3D models (``CG_Draw3DModel``): each drawn in its own box with its own projection, the world's light
grid and fog left out, the rest of the picture untouched and the viewport given back."""

from __future__ import annotations

import math

import numpy as np

from assets_loader.models.md3 import load_md3
from assets_loader.q3shaders import ShaderLibrary, parse_shader_text
from viewer.render.context import OffscreenTarget
from viewer.render.shaded.hud_models import draw_hud_models, icon_projection
from viewer.render.shaded.md3 import Md3Renderer, no_world_light
from viewer.render.shaded.records import Md3Draw, Quake3Models
from viewer.render.refdef import HudModel

from .builders.md3 import Md3Spec, Md3SurfaceSpec, build_md3

SCRIPT = "models/test/skin\n{\n cull none\n { map $whiteimage\n rgbGen const ( 0 1 0 ) }\n}\n"


def _card() -> Md3SurfaceSpec:
    """A 40 × 40 square in the model's YZ plane (it faces the camera down +X)."""
    corners = np.array([[[0.0, -20.0, -20.0], [0.0, 20.0, -20.0], [0.0, 20.0, 20.0], [0.0, -20.0, 20.0]]], np.float32)
    return Md3SurfaceSpec("s_card", corners, np.zeros((1, 4), np.uint16), np.zeros((4, 2), np.float32),
                          np.array([[0, 1, 2], [0, 2, 3]], np.int32))


def test_the_icon_camera_looks_down_x_with_left_on_the_left() -> None:
    m = icon_projection(30.0, 30.0)
    edge = 10.0 * math.tan(math.radians(15.0))
    clip = m @ np.array([10.0, edge, edge, 1.0])
    assert np.allclose(clip[:2] / clip[3], [-1.0, 1.0], atol=1e-5)      # +Y (left) at the left, +Z at the top
    wide = icon_projection(60.0, 30.0) @ np.array([10.0, edge, 0.0, 1.0])
    assert wide[0] / wide[3] > -0.5                                     # a wider fov squeezes it towards the middle


def test_no_world_light_is_the_renderers_fixed_light_turned_into_the_model() -> None:
    light = no_world_light(np.eye(3))
    assert np.allclose(light.ambient, 182 / 255) and np.allclose(light.directed, 150 / 255)
    turned = no_world_light(np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]))
    assert np.allclose(turned.direction, [light.direction[1], -light.direction[0], light.direction[2]])


def test_a_model_is_drawn_inside_its_box_only(ctx) -> None:
    library = ShaderLibrary(parse_shader_text(SCRIPT), (), ())
    spec = Md3Spec("card.md3", ["f0"], {}, [_card()])
    spec.surfaces[0].shaders = ["models/test/skin"]
    models = Quake3Models({"card.md3": load_md3(build_md3(spec), "card.md3")}, library)
    renderer = Md3Renderer(ctx, models, None)
    target = OffscreenTarget(ctx, (96, 64))
    try:
        target.use()
        ctx.clear(0.0, 0.0, 0.0, depth=1.0)
        card = Md3Draw("card.md3", np.array([120.0, 0.0, 0.0], np.float32), np.eye(3, dtype=np.float32))
        box = HudModel(10, 20, 30, 24, card)
        draw_hud_models(ctx, renderer, (box, HudModel(80, 50, 30, 30, card)), target.size, 0.0)
        assert ctx.viewport == (0, 0, 96, 64) and ctx.scissor == (0, 0, 96, 64)
        pixels = target.read_rgb().astype(np.int32)
    finally:
        renderer.release()
        target.release()
    green = pixels[..., 1] > 128
    inside = np.zeros_like(green)
    inside[20:44, 10:40] = True
    inside[50:64, 80:96] = True                                          # the second box, cut by the screen's edge
    assert green[20:44, 10:40].any() and green[50:64, 80:96].any()
    assert not green[~inside].any()
    rows = np.flatnonzero(green[20:44, 10:40].any(axis=1))
    columns = np.flatnonzero(green[20:44, 10:40].any(axis=0))
    # 40 units at 120 with ±15°: 20 / 32 of the half-box each way, centred: the box's own camera
    assert abs(len(rows) - 24 * 20 / 32.2) <= 1.5 and abs(len(columns) - 30 * 20 / 32.2) <= 1.5
    assert abs((rows[0] + rows[-1]) / 2 - 11.5) <= 1.0 and abs((columns[0] + columns[-1]) / 2 - 14.5) <= 1.0
