"""Decode speed of the NetQuake .dem decoder and seek cost of sample(), with vgio as a reference.

Run: ``python benchmarks/bench_dem.py [DEMO ...]`` (defaults to the corpus in ../shared/data/quake1/lq1).
Prints per demo: best-of-N decode time, × real time (wall, and CPU time of the decoding thread, which other jobs on
a loaded machine do not inflate), MB/s, sample() p50/p99 over 10000 random t, and the time
vgio (``vgio.quake.dem.Dem``, parse only, no timeline) takes on the same file with the ratio.
"""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

import numpy as np

from assets_loader.demos import load_demo, sample
from timing import best_cpu_of, best_of  # benchmarks/timing.py, beside this script

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "quake1" / "lq1"


def vgio_time(data: bytes, repeat: int) -> str | float:
    try:
        from vgio.quake.dem import Dem
    except ImportError:
        return "vgio not installed"

    def run() -> None:
        Dem.open(io.BufferedReader(io.BytesIO(data))).close()
    try:
        return best_of(run, repeat)
    except Exception as exc:  # noqa: BLE001 - report whatever vgio cannot parse
        return f"vgio failed: {type(exc).__name__}: {str(exc)[:60]}"


def main(argv: list[str]) -> None:
    paths = [Path(a) for a in argv] or sorted(CORPUS.glob("*.dem"))
    rng = np.random.default_rng(0)
    print(f"{'demo':<16}{'MB':>6}{'decode s':>10}{'x real':>9}{'x cpu':>8}{'MB/s':>7}{'p50 ms':>9}{'p99 ms':>9}"
          f"{'vgio s':>9}{'vgio/qdv':>9}")
    for path in paths:
        data = path.read_bytes()
        tl = load_demo(data, str(path))
        dec = best_of(lambda data=data, path=path: load_demo(data, str(path)), 7)
        cpu = best_cpu_of(lambda data=data, path=path: load_demo(data, str(path)), 7)
        ts = rng.uniform(tl.start_time - 0.5, tl.end_time + 0.5, 10000)
        lat = np.empty(len(ts))
        for i, t in enumerate(ts):
            t0 = time.perf_counter()
            sample(tl, t)
            lat[i] = time.perf_counter() - t0
        p50, p99 = np.percentile(lat, [50, 99]) * 1e3
        vg = vgio_time(data, 3)
        mb = len(data) / 1e6
        vg_cols = (f"{vg:9.3f}{vg / dec:9.1f}" if isinstance(vg, float) else f"  {vg}")
        print(f"{path.name:<16}{mb:6.2f}{dec:10.3f}{tl.duration / dec:9.0f}{tl.duration / cpu:8.0f}{mb / dec:7.1f}"
              f"{p50:9.3f}{p99:9.3f}"
              + vg_cols)


if __name__ == "__main__":
    main(sys.argv[1:])
