"""The demo library (issue 34): ``qdv index`` over the real corpus stores what ``qdv info --json`` and ``qdv events
--json`` print, re-indexing touches nothing unchanged, a corrupt file is one error row, a Dask cluster gives the same
database as the process pool, and ``qdv find``'s patterns agree with counts computed here from the events."""

from __future__ import annotations

import bisect
import contextlib
import io
import json
import os
import shutil
import sqlite3
from collections import Counter, defaultdict

import pytest

from assets_loader.demos import load_demo
from assets_loader.errors import FormatError
from viewer.cli import main
from viewer.demo_report import events_list, info_dict, to_json
from viewer.library.event_blob import unpack_events
from viewer.library.find import Query, find
from viewer.library.index import demo_paths, index_folders
from assets_loader.demos.quake3.colors import strip_colors
from viewer.library.records import name_date
from viewer.library.store import INDEXED_KINDS, demo_events, demo_info, open_db

from .conftest import DATA, QUAKE1, QUAKE2, QUAKE3, QUAKEWORLD

CORPUS = [QUAKE1, QUAKEWORLD, QUAKE2, QUAKE3, DATA / "public"]


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    """The corpus and the public demos indexed once with two workers: the database file."""
    db = tmp_path_factory.mktemp("library") / "library.sqlite"
    assert main(["index", "--db", str(db), "--workers", "2", *map(str, CORPUS)]) == 0
    return db


def _json(data):
    return json.loads(to_json(data))


@pytest.fixture(scope="module")
def corpus(cli_decodes_once, decoded) -> dict[str, tuple[dict, list, list] | FormatError]:
    """Each corpus demo decoded once for the comparisons below: path → its ``info`` and ``events`` JSON and the JSON
    ``qdv events PATH --json --kind obituary`` prints (the command run on that decode), or the FormatError its
    decoding raised."""
    found: dict[str, tuple[dict, list, list] | FormatError] = {}
    for path in demo_paths(CORPUS):
        try:
            timeline = decoded(path)
        except FormatError as exc:
            found[path] = exc
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["events", path, "--json", "--kind", "obituary"]) == 0, path
        found[path] = (_json(info_dict(timeline, path)), _json(events_list(timeline)), json.loads(out.getvalue()))
    return found


def test_every_demo_row_equals_info_and_events(library, corpus):
    db = sqlite3.connect(library)
    paths = demo_paths(CORPUS)
    assert len(paths) == db.execute("SELECT COUNT(*) FROM demos").fetchone()[0] >= 25
    decoded = 0
    for path in paths:
        if isinstance(corpus[path], FormatError):
            error, = db.execute("SELECT error FROM demos WHERE path = ?", (path,)).fetchone()
            assert error == " ".join(str(corpus[path]).split()) and "\n" not in error
            assert demo_info(db, path) is None and demo_events(db, path) == []
            continue
        decoded += 1
        info, events, _obituaries = corpus[path]
        assert demo_info(db, path) == info, path
        assert demo_events(db, path) == events, path
        counts = Counter(kind for (kind,) in db.execute(
            "SELECT e.kind FROM events e JOIN demos d ON d.id = e.demo WHERE d.path = ?", (path,)))
        assert counts == {k: n for k, n in info["events"].items() if k in INDEXED_KINDS}, path
        game, maps, duration, error = db.execute("SELECT game, maps, duration, error FROM demos WHERE path = ?",
                                                 (path,)).fetchone()
        assert (game, maps.split(), duration, error) == (info["game"], info["maps"], info["duration"], None)
        names = db.execute("SELECT name FROM players p JOIN demos d ON d.id = p.demo WHERE d.path = ? "
                           "ORDER BY slot", (path,)).fetchall()
        assert [n for (n,) in names] == [p["name"] for p in info["players"]]
    assert decoded >= 20


def test_players_recorder_gametype_and_date(library):
    db = sqlite3.connect(library)
    rows = {os.path.basename(p): (r, g, d) for p, r, g, d in db.execute(
        "SELECT path, recorder, gametype, date FROM demos")}
    # A Quake III .dm_71 recorded by slot 4 (DemoCam), free-for-all, with its g_timestamp
    assert rows["oa_dm1_player_p71.dm_71"] == ("DemoCam", "ffa", "2026-11-22 01:28:00")
    # A QuakeWorld server demo: no recorder, teamplay on, the date in its name
    assert rows["2on2_sf_vs_red[frobodm2]220104-0915.mvd"] == (None, "team", "2022-01-04 09:15")
    raw, clean = db.execute("SELECT name_raw, name FROM players WHERE name_raw LIKE '%^%' LIMIT 1").fetchone()
    assert "^" in raw and clean == strip_colors(raw) and "^" not in clean


def test_reindex_touches_nothing_unchanged(library):
    db = open_db(library)
    before = db.total_changes
    result = index_folders(db, CORPUS, workers=2)
    assert (result.decoded, result.removed, result.unchanged) == (0, 0, len(demo_paths(CORPUS)))
    assert db.total_changes == before


def test_corrupt_changed_duplicate_and_removed_files(tmp_path):
    folder = tmp_path / "demos"
    (folder / "sub").mkdir(parents=True)
    (folder / "corrupt.dm_68").write_bytes(b"\x01\x00\x00\x00\xff\xff\x00\x00" + bytes(range(256)) * 4)
    shutil.copy(QUAKE1 / "lq1" / "demo3.dem", folder / "a.dem")
    shutil.copy(QUAKE1 / "lq1" / "demo3.dem", folder / "sub" / "b.dem")
    db = open_db(tmp_path / "lib.sqlite")
    result = index_folders(db, [folder], workers=1)
    assert (result.decoded, result.errors, result.duplicates) == (3, 1, 2)
    (error,), = db.execute("SELECT error FROM demos WHERE path LIKE '%corrupt.dm_68'").fetchall()
    assert "corrupt.dm_68" in error and "\n" not in error
    assert db.execute("SELECT COUNT(*) FROM events e JOIN demos d ON d.id = e.demo "
                      "WHERE d.error IS NOT NULL").fetchone()[0] == 0
    (folder / "sub" / "b.dem").unlink()
    (folder / "corrupt.dm_68").write_bytes(b"still not a demo")
    os.utime(folder / "a.dem", (1e9, 1e9))      # touched, same content: not decoded again
    before = db.execute("SELECT id, info FROM demos WHERE path LIKE '%a.dem'").fetchone()
    result = index_folders(db, [folder], workers=1)
    assert (result.decoded, result.unchanged, result.removed, result.errors) == (1, 1, 1, 1)
    assert db.execute("SELECT id, info FROM demos WHERE path LIKE '%a.dem'").fetchone() == before
    assert db.execute("SELECT mtime FROM demos WHERE path LIKE '%a.dem'").fetchone() == (1e9,)
    assert db.execute("SELECT COUNT(*) FROM demos").fetchone()[0] == 2


def test_gzipped_demo_is_indexed(tmp_path):
    import gzip

    (tmp_path / "d.dem.gz").write_bytes(gzip.compress((QUAKE1 / "lq1" / "demo3.dem").read_bytes()))
    db = open_db(tmp_path / "lib.sqlite")
    index_folders(db, [tmp_path], workers=1)
    path = str(tmp_path / "d.dem.gz")
    assert demo_info(db, path) == _json(info_dict(load_demo(path), path))


def _dump(path) -> list:
    """The whole database by demo path, without row ids."""
    db = sqlite3.connect(path)
    out = []
    for row in db.execute("SELECT * FROM demos ORDER BY path"):
        demo, rest = row[0], list(row[1:])
        rest[14] = unpack_events(rest[14]) if rest[14] else None   # the events blob
        out.append(rest)
        for table, order in (("maps", "segment"), ("players", "slot"), ("events", "seq")):
            out.append(db.execute(f"SELECT * FROM {table} WHERE demo = ? ORDER BY {order}", (demo,)).fetchall())
            out[-1] = [r[1:] for r in out[-1]]
    return out


def test_dask_cluster_gives_the_same_database(tmp_path):
    from distributed import LocalCluster

    folders = [QUAKE1 / "lq1", QUAKEWORLD, QUAKE2 / "demos", QUAKE3 / "demos"]
    local, remote = tmp_path / "local.sqlite", tmp_path / "dask.sqlite"
    assert main(["index", "--db", str(local), "--workers", "2", *map(str, folders)]) == 0
    with LocalCluster(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as cluster:
        assert main(["index", "--db", str(remote), "--scheduler", cluster.scheduler_address,
                     *map(str, folders)]) == 0
    assert _dump(local) == _dump(remote) != []


# --- find, against counts computed here from the stored events lists ------------------------------------------------


def _frags(events: list[dict]) -> list[dict]:
    return [e for e in events if e["kind"] == "obituary" and e["killer"] is not None and e["killer"] != e["victim"]]


def _demos(db) -> dict[str, list[dict]]:
    return {p: demo_events(db, p) for (p,) in db.execute("SELECT path FROM demos WHERE error IS NULL")}


def test_find_events_by_kind_killer_weapon_and_text(library):
    db = sqlite3.connect(library)
    demos = _demos(db)
    obituaries = sum(1 for ev in demos.values() for e in ev if e["kind"] == "obituary")
    assert len(find(db, Query(kind="obituary"))) == obituaries > 100
    pairs = Counter((e["killer"], e["weapon"]) for ev in demos.values() for e in _frags(ev))
    (killer, weapon), n = pairs.most_common(1)[0]
    hits = find(db, Query(killer=killer, weapon=weapon))
    assert len(hits) >= n and {h.player for h in hits} >= {killer}
    assert len([h for h in hits if h.player == killer]) == n
    chats = [(p, e["time"]) for p, ev in demos.items() for e in ev if e["kind"] == "chat" and "gg" in e["text"].lower()]
    assert sorted((h.path, h.time) for h in find(db, Query(text="GG"))) == sorted(chats) != []
    # a bulk kind, read from the compressed lists
    quake2 = str(QUAKE2)
    flashes = sum(1 for p, ev in demos.items() if p.startswith(quake2) for e in ev if e["kind"] == "muzzleflash")
    assert len(find(db, Query(kind="muzzleflash", under=(quake2,)))) == flashes > 0


def test_find_multi_kills_and_sprees(library):
    db = sqlite3.connect(library)
    demos = _demos(db)
    n, within = 2, 5.0
    expected_multi = set()
    expected_spree = set()
    for path, events in demos.items():
        times: dict[str, list[float]] = defaultdict(list)
        for e in _frags(events):
            times[e["killer"]].append(e["time"])
        for killer, ts in times.items():
            i = 0
            while i < len(ts):
                window = [t for t in ts[i:] if t - ts[i] <= within]
                if len(window) >= n:
                    expected_multi.add((path, killer, ts[i], len(window)))
                    i += len(window)
                else:
                    i += 1
        streak: dict[str, list[float]] = defaultdict(list)
        for e in (e for e in events if e["kind"] == "obituary"):
            if e["killer"] is not None and e["killer"] != e["victim"]:
                streak[e["killer"]].append(e["time"])
            if e["victim"] is not None:
                done = streak.pop(e["victim"], [])
                if len(done) >= 5:
                    expected_spree.add((path, e["victim"], done[0], len(done)))
        expected_spree.update((path, k, s[0], len(s)) for k, s in streak.items() if len(s) >= 5)
    multi = find(db, Query(multi_kill=n, within=within))
    assert {(h.path, h.player, h.time, int(h.match.split()[0])) for h in multi} == expected_multi != set()
    spree = find(db, Query(spree=5))
    assert {(h.path, h.player, h.time, int(h.match.split()[2])) for h in spree} == expected_spree != set()


def _windows(times: list[float], n: int, within: float) -> list[tuple[float, int]]:
    """Greedy runs of ≥ n times each within ``within`` of the run's first, by binary search over sorted times."""
    runs, i = [], 0
    while i < len(times):
        j = bisect.bisect_right(times, within, lo=i, key=lambda t, first=times[i]: t - first)
        if j - i >= n:
            runs.append((times[i], j - i))
            i = j
        else:
            i += 1
    return runs


def test_multi_kill_3_cli_lists_the_moments_events_json_gives(library, corpus, capsys):
    """The issue's "done when" search, ``qdv find --multi-kill 3 --within 5`` (and 8 s, where the corpus has more),
    against each demo's ``qdv events --json --kind obituary`` (the CLI's JSON, not the library's lists)."""
    frag_times: dict[tuple[str, str], list[float]] = defaultdict(list)
    for path, found in corpus.items():
        if isinstance(found, FormatError):
            continue
        for e in found[2]:
            if e["killer"] not in (None, e["victim"]):
                frag_times[(path, e["killer"])].append(e["time"])
    for within in (5.0, 8.0):
        expected = {(path, killer, t, k) for (path, killer), ts in frag_times.items()
                    for t, k in _windows(ts, 3, within)}
        assert main(["find", "--db", str(library), "--multi-kill", "3", "--within", str(within), "--json"]) == 0
        hits = json.loads(capsys.readouterr().out)
        assert {(h["path"], h["player"], h["time"], int(h["match"].split()[0])) for h in hits} == expected != set()
        assert all(h["end"] - h["time"] <= within and h["play"].startswith("qdv play ") for h in hits)
        assert main(["find", "--db", str(library), "--multi-kill", "3", "--within", str(within)]) == 0
        table = capsys.readouterr().out.splitlines()
        assert table[-1] == f"{len(hits)} matches"
        assert all(h["play"] in line for h, line in zip(hits, table[:-1], strict=True))


def test_find_demo_filters(library):
    db = sqlite3.connect(library)
    infos = {p: demo_info(db, p) for (p,) in db.execute("SELECT path FROM demos WHERE error IS NULL")}
    assert {h.path for h in find(db, Query(map="LQDM2"))} == {p for p, i in infos.items() if "lqdm2" in i["maps"]}
    assert {h.path for h in find(db, Query(game="quake2"))} == {p for p, i in infos.items() if i["game"] == "quake2"}
    assert [os.path.basename(h.path) for h in find(db, Query(date="2022-01"))] == [
        "2on2_sf_vs_red[frobodm2]220104-0915.mvd"]
    claire = {h.path for h in find(db, Query(player="CLAIRE"))}
    assert claire == {p for p, i in infos.items() if any("claire" in q["name"].lower() for q in i["players"])} != set()


def test_find_cli_json_and_table(library, capsys):
    assert main(["find", "--db", str(library), "--spree", "5", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert hits and all(h["play"].startswith("qdv play ") and f"--start {max(0, h['time'] - 2):.1f}" in h["play"]
                        for h in hits)
    assert main(["find", "--db", str(library), "--kind", "intermission"]) == 0
    out = capsys.readouterr().out
    assert "qdv play" in out and out.rstrip().endswith("matches")
    assert main(["find", "--db", str(library), "--kind", "nonsense"]) == 2
    (library.parent / "text.txt").write_text("not a database " * 100)
    assert main(["find", "--db", str(library.parent / "text.txt")]) == 2


def test_find_folder_indexes_it_first(tmp_path, capsys):
    assert main(["find", "--db", str(tmp_path / "lib.sqlite"), "--workers", "1", str(QUAKE2 / "demos"),
                 "--killer", "claire", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    expected = [e["time"] for e in _frags(events_list(load_demo(str(QUAKE2 / "demos" / "libq2-testduel.dm2"))))
                if e["killer"] == "claire"]
    assert [h["time"] for h in hits] == expected != []


def test_name_date():
    assert name_date("2on2_sf_vs_red[frobodm2]220104-0915.mvd") == "2022-01-04 09:15"
    assert name_date("pov-vs-x-aerowalk-2015_02_05-19_55_34.dm_90") == "2015-02-05 19:55:34"
    assert name_date("final-2021-13-40.dem") is None and name_date("2001_Duel2_Quakecon.dm_66") is None


# --- highlights -----------------------------------------------------------------------------------------------------


def test_highlights_render_each_hit_as_a_clip_and_join_them(tmp_path, capsys):
    import av

    demo = QUAKEWORLD / "lq_lqdm2_mvd.mvd"
    assert main(["find", "--db", str(tmp_path / "lib.sqlite"), "--workers", "1", str(demo), "--kind", "obituary",
                 "--json"]) == 0
    results = tmp_path / "hits.json"
    results.write_text(capsys.readouterr().out)
    hits = json.loads(results.read_text())
    deaths = [e["time"] for e in events_list(load_demo(str(demo))) if e["kind"] == "obituary"]
    assert [h["time"] for h in hits] == deaths and len(deaths) == 2
    hits[0]["player"], hits[1]["player"] = "LQ_Ranger", "nobody"   # a POV of the .mvd; no one (the demo's view)
    results.write_text(json.dumps(hits))
    out, reel = tmp_path / "clips", tmp_path / "reel.mp4"
    assert main(["render", "--highlights", str(results), "--out", str(out), "--size", "64x48", "--fps", "10",
                 "--lead-in", "1", "--lead-out", "0.5", "--concat", str(reel)]) == 0
    clips = sorted(out.glob("*.mp4"))
    assert [c.name.split("_")[0] for c in clips] == ["001", "002"]
    assert all("lq_lqdm2_mvd" in c.name and "suicides" in c.name for c in clips)
    frames = []
    for clip in [*clips, reel]:
        with av.open(str(clip)) as f:
            frames.append(sum(1 for _ in f.decode(video=0)))
    assert frames == [15, 15, 30]


def test_highlights_refuse_a_file_that_is_no_find_result(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"path": "x"}')
    assert main(["render", "--highlights", str(bad), "--out", str(tmp_path / "c")]) == 2
    bad.write_text('[{"path": "x.dem"}]')
    assert main(["render", "--highlights", str(bad), "--out", str(tmp_path / "c")]) == 2
    assert main(["render", "--out", str(tmp_path / "x.mp4")]) == 2
