"""Quake III dynamic lights in the renderer: the falloff image, which surfaces a light reaches, the light added to
a model, and on the GPU the projected pass brightening the map near a light (only there, and not on a
``nodlight`` surface), with the picture unchanged without lights."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.bsp46 import load_bsp46
from assets_loader.q3shaders import default_shader, parse_shader_text
from viewer.render.q3.records import Quake3Segment
from viewer.games.quake3.assets import GREY_PALETTE
from viewer.render.context import OffscreenTarget
from viewer.render.frame import FrameRenderer
from viewer.render.shaded.dlights import SurfaceBounds, dlight_image, lit_surfaces, model_dlights
from viewer.render.q3.records import Quake3World
from viewer.render.refdef import Camera, Lights, SceneFrame
from viewer.render.view_math import view_projection

from .builders.bsp46 import build_bsp46

SIZE = (64, 64)
#: Above the quad x 100..164, y 0..64 (z 0) of the builder's default map, looking straight down.
ABOVE_QUAD = Camera((132.0, 32.0, 40.0), (90.0, 0.0, 0.0))
#: An orange light 16 units over the quad's x = 110 end, reaching 48 units.
LAMP = Lights(np.array([[110.0, 32.0, 16.0]], np.float32), np.array([48.0], np.float32),
              np.array([[1.0, 0.75, 0.0]], np.float32))


def _light(xyz, radius, rgb=(1.0, 1.0, 1.0)) -> Lights:
    return Lights(np.array([xyz], np.float32), np.array([radius], np.float32), np.array([rgb], np.float32))


def _level(script: str = "") -> Quake3World:
    world = load_bsp46(build_bsp46(), "maps/test.bsp")
    scripted = parse_shader_text(script)
    shaders = tuple(scripted.get(world.shader_names[int(b["shader"])].lower())
                    or default_shader(world.shader_names[int(b["shader"])].lower(), int(b["lightmap"]))
                    for b in world.batches)
    grey = np.full((8, 8, 4), 128, np.uint8)
    return Quake3World(world, shaders, {"textures/test/floor": grey}, (), ())


def _render(ctx, level: Quake3World, lights: Lights | None) -> np.ndarray:
    target = OffscreenTarget(ctx, SIZE)
    renderer = FrameRenderer(ctx, Quake3Segment((), GREY_PALETTE, q3_world=level))
    try:
        renderer.draw(SceneFrame(0.0, 0, ABOVE_QUAD, (), np.ones(64, np.float32), lights=lights), target)
        return target.read_rgb().astype(np.int32)
    finally:
        renderer.release()
        target.release()


def _pixel(point) -> tuple[int, int]:
    clip = np.array([*point, 1.0]) @ view_projection(ABOVE_QUAD, 1.0).T
    ndc = clip[:2] / clip[3]
    return int((1 - ndc[1]) / 2 * SIZE[1]), int((ndc[0] + 1) / 2 * SIZE[0])


def test_the_falloff_image_is_a_bright_centre_fading_to_a_black_edge() -> None:
    image = dlight_image()
    assert image.shape == (16, 16, 4) and (image[..., 3] == 255).all()
    assert image[7, 7, 0] == 255 and image[8, 8, 0] == 255                 # the centre saturates
    assert (image[0, :, 0] == 0).all() and (image[:, 0, 0] == 0).all()      # the edge is black (clamped beyond)
    assert image[7, 2, 0] == int(4000 / ((7.5 - 7) ** 2 + (7.5 - 2) ** 2))  # 4000 / d², 5.5 texels out: 131


def test_a_light_reaches_surfaces_whose_bounds_and_plane_it_overlaps() -> None:
    world = load_bsp46(build_bsp46(), "maps/test.bsp")
    bounds = SurfaceBounds.of(world)
    assert bounds.planar[0] and np.allclose(bounds.normal[0], (0, 0, 1)) and bounds.dist[0] == 0
    assert np.allclose(bounds.mins[0], (100, 0, 0)) and np.allclose(bounds.maxs[0], (164, 64, 0))
    everything = np.arange(len(world.surfaces))
    numbers, bits = lit_surfaces(bounds, everything, LAMP)
    assert 0 in numbers and bits[numbers.tolist().index(0)] == 1
    assert 0 not in lit_surfaces(bounds, everything, _light((132, 32, 60), 48))[0]   # over the plane, too high
    assert 0 not in lit_surfaces(bounds, everything, _light((40, 32, 0), 48))[0]     # beside the bounds
    both = Lights(np.array([[40, 32, 0], [110, 32, 16]], np.float32), np.array([48, 48], np.float32),
                  np.ones((2, 3), np.float32))
    numbers, bits = lit_surfaces(bounds, everything, both)
    assert bits[numbers.tolist().index(0)] == 0b10                               # only the second reaches it
    assert len(lit_surfaces(bounds, everything, Lights.empty())[0]) == 0


def test_a_light_adds_to_a_model_directed_light_and_turns_it_toward_itself() -> None:
    directed, direction = np.array([0.2, 0.2, 0.2]), np.array([0.0, 0.0, 1.0])
    total, way = model_dlights(_light((64, 0, 0), 200, (1.0, 0.5, 0.0)), (0, 0, 0), directed, direction)
    weight = 16 * 200 ** 2 / 64 ** 2 / 255                                 # DLIGHT_AT_RADIUS · r² / d², in 0‥1
    assert total == pytest.approx(directed + weight * np.array([1.0, 0.5, 0.0]))
    toward = np.array([weight * 255, 0.0, np.linalg.norm(directed) * 255])  # light's weight vs the grid's length
    assert way == pytest.approx(toward / np.linalg.norm(toward))          # turned toward the light
    close, _ = model_dlights(_light((4, 0, 0), 100), (0, 0, 0), directed, direction)
    assert close[0] == pytest.approx(0.2 + 16 * 100 ** 2 / 16 ** 2 / 255)  # distance counted as at least 16


def test_the_projected_pass_brightens_the_floor_near_the_light_only(ctx) -> None:
    level = _level()
    dark = _render(ctx, level, None)
    assert np.array_equal(dark, _render(ctx, level, Lights.empty()))
    lit = _render(ctx, level, LAMP)
    under = _pixel((110, 32, 0))
    outside = _pixel((162, 32, 0))                                         # 52 units away: beyond the radius
    assert lit[under][0] > dark[under][0] * 1.8 and lit[under][1] > dark[under][1] * 1.5
    assert lit[under][2] == dark[under][2]                                  # the light has no blue
    assert np.array_equal(lit[outside], dark[outside])
    changed = np.abs(lit - dark).sum(axis=2) > 0
    assert 0.05 < changed.mean() < 0.6 and (lit >= dark).all()              # a pool of light, never darker


def test_two_lights_each_brighten_the_floor_by_their_own_pass(ctx) -> None:
    level = _level()
    dark = _render(ctx, level, None)
    red, blue = _light((110, 32, 16), 48, (1.0, 0.0, 0.0)), _light((154, 32, 16), 48, (0.0, 0.0, 1.0))
    both = Lights(np.concatenate([red.origins, blue.origins]), np.concatenate([red.radius, blue.radius]),
                  np.concatenate([red.colors, blue.colors]))
    one, other, together = _render(ctx, level, red), _render(ctx, level, blue), _render(ctx, level, both)
    assert np.abs(together - (one + other - dark)).max() <= 2                  # channels apart: passes add up
    assert (one[..., 2] == dark[..., 2]).all() and (other[..., 0] == dark[..., 0]).all()


def test_a_nodlight_surface_takes_no_light(ctx) -> None:
    level = _level("textures/test/floor\n{\n surfaceparm nodlight\n { map $lightmap }\n"
                   " { map textures/test/floor\n blendFunc GL_DST_COLOR GL_ZERO }\n}\n")
    assert np.array_equal(_render(ctx, level, LAMP), _render(ctx, level, None))
