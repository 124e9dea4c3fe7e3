"""The viewer window: time from ``qdv play`` (the bundled sample) to the first frame, and the frame time while
scrubbing continuously.

Run: ``.venv/bin/python benchmarks/bench_window.py [--runs N] [--seeks S] [--size WxH] [--headless]``.

1. Start-up: ``qdv play --frames 1`` is launched N times as a fresh process; the time from launch to the line
   ``qdv: first frame after …`` on its stderr (Python start, imports, window, demo decode, map upload, first draw)
   is reported (min / median / max). Target: ≤ 2 s.
2. Scrubbing: one window; S times the mouse is dragged on the timeline bar to a random spot (a real
   ``on_mouse_drag`` event through pyglet) and the window ticks (seek, scene, world + models, HUD, bar, blit);
   per-frame time median / p95 / max and the frames per second that gives.

Uses ``$DISPLAY`` when set, else pyglet's headless EGL mode (or force it with ``--headless``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time


def startup(runs: int, headless: bool, size: str) -> list[float]:
    times = []
    for _ in range(runs):
        args = [sys.executable, "-m", "viewer.cli", "play", "--frames", "1", "--size", size]
        if headless:
            args.append("--headless")
        t0 = time.perf_counter()
        proc = subprocess.Popen(args, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        seen = None
        for line in proc.stderr:
            if "first frame after" in line:
                seen = time.perf_counter() - t0
                break
        proc.stderr.read()
        proc.wait(60)
        if seen is None:
            raise SystemExit(f"qdv play did not report a first frame (exit {proc.returncode})")
        times.append(seen)
    return times


def scrubbing(seeks: int, headless: bool, size: tuple[int, int]) -> list[float]:
    import random

    import pyglet

    if headless:
        pyglet.options["headless"] = True
    from pyglet.window import mouse

    from viewer.app import PlaySource, ViewerWindow
    from viewer.cli import sample_demo
    from viewer.session import game_filesystem

    demo = sample_demo("lq1")
    w = ViewerWindow(PlaySource(game_filesystem(demo, None, None), demo=demo), size=size, shots="/tmp", quiet=True)
    while not (w.ready and w.frames):
        w.tick()
    st = w.state
    g = st.geometry()
    y = int(w.height - (g.top + g.bottom) / 2)
    x = int(g.x0)
    w.dispatch_event("on_mouse_press", x, y, mouse.LEFT, 0)
    w.tick()
    rng = random.Random(0)
    frame_times = []
    for _ in range(seeks):
        nx = rng.randint(int(g.x0), int(g.x1))
        w.dispatch_event("on_mouse_drag", nx, y, nx - x, 0, mouse.LEFT, 0)
        x = nx
        t0 = time.perf_counter()
        w.tick()
        w.ctx.finish()
        frame_times.append(time.perf_counter() - t0)
    w.dispatch_event("on_mouse_release", x, y, mouse.LEFT, 0)
    w.tick()
    renderer = w.ctx.info.get("GL_RENDERER", "?")
    w.release()
    w.close()
    print(f"renderer: {renderer}")
    return frame_times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seeks", type=int, default=200)
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--headless", action="store_true")
    args = parser.parse_args()
    headless = args.headless or not os.environ.get("DISPLAY")
    w, h = (int(v) for v in args.size.split("x"))
    mode = "headless EGL" if headless else f"DISPLAY={os.environ['DISPLAY']}"
    print(f"qdv play (bundled sample) at {args.size}, {mode}")

    s = startup(args.runs, headless, args.size)
    print(f"launch → first frame: min {min(s):.2f} s, median {statistics.median(s):.2f} s, max {max(s):.2f} s "
          f"({args.runs} runs; target ≤ 2 s)")

    f = sorted(scrubbing(args.seeks, headless, (w, h)))
    med = statistics.median(f)
    p95 = f[int(0.95 * (len(f) - 1))]
    print(f"scrubbing ({args.seeks} drags to random times): frame median {med * 1000:.1f} ms "
          f"({1 / med:.1f} fps), p95 {p95 * 1000:.1f} ms, max {f[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
