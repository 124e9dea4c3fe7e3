"""Quake III demos as timelines: the corpus facts of SOURCES.md through ``load_demo``, trajectories like
``BG_EvaluateTrajectory``, events from entity events and server commands, the follow switches, and mutated bytes."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assets_loader.demos import load_demo
from assets_loader.demos.trajectory import (TR_GRAVITY, TR_INTERPOLATE, TR_LINEAR, TR_LINEAR_STOP, TR_SINE,
                                            TR_STATIONARY, evaluate_trajectory)
from assets_loader.errors import FormatError
from viewer.cli import main

from .conftest import QUAKE3

FOLLOW = QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"
PLAYER = QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71"


@pytest.fixture(scope="module")
def follow():
    return load_demo(str(FOLLOW))


@pytest.fixture(scope="module")
def player():
    return load_demo(str(PLAYER))


def _one(tr_type: int, at: float, duration: int = 0) -> np.ndarray:
    base = np.array([[10.0, 20.0, 30.0]], np.float32)
    delta = np.array([[100.0, -50.0, 200.0]], np.float32)
    return evaluate_trajectory(np.array([tr_type]), np.array([1000]), np.array([duration]), base, delta, at)[0]


def test_stationary_and_interpolate_stay_at_the_base() -> None:
    for tr_type in (TR_STATIONARY, TR_INTERPOLATE):
        assert _one(tr_type, 5000.0).tolist() == [10.0, 20.0, 30.0]


def test_linear_moves_delta_units_a_second() -> None:
    assert _one(TR_LINEAR, 1500.0).tolist() == pytest.approx([60.0, -5.0, 130.0])
    assert _one(TR_LINEAR, 500.0).tolist() == pytest.approx([-40.0, 45.0, -70.0])


def test_linear_stop_stops_after_its_duration_and_never_before_its_start() -> None:
    assert _one(TR_LINEAR_STOP, 3000.0, duration=250).tolist() == pytest.approx([35.0, 7.5, 80.0])
    assert _one(TR_LINEAR_STOP, 900.0, duration=250).tolist() == pytest.approx([10.0, 20.0, 30.0])


def test_sine_swings_by_delta_over_its_period() -> None:
    assert _one(TR_SINE, 1250.0, duration=1000).tolist() == pytest.approx([110.0, -30.0, 230.0], abs=1e-4)
    assert _one(TR_SINE, 2000.0, duration=1000).tolist() == pytest.approx([10.0, 20.0, 30.0], abs=1e-3)


def test_gravity_falls_at_800_units_a_second_squared() -> None:
    assert _one(TR_GRAVITY, 2000.0).tolist() == pytest.approx([110.0, -30.0, 30.0 + 200.0 - 400.0])


def test_follow_demo_has_the_sources_facts(follow) -> None:
    assert follow.game == "quake3" and follow.format == "dm_68" and follow.protocol == 68
    assert len(follow) == 2250 and follow.block_count == 2251
    assert follow.server_times[0] == 32800 and follow.server_times[-1] == 147750
    assert follow.duration == pytest.approx(114.95)
    assert follow.segments[0].map_path == "maps/oa_dm1.bsp" and follow.segments[0].gametype == 0
    assert follow.meta["gamedir"] == "baseoa" and follow.meta["fs_game"] == ""
    intervals = np.round(np.diff(follow.server_times)).astype(int)
    assert int((intervals == 50).sum()) == 2226


def test_the_view_follows_sarge_then_grunt_then_angelyss(follow) -> None:
    switches = np.flatnonzero(np.diff(follow.view_entity)) + 1
    names = {p.slot: p.name for p in follow.final_scoreboard()}
    assert [names[int(follow.view_entity[0])]] + [names[int(follow.view_entity[f])] for f in switches] == \
        ["Sarge", "Grunt", "Angelyss"]
    assert (follow.times[switches] - follow.start_time).tolist() == pytest.approx([45.0, 95.1])
    scene = follow.sample(follow.start_time + 50.0)
    assert scene.view_entity == 1 and scene.stats["clientNum"] == 1
    assert 1 in scene.entities.number.tolist()       # the followed player is drawn (orbit camera)


def test_tab_reaches_every_bot_from_its_own_eye(follow) -> None:
    assert follow.pov_slots == (0, 1, 2, 3)
    t = follow.start_time + 20.0
    default = follow.sample(t)
    sarge = follow.sample(t, pov=0)
    assert sarge.view_entity == 0 and sarge.pov == 0
    assert np.allclose(sarge.view_origin[:2], default.view_origin[:2], atol=1.0)   # Sarge is the followed one
    other = follow.sample(t, pov=2)
    assert np.linalg.norm(other.view_origin - default.view_origin) > 1.0


def test_players_lerp_between_snapshots(follow) -> None:
    f = 600
    t0, t1 = follow.times[f - 1], follow.times[f]
    before, after, middle = (follow.sample(t) for t in (t0, t1, (t0 + t1) / 2))
    moved = [n for n in middle.entities.number.tolist()
             if middle.entity_fields["eType"][middle.entities.index_of(n)] == 1
             and before.entities.index_of(n) is not None]
    assert moved
    for n in moved:
        a = before.entities.origin[before.entities.index_of(n)]
        b = after.entities.origin[after.entities.index_of(n)]
        if np.abs(b - a).max() < 100:
            assert middle.entities.origin[middle.entities.index_of(n)] == pytest.approx((a + b) / 2, abs=1e-3)


def test_missiles_fly_on_their_trajectory_between_snapshots(follow) -> None:
    cols = {name: follow.entity_column(name) for name in ("eType", "pos_trType", "number", "pos_trBase",
                                                          "pos_trDelta", "pos_trTime")}
    rows = np.flatnonzero((cols["eType"] == 3) & (cols["pos_trType"] == TR_LINEAR))
    assert len(rows)
    row = int(rows[len(rows) // 2])
    frame = int(np.searchsorted(follow._offsets, row, side="right")) - 1
    t = float(follow.times[frame]) - 0.02
    scene = follow.sample(t)
    i = scene.entities.index_of(int(cols["number"][row]))
    assert i is not None
    expected = cols["pos_trBase"][row] + cols["pos_trDelta"][row] * ((t * 1000 - cols["pos_trTime"][row]) / 1000)
    assert scene.entities.origin[i] == pytest.approx(expected, abs=0.05)


def test_obituaries_name_victim_killer_and_means_of_death(follow, player) -> None:
    for timeline, count in ((follow, 22), (player, 24)):
        deaths = timeline.events_of_kind("obituary")
        assert len(deaths) == count
        names = {p.name for p in timeline.final_scoreboard()}
        assert all(d.victim in names for d in deaths)
        assert {d.weapon for d in deaths} <= {"shotgun", "machinegun", "grenade", "grenade splash", "rocket",
                                               "rocket splash", "plasma", "plasma splash", "lightning", "falling",
                                               "suicide", "unknown"}
    first = follow.events_of_kind("obituary")[0]
    assert (first.victim, first.killer, first.weapon) == ("Angelyss", "Grunt", "shotgun")


def test_chat_has_its_sender_and_slot(follow) -> None:
    chats = follow.events_of_kind("chat")
    by_bot = [c for c in chats if c.slot >= 0]
    assert by_bot and all(c.sender in ("Sarge", "Grunt", "Major", "Angelyss") for c in by_bot)
    assert by_bot[0].text == "^2I hope your genitals fall off in a freak fishing accident."   # G_Say's green
    assert any("killing spree" in c.text and c.slot == -1 for c in chats)


def test_weapon_fire_pickups_and_missile_impacts_are_events(player) -> None:
    assert player.events_of_kind("muzzleflash")
    names = {e.name for e in player.events_of_kind("temp_entity")}
    assert {"missile_miss", "pain", "death"} <= names
    pickups = player.events_of_kind("pickup")
    assert pickups and all(p.item.startswith(("item_", "weapon_", "ammo_", "holdable_")) for p in pickups)


def test_recording_player_demo_stays_on_its_own_client(player) -> None:
    assert set(player.view_entity.tolist()) == {4}
    assert len(player) == 2012 and player.block_count == 2013
    assert player.duration == pytest.approx(102.65)
    assert player.meta["recorder"] == 4


def test_qdv_info_and_events_read_quake3_demos(capsys) -> None:
    assert main(["info", str(FOLLOW)]) == 0
    out = capsys.readouterr().out
    assert "dm_68 (quake3)" in out and "oa_dm1" in out and "Angelyss" in out
    assert main(["events", str(PLAYER)]) == 0
    assert "obituary" in capsys.readouterr().out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_corpus_bytes_give_a_timeline_or_a_format_error(data) -> None:
    raw = bytearray(FOLLOW.read_bytes()[:60000])
    for _ in range(data.draw(st.integers(1, 8))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(16, len(raw)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            timeline = load_demo(bytes(raw[:cut]), "mutated.dm_68")
        except FormatError:
            return
    assert len(timeline) >= 1
    timeline.sample(timeline.start_time + timeline.duration / 2)


def test_snapshot_timing_columns_follow_the_message_numbers(follow) -> None:
    """SOURCES.md: 2251 messages numbered 284..2535 (the gamestate first, so one number has no message) and 2250
    snapshots every 50 ms or more: the number missing is the one after the gamestate (the cgame, starting from the
    gamestate's number, counts it as a dropped snapshot), none later; no snapshot was rate delayed."""
    drops = follow.stats["snap_drops"]
    assert drops[0] == 1 and not drops[1:].any()
    assert not (follow.stats["snap_flags"] & 1).any()
    window = follow.stats_window(2240, 2300)
    assert all(np.array_equal(window[k], follow.stats[k][2240:]) for k in ("health", "snap_drops", "damage_event"))
