"""MD3 drawing: a Quake III player assembled on its tags with a weapon draws lit from oa_dm1's light grid."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assets_loader.bsp46 import LightGrid
from assets_loader.models.q3player import ANIM, WEAPON_MODELS
from viewer.render.q3.records import Quake3Segment
from viewer.games.quake3 import assets as q3assets
from viewer.games.quake3.players import PlayerDraw, player_md3_draws
from viewer.render.context import OffscreenTarget
from viewer.render.frame import FrameRenderer
from viewer.render.shaded.md3 import grid_light
from viewer.render.refdef import Camera, SceneFrame

CAMERA = Camera((193.6, 1119.4, -93.9), (0.0, 90.0, 0.0), 74.0)


def _sarge(fs):
    assets = q3assets.load_segment_assets(fs, "maps/oa_dm1.bsp", ("", "maps/oa_dm1.bsp", WEAPON_MODELS[5]),
                                          ("sarge",))
    facing = (0.0, 270.0, 0.0)   # towards the camera
    sarge = PlayerDraw("sarge", np.array((193.6, 1209.4, -119.9), np.float32), facing, facing, facing,
                       ANIM["LEGS_IDLE"], 0.0, ANIM["TORSO_STAND"], 0.0, WEAPON_MODELS[5])
    return assets, player_md3_draws(assets.md3, sarge)


def _without_and_with(ctx, assets, draws, watch=None) -> list[np.ndarray]:
    """The 160×90 pictures from :data:`CAMERA` without any model and with ``draws`` (``int32 [H, W, 3]``);
    ``watch(renderer)`` sees the frame renderer once it is made."""
    target = OffscreenTarget(ctx, (160, 90))
    renderer = FrameRenderer(ctx, assets)
    if watch is not None:
        watch(renderer)
    try:
        pictures = []
        for md3 in ((), draws):
            renderer.draw(SceneFrame(0.0, 0, CAMERA, (), np.ones(64, np.float32), md3=md3), target)
            pictures.append(target.read_rgb().astype(np.int32))
    finally:
        renderer.release()
        target.release()
    return pictures


def test_a_player_with_its_weapon_draws_in_front_of_the_wall(ctx, q3_fs) -> None:
    assets, draws = _sarge(q3_fs)
    assert [d.model for d in draws] == ["models/players/sarge/lower.md3", "models/players/sarge/upper.md3",
                                        "models/players/sarge/head.md3", WEAPON_MODELS[5]]
    pictures = _without_and_with(ctx, assets, draws)
    changed = np.abs(pictures[0] - pictures[1]).sum(axis=2) > 30
    rows, cols = np.nonzero(changed)
    assert changed.mean() > 0.02 and 60 < cols.mean() < 100       # a figure in the middle of the picture
    assert rows.max() - rows.min() > 30                            # standing: taller than wide
    assert pictures[1][changed].mean() > 20                        # lit, not black


def test_grid_light_turns_the_direction_into_the_model_axes() -> None:
    cells = np.zeros((1, 1, 1), [("ambient", "u1", (3,)), ("directed", "u1", (3,)), ("lng", "u1"), ("lat", "u1")])
    cells["ambient"] = 51
    cells["directed"] = 255
    cells["lng"] = 64  # 90° from +z: the light comes from +x (lat 0)
    grid = LightGrid((0.0, 0.0, 0.0), (64.0, 64.0, 128.0), (1, 1, 1), cells)
    yaw90 = np.array([[0, 1, 0], [-1, 0, 0], [0, 0, 1]], np.float32)  # forward +y, left -x
    light = grid_light(grid, (0.0, 0.0, 0.0), yaw90)
    sample = grid.sample((0.0, 0.0, 0.0))
    # R_SetupEntityLighting's fixed minimum add of 32 (0..255), before the clamp
    assert np.allclose(light.ambient, np.minimum((np.asarray(sample.ambient) + 32) / 255, 1))
    assert np.allclose(light.ambient, (51 * 0.6 + 32) / 255)   # r_ambientScale 0.6
    assert np.allclose(light.direction, (0.0, -1.0, 0.0), atol=1e-6)
    assert math.isclose(sum(c * c for c in light.direction), 1.0, abs_tol=1e-6)


def test_blended_map_surfaces_draw_over_the_models_behind_them(ctx) -> None:
    """A model under an additive floor: the model first (sort opaque), then the floor's glow added on top."""
    from assets_loader.models.md3 import load_md3
    from assets_loader.q3shaders import ShaderLibrary, parse_shader_text
    from viewer.render.shaded.records import Md3Draw, Quake3Models

    from .builders.bsp46 import build_bsp46
    from .builders.md3 import build_md3
    from .test_render_q3world import ABOVE_QUAD, SIZE, _world

    script = ("textures/test/floor\n{\n { map $whiteimage\n blendFunc GL_ONE GL_ONE\n"
              " rgbGen const ( 0.25 0.25 0.25 ) }\n}\n"
              "models/test/skin\n{\n cull none\n { map $whiteimage\n rgbGen const ( 0.5 0 0 ) }\n}\n")
    level = _world(build_bsp46(), script)
    library = ShaderLibrary(parse_shader_text(script), (), ())
    models = Quake3Models({"models/test.md3": load_md3(build_md3(), "models/test.md3")}, library)
    assets = Quake3Segment((), q3assets.GREY_PALETTE, md3=models, q3_world=level)
    draw = Md3Draw("models/test.md3", np.array([126.0, 26.0, -10.0]), np.eye(3, dtype=np.float32))
    target = OffscreenTarget(ctx, SIZE)
    renderer = FrameRenderer(ctx, assets)
    try:
        renderer.draw(SceneFrame(0.0, 0, ABOVE_QUAD, (), np.ones(64, np.float32), md3=(draw,)), target)
        pixel = target.read_rgb().astype(np.int32)[32, 32]
    finally:
        renderer.release()
        target.release()
    assert np.abs(pixel - np.array([192, 64, 64])).max() <= 3, pixel


def _draw_test_model(ctx, script: str, shader_rgba=(255, 255, 255, 255)) -> np.ndarray:
    """The builder's MD3 drawn with ``models/test/skin`` over an empty map, seen from above: the centre pixel."""
    from assets_loader.models.md3 import load_md3
    from assets_loader.q3shaders import ShaderLibrary, parse_shader_text
    from viewer.render.shaded.records import Md3Draw, Quake3Models

    from .builders.bsp46 import build_bsp46
    from .builders.md3 import build_md3
    from .test_render_q3world import ABOVE_QUAD, SIZE, _world

    level = _world(build_bsp46(), "textures/test/floor\n{\n surfaceparm nodraw\n}\n")
    library = ShaderLibrary(parse_shader_text(script), (), ())
    models = Quake3Models({"models/test.md3": load_md3(build_md3(), "models/test.md3")}, library)
    assets = Quake3Segment((), q3assets.GREY_PALETTE, md3=models, q3_world=level)
    draw = Md3Draw("models/test.md3", np.array([126.0, 26.0, -10.0]), np.eye(3, dtype=np.float32),
                   shader_rgba=shader_rgba)
    target = OffscreenTarget(ctx, SIZE)
    renderer = FrameRenderer(ctx, assets)
    try:
        renderer.draw(SceneFrame(0.0, 0, ABOVE_QUAD, (), np.ones(64, np.float32), md3=(draw,)), target)
        return target.read_rgb().astype(np.int32)[32, 32]
    finally:
        renderer.release()
        target.release()


@pytest.mark.parametrize("stages, expected", [
    ("{ map $whiteimage\n rgbGen entity }", (255, 128, 0)),
    ("{ map $whiteimage\n rgbGen oneMinusEntity }", (0, 127, 255)),
    ("{ map $whiteimage\n rgbGen const ( 0 0 0 ) }\n{ map $whiteimage\n blendFunc blend\n alphaGen entity }",
     (64, 64, 64)),
    ("{ map $whiteimage\n rgbGen const ( 0 0 0 ) }\n"
     "{ map $whiteimage\n blendFunc blend\n alphaGen oneMinusEntity }", (191, 191, 191)),
])
def test_entity_colour_stages_use_the_entity_shader_rgba(ctx, stages: str, expected) -> None:
    """``rgbGen entity``/``oneMinusEntity`` and ``alphaGen entity``/``oneMinusEntity`` take the refEntity's
    ``shaderRGBA`` (here 255 128 0 64)."""
    script = "models/test/skin\n{\n cull none\n " + stages + "\n}\n"
    pixel = _draw_test_model(ctx, script, (255, 128, 0, 64))
    assert np.abs(pixel - np.array(expected)).max() <= 3, pixel


def test_models_whose_md3_headers_share_a_name_keep_their_own_triangles(ctx, q3_fs) -> None:
    """OpenArena's weapon models all carry an empty header name and its hands share one: each draw must use its
    own model's vertices and triangles (they are registered by path)."""
    from viewer.render.shaded.records import Md3Draw

    names = (WEAPON_MODELS[2], WEAPON_MODELS[3])
    assets = q3assets.load_segment_assets(q3_fs, "maps/oa_dm1.bsp", ("", "maps/oa_dm1.bsp", *names))
    md3 = assets.md3.md3
    assert md3[names[0]].name == md3[names[1]].name                  # the trap: same header name
    target = OffscreenTarget(ctx, (160, 90))
    axis = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]], np.float32)
    gun = Md3Draw(names[0], np.array([193.6, 1150.0, -95.0], np.float32), axis)
    other = Md3Draw(names[1], np.array([300.0, 1150.0, -95.0], np.float32), axis)
    pictures = []
    for draws in ((), (gun,), (other, gun)):                          # a fresh renderer each: nothing cached yet
        renderer = FrameRenderer(ctx, assets)
        renderer.draw(SceneFrame(0.0, 0, CAMERA, (), np.ones(64, np.float32), md3=draws), target)
        pictures.append(target.read_rgb().astype(np.int32))
        renderer.release()
    target.release()
    empty, alone, after_other = pictures
    assert (np.abs(alone - empty).sum(axis=2) > 30).mean() > 0.01     # the machine gun in front of the camera
    assert np.abs(alone - after_other).max() < 8                       # the shotgun (off to the side) changes nothing


def test_blended_model_surfaces_and_polygons_draw_merged_by_sort() -> None:
    """ioquake3 sorts every surface of the view together: a mark (SS_DECAL, 4) before an additive explosion model
    (SS_BLEND0, 9) — not over it, as drawing all models first made the bullet marks black rings over the machine
    gun's explosions — a polygon of sort 9 after the model, one of sort 10 after both; opaque model surfaces (3) are
    drawn before all this."""
    from types import SimpleNamespace

    from viewer.render.q3.renderer import Quake3Backend

    calls: list[tuple[str, list[float]]] = []

    class Models:
        def surface_sorts(self, scene):
            return {3.0, 9.0}

        def draw(self, scene, view, sorts):
            calls.append(("models", [s for s in (3.0, 9.0) if sorts(s)]))

    class Polygons:
        def draw(self, polys, view, sorts):
            calls.append(("polys", [s for s in (4.0, 9.0, 10.0) if sorts(s)]))

    Quake3Backend._draw_blended_entities(SimpleNamespace(md3=Models(), polys=Polygons()), (), (), None)
    assert calls == [("polys", [4.0]), ("models", [9.0]), ("polys", [9.0, 10.0])]


def test_the_machine_gun_has_its_barrel_on_tag_barrel(q3_fs) -> None:
    """CG_AddPlayerWeapon: <weapon>_barrel.md3, when the data has one (the machine gun's, not the shotgun's), on the
    weapon's tag_barrel, in the view and in a player's hand."""
    from assets_loader.models.q3player import attach
    from viewer.games.quake3.players import WeaponDraw, barrel_model, weapon_md3_draws

    gun, shotgun = WEAPON_MODELS[2], WEAPON_MODELS[3]
    barrel = barrel_model(gun)
    assert barrel == "models/weapons2/machinegun/machinegun_barrel.md3"
    assets = q3assets.load_segment_assets(q3_fs, "maps/oa_dm1.bsp", ("", "maps/oa_dm1.bsp", gun, shotgun, barrel,
                                                                      barrel_model(shotgun)))
    origin, axis = np.zeros(3, np.float32), np.eye(3, dtype=np.float32)
    view = weapon_md3_draws(assets.md3, WeaponDraw("", origin, axis, gun))
    assert [d.model for d in view] == [gun, barrel] and all(d.view_model for d in view)
    tag = assets.md3.md3[gun].lerp_tag("tag_barrel", 0, 0, 0.0)
    np.testing.assert_allclose(view[1].origin, attach((origin, axis), tag)[0], atol=1e-5)
    assert [d.model for d in weapon_md3_draws(assets.md3, WeaponDraw("", origin, axis, shotgun))] == [shotgun]


def test_an_animation_reaches_its_first_frame_one_frame_after_it_changes(q3_fs) -> None:
    """CG_SetLerpFrameAnimation: the cgame reaches a new animation's first frame initialLerp (1000 / fps, one
    frame) after it sees the change; the engine blends from the old pose meanwhile, qdv holds the first frame. The
    player demo's death at 30 s (ioquake3's reference frame: 24.8 -> 16.0) shows the body as it starts to fall."""
    assets = q3assets.load_segment_assets(q3_fs, "maps/oa_dm1.bsp", ("", "maps/oa_dm1.bsp", WEAPON_MODELS[5]),
                                          ("sarge",))
    death = assets.md3.players["sarge"].animations.animations[ANIM["BOTH_DEATH1"]]
    facing = (0.0, 270.0, 0.0)

    def legs(ms: float):
        draw = PlayerDraw("sarge", np.zeros(3, np.float32), facing, facing, facing, ANIM["BOTH_DEATH1"], ms,
                          ANIM["BOTH_DEATH1"], ms, WEAPON_MODELS[5])
        part = player_md3_draws(assets.md3, draw)[0]
        return part.old_frame, part.frame, part.frac

    first, lerp = death.first_frame, death.frame_lerp
    assert legs(0.0) == legs(lerp * 0.5) == (first, first + 1, 0.0)
    assert legs(lerp * 1.5) == (first, first + 1, pytest.approx(0.5))
    assert legs(lerp * 2.5)[:2] == (first + 1, first + 2)


@pytest.mark.parametrize("origin, seen", [
    ((193.6, 1209.4, -119.9), "whole"),     # in front of the camera
    ((193.6, 1029.4, -119.9), ""),          # behind it
    ((320.0, 1209.4, -119.9), ""),          # beyond the right edge of the view
    ((255.0, 1209.4, -119.9), "part"),      # across the right edge: part of it shows
])
def test_models_wholly_off_screen_are_not_drawn(ctx, q3_fs, monkeypatch, origin, seen) -> None:
    """``R_CullModel``: a player wholly beside or behind the view costs no draw call; one reaching into it draws."""
    assets, _ = _sarge(q3_fs)
    facing = (0.0, 270.0, 0.0)
    sarge = PlayerDraw("sarge", np.array(origin, np.float32), facing, facing, facing, ANIM["LEGS_IDLE"], 0.0,
                       ANIM["TORSO_STAND"], 0.0, WEAPON_MODELS[5])
    draws = player_md3_draws(assets.md3, sarge)
    calls = []

    def watch(renderer: FrameRenderer) -> None:
        painter = renderer.backend.md3.painter
        draw = painter.draw
        monkeypatch.setattr(painter, "draw", lambda *args, **kwargs: calls.append(args[1]) or draw(*args, **kwargs))

    pictures = _without_and_with(ctx, assets, draws, watch)
    assert bool(calls) == bool(seen)
    changed = np.abs(pictures[0] - pictures[1]).sum(axis=2) > 30
    assert changed.any() == bool(seen)
    if seen == "part":
        assert changed[:, -1].any()                                    # cut by the right edge
