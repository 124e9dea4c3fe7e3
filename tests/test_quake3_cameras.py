"""Quake III eyes for Tab and orbit: another player's view sits DEFAULT_VIEWHEIGHT (26) above its origin, orbit
cameras look at that height, and Tab cycles the players seen in the demo."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.demos import load_demo
from assets_loader.demos.schema import QUAKE, QUAKE3
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
