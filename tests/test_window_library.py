"""The library browser in the real ``qdv play`` window under Xvfb, driven by xdotool (issue 34 item 4): Ctrl+O
shows the browser on the open demo's folder and indexes it into the ``--db`` library, clicks on a column header sort
it, typed letters filter its rows, and on the search tab Enter runs a multi-kill search and Enter again opens the
demo of the first hit 2 s before it. The captures are saved beside the test's temporary files."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from viewer.library.find import Query, find
from viewer.library.store import open_db
from viewer.ui.browser import HEAD_LINES, Browser, browser_layout, line_band
from viewer.ui.timeline_bar import ui_scale

from tests.conftest import QUAKEWORLD
from tests.xwindow import grab, keys, start_play, stop, xdotool

SIZE = (1280, 720)
TWO_ON_TWO = "2on2_sf_vs_red[frobodm2]220104-0915.mvd"


def _until(lines: list[str], text: str, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [line for line in lines if text in line]
        if found:
            return found[-1]
        time.sleep(0.1)
    pytest.fail(f"{text!r} not printed; the window said:\n{''.join(lines)}", pytrace=False)


def _band(px: np.ndarray, line: int) -> np.ndarray:
    """The pixels of the browser's text line ``line`` (0: the title)."""
    x, y, w, h = line_band(SIZE, ui_scale(SIZE), line)
    return px[y:y + h, x:x + w]


def _text_pixels(band: np.ndarray) -> int:
    """Pixels of the browser's light text (its panel hides the scene behind it)."""
    return int(np.count_nonzero(np.all(band > 150, axis=2)))


@pytest.fixture(scope="module")
def run(display, tmp_path_factory) -> dict:
    work = tmp_path_factory.mktemp("window-library")
    folder = work / "demos"
    folder.mkdir()
    for name in (TWO_ON_TWO, "lq_lqdm2_mvd.mvd"):
        shutil.copy(QUAKEWORLD / name, folder / name)
    db = work / "library.sqlite"
    proc, window = start_play(display, str(folder / "lq_lqdm2_mvd.mvd"), "--db", str(db), "--size", "1280x720",
                              config=work / "config")
    lines: list[str] = []
    assert proc.stdout is not None
    reader = threading.Thread(target=lambda: [lines.append(line) for line in proc.stdout], daemon=True)
    reader.start()
    shots: dict[str, np.ndarray] = {}
    try:
        keys(display, window, "space")                       # paused: the picture behind the panel holds still
        time.sleep(0.3)
        shots["playing"] = grab(display)
        keys(display, window, "ctrl+o")
        _until(lines, "2 demos indexed")
        keys(display, window, "Home")
        time.sleep(0.5)
        shots["browser"] = grab(display)
        head = next(t for t in browser_layout(Browser(None), SIZE, ui_scale(SIZE)).texts if t.text == "time")
        for name in ("by_time", "by_time_down"):       # a click on the header sorts, a second turns the order
            xdotool(display, "mousemove", "--window", window, str(int(head.x + 4)), str(int(head.y + 4)), "click", "1")
            time.sleep(0.5)
            shots[name] = grab(display)
        xdotool(display, "type", "--delay", "80", "frobo")
        time.sleep(0.5)
        shots["filtered"] = grab(display)
        keys(display, window, "Tab")
        xdotool(display, "type", "--delay", "50", "multi:2 within:5")
        keys(display, window, "Return")
        time.sleep(0.5)
        shots["search"] = grab(display)
        keys(display, window, "Return")
        opened = _until(lines, "opening ")
        _until(lines, f"demo {TWO_ON_TWO}:")
        time.sleep(1.0)
        shots["opened"] = grab(display)
        alive = proc.poll() is None
    finally:
        stop(proc)
    for name, px in shots.items():
        Image.fromarray(px).save(work / f"{name}.png")
    return {"shots": shots, "opened": opened, "alive": alive, "db": db, "folder": folder, "lines": lines}


def test_ctrl_o_shows_the_browser_on_the_demos_folder(run) -> None:
    shots = run["shots"]
    assert any(f"library browser on {run['folder']}" in line for line in run["lines"])
    assert np.any(_band(shots["playing"], 0) != _band(shots["browser"], 0))          # the panel is drawn
    rows = [_text_pixels(_band(shots["browser"], HEAD_LINES + i)) for i in range(3)]
    assert rows[0] > 200 and rows[1] > 200 and rows[2] == 0      # two demos: two lines of text, nothing under


def test_clicks_on_a_header_sort_the_rows(run) -> None:
    """By name the 2on2 demo (3:22) comes first; by time the shorter lqdm2 one; the second click turns the order
    back to the 2on2 demo first, the same rows as by name."""
    shots = run["shots"]
    rows = {name: [_band(shots[name], HEAD_LINES + i) for i in range(2)] for name in ("browser", "by_time",
                                                                                       "by_time_down")}
    assert all(np.array_equal(a, b) for a, b in zip(rows["browser"], rows["by_time_down"]))
    assert not any(np.array_equal(a, b) for a, b in zip(rows["browser"], rows["by_time"]))
    assert np.any(_band(shots["browser"], 3) != _band(shots["by_time"], 3))      # the sort mark moved


def test_typing_filters_the_rows(run) -> None:
    before, after = run["shots"]["by_time_down"], run["shots"]["filtered"]
    assert _text_pixels(_band(after, HEAD_LINES)) > 200                           # 2on2 (frobodm2) stays
    assert _text_pixels(_band(before, HEAD_LINES + 1)) > 200
    assert _text_pixels(_band(after, HEAD_LINES + 1)) == 0                         # lqdm2's demo is filtered out
    assert np.any(_band(before, 2) != _band(after, 2))                             # the filter box shows "frobo"


def test_enter_opens_the_demo_at_the_first_search_hit(run) -> None:
    db = open_db(run["db"])
    hits = find(db, Query(multi_kill=2, within=5.0, under=(str(Path(run["folder"]).resolve()),)))
    first = hits[0]
    assert run["opened"].strip() == f"qdv: opening {first.path} at {first.time - 2.0:.3f} s"
    assert Path(first.path).name == TWO_ON_TWO and run["alive"]
    assert np.any(run["shots"]["search"] != run["shots"]["filtered"])
