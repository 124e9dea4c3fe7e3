"""Time ``particles_at`` / ``trail_particles`` / ``dynamic_lights`` at random times of a busy synthetic scene.

Run: ``.venv/bin/python benchmarks/bench_effects.py [--minutes M] [--rate R] [--rockets N] [--samples S]``.
The scene: a demo of M minutes with R particle effects a second (explosions, teleports, spikes, gunshots, blood,
one lava splash in twenty), N rockets in flight at any time (20 Hz samples, 1000 units/s, each track 2 s long)
and grenades; prints build time, then per-call cost (median / p95 / max ms) and the particle counts seen.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from assets_loader.demos.events import ParticleEvent, TempEntityEvent
from assets_loader.demos.quake import protocol as NQ
from viewer.games.quake.fx import Trail, build_emitters, dynamic_lights, particles_at, trail_particles


def scene(minutes: float, rate: float, seed: int = 0):
    rng = np.random.default_rng(seed)
    duration = minutes * 60.0
    n = int(duration * rate)
    times = np.sort(rng.uniform(0, duration, n))
    kinds = rng.choice([0, 1, 2, 3, 7, 11, 10, -1], n, p=[0.2, 0.15, 0.2, 0.15, 0.05, 0.05, 0.02, 0.18])
    events = []
    for t, k in zip(times, kinds):
        o = tuple(rng.uniform(-1000, 1000, 3))
        if k == -1:
            events.append(ParticleEvent(float(t), 0, 0, o, (0.0, 0.0, 1.0), 20, 73))
        else:
            events.append(TempEntityEvent(float(t), 0, 0, NQ.TE_NAMES[int(k)], o))
    return events, duration


def rockets(t: float, count: int, rng: np.random.Generator) -> list[Trail]:
    out = []
    for r in range(count):
        start = t - rng.uniform(0, 2.0)
        times = np.arange(start, t + 0.05, 0.05)
        d = rng.normal(size=3)
        d /= np.linalg.norm(d)
        origins = (rng.uniform(-500, 500, 3) + (times - start)[:, None] * 1000.0 * d).astype(np.float32)
        out.append(Trail(r, 0 if r % 3 else 1, times, origins))
    return out


def stats(samples: list[float]) -> str:
    a = np.array(samples) * 1e3
    return f"median {np.median(a):7.3f} ms   p95 {np.percentile(a, 95):7.3f} ms   max {a.max():7.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=30.0, help="effects per second")
    parser.add_argument("--rockets", type=int, default=12)
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()

    events, duration = scene(args.minutes, args.rate)
    t0 = time.perf_counter()
    em = build_emitters(events)
    print(f"{len(events)} events over {duration:.0f} s → {len(em)} emitters, {len(em.lights)} timed lights; "
          f"build_emitters {1e3 * (time.perf_counter() - t0):.1f} ms")

    rng = np.random.default_rng(1)
    ts = rng.uniform(0, duration, args.samples)
    cost_e, cost_tr, cost_all, cost_l, counts, tcounts = [], [], [], [], [], []
    for t in ts:
        trails = rockets(float(t), args.rockets, rng)
        s = time.perf_counter()
        p = particles_at(em, float(t))
        cost_e.append(time.perf_counter() - s)
        s = time.perf_counter()
        tp = trail_particles(trails, float(t))
        cost_tr.append(time.perf_counter() - s)
        s = time.perf_counter()
        particles_at(em, float(t), trails)
        cost_all.append(time.perf_counter() - s)
        s = time.perf_counter()
        dynamic_lights(em, None, float(t))
        cost_l.append(time.perf_counter() - s)
        counts.append(len(p))
        tcounts.append(len(tp))
    print(f"effects only    ({np.mean(counts):6.0f} particles avg, {max(counts)} max): {stats(cost_e)}")
    print(f"trails only     ({np.mean(tcounts):6.0f} particles avg, {args.rockets} trails): {stats(cost_tr)}")
    print(f"effects+trails  : {stats(cost_all)}")
    print(f"dynamic_lights  : {stats(cost_l)}")


if __name__ == "__main__":
    main()
