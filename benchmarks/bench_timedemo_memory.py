"""Peak resident memory and CPU a frame of ``qdv timedemo`` on a Quake II, a Quake and a QuakeWorld demo.

Run: ``python benchmarks/bench_timedemo_memory.py [--repo DIR] [--size WxH] [--only TEXT]`` from the repository
root; ``--repo`` measures another checkout (before/after figures) with this script. Each demo plays in its own
child process (cwd = the measured checkout) as ``qdv timedemo`` plays it: the demo loaded, the renderer made, every
frame drawn offscreen at its own time (``viewer.headless.timedemo``). The child prints:

* ``peak``: its peak resident memory (``VmHWM``, what ``/usr/bin/time -f %M`` reports; ``ru_maxrss`` may carry the
  parent's size across the fork and exec), the figure compared with the engines' (issue 38: within 1.5× of
  Q2PRO's);
* ``main``: the main thread's CPU a frame over the timed loop (Python and the GL driver's share of the drawing),
  ``process``: all threads' (llvmpipe's rasterizer threads included), and the timedemo's fps (wall time: on a
  shared machine it follows the load).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
#: (label, demo, base directory, game directory)
DEMOS = (("quake2 AQtion-bandaging-guide", DATA / "quake2" / "demos" / "AQtion-bandaging-guide.dm2", DATA / "quake2",
          "action"),
         ("quake lq1 demo3", DATA / "quake1" / "lq1" / "demo3.dem", DATA / "quake1", "lq1"),
         ("quakeworld lq_lqdm2_mvd", DATA / "quakeworld" / "lq_lqdm2_mvd.mvd", DATA / "quakeworld", None))

#: Runs in the child: play ``argv[1]`` (base dir ``argv[2]``, game ``argv[3]``, size ``argv[4]``), print JSON.
_CHILD = r"""
import json, sys, time, warnings
from assets_loader.demos import load_demo
from viewer.headless import DemoRenderer
from viewer.session import game_filesystem

demo, basedir, game, size = sys.argv[1], sys.argv[2], sys.argv[3] or None, sys.argv[4]
w, h = (int(v) for v in size.split("x"))
timeline = load_demo(demo)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")      # the free paks lack some models: placeholders
    renderer = DemoRenderer(timeline, game_filesystem(demo, basedir, game), (w, h))
    renderer.render(renderer.scene(float(timeline.times[0])))   # assets loaded outside the timed loop
    renderer.ctx.finish()
    main, process, wall = time.thread_time(), time.process_time(), time.perf_counter()
    for t in timeline.times:
        renderer.render(renderer.scene(float(t)))
    renderer.ctx.finish()
    main, process, wall = time.thread_time() - main, time.process_time() - process, time.perf_counter() - wall
n = len(timeline.times)
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"frames": n, "peak_mb": peak / 1024, "main_ms": 1000 * main / n, "process_ms": 1000 * process / n,
                  "fps": n / wall}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", default=str(REPO), help="the checkout to measure (default: this one)")
    parser.add_argument("--size", default="320x180", help="WxH (default 320x180)")
    parser.add_argument("--only", default="", help="only the demos whose label holds this text")
    args = parser.parse_args()
    for label, demo, basedir, game in DEMOS:
        if args.only not in label:
            continue
        done = subprocess.run([sys.executable, "-c", _CHILD, str(demo), str(basedir), game or "", args.size],
                              cwd=args.repo, capture_output=True, text=True, check=True)
        r = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"{label:30s} {args.size}: peak {r['peak_mb']:6.1f} MB  main {r['main_ms']:.2f} ms  "
              f"process {r['process_ms']:.2f} ms a frame  {r['fps']:.1f} fps ({r['frames']} frames)")


if __name__ == "__main__":
    main()
