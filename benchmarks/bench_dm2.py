"""Decode speed of the Quake II .dm2 decoder and the cost of sample().

Run: ``python benchmarks/bench_dm2.py [DEMO ...]`` (defaults to the corpus in ../shared/data/quake2/demos).
Prints per demo: best-of-N decode time, × real time (demo duration / decode time; target ≥ 300), MB/s and
``sample(t)`` p50/p99 over 5000 random t (target p99 ≤ 1 ms), as wall-clock time and as this thread's CPU time (on a
loaded shared machine the wall-clock p99 counts the time slices other processes took).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from assets_loader.demos import load_demo, sample
from timing import best_of  # benchmarks/timing.py, beside this script

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "quake2" / "demos"


def main(argv: list[str]) -> None:
    paths = [Path(a) for a in argv] or sorted(CORPUS.glob("*.dm2"))
    rng = np.random.default_rng(0)
    print(f"{'demo':<32}{'KB':>6}{'frames':>8}{'decode s':>10}{'x real':>8}{'MB/s':>7}{'smp p50':>9}{'smp p99':>9}"
          f"{'cpu p50':>9}{'cpu p99':>9}   (ms)")
    for path in paths:
        data = path.read_bytes()
        tl = load_demo(data, path.name)
        dec = best_of(lambda data=data, path=path: load_demo(data, path.name), 7)
        lat = np.empty(5000)
        cpu = np.empty(5000)
        for i, t in enumerate(rng.uniform(tl.start_time - 0.5, tl.end_time + 0.5, len(lat))):
            t0, c0 = time.perf_counter(), time.thread_time()
            sample(tl, t)
            lat[i], cpu[i] = time.perf_counter() - t0, time.thread_time() - c0
        p50, p99 = np.percentile(lat, [50, 99]) * 1e3
        c50, c99 = np.percentile(cpu, [50, 99]) * 1e3
        print(f"{path.name[:31]:<32}{len(data) / 1e3:6.0f}{tl.num_frames:8d}{dec:10.3f}{tl.duration / dec:8.0f}"
              f"{len(data) / 1e6 / dec:7.2f}{p50:9.3f}{p99:9.3f}{c50:9.3f}{c99:9.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
