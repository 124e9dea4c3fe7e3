"""Mixing speed: the time to mix 1 s of a demo's sound (issue 16 target: ≤ 20 ms for the busy MVD).

Run: ``python benchmarks/bench_mixer.py [DEMO ...]`` (defaults to the QuakeWorld MVDs of ../shared/data/quakeworld).
Prints per demo: sound events, Mixer set-up time, then for the busiest second (most sounds started in it) and the
median second: best-of-5 time to mix 1 s with a fixed listener, with the recorder's moving view (one listener per
10.7 ms, as ``sample`` gives it), and as 50 window-sized 20 ms calls.  Then the window's stream over 60 s from the
busiest second: 4096-frame pulls (85 ms of sound each, the listener moved every pull) — the slowest pull must stay far
below 85 ms for the driver never to run dry (no device is needed: the pulls are timed directly).
"""

from __future__ import annotations

import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyglet
from timing import best_of  # benchmarks/timing.py, beside this script

from assets_loader.demos import load_demo, sample
from assets_loader.vfs import VirtualFS
from viewer.audio import Listener, Mixer, SoundBank

pyglet.options["headless"] = True       # the stream's module imports pyglet.media, which opens a GL context
from viewer.audio.output import MixerStream  # noqa: E402  (after choosing headless mode)

PULL_FRAMES = 4096

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "quakeworld"


def time_second(mixer: Mixer, view: Callable[[float], Listener], t0: float) -> tuple[float, float, float]:
    """Best-of-5 seconds to mix [t0, t0 + 1): fixed listener, moving listener, 50 calls of 20 ms."""
    fixed = view(t0)
    return (best_of(lambda: mixer.mix(t0, t0 + 1.0, fixed), 5), best_of(lambda: mixer.mix(t0, t0 + 1.0, view), 5),
            best_of(lambda: [mixer.mix(t0 + i * 0.02, t0 + (i + 1) * 0.02, fixed) for i in range(50)], 5))


def stream_pulls(mixer: Mixer, view: Callable[[float], Listener], t0: float, seconds: float) -> np.ndarray:
    """Seconds taken by each pull of a 60 s window stream anchored at ``t0``."""
    stream = MixerStream(mixer)
    stream.set_anchor(t0, 1.0, True)
    took = []
    for i in range(int(seconds * mixer.rate / PULL_FRAMES)):
        stream.set_listener(view(t0 + i * PULL_FRAMES / mixer.rate))
        start = time.perf_counter()
        stream.get_audio_data(PULL_FRAMES * 4)
        took.append(time.perf_counter() - start)
    return np.array(took)


def bench_demo(path: Path) -> None:
    timeline = load_demo(path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # sounds missing from the corpus paks
        t = time.perf_counter()
        mixer = Mixer(timeline, SoundBank(VirtualFS(path.parent)))
        setup = time.perf_counter() - t
    times = np.array([e.time for e in timeline.events_of_kind("sound")])
    seconds = np.arange(np.floor(timeline.start_time), timeline.end_time - 1.0)
    starts = np.array([((times >= s) & (times < s + 1)).sum() for s in seconds])
    busiest = float(seconds[int(np.argmax(starts))])
    median = float(seconds[int(np.argsort(starts)[len(starts) // 2])])

    def view(t: float) -> Listener:
        s = sample(timeline, t)
        return Listener.from_angles(s.view_origin, s.view_angles, s.view_entity)

    for label, t0 in (("busiest", busiest), ("median", median)):
        fixed, moving, calls = time_second(mixer, view, t0)
        n = int(((times >= t0) & (times < t0 + 1)).sum())
        print(f"{path.name[:47]:<48}{len(times):>7}{setup * 1e3:>8.1f}{label:>8}{n:>7}{fixed * 1e3:>8.2f}"
              f"{moving * 1e3:>8.2f}{calls * 1e3:>9.2f}")
    span = min(60.0, timeline.end_time - busiest)
    pulls = stream_pulls(mixer, view, busiest, span)
    budget = PULL_FRAMES / mixer.rate
    print(f"  stream, {span:.0f} s from {busiest - timeline.start_time:.0f} s: {len(pulls)} pulls of "
          f"{budget * 1e3:.0f} ms, mean {pulls.mean() * 1e3:.2f} ms, slowest {pulls.max() * 1e3:.2f} ms, "
          f"pulls slower than their sound: {(pulls > budget).sum()}")


def main(argv: list[str]) -> None:
    paths = [Path(a) for a in argv] or sorted(CORPUS.glob("*.mvd"))
    print(f"{'demo':<48}{'sounds':>7}{'setup':>8}{'second':>8}{'starts':>7}{'fixed':>8}{'moving':>8}"
          f"{'50x20ms':>9}   (ms)")
    for path in paths:
        bench_demo(path)


if __name__ == "__main__":
    main(sys.argv[1:])
