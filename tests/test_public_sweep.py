"""Issue 29: the demos users really have — every public demo (``../shared/data/public``) and one corpus demo of each
game run through ``info``, ``events``, ``screenshot`` (25 %, 50 % free camera, 90 %), a 2 s ``render`` and (the
short ones) ``timedemo`` with exit 0, with the game data we have, with unrelated game data and with none; and the
player the camera follows is drawn (a fallback model or a placeholder where the data lacks theirs).

The commands run in this process through ``viewer.cli.main`` (an exception is a failed test, a traceback would be
the user's), with each demo decoded once (``cli_decodes_once``; pytest runs each demo's tests together, the
``demo`` fixture being module-scoped): the decoders are swept by their own tests, this sweeps what comes after.
Pictures are small (160x90) to keep the sweep within a few minutes.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from assets_loader.demos import DEMO_SUFFIXES
from tests.conftest import DATA, LQ1, QUAKE2, QUAKE3, QUAKEWORLD
from viewer.cli import main
from viewer.headless import DemoRenderer

PUBLIC = DATA / "public"
SIZE = "160x90"
#: The public demos of at most 80 s also run through a whole ``timedemo`` (with the data we have).
SHORT = ("vektar_demo1.dem", "cpma_forfeit_with_neg_score.dm_68", "cpma_gameplay_types.dm_68",
         "osp_gameplay_types.dm_68", "dm_90_gameplay_default_online.dm_90")


def _public_demos() -> list[Path]:
    return sorted(p for p in PUBLIC.rglob("*") if p.suffix.lower() in DEMO_SUFFIXES)


#: One corpus demo of each game beside the public ones: (path, the game data we have for it).
CORPUS = [
    (QUAKEWORLD / "lq_lqdm2_mvd.mvd", ("--basedir", str(QUAKEWORLD))),
    (next((QUAKE2 / "demos").glob("*.dm2")), ("--basedir", str(QUAKE2), "--game", "action")),
    (QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68", ("--basedir", str(QUAKE3))),
]


@pytest.fixture(scope="module")
def quake1_with_bg(tmp_path_factory) -> Path:
    """A Quake base dir for ``vektar_demo1.dem``: LibreQuake's pak as ``id1`` and the demo's ``bg.bsp`` in maps/."""
    base = tmp_path_factory.mktemp("quake1-bg")
    (base / "id1" / "maps").mkdir(parents=True)
    os.symlink(LQ1 / "pak0.pak", base / "id1" / "pak0.pak")
    shutil.copy(PUBLIC / "quake1" / "bg.bsp", base / "id1" / "maps" / "bg.bsp")
    return base


def _game_of(path: Path) -> str:
    return {".dem": "quake", ".qwd": "quake", ".mvd": "quake", ".dm2": "quake2"}.get(path.suffix.lower(), "quake3")


def _data_args(path: Path, which: str, quake1_base: Path) -> tuple[str, ...]:
    """``--basedir``/``--game`` for one of the three data settings: ``own`` (the data we have for its game),
    ``other`` (another game's data) or ``none``."""
    if which == "none":
        return ()
    game = _game_of(path)
    if which == "other":
        return ("--basedir", str(QUAKE3)) if game == "quake" else ("--basedir", str(QUAKEWORLD))
    for corpus, args in CORPUS:
        if corpus == path:
            return args
    if path.name == "vektar_demo1.dem":
        return ("--basedir", str(quake1_base))
    return ("--basedir", str(QUAKE3)) if game == "quake3" else ("--basedir", str(QUAKEWORLD))


DEMOS = _public_demos() + [path for path, _ in CORPUS]
DATA_SETTINGS = ("own", "other", "none")


pytestmark = pytest.mark.usefixtures("cli_decodes_once")


@pytest.fixture(scope="module")
def demo(request) -> Path:
    """The demo a test is parametrised with (indirectly: module scope makes pytest run each demo's tests one after
    the other, while its timeline is kept)."""
    return request.param


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("demo", DEMOS, ids=lambda p: p.name, indirect=True)
def test_info_and_events_need_no_game_data(demo: Path, capsys) -> None:
    status, out, err = _run(capsys, "info", str(demo), "--json")
    assert status == 0, err
    info = json.loads(out)
    status, out, err = _run(capsys, "events", str(demo), "--json")
    assert status == 0, err
    events = json.loads(out)
    assert info["duration"] > 0 and info["maps"] and info["players"]
    assert len(events) >= sum(info["events"].values()) > 0        # info counts a print read as a chat once


@pytest.mark.parametrize("which", DATA_SETTINGS)
@pytest.mark.parametrize("demo", DEMOS, ids=lambda p: p.name, indirect=True)
def test_screenshots_and_a_short_render_with_any_data(demo: Path, which: str, quake1_with_bg: Path, tmp_path,
                                                      capsys, decoded) -> None:
    data = _data_args(demo, which, quake1_with_bg)
    for time, camera in (("25%", "pov"), ("50%", "free"), ("90%", "pov")):
        out = tmp_path / f"{time[:-1]}-{camera}.png"
        status, _, err = _run(capsys, "screenshot", str(demo), "--time", time, "--camera", camera, "--size", SIZE,
                              "--out", str(out), *data)
        assert status == 0, err
        assert out.stat().st_size > 0
    duration = decoded(demo).duration
    start = round(duration * 0.4, 3)
    frames = tmp_path / "frames"
    frames.mkdir()
    status, _, err = _run(capsys, "render", str(demo), "--from", str(start), "--to", str(start + 2.0), "--fps", "5",
                          "--size", SIZE, "--no-audio", "--out", str(frames / "%05d.png"), *data)
    assert status == 0, err
    assert len(list(frames.glob("*.png"))) == 10


@pytest.mark.parametrize("demo", [d for d in DEMOS if d.name in SHORT], ids=lambda p: p.name, indirect=True)
def test_short_demos_timedemo_to_the_end(demo: Path, quake1_with_bg: Path, capsys, decoded) -> None:
    assert decoded(demo).duration <= 80.0
    status, out, err = _run(capsys, "timedemo", str(demo), "--size", SIZE,
                            *_data_args(demo, "own", quake1_with_bg))
    assert status == 0, err
    assert " frames " in out and " fps" in out


def _followed_player_pixels(renderer: DemoRenderer, fraction: float) -> int | None:
    """How many pixels of a chase-camera picture at ``fraction`` of the demo change when every entity is left out:
    the followed player stands in the middle of it. ``None`` when the followed player is not in the picture
    (dead, spectating in free flight, intermission)."""
    from viewer.cameras import chase_camera

    timeline = renderer.timeline
    t = timeline.start_time + fraction * timeline.duration
    state = timeline.sample(t)
    if state.view_entity not in set(state.entities.number.tolist()):
        return None
    renderer.session.use_segment(max(state.segment, 0))
    camera = chase_camera(renderer.session.game_map, state.view_origin, state.view_angles)
    frame = renderer.scene(t, camera)
    empty = replace(frame, models=(), md3=(), polys=(), particles=None)
    pictures = []
    for each in (frame, empty):
        renderer.render(each)
        pictures.append(renderer.target.read_rgb().astype(np.int16))
    return int((np.abs(pictures[0] - pictures[1]).max(axis=2) > 24).sum())


@pytest.mark.parametrize("which", DATA_SETTINGS)
@pytest.mark.parametrize("demo", DEMOS, ids=lambda p: p.name, indirect=True)
def test_the_followed_player_is_drawn_with_any_data(demo: Path, which: str, quake1_with_bg: Path, decoded) -> None:
    from viewer.session import game_filesystem

    data = _data_args(demo, which, quake1_with_bg)
    args = dict(zip(data[::2], data[1::2]))
    renderer = DemoRenderer(decoded(demo), game_filesystem(str(demo), args.get("--basedir"), args.get("--game")),
                            (160, 90))
    try:
        seen = [_followed_player_pixels(renderer, fraction) for fraction in (0.3, 0.5, 0.7)]
    finally:
        renderer.release()
    in_view = [n for n in seen if n is not None]
    if not in_view:
        pytest.fail(f"{demo.name}: the followed player is in no sampled picture; choose other moments")
    assert max(in_view) >= 40, seen
