"""``qdv timedemo`` on the AQtion Quake II demos beside a Quake demo, offscreen at 1280x720 in one run.

Run: ``PYTHONPATH=. python benchmarks/bench_timedemo_q2.py [--size WxH]``. For each demo the renderer loads its map
and models (untimed), then renders every demo frame at its own time as fast as it can (``viewer.headless.timedemo``:
the scene with entities, particles, lights, explosion models and the view weapon, ``ctx.finish`` at the end) and
prints ``frames seconds fps`` like the engines, then the CPU time a frame of all the process's threads (llvmpipe's
included: on a shared machine the steadier figure) and of the main thread alone (Python and the GL calls; issue 38's
≥ 600 fps at 320×180 needs both well under 3.3 ms). The Quake demo runs in the same process so the figures compare
on the same (shared, loaded) machine; ``--only TEXT`` runs the demos whose label holds it.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

from assets_loader.demos import load_demo
from viewer.headless import DemoRenderer, timedemo
from viewer.session import game_filesystem

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
#: (label, demo, basedir, game dir)
DEMOS = (("quake2 AQtion-demo-guide", DATA / "quake2" / "demos" / "AQtion-demo-guide.dm2", DATA / "quake2", None),
         ("quake2 AQtion-bandaging-guide", DATA / "quake2" / "demos" / "AQtion-bandaging-guide.dm2", DATA / "quake2",
          None),
         ("quake lq1 demo1", DATA / "quake1" / "lq1" / "demo1.dem", DATA / "quake1", "lq1"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1280x720", help="WxH (default 1280x720)")
    parser.add_argument("--only", default="", help="run the demos whose label holds this text")
    args = parser.parse_args()
    w, h = (int(v) for v in args.size.lower().split("x"))
    for label, demo, basedir, game in DEMOS:
        if args.only not in label:
            continue
        timeline = load_demo(str(demo))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")            # the free paks lack some models: placeholders
            renderer = DemoRenderer(timeline, game_filesystem(str(demo), str(basedir), game), (w, h))
            try:
                renderer.render(renderer.scene(float(timeline.times[0])))   # loading, outside the CPU figures
                renderer.ctx.finish()
                cpu, main_cpu = time.process_time(), time.thread_time()
                result = timedemo(renderer)
                cpu, main_cpu = time.process_time() - cpu, time.thread_time() - main_cpu
            finally:
                renderer.release()
        print(f"{label:32s} {w}x{h}: {result}; CPU {1000 * cpu / result.frames:.2f} ms/frame, main thread "
              f"{1000 * main_cpu / result.frames:.2f}")


if __name__ == "__main__":
    main()
