"""Quake III eyes for Tab and orbit: another player's view sits DEFAULT_VIEWHEIGHT (26) above its origin, orbit
cameras look at that height, and Tab cycles the players seen in the demo."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.bsp46 import load_bsp46
from assets_loader.bsp46.dtypes import CONTENTS_SOLID
from assets_loader.demos import load_demo
from assets_loader.demos.schema import QUAKE, QUAKE3
from viewer.cameras import chase_camera, orbit_camera
from viewer.input import Action
from viewer.viewer_state import FrameContext, TimelineInfo, ViewerState

from .conftest import QUAKE3 as QUAKE3_DIR

FOLLOW = QUAKE3_DIR / "demos" / "oa_dm1_follow_p68.dm_68"


@pytest.fixture(scope="module")
def follow():
    return load_demo(str(FOLLOW))


def test_another_players_eye_is_26_units_above_its_origin(follow) -> None:
    t = follow.start_time + 12.0
    state = follow.sample(t)
    other = next(int(n) for n, kind in zip(state.entities.number, state.entity_fields["eType"])
                 if kind == 1 and n != state.view_entity and n in follow.pov_slots)
    seen = follow.sample(t, pov=other)
    row = seen.entities.index_of(other)
    assert row is not None
    assert seen.view_origin[2] - seen.entities.origin[row][2] == pytest.approx(26.0, abs=0.5)
    assert QUAKE3.view_height == 26.0 and QUAKE.view_height == 22.0


def test_orbit_cameras_look_at_the_eye_and_tab_reaches_the_players(follow) -> None:
    info = TimelineInfo.of(follow)
    assert info.orbit_height == 26.0 and set(info.pov_slots) >= {0, 1, 2, 3}
    state = ViewerState.for_timeline(follow)
    sample = follow.sample(follow.start_time + 12.0)
    state.handle(Action("orbit_next", +1), FrameContext(None, (int(sample.view_entity),), ()))
    camera = state.camera_for(sample)
    assert camera is not None and state.mode == "orbit"
    target = sample.entities.origin[sample.entities.index_of(sample.view_entity)] + np.array([0, 0, 26.0])
    forward = target - np.asarray(camera.origin)
    pitch = -np.degrees(np.arctan2(forward[2], np.hypot(forward[0], forward[1])))
    assert pitch == pytest.approx(camera.angles[0], abs=1.0)         # aimed at the eye height
    seen = set()
    for _ in range(len(info.pov_slots)):
        state.handle(Action("player", +1), FrameContext())
        seen.add(state.pov_slot)
    assert seen == set(info.pov_slots)


def test_orbit_and_chase_cameras_stay_inside_oa_dm1(follow, q3_fs) -> None:
    """Chase and orbit cameras stop in front of Quake III's solid brushes (cgame traces its third-person camera):
    from a player's eye, wide orbits are pulled in and no camera ends up inside a brush."""
    world = load_bsp46(q3_fs.read("maps/oa_dm1.bsp"), "maps/oa_dm1.bsp")
    state = follow.sample(follow.start_time + 12.0)
    eye = np.asarray(state.view_origin, np.float64)
    distances = []
    for yaw in range(0, 360, 30):
        for pitch in (-60.0, 0.0, 60.0):
            cam = orbit_camera(world, eye, float(yaw), pitch, 3000.0)
            assert world.collision.trace_line(eye, cam.origin, CONTENTS_SOLID).fraction == 1.0
            distances.append(float(np.linalg.norm(np.asarray(cam.origin) - eye)))
        chase = chase_camera(world, eye, (0.0, float(yaw), 0.0), back=3000.0)
        assert world.collision.trace_line(eye, chase.origin, CONTENTS_SOLID).fraction == 1.0
    assert max(distances) < 3000.0, "every direction meets a wall within 3000 units"
