"""Drives the real viewer window through a scripted session and prints what it saw as JSON (for test_window.py).

Run in a child process so that pyglet's display connection (Xvfb, or EGL with ``--headless``) lives and dies with
it, never with the pytest process. Input goes through pyglet's own event dispatch
(``window.dispatch_event('on_key_press', …)``: queued, then handled by ``dispatch_events`` in the next tick, as
real X events are).

    python -m tests.window_driver SHOTS_DIR [--headless]   (from the repo root)
"""

from __future__ import annotations

import json
import sys

if "--headless" in sys.argv:
    import pyglet

    pyglet.options["headless"] = True

from pyglet.window import key, mouse  # noqa: E402  (after choosing headless mode)

from viewer.app import PlaySource, ViewerWindow  # noqa: E402
from viewer.cli import sample_demo  # noqa: E402
from viewer.session import game_filesystem  # noqa: E402

DT = 1 / 60


def main() -> None:
    shots = sys.argv[1]
    demo = sample_demo("lq1")
    w = ViewerWindow(PlaySource(game_filesystem(demo, None, None), demo=demo), size=(1280, 720), shots=shots,
                     quiet=True)
    out: dict = {}
    for _ in range(100):
        w.tick(DT)
        if w.ready and w.frames:
            break
    st = w.state
    out["first_frame_seconds"] = w.first_frame_seconds
    out["start"], out["end"] = st.info.start, st.info.end
    out["size"] = list(w.target.size)

    def press(symbol: int, modifiers: int = 0, ticks: int = 1) -> None:
        w.dispatch_event("on_key_press", symbol, modifiers)
        w.dispatch_event("on_key_release", symbol, modifiers)
        for _ in range(ticks):
            w.tick(DT)

    def t() -> float:
        return st.t

    # playing at real speed: 30 ticks of 1/60 s = 0.5 s of demo
    t0 = t()
    for _ in range(30):
        w.tick(DT)
    out["played"] = t() - t0

    press(key.SPACE)
    out["paused"] = st.clock.paused
    t0 = t()
    for _ in range(10):
        w.tick(DT)
    out["paused_moved"] = t() - t0

    t0 = t()
    press(key.RIGHT)
    out["right"] = t() - t0
    t0 = t()
    press(key.RIGHT, key.MOD_SHIFT)
    out["shift_right"] = t() - t0
    press(key._5)
    out["digit5"] = t()
    press(key._0)
    out["digit0"] = t()
    press(key.HOME)
    out["home"] = t()
    press(key._3)

    # free camera: starts at the POV, WASD moves it while paused, the clock stays
    pov = w._last.camera
    press(key.F)
    out["mode_after_f"] = st.mode
    out["free_start"] = list(st.free.origin)
    out["pov_origin"] = list(pov.origin)
    t0 = t()
    w.dispatch_event("on_key_press", key.W, 0)
    for _ in range(30):
        w.tick(DT)
    w.dispatch_event("on_key_release", key.W, 0)
    w.tick(DT)
    out["free_end"] = list(st.free.origin)
    out["free_clock_moved"] = t() - t0
    out["free_drawn_from"] = list(w._last.camera.origin)

    # the timeline bar: press, drag, release at bar coordinates (pyglet's y counts from the bottom)
    g = st.geometry()
    y = w.height - (g.top + g.bottom) / 2
    drags = []
    x_press = g.x0 + 0.25 * (g.x1 - g.x0)
    w.dispatch_event("on_mouse_press", int(x_press), int(y), mouse.LEFT, 0)
    w.tick(DT)
    drags.append([st.t, g.time_at(int(x_press))])
    x_prev = int(x_press)
    for f in (0.5, 0.75, 0.1):
        x = int(g.x0 + f * (g.x1 - g.x0))
        w.dispatch_event("on_mouse_drag", x, int(y), x - x_prev, 0, mouse.LEFT, 0)
        w.tick(DT)
        drags.append([st.t, g.time_at(x), w._last.time])
        x_prev = x
    w.dispatch_event("on_mouse_release", x_prev, int(y), mouse.LEFT, 0)
    w.tick(DT)
    out["drags"] = drags
    out["scrubbing_after_release"] = st.scrubbing

    # screenshots: numbered, never overwriting
    press(key.F12)
    first = str(w.last_screenshot)
    press(key.F12)
    out["shots"] = [first, str(w.last_screenshot)]

    # back to the recorder's eyes at 30 %, the game picture for the pixel check
    press(key.V)
    press(key._3, ticks=2)
    press(key.F12)
    out["pov_shot"] = str(w.last_screenshot)
    out["mode_after_v"] = st.mode

    press(key.F1)
    out["help"] = st.show_help
    press(key.F1)

    # the end pauses and never quits
    press(key._9)
    press(key.SPACE)
    for _ in range(5):
        w.tick(5.0)
    out["end_t"] = t()
    out["end_paused"] = st.clock.paused
    out["closed"] = w.has_exit if hasattr(w, "has_exit") else False
    out["frames"] = w.frames
    w.release()
    w.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
