"""qdv beside the real engines: each reference frame in ``../shared/data/*/reference/`` (QuakeSpasm 0.95.1 for
Quake, ezQuake 3.6.1 for QuakeWorld, 1280×720 on Mesa llvmpipe) against qdv's frame of the same demo moment, both
reduced to 160×90 by area averaging; the mean absolute difference (grey levels, all channels) must stay under a
bound set below the figures before issue 17 (2.37, 2.03, 1.74; measured this way: 2.362, 2.031, 1.742).

The demo times are the moments whose camera matches the reference (the file names give the demo and the
approximate playback time; the exact time is where qdv's camera lines up with the engine's). The references show
the 3D view without a status bar, so the comparison is of the view alone.

Quake II against Q2PRO's GLSL renderer (``../shared/data/quake2/reference/``) and Quake III against windowed
ioquake3 + OpenArena (``../shared/data/quake3/reference/ioquake3-2026-11-28/``, the ``_win_`` frames: no
overbright in a window, the look qdv draws) are compared the same way, HUD included, at the exact demo moment each
file names (seconds from the demo's first frame / snapshot). Each frame's difference is pinned: it may only go down
(lower the pin when a change lowers it; issue 38). A pin is the figure measured when it was set (its comment) plus
0.005, rounded up to the hundredth: room for llvmpipe rounding on another CPU, not for a worse picture.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from assets_loader.demos import load_demo
from tests.conftest import LQ1, QUAKE1, QUAKE2, QUAKE3, QUAKEWORLD
from viewer.headless import DemoRenderer
from viewer.session import game_filesystem

SMALL = (160, 90)

#: (demo, reference picture, seconds from the demo's start, bound on the mean difference, the figure before)
CASES = [
    (LQ1 / "demo1_lite.dem", QUAKE1 / "reference" / "demo1_lite_lq_e0m1_t20.png", 19.0, 2.19, 2.37),
    (LQ1 / "demo3.dem", QUAKE1 / "reference" / "demo3_lqdm3_t15.png", 14.0, 2.025, 2.031),
    (QUAKEWORLD / "lq_lqdm2_ranger.qwd", QUAKEWORLD / "reference" / "playback_lq_lqdm2_ranger_qwd.png", 16.48,
     1.72, 1.742),
]


def small(pixels: np.ndarray | Image.Image) -> np.ndarray:
    picture = pixels if isinstance(pixels, Image.Image) else Image.fromarray(pixels)
    return np.asarray(picture.convert("RGB").resize(SMALL, Image.BOX), np.float32)


@pytest.mark.parametrize("demo, reference, seconds, bound, before", CASES, ids=[c[1].stem for c in CASES])
def test_frame_matches_the_engine_reference(demo, reference, seconds, bound, before) -> None:
    expected = Image.open(reference)
    timeline = load_demo(demo)
    renderer = DemoRenderer(timeline, game_filesystem(str(demo), None, None), expected.size)
    try:
        got = renderer.pixels(timeline.start_time + seconds)
    finally:
        renderer.release()
    difference = float(np.abs(small(got) - small(expected)).mean())
    assert bound <= before
    assert difference < bound, f"{reference.name}: mean difference {difference:.3f} (bound {bound})"


Q2PRO = QUAKE2 / "reference"
IOQ3 = QUAKE3 / "reference" / "ioquake3-2026-11-28"
#: (demo, seconds from its first frame) → the pinned mean difference with Q2PRO's frame of that moment.
QUAKE2_PINS = {
    ("AQtion-bandaging-guide", "018.300"): 1.43,  # 1.4191
    ("AQtion-bandaging-guide", "031.500"): 0.67,  # 0.6566
    ("AQtion-bandaging-guide", "054.300"): 0.94,  # 0.9251
    ("AQtion-bandaging-guide", "098.700"): 2.37,  # 2.3641
    ("AQtion-demo-guide", "005.000"): 0.79,  # 0.7812
    ("AQtion-demo-guide", "030.000"): 0.83,  # 0.8245
    ("AQtion-demo-guide", "060.000"): 0.80,  # 0.7884
    ("AQtion-demo-guide", "100.000"): 0.75,  # 0.7357
}
#: (demo, seconds from its first snapshot) → the pinned mean difference with windowed ioquake3's frame.
QUAKE3_PINS = {
    ("oa_dm1_follow_p68.dm_68", "012.000"): 2.13,  # 2.1177
    ("oa_dm1_follow_p68.dm_68", "022.750"): 7.61,  # 7.6023
    ("oa_dm1_follow_p68.dm_68", "055.700"): 2.89,  # 2.8837
    ("oa_dm1_follow_p68.dm_68", "083.650"): 7.79,  # 7.7806
    ("oa_dm1_player_p71.dm_71", "012.200"): 23.81,  # 23.7975
    ("oa_dm1_player_p71.dm_71", "030.000"): 16.01,  # 15.9979
    ("oa_dm1_player_p71.dm_71", "053.750"): 2.20,  # 2.1903
    ("oa_dm1_player_p71.dm_71", "070.200"): 19.93,  # 19.9224
}


class _Demo:
    """One demo's timeline and a HUD-drawing renderer at the references' size, shared by its moments."""

    def __init__(self, demo: Path, basedir: Path, game: str | None) -> None:
        self.timeline = load_demo(demo)
        self.renderer = DemoRenderer(self.timeline, game_filesystem(str(demo), str(basedir), game), (1280, 720),
                                     hud=True)

    def difference(self, seconds: str, reference: Path) -> float:
        """The mean difference at the frame ``seconds`` after the first (that frame's own time: the sum of the
        start and the file name's rounded seconds may fall a hair before it, where its events are not yet seen)."""
        times = self.timeline.times
        frame = int(np.abs(times - (self.timeline.start_time + float(seconds))).argmin())
        got = self.renderer.pixels(float(times[frame]))
        return float(np.abs(small(got) - small(Image.open(reference))).mean())


@pytest.fixture(scope="module")
def demos():
    opened: dict[Path, _Demo] = {}

    def demo(path: Path, basedir: Path, game: str | None) -> _Demo:
        if path not in opened:
            opened[path] = _Demo(path, basedir, game)
        return opened[path]

    yield demo
    for found in opened.values():
        found.renderer.release()


@pytest.mark.parametrize("demo, seconds", sorted(QUAKE2_PINS), ids=[f"{d}_t{t}" for d, t in sorted(QUAKE2_PINS)])
def test_quake2_frame_against_q2pro_only_gets_closer(demos, demo, seconds) -> None:
    """Q2PRO draws soft particles, its HUD at scale 1 and the centerprint a quarter down at 1280×720."""
    reference = Q2PRO / f"{demo}_t{seconds}_q2pro_glsl.png"
    difference = demos(QUAKE2 / "demos" / f"{demo}.dm2", QUAKE2, "action").difference(seconds, reference)
    pinned = QUAKE2_PINS[demo, seconds]
    assert difference <= pinned, f"{reference.name}: mean difference {difference:.3f} (pinned {pinned})"


@pytest.mark.parametrize("demo, seconds", sorted(QUAKE3_PINS), ids=[f"{d[:17]}_t{t}" for d, t in sorted(QUAKE3_PINS)])
def test_quake3_frame_against_windowed_ioquake3_only_gets_closer(demos, demo, seconds) -> None:
    """Windowed ioquake3: no overbright (qdv's Quake III look), r_picmip 1, shader blends in the 2D path."""
    stem = demo.split(".")[0]
    reference = IOQ3 / f"{stem}_t{seconds}_ioq3_win_clean.png"
    difference = demos(QUAKE3 / "demos" / demo, QUAKE3, None).difference(seconds, reference)
    pinned = QUAKE3_PINS[demo, seconds]
    assert difference <= pinned, f"{reference.name}: mean difference {difference:.3f} (pinned {pinned})"
