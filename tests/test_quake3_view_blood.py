"""Quake III's blood on the screen when the view is hurt (``CG_DamageBlendBlob``, ``CG_DamageFeedback``): where
the sprite stands and how it fades, from a tiny demo written by the test encoder and from the corpus."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.demos import load_demo
from viewer.games.quake3 import fx, view_blood
from viewer.render.refdef import Camera
from viewer.scene import pov_camera

from .conftest import QUAKE3
from .test_quake3_hud_icons import _demo, _state

FOLLOW = QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"
#: The followed player's first hurt in FOLLOW (a damage event with 49 damage at 41 health).
FIRST_HURT = 35.5


def test_the_kick_is_scaled_by_health_and_held_to_five_to_ten() -> None:
    assert view_blood.damage_value(49, 41) == 10.0
    assert view_blood.damage_value(8, 80) == 5.0            # 8 × 40 / 80 = 4, raised to 5
    assert view_blood.damage_value(7, 30) == 7.0            # under 40 health: unscaled


def test_the_blob_stands_before_the_eye_shifted_by_damage_x_and_fades_over_half_a_second() -> None:
    hale = [100] + [0] * 15
    snaps = [(2 + i, 1000 + 50 * i, 0, _state(stats=hale)) for i in range(10)]
    for i in range(3, 10):
        snaps[i] = (2 + i, 1000 + 50 * i, 0, _state(stats=hale, damageEvent=1, damageCount=20, damageYaw=64))
    timeline = _demo(snaps)
    hurt = view_blood.last_hurt(timeline, 1.2)
    assert hurt is not None and (hurt.time, hurt.x, hurt.value) == (1.15, 1.0, 8.0)   # value: 20 × 40 / 100
    assert hurt.y == pytest.approx(0.0, abs=1e-6)                                       # level with the eye
    camera = Camera((10.0, 20.0, 30.0), (0.0, 0.0, 0.0))
    assert view_blood.blood_blob(hurt, 1.15, camera) is None                     # not at the hurt's own time
    blob = view_blood.blood_blob(hurt, 1.275, camera)
    assert blob is not None and blob.shader == "viewBloodBlend"
    np.testing.assert_allclose(blob.positions.mean(axis=0), [18.0, 12.0, 30.0], atol=1e-4)  # 8 ahead, −8 × damageX left
    np.testing.assert_allclose(np.ptp(blob.positions, axis=0), [0.0, 48.0, 48.0], atol=1e-4)  # radius 3 × 8
    assert blob.colors[:, 3].tolist() == [150] * 4 and blob.colors[:, :3].min() == 255
    assert view_blood.blood_blob(hurt, 1.65, camera) is None
    assert view_blood.last_hurt(timeline, 1.14) is None


@pytest.fixture(scope="module")
def follow():
    return load_demo(str(FOLLOW))


def _blobs(effects, follow, t: float, first_person: bool) -> list:
    state = follow.sample(t)
    shaded = effects.shaded(state, t, pov_camera(state), first_person)
    return [p for p in shaded.polys if p.shader == view_blood.BLOOD_SHADER]


def test_the_followed_players_hurt_bloodies_its_view_then_clears(follow) -> None:
    effects = fx.prepare_effects(follow)
    assert len(_blobs(effects, follow, FIRST_HURT + 0.1, True)) == 1
    assert _blobs(effects, follow, FIRST_HURT + 0.1, False) == []       # a free or third-person camera: none
    assert _blobs(effects, follow, FIRST_HURT + 1.1, True) == []
    assert _blobs(effects, follow, FIRST_HURT - 0.1, True) == []
