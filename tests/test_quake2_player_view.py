"""The Quake II recorder's view (viewer/games/quake2/player_view.py): the player state's blend, field of view and
underwater warp reach the scene, and the warp reaches the projection; Tab orbits the players the recorder sees."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assets_loader.demos import DemoTimeline, load_demo
from assets_loader.demos.quake2 import decode_dm2
from assets_loader.demos.quake2 import protocol as P
from tests.builders.dm2 import DM2Messages, dm2
from tests.conftest import QUAKE2
from viewer.games.quake2 import link, player_view
from viewer.games.quake2.view import Quake2View
from viewer.render.refdef import Camera
from viewer.render.view_math import view_projection
from viewer.input import Action
from viewer.scene import build_scene, pov_camera
from viewer.viewer_state import FrameContext, ViewerState

M = DM2Messages()


def _timeline(**playerinfo: object) -> DemoTimeline:
    signon = [M.serverdata(playernum=0), M.configstring(P.CS_MODELS + 1, "maps/t.bsp")]
    frames = [M.frame(1, -1), M.playerinfo(origin=(0, 0, 0), **playerinfo), M.packetentities(())]  # type: ignore[arg-type]
    return decode_dm2(dm2(signon, frames), "t.dm2")


def test_the_blend_is_the_player_states_and_none_without_alpha() -> None:
    state = _timeline(blend=(255, 0, 51, 102)).sample(0.1)
    assert player_view.screen_blend(state) == pytest.approx((1.0, 0.0, 0.2, 0.4))
    assert player_view.screen_blend(_timeline(blend=(255, 0, 0, 0)).sample(0.1)) is None


def test_the_scene_through_the_recorders_eyes_carries_blend_fov_and_warp() -> None:
    tl = _timeline(blend=(0, 0, 255, 128), fov=45, rdflags=player_view.RDF_UNDERWATER)
    t = 1.0
    frame = build_scene(tl, t, fov=100.0, game=Quake2View())
    assert frame.blend == pytest.approx((0.0, 0.0, 1.0, 128 / 255))
    assert frame.camera.fov == pytest.approx(50.0)                   # the viewer's 100 × 45 / 90
    assert frame.view_warp == pytest.approx(math.sin(1.5) * 0.03)
    free = build_scene(tl, t, camera=Camera((0, 0, 0), (0, 0, 0), 100.0), game=Quake2View())
    assert free.blend is None and free.view_warp == 0.0 and free.camera.fov == 100.0


def test_a_zero_fov_counts_as_90_and_dry_views_do_not_warp() -> None:
    lens = player_view.pov_lens(_timeline().sample(0.1), 1.0, 90.0)
    assert lens.fov == 90.0 and lens.warp == 0.0


def test_the_warp_widens_the_frustum_and_flattens_it() -> None:
    cam = Camera((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 90.0)
    plain, warped = view_projection(cam, 4 / 3), view_projection(cam, 4 / 3, warp=0.03)
    np.testing.assert_allclose(warped[0, :3] * 1.03, plain[0, :3], rtol=1e-6)
    np.testing.assert_allclose(warped[1, :3] * 0.97, plain[1, :3], rtol=1e-6)


def test_tab_watches_the_players_the_bandaging_demos_recorder_sees() -> None:
    timeline = load_demo(str(QUAKE2 / "demos" / "AQtion-bandaging-guide.dm2"))
    view = Quake2View()
    state = timeline.sample(98.9)
    precache = timeline.segments[0].model_precache
    ctx = FrameContext(pov_camera(state), view.follow_candidates(state, precache),
                       view.player_entities(state, precache))
    assert ctx.players == (1, 2) and ctx.followable[0] == state.view_entity == 2     # the recorder first
    s = ViewerState.for_timeline(timeline, size=(640, 480))
    assert timeline.pov_slots == (0, 1) and timeline.players.recorder == 1
    s.handle(Action("player", +1), ctx)
    assert s.mode == "pov" and s.pov_slot == 0                 # the other player's eyes, from its entity
    s.handle(Action("player", +1), ctx)
    assert s.pov_slot is None                                  # back to the recorder's own view


def test_fov_and_the_view_weapons_pose_lerp_from_the_previous_server_frame() -> None:
    signon = [M.serverdata(playernum=0), M.configstring(P.CS_MODELS + 1, "maps/t.bsp")]
    tl = decode_dm2(dm2(signon,
                        [M.frame(1, -1), M.playerinfo(origin=(0, 0, 0), fov=90, gunindex=1, gunframe=3),
                         M.packetentities(())],
                        [M.frame(2, 1), M.playerinfo(fov=30, gunframe=4), M.packetentities(())],
                        [M.frame(4, 2), M.playerinfo(gunframe=9), M.packetentities(())]), "t.dm2")
    assert tl.stats["gunframe_prev"].tolist() == [3, 3, 9]       # frame 4 does not follow 2: no lerp
    assert tl.stats["fov_prev"].tolist() == [90, 90, 30]
    state = tl.sample(0.15)
    assert state.lerp == pytest.approx(0.5)
    assert player_view.pov_lens(state, 0.15, 90.0).fov == pytest.approx(60.0)
    (gun,) = [d for d in link.entity_draws(state, first_person=True) if d.view_model]
    assert (gun.prev_frame, gun.frame, gun.blend) == (3, 4, pytest.approx(0.5))
