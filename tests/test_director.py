"""Issue #33 item 4: the automatic director. Its rules hold on every corpus demo (on the killer from
``FRAG_LEAD`` s before each frag it can see, no shot shorter than ``MIN_SHOT`` except at a map's end, the shots
cover the demo without gaps or overlaps); each rule on a tiny synthetic MVD; ``qdv director --json``; screenshots,
renders and the window follow the plan."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from assets_loader.demos import DEMO_SUFFIXES, DemoTimeline, load_demo
from assets_loader.demos.quakeworld import protocol as P
from tests.builders.qw import MVDWriter, QWDWriter, QWMessages, mvd_signon, qwd_signon
from tests.conftest import DATA, QUAKE3, QUAKEWORLD, REPO
from viewer.camera_pose import ORBIT_PITCH, ShotCamera, camera_pose
from viewer.cli import main
from viewer.director import plan_director
from viewer.director.moments import SEEN_WITHIN, TICK
from viewer.director.plan import (CONFLICT, COVERED, DEATH_HOLD, FILLER_CAMERAS, FRAG_LEAD, MAX_SHOT, MIN_SHOT,
                                  NOT_A_PLAYER, OUT_OF_VIEW, DirectorPlan)
from viewer.input import CTRL, Action, key_action
from viewer.ui.readout import Readout, readout_lines
from viewer.viewer_state import DIRECTOR_LINE, ViewerState

MVD_2ON2 = QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd"
CORPUS = sorted(p for p in DATA.rglob("*") if p.suffix.lower() in DEMO_SUFFIXES and "bad-input" not in p.parts)
SAMPLES = sorted(p for p in (REPO / "viewer" / "sample").rglob("*") if p.suffix.lower() in DEMO_SUFFIXES)


@functools.cache
def _timeline(path: str) -> DemoTimeline:
    return load_demo(path)


def _map_spans(timeline: DemoTimeline) -> list[tuple[float, float]]:
    """Each map's (first frame time, next map's first frame time or the demo's end)."""
    starts = [float(timeline.times[seg.start_frame]) for seg in timeline.segments if seg.end_frame > seg.start_frame]
    starts[0] = timeline.start_time
    return list(zip(starts, starts[1:] + [timeline.end_time]))


def _watched(plan: DirectorPlan, a: float, b: float) -> set[int | None]:
    """The slots of the shots that show some of ``a`` … ``b``."""
    return {s.slot for s in plan.shots if s.start < b and s.end > a} | {plan.shot_at(b).slot}


def _out_of_view(timeline: DemoTimeline, slot: int, a: float, b: float) -> bool:
    """Whether the demo lacks a row of ``slot`` near some moment of ``a`` … ``b`` (read from the player rows)."""
    players = timeline.players
    assert players is not None
    rows = timeline.times[players.row_frame[players.slot_start[slot]:players.slot_start[slot + 1]]]
    for t in np.arange(a, b + 1e-9, TICK / 2):
        if not len(rows) or np.min(np.abs(rows - t)) > SEEN_WITHIN:
            return True
    return False


@pytest.mark.parametrize("path", CORPUS + SAMPLES, ids=lambda p: p.name)
def test_the_rules_hold_on_every_corpus_demo(path: Path) -> None:
    timeline = _timeline(str(path))
    plan = plan_director(timeline)
    shots = plan.shots
    # the shots cover the demo without gaps or overlaps
    assert shots[0].start == timeline.start_time and shots[-1].end == timeline.end_time
    assert all(a.end == b.start for a, b in zip(shots, shots[1:]))
    assert all(s.end > s.start for s in shots) or timeline.duration == 0
    # no shot is shorter than the minimum except where a map (or the demo) ends
    ends = {b for _a, b in _map_spans(timeline)}
    assert all(s.end - s.start >= MIN_SHOT - 1e-9 or s.end in ends for s in shots)
    # every shot watches a player with a view (or the demo's own view), with one of the cameras
    assert all(s.slot is None or s.slot in timeline.pov_slots for s in shots)
    assert all(s.camera in ("pov", "chase", "orbit") for s in shots)
    assert all(s.camera == "pov" for s in shots if s.reason == "frag")
    # every frag: watched from the lead on, or said why not
    spans = _map_spans(timeline)
    covered = [f for f in plan.frags if f.outcome == COVERED]
    for f in plan.frags:
        lead = max(f.time - FRAG_LEAD, spans[f.segment][0])
        if f.outcome == COVERED:
            assert _watched(plan, lead, f.time) == {f.killer_slot}, f
        elif f.outcome == CONFLICT:     # an earlier frag by someone else still had the camera
            assert any(g.killer_slot != f.killer_slot and g.time <= f.time
                       and lead < max(g.time, max(g.time - FRAG_LEAD, spans[g.segment][0]) + MIN_SHOT)
                       for g in covered), f
        elif f.outcome == OUT_OF_VIEW:
            assert f.killer_slot in timeline.pov_slots and _out_of_view(timeline, f.killer_slot, lead, f.time), f
        else:
            assert f.outcome == NOT_A_PLAYER and f.killer_slot not in timeline.pov_slots, f
    assert len(plan.frags) == sum(1 for e in timeline.events_of_kind("obituary")
                                  if e.killer is not None and not e.suicide and e.killer != e.victim)


def test_an_mvd_has_every_killer_in_view() -> None:
    """A server demo carries every player all the time: no frag is out of view or unnamed, and only frags whose
    lead-ins overlap another killer's are missed."""
    plan = plan_director(_timeline(str(MVD_2ON2)))
    outcomes = [f.outcome for f in plan.frags]
    assert len(outcomes) == 25 and set(outcomes) <= {COVERED, CONFLICT}
    assert outcomes.count(COVERED) >= 20


# --- each rule on a tiny synthetic MVD ------------------------------------------------------------------------------

def _mvd(tmp_path: Path, names: list[str], seconds: float, *, kills=(), effects=(), frags=(),
         absent=()) -> DemoTimeline:
    """A server demo of ``names`` standing still for ``seconds`` (a frame every 0.1 s from 0.1 s): ``kills`` are
    (time, obituary text), ``effects`` (slot, from, to, EF_* bits), ``frags`` (time, slot, frags), ``absent``
    (slot, from, to): no row of that player then."""
    m, w = QWMessages(), MVDWriter()
    mvd_signon(m, w, names=names)
    for k in range(round(seconds * 10)):
        t = (k + 1) / 10
        messages = [m.packetentities([m.entity(64, model=3, origin=(0.0, 0.0, 0.0))])]   # a frame even when empty
        for slot in range(len(names)):
            if any(s == slot and a <= t < b for s, a, b in absent):
                continue
            bits = 0
            for s, a, b, flag in effects:
                bits |= flag if s == slot and a <= t < b else 0
            messages.append(m.playerinfo_mvd(slot, k & 255, origin=(100.0 * slot, 0.0, 24.0),
                                             angles=(0.0, 30.0 * slot, 0.0), model=2, effects=bits))
        messages += [m.print(text, P.PRINT_MEDIUM) for when, text in kills if abs(when - t) < 0.05]
        messages += [m.updatefrags(slot, n) for when, slot, n in frags if abs(when - t) < 0.05]
        w.block(100, *messages)
    w.block(0, m.disconnect())
    path = tmp_path / f"synthetic{len(list(tmp_path.iterdir()))}.mvd"
    path.write_bytes(w.build())
    return load_demo(path)


def _shots(plan: DirectorPlan) -> list[tuple[float, float, int | None, str, str]]:
    return [(round(s.start, 3), round(s.end, 3), s.slot, s.camera, s.reason) for s in plan.shots]


def test_the_killer_is_watched_from_the_lead_and_the_death_held(tmp_path) -> None:
    timeline = _mvd(tmp_path, ["Alice", "Bob", "Carol"], 30, kills=[(15.0, "Bob rides Alice's rocket\n")])
    plan = plan_director(timeline)
    frag = plan.shot_at(15.0)
    assert (frag.start, frag.end) == (pytest.approx(15.0 - FRAG_LEAD), pytest.approx(15.0 + DEATH_HOLD))
    assert (frag.slot, frag.player, frag.camera, frag.reason) == (0, "Alice", "pov", "frag")
    assert frag.why == "fragged Bob (rocket)"
    assert [(f.killer, f.victim, f.killer_slot, f.outcome) for f in plan.frags] == [("Alice", "Bob", 0, COVERED)]


def test_the_next_frag_cuts_the_hold_short_and_close_gaps_join_its_lead(tmp_path) -> None:
    kills = [(10.0, "Bob rides Alice's rocket\n"), (12.5, "Alice rides Carol's rocket\n"),
             (20.0, "Carol rides Bob's rocket\n"), (23.5, "Bob rides Alice's rocket\n")]
    plan = plan_director(_mvd(tmp_path, ["Alice", "Bob", "Carol"], 30, kills=kills))
    assert [f.outcome for f in plan.frags] == [COVERED] * 4
    alice, carol = plan.shot_at(10.0), plan.shot_at(12.5)
    assert alice.end == carol.start == pytest.approx(12.5 - FRAG_LEAD)     # Carol's lead-in cuts Alice's hold
    bob, alice2 = plan.shot_at(20.0), plan.shot_at(23.5)
    assert bob.end == pytest.approx(20.0 + DEATH_HOLD)                     # the hold, then Alice from its end:
    assert alice2.start == bob.end and alice2.slot == 0                    # a gap of 0.5 s makes no shot


def test_a_shot_that_shows_its_player_die_holds_on_the_death(tmp_path) -> None:
    """Alice (the leader) is watched when Carol, out of the demo's view, frags her; Bob picks up the quad 0.2 s
    later: the director stays on Alice's death for the hold before it cuts to him."""
    timeline = _mvd(tmp_path, ["Alice", "Bob", "Carol"], 30, kills=[(15.0, "Alice rides Carol's rocket\n")],
                    effects=[(1, 15.2, 30.0, P.EF_BLUE)], frags=[(1.0, 0, 2)], absent=[(2, 1.0, 100.0)])
    plan = plan_director(timeline)
    assert [f.outcome for f in plan.frags] == [OUT_OF_VIEW]
    alice, bob = plan.shot_at(15.0), plan.shot_at(16.5)
    assert (alice.slot, bob.slot, bob.reason) == (0, 1, "powerup")
    assert alice.end == bob.start == pytest.approx(15.0 + DEATH_HOLD)


def test_overlapping_lead_ins_keep_the_earlier_frag(tmp_path) -> None:
    kills = [(10.0, "Bob rides Alice's rocket\n"), (11.0, "Alice rides Carol's rocket\n")]
    plan = plan_director(_mvd(tmp_path, ["Alice", "Bob", "Carol"], 20, kills=kills))
    assert [(f.killer, f.outcome) for f in plan.frags] == [("Alice", COVERED), ("Carol", CONFLICT)]
    assert plan.frags[1].note == "on Alice for the frag at 9.9 s"
    assert plan.shot_at(11.0).slot == 0


def test_frags_of_one_killer_close_together_are_one_shot(tmp_path) -> None:
    kills = [(10.0, "Bob rides Alice's rocket\n"), (12.0, "Carol rides Alice's rocket\n")]
    plan = plan_director(_mvd(tmp_path, ["Alice", "Bob", "Carol"], 20, kills=kills))
    shot = plan.shot_at(10.0)
    assert shot is plan.shot_at(12.0) and (shot.start, shot.end) == (pytest.approx(8.0), pytest.approx(13.0))
    assert shot.why == "fragged Bob (rocket), Carol (rocket)"


def test_between_frags_the_powerup_carrier_then_the_sole_leader(tmp_path) -> None:
    timeline = _mvd(tmp_path, ["Alice", "Bob", "Carol"], 40, effects=[(2, 12.0, 22.0, P.EF_BLUE)],
                    frags=[(1.0, 1, 3), (1.0, 0, 1)])
    plan = plan_director(timeline)
    assert plan.shot_at(5.0).slot == 1 and plan.shot_at(5.0).reason == "leader"
    assert plan.shot_at(5.0).why == "leads the scoreboard"
    quad = plan.shot_at(15.0)
    assert quad.slot == 2 and quad.reason == "powerup" and quad.why == "has the quad"
    assert quad.start == pytest.approx(12.0, abs=TICK)       # cut as the quad appears (Bob's shot was long enough)
    assert plan.shot_at(30.0).slot == 1                       # the quad is gone: the leader again


def test_no_shot_is_shorter_than_the_minimum(tmp_path) -> None:
    """A frag just after the start, a powerup for an instant and a quad that comes and goes: shots stay long."""
    timeline = _mvd(tmp_path, ["Alice", "Bob"], 20, kills=[(0.5, "Bob rides Alice's rocket\n")],
                    effects=[(1, 4.0, 4.3, P.EF_BLUE), (1, 7.0, 7.5, P.EF_RED), (0, 7.6, 8.0, P.EF_BLUE)])
    plan = plan_director(timeline)
    assert plan.shots[0].slot == 0 and plan.shots[0].end - plan.shots[0].start == pytest.approx(MIN_SHOT)
    assert all(s.end - s.start >= MIN_SHOT - 1e-9 for s in plan.shots)
    assert {s.reason for s in plan.shots} >= {"frag", "powerup"}


def test_one_player_is_watched_all_along_with_changing_cameras(tmp_path) -> None:
    plan = plan_director(_mvd(tmp_path, ["Alice"], 60))
    assert {s.slot for s in plan.shots} == {0} and {s.reason for s in plan.shots} == {"only"}
    assert [s.camera for s in plan.shots[:4]] == list(FILLER_CAMERAS)
    assert all(s.end - s.start <= MAX_SHOT + MIN_SHOT for s in plan.shots)


def test_a_killer_out_of_view_or_without_a_view_is_not_followed(tmp_path) -> None:
    kills = [(10.0, "Bob rides Alice's rocket\n"), (20.0, "Bob rides Zed's rocket\n")]
    plan = plan_director(_mvd(tmp_path, ["Alice", "Bob"], 30, kills=kills, absent=[(0, 9.0, 9.5)]))
    assert [(f.outcome, f.killer_slot) for f in plan.frags] == [(OUT_OF_VIEW, 0), (NOT_A_PLAYER, None)]
    assert plan.frags[1].note == "no player with a view is named Zed"
    assert all(s.reason != "frag" for s in plan.shots)
    assert plan.shot_at(9.2).slot == 1           # Alice is not in the demo then: the director shows Bob


def test_nobody_in_view_is_the_demos_own_view(tmp_path) -> None:
    plan = plan_director(_mvd(tmp_path, ["Alice"], 12, absent=[(0, 2.0, 100.0)]))
    assert _shots(plan) == [(0.1, 2.2, 0, "chase", "only"), (2.2, 12.0, None, "pov", "demo")]   # seen 0.25 s on
    assert plan.pov_at(5.0) is None and plan.shots[1].why == "no player in view: the demo's own view"


def test_a_clock_that_jumps_by_years_is_planned_coarsely(tmp_path) -> None:
    """A hostile demo whose clock jumps 3e8 s: the director reads at most MAX_TICKS moments and makes a shot per
    moment at most, in milliseconds, instead of thirty million shots of 10 s."""
    m, w = QWMessages(), QWDWriter()
    qwd_signon(m, w, names=("Alice", "Bob"))
    for t in (1.0, 1.1, 1.2, 3e8, 3e8 + 0.1):
        w.packet(t, m.playerinfo_qwd(0, origin=(0, 0, 24)), m.packetentities([m.entity(40, model=2)]))
    w.packet(3e8 + 0.2, m.disconnect())
    path = tmp_path / "jump.qwd"
    path.write_bytes(w.build())
    timeline = load_demo(path)
    plan = plan_director(timeline)
    assert timeline.duration > 2.9e8 and len(plan.shots) <= 4
    assert plan.shots[0].start == timeline.start_time and plan.shots[-1].end == timeline.end_time
    assert all(a.end == b.start for a, b in zip(plan.shots, plan.shots[1:]))


def test_a_broken_demo_is_one_line(tmp_path, capsys) -> None:
    bad = tmp_path / "broken.dem"
    bad.write_bytes(b"-1\n" + bytes(range(256)) * 4)
    assert main(["director", str(bad)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"qdv director: {bad}")


# --- qdv director, screenshots, renders and the window follow the plan ----------------------------------------------

def test_qdv_director_prints_the_shot_list(capsys) -> None:
    assert main(["director", str(MVD_2ON2), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"demo", "duration", "rules", "shots", "frags"}
    assert out["rules"]["frag_lead"] == FRAG_LEAD and out["rules"]["min_shot"] == MIN_SHOT
    shots = out["shots"]
    assert shots[0]["start"] == 0.0 and shots[-1]["end"] == out["duration"] == pytest.approx(202.7, abs=0.1)
    assert all(set(s) == {"start", "end", "player", "slot", "camera", "reason", "why"} for s in shots)
    assert all(a["end"] == b["start"] for a, b in zip(shots, shots[1:]))
    frag = next(s for s in shots if s["reason"] == "frag")
    assert frag["camera"] == "pov" and frag["why"].startswith("fragged ")
    assert {f["outcome"] for f in out["frags"]} <= {COVERED, CONFLICT} and len(out["frags"]) == 25
    assert main(["director", str(MVD_2ON2)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:4] == ["start", "end", "length", "camera"] and len(lines) == len(shots) + 2
    assert lines[-1].startswith(f"{len(shots)} shots; 25 frags: ")


def test_director_and_pov_do_not_go_together(capsys) -> None:
    assert main(["screenshot", str(MVD_2ON2), "--camera", "director", "--pov", "0", "--out", "x.png"]) == 2
    assert "the director picks whom to watch" in capsys.readouterr().err


def _png(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"))


def test_screenshots_and_renders_follow_the_plan(tmp_path) -> None:
    """Around a cut from one player's eyes to another's, ``render --camera director`` shows the first player's
    eyes before it and the second's after, as ``screenshot --pov`` shows them; ``screenshot --camera director``
    shows the shot at its time."""
    timeline = _timeline(str(MVD_2ON2))
    plan = plan_director(timeline)
    cut = next(b.start for a, b in zip(plan.shots, plan.shots[1:])
               if a.camera == b.camera == "pov" and a.slot != b.slot and a.end - a.start > 1 and b.end - b.start > 1)
    first, second = plan.shot_at(cut - 0.5).slot, plan.shot_at(cut + 0.25).slot
    rel = cut - timeline.start_time
    common = ["--basedir", str(QUAKEWORLD), "--size", "160x90"]
    assert main(["render", str(MVD_2ON2), "--camera", "director", "--from", f"{rel - 0.5}", "--to", f"{rel + 0.5}",
                 "--fps", "4", "--out", str(tmp_path / "f%05d.png"), *common]) == 0
    frames = sorted(tmp_path.glob("f*.png"))
    assert len(frames) == 4
    for frame, when, slot in ((frames[0], rel - 0.5, first), (frames[3], rel + 0.25, second)):
        pov = tmp_path / f"pov{slot}.png"
        assert main(["screenshot", str(MVD_2ON2), "--pov", str(slot), "--time", f"{when}", "--out", str(pov),
                     *common]) == 0
        assert np.array_equal(_png(frame), _png(pov))
    assert main(["screenshot", str(MVD_2ON2), "--camera", "director", "--time", f"{rel + 0.25}",
                 "--out", str(tmp_path / "d.png"), *common]) == 0
    assert np.array_equal(_png(tmp_path / "d.png"), _png(frames[3]))


def test_the_director_camera_is_its_shot(tmp_path) -> None:
    """At any time the director's camera is its shot's: that player's eyes, the chase camera behind them, or the
    orbit circling them from the shot's yaw."""
    timeline = _timeline(str(QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"))
    plan = plan_director(timeline)
    director = ShotCamera("director", director=plan)
    seen = set()
    for shot in plan.shots:
        t = (shot.start + shot.end) / 2
        assert director.at(t).pov == (None if shot.slot == plan.recorder else shot.slot)
        scene = timeline.sample(t, pov=director.at(t).pov)
        own = {"pov": ShotCamera("pov", shot.slot), "chase": ShotCamera("chase", shot.slot),
               "orbit": ShotCamera("orbit", shot.slot, angles=(ORBIT_PITCH, plan.orbit_yaw(t), 0.0))}[shot.camera]
        kw = dict(start=timeline.start_time, orbit_height=timeline.schema.orbit_height)
        expected = camera_pose(own, scene, None, **kw).camera
        got = camera_pose(director, scene, None, **kw).camera
        assert (got is None) == (expected is None) and (got is None or got == expected)
        seen.add(shot.camera)
    assert seen == {"pov", "chase", "orbit"}


def test_ctrl_d_gives_the_camera_to_the_director_and_tab_takes_it_back() -> None:
    assert key_action("D", CTRL) == Action("director") == key_action("D", CTRL, free_camera=True)
    timeline = _timeline(str(MVD_2ON2))
    state = ViewerState.for_timeline(timeline)
    state.handle(Action("director"))
    assert state.directing and state.plan is not None and state.shot().mode == "director"
    frag = next(s for s in state.plan.shots if s.reason == "frag")
    state.clock = state.clock.seek((frag.start + frag.end) / 2)
    assert state.view_pov() == frag.slot and state.camera_name == "director"
    assert state.watching(timeline.sample(state.t, pov=state.view_pov())) == frag.player
    line = f"director: {frag.player} - {frag.why}"
    assert state.director_line() == (line if len(line) <= DIRECTOR_LINE else line[:DIRECTOR_LINE - 3] + "...")
    assert state.take_messages() == [f"director on: {len(state.plan.shots)} shots (Ctrl+D: off)"]
    state.handle(Action("player", 1))                        # Tab: the next player after the one shown
    slots = timeline.pov_slots
    assert not state.directing and state.pov_slot == slots[(slots.index(frag.slot) + 1) % len(slots)]
    assert state.shot().mode == "pov" and state.director_line() == ""
    state.handle(Action("director"))
    state.handle(Action("director"))                         # Ctrl+D again: off, on the player it showed
    assert not state.directing and state.pov_slot == frag.slot and state.mode == "pov"
    lines = readout_lines(Readout(1.0, 2.0, director="director: A - why"), with_clock=False)
    assert lines == ("director: A - why",)                  # shown beside the bar as well


def test_the_window_follows_the_director() -> None:
    """``qdv play --camera director`` (headless): each picture shows the shot's player (their eyes, or the camera
    around them), the corner readout names the shot, the sound is heard as that player; Ctrl+D gives the camera
    back on the player shown, and takes it again."""
    run = subprocess.run([sys.executable, "-m", "tests.director_driver", str(MVD_2ON2), "--headless"], cwd=REPO,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["directing"] and out["shots"] == len(plan_director(_timeline(str(MVD_2ON2))).shots)
    assert {s["camera"] for s in out["seen"]} == {"pov", "chase", "orbit"}
    for seen in out["seen"]:
        assert seen["mode"] == "director" and seen["pov"] == seen["slot"]
        assert seen["view_entity"] == seen["ears"] == seen["slot"] + 1            # QuakeWorld: slot s is entity s + 1
        line = f"director: {seen['player']} - {seen['why']}"
        assert seen["line"] == [line if len(line) <= DIRECTOR_LINE else line[:DIRECTOR_LINE - 3] + "..."]
    off = out["off"]
    assert not off["directing"] and off["mode"] == "pov" and off["line"] == []
    assert off["pov_slot"] == off["pov"] == out["seen"][-1]["slot"]
    assert out["on_again"]["directing"] and out["on_again"]["mode"] == "director"
