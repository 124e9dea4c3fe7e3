"""``build_scene`` at random times of a real demo, as scrubbing calls it (effects and trails included).

Run: ``PYTHONPATH=. python benchmarks/bench_scene.py [DEMO] [--basedir DIR] [--samples N] [--seed S]`` from the
repository root (default ``../shared/data/quake1/lq1/demo1_lite.dem``). Prints the one-time preparation
(effects, the first call, which makes the trail tracks of its segment; Quake III marks are cut to the map
when first seen, so random times include that work) and then p50 / p99 / max of ``build_scene``
and, beside it, of ``timeline.sample`` alone at the same times; each as wall time and as this thread's CPU time
(``time.thread_time``), which other jobs on a loaded machine do not inflate.  Then where wall spikes come from:
how many builds took > 1 ms more wall than CPU time (the thread waited for a core: other jobs), the garbage
collections during the builds (count and longest pause per generation), and what one full collection of the loaded
heap costs, before and after ``gc.freeze()`` (what the window does once a demo is loaded: ``viewer.heap``).
"""

from __future__ import annotations

import argparse
import gc
import time
from pathlib import Path

import numpy as np

from assets_loader.demos import load_demo
from viewer.games.registry import game_view
from viewer.scene import build_scene
from viewer.session import game_filesystem

DEFAULT_DEMO = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "quake1" / "lq1" / "demo1_lite.dem"


def stats(seconds: list[float]) -> str:
    a = np.array(seconds) * 1e3
    return f"p50 {np.median(a):7.3f} ms   p99 {np.percentile(a, 99):7.3f} ms   max {a.max():7.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("demo", nargs="?", default=str(DEFAULT_DEMO))
    parser.add_argument("--basedir", default=None)
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    timeline = load_demo(args.demo)
    game = game_view(timeline.game)
    fs = game_filesystem(args.demo, args.basedir, None)
    assets = [game.load_segment_assets(fs, segment) for segment in timeline.segments]
    flags = [a.model_flags() for a in assets]
    t0 = time.perf_counter()
    effects = game.prepare_effects(timeline)
    prepared = time.perf_counter() - t0

    def scene(t: float):
        state = timeline.sample(t)
        return build_scene(timeline, t, effects=effects, model_flags=flags, state=state, game=game,
                           assets=assets[max(state.segment, 0)])

    t0 = time.perf_counter()
    scene(timeline.start_time)
    first = time.perf_counter() - t0
    times = timeline.start_time + np.random.default_rng(args.seed).uniform(0, timeline.duration, args.samples)
    pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
    started = [0.0]

    def on_gc(phase: str, info: dict) -> None:
        if phase == "start":
            started[0] = time.thread_time()
        else:
            pauses[info["generation"]].append(time.thread_time() - started[0])

    gc.callbacks.append(on_gc)
    built, sampled, built_cpu, sampled_cpu = [], [], [], []
    for t in times:
        t0, c0 = time.perf_counter(), time.thread_time()
        scene(float(t))
        built.append(time.perf_counter() - t0)
        built_cpu.append(time.thread_time() - c0)
        t0, c0 = time.perf_counter(), time.thread_time()
        timeline.sample(float(t))
        sampled.append(time.perf_counter() - t0)
        sampled_cpu.append(time.thread_time() - c0)
    gc.callbacks.remove(on_gc)
    print(f"{Path(args.demo).name}: {timeline.num_frames} frames, {timeline.duration:.1f} s, "
          f"{args.samples} random times")
    print(f"  prepare effects {prepared * 1e3:8.1f} ms   first build_scene {first * 1e3:8.1f} ms")
    print(f"  build_scene     wall {stats(built)}")
    print(f"                  cpu  {stats(built_cpu)}")
    print(f"  sample          wall {stats(sampled)}")
    print(f"                  cpu  {stats(sampled_cpu)}")
    waited = sum(w - c > 1e-3 for w, c in zip(built, built_cpu))
    print(f"  builds that waited > 1 ms for a core (wall - cpu): {waited} of {args.samples}")
    print("  garbage collections during the builds: " + ", ".join(
        f"gen{g} {len(v)}" + (f" (longest {max(v) * 1e3:.2f} ms)" if v else "") for g, v in pauses.items()))
    print(f"  one full collection of the loaded heap: {full_collection() * 1e3:.2f} ms cpu; "
          f"after gc.freeze(): {frozen_collection() * 1e3:.2f} ms cpu")


def full_collection() -> float:
    """CPU time of ``gc.collect()`` now (the best of 3)."""
    best = float("inf")
    for _ in range(3):
        c0 = time.thread_time()
        gc.collect()
        best = min(best, time.thread_time() - c0)
    return best


def frozen_collection() -> float:
    """CPU time of ``gc.collect()`` with everything alive now frozen (then unfrozen again)."""
    gc.freeze()
    try:
        return full_collection()
    finally:
        gc.unfreeze()


if __name__ == "__main__":
    main()
