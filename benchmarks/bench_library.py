"""The demo library (issue 34): indexing throughput, database size, ``find`` latency.

Run: ``python benchmarks/bench_library.py [DIR ...]`` (default: the corpus and the public demos in ../shared/data).
Prints
- plain decode (``load_demo`` of every demo in turn) as × real time (demo seconds / wall seconds);
- ``index_folders`` into a fresh database with 1 worker (in this process) and 2 worker processes, × real time and
  the ratio to plain decode (targets: 1 worker ≥ 80 % of plain decode per worker, 2 workers ≥ 1.7×);
- the database size per demo-hour (target < 1 MB);
- ``find`` latency (median of 5) on a library of ≥ 100k indexed events, made by storing the decoded records again
  under other paths (target < 200 ms).
On a machine shared with other jobs the wall times carry their turns on the cores (compare runs, not single
figures); the CPU figures (this process and its reaped worker processes) are steadier.
"""

from __future__ import annotations

import dataclasses
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # this tree's code, not an installed copy's

from assets_loader.demos import load_demo  # noqa: E402
from assets_loader.errors import FormatError  # noqa: E402
from viewer.library.find import Query, find  # noqa: E402
from viewer.library.index import demo_paths, index_folders  # noqa: E402
from viewer.library.records import demo_record  # noqa: E402
from viewer.library.store import open_db, write_record  # noqa: E402

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
CORPUS = [DATA / "quake1", DATA / "quakeworld", DATA / "quake2", DATA / "quake3", DATA / "public"]
BIG_LIBRARY_EVENTS = 100_000


def _cpu() -> float:
    """CPU seconds of this process and its reaped children (the pool's workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def plain_decode(paths: list[str]) -> tuple[float, float, float]:
    """(demo seconds, wall seconds, CPU seconds) of ``load_demo`` over ``paths`` (files that do not decode count
    their time)."""
    demo, t0, c0 = 0.0, time.perf_counter(), _cpu()
    for p in paths:
        try:
            demo += load_demo(p).duration
        except FormatError:
            pass
    return demo, time.perf_counter() - t0, _cpu() - c0


def timed_index(folders: list[Path], db_file: Path, workers: int) -> tuple[float, float, float]:
    db = open_db(db_file)
    t0, c0 = time.perf_counter(), _cpu()
    result = index_folders(db, folders, workers=workers)
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    db.close()
    return result.demo_seconds, wall, cpu


def main(argv: list[str]) -> None:
    folders = [Path(a) for a in argv] or CORPUS
    paths = demo_paths(folders)
    print(f"{len(paths)} demo files under {', '.join(map(str, folders))}")
    demo, wall, cpu = plain_decode(paths)
    plain, plain_cpu = demo / wall, demo / cpu
    print(f"plain decode:      {demo / 60:7.1f} demo-min in {wall:6.1f} s wall = {plain:6.1f}× real time; "
          f"{cpu:6.1f} CPU-s = {plain_cpu:6.1f}× real time per CPU-second")
    with tempfile.TemporaryDirectory() as tmp:
        for workers in (1, 2):
            db_file = Path(tmp) / f"w{workers}.sqlite"
            demo, wall, cpu = timed_index(folders, db_file, workers)
            speed = demo / wall
            print(f"index, {workers} worker{'s' if workers > 1 else ' '}: {demo / 60:7.1f} demo-min in {wall:6.1f} s "
                  f"wall = {speed:6.1f}× real time ({speed / plain:.2f}× plain decode); {cpu:6.1f} CPU-s = "
                  f"{demo / cpu:6.1f}× real time per CPU-second ({demo / cpu / plain_cpu:.0%} of plain decode's)")
        size = os.path.getsize(db_file)
        print(f"database: {size / 1e6:.2f} MB for {demo / 3600:.2f} demo-hours = {size / 1e6 / (demo / 3600):.2f} "
              "MB per demo-hour")

        records = [r for r in map(demo_record, paths) if r.error is None]
        big = open_db(Path(tmp) / "big.sqlite")
        copies = 0
        while big.execute("SELECT COUNT(*) FROM events").fetchone()[0] < BIG_LIBRARY_EVENTS:
            copies += 1
            for r in records:
                write_record(big, dataclasses.replace(r, path=f"{r.path}.copy{copies}"))
            big.commit()
        demos, events = (big.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in ("demos", "events"))
        all_events = sum(len(r.events) for r in records) * copies
        print(f"find on {demos} demos, {events} indexed events ({all_events} in all):")
        queries = {
            "demos of a player": Query(player="claire"),
            "every obituary": Query(kind="obituary"),
            "frags by killer+weapon": Query(killer="claire", weapon="railgun"),
            "multi-kill 3 in 5 s": Query(multi_kill=3, within=5.0),
            "spree 5": Query(spree=5),
            "chat 'gg'": Query(text="gg"),
            "map + multi-kill 2": Query(map="cpm3a", multi_kill=2, within=5.0),
        }
        for name, q in queries.items():
            times = []
            for _ in range(5):
                t0 = time.perf_counter()
                hits = find(big, q)
                times.append(time.perf_counter() - t0)
            print(f"  {name:<24} {len(hits):6d} hits  median {statistics.median(times) * 1e3:7.1f} ms")
        big.close()


if __name__ == "__main__":
    main(sys.argv[1:])
