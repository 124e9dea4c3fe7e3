"""Drives the real viewer window through opening files and mouse look, printing what it saw as JSON (for
test_window_session.py): pyglet's ``on_file_drop`` event with a demo, a folder, a non-demo and a broken demo
(X drag-and-drop needs a drag source, so the event is dispatched as the window system would), the picker's keys,
Ctrl+O, the corner readout after Tab, and the captured mouse look.

    python -m tests.session_driver WORK_DIR [--headless]   (from the repo root)
"""

from __future__ import annotations

import gc
import json
import shutil
import sys
from pathlib import Path

if "--headless" in sys.argv:
    import pyglet

    pyglet.options["headless"] = True

from pyglet.window import key, mouse  # noqa: E402  (after choosing headless mode)

from viewer.app import PlaySource, ViewerWindow  # noqa: E402
from viewer.cli import sample_demo  # noqa: E402
from viewer.session import game_filesystem  # noqa: E402
from viewer.settings import Settings, SettingsFile  # noqa: E402

from tests.conftest import QUAKE3  # noqa: E402

DT = 1 / 60


def main() -> None:
    work = Path(sys.argv[1])
    first = sample_demo("lq1")
    mvd = sample_demo("lqdm2")
    remembered = work / "remembered"
    remembered.mkdir()
    shutil.copy(first, remembered / "old.dem")
    settings = SettingsFile(work / "settings.toml", Settings(mouse_sensitivity=7.0, invert_mouse=True,
                                                              last_dir=str(remembered)), writable=True)
    w = ViewerWindow(PlaySource(game_filesystem(first, None, None), demo=first, settings=settings, sensitivity=4.0,
                                library_db=str(work / "library.sqlite"), library_workers=1),
                     size=(1280, 720), shots=work / "shots", quiet=True)
    out: dict = {}

    def ticks(n: int = 1) -> None:
        for _ in range(n):
            w.tick(DT)

    def until_ready(limit: int = 400) -> None:
        for _ in range(limit):
            w.tick(DT)
            if w.ready and w.state is not None and w.frames:
                return

    def press(symbol: int, modifiers: int = 0) -> None:
        w.dispatch_event("on_key_press", symbol, modifiers)
        w.dispatch_event("on_key_release", symbol, modifiers)
        ticks()

    def texts() -> list[str]:
        return [t.text for t in w.last_layers.texts]

    def library_rows() -> list[str]:
        """Ctrl+O's library browser once it indexed its folder: the demos it lists."""
        for _ in range(1200):
            if w.library is None or w.library.indexing is None:
                break
            w.tick(DT)
        return [r.name for r in w.library.browser.shown] if w.library and w.library.browser else []

    until_ready()
    out["first"] = {"demo": w.source.demo, "end": w.state.info.end, "sensitivity": w.state.sensitivity,
                    "invert": w.state.invert_mouse, "frozen": gc.get_freeze_count()}

    # Ctrl+O at first: the library browser on the remembered folder of the settings
    press(key.O, key.MOD_CTRL)
    out["remembered"] = library_rows()
    press(key.ESCAPE)

    # a demo dropped on the window replaces the session
    w.dispatch_event("on_file_drop", 10, 10, [mvd])
    until_ready()
    frames = w.frames
    ticks(5)
    out["dropped"] = {"demo": w.source.demo, "caption": w.caption, "end": w.state.info.end - w.state.info.start,
                      "frames_after": w.frames - frames, "pov_slots": list(w.state.info.pov_slots),
                      "frozen": gc.get_freeze_count()}

    # the readout while the bar is hidden (B), after Tab: the watched player's name; F3 adds the frame rate
    press(key.B)
    before = texts()
    press(key.TAB)
    ticks(2)
    out["readout"] = {"before_tab": before, "after_tab": texts()}
    press(key.F3)
    ticks(3)
    out["readout"]["fps"] = texts()
    press(key.B)
    ticks(2)
    out["readout"]["fps_with_bar"] = texts()

    # a folder dropped: its demos in the picker; Down + Enter opens the second
    folder = work / "demos"
    folder.mkdir()
    shutil.copy(first, folder / "a_cutscene.dem")
    shutil.copy(mvd, folder / "b_dm.mvd")
    (folder / "readme.txt").write_text("not a demo")
    w.dispatch_event("on_file_drop", 10, 10, [str(folder)])
    ticks()
    out["picker"] = {"files": [p.name for p in w.picker.files], "texts": texts()}
    press(key.DOWN)
    press(key.RETURN)
    until_ready()
    out["picked"] = {"demo": w.source.demo, "picker_open": w.picker is not None}

    # Ctrl+O: the library browser on the open demo's folder, Esc closes it without quitting
    press(key.O, key.MOD_CTRL)
    out["ctrl_o"] = {"folder": str(w.library.folder) if w.library else None, "files": library_rows()}
    press(key.ESCAPE)
    out["ctrl_o"]["closed"] = w.library is None and not w.has_exit

    # not a demo: a message, the session stays
    w.dispatch_event("on_file_drop", 10, 10, [str(folder / "readme.txt")])
    ticks(2)
    out["not_demo"] = {"demo": w.source.demo, "texts": texts()}

    # a broken demo: the window stays, says why, and Ctrl+O still works
    broken = folder / "broken.dem"
    broken.write_bytes(b"garbage that is no demo\n" * 4)
    w.dispatch_event("on_file_drop", 10, 10, [str(broken)])
    until_ready(60)
    ticks(2)
    out["broken"] = {"failed": w.failed, "texts": texts(), "alive": not w.has_exit}
    press(key.O, key.MOD_CTRL)
    out["after_broken_rows"] = library_rows()
    press(key.DOWN)
    press(key.RETURN)
    until_ready()
    out["after_broken"] = {"demo": w.source.demo, "frames": w.frames}

    # mouse look: right click captures, motion turns by sensitivity × 0.022° a count, Esc releases
    press(key.SPACE)
    w.dispatch_event("on_mouse_press", 640, 360, mouse.RIGHT, 0)
    w.dispatch_event("on_mouse_release", 640, 360, mouse.RIGHT, 0)
    ticks()
    st = w.state
    look = {"captured": st.mouse_look, "mode": st.mode, "sensitivity": st.sensitivity,
            "yaw0": st.free.angles[1] if st.free else None, "pitch0": st.free.angles[0] if st.free else None}
    w.dispatch_event("on_mouse_motion", 640, 360, 50, 10)
    ticks()
    look["yaw1"] = st.free.angles[1]
    look["pitch1"] = st.free.angles[0]
    press(key.ESCAPE)
    look["after_esc"] = {"captured": st.mouse_look, "alive": not w.has_exit}
    w.dispatch_event("on_mouse_motion", 640, 360, 50, 0)
    ticks()
    look["yaw2"] = st.free.angles[1]
    out["look"] = look

    # a Quake III demo outside any game dir, with Quake's data in use: shown, with the notice naming Quake III's
    # files; a game folder dropped on the window then becomes its game data, remembered in the settings
    alone = work / "q3demo"
    alone.mkdir()
    shutil.copy(QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68", alone / "oa.dm_68")
    w.dispatch_event("on_file_drop", 10, 10, [str(alone / "oa.dm_68")])
    until_ready()
    ticks(2)
    out["no_data"] = {"demo": w.source.demo, "frames": w.frames, "texts": texts()}
    installed = work / "q3base" / "baseoa"
    installed.mkdir(parents=True)
    (installed / "oa_dm1_assets.pk3").symlink_to(QUAKE3 / "oa_dm1_assets.pk3")
    w.dispatch_event("on_file_drop", 10, 10, [str(installed.parent)])
    until_ready()
    ticks(2)
    out["game_folder"] = {"demo": w.source.demo, "game_dirs": [str(d) for d in w.session.fs.game_dirs],
                          "texts": texts(), "settings": (work / "settings.toml").read_text()}
    w.release()
    w.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
