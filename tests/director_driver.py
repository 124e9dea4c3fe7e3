"""Drives the real viewer window with the director (``qdv play --camera director``, Ctrl+D) and prints what it saw
as JSON (for test_director.py): the player each picture shows, the readout's director line, the ears of the sound.

Run in a child process so that pyglet's display connection lives and dies with it.

    python -m tests.director_driver DEMO [--headless]   (from the repo root)
"""

from __future__ import annotations

import json
import sys

if "--headless" in sys.argv:
    import pyglet

    pyglet.options["headless"] = True

from pyglet.window import key  # noqa: E402  (after choosing headless mode)

from viewer.app import PlaySource, ViewerWindow  # noqa: E402
from viewer.audio.output import listener_for  # noqa: E402
from viewer.session import game_filesystem  # noqa: E402

DT = 1 / 60


def main() -> None:
    demo = sys.argv[1]
    w = ViewerWindow(PlaySource(game_filesystem(demo, None, None), demo=demo, director=True), size=(640, 360),
                     quiet=True)
    for _ in range(400):
        w.tick(DT)
        if w.ready and w.frames:
            break
    st = w.state
    plan = st.plan
    out: dict = {"directing": st.directing, "shots": len(plan.shots) if plan else 0, "seen": []}

    def press(symbol: int, modifiers: int = 0) -> None:
        w.dispatch_event("on_key_press", symbol, modifiers)
        w.dispatch_event("on_key_release", symbol, modifiers)
        w.tick(DT)

    def look() -> dict:
        """What the window shows now: its time, the picture's player, the readout's director line, the ears."""
        state = w._last_state
        ears = listener_for(w._last, state, st.mode in ("free", "path"))
        lines = [t.text for t in w.last_layers.texts if t.text.startswith("director:")]
        return {"t": st.t, "pov": state.pov, "view_entity": int(state.view_entity), "line": lines,
                "ears": None if ears is None or ears.entity is None else int(ears.entity), "mode": st.camera_name}

    press(key.B)                                    # the bar off: the corner readout shows
    for shot in plan.shots[:12]:
        st.clock = st.clock.seek((shot.start + shot.end) / 2)
        w.tick(DT)
        out["seen"].append({**look(), "slot": shot.slot, "player": shot.player, "why": shot.why,
                            "camera": shot.camera})
    press(key.D, key.MOD_CTRL)                      # off: the eyes of the player it showed
    out["off"] = {**look(), "directing": st.directing, "pov_slot": st.pov_slot}
    press(key.D, key.MOD_CTRL)
    out["on_again"] = {**look(), "directing": st.directing}
    print(json.dumps(out))
    w.close()


if __name__ == "__main__":
    main()
