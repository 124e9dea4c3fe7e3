"""Time ``qdv timedemo`` on a Quake III corpus demo: every frame (or ``--frames N`` of them from ``--start``) built
(``DemoSession.scene``: sampling, entities, effects) and drawn at 1280×720, without the HUD as the command does;
``--hud`` also draws the HUD (its 2D pictures, 3D icons and lagometer) over each frame and times it apart.

Run: ``/work/venv/bin/python benchmarks/bench_q3_timedemo.py [--demo PATH] [--frames N] [--start F] [--size WxH]
[--hud]``.
Prints the scene-building and drawing time per frame, the fps, and the CPU time per frame of all the process's
threads (Mesa llvmpipe rasterizes in them: on a shared, loaded machine this is the steadier figure) and of the
main thread alone (Python and the GL calls), and the process's peak resident memory (loading included).
Targets (issue 38): 1.5× ioquake3's timedemo fps at 1280×720 (``bench_parity.py`` runs both, interleaved), at least
300 fps (3.3 ms of main-thread work a frame) at 320×180, and a peak RSS of at most 275 MB (1.5× ioquake3's 184).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assets_loader.demos import load_demo  # noqa: E402
from viewer.headless import DemoRenderer  # noqa: E402
from viewer.picture import draw_hud  # noqa: E402
from viewer.session import game_filesystem  # noqa: E402

QUAKE3 = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "quake3"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--demo", default=str(QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"))
    parser.add_argument("--frames", type=int, default=0, help="0: every frame")
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--hud", action="store_true", help="also draw the HUD over every frame (timed apart)")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    warnings.simplefilter("ignore")
    timeline = load_demo(args.demo)
    renderer = DemoRenderer(timeline, game_filesystem(None, str(QUAKE3), "baseoa"), size, hud=args.hud)
    times = timeline.times[args.start:args.start + args.frames if args.frames else None]
    renderer.render(renderer.scene(float(times[0])))
    renderer.ctx.finish()
    building = drawing = hud = 0.0
    cpu, main_cpu = time.process_time(), time.thread_time()
    for t in times:
        t0 = time.perf_counter()
        frame = renderer.scene(float(t))
        t1 = time.perf_counter()
        renderer.render(frame)
        t2 = time.perf_counter()
        drawing += t2 - t1
        building += t1 - t0
        if args.hud:
            draw_hud(renderer.session, renderer.target, timeline.sample(float(t)), renderer.hud)
            hud += time.perf_counter() - t2
    t0 = time.perf_counter()
    renderer.ctx.finish()
    drawing += time.perf_counter() - t0
    cpu, main_cpu = time.process_time() - cpu, time.thread_time() - main_cpu
    n = len(times)
    print(f"{Path(args.demo).name}: {n} frames at {size[0]}x{size[1]}: scene {1000 * building / n:.1f} ms/frame, "
          f"draw {1000 * drawing / n:.1f} ms/frame, " + (f"HUD {1000 * hud / n:.2f} ms/frame, " if args.hud else "")
          + f"{n / (building + drawing + hud):.1f} fps; "
          f"CPU {1000 * cpu / n:.1f} ms/frame (all threads, llvmpipe's included), "
          f"{1000 * main_cpu / n:.1f} ms/frame in the main thread; "
          f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    renderer.release()


if __name__ == "__main__":
    main()
