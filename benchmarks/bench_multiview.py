"""Time a 4-pane multiview against a single view: the QuakeWorld sample (``lq_lqdm2_mvd.mvd``, both players'
eyes and their chase cameras) drawn headless at 1280×720 with the HUD over a stretch of the demo, as ``qdv render
--multiview 4`` draws it, against each pane's camera alone over the whole frame (the single view is their mean:
the panes look at different parts of the map, which cost differently).

Run: ``/work/venv/bin/python benchmarks/bench_multiview.py [--demo FILE] [--frames N] [--size WxH] [--layout
split|inset]``. Prints wall and CPU milliseconds per frame (the process's CPU time, llvmpipe's threads included:
on a shared machine it measures the work where the wall time also measures the other jobs) for one view and for
the panes, and their ratio. Target (issue #33): the 4 panes cost at most 2.5× the single view (the world's share
dominates).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assets_loader.demos import load_demo  # noqa: E402
from viewer.cli import sample_demo  # noqa: E402
from viewer.headless import DemoRenderer  # noqa: E402
from viewer.multiview.panes import MultiShot, default_shots  # noqa: E402
from viewer.session import game_filesystem  # noqa: E402
from viewer.video.shot import MultiShotView, ShotView, shot_view  # noqa: E402


def timed(view: ShotView | MultiShotView, times: list[float]) -> tuple[float, float]:
    """Wall and CPU milliseconds per picture of ``view`` at ``times`` (each read back, as an export does)."""
    view.pixels(times[0])   # loads the map and makes the targets outside the timing
    t0, c0 = time.perf_counter(), time.process_time()
    for t in times:
        view.pixels(t)
    n = len(times)
    return (time.perf_counter() - t0) * 1000 / n, (time.process_time() - c0) * 1000 / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--demo", default=sample_demo("lqdm2"))
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--layout", default="split", choices=("split", "inset"))
    parser.add_argument("--panes", type=int, default=4)
    args = parser.parse_args()
    size = (int(args.size.split("x")[0]), int(args.size.split("x")[1]))
    warnings.simplefilter("ignore")
    timeline = load_demo(args.demo)
    start = timeline.start_time + min(20.0, timeline.duration / 4)
    times = [start + i / 30.0 for i in range(args.frames)]
    renderer = DemoRenderer(timeline, game_filesystem(args.demo, None, None), size, hud=True)
    try:
        shots = default_shots(timeline, args.panes)
        alone = [timed(shot_view(renderer, shot, times[0]), times) for shot in shots]   # each pane's camera alone
        one_wall, one_cpu = (sum(column) / len(alone) for column in zip(*alone))
        multi = shot_view(renderer, MultiShot(shots, args.layout), times[0])
        assert isinstance(multi, MultiShotView)
        many_wall, many_cpu = timed(multi, times)
    finally:
        renderer.release()
    print(f"{Path(args.demo).name} at {size[0]}x{size[1]} with the HUD, {args.frames} frames from "
          f"{start - timeline.start_time:.1f} s")
    for shot, (wall, cpu) in zip(shots, alone):
        print(f"  {shot.mode:>5} {str(shot.pov):>4} alone      {wall:7.1f} ms/frame wall  {cpu:7.1f} ms/frame CPU")
    print(f"  single view (mean)    {one_wall:7.1f} ms/frame wall  {one_cpu:7.1f} ms/frame CPU")
    print(f"  {args.panes} panes ({args.layout:5})     {many_wall:7.1f} ms/frame wall  {many_cpu:7.1f} ms/frame CPU")
    print(f"  ratio                 {many_wall / one_wall:7.2f}x wall           {many_cpu / one_cpu:7.2f}x CPU "
          "(target: at most 2.5x)")


if __name__ == "__main__":
    main()
