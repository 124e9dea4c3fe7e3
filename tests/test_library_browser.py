"""The window's library browser (issue 34 item 4), without a window: the Quake, QuakeWorld and Quake III demos of
the corpus indexed once; every column sorts, the filter narrows as it is typed, a click on a header sorts and on a
row selects and opens, the search tab runs ``qdv find``'s queries and its hits open the demo 2 s before the moment,
and opening a folder not yet indexed indexes it in a child process with a progress line."""

from __future__ import annotations

import shutil
import time

import pytest

from viewer.cli import main
from viewer.library.catalog import demo_rows, parse_search
from viewer.library.find import Query, find
from viewer.library.store import demo_events, demo_info, open_db
from viewer.ui.browser import COLUMNS, Browser, browser_click, browser_key, browser_layout, browser_text
from viewer.ui.browser_session import BrowserSession

from .conftest import DATA, QUAKE1, QUAKE3, QUAKEWORLD

FOLDERS = [QUAKE1 / "lq1", QUAKEWORLD, QUAKE3 / "demos"]
SIZE, SCALE = (1280, 720), 2
PUBLIC_Q3 = DATA / "public" / "quake3"


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    db = tmp_path_factory.mktemp("browser") / "library.sqlite"
    assert main(["index", "--db", str(db), "--workers", "2", *map(str, FOLDERS)]) == 0
    return db


@pytest.fixture(scope="module")
def rows(library):
    return tuple(demo_rows(open_db(library)))


def test_rows_are_what_info_says(library, rows):
    db = open_db(library)
    assert len(rows) == 8
    for row in rows:
        info = demo_info(db, row.path)
        ranked = _ranked(info["players"])
        assert (row.map, row.duration, row.game) == (" ".join(info["maps"]), info["duration"], info["game"])
        assert row.players == tuple(p["name"] for p in ranked) and row.scores == tuple(p["frags"] for p in ranked)


def _ranked(players: list[dict]) -> list[dict]:
    """``qdv info``'s players as a row lists them: by score, the spectators left out unless no one else is there."""
    playing = [p for p in players if not p.get("spectator")] or players
    return sorted(playing, key=lambda p: (-p["frags"], p["slot"]))


def test_spectators_following_players_are_no_players_of_the_row(tmp_path):
    """A public OSP duel watched by a GTV camera and two spectators: each following spectator shows the score of
    the player it follows, so listed as players they made the duel's score read 55:55."""
    demo = PUBLIC_Q3 / "osp_duel_1.dm_68"
    db = tmp_path / "lib.sqlite"
    assert main(["index", "--db", str(db), "--workers", "1", str(demo)]) == 0
    (row,) = demo_rows(open_db(db))
    players = demo_info(open_db(db), str(demo))["players"]
    ranked = _ranked(players)
    assert len(ranked) == 2 and len(players) > 2 and any(p["spectator"] for p in players)
    assert row.players == tuple(p["name"] for p in ranked) and row.scores == tuple(p["frags"] for p in ranked)


@pytest.mark.parametrize("column", range(len(COLUMNS)))
def test_every_column_sorts_both_ways(rows, column):
    own = {"demo": lambda r: r.name.lower(), "map": lambda r: r.map.lower(),
           "players": lambda r: ", ".join(r.players).lower(), "time": lambda r: r.duration,
           "score": lambda r: r.scores, "date": lambda r: r.date}[COLUMNS[column].title]
    b = Browser(None, rows)
    up = b.sorted_by(column) if column != b.sort else b
    assert [own(r) for r in up.shown] == sorted(own(r) for r in rows)
    down = up.sorted_by(column)
    assert down.descending and [own(r) for r in down.shown] == sorted((own(r) for r in rows), reverse=True)
    assert len({own(r) for r in rows}) > 1          # the column tells the demos apart: the order is a real test


def test_filter_narrows_as_characters_are_typed(rows):
    b = Browser(None, rows)
    counts = []
    for c in "lqdm2":
        b = browser_text(b, c)
        counts.append(len(b.shown))
    assert counts == sorted(counts, reverse=True) and counts[0] > counts[-1]
    assert {r.path for r in b.shown} == {r.path for r in rows if "lqdm2" in r.map}
    b = browser_text(browser_text(b, " "), "ranger.qwd")     # a second word narrows further
    assert [r.name for r in b.shown] == ["lq_lqdm2_ranger.qwd"]
    for _ in "ranger.qwd ":
        b, _req = browser_key(b, "BACKSPACE")
    assert len(b.shown) == counts[-1] and b.filter == "lqdm2"
    first = b.shown[0].name
    b, request = browser_key(b, "RETURN")
    assert b is None and request.kind == "open" and request.path.name == first == "lq_lqdm2_mvd.mvd"


def _text_at(layout, text):
    return next(t for t in layout.texts if t.text == text)


def test_clicks_sort_select_and_open(rows):
    b = Browser(None, rows)
    head = _text_at(browser_layout(b, SIZE, SCALE), "time")
    b, req = browser_click(b, head.x + 2, head.y + 2, SIZE, SCALE)
    assert req is None and COLUMNS[b.sort].title == "time" and not b.descending
    longest = max(rows, key=lambda r: r.duration)
    b, req = browser_click(b, head.x + 2, head.y + 2, SIZE, SCALE)
    assert b.descending and b.shown[0] == longest
    cell = next(t for t in browser_layout(b, SIZE, SCALE).texts
                if len(t.text) > 8 and b.shown[1].name.startswith(t.text.rstrip("~")))
    b, req = browser_click(b, cell.x + 2, cell.y + 2, SIZE, SCALE)
    assert b.selected == 1 and req is None
    chosen = b.shown[1]
    closed, req = browser_click(b, cell.x + 2, cell.y + 2, SIZE, SCALE)
    assert closed is None and (req.kind, str(req.path), req.start) == ("open", chosen.path, 0.0)
    assert browser_click(b, 2, 2, SIZE, SCALE) == (None, None)            # outside the panel


def test_search_box_words_are_find_queries():
    assert parse_search('killer:Timber weapon:rocket "gg wp"') == Query(killer="Timber", weapon="rocket",
                                                                         text="gg wp")
    assert parse_search("multi:3 within:5") == Query(multi_kill=3, within=5.0)
    assert parse_search("spree:4 map:lqdm2", "/x") == Query(spree=4, map="lqdm2", under=("/x",))
    for bad in ("spree:many", "colour:red"):
        with pytest.raises(ValueError):
            parse_search(bad)


def test_a_search_hit_opens_its_demo_two_seconds_before(library, tmp_path):
    session = BrowserSession(QUAKEWORLD, library, workers=1)
    try:
        session.key("TAB")
        for c in "multi:2 within:5":
            session.text(c)
        assert session.key("RETURN") is None                 # the first Enter runs the search
        expected = find(session.db, Query(multi_kill=2, within=5.0, under=(str(QUAKEWORLD.resolve()),)))
        assert list(session.browser.hits) == expected and len(expected) >= 2
        texts = [t.text for t in browser_layout(session.browser, SIZE, SCALE).texts]
        assert f"{len(expected)} matches" in texts
        session.key("DOWN")
        hit = expected[1]
        path, start = session.key("RETURN")                   # the second opens the selected hit
        assert (str(path), start) == (hit.path, pytest.approx(hit.time - 2.0)) and session.browser is None
        frags = [e for e in demo_events(session.db, hit.path) if e["kind"] == "obituary"
                 and e["killer"] == hit.player and hit.time <= e["time"] <= hit.end]
        assert len(frags) >= 2 and frags[0]["time"] == hit.time           # the moment is that player's frags
    finally:
        session.close()
    session = BrowserSession(QUAKEWORLD, library, workers=1)
    try:
        session.key("TAB")
        for c in "spree:x":
            session.text(c)
        session.key("RETURN")
        assert session.browser.status.startswith("bad search: spree: expected a number")
        session.key("F2")                                       # the whole library instead of the folder
        session.key("TAB")
        assert session.browser.folder is None and len(session.browser.shown) == 8
    finally:
        session.close()


def test_opening_a_folder_not_indexed_indexes_it(tmp_path):
    folder = tmp_path / "new"
    folder.mkdir()
    shutil.copy(QUAKE1 / "lq1" / "demo3.dem", folder / "a.dem")
    shutil.copy(QUAKEWORLD / "lq_lqdm2_mvd.mvd", folder / "b.mvd")
    (folder / "c.dem").write_bytes(b"not a demo at all" * 10)
    session = BrowserSession(folder, tmp_path / "lib.sqlite", workers=1)
    try:
        assert session.browser.rows == () and session.indexing.total == 3
        said = []
        deadline = time.monotonic() + 60
        while session.indexing is not None and time.monotonic() < deadline:
            if status := session.poll():
                said.append(status)
            time.sleep(0.05)
        assert said[0].startswith("indexing new: ") and said[-1] == "3 demos indexed"
        assert [r.name for r in session.browser.shown] == ["a.dem", "b.mvd", "c.dem"]
        assert session.browser.shown[2].error is not None and session.browser.shown[1].map == "lqdm2"
    finally:
        session.close()
