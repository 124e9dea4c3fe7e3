"""Ghosts of other demos of the same map (issue 36): alignment on each run's level start, ghost positions equal the
other timeline's samples, the ahead/behind readout and splits on a constructed pair (a demo against itself 2 s
later), maps that differ refused, and a screenshot that shows the ghost where it stands."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from assets_loader.demos import load_demo
from viewer.cli import main
from viewer.ghosts import GHOST_ALPHA, Ghosts, GhostError, level_start, player_position
from viewer.render.refdef import Camera, SceneFrame
from viewer.splits import splits
from tests.conftest import DATA, Q2_DUEL
from tests.conftest import LQDM2_MVD as MVD
from tests.conftest import LQDM2_QWD as QWD
from tests.conftest import OA_FOLLOW as Q3_FOLLOW
from tests.conftest import OA_PLAYER as Q3_PLAYER

LQ_CUTSCENE = DATA / "quake1" / "lq1" / "demo1.dem"


@pytest.fixture(scope="module")
def qwd():
    return load_demo(QWD)


def test_level_start_is_the_first_frame_that_moves(qwd):
    start = level_start(qwd, 0)
    frame = int(np.searchsorted(qwd.times, start))
    origins = np.asarray(qwd.view_origin)
    assert np.allclose(origins[:frame], origins[0], atol=1.0)     # standing still until then
    assert np.linalg.norm(origins[frame] - origins[0]) > 1.0
    assert start > qwd.start_time                                  # the QWD's first frames wait for the spawn


def test_qw_ghost_positions_are_the_other_timelines_samples_after_alignment(qwd):
    """The MVD of the same match, following LQ_Ranger (the QWD's recorder): each ghost is the MVD sampled at the
    aligned time, and aligned on the level starts it stands where the QWD's recorder stands."""
    ghosts = Ghosts.load(qwd, [f"{MVD}@LQ_Ranger"])
    ghost = ghosts.ghosts[0]
    mvd = ghost.timeline
    assert ghost.pov is not None and ghost.label == "LQ_Ranger"
    main_start, ghost_start = level_start(qwd, 0), level_start(mvd, 0, ghost.pov)
    gaps = []
    for dt in np.arange(5.0, 95.0, 7.5):
        t = main_start + float(dt)
        (pose,) = ghosts.poses(0, t)
        assert pose.ghost_time == pytest.approx(t - main_start + ghost_start)
        expected, yaw = player_position(mvd, mvd.sample(pose.ghost_time, pov=ghost.pov))
        assert np.array_equal(pose.origin, expected) and pose.yaw == yaw
        gaps.append(np.linalg.norm(pose.origin - player_position(qwd, qwd.sample(t))[0]))
    assert np.median(gaps) < 48.0       # the same player in two recordings of one match, aligned by level start


def test_q3_ghost_is_the_other_recorder_drawn_as_a_translucent_box():
    main_tl = load_demo(Q3_FOLLOW)
    ghosts = Ghosts.load(main_tl, [str(Q3_PLAYER)])
    ghost = ghosts.ghosts[0]
    t = level_start(main_tl, 0) + 10.0
    (pose,) = ghosts.poses(0, t)
    expected = ghost.timeline.sample(t - level_start(main_tl, 0) + level_start(ghost.timeline, 0))
    assert np.array_equal(pose.origin, player_position(ghost.timeline, expected)[0])
    assert np.allclose(pose.origin, np.asarray(expected.view_origin) - (0, 0, 26.0))   # the eye less its height
    frame = ghosts.add_to(SceneFrame(t, 0, Camera((0.0, 0.0, 0.0), (0.0, 0.0, 0.0)), (), np.ones(64)), None)
    (box,) = frame.md3
    assert np.array_equal(box.origin, pose.origin.astype(np.float32)) and box.placeholder is not None
    assert box.shader_rgba == (*(int(c * 255) for c in ghost.color), int(GHOST_ALPHA * 255))   # tinted, translucent


def test_self_ghost_two_seconds_later_reads_two_seconds_behind(qwd):
    ghosts = Ghosts.load(qwd, [str(QWD)], [2.0])
    start = level_start(qwd, 0)
    read = []
    for dt in (20.0, 30.0, 45.0, 60.0):
        ((_, behind),) = ghosts.race(0, start + dt)
        read.append(behind)
        (line,) = ghosts.readout(0, start + dt)
        away = np.linalg.norm(ghosts.poses(0, start + dt)[0].origin - player_position(qwd, qwd.sample(start + dt))[0])
        assert line == f"ghost lq_lqdm2_ranger: +2.0 s (behind), {away:.0f} u away"
    assert np.allclose(read, 2.0, atol=0.06)
    ahead = Ghosts.load(qwd, [str(QWD)], [-2.0])
    assert ahead.readout(0, start + 30.0)[0].startswith("ghost lq_lqdm2_ranger: -2.0 s (ahead), ")


def test_splits_against_itself_two_seconds_later():
    """The Quake II duel reaches the intermission of q2rdm2: its split ends there, and the same run 2 s later as a
    ghost is 2.0 s behind."""
    timeline = load_demo(Q2_DUEL)
    (split,) = splits(timeline, Ghosts.load(timeline, [str(Q2_DUEL)], [2.0]))
    assert split.finished and split.map_name == "q2rdm2"
    assert split.end == pytest.approx(timeline.events_of_kind("intermission")[0].time, abs=0.11)
    assert split.kills is None and split.secrets is None       # Quake II's stats count neither
    assert split.ghosts == (("libq2-testduel", pytest.approx(2.0)),)


def test_a_cutscene_ends_no_map():
    """LibreQuake's demo1 plays in a cutscene (``intermission`` 3) from its first frames: no split time."""
    timeline = load_demo(LQ_CUTSCENE)
    (split,) = splits(timeline)
    assert not split.finished and split.end == timeline.segments[0].end_time
    assert split.kills == (51, 83) and split.secrets == (0, 7)


def test_maps_that_differ_are_refused_in_one_line(qwd, capsys):
    with pytest.raises(GhostError, match="plays oa_dm1, not lqdm2"):
        Ghosts.load(qwd, [str(Q3_PLAYER)])
    assert main(["splits", str(QWD), "--ghost", str(Q3_PLAYER)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "oa_dm1" in err and "lqdm2" in err


def test_splits_command_json(capsys):
    assert main(["splits", str(Q2_DUEL), "--ghost", str(Q2_DUEL), "--ghost-offset", "2", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["map"] == "q2rdm2" and row["ghosts"] == [{"ghost": "libq2-testduel", "difference": 2.0}]


def test_screenshot_shows_the_ghost_where_it_stands(qwd):
    """The recorder's own run 1 s later as a ghost, seen from the recorder's eye looking at where it stood 1 s ago:
    the ghost is at the picture's centre, and the pixels there change."""
    from viewer.headless import DemoRenderer
    from viewer.session import game_filesystem

    ghosts = Ghosts.load(qwd, [str(QWD)], [1.0])
    t = level_start(qwd, 0) + 25.0
    (pose,) = ghosts.poses(0, t)
    eye = np.asarray(qwd.sample(t).view_origin, np.float64)
    d = pose.origin - eye
    assert np.linalg.norm(d) > 64.0                                        # the ghost is out of the eye's way
    camera = Camera(tuple(eye), (-math.degrees(math.atan2(d[2], math.hypot(d[0], d[1]))),
                                 math.degrees(math.atan2(d[1], d[0])), 0.0), 90.0)
    renderer = DemoRenderer(qwd, game_filesystem(str(QWD), None, None), (320, 240))
    try:
        without = renderer.pixels(t, camera).astype(int)
        renderer.session.ghosts = ghosts
        frame = renderer.scene(t, camera)
        (draw,) = frame.models[-1:]
        assert draw.alpha == GHOST_ALPHA and draw.shell == ghosts.ghosts[0].color
        with_ghost = renderer.pixels(t, camera).astype(int)
    finally:
        renderer.release()
    changed = np.abs(with_ghost - without).sum(axis=2) > 12
    assert changed[110:130, 150:170].mean() > 0.5           # around the centre, where the ghost projects
    assert changed.mean() < 0.2                              # and little elsewhere


WINDOW_SCRIPT = """
import json, sys
import pyglet
pyglet.options["headless"] = True
from viewer.app import PlaySource, ViewerWindow
from viewer.session import game_filesystem
demo = sys.argv[1]
w = ViewerWindow(PlaySource(game_filesystem(demo, None, None), demo=demo, start="40", ghosts=(demo,),
                            ghost_offsets=(2.0,)), size=(640, 480), shots=sys.argv[2], quiet=True)
for _ in range(600):
    w.tick(1 / 60)
    if w.ready and w.state is not None and w.frames > 3:
        break
print(json.dumps([t.text for t in w.last_layers.texts]))
"""


def test_window_reads_the_ghost_behind(tmp_path):
    """``qdv play DEMO --ghost DEMO --ghost-offset 2``: the corner readout says the ghost is 2.0 s behind."""
    repo = Path(__file__).resolve().parents[1]
    env = {**os.environ, "QDV_CONFIG_DIR": str(tmp_path / "config")}
    done = subprocess.run([sys.executable, "-c", WINDOW_SCRIPT, str(QWD), str(tmp_path)], capture_output=True,
                          text=True, cwd=repo, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    texts = json.loads(done.stdout.strip().splitlines()[-1])
    assert any(t.startswith("ghost lq_lqdm2_ranger: +2.0 s (behind), ") and t.endswith(" u away") for t in texts)
