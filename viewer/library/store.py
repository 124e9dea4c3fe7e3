"""The library's SQLite file: schema (``PRAGMA user_version``), writing a :class:`DemoRecord`, reading it back.

One row per file in ``demos`` (its facts, the ``qdv info --json`` dict as JSON, the ``qdv events --json`` list
packed by columns and compressed (:mod:`.event_blob`), or the decode ``error``); ``maps`` and ``players`` for the
demo filters; ``events`` holds the searchable events (:data:`INDEXED_KINDS`: deaths, chat, prints to the centre,
match ends, …) with the columns the searches use. The high-volume effect kinds (temp entities, sounds, muzzle
flashes) live only in the packed list, which keeps the file under 1 MB per demo-hour.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from assets_loader.demos.events import EVENT_KINDS

from .event_blob import pack_events, unpack_events
from .records import DemoRecord

__all__ = ["SCHEMA_VERSION", "INDEXED_KINDS", "default_db_path", "open_db", "write_record", "demo_info",
           "demo_events", "known_files", "remove_paths", "touch_path"]

SCHEMA_VERSION = 2      # 2: the events list packed by columns (event_blob), players' spectator flag

#: Event kinds kept out of the ``events`` table (they are in every demo by the thousand and carry no names).
_BULK_KINDS = frozenset({"temp_entity", "muzzleflash", "sound", "stopsound", "localsound", "particle", "kick",
                         "stufftext", "lightstyle", "damage", "bf", "cshift", "setinfo", "setangle", "setview",
                         "layout", "inventory", "fog", "skybox", "cdtrack", "print"})
INDEXED_KINDS = frozenset(EVENT_KINDS) - _BULK_KINDS

_SCHEMA = """
CREATE TABLE demos (
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, mtime REAL NOT NULL,
    hash TEXT NOT NULL, game TEXT, format TEXT, protocol INTEGER, maps TEXT, duration REAL, gametype TEXT,
    recorder TEXT, pov TEXT, date TEXT, info TEXT, events BLOB, error TEXT);
CREATE INDEX demos_hash ON demos(hash);
CREATE INDEX demos_game ON demos(game);
CREATE INDEX demos_date ON demos(date);
CREATE TABLE maps (demo INTEGER NOT NULL REFERENCES demos(id) ON DELETE CASCADE, segment INTEGER, name TEXT);
CREATE INDEX maps_name ON maps(name COLLATE NOCASE);
CREATE INDEX maps_demo ON maps(demo);
CREATE TABLE players (demo INTEGER NOT NULL REFERENCES demos(id) ON DELETE CASCADE, slot INTEGER, name TEXT,
    name_raw TEXT, team TEXT, score INTEGER, spectator INTEGER NOT NULL DEFAULT 0);
CREATE INDEX players_name ON players(name COLLATE NOCASE);
CREATE INDEX players_demo ON players(demo);
CREATE TABLE events (demo INTEGER NOT NULL REFERENCES demos(id) ON DELETE CASCADE, seq INTEGER, time REAL,
    kind TEXT, player TEXT, victim TEXT, weapon TEXT, text TEXT);
CREATE INDEX events_kind ON events(kind, demo);
CREATE INDEX events_demo ON events(demo);
"""


def default_db_path() -> Path:
    """``library.sqlite`` in the platform's user data folder for qdv."""
    from platformdirs import user_data_path

    return user_data_path("qdv", appauthor=False) / "library.sqlite"


def open_db(path: str | Path) -> sqlite3.Connection:
    """Open (creating) the library at ``path``; a file of another schema version is emptied and rebuilt (it is a
    cache of the demos)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(str(path))
    db.execute("PRAGMA foreign_keys = ON")
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version != SCHEMA_VERSION:
        for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
            db.execute(f'DROP TABLE "{name}"')
        db.executescript(_SCHEMA)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.commit()
    return db


def known_files(db: sqlite3.Connection) -> dict[str, tuple[int, float, str]]:
    """Every stored path → ``(size, mtime, hash)``."""
    return {path: (size, mtime, digest) for path, size, mtime, digest in
            db.execute("SELECT path, size, mtime, hash FROM demos")}


def touch_path(db: sqlite3.Connection, path: str, mtime: float) -> None:
    """A stored file whose content is unchanged got a new modification time."""
    db.execute("UPDATE demos SET mtime = ? WHERE path = ?", (mtime, path))


def remove_paths(db: sqlite3.Connection, paths: list[str]) -> None:
    db.executemany("DELETE FROM demos WHERE path = ?", [(p,) for p in paths])


def _event_columns(e: dict[str, Any]) -> tuple[str | None, str | None, str | None, str | None]:
    """``(player, victim, weapon, text)`` of an event for the searches: the killer or the chat's sender first."""
    kind = e["kind"]
    if kind == "obituary":
        return e["killer"], e["victim"], e["weapon"], e["text"]
    if kind == "chat":
        return e["sender"], None, None, e["text"]
    return None, None, None, e.get("text") if isinstance(e.get("text"), str) else None


def write_record(db: sqlite3.Connection, rec: DemoRecord) -> None:
    """Store ``rec``, replacing what was stored for its path."""
    db.execute("DELETE FROM demos WHERE path = ?", (rec.path,))
    info = rec.info
    cur = db.execute(
        "INSERT INTO demos (path, size, mtime, hash, game, format, protocol, maps, duration, gametype, recorder, pov,"
        " date, info, events, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (rec.path, rec.size, rec.mtime, rec.hash, info.get("game"), info.get("format"), info.get("protocol"),
         " ".join(info.get("maps", ())), info.get("duration"), rec.gametype, rec.recorder, rec.pov, rec.date,
         json.dumps(info, ensure_ascii=False) if info else None, None if rec.error else pack_events(rec.events),
         rec.error))
    demo = cur.lastrowid
    db.executemany("INSERT INTO maps VALUES (?, ?, ?)", [(demo, i, m) for i, m in enumerate(info.get("maps", ()))])
    db.executemany("INSERT INTO players VALUES (?, ?, ?, ?, ?, ?, ?)",
                   [(demo, p.slot, p.name, p.name_raw, p.team, p.score, p.spectator) for p in rec.players])
    db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   [(demo, seq, e["time"], e["kind"], *_event_columns(e))
                    for seq, e in enumerate(rec.events) if e["kind"] in INDEXED_KINDS])


def demo_info(db: sqlite3.Connection, path: str) -> dict[str, Any] | None:
    """The stored ``qdv info --json`` dict of ``path`` (``None``: not stored or did not decode)."""
    row = db.execute("SELECT info FROM demos WHERE path = ?", (path,)).fetchone()
    return json.loads(row[0]) if row and row[0] else None


def demo_events(db: sqlite3.Connection, path: str) -> list[dict[str, Any]]:
    """The stored ``qdv events --json`` list of ``path`` (empty: not stored or did not decode)."""
    row = db.execute("SELECT events FROM demos WHERE path = ?", (path,)).fetchone()
    return unpack_events(row[0]) if row and row[0] else []
