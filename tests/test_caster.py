"""The caster's picture of issue #33 as one: four panes of the 2on2 MVD, the first directed by the director, with
every overlay on (names, x-ray, item timers, minimap) — each pane exactly its camera's own picture with its overlays,
and the overlays really drawn."""

from __future__ import annotations

import numpy as np
from PIL import Image

from assets_loader.demos import load_demo
from tests.conftest import QUAKEWORLD
from tests.pane_check import assert_same_but_rounding
from viewer.camera_pose import ShotCamera
from viewer.cli import main
from viewer.director import plan_director
from viewer.headless import DemoRenderer
from viewer.multiview.layout import pane_rects
from viewer.multiview.panes import default_shots
from viewer.overlays.options import parse_overlays
from viewer.session import game_filesystem
from viewer.video.shot import ShotView

TWO_ON_TWO = QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd"
SIZE = (640, 360)
SECONDS = 60.0


def _screenshot(tmp_path, name: str, *extra: str) -> np.ndarray:
    out = tmp_path / name
    assert main(["screenshot", str(TWO_ON_TWO), "--time", str(SECONDS), "--multiview", "4", "--panes", "director,,,",
                 "--size", f"{SIZE[0]}x{SIZE[1]}", "--out", str(out), *extra]) == 0
    return np.asarray(Image.open(out).convert("RGB"))


def test_director_pane_with_every_overlay_is_its_own_picture(tmp_path):
    overlays = "names,xray,timers,minimap"
    with_overlays = _screenshot(tmp_path, "cast.png", "--overlay", overlays)
    without = _screenshot(tmp_path, "plain.png")
    rects = pane_rects(4, SIZE)
    timeline = load_demo(str(TWO_ON_TWO))
    fs = game_filesystem(str(TWO_ON_TWO), None, None)
    t = timeline.start_time + SECONDS
    shots = [ShotCamera("director", None, 90.0, director=plan_director(timeline)), *default_shots(timeline, 4)[1:]]
    for shot, rect in zip(shots, rects):
        pane = with_overlays[rect.y:rect.y + rect.h, rect.x:rect.x + rect.w]
        alone = DemoRenderer(timeline, fs, rect.size, hud=True, overlays=parse_overlays(overlays))
        try:
            assert_same_but_rounding(pane, ShotView(alone, shot).pixels(t))
        finally:
            alone.release()
        plain = without[rect.y:rect.y + rect.h, rect.x:rect.x + rect.w]
        # the overlays change a real share of each pane (the minimap's corner, the timers' panel, names)
        assert np.any(pane != plain, axis=2).mean() > 0.02
