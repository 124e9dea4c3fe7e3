"""Issue 20's performance table in one command: each figure measured in this run, beside its anchor where one exists.

Run: ``python benchmarks/bench_performance.py [--quick]`` from the repository root (about 25 minutes on a quiet
2-core machine; ``--quick`` leaves out the whole-picture parity rows and the 1M-block file, about 10 minutes).
It runs, one after the other and with their own printouts:

1. ``bench_parity.py``: ``qdv timedemo`` beside QuakeSpasm / ezQuake / Q2PRO / ioquake3 ``timedemo`` (fps, peak
   RSS, CPU per frame), interleaved, at 1280×720 and 320×180 (the engines are optional: ``apt-get install quakespasm
   ezquake ioquake3 openarena xvfb``, Q2PRO built as ``bench_parity.py`` says);
2. ``bench_parity.py --world-only``: the same with nothing but the map drawn on both sides, the floor of the
   picture's own cost;
3. ``bench_dem.py`` on ``demo1.dem`` and ``bench_qw.py`` on the QuakeWorld corpus: decode × real time (wall and
   CPU), ``sample()`` latency;
4. ``bench_scene.py``: ``build_scene`` at random times of ``demo1_lite.dem`` (p50 / p99 / max, wall and CPU);
5. ``bench_timeline_memory.py``: timeline memory per demo-minute of every corpus demo and bytes per frame of the
   ``mvd_frames`` bad input.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEMO1 = ROOT.parent / "shared" / "data" / "quake1" / "lq1" / "demo1.dem"


def sections(quick: bool) -> list[tuple[str, list[str]]]:
    """(title, arguments of ``benchmarks/<script>``) of each part of the table."""
    return [
        *([] if quick else [("timedemo fps, peak RSS and CPU beside the engines", ["bench_parity.py"])]),
        ("the same, world only (the fill floor)", ["bench_parity.py", "--world-only"]),
        ("decode × real time: the densest NetQuake demo", ["bench_dem.py", str(DEMO1)]),
        ("decode × real time: QuakeWorld", ["bench_qw.py"]),
        ("build_scene at random times", ["bench_scene.py"]),
        ("timeline memory per demo-minute", ["bench_timeline_memory.py", *(["--no-million"] if quick else [])]),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="leave out the whole-picture parity and the 1M-block file")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for title, command in sections(args.quick):
        print(f"\n== {title} ({' '.join(command)})", flush=True)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / command[0]), *command[1:]], cwd=ROOT, env=env)
        print(f"-- {time.perf_counter() - start:.0f} s{'' if done.returncode == 0 else f', exit {done.returncode}'}",
              flush=True)


if __name__ == "__main__":
    main()
