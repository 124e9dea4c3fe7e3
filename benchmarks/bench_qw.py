"""Decode speed of the QuakeWorld .qwd/.mvd decoder and the cost of sample() and of POV switches.

Run: ``python benchmarks/bench_qw.py [DEMO ...]`` (defaults to the corpus in ../shared/data/quakeworld).
Prints per demo: best-of-N decode time, × real time (demo duration / decode time; wall, and CPU time of the decoding
thread, which other jobs on a loaded machine do not inflate), µs of CPU per frame, MB/s, ``sample(t)`` p50/p99
over 5000 random t, and ``sample(t, pov=slot)`` p50/p99 over 5000 random (t, slot) pairs — what a Tab press costs.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from assets_loader.demos import load_demo, sample
from timing import best_cpu_of, best_of  # benchmarks/timing.py, beside this script

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "quakeworld"


def latencies(fn, args) -> tuple[float, float]:
    lat = np.empty(len(args))
    for i, a in enumerate(args):
        t0 = time.perf_counter()
        fn(*a)
        lat[i] = time.perf_counter() - t0
    p50, p99 = np.percentile(lat, [50, 99]) * 1e3
    return float(p50), float(p99)


def main(argv: list[str]) -> None:
    paths = [Path(a) for a in argv] or sorted(list(CORPUS.glob("*.qwd")) + list(CORPUS.glob("*.mvd")))
    rng = np.random.default_rng(0)
    print(f"{'demo':<42}{'MB':>6}{'frames':>8}{'decode s':>10}{'x real':>8}{'x cpu':>7}{'us/fr':>7}{'MB/s':>7}"
          f"{'smp p50':>9}{'smp p99':>9}{'pov p50':>9}{'pov p99':>9}   (ms)")
    for path in paths:
        data = path.read_bytes()
        tl = load_demo(data, path.name)
        dec = best_of(lambda data=data, path=path: load_demo(data, path.name), 7)
        cpu = best_cpu_of(lambda data=data, path=path: load_demo(data, path.name), 7)
        ts = rng.uniform(tl.start_time - 0.5, tl.end_time + 0.5, 5000)
        s50, s99 = latencies(lambda t, tl=tl: sample(tl, t), [(t,) for t in ts])
        slots = tl.pov_slots or (None,)
        povs = [(t, slots[i % len(slots)]) for i, t in enumerate(rng.uniform(tl.start_time, tl.end_time, 5000))]
        p50, p99 = latencies(lambda t, s, tl=tl: sample(tl, t, s), povs)
        mb = len(data) / 1e6
        print(f"{path.name[:41]:<42}{mb:6.2f}{tl.num_frames:8d}{dec:10.3f}{tl.duration / dec:8.0f}"
              f"{tl.duration / cpu:7.0f}{cpu / tl.num_frames * 1e6:7.1f}{mb / dec:7.2f}"
              f"{s50:9.3f}{s99:9.3f}{p50:9.3f}{p99:9.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
