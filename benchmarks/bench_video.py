"""Export throughput of ``qdv render`` beside ``qdv timedemo`` at the same size, with where the time goes.

Run: ``/work/venv/bin/python benchmarks/bench_video.py [DEMO] [--basedir DIR] [--size WxH] [--fps N] [--seconds S]
[--codec C] [--preset P] [--chunk S]`` (default: ``demo3.dem`` of the shared lq1 data, 1280x720, 60 fps, h264 with
its default preset, the whole demo; ``--preset`` tries another x264 preset and prints the bytes per frame).

The machine is shared and its load swings within minutes, so the two figures are measured interleaved: the range is
cut into ``--chunk``-second pieces and each piece is run both ways, alternating which goes first:

- ``timedemo``: the demo's own frames in the piece rendered offscreen as fast as possible, no read-back (what
  ``qdv timedemo`` does);
- ``export``: :func:`viewer.video.recorder.record` of the piece at ``--fps`` (render, read back, encode on the
  background thread) into a file; output frames per second and the ratio to timedemo's (target ≥ 0.8).

The process CPU time per frame (all threads: llvmpipe's, the encoder's) is printed beside each wall figure. Then
the breakdown, one stage at a time on every 4th output frame: ``render`` (scene + draw + ``ctx.finish()``), ``read
back`` (``OffscreenTarget.read_rgba``, what the export reads), and ``encode`` (the encoder thread's busy time during
the exports: the copy into the frame, rgba→yuv conversion, encoding, muxing), in ms per frame and as shares of
their sum — once in wall time, once in CPU time (all threads; encode: the export's CPU per frame less render and
read back), which stays meaningful while other processes load the machine. With encoding overlapped the export's ms
per frame approaches render + read back rather than the sum of all three.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from assets_loader.demos import load_demo
from viewer.headless import DemoRenderer
from viewer.session import game_filesystem
from viewer.video.output import plan_output
from viewer.video.recorder import ShotCamera, record
from viewer.video.timing import FrameTimes

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "quake1" / "lq1"
SUFFIX = {"vp9": ".webm", "ffv1": ".mkv", "png": ".mov"}


class Totals:
    """Frames, wall seconds and CPU seconds added up over the pieces."""

    def __init__(self) -> None:
        self.frames = 0
        self.wall = 0.0
        self.cpu = 0.0

    def fps(self) -> float:
        return self.frames / self.wall if self.wall > 0 else 0.0

    def line(self) -> str:
        return (f"{self.frames} frames in {self.wall:.1f} s = {self.fps():.1f} frames/s, "
                f"cpu {self.cpu / max(self.frames, 1) * 1000:.1f} ms/frame")


def run_timedemo(renderer: DemoRenderer, times: np.ndarray, totals: Totals) -> None:
    renderer.ctx.finish()
    wall, cpu = time.perf_counter(), time.process_time()
    for t in times:
        renderer.render(renderer.scene(float(t)))
    renderer.ctx.finish()
    totals.frames += len(times)
    totals.wall += time.perf_counter() - wall
    totals.cpu += time.process_time() - cpu


def run_export(renderer: DemoRenderer, times: FrameTimes, codec: str, preset: str | None, folder: str,
               totals: Totals) -> tuple[float, int]:
    """Export one piece; returns the encoder thread's busy seconds and the file's size in bytes."""
    size = renderer.target.size
    output = plan_output(str(Path(folder) / f"piece{times.first:.3f}{SUFFIX.get(codec, '.mp4')}"), size, codec)
    if preset is not None:
        options = tuple((k, preset if k == "preset" else v) for k, v in output.codec.options)
        output = replace(output, codec=replace(output.codec, options=options))
    cpu = time.process_time()
    result = record(renderer, ShotCamera(), times, output)
    totals.frames += result.frames
    totals.wall += result.seconds
    totals.cpu += time.process_time() - cpu
    size_bytes = output.path.stat().st_size
    output.path.unlink()
    return result.encode_seconds, size_bytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("demo", nargs="?", default=str(DATA / "demo3.dem"))
    parser.add_argument("--basedir", help="game base directory when the demo is not inside a game dir")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--fps", type=float, default=60.0)
    parser.add_argument("--seconds", type=float, default=None, help="demo seconds to export (default: all)")
    parser.add_argument("--codec", default="h264")
    parser.add_argument("--preset", help="the encoder preset instead of the codec's default (h264, av1)")
    parser.add_argument("--chunk", type=float, default=3.0, help="seconds per interleaved piece")
    args = parser.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    timeline = load_demo(args.demo)
    renderer = DemoRenderer(timeline, game_filesystem(args.demo, args.basedir, None), (w, h))
    length = min(args.seconds or timeline.duration, timeline.duration)
    demo_times = timeline.times - timeline.start_time
    demo, export = Totals(), Totals()
    encode_s = 0.0
    size_bytes = 0
    try:
        renderer.render(renderer.scene(timeline.start_time))  # load the map outside the timed loops
        with tempfile.TemporaryDirectory() as folder:
            for i, first in enumerate(np.arange(0.0, length, args.chunk)):
                last = min(first + args.chunk, length)
                # the demo's last frame belongs to the piece ending the demo
                in_piece = (demo_times >= first) & ((demo_times < last) | (last >= timeline.duration))
                own = timeline.times[in_piece]
                piece = FrameTimes.for_range(timeline.start_time, timeline.duration, float(first), float(last),
                                             1.0, args.fps)
                if i % 2:
                    busy, written = run_export(renderer, piece, args.codec, args.preset, folder, export)
                    run_timedemo(renderer, own, demo)
                else:
                    run_timedemo(renderer, own, demo)
                    busy, written = run_export(renderer, piece, args.codec, args.preset, folder, export)
                encode_s += busy
                size_bytes += written
        print(f"timedemo {w}x{h}: {demo.line()}")
        cpu_ratio = (demo.cpu / demo.frames) / (export.cpu / export.frames)
        print(f"export {w}x{h} {args.fps:g} fps {args.codec} {args.preset or 'default preset'}: {export.line()}, "
              f"{size_bytes / export.frames / 1000:.1f} kB/frame; {export.fps() / demo.fps():.2f}x timedemo "
              f"(cpu per frame {cpu_ratio:.2f}x)")
        all_times = FrameTimes.for_range(timeline.start_time, timeline.duration, 0.0, length, 1.0, args.fps)
        wall = {"render": 0.0, "read back": 0.0}
        cpu = {"render": 0.0, "read back": 0.0}
        sampled = range(0, all_times.count, 4)
        for k in sampled:
            start, start_cpu = time.perf_counter(), time.process_time()
            renderer.render(renderer.scene(all_times.time(k)))
            renderer.ctx.finish()
            middle, middle_cpu = time.perf_counter(), time.process_time()
            renderer.target.read_rgba()
            wall["render"] += middle - start
            cpu["render"] += middle_cpu - start_cpu
            wall["read back"] += time.perf_counter() - middle
            cpu["read back"] += time.process_time() - middle_cpu
        wall = {name: s / len(sampled) for name, s in wall.items()} | {"encode": encode_s / export.frames}
        cpu = {name: s / len(sampled) for name, s in cpu.items()}
        cpu["encode"] = max(export.cpu / export.frames - cpu["render"] - cpu["read back"], 0.0)
        for kind, stages in (("wall", wall), ("cpu", cpu)):
            total = sum(stages.values())
            print(f"breakdown ({kind}): " + ", ".join(f"{name} {s * 1000:.1f} ms ({s / total:.0%})"
                                                      for name, s in stages.items())
                  + f"; sum {total * 1000:.1f} ms/frame")
        print(f"export {export.wall / export.frames * 1000:.1f} ms/frame of wall clock")
    finally:
        renderer.release()


if __name__ == "__main__":
    main()
