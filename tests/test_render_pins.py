"""Pinned pictures: ``qdv screenshot`` of every format at fixed moments must stay what it was before the render seam
was restructured (issue 31: "pixel-identical screenshots ... before and after"), and ``qdv timedemo`` must draw
as many frames as the demo has.

The pictures in ``tests/render_pins/`` were made by this file with ``QDV_PIN_WRITE=1`` before the change. The
comparison allows a handful of pixels to differ by a few levels (Mesa's llvmpipe may round differently on another
CPU); a missing entity, a shifted camera or a changed blend changes far more than that.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.conftest import DATA, LQ1, QUAKE2, QUAKE3, QUAKEWORLD
from viewer.cli import main

PINS = Path(__file__).parent / "render_pins"
SIZE = "192x108"
#: Pixels allowed to differ at all, and by how much at most (grey levels per channel).
MAX_CHANGED_PIXELS = 12
MAX_LEVEL_CHANGE = 12

MVD_2ON2 = QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd"
Q2_DATA = ("--basedir", str(QUAKE2), "--game", "action")
Q3_DATA = ("--basedir", str(QUAKE3))

#: name → (demo or None for a map, time, extra screenshot arguments)
CASES: dict[str, tuple[Path | None, str, tuple[str, ...]]] = {
    "q1_demo1_lite_pov": (LQ1 / "demo1_lite.dem", "30%", ()),
    "q1_demo3_pov": (LQ1 / "demo3.dem", "50%", ()),
    "q1_demo3_free": (LQ1 / "demo3.dem", "20", ("--pos", "400,-200,120", "--angles", "10,135,0")),
    "q1_demo1_no_map": (LQ1 / "demo1.dem", "40%", ()),
    "q1_public_vektar": (DATA / "public" / "quake1" / "vektar_demo1.dem", "50%", ()),
    "q1_map_lqdm3": (None, "0", ("--map", "lqdm3", "--basedir", str(LQ1.parent), "--game", "lq1")),
    "qw_ranger_pov": (QUAKEWORLD / "lq_lqdm2_ranger.qwd", "40%", ("--basedir", str(QUAKEWORLD))),
    "qw_mvd_pov": (QUAKEWORLD / "lq_lqdm2_mvd.mvd", "60%", ("--basedir", str(QUAKEWORLD))),
    "qw_2on2_pov": (MVD_2ON2, "50%", ("--basedir", str(QUAKEWORLD))),
    "q2_bandaging_pov": (QUAKE2 / "demos" / "AQtion-bandaging-guide.dm2", "40%", Q2_DATA),
    "q2_duel_pov": (QUAKE2 / "demos" / "libq2-testduel.dm2", "50%", Q2_DATA),
    "q2_duel_free": (QUAKE2 / "demos" / "libq2-testduel.dm2", "50%", (*Q2_DATA, "--camera", "free", "--pos",
                                                                     "0,0,200", "--angles", "20,45,0")),
    "q3_follow_pov": (QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68", "30%", Q3_DATA),
    "q3_follow_late_pov": (QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68", "70%", Q3_DATA),
    "q3_player_pov": (QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71", "50%", Q3_DATA),
    "q3_player_free": (QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71", "50%", (*Q3_DATA, "--pos", "0,0,300",
                                                                            "--angles", "30,60,0")),
    "q3_public_cpma_oa_data": (DATA / "public" / "quake3" / "cpma_duel.dm_68", "50%", Q3_DATA),
    "q3_public_cpma_no_data": (DATA / "public" / "quake3" / "cpma_duel.dm_68", "50%", ()),
    "ql_duel_oa_data": (DATA / "public" / "quakelive" / "dm_91_duel.dm_91", "50%", Q3_DATA),
}


#: Each demo is decoded once (``cli_decodes_once``); the cases run demo by demo, while it is kept.
pytestmark = pytest.mark.usefixtures("cli_decodes_once")


def _screenshot(name: str, out: Path) -> np.ndarray:
    demo, time, extra = CASES[name]
    args = ["screenshot", *([str(demo)] if demo is not None else []), "--time", time, "--out", str(out),
            "--size", SIZE, *extra]
    with warnings.catch_warnings():   # missing data is the point of some cases, not what they pin
        warnings.simplefilter("ignore")
        assert main(args) == 0, f"qdv {' '.join(args)} failed"
    return np.asarray(Image.open(out).convert("RGB"), np.int16)


@pytest.mark.parametrize("name", sorted(CASES, key=lambda name: (str(CASES[name][0]), name)))
def test_screenshot_equals_its_pinned_picture(name: str, tmp_path: Path) -> None:
    pixels = _screenshot(name, tmp_path / f"{name}.png")
    pin = PINS / f"{name}.png"
    if os.environ.get("QDV_PIN_WRITE") == "1":
        PINS.mkdir(exist_ok=True)
        Image.fromarray(pixels.astype(np.uint8)).save(pin, optimize=True)
    pinned = np.asarray(Image.open(pin).convert("RGB"), np.int16)
    assert pixels.shape == pinned.shape
    change = np.abs(pixels - pinned).max(axis=2)
    changed = int((change > 0).sum())
    assert changed <= MAX_CHANGED_PIXELS and int(change.max()) <= MAX_LEVEL_CHANGE, (
        f"{name}: {changed} pixels differ from {pin.name} (at most {int(change.max())} levels)")


TIMEDEMO_CASES = [(LQ1 / "demo1_lite.dem", ()), (QUAKE2 / "demos" / "AQtion-demo-guide.dm2", Q2_DATA)]


@pytest.mark.parametrize(("demo", "extra"), TIMEDEMO_CASES, ids=lambda v: getattr(v, "name", ""))
def test_timedemo_draws_every_frame_of_the_demo(demo: Path, extra: tuple[str, ...], capsys, decoded) -> None:
    frames = decoded(demo).num_frames
    assert main(["timedemo", str(demo), "--size", "64x36", *extra]) == 0
    assert f"{frames} frames" in capsys.readouterr().out
