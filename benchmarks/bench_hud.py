"""What the game's HUD costs a frame in Python: its layout (``GameView.hud_layout``) and its drawing
(``HudRenderer.draw``: the vertices and the draw calls), and the whole single-view picture with the HUD
(``DemoRenderer.pixels(..., hud=True)``), over a stretch of a demo played at 30 frames a second (from 20 s in, or
a quarter of a shorter demo), as bench_multiview.py plays it.

Run: ``/work/venv/bin/python benchmarks/bench_hud.py [DEMO ...] [--size WxH] [--frames N]`` from the repository
root (default: the Quake, QuakeWorld, Quake II and Quake III demos of the corpus at 320x180). Prints, per demo, the
mean of this thread's CPU time (``time.thread_time``: the Python side, which llvmpipe's drawing threads do not
inflate) of the layout, of the drawing and of the whole picture.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assets_loader.demos import load_demo  # noqa: E402
from viewer.headless import DemoRenderer  # noqa: E402
from viewer.session import game_filesystem  # noqa: E402
from viewer.ui.timeline_bar import ui_scale  # noqa: E402

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
DEMOS = (DATA / "public" / "quake1" / "vektar_demo1.dem", DATA / "quakeworld" / "lq_lqdm2_mvd.mvd",
         DATA / "quake2" / "demos" / "libq2-testduel.dm2", DATA / "quake3" / "demos" / "oa_dm1_follow_p68.dm_68")


def bench(demo: str, size: tuple[int, int], frames: int) -> None:
    """Print the HUD's layout, drawing and whole-picture CPU milliseconds per frame of ``demo``."""
    timeline = load_demo(demo)
    renderer = DemoRenderer(timeline, game_filesystem(demo, None, None), size, hud=True)
    hud, session = renderer.hud, renderer.session
    assert hud is not None
    start = timeline.start_time + min(20.0, timeline.duration / 4)
    times = [start + i / 30.0 for i in range(frames)]
    scale = ui_scale(size)
    try:
        renderer.pixels(float(times[0]))        # loads the map, the HUD's pictures
        layout_ms, draw_ms, frame_ms = [], [], []
        for t in times:
            state = timeline.sample(float(t))
            c0 = time.thread_time()
            layout = session.game.hud_layout(state, timeline, size, scale, pic_sizes=hud.pic_size,
                                             assets=session.renderer.assets if session.renderer else None)
            c1 = time.thread_time()
            renderer.target.use()
            hud.draw(layout, size)
            c2 = time.thread_time()
            renderer.pixels(float(t))
            c3 = time.thread_time()
            layout_ms.append(c1 - c0)
            draw_ms.append(c2 - c1)
            frame_ms.append(c3 - c2)
    finally:
        renderer.release()
    print(f"{Path(demo).name:>34} {size[0]}x{size[1]}: layout {np.mean(layout_ms) * 1e3:6.3f}  "
          f"draw {np.mean(draw_ms) * 1e3:6.3f}  picture {np.mean(frame_ms) * 1e3:6.2f} ms/frame CPU "
          f"({len(times)} frames, {len(layout.quads)} quads in the last)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("demos", nargs="*", default=[str(d) for d in DEMOS])
    parser.add_argument("--size", default="320x180")
    parser.add_argument("--frames", type=int, default=120)
    args = parser.parse_args()
    size = (int(args.size.split("x")[0]), int(args.size.split("x")[1]))
    warnings.simplefilter("ignore")
    for demo in args.demos:
        bench(demo, size, args.frames)


if __name__ == "__main__":
    main()
