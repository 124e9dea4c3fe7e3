"""What the window's library browser reads of the library: one :class:`DemoRow` per stored demo
(:func:`demo_rows`), the search box's text as a :class:`~.find.Query` (:func:`parse_search`), and the indexing of a
folder in a child process (:class:`FolderIndexing`) while the window stays responsive.

The searches themselves are :func:`.find.find`'s: the browser runs the same query code as ``qdv find``.
"""

from __future__ import annotations

import os
import shlex
import sqlite3
import subprocess
import sys
import tempfile
from dataclasses import dataclass, fields
from pathlib import Path

from .find import Query
from .index import demo_paths

__all__ = ["DemoRow", "FolderIndexing", "SEARCH_KEYS", "demo_rows", "parse_search"]


@dataclass(frozen=True, slots=True)
class DemoRow:
    """A stored demo as the browser lists it: ``players`` by score (highest first) with their ``scores``, the
    spectators left out (a following spectator shows the score of whom it follows) unless no one else is there;
    ``error`` the one-line decode error of a demo that did not decode (its other fields empty)."""

    path: str
    game: str
    map: str
    players: tuple[str, ...]
    scores: tuple[int, ...]
    duration: float
    date: str
    error: str | None = None

    @property
    def name(self) -> str:
        return os.path.basename(self.path)


def _under(folder: str) -> tuple[str, list[str | int]]:
    prefix = os.path.join(folder, "")
    return "(path = ? OR substr(path, 1, ?) = ?)", [folder, len(prefix), prefix]


def demo_rows(db: sqlite3.Connection, folder: str | Path | None = None) -> list[DemoRow]:
    """The demos stored under ``folder`` (resolved, recursively), or the whole library for ``None``, by path."""
    cond, args = ("1", []) if folder is None else _under(str(Path(folder).resolve()))
    players: dict[int, list[tuple[str, int]]] = {}
    played: set[int] = set()        # demos with a player who is no spectator (they come first)
    for demo, name, score, spectator in db.execute(
            f"SELECT p.demo, p.name, p.score, p.spectator FROM players p JOIN demos d ON d.id = p.demo WHERE {cond} "
            "ORDER BY p.demo, p.spectator, p.score DESC, p.slot", args):
        if not spectator:
            played.add(demo)
        elif demo in played:
            continue
        players.setdefault(demo, []).append((name, score))
    rows = []
    for demo, path, game, maps, duration, date, error in db.execute(
            f"SELECT id, path, game, maps, duration, date, error FROM demos WHERE {cond} ORDER BY path", args):
        own = players.get(demo, [])
        rows.append(DemoRow(path, game or "", maps or "", tuple(n for n, _ in own), tuple(s for _, s in own),
                            duration or 0.0, date or "", error))
    return rows


#: The search box's ``key:value`` words (the ``qdv find`` options); other words are chat text.
SEARCH_KEYS = {"map": "map", "player": "player", "game": "game", "date": "date", "kind": "kind", "killer": "killer",
               "victim": "victim", "weapon": "weapon", "multi": "multi_kill", "multi-kill": "multi_kill",
               "within": "within", "spree": "spree", "text": "text"}
_NUMBERS = {"multi_kill": int, "spree": int, "within": float}


def parse_search(text: str, folder: str | Path | None = None) -> Query:
    """The search box's text → a :class:`Query` over the demos under ``folder`` (``None``: the library): words
    ``key:value`` (:data:`SEARCH_KEYS`, e.g. ``killer:Timber weapon:rocket``, ``multi:3 within:5``, ``spree:5``,
    ``kind:obituary``; quotes keep spaces in a value) and plain words, which search chat text. ``ValueError`` for
    an unknown key or a number that is none."""
    try:
        words = shlex.split(text)
    except ValueError:      # an unclosed quote: take the words as they are
        words = text.split()
    values: dict[str, object] = {}
    plain = []
    for word in words:
        key, sep, value = word.partition(":")
        if not sep:
            plain.append(word)
            continue
        field = SEARCH_KEYS.get(key.lower())
        if field is None:
            raise ValueError(f"unknown search word {key!r}: use {', '.join(sorted(SEARCH_KEYS))}")
        try:
            values[field] = _NUMBERS[field](value) if field in _NUMBERS else value
        except ValueError:
            raise ValueError(f"{key}: expected a number, got {value!r}") from None
    if plain:
        values["text"] = " ".join([str(values["text"])] + plain if "text" in values else plain)
    if folder is not None:
        values["under"] = (str(Path(folder).resolve()),)
    known = {f.name for f in fields(Query)}
    return Query(**{k: v for k, v in values.items() if k in known})   # type: ignore[arg-type]


class FolderIndexing:
    """``qdv index --db DB FOLDER`` running in a child process (decoding uses processes of its own, which a window
    with threads and a GL context must not fork); :meth:`progress` reads from the database how far it got."""

    def __init__(self, db_path: str | Path, folder: str | Path, workers: int | None = None) -> None:
        self.folder = Path(folder).resolve()
        self.total = len(demo_paths([self.folder]))
        command = [sys.executable, "-m", "viewer.cli", "index", "--db", str(Path(db_path).resolve()), str(self.folder)]
        if workers is not None:
            command += ["--workers", str(workers)]
        self._err = tempfile.TemporaryFile()    # the progress bar and any error (a pipe could fill and block it)
        self._proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self._err,
                                      cwd=Path(__file__).resolve().parents[2])

    @property
    def running(self) -> bool:
        return self._proc.poll() is None

    @property
    def failure(self) -> str | None:
        """The child's last line of error output when it ended with an error, else ``None``."""
        if self.running or self._proc.returncode == 0:
            return None
        self._err.seek(0)
        lines = self._err.read().decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else f"qdv index ended with status {self._proc.returncode}"

    def progress(self, db: sqlite3.Connection) -> str:
        """``indexing DIR: N of M demos, E errors`` from the rows stored so far."""
        cond, args = _under(str(self.folder))
        done, errors = db.execute(f"SELECT COUNT(*), COUNT(error) FROM demos WHERE {cond}", args).fetchone()
        return f"indexing {self.folder.name}: {min(done, self.total)} of {self.total} demos, {errors} errors"

    def stop(self) -> None:
        if self.running:
            self._proc.terminate()
            self._proc.wait()
        self._err.close()
