"""``qdv find``: the demos of the library that match a :class:`Query`, or the moments in them.

Demo filters (map, player, game, date, folder) narrow the demos by SQL on ``demos`` / ``maps`` / ``players``; the
event patterns then give one :class:`Hit` per moment: events of a kind, frags (``obituary`` events with a killer
other than the victim) by killer / victim / weapon, multi-kills (:func:`multi_kills`), sprees (:func:`sprees`) and
chat text. Each hit names the ``qdv play DEMO --start T`` command that opens it (:data:`LEAD_IN` seconds before).
"""

from __future__ import annotations

import os
import shlex
import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .event_blob import unpack_events
from .store import INDEXED_KINDS

__all__ = ["LEAD_IN", "Frag", "Hit", "Query", "find", "multi_kills", "sprees", "format_hits"]

#: Seconds before a moment that ``qdv play --start`` opens it at.
LEAD_IN = 2.0

#: SQL: column ``{}`` contains the parameter, ASCII case-insensitively (no LIKE wildcards: ``_`` is in names).
_CONTAINS = "instr(lower({}), lower(?)) > 0"


@dataclass(frozen=True, slots=True)
class Query:
    map: str | None = None          # a map name (case-insensitive)
    player: str | None = None       # a player of the demo (part of the clean name, case-insensitive)
    game: str | None = None         # quake, quakeworld, quake2, quake3
    date: str | None = None         # a prefix of the stored date: 2022, 2022-01, 2022-01-04
    under: tuple[str, ...] = ()     # demos under these absolute folders only
    kind: str | None = None         # any event kind
    killer: str | None = None
    victim: str | None = None
    weapon: str | None = None
    multi_kill: int | None = None
    within: float = 3.0
    spree: int | None = None
    text: str | None = None         # part of a chat line (or of the text of ``kind`` events)


@dataclass(frozen=True, slots=True)
class Hit:
    path: str
    time: float             # demo time (the base of ``qdv play --start``)
    end: float              # the last moment of the match (``time`` for one event)
    player: str | None
    match: str
    demo_duration: float = 0.0     # the whole demo's (clips end within it)

    @property
    def play(self) -> str:
        return f"qdv play {shlex.quote(self.path)} --start {max(0.0, self.time - LEAD_IN):.1f}"

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "play": self.play}


@dataclass(frozen=True, slots=True)
class Frag:
    """An ``obituary`` event: ``killer`` ``None`` for a death without a killer (world, suicide)."""

    path: str
    time: float
    killer: str | None
    victim: str | None
    weapon: str | None
    demo_duration: float = 0.0

    @property
    def is_frag(self) -> bool:
        return self.killer is not None and self.killer != self.victim


def multi_kills(frags: Sequence[Frag], n: int, within: float) -> list[Hit]:
    """Runs of at least ``n`` frags by one player, each within ``within`` seconds of the run's first; a frag counts
    in one run only (the earliest)."""
    by_player: dict[tuple[str, str], list[Frag]] = defaultdict(list)
    for f in frags:
        if f.is_frag:
            by_player[(f.path, f.killer or "")].append(f)
    hits = []
    for (path, killer), own in by_player.items():
        i = 0
        while i + n <= len(own):
            if own[i + n - 1].time - own[i].time > within:
                i += 1
                continue
            j = i + n
            while j < len(own) and own[j].time - own[i].time <= within:
                j += 1
            run = own[i:j]
            victims = ", ".join(f.victim or "?" for f in run)
            span = run[-1].time - run[0].time
            hits.append(Hit(path, run[0].time, run[-1].time, killer, f"{len(run)} frags in {span:.1f} s ({victims})",
                            run[0].demo_duration))
            i = j
    return sorted(hits, key=lambda h: (h.path, h.time))


def sprees(frags: Sequence[Frag], n: int) -> list[Hit]:
    """Runs of at least ``n`` frags by one player without dying in between (``frags`` in demo order: every death
    ends the victim's run; a run still going at the end of its demo counts)."""
    hits = []
    runs: dict[tuple[str, str], list[Frag]] = {}

    def close(key: tuple[str, str]) -> None:
        run = runs.pop(key, [])
        if len(run) >= n:
            hits.append(Hit(key[0], run[0].time, run[-1].time, key[1],
                            f"spree of {len(run)} frags in {run[-1].time - run[0].time:.1f} s", run[0].demo_duration))

    for f in frags:
        if f.victim is not None:
            close((f.path, f.victim))
        if f.is_frag:
            runs.setdefault((f.path, f.killer or ""), []).append(f)
    for key in list(runs):
        close(key)
    return sorted(hits, key=lambda h: (h.path, h.time))


def _demo_filter(q: Query) -> tuple[str, list[Any]]:
    """SQL condition on ``demos d`` and its parameters."""
    where: list[str] = ["d.error IS NULL"]
    args: list[Any] = []
    if q.map:
        where.append("EXISTS (SELECT 1 FROM maps m WHERE m.demo = d.id AND m.name = ? COLLATE NOCASE)")
        args.append(q.map)
    if q.player:
        where.append(f"EXISTS (SELECT 1 FROM players p WHERE p.demo = d.id AND {_CONTAINS.format('p.name')})")
        args.append(q.player)
    if q.game:
        where.append("d.game = ?")
        args.append(q.game)
    if q.date:
        where.append("substr(d.date, 1, ?) = ?")
        args += [len(q.date), q.date]
    if q.under:
        where.append("(" + " OR ".join("d.path = ? OR substr(d.path, 1, ?) = ?" for _ in q.under) + ")")
        for folder in q.under:
            prefix = os.path.join(folder, "")
            args += [folder, len(prefix), prefix]
    return " AND ".join(where), args


def _obituaries(db: sqlite3.Connection, q: Query, frags_only: bool) -> list[Frag]:
    """The ``obituary`` events of the demos ``q`` selects; with ``frags_only`` only frags, by ``q``'s killer,
    victim and weapon."""
    cond, args = _demo_filter(q)
    if frags_only:
        cond += " AND e.player IS NOT NULL AND e.player IS NOT e.victim"
        for column, value in (("e.player", q.killer), ("e.victim", q.victim)):
            if value:
                cond += " AND " + _CONTAINS.format(column)
                args.append(value)
        if q.weapon:
            cond += " AND e.weapon = ? COLLATE NOCASE"
            args.append(q.weapon)
    rows = db.execute("SELECT d.path, e.time, e.player, e.victim, e.weapon, d.duration FROM events e "
                      f"JOIN demos d ON d.id = e.demo WHERE e.kind = 'obituary' AND {cond} ORDER BY d.path, e.seq",
                      args)
    return [Frag(*row) for row in rows]


def _like(value: str | None, part: str | None) -> bool:
    return part is None or (value is not None and part.lower() in value.lower())


def _demo_hits(db: sqlite3.Connection, q: Query) -> list[Hit]:
    cond, args = _demo_filter(q)
    hits = []
    for demo, path, game, maps, duration, date in db.execute(
            f"SELECT d.id, d.path, d.game, d.maps, d.duration, d.date FROM demos d WHERE {cond} ORDER BY d.path",
            args).fetchall():
        players = db.execute("SELECT name, score FROM players WHERE demo = ? ORDER BY score DESC, slot",
                             (demo,)).fetchall()
        who = ", ".join(f"{name} {score}" for name, score in players)
        hits.append(Hit(path, 0.0, duration, None,
                        f"{game} {maps} {duration / 60:.1f} min{' ' + date if date else ''}: {who}", duration))
    return hits


def _event_hits(db: sqlite3.Connection, q: Query, kind: str) -> list[Hit]:
    cond, args = _demo_filter(q)
    if kind in INDEXED_KINDS:
        if q.text:
            cond += " AND " + _CONTAINS.format("e.text")
            args.append(q.text)
        rows = db.execute(
            "SELECT d.path, e.time, e.player, e.text, d.duration FROM events e JOIN demos d ON d.id = e.demo "
            f"WHERE e.kind = ? AND {cond} ORDER BY d.path, e.seq", [kind, *args])
        return [Hit(path, time, time, player, (body or kind).strip(), duration)
                for path, time, player, body, duration in rows]
    hits = []   # a bulk kind: read the demos' compressed event lists
    for path, blob, duration in db.execute(
            f"SELECT d.path, d.events, d.duration FROM demos d WHERE {cond} ORDER BY d.path", args):
        for e in unpack_events(blob):
            body = e.get("text") if isinstance(e.get("text"), str) else None
            if e["kind"] == kind and (q.text is None or _like(body, q.text)):
                hits.append(Hit(path, e["time"], e["time"], None, (body or kind).strip(), duration))
    return hits


def find(db: sqlite3.Connection, q: Query) -> list[Hit]:
    """The hits of ``q``: moments for an event pattern, else one per demo (time 0, what it is)."""
    if q.multi_kill is not None:
        return multi_kills(_obituaries(db, q, frags_only=True), q.multi_kill, q.within)
    if q.spree is not None:
        return [h for h in sprees(_obituaries(db, q, frags_only=False), q.spree) if _like(h.player, q.killer)]
    if q.killer or q.victim or q.weapon:
        return [Hit(f.path, f.time, f.time, f.killer, f"{f.killer} → {f.victim} ({f.weapon or '?'})", f.demo_duration)
                for f in _obituaries(db, q, frags_only=True)]
    if q.kind or q.text:
        return _event_hits(db, q, q.kind or "chat")
    return _demo_hits(db, q)


def _clock(seconds: float) -> str:
    return f"{int(seconds // 60)}:{seconds % 60:04.1f}"


def format_hits(hits: Sequence[Hit]) -> str:
    """A table: demo, time, player, what matched, and the command that opens it."""
    if not hits:
        return "no matches"
    lines = []
    for h in hits:
        lines.append(f"{h.path}  {_clock(h.time):>7}  {(h.player or '-')[:20]:<20}  {h.match[:70]:<70}  {h.play}")
    lines.append(f"{len(hits)} matches")
    return "\n".join(lines)
