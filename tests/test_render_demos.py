"""Rendering whole demo frames headless: every corpus demo at several times, screenshot and timedemo CLIs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from assets_loader.bsp.trace import point_contents
from assets_loader.demos import load_demo
from tests.conftest import LQ1, QUAKE2, QUAKEWORLD
from viewer.cli import main
from viewer.headless import DemoRenderer, timedemo
from viewer.session import game_filesystem

CONTENTS_SOLID = -2
DEMOS = [(LQ1 / "demo1_lite.dem", None), (LQ1 / "demo3.dem", None),
         (QUAKEWORLD / "lq_lqdm2_ranger.qwd", QUAKEWORLD), (QUAKEWORLD / "lq_lqdm2_mvd.mvd", QUAKEWORLD)]


@pytest.mark.parametrize(("path", "basedir"), DEMOS, ids=lambda v: getattr(v, "name", ""))
def test_corpus_demo_frames_are_varied_and_seen_from_inside_the_map(path: Path, basedir) -> None:
    timeline = load_demo(path)
    renderer = DemoRenderer(timeline, game_filesystem(str(path), str(basedir) if basedir else None, None), (160, 90))
    try:
        for fraction in (0.25, 0.5, 0.9):
            t = timeline.start_time + fraction * timeline.duration
            frame = renderer.scene(t)
            renderer.render(frame)
            pixels = renderer.target.read_rgb()
            colours = len(np.unique(pixels.reshape(-1, 3) // 8, axis=0))
            assert colours > 30, f"{path.name} at {t:.1f}: only {colours} colours"
            assert pixels.mean() > 3, f"{path.name} at {t:.1f}: black picture"
            world = renderer.session.world
            assert point_contents(world, frame.camera.origin) != CONTENTS_SOLID
    finally:
        renderer.release()


def test_demo_without_its_map_still_renders_its_entities() -> None:
    """demo1.dem needs lq_e1m4, which the corpus lacks: the entities are drawn in an empty world."""
    timeline = load_demo(LQ1 / "demo1.dem")
    renderer = DemoRenderer(timeline, game_filesystem(str(LQ1 / "demo1.dem"), None, None), (160, 90))
    try:
        with pytest.warns(UserWarning, match="lq_e1m4"):
            frame = renderer.scene(timeline.start_time + 10)
        assert renderer.session.world is None
        lit = 0
        for fraction in np.linspace(0.1, 0.9, 9):
            renderer.render(renderer.scene(timeline.start_time + fraction * timeline.duration))
            lit += int((renderer.target.read_rgb().sum(axis=2) > 0).sum())
        assert frame.models and lit > 0
    finally:
        renderer.release()


def test_screenshot_cli_writes_a_png_and_never_overwrites(tmp_path: Path, capsys) -> None:
    out = tmp_path / "shot.png"
    demo = str(LQ1 / "demo3.dem")
    assert main(["screenshot", demo, "--time", "50%", "--out", str(out), "--size", "96x54"]) == 0
    assert Image.open(out).size == (96, 54)
    before = out.read_bytes()
    assert main(["screenshot", demo, "--time", "1", "--out", str(out), "--size", "96x54"]) == 1
    assert "already exists" in capsys.readouterr().err and out.read_bytes() == before
    assert main(["screenshot", demo, "--time", "1", "--out", str(out), "--size", "96x54", "--force"]) == 0
    assert out.read_bytes() != before


def test_screenshot_free_camera_and_map_only(tmp_path: Path) -> None:
    demo = str(LQ1 / "demo3.dem")
    pov, free = tmp_path / "pov.png", tmp_path / "free.png"
    assert main(["screenshot", demo, "--time", "15", "--out", str(pov), "--size", "64x36"]) == 0
    assert main(["screenshot", demo, "--time", "15", "--out", str(free), "--size", "64x36",
                 "--angles", "0,0,0"]) == 0
    assert not np.array_equal(np.asarray(Image.open(pov)), np.asarray(Image.open(free)))
    shot = tmp_path / "map.png"
    assert main(["screenshot", "--map", "lqdm3", "--basedir", str(LQ1.parent), "--game", "lq1",
                 "--out", str(shot), "--size", "64x36"]) == 0
    assert np.asarray(Image.open(shot)).std() > 5


def test_timedemo_prints_the_engine_line(capsys) -> None:
    assert main(["timedemo", str(LQ1 / "demo3.dem"), "--size", "32x18"]) == 0
    words = capsys.readouterr().out.split()
    assert words[0] == "1233" and words[1:2] == ["frames"] and words[3] == "seconds" and words[5] == "fps"


def test_timedemo_with_the_hud_draws_it_over_every_frame() -> None:
    demo = QUAKE2 / "demos" / "AQtion-demo-guide.dm2"
    timeline = load_demo(demo)
    pictures = []
    for hud in (False, True):
        renderer = DemoRenderer(timeline, game_filesystem(str(demo), str(QUAKE2), "action"), (64, 36), hud=hud)
        try:
            result = timedemo(renderer)
            pictures.append(renderer.target.read_rgb().astype(np.int16))
        finally:
            renderer.release()
        assert result.frames == len(timeline.times)
    changed = np.abs(pictures[1] - pictures[0]).max(axis=2) > 0   # the last frame: its HUD's numbers and icons
    assert 20 < changed.sum() < changed.size // 2
