"""qdv beside the real engines: each reference frame in ``../shared/data/*/reference/`` (QuakeSpasm 0.95.1 for
Quake, ezQuake 3.6.1 for QuakeWorld, 1280×720 on Mesa llvmpipe) against qdv's frame of the same demo moment, both
reduced to 160×90 by area averaging; the mean absolute difference (grey levels, all channels) must stay under a
bound set below the figures before issue 17 (2.37, 2.03, 1.74; measured this way: 2.362, 2.031, 1.742).

The demo times are the moments whose camera matches the reference (the file names give the demo and the
approximate playback time; the exact time is where qdv's camera lines up with the engine's). The references show
the 3D view without a status bar, so the comparison is of the view alone.
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from assets_loader.demos import load_demo
from tests.conftest import LQ1, QUAKE1, QUAKEWORLD
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
