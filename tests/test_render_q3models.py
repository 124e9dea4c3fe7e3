"""MD3 drawing: a Quake III player assembled on its tags with a weapon draws lit from oa_dm1's light grid."""

from __future__ import annotations

import math

import numpy as np

from assets_loader.bsp46 import LightGrid
from assets_loader.models.q3player import ANIM, WEAPON_MODELS, animation_frame, pose_player
from viewer.games.quake3 import assets as q3assets
from viewer.games.quake3.players import player_draws
from viewer.render.context import OffscreenTarget
from viewer.render.frame import FrameRenderer
from viewer.render.q3models import grid_light
from viewer.render.refdef import Camera, SceneFrame

CAMERA = Camera((193.6, 1119.4, -93.9), (0.0, 90.0, 0.0), 74.0)


def _sarge(fs):
    assets = q3assets.load_segment_assets(fs, "maps/oa_dm1.bsp", ("", "maps/oa_dm1.bsp", WEAPON_MODELS[5]),
                                          ("sarge",))
    player = assets.q3_models.players["sarge"]
    facing = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]], np.float32)  # yaw 270: towards the camera
    anims = player.animations.animations
    pose = pose_player(player, (193.6, 1209.4, -119.9), facing, animation_frame(anims[ANIM["LEGS_IDLE"]], 0),
                       animation_frame(anims[ANIM["TORSO_STAND"]], 0))
    return assets, player_draws(player, pose, WEAPON_MODELS[5])


def test_a_player_with_its_weapon_draws_in_front_of_the_wall(ctx, q3_fs) -> None:
    assets, draws = _sarge(q3_fs)
    assert [d.model for d in draws] == ["models/players/sarge/lower.md3", "models/players/sarge/upper.md3",
                                        "models/players/sarge/head.md3", WEAPON_MODELS[5]]
    target = OffscreenTarget(ctx, (160, 90))
    renderer = FrameRenderer(ctx, assets)
    try:
        pictures = []
        for md3 in ((), draws):
            renderer.draw(SceneFrame(0.0, 0, CAMERA, (), np.ones(64, np.float32), md3=md3), target)
            pictures.append(target.read_rgb().astype(np.int32))
    finally:
        renderer.release()
        target.release()
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
    assert np.allclose(light.ambient, np.minimum(np.asarray(sample.ambient) / 255, 1)) and light.ambient[0] > 0
    assert np.allclose(light.direction, (0.0, -1.0, 0.0), atol=1e-6)
    assert math.isclose(sum(c * c for c in light.direction), 1.0, abs_tol=1e-6)
