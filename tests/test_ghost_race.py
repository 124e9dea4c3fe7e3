"""A race against ghosts (issue 36, second part): level starts as the engines tell them, trails (the routes as 3D
lines in one buffer), cameras on ghosts (Tab to a ghost's eyes, R around one, ``--pov ghost:N``), name labels over
them, the splits table in the window, Quake III ghosts as the posed MD3 player and Quake ghosts in their own frames,
and ``qdv play`` decoding each ghost demo once. Real corpus demos; the constructed pair is a demo against itself
2 s later."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from assets_loader.demos import load_demo
from viewer.camera_pose import ShotCamera, camera_pose
from viewer.cli import main
from viewer.ghosts import (
    GHOST_ALPHA, PM_NORMAL, RECORDER_COLOR, TRAIL_ALPHA, TRAIL_JUMP, Ghosts, GhostError, level_start,
)
from viewer.input import Action, key_action
from viewer.render.refdef import Camera, SceneFrame
from viewer.splits import splits, splits_table
from viewer.ui.ghost_labels import LABEL_HEIGHT, label_layout
from viewer.viewer_state import FrameContext, ViewerState
from tests.conftest import DATA, Q2_DUEL
from tests.conftest import LQDM2_MVD as MVD
from tests.conftest import LQDM2_QWD as QWD
from tests.conftest import OA_FOLLOW as Q3_FOLLOW
from tests.conftest import OA_PLAYER as Q3_PLAYER

FROBO = DATA / "quakeworld" / "2on2_sf_vs_red[frobodm2]220104-0915.mvd"
NQ_RUN = DATA / "public" / "quake1" / "vektar_demo1.dem"
REPO = Path(__file__).resolve().parents[1]
RUNS = REPO / "tests" / "data" / "quake1_runs"      # two QuakeSpasm runs of lq_e0m1 (README there)


@pytest.fixture(scope="module")
def qwd():
    return load_demo(QWD)


def _png(path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB")).astype(int)


# --- level start ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [Q2_DUEL, Q3_PLAYER, Q3_FOLLOW])
def test_quake2_and_quake3_runs_start_at_their_first_pm_normal_frame(path):
    """The movement type the game sends: the first ``PM_NORMAL`` frame (here the first frame, already in play), one
    frame before the view is first seen to move."""
    tl = load_demo(path)
    pm = np.asarray(tl.stats["pm_type"])
    first = int(np.flatnonzero(pm == PM_NORMAL)[0])
    assert level_start(tl, 0) == pytest.approx(tl.times[first])
    origins = np.asarray(tl.view_origin)
    moved = int(np.argmax(np.linalg.norm(origins - origins[0], axis=1) > 1.0))
    assert moved > first


def test_a_netquake_run_starts_when_the_view_entity_is_placed():
    """NetQuake's first frame has the eye at the world origin (before ``svc_setview``'s entity has a place): the run
    starts at the next frame, where the player stands in the map."""
    tl = load_demo(NQ_RUN)
    origins = np.asarray(tl.view_origin)
    assert np.allclose(origins[0][:2], 0.0) and not np.allclose(origins[1][:2], 0.0)
    assert level_start(tl, 0) == pytest.approx(tl.times[1])


def test_recorded_runs_start_when_the_player_can_move_not_when_it_walks():
    """Two QuakeSpasm runs of one map, the second standing 2 s longer before walking: both start at their first
    frame in the map (the view entity placed), the same server time, not at their first step."""
    a, b = load_demo(RUNS / "runa.dem"), load_demo(RUNS / "runb.dem")
    for run in (a, b):
        origins = np.asarray(run.view_origin)
        assert np.allclose(origins[0][:2], 0.0) and not np.allclose(origins[1][:2], 0.0)
        assert level_start(run, 0) == pytest.approx(run.times[1])
    assert level_start(a, 0) == pytest.approx(level_start(b, 0))


def test_recorded_runs_split_as_the_engine_shows_them(capsys):
    """``qdv splits`` of the two runs: the time the engine's intermission screen shows (README: TIME 0:05 and
    0:07, SECRETS 0/3, KILLS 0/54), and the second run 2 s behind (200 frames of 10 ms, to one frame)."""
    assert main(["splits", str(RUNS / "runa.dem"), "--ghost", str(RUNS / "runb.dem")]) == 0
    head, ghost = capsys.readouterr().out.splitlines()
    assert head.startswith("lq_e0m1 ") and head.endswith("kills 0/54  secrets 0/3  (the game shows 0:05)")
    assert ghost.startswith("  ghost runb: +2.0") and ghost.endswith(" s (behind)")
    (split,) = splits(load_demo(RUNS / "runa.dem"), Ghosts.load(load_demo(RUNS / "runa.dem"),
                                                                [str(RUNS / "runb.dem")]))
    assert split.ghosts[0][1] == pytest.approx(2.0, abs=0.011)
    assert main(["splits", str(RUNS / "runb.dem"), "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert int(row["printed"]) == 7 and row["kills"] == [0, 54] and row["secrets"] == [0, 3]


def test_a_finished_ghost_stands_where_it_left_the_map():
    """After its intermission a ghost holds its last frame in the run (the exit it touched), not the intermission
    camera its view moved to."""
    a, b = load_demo(RUNS / "runa.dem"), load_demo(RUNS / "runb.dem")
    ghost = Ghosts.load(a, [str(RUNS / "runb.dem")])
    (end,) = [e.time for e in b.events_of_kind("intermission")]
    last = int(np.searchsorted(b.times, end)) - 1
    pose = ghost.seen(ghost.ghosts[0], 0, a.times[-1])
    assert pose is not None and pose.ghost_time == pytest.approx(b.times[last])
    assert np.allclose(pose.origin, b.sample(float(b.times[last])).entities.origin[pose.row])
    assert np.linalg.norm(np.asarray(b.sample(end + 0.5).view_origin) - pose.origin) > 500.0


def test_a_ghost_of_the_demo_itself_is_decoded_once(qwd):
    ghosts = Ghosts.load(qwd, [str(QWD)], [2.0])
    assert ghosts.ghosts[0].timeline is qwd


# --- trails --------------------------------------------------------------------------------------------------------


def test_trails_are_the_sampled_paths_as_line_segments_made_once(qwd):
    ghosts = Ghosts.load(qwd, [f"{MVD}@LQ_Ranger"])
    lines = ghosts.trails(0)
    assert ghosts.trails(0) is lines                                         # one object: one upload
    mine = np.all(np.isclose(lines.colors, [*RECORDER_COLOR, TRAIL_ALPHA]), axis=1)
    theirs = np.all(np.isclose(lines.colors, [*ghosts.ghosts[0].color, TRAIL_ALPHA]), axis=1)
    assert mine.sum() + theirs.sum() == len(lines.points) and mine.any() and theirs.any()
    pairs = lines.points.reshape(-1, 2, 3)
    steps = np.linalg.norm(pairs[:, 1] - pairs[:, 0], axis=1)
    assert steps.max() <= TRAIL_JUMP
    _, path = ghosts.main_path(0)                  # the recorder's: each step between two samples, but the jumps
    step = np.linalg.norm(path[1:] - path[:-1], axis=1)
    keep = (step > 0.0) & (step <= TRAIL_JUMP)
    assert np.array_equal(pairs[mine[::2]], np.stack([path[:-1][keep], path[1:][keep]], axis=1).astype(np.float32))
    assert (step > TRAIL_JUMP).any()               # lqdm2 has teleporters: the trail does not cross them
    frame = SceneFrame(qwd.start_time + 30.0, 0, Camera((0.0, 0.0, 0.0), (0.0, 0.0, 0.0)), (), np.ones(64))
    assert ghosts.add_to(frame, None).lines is None                         # off by default
    ghosts.show_trails = True
    assert ghosts.add_to(frame, None).lines is lines


def test_screenshot_trails_draw_the_routes_in_their_colours(tmp_path):
    """From above the map, ``--trails`` adds the recorder's white route and the ghost's orange one."""
    common = [str(QWD), "--ghost", f"{MVD}@LQ_Ranger", "--time", "40", "--camera", "free", "--pos=-100,200,1400",
              "--angles", "89,0,0", "--size", "320x240"]
    plain, routes = tmp_path / "plain.png", tmp_path / "routes.png"
    assert main(["screenshot", *common, "--out", str(plain)]) == 0
    assert main(["screenshot", *common, "--trails", "--out", str(routes)]) == 0
    a, b = _png(plain), _png(routes)
    changed = np.abs(b - a).sum(axis=2) > 40
    assert 0.01 < changed.mean() < 0.3
    r, g, bl = b[changed].T
    assert ((r > 150) & (g < 140) & (bl < 120)).mean() > 0.2                   # the ghost's orange
    assert ((r > 170) & (g > 170) & (bl > 170)).any()                         # the recorder's white


def test_line_renderer_uploads_a_lines_object_once(ctx, qwd):
    from viewer.render.context import OffscreenTarget
    from viewer.render.lines import LineRenderer
    from viewer.render.view_math import view_projection

    lines = Ghosts(qwd, []).trails(0)
    target = OffscreenTarget(ctx, (64, 48))
    renderer = LineRenderer(ctx)
    try:
        target.use()
        vp = view_projection(Camera((0.0, 200.0, 1400.0), (89.0, 0.0, 0.0)), 64 / 48)
        renderer.draw(lines, vp)
        buffer = renderer._buffer
        renderer.draw(lines, vp)
        assert renderer._buffer is buffer and buffer is not None and buffer.size == lines.points.size / 3 * 28
    finally:
        renderer.release()
        target.release()


# --- cameras on ghosts ---------------------------------------------------------------------------------------------


def test_a_ghosts_eyes_are_its_own_view_at_the_aligned_time(qwd):
    """The demo against itself 2 s later: the ghost's eyes at ``t`` are the recorder's view at ``t - 2``; the ghost
    whose eyes they are is not drawn."""
    ghosts = Ghosts.load(qwd, [str(QWD)], [2.0])
    t = level_start(qwd, 0) + 30.0
    scene = qwd.sample(t)
    cam = camera_pose(ShotCamera("pov", ghost=0), scene, None, start=qwd.start_time, orbit_height=16.0,
                      ghosts=ghosts).camera
    then = qwd.sample(t - 2.0)
    assert cam is not None and np.allclose(cam.origin, then.view_origin) and np.allclose(cam.angles, then.view_angles)
    assert len(ghosts.poses(0, t)) == 1
    ghosts.eyes = 0
    assert ghosts.poses(0, t) == []
    orbit = camera_pose(ShotCamera("orbit", angles=(20.0, 90.0, 0.0), orbit_distance=150.0, ghost=0), scene, None,
                        start=qwd.start_time, orbit_height=16.0, ghosts=ghosts)
    (pose,) = [p for p in Ghosts.load(qwd, [str(QWD)], [2.0]).poses(0, t)]
    assert orbit.held == pytest.approx((pose.origin[0], pose.origin[1], pose.origin[2] + 16.0))
    assert math.dist(orbit.camera.origin, orbit.held) == pytest.approx(150.0, abs=0.5)


def test_tab_cycles_the_players_then_the_ghosts_and_v_comes_back(qwd):
    state = ViewerState.for_timeline(qwd)
    state.ghost_labels = ("run a", "run b")
    slots = qwd.pov_slots
    ctx = FrameContext(Camera((0.0, 0.0, 0.0), (0.0, 0.0, 0.0)), scene=qwd.sample(qwd.start_time + 5.0))
    seen = []
    for _ in range(len(slots) + 2):
        state.handle(Action("player", 1), ctx)
        seen.append((state.pov_slot, state.ghost, state.watching(ctx.scene), state.shot().ghost))
    ghosts = [g for _, g, _, _ in seen]
    assert ghosts.count(0) == ghosts.count(1) == 1 and ghosts.index(1) == ghosts.index(0) + 1
    assert seen[ghosts.index(0)][2:] == ("ghost run a", 0)
    if ghosts.index(1) + 1 < len(seen):                                    # after the last ghost: the first player
        assert seen[ghosts.index(1) + 1][1] is None
    while state.ghost != 1:
        state.handle(Action("player", 1), ctx)
    state.handle(Action("player", 1), ctx)
    first = None if slots[0] == state.info.recorder_slot else slots[0]
    assert state.ghost is None and state.pov_slot == first
    state.handle(Action("player", -1), ctx)
    assert state.ghost == 1 and state.mode == "pov"
    state.handle(key_action("V"), ctx)
    assert state.ghost is None and state.mode == "pov" and state.shot().ghost is None


def test_r_orbits_the_ghosts_after_the_entities(qwd):
    state = ViewerState.for_timeline(qwd)
    state.ghost_labels = ("run",)
    ctx = FrameContext(Camera((0.0, 0.0, 0.0), (0.0, 0.0, 0.0)), followable=(3, 7))
    for expected in ((3, None), (7, None), (None, 0), (3, None)):
        state.handle(key_action("R"), ctx)
        assert (state.follow, state.ghost) == expected and state.mode == "orbit"
    state.handle(key_action("R", 1), ctx)                                    # Shift+R: back to the ghost
    assert state.ghost == 0 and state.shot().ghost == 0


def test_screenshot_pov_ghost_is_the_main_world_from_the_ghosts_eyes(tmp_path, qwd):
    """``--pov ghost:1`` of a run against itself 2 s later equals the free camera at the recorder's view 2 s
    earlier (the same frame of the main demo, the ghost not drawn, no HUD); an unknown ghost is refused."""
    t = 40.0
    then = qwd.sample(qwd.start_time + t - 2.0)
    common = [str(QWD), "--time", str(t), "--size", "160x120"]
    eyes, free = tmp_path / "eyes.png", tmp_path / "free.png"
    assert main(["screenshot", *common, "--ghost", str(QWD), "--ghost-offset", "2", "--pov", "ghost:1",
                 "--out", str(eyes)]) == 0
    pos = ",".join(f"{v:.6f}" for v in then.view_origin)
    angles = ",".join(f"{v:.6f}" for v in then.view_angles)
    assert main(["screenshot", *common, "--camera", "free", f"--pos={pos}", f"--angles={angles}",
                 "--out", str(free)]) == 0
    diff = np.abs(_png(eyes) - _png(free))
    assert (diff.sum(axis=2) > 24).mean() < 0.01
    with pytest.raises(GhostError, match=r"ghost:2: no such ghost; ghost:1 \(lq_lqdm2_ranger\)"):
        Ghosts.load(qwd, [str(QWD)]).index_of("ghost:2")
    assert main(["screenshot", *common, "--pov", "ghost:1", "--out", str(tmp_path / "x.png")]) == 2


# --- labels --------------------------------------------------------------------------------------------------------


def test_labels_are_centred_over_the_head_and_hidden_behind_the_camera_or_a_wall(qwd):
    from viewer.headless import DemoRenderer
    from viewer.session import game_filesystem

    cam = Camera((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 90.0)          # looking down +X
    ahead = (200.0, 0.0, -LABEL_HEIGHT)                           # the label's point is level with the eye
    layout = label_layout([("ghost", (1.0, 0.5, 0.0), ahead), ("behind", (1.0, 1.0, 1.0), (-200.0, 0.0, 0.0))],
                          cam, (640, 480), 1)
    (text,) = layout.texts
    assert text.text == "ghost" and text.color == (1.0, 0.5, 0.0, 1.0)
    assert text.x + len("ghost") * text.size / 2 == pytest.approx(320.0)
    assert text.y + text.size < 240.0 < text.y + text.size + 4.0           # just above the point
    renderer = DemoRenderer(qwd, game_filesystem(str(QWD), None, None), (64, 48))
    try:
        renderer.session.use_segment(0)
        world = renderer.session.game_map
    finally:
        renderer.release()
    assert world is not None
    t = level_start(qwd, 0) + 25.0                  # the run 1 s later stands in sight (test_ghosts' screenshot)
    (pose,) = Ghosts.load(qwd, [str(QWD)], [1.0]).poses(0, t)
    eye = np.asarray(qwd.sample(t).view_origin, np.float64)
    d = pose.origin + (0.0, 0.0, LABEL_HEIGHT) - eye
    looking = Camera(tuple(eye), (-math.degrees(math.atan2(d[2], math.hypot(d[0], d[1]))),
                                  math.degrees(math.atan2(d[1], d[0])), 0.0), 90.0)
    label = [("run", (1.0, 1.0, 1.0), pose.origin)]
    (seen,) = label_layout(label, looking, (64, 48), 1, world=world).texts
    assert seen.x + 1.5 * seen.size == pytest.approx(32.0)
    through = [("run", (1.0, 1.0, 1.0), pose.origin + (0.0, 0.0, 4000.0))]         # above the map's ceiling
    up = Camera(tuple(eye), (-89.0, 0.0, 0.0), 90.0)
    assert label_layout(through, up, (64, 48), 1).texts                          # in the picture, but
    assert not label_layout(through, up, (64, 48), 1, world=world).texts         # behind the ceiling


# --- Quake III and Quake ghosts as their models --------------------------------------------------------------------


def test_quake3_ghost_is_the_posed_md3_player_tinted(q3_fs):
    from viewer.games.quake3.players import GHOST_SHADER
    from viewer.games.registry import game_view

    main_tl = load_demo(Q3_FOLLOW)
    ghosts = Ghosts.load(main_tl, [str(Q3_PLAYER)])
    assets = game_view(main_tl.game).load_segment_assets(q3_fs, main_tl.segments[0])
    t = level_start(main_tl, 0) + 10.0
    (pose,) = ghosts.poses(0, t)
    frame = ghosts.add_to(SceneFrame(t, 0, Camera((0.0, 0.0, 0.0), (0.0, 0.0, 0.0)), (), np.ones(64)), assets)
    parts = [d for d in frame.md3 if d.custom_shader == GHOST_SHADER]
    assert [p.model.rsplit("/", 1)[1] for p in parts] == ["lower.md3", "upper.md3", "head.md3"]
    color = ghosts.ghosts[0].color
    assert all(p.shader_rgba == (*(int(c * 255) for c in color), int(GHOST_ALPHA * 255)) for p in parts)
    legs = parts[0]
    assert np.allclose(legs.origin, pose.origin)
    assert len({p.frame for p in parts}) > 1 or legs.frame > 0               # animated, not the base frame


def test_quake_ghost_runs_in_its_own_frames(qwd):
    from viewer.headless import DemoRenderer
    from viewer.session import game_filesystem

    ghosts = Ghosts.load(qwd, [f"{MVD}@LQ_Ranger"])
    renderer = DemoRenderer(qwd, game_filesystem(str(QWD), None, None), (64, 48))
    renderer.session.ghosts = ghosts
    try:
        frames = set()
        for dt in np.arange(5.0, 60.0, 2.5):
            t = level_start(qwd, 0) + float(dt)
            (pose,) = ghosts.poses(0, t)
            aside = Camera(tuple(pose.origin + (300.0, 0.0, 0.0)), (0.0, 180.0, 0.0))  # not inside the ghost
            draw = renderer.scene(t, aside).models[-1]
            own = pose.state.entities
            assert pose.row is not None and draw.frame == int(own.frame[pose.row])
            frames.add(draw.frame)
    finally:
        renderer.release()
    assert len(frames) > 3


# --- splits in the window, decoding once ---------------------------------------------------------------------------


def test_a_quakeworld_match_splits_at_its_intermission():
    tl = load_demo(FROBO)
    (split,) = splits(tl, Ghosts.load(tl, [str(FROBO)], [2.0]))
    assert split.finished and split.end == pytest.approx(tl.events_of_kind("intermission")[0].time)
    assert split.ghosts == (("2on2_sf_vs_red[frobodm2]220104-0915", pytest.approx(2.0)),)


WINDOW_SCRIPT = """
import json, sys
import pyglet
pyglet.options["headless"] = True
from viewer.app import PlaySource, ViewerWindow
from viewer.input import key_action
from viewer.session import game_filesystem
demo, start, keys = sys.argv[1], sys.argv[3], sys.argv[4:]
SHIFT = "Shift+"
w = ViewerWindow(PlaySource(game_filesystem(demo, None, None), demo=demo, start=start, ghosts=(demo,),
                            ghost_offsets=(2.0,)), size=(640, 480), shots=sys.argv[2], quiet=True)
for _ in range(600):
    w.tick(1 / 60)
    if w.ready and w.state is not None and w.frames > 3:
        break
out = []
for key in ["", *keys]:
    if key:
        w._act(key_action(key.removeprefix(SHIFT), 1 if key.startswith(SHIFT) else 0))
    w.tick(1 / 60)
    out.append([t.text for t in w.last_layers.texts])
print(json.dumps(out))
"""


def _window(tmp_path, demo, start, *keys):
    env = {**os.environ, "QDV_CONFIG_DIR": str(tmp_path / "config")}
    done = subprocess.run([sys.executable, "-c", WINDOW_SCRIPT, str(demo), str(tmp_path), start, *keys],
                          capture_output=True, text=True, cwd=REPO, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_window_shows_the_splits_at_the_map_end_and_on_y(tmp_path):
    """The Quake II duel raced against itself 2 s later: after its intermission the window shows ``qdv splits``'
    lines by itself; early in the map only Y shows them, and Y again hides them."""
    tl = load_demo(Q2_DUEL)
    table = splits_table(splits(tl, Ghosts.load(tl, [str(Q2_DUEL)], [2.0]))).splitlines()
    assert table[1] == "  ghost libq2-testduel: +2.000 s (behind)"
    (at_end,) = _window(tmp_path, Q2_DUEL, "99%")
    assert all(line in at_end for line in table)
    early, shown, hidden = _window(tmp_path, Q2_DUEL, "10", "Y", "Y")
    assert table[0] not in early and all(line in shown for line in table) and table[0] not in hidden


def test_window_names_the_ghost_and_tabs_to_its_eyes(tmp_path):
    """Shift+R orbits the last subject, the ghost: its name shows over it and the readout (the bar hidden with B)
    names it; Shift+Tab reaches its eyes."""
    texts = _window(tmp_path, QWD, "40", "B", "Shift+R", "V", *["Shift+TAB"] * 6)
    assert "lq_lqdm2_ranger" not in texts[1] and "watching LQ_Ranger" in texts[1]
    assert "lq_lqdm2_ranger" in texts[2] and "watching ghost lq_lqdm2_ranger" in texts[2]
    assert "watching ghost lq_lqdm2_ranger" not in texts[3]
    assert any("watching ghost lq_lqdm2_ranger" in t and "lq_lqdm2_ranger" not in t for t in texts[4:])


DECODES = """
import sys
from collections import Counter
import pyglet
pyglet.options["headless"] = True
import viewer.app, viewer.cli, viewer.ghosts
from assets_loader.demos import load_demo
count = Counter()
def counting(path, *a, **k):
    count[str(path)] += 1
    return load_demo(path, *a, **k)
viewer.ghosts.load_demo = counting
import assets_loader.demos, assets_loader.demos.detect
assets_loader.demos.load_demo = counting
assets_loader.demos.detect.load_demo = counting     # load_merged's
code = viewer.cli.main(["play", sys.argv[1], "--ghost", sys.argv[2], "--headless", "--frames", "3",
                        "--size", "320x240"])
print(code, count[sys.argv[1]], count[sys.argv[2]])
"""


def test_play_decodes_the_demo_and_each_ghost_demo_once(tmp_path):
    """The checks before the window opens decode the demo and its ghosts; the window plays those decodes."""
    env = {**os.environ, "QDV_CONFIG_DIR": str(tmp_path / "config")}
    done = subprocess.run([sys.executable, "-c", DECODES, str(QWD), str(MVD)], capture_output=True, text=True,
                          cwd=REPO, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-3:] == ["0", "1", "1"]


def test_the_window_export_carries_the_race(qwd, tmp_path):
    """Ctrl+E's job names the ghosts as ``--ghost`` does (a named player as ``OTHER@NAME``), their offsets, the
    trails and the ghost camera, without the recorder's HUD from a ghost's eyes; loaded again they are the same."""
    from viewer.video.background import GameData, export_for_view

    ghosts = Ghosts.load(qwd, [f"{MVD}@LQ_Ranger", str(QWD)], [0.0, 2.0])
    state = ViewerState.for_timeline(qwd)
    state.ghost_labels, state.ghost, state.show_trails = ("LQ_Ranger", "lq_lqdm2_ranger"), 1, True
    job = export_for_view(state, str(QWD), GameData(None, None, ""), tmp_path / "x.mp4", ghosts=ghosts)
    assert job.ghosts == (f"{MVD}@LQ_Ranger", str(QWD)) and job.ghost_offsets == (0.0, 2.0) and job.trails
    assert job.shot.ghost == 1 and not job.hud
    again = Ghosts.load(qwd, list(job.ghosts), list(job.ghost_offsets))
    assert [(g.label, g.pov, g.offset, g.segments) for g in again.ghosts] == \
        [(g.label, g.pov, g.offset, g.segments) for g in ghosts.ghosts]


TRAILS_SCRIPT = """
import sys
import pyglet
pyglet.options["headless"] = True
from viewer.app import PlaySource, ViewerWindow
from viewer.input import key_action
from viewer.session import game_filesystem
demo = sys.argv[1]
w = ViewerWindow(PlaySource(game_filesystem(demo, None, None), demo=demo, start="40"), size=(320, 240),
                 shots=sys.argv[2], quiet=True)
for _ in range(600):
    w.tick(1 / 60)
    if w.ready and w.state is not None and w.frames > 3:
        break
seen = [w._last.lines is not None]
for _ in range(2):
    w._act(key_action("T"))
    w.tick(1 / 60)
    seen.append(len(w._last.lines) if w._last.lines is not None else None)
print(seen, w.session.ghosts.ghosts)
"""


def test_t_without_ghosts_draws_the_recorders_route(tmp_path):
    env = {**os.environ, "QDV_CONFIG_DIR": str(tmp_path / "config")}
    done = subprocess.run([sys.executable, "-c", TRAILS_SCRIPT, str(QWD), str(tmp_path)], capture_output=True,
                          text=True, cwd=REPO, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    lines = len(Ghosts(load_demo(QWD), []).trails(0))
    assert done.stdout.strip().splitlines()[-1] == f"[False, {lines}, None] []"


def test_a_ghost_around_the_camera_is_not_drawn(tmp_path):
    """The two recorded runs stand on the same lift at first: from the recorder's eyes the ghost would wrap the
    camera in its tint, so it is left out; from a camera a few hundred units away it is drawn."""
    from assets_loader.vfs import VirtualFS
    from viewer.ghosts import GHOST_NEAR
    from viewer.headless import DemoRenderer

    (tmp_path / "lq1").mkdir()
    (tmp_path / "lq1" / "pak0.pak").symlink_to(DATA / "quake1" / "lq1" / "pak0.pak")
    a = load_demo(RUNS / "runa.dem")
    ghosts = Ghosts.load(a, [str(RUNS / "runb.dem")])
    t = level_start(a, 0) + 1.2
    (pose,) = ghosts.poses(0, t)
    eye = tuple(float(v) for v in a.sample(t).view_origin)
    assert np.linalg.norm(pose.origin - eye) < GHOST_NEAR
    renderer = DemoRenderer(a, VirtualFS(tmp_path, "lq1"), (64, 48))
    renderer.session.ghosts = ghosts
    try:
        shells = [[d for d in renderer.scene(t, camera).models if d.shell is not None]
                  for camera in (Camera(eye, (0.0, 0.0, 0.0)), Camera((eye[0] - 300.0, eye[1], eye[2]), (0, 0, 0)))]
    finally:
        renderer.release()
    near, away = shells
    assert near == [] and len(away) == 1 and away[0].alpha == GHOST_ALPHA


def test_a_ghost_on_another_route_reads_no_time():
    """The second recorded run stood 2 s longer on the start lift, which carried it aside: where the first run
    walks, the second never passed — the readout says so instead of a time; both runs end in the same
    intermission, where the second arrives 2 s later."""
    from viewer.ghosts import ROUTE_NEAR

    a = load_demo(RUNS / "runa.dem")
    ghosts = Ghosts.load(a, [str(RUNS / "runb.dem")])
    _, path = ghosts.ghosts[0].path(0)
    t = level_start(a, 0) + 3.9
    here = np.asarray(a.sample(t).entities.origin[a.sample(t).entities.index_of(a.sample(t).view_entity)])
    assert np.linalg.norm(path - here, axis=1).min() > ROUTE_NEAR
    (line,) = ghosts.readout(0, t)
    assert line.startswith("ghost runb: off its route, ") and line.endswith(" u away")
    ((_, behind),) = ghosts.race(0, a.times[-1])
    assert behind == pytest.approx(2.0, abs=0.011)
