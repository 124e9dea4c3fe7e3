"""Demos shown without their game data (issue 29, item 4), on real demos of each game: no game dir at all, or game
data without the demo's map. The session loads an empty (or stand-in) game filesystem instead of refusing, draws
the missing map as a grid floor at the lowest height the view reaches, and says once what is missing, naming each
game's own files and ``--basedir``; the window's notice says it too, with the drop of a game folder."""

from __future__ import annotations

import shutil
import subprocess
import sys
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from assets_loader.demos import load_demo
from viewer.games.game_data import game_folder, missing_data_notice
from viewer.headless import DemoRenderer
from viewer.render.grid_floor import SKY
from viewer.session import game_filesystem

from tests.conftest import DATA, LQ1, QUAKE2, QUAKE3, QUAKEWORLD

REPO = Path(__file__).resolve().parents[1]
SIZE = (160, 90)
PUBLIC = DATA / "public"
#: (demo, the files the notice must name) for each game.
NO_DATA = {
    "quake": (LQ1 / "demo1_lite.dem", "id1/pak0.pak"),
    "quakeworld": (QUAKEWORLD / "lq_lqdm2_mvd.mvd", "id1/pak0.pak"),
    "quake2": (QUAKE2 / "demos" / "libq2-testduel.dm2", "baseq2/pak0.pak"),
    "quake3": (QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68", "baseq3/pak0.pk3"),
}


def _alone(demo: Path, tmp_path: Path) -> Path:
    """A copy of ``demo`` in a folder of its own: outside any game dir, as a downloaded demo is."""
    copy = tmp_path / demo.name
    shutil.copy(demo, copy)
    return copy


def _shown(demo: Path, basedir: Path | None, t_share: float = 0.5):
    """(picture, the same frame without its entities, session notice, warnings) at ``t_share`` of the demo."""
    timeline = load_demo(demo)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        renderer = DemoRenderer(timeline, game_filesystem(str(demo), str(basedir) if basedir else None, None), SIZE)
        try:
            t = timeline.start_time + timeline.duration * t_share
            frame = renderer.scene(t)
            renderer.render(frame)
            with_entities = renderer.target.read_rgb()
            renderer.render(replace(frame, models=(), md3=(), particles=None))
            without = renderer.target.read_rgb()
            notice = renderer.session.notice
        finally:
            renderer.release()
    return with_entities, without, notice, [str(w.message) for w in caught]


@pytest.mark.parametrize("game", sorted(NO_DATA))
def test_a_demo_without_any_game_data_is_shown_with_one_notice(game, tmp_path) -> None:
    demo, files = NO_DATA[game]
    px, without, notice, said = _shown(_alone(demo, tmp_path), None)
    assert notice.startswith("no ") and files in notice and "--basedir" in notice
    assert said == [notice]                                   # one line: no warning per missing file
    if game == "quake3":
        assert "pak0.pak" not in notice.replace("pak0.pk3", "")
    sky = np.array(SKY) * 255
    assert (np.abs(px.astype(float) - sky).max(axis=2) > 12).mean() > 0.2    # a floor or map, not an empty sky
    if game == "quakeworld":                               # the LibreQuake stand-ins draw the players
        assert np.any(px != without, axis=2).sum() > 20


def test_a_quake3_demo_on_a_map_the_game_data_lacks_stands_on_a_grid_floor(q3_basedir) -> None:
    demo = PUBLIC / "quake3" / "cpma_duel.dm_68"
    px, without, notice, said = _shown(demo, q3_basedir, 0.25)
    assert notice.startswith("map maps/cpm3a.bsp is not in ") and "baseoa" in notice and "--basedir" in notice
    assert said.count(notice) == 1 and not any("without the map" in s for s in said)
    lower = px[SIZE[1] // 2:].astype(int)
    assert len(np.unique(lower.reshape(-1, 3), axis=0)) > 8              # the grid floor below the horizon
    assert np.any(px != without, axis=2).sum() > 20                       # the view weapon and the effects


def test_a_quake_demo_beside_its_map_but_outside_a_game_dir_has_a_floor_and_the_stand_ins() -> None:
    demo = PUBLIC / "quake1" / "vektar_demo1.dem"
    px, without, notice, said = _shown(demo, None, 0.5)
    assert notice.startswith("no Quake game data found (id1/pak0.pak)") and "grid floor" in notice
    assert said == [notice]
    assert np.any(px != without, axis=2).sum() > 20


def test_unrelated_game_data_counts_as_none(tmp_path) -> None:
    demo = _alone(NO_DATA["quake2"][0], tmp_path)
    fs = game_filesystem(str(demo), str(QUAKEWORLD), None)               # Quake's id1, not Quake II's
    timeline = load_demo(demo)
    notice = missing_data_notice("quake2", fs, timeline.segments[0].map_path, window=True)
    assert notice.startswith(f"no Quake II game data in {QUAKEWORLD / 'id1'} (baseq2/pak0.pak)")
    assert notice.endswith("or drop the game folder on the window")


@pytest.mark.parametrize(("sample", "game"), [("oa", "quake3"), ("lqdm2", "quakeworld"), ("lq1", "quake")])
def test_the_bundled_samples_are_game_data_of_their_own(sample, game) -> None:
    from viewer.cli import sample_demo
    from viewer.games.game_data import has_game_data

    fs = game_filesystem(sample_demo(sample), None, None)
    assert has_game_data(game, fs) and fs.fallback is None


def test_a_window_export_reopens_empty_and_stand_in_game_data(tmp_path) -> None:
    from viewer.games.game_data import stand_in_pak
    from viewer.video.background import GameData

    demo = _alone(NO_DATA["quakeworld"][0], tmp_path)
    fs = game_filesystem(str(demo), None, None)
    assert fs.game_dirs == [] and fs.fallback == stand_in_pak() and fs.exists("progs/player.mdl")
    again = GameData.of(fs).open()
    assert again.game_dirs == [] and again.fallback == fs.fallback and again.exists("progs/player.mdl")
    bare = GameData.of(game_filesystem(str(_alone(NO_DATA["quake3"][0], tmp_path)), None, None)).open()
    assert bare.game_dirs == [] and bare.fallback is None and not bare.exists("gfx/2d/bigchars.tga")


def test_dropped_folders_that_are_game_data(tmp_path, q3_basedir) -> None:
    assert game_folder(QUAKEWORLD) == (str(QUAKEWORLD), None)                  # holds id1
    assert game_folder(LQ1) == (str(LQ1.parent), "lq1")                        # a game dir with pak0.pak
    assert game_folder(q3_basedir / "baseoa") == (str(q3_basedir), "baseoa")   # a game dir of pk3s
    assert game_folder(q3_basedir) == (str(q3_basedir), None)
    assert game_folder(tmp_path) is None


def test_the_cli_shows_a_quake3_demo_without_data_and_says_it_on_one_line(tmp_path) -> None:
    demo = _alone(NO_DATA["quake3"][0], tmp_path)
    out = tmp_path / "shot.png"
    done = subprocess.run([sys.executable, "-m", "viewer.cli", "screenshot", str(demo), "--out", str(out),
                           "--time", "50%", "--size", "160x90"], capture_output=True, text=True, cwd=REPO,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "warning: no Quake III game data found" in lines[0], lines
    assert out.stat().st_size > 0
