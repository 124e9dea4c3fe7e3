"""Frame time of the offscreen renderer on real demos (what ``qdv timedemo`` measures), with a breakdown.

Run: ``.venv/bin/python benchmarks/bench_render.py [DEMO ...] [--size WxH] [--stride N] [--repeat R]``
(default: ``demo3.dem`` and ``demo1_lite.dem`` of the shared lq1 data, 1280x720, every 2nd demo frame).

Per demo, after loading the map once (untimed), for the same list of demo frames:

- ``scene``: building the :class:`SceneFrame`\\ s (Python: entities, particles, lights) — done once, up front;
- ``frame``: ``FrameRenderer.draw`` of every prepared scene (world, brush entities, models, sprites), then one
  ``ctx.finish()`` — the GPU (llvmpipe) work of one frame overlaps the Python work of the next, as in timedemo;
- ``world``: clear + ``WorldRenderer.draw_world`` only (with the frame's dynamic lights), same pipelining;
- ``world 320x180``: the same at a sixteenth of the pixels (≈ the per-frame fixed cost: Python + vertices);
- ``visibility``: ``WorldRenderer._update_visibility`` alone (Python/numpy, no drawing);
- ``timedemo``: scene + frame, the figure ``qdv timedemo`` prints (ms/frame and fps).

Each timed loop runs ``--repeat`` times and the best run is reported (machines are noisy: check ``uptime`` first).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from assets_loader.demos import load_demo
from viewer.render.view_math import view_projection
from viewer.headless import DemoRenderer
from viewer.render.context import OffscreenTarget
from viewer.render.bsp.world import WorldView
from viewer.session import game_filesystem
from timing import best_of  # benchmarks/timing.py, beside this script

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "quake1" / "lq1"


def bench_demo(path: Path, size: tuple[int, int], stride: int, repeat: int, world_only: bool = False) -> None:
    timeline = load_demo(str(path))
    renderer = DemoRenderer(timeline, game_filesystem(str(path), None, None), size)
    ctx = renderer.ctx
    times = [float(t) for t in timeline.times[::stride]]
    renderer.render(renderer.scene(times[0]))  # load the map outside the timed loops
    ctx.finish()
    t0 = time.perf_counter()
    scenes = [renderer.scene(t) for t in times]
    scene_s = time.perf_counter() - t0
    n = len(scenes)

    def frames() -> None:
        for s in scenes:
            renderer.render(s)
        ctx.finish()

    def worlds(target: OffscreenTarget) -> None:
        w, h = target.size
        for s in scenes:
            fr = renderer.session.use_segment(max(s.segment, 0))
            target.use()
            ctx.clear(0.0, 0.0, 0.0, depth=1.0)
            fr.world.draw_world(WorldView(view_projection(s.camera, w / h), s.camera.origin, s.time, s.styles,
                                          s.fog or (0.0, 0.0, 0.0, 0.0), lights=s.lights))
        ctx.finish()

    def visibility() -> None:
        w, h = size
        for s in scenes:
            world = renderer.session.use_segment(max(s.segment, 0)).world
            world._update_visibility(s.camera.origin, view_projection(s.camera, w / h))

    if world_only:
        world_s = best_of(lambda: worlds(renderer.target), repeat)
        renderer.release()
        print(f"{path.name} ({n} frames) world {1000 * world_s / n:6.2f} ms")
        return
    small = OffscreenTarget(ctx, (320, 180))
    frame_s = best_of(frames, repeat)
    world_s = best_of(lambda: worlds(renderer.target), repeat)
    world_small_s = best_of(lambda: worlds(small), repeat)
    vis_s = best_of(visibility, repeat)
    small.release()
    renderer.release()

    def ms(seconds: float) -> str:
        return f"{1000 * seconds / n:6.2f} ms"

    total = scene_s + frame_s
    print(f"{path.name} ({n} frames of {len(timeline.times)}, {size[0]}x{size[1]})")
    print(f"  timedemo        {ms(total)}  {n / total:5.1f} fps")
    print(f"  scene (Python)  {ms(scene_s)}")
    print(f"  frame (draw)    {ms(frame_s)}  {n / frame_s:5.1f} fps")
    print(f"  world           {ms(world_s)}")
    print(f"  world 320x180   {ms(world_small_s)}")
    print(f"  visibility      {ms(vis_s)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("demos", nargs="*", type=Path, default=[DATA / "demo3.dem", DATA / "demo1_lite.dem"])
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--stride", type=int, default=2, help="use every Nth demo frame")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each timed loop (best is kept)")
    parser.add_argument("--world-only", action="store_true", help="time only the world at full size")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.lower().split("x"))
    np.seterr(all="ignore")
    for demo in args.demos:
        bench_demo(demo, size, max(args.stride, 1), max(args.repeat, 1), args.world_only)


if __name__ == "__main__":
    main()
