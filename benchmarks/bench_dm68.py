"""Decode speed of the Quake III demo parser (protocol layer: Huffman bit reader, deltas, snapshot ring).

Run: ``python benchmarks/bench_dm68.py [--decode-only] [DEMO ...]`` (defaults to the corpus in
../shared/data/quake3/demos and the public Quake Live demos in ../shared/data/public/quakelive, which take the same
path).  Prints the machine's load average first (the machine may be shared: repeat and take the best), then per
demo: best-of-N decode time (wall clock, and this process's CPU time, which other jobs on a shared machine disturb
less), × real time (serverTime span / wall decode time, and / CPU time), MB/s, and where the time goes (one cProfile
run: the three functions with the most own time).  Target: ≥ 500× real time for every protocol.
Unless ``--decode-only``, then the whole ``load_demo`` (parse + timeline + events) × real time (wall and process
CPU), and ``sample()`` at 5000 random times: median and p99 in µs, wall clock and this thread's CPU time (on a
shared machine the wall p99 shows the scheduler's time slices, the CPU p99 what sample() costs); target p99 ≤ 1 ms.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import sys
import time
import warnings
from pathlib import Path

from timing import best_of  # benchmarks/timing.py, beside this script

import numpy as np

from assets_loader.demos import load_demo
from assets_loader.demos.quake3 import parse_demo

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
CORPUS = (DATA / "quake3" / "demos", DATA / "public" / "quakelive")


def hot_spots(data: bytes, name: str, count: int = 3) -> str:
    profile = cProfile.Profile()
    profile.runcall(parse_demo, data, name)
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in stats.values())
    top = sorted(stats.items(), key=lambda kv: kv[1][2], reverse=True)[:count]
    return ", ".join(f"{func[2]} {100 * v[2] / total:.0f}%" for func, v in top)


def main(argv: list[str]) -> None:
    decode_only = "--decode-only" in argv
    paths = [Path(a) for a in argv if a != "--decode-only"] or [p for d in CORPUS for p in sorted(d.glob("*.dm_*"))]
    print("load average (1, 5, 15 min): " + ", ".join(f"{x:.2f}" for x in os.getloadavg())
          + f" on {os.cpu_count()} CPUs")
    print(f"{'demo':<28}{'MB':>6}{'snaps':>7}{'span s':>8}{'decode s':>10}{'cpu s':>7}{'x real':>8}{'x cpu':>7}"
          f"{'MB/s':>7}   hot spots")
    for path in paths:
        data = path.read_bytes()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the truncated demo warns on every decode
            demo = parse_demo(data, path.name)
            span = float(demo.snapshots.server_time[-1] - demo.snapshots.server_time[0]) / 1000
            dec = best_of(lambda data=data, name=path.name: parse_demo(data, name), 5)
            cpu = best_of(lambda data=data, name=path.name: parse_demo(data, name), 5, time.process_time)
            spots = hot_spots(data, path.name)
        mb = len(data) / 1e6
        print(f"{path.name[:27]:<28}{mb:6.2f}{len(demo.snapshots):7d}{span:8.1f}{dec:10.3f}{cpu:7.3f}{span / dec:8.0f}"
              f"{span / cpu:7.0f}{mb / dec:7.2f}   {spots}")
    if decode_only:
        return

    print(f"{'demo':<28}{'load s':>8}{'x real':>8}{'cpu s':>7}{'x real':>8}{'sample p50 us':>15}{'p99 us':>9}"
          f"{'cpu p50':>9}{'cpu p99':>9}")
    for path in paths:
        data = path.read_bytes()
        load = best_of(lambda data=data, name=path.name: load_demo(data, name), 3)
        load_cpu = best_of(lambda data=data, name=path.name: load_demo(data, name), 3, time.process_time)
        timeline = load_demo(data, path.name)
        rng = np.random.default_rng(1)
        wall, cpu = [], []
        for t in rng.uniform(timeline.start_time, timeline.end_time, 5000):
            t0, c0 = time.perf_counter(), time.thread_time()
            timeline.sample(float(t))
            cpu.append(time.thread_time() - c0)
            wall.append(time.perf_counter() - t0)
        p50, p99 = np.percentile(wall, [50, 99]) * 1e6
        c50, c99 = np.percentile(cpu, [50, 99]) * 1e6
        span = timeline.duration
        print(f"{path.name[:27]:<28}{load:8.3f}{span / load:8.0f}{load_cpu:7.3f}{span / load_cpu:8.0f}{p50:15.0f}"
              f"{p99:9.0f}{c50:9.0f}{c99:9.0f}")


if __name__ == "__main__":
    main(sys.argv[1:])
