"""How long the automatic director takes to plan a demo (issue #33: "plans a 20-minute demo in < 1 s").

The corpus has no 20-minute demo: the longest are Quake III duels of 15.3-15.5 minutes. So this prints, for every
corpus demo, the planning time (the best of ``--runs``; decoding not included) against its length, then two honest
figures for 20 minutes: the longest demo's time scaled linearly to 20 minutes (the planner's work is per tick and per
frag: linear in the length), and all demos planned one after another (more than 20 minutes together), scaled to 20
minutes.

Run ``python -m benchmarks.bench_director [--runs N]`` from the repository root.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

from assets_loader.demos import DEMO_SUFFIXES, load_demo
from viewer.director import plan_director

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
TWENTY_MINUTES = 1200.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="plans per demo; the best counts (default 5)")
    args = parser.parse_args()
    paths = sorted(p for p in DATA.rglob("*") if p.suffix.lower() in DEMO_SUFFIXES and "bad-input" not in p.parts)
    rows = []
    for path in paths:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            timeline = load_demo(path)
        best = float("inf")
        for _ in range(args.runs):
            start = time.perf_counter()
            plan = plan_director(timeline)
            best = min(best, time.perf_counter() - start)
        rows.append((timeline.duration, best))
        print(f"{path.name[:48]:48s} {timeline.duration / 60:5.1f} min  {len(plan.shots):4d} shots  "
              f"{len(plan.frags):4d} frags  planned in {best * 1000:7.1f} ms", flush=True)
    longest, seconds = max(rows)
    total = sum(d for d, _ in rows)
    spent = sum(s for _, s in rows)
    print(f"longest demo {longest / 60:.1f} min in {seconds * 1000:.1f} ms: a 20-minute demo at that rate "
          f"{seconds * TWENTY_MINUTES / longest * 1000:.1f} ms")
    print(f"all {len(rows)} demos, {total / 60:.1f} min together, in {spent * 1000:.1f} ms: "
          f"{spent * TWENTY_MINUTES / total * 1000:.1f} ms per 20 minutes")


if __name__ == "__main__":
    main()
