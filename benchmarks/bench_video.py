"""Export throughput of ``qdv render`` beside ``qdv timedemo`` at the same size, with where the time goes.

Run: ``/work/venv/bin/python benchmarks/bench_video.py [DEMO] [--basedir DIR] [--size WxH] [--fps N] [--seconds S]
[--codec C]``
(default: ``demo3.dem`` of the shared lq1 data, 1280x720, 60 fps, h264, the whole demo: the frames timedemo draws).

Printed figures:

- ``timedemo``: every demo frame rendered offscreen as fast as possible (no read-back), what ``qdv timedemo``
  prints;
- ``export``: :func:`viewer.video.recorder.record` on the range (render, read back, encode on the background
  thread), output frames per second and its ratio to the timedemo figure (target ≥ 0.8);
- the breakdown, measured one stage at a time on the same frames: ``render`` (scene + draw + ``ctx.finish()``),
  ``read back`` (``OffscreenTarget.read_rgb``), ``encode`` (the encoder thread's busy time during the export:
  rgb→yuv conversion, encoding, muxing), each in ms per frame and as a share of their sum. With encoding
  overlapped, the export's ms per frame approaches render + read back, not the sum of all three.

The machine is shared, so wall-clock figures move with its load: the export runs ``--repeat`` times (best kept) and
the process CPU time per frame (all threads: llvmpipe's, the encoder's) is printed beside each wall figure.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from assets_loader.demos import load_demo
from viewer.offscreen import DemoRenderer, game_filesystem, timedemo
from viewer.video.output import plan_output
from viewer.video.recorder import ShotCamera, record
from viewer.video.timing import FrameTimes

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "quake1" / "lq1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("demo", nargs="?", default=str(DATA / "demo3.dem"))
    parser.add_argument("--basedir", help="game base directory when the demo is not inside a game dir")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--fps", type=float, default=60.0)
    parser.add_argument("--seconds", type=float, default=None, help="demo seconds to export (default: all)")
    parser.add_argument("--codec", default="h264")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    assert len(size) == 2
    w, h = size
    timeline = load_demo(args.demo)
    renderer = DemoRenderer(timeline, game_filesystem(args.demo, args.basedir, None), (w, h))
    try:
        cpu = time.process_time()
        demo = timedemo(renderer)
        cpu = time.process_time() - cpu
        demo_cpu = cpu / demo.frames
        print(f"timedemo {w}x{h}: {demo} (cpu {demo_cpu * 1000:.1f} ms/frame)")
        times = FrameTimes.for_range(timeline.start_time, timeline.duration, 0.0,
                                     min(args.seconds or timeline.duration, timeline.duration), 1.0, args.fps)
        suffix = ".webm" if args.codec == "vp9" else ".mkv" if args.codec == "ffv1" else ".mp4"
        runs = []
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory() as tmp:
                output = plan_output(str(Path(tmp) / f"bench{suffix}"), (w, h), args.codec)
                cpu = time.process_time()
                result = record(renderer, ShotCamera(), times, output)
                runs.append((result, time.process_time() - cpu, output.path.stat().st_size / 1e6))
        result, cpu, size_mb = min(runs, key=lambda run: run[0].seconds)
        print(f"export {w}x{h} {args.fps:g} fps {args.codec}: {result.frames} frames in {result.seconds:.1f} s = "
              f"{result.fps:.1f} frames/s ({result.fps / demo.fps:.2f}x timedemo), {size_mb:.1f} MB, "
              f"cpu {cpu / result.frames * 1000:.1f} ms/frame "
              f"(timedemo/export cpu {demo_cpu * result.frames / cpu:.2f}); "
              "runs: "
              + ", ".join(f"{run.fps:.1f}" for run, _, _ in runs) + " frames/s")
        ctx = renderer.ctx
        render_s = read_s = 0.0
        for k in range(times.count):
            t = times.time(k)
            start = time.perf_counter()
            renderer.render(renderer.scene(t))
            ctx.finish()
            middle = time.perf_counter()
            renderer.target.read_rgb()
            render_s += middle - start
            read_s += time.perf_counter() - middle
        stages = {"render": render_s, "read back": read_s, "encode": result.encode_seconds}
        total = sum(stages.values())
        n = times.count
        print("breakdown: " + ", ".join(f"{name} {s / n * 1000:.1f} ms ({s / total:.0%})" for name, s in stages.items())
              + f"; export {result.seconds / n * 1000:.1f} ms/frame vs sum {total / n * 1000:.1f} ms")
    finally:
        renderer.release()


if __name__ == "__main__":
    main()
