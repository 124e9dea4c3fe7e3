"""Multiview (issue #33 item 3): the pane layouts, who each pane watches, ``--multiview``/``--layout``/``--panes``
and the pictures: a multiview frame of the real 2on2 MVD and of the CPMA duel demo has N panes whose contents
differ, each pane is exactly its camera's picture drawn alone at the pane's size (HUD included), and the gaps
between panes are the border colour."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from assets_loader.demos import load_demo
from tests.conftest import DATA, LQ1, QUAKEWORLD
from tests.pane_check import assert_same_but_rounding
from viewer.camera_pose import ShotCamera
from viewer.cli import main, sample_demo
from viewer.headless import DemoRenderer
from viewer.multiview.draw import BORDER
from viewer.multiview.layout import (GAP, LAYOUT_CYCLE, Rect, next_layout, pane_at, pane_rects, pane_ui_scale)
from viewer.multiview.panes import MultiShot, default_shots
from viewer.session import game_filesystem
from viewer.ui.timeline_bar import ui_scale
from viewer.video.options import OptionError
from viewer.video.pane_options import parse_multiview, parse_pane
from viewer.video.shot import MultiShotView, ShotView, shot_view

TWO_ON_TWO = QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd"
CPMA_DUEL = DATA / "public" / "quake3" / "cpma_duel.dm_68"
LQDM2 = Path(sample_demo("lqdm2"))
#: The 2on2 MVD's map and two of its models, and the CPMA duel's game data, are not free: drawn as placeholders.
pytestmark = pytest.mark.filterwarnings("ignore:.*(game file not found|is not in|no Quake III game data)")


def _overlap(a: Rect, b: Rect) -> bool:
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


# --- layout -------------------------------------------------------------------------------------------------------

def test_one_pane_is_the_whole_frame():
    assert pane_rects(1, (1280, 720)) == (Rect(0, 0, 1280, 720),)
    assert pane_rects(1, (1280, 720), "inset") == (Rect(0, 0, 1280, 720),)


@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("size", [(1280, 720), (1919, 1081), (641, 361)])
def test_split_panes_tile_the_frame_with_a_gap(count, size):
    rects = pane_rects(count, size, "split")
    assert len(rects) == count
    w, h = size
    for i, a in enumerate(rects):
        assert a.x >= 0 and a.y >= 0 and a.x + a.w <= w and a.y + a.h <= h
        assert all(not _overlap(a, b) for b in rects[i + 1:])
    covered = sum(r.w * r.h for r in rects)
    assert covered >= w * h - GAP * (w + h)     # everything but the gaps
    if count == 2:
        left, right = rects
        assert (left.h, right.h) == (h, h) and right.x - (left.x + left.w) == GAP
    if count == 4:
        assert {r.x for r in rects} == {0, rects[1].x} and {r.y for r in rects} == {0, rects[2].y}
        assert all(abs(r.w - w / 2) <= GAP + 1 and abs(r.h - h / 2) <= GAP + 1 for r in rects)
    # each starts an even number of pixels from the left and the bottom (llvmpipe's 2×2 quads stay aligned)
    assert all(r.x % 2 == 0 and (h - r.y - r.h) % 2 == 0 for r in rects)


def test_inset_layout_is_a_big_view_with_quarter_insets_at_the_top_right():
    rects = pane_rects(4, (1280, 720), "inset")
    assert rects[0] == Rect(0, 0, 1280, 720)
    insets = rects[1:]
    assert all(r.size == (320, 180) for r in insets)
    assert all(r.x + r.w < 1280 and r.x > 640 for r in insets)
    assert [r.y for r in insets] == sorted(r.y for r in insets)
    assert all(not _overlap(a, b) for i, a in enumerate(insets) for b in insets[i + 1:])
    assert len(pane_rects(2, (1280, 720), "inset")) == 2


def test_counts_and_layouts_out_of_range():
    assert len(pane_rects(9, (640, 360))) == 4 and len(pane_rects(0, (640, 360))) == 1
    with pytest.raises(ValueError, match="layout 'grid'"):
        pane_rects(2, (640, 360), "grid")


def test_the_pane_under_a_point():
    split = pane_rects(4, (1280, 720))
    assert pane_at(split, 10, 10) == 0 and pane_at(split, 1270, 710) == 3 and pane_at(split, 1270, 10) == 1
    assert pane_at(split, split[0].w, 10) is None        # in the gap
    inset = pane_rects(4, (1280, 720), "inset")
    assert pane_at(inset, 10, 10) == 0
    assert pane_at(inset, inset[2].x + 5, inset[2].y + 5) == 2   # the inset is over the big view
    assert pane_at(inset, -1, 10) is None


def test_g_cycles_one_two_four_split_then_inset():
    step, seen = (1, "split"), []
    for _ in LAYOUT_CYCLE:
        step = next_layout(*step)
        seen.append(step)
    assert seen == [(2, "split"), (4, "split"), (4, "inset"), (1, "split")]
    assert next_layout(3, "split") == (4, "split")      # --multiview 3 joins the cycle at the next step
    assert next_layout(2, "inset") == (4, "split")


def test_a_pane_hud_stays_readable():
    # a quarter of 1280x720 keeps scale 1; of 1920x1080, scale 2 (one below the window's 3, not the pane's own 1)
    assert pane_ui_scale((639, 359), (1280, 720)) == 1
    assert pane_ui_scale((959, 539), (1920, 1080)) == 2 > ui_scale((959, 539))
    assert pane_ui_scale((1279, 719), (2560, 1440)) == 3
    assert pane_ui_scale((480, 270), (1920, 1080)) == 1     # an inset: what fits
    assert pane_ui_scale((100, 60), (1280, 720)) == 1       # never below 1
    assert pane_ui_scale((1920, 1080), (1920, 1080)) == ui_scale((1920, 1080))


# --- who each pane watches ----------------------------------------------------------------------------------------

def test_default_panes_watch_each_player_then_chase_them():
    two = load_demo(str(TWO_ON_TWO))      # 4 players and a spectator
    assert [(s.mode, s.pov) for s in default_shots(two, 4)] == [("pov", 0), ("pov", 1), ("pov", 3), ("pov", 4)]
    duel = load_demo(str(LQDM2))
    assert [(s.mode, s.pov) for s in default_shots(duel, 4)] == [("pov", 0), ("pov", 1), ("chase", 0),
                                                                 ("chase", 1)]
    cpma = load_demo(str(CPMA_DUEL))      # the recorder (slot 1) and the other duellist
    assert [(s.mode, s.pov) for s in default_shots(cpma, 2)] == [("pov", 1), ("pov", 2)]
    single = load_demo(str(LQ1 / "demo1.dem"))   # one player: the recorder, whose view is the demo's own
    assert [(s.mode, s.pov) for s in default_shots(single, 4, 100.0)] == [("pov", None), ("chase", None),
                                                                         ("orbit", None), ("free", None)]
    assert all(s.fov == 100.0 for s in default_shots(single, 4, 100.0))


def test_panes_option_names_players_and_cameras():
    two = load_demo(str(TWO_ON_TWO))
    assert parse_pane(": Timber", two) == ShotCamera("pov", 1)          # a name with a colon is a name
    assert parse_pane("chase:> MrJustice", two) == ShotCamera("chase", 3)
    assert parse_pane("orbit:4", two, 110.0) == ShotCamera("orbit", 4, 110.0)
    multi = parse_multiview(two, None, "inset", "chase:: sujoy,,1", 90.0)
    assert multi is not None and multi.layout == "inset"
    assert [(s.mode, s.pov) for s in multi.shots] == [("chase", 4), ("pov", 1), ("pov", 1)]
    multi = parse_multiview(two, 4, None, "3", 90.0)
    assert multi is not None and [(s.mode, s.pov) for s in multi.shots] == [("pov", 3), ("pov", 1), ("pov", 3),
                                                                             ("pov", 4)]
    assert parse_multiview(two, None, None, None) is None
    single = load_demo(str(LQ1 / "demo1.dem"))
    assert parse_pane("chase", single) == ShotCamera("chase", None)


@pytest.mark.parametrize("count, layout, panes, message", [
    (None, None, "nobody", "--panes nobody: no such player; this demo has 0 (Final)"),
    (2, None, "0,1,3", "--panes 0,1,3: 3 panes named for --multiview 2"),
    (5, None, None, "--multiview 5: expected 1..4 panes"),
    (None, "inset", None, "--layout inset: give --multiview N (or --panes) too"),
    (2, "grid", None, "--layout 'grid': expected one of split, inset"),
])
def test_panes_option_errors(count, layout, panes, message):
    with pytest.raises(OptionError) as caught:
        parse_multiview(load_demo(str(TWO_ON_TWO)), count, layout, panes)
    assert str(caught.value).startswith(message)


def test_cli_refuses_one_camera_flags_with_multiview(tmp_path, capsys):
    out = tmp_path / "x.png"
    assert main(["screenshot", str(LQDM2), "--multiview", "2", "--pov", "0", "--out", str(out)]) == 2
    assert "--multiview draws each pane's camera (--panes): not with --pov" in capsys.readouterr().err
    assert main(["screenshot", str(LQDM2), "--panes", "nobody", "--out", str(out)]) == 2
    assert "--panes nobody: no such player" in capsys.readouterr().err
    assert main(["render", str(LQDM2), "--multiview", "2", "--camera", "chase", "--out", str(tmp_path)]) == 2
    assert main(["screenshot", "--map", "lqdm2", "--multiview", "2", "--out", str(out)]) == 2
    assert "--multiview shows a demo's players: not with --map" in capsys.readouterr().err
    assert not out.exists()


# --- pictures -----------------------------------------------------------------------------------------------------

def _pane(px: np.ndarray, rect: Rect) -> np.ndarray:
    return px[rect.y:rect.y + rect.h, rect.x:rect.x + rect.w]


def _all_differ(pieces: list[np.ndarray]) -> None:
    """Each pair of same-sized pictures differs in a good share of its pixels."""
    for i, a in enumerate(pieces):
        for b in pieces[i + 1:]:
            assert np.any(a != b, axis=2).mean() > 0.2


@pytest.mark.parametrize("demo, count, seconds", [(TWO_ON_TWO, 4, 60.0), (CPMA_DUEL, 2, 120.0)])
def test_screenshot_multiview_has_n_panes_whose_content_differs(tmp_path, demo, count, seconds):
    size = (640, 360)
    out = tmp_path / "multi.png"
    assert main(["screenshot", str(demo), "--time", str(seconds), "--multiview", str(count), "--size", "640x360",
                 "--out", str(out)]) == 0
    px = np.asarray(Image.open(out).convert("RGB"))
    assert px.shape == (360, 640, 3)
    rects = pane_rects(count, size)
    _all_differ([_pane(px, r)[:min(r.h for r in rects), :min(r.w for r in rects)] for r in rects])
    gap = px[:, rects[0].w:rects[1].x]
    assert gap.size and np.all(gap == np.rint(np.array(BORDER) * 255).astype(np.uint8))
    # each pane is its camera's own picture at the pane's size, HUD included
    timeline = load_demo(str(demo))
    fs = game_filesystem(str(demo), None, None)
    t = timeline.start_time + seconds
    for shot, rect in zip(default_shots(timeline, count), rects):
        alone = DemoRenderer(timeline, fs, rect.size, hud=True)
        try:
            assert_same_but_rounding(_pane(px, rect), ShotView(alone, shot).pixels(t))
        finally:
            alone.release()


def test_inset_panes_differ_from_the_view_under_them(tmp_path):
    timeline = load_demo(str(LQDM2))
    renderer = DemoRenderer(timeline, game_filesystem(str(LQDM2), None, None), (640, 360), hud=True)
    try:
        t = timeline.start_time + 30.0
        plain = ShotView(renderer, default_shots(timeline, 1)[0]).pixels(t)
        view = shot_view(renderer, MultiShot(default_shots(timeline, 4), "inset"), t)
        px = view.pixels(t)
    finally:
        renderer.release()
    rects = pane_rects(4, (640, 360), "inset")
    outside = np.ones((360, 640), bool)
    for r in rects[1:]:
        outside[r.y - 1:r.y + r.h + 1, r.x - 1:r.x + r.w + 1] = False
        assert np.any(_pane(px, r) != _pane(plain, r), axis=2).mean() > 0.2
    assert np.array_equal(px[outside], plain[outside])     # the big view is pane 0's picture
    _all_differ([_pane(px, r) for r in rects[1:]])


def test_multiview_export_hears_the_chosen_pane(tmp_path):
    timeline = load_demo(str(LQDM2))
    renderer = DemoRenderer(timeline, game_filesystem(str(LQDM2), None, None), (64, 36))
    try:
        t = timeline.start_time + 30.0
        shots = default_shots(timeline, 4)
        view = shot_view(renderer, MultiShot(shots, "split", heard=1), t)
        assert isinstance(view, MultiShotView)
        alone = ShotView(renderer, shots[1]).listener(t)
        heard = view.listener(t)
        assert (heard.origin, heard.entity) == (alone.origin, alone.entity)
        assert heard.origin != ShotView(renderer, shots[0]).listener(t).origin
    finally:
        renderer.release()


def test_render_writes_multiview_frames(tmp_path, capsys):
    args = ["render", str(LQDM2), "--multiview", "4", "--panes", "orbit:LQ_Warden", "--from", "30", "--to", "+0.1",
            "--fps", "20", "--size", "320x180"]
    (tmp_path / "frames").mkdir()
    assert main([*args, "--out", str(tmp_path / "frames" / "%05d.png")]) == 0
    frames = sorted((tmp_path / "frames").glob("*.png"))
    assert len(frames) == 2
    px = np.asarray(Image.open(frames[0]).convert("RGB"))
    rects = pane_rects(4, (320, 180))
    _all_differ([_pane(px, r)[:min(r.h for r in rects), :min(r.w for r in rects)] for r in rects])
    assert main([*args, "--out", str(tmp_path / "multi.mp4")]) == 0       # pipelined frames and the sound
    assert "2 frames 320x180 at 20 fps (h264, aac sound)" in capsys.readouterr().out
