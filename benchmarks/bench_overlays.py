"""What the caster's overlays cost a frame: ``DemoRenderer.pixels`` at evenly spread times of a demo with no overlay
and with each one alone and all four, plus the one-time work (the item timers of the segment, the map's floors).

Run: ``PYTHONPATH=. python benchmarks/bench_overlays.py [DEMO] [--basedir DIR] [--size WxH] [--frames N]`` from the
repository root (default: the LibreQuake MVD ``../shared/data/quakeworld/lq_lqdm2_mvd.mvd`` at 1280x720). Prints
p50 of the frame's wall time and of this thread's CPU time (``time.thread_time``: the CPU side of the overlays,
which llvmpipe's drawing threads do not inflate) per setting.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from assets_loader.demos import load_demo
from viewer.headless import DemoRenderer
from viewer.overlays import NO_OVERLAYS, OVERLAY_NAMES, parse_overlays
from viewer.overlays.item_timers import ItemTimers
from viewer.session import game_filesystem

DEFAULT_DEMO = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "quakeworld" / "lq_lqdm2_mvd.mvd"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("demo", nargs="?", default=str(DEFAULT_DEMO))
    parser.add_argument("--basedir", default=None)
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--frames", type=int, default=60)
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))

    timeline = load_demo(args.demo)
    t0 = time.perf_counter()
    spots = ItemTimers(timeline).spots(0)
    print(f"{Path(args.demo).name}: item timers of segment 0 ({len(spots)} spots, "
          f"{sum(len(s.pickups) for s in spots)} pickups) in {(time.perf_counter() - t0) * 1e3:.0f} ms")
    renderer = DemoRenderer(timeline, game_filesystem(args.demo, args.basedir, None), size, hud=True)
    times = np.linspace(timeline.start_time + 0.1 * timeline.duration, timeline.end_time - 1.0, args.frames)
    try:
        settings = [("none", NO_OVERLAYS), *((n, parse_overlays(n)) for n in OVERLAY_NAMES),
                    ("all", parse_overlays(",".join(OVERLAY_NAMES)))]
        for name, options in settings:
            renderer.overlay_options = options
            renderer.pixels(float(times[0]))          # first use: renderers, floors, timers
            wall, cpu = [], []
            for t in times:
                w0, c0 = time.perf_counter(), time.thread_time()
                renderer.pixels(float(t))
                wall.append(time.perf_counter() - w0)
                cpu.append(time.thread_time() - c0)
            print(f"{name:>8}: p50 {np.median(wall) * 1e3:7.2f} ms wall   {np.median(cpu) * 1e3:7.2f} ms CPU "
                  f"({size[0]}x{size[1]}, {len(times)} frames)")
    finally:
        renderer.release()


if __name__ == "__main__":
    main()
