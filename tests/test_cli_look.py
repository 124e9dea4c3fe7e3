"""``qdv screenshot`` looks like the window: the HUD from the recorder's eyes (``--hud/--no-hud``), ``--wateralpha``,
and camera positions with negative coordinates."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.conftest import QUAKEWORLD
from viewer.cli import _build_parser, _join_vector_values, main

QWD = str(QUAKEWORLD / "lq_lqdm2_ranger.qwd")


def _shot(tmp_path: Path, name: str, *extra: str) -> np.ndarray:
    out = tmp_path / f"{name}.png"
    assert main(["screenshot", QWD, "--time", "21", "--size", "320x200", "--out", str(out), *extra]) == 0
    return np.asarray(Image.open(out).convert("RGB"), int)


def test_screenshot_draws_the_hud_from_the_recorders_eyes(tmp_path) -> None:
    with_hud = _shot(tmp_path, "hud")
    without = _shot(tmp_path, "nohud", "--no-hud")
    bar = slice(200 - 48, 200)
    assert np.abs(with_hud[bar] - without[bar]).mean() > 20            # the status bar covers the bottom
    assert np.abs(with_hud[60:120] - without[60:120]).mean() < 1         # the view above is the same


def test_free_camera_screenshot_has_no_hud_unless_asked(tmp_path) -> None:
    pos = ["--pos", "-100,-200,100", "--angles", "0,45,0"]
    free = _shot(tmp_path, "free", *pos)
    asked = _shot(tmp_path, "asked", *pos, "--hud")
    assert np.abs(asked[152:] - free[152:]).mean() > 20


def test_negative_vectors_parse() -> None:
    args = _build_parser().parse_args(_join_vector_values(
        ["screenshot", "x.dem", "--out", "y.png", "--pos", "-1400,-2.5,30", "--angles", "-10,0,0"]))
    assert args.pos == (-1400.0, -2.5, 30.0) and args.angles == (-10.0, 0.0, 0.0)
    assert _join_vector_values(["--pos", "1,2,3"]) == ["--pos", "1,2,3"]


def test_wateralpha_option_is_a_fraction(capsys) -> None:
    parser = _build_parser()
    assert parser.parse_args(["screenshot", "x.dem", "--out", "y.png", "--wateralpha", "0.4"]).wateralpha == 0.4
    assert parser.parse_args(["play", "x.dem", "--wateralpha", "1"]).wateralpha == 1.0
    with pytest.raises(SystemExit) as done:
        main(["screenshot", "x.dem", "--out", "y.png", "--wateralpha", "2"])
    assert done.value.code == 2
    assert "--wateralpha" in capsys.readouterr().err
