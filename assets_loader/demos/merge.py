"""Several client demos of one match as one timeline (``qdv play A --merge B``): A's timeline, plus for each other
demo's recorder that player's exact view (origin, view angles, stats) as a pov slot, and the server-wide events
(obituaries, chat to all) A missed.

One match.  The demos must be of one game family and one map, recorded on one server at overlapping times:

* the clock: Quake III snapshots carry the server's ``serverTime`` (ms), Quake II frames the ``serverframe``
  (1/10 s), NetQuake ``svc_time`` the server's ``sv.time``: samples of the same server time are the same server
  frame.  QuakeWorld demos keep no server clock (a ``.qwd``'s times are the client's, an ``.mvd``'s the recording's),
  so their clocks are lined up by content: the shift that puts the players both demos see in the same places
  (:func:`_content_shift`);
* the server: Quake III serverinfo keys that name the server and the level's start (:data:`IDENTITY_KEYS`) must be
  equal where both demos have them;
* the players: a player both demos see must be in the same place at the same server time (median distance at most
  :data:`MAX_APART` units) — two matches of one map on one server clock (a later restart) differ here.

Anything else is a :class:`MergeError` whose message names both files and what differed.

Merging.  A's frames, entities, scoreboard and clock stay as they are (shared, not copied:
:meth:`~.timeline.DemoTimeline.replaced`).  For every slot the other demo holds an exact view of (its recorder; the
players a Quake III spectator followed, while followed; every player of an MVD) that A does not, the slot's rows at
A's frames are the other demo's samples at the same server time — interpolated between its two samples around it
like ``sample`` does (origin lerped unless it jumped, angles on the shortest arc, stats and pose of the newer) —
and its stats are that player's, so ``sample(t, pov=slot)`` gives that player's own eye and HUD numbers.  A's frames
outside the other demo keep A's view of the player (derived from its entity).  The other demo's samples between
two of A's frames are not kept (A's frames are the timeline).  Entities only the other demo saw (outside A's PVS)
are not added.

References: ioquake3 ``code/server/sv_snapshot.c`` (``SV_SendClientSnapshot``: ``serverTime`` = ``sv.time``),
``code/game/bg_misc.c`` (``BG_PlayerStateToEntityState``); Quake II ``sv_ents.c`` (``SV_WriteFrameToClient``:
``sv.framenum``); QuakeSpasm ``sv_main.c`` (``SV_WriteClientdataToMessage``: ``svc_time`` ``sv.time``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from .events import Event
from .schema import view_height
from .timeline import DemoTimeline, PlayerFrames

__all__ = ["MergeError", "load_merged", "merge_timelines", "players_apart", "server_clock", "IDENTITY_KEYS",
           "MAX_APART", "MERGED_EVENT_KINDS"]

#: Quake III serverinfo keys that are equal in every client demo of one server and level.
IDENTITY_KEYS = ("sv_hostname", "version", "gameversion", "g_timestamp", "mapname")
#: Units: a player both demos see may be this far apart at the same server time (median) in one match.
MAX_APART = 32.0
#: Seconds: two samples further apart than this are not interpolated across (a death, a dropped stretch).
MAX_GAP = 0.25
#: The events every client of the server gets (not prints: a client demo does not say whether a print was for
#: everyone or for its recorder): taken from the other demos when A does not have them, except team chat and
#: messages addressed to some players (an MVD's ``to``).
MERGED_EVENT_KINDS = ("obituary", "chat")
#: Seconds within which two events of the same kind and text are one server event.
SAME_EVENT_SECONDS = 0.5
_EXACT = 1e-6


class MergeError(ValueError):
    """Demos that cannot be merged: not one match (the message names both files and what differed)."""


@dataclasses.dataclass(frozen=True, slots=True)
class _Rows:
    """One slot's samples: frames of their timeline, origin / angles f4 [R, 3], ints [R, 6], stats [R, S]."""

    slot: int
    frames: np.ndarray
    origin: np.ndarray
    angles: np.ndarray
    ints: np.ndarray
    stats: np.ndarray


def load_merged(path: str, others: Sequence[str] = ()) -> DemoTimeline:
    """The demo at ``path`` merged with the demos at ``others`` (``--merge``; :func:`merge_timelines`).  A file that
    is no demo raises ``FormatError`` / ``OSError`` as :func:`~.detect.load_demo` does."""
    from .detect import load_demo

    base = load_demo(path)
    return merge_timelines(base, [load_demo(other) for other in others]) if others else base


def server_clock(timeline: DemoTimeline) -> np.ndarray | None:
    """f8 [F]: the server's clock in seconds at each frame, or ``None`` when the demo keeps none (QuakeWorld)."""
    if timeline.game == "quakeworld":
        return None
    if timeline.game == "quake3":
        return np.asarray(timeline.server_times) / 1000.0
    return np.asarray(timeline.server_times)


def merge_timelines(base: DemoTimeline, others: Sequence[DemoTimeline]) -> DemoTimeline:
    """``base`` with the exact views and server events of ``others`` (rules: module docstring); ``base`` itself
    without others.  ``MergeError`` when one of them is not of the same match."""
    if not others:
        return base
    players = base.players
    events = list(base.events)
    merged: list[dict[str, object]] = []
    for other in others:
        clock_a, clock_b = _clocks(base, other)
        shift = _check_one_match(base, clock_a, other, clock_b)
        added = [rows for rows in (_at_frames(base, clock_a, other, clock_b + shift, r) for r in _exact_rows(other))
                 if len(rows.frames) and not _exact_in(players, rows.slot)]
        players = _with_rows(base, players, added)
        events += _new_events(base, clock_a, events, other, clock_b + shift)
        merged.append({"path": other.path, "slots": tuple(r.slot for r in added), "shift": round(shift, 4)})
    meta = dict(base.meta)
    meta["merged"] = tuple(merged)
    return base.replaced(players=players, events=events, meta=meta)


def _exact_in(players: PlayerFrames | None, slot: int) -> bool:
    """Whether ``players`` hold an exact view of ``slot`` already: stats for it, or it is the recorder of a demo
    whose other players come from entities (its own view is exact: :func:`.entity_eyes.exact_recorder`)."""
    if players is None or slot >= players.num_slots:
        return False
    return bool(players.has_stats[slot]) or (players.from_entities and slot == players.recorder)


# --- one match? ---------------------------------------------------------------------------------------------------

def _names(a: DemoTimeline, b: DemoTimeline) -> str:
    return f"{Path(a.path).name} and {Path(b.path).name}"


def _clocks(a: DemoTimeline, b: DemoTimeline) -> tuple[np.ndarray, np.ndarray]:
    """The two demos' clocks (a demo's own times where it keeps no server clock), after the family check."""
    if a.game != b.game:
        raise MergeError(f"cannot merge {_names(a, b)}: {Path(a.path).name} is a {a.game} demo ({a.format}), "
                         f"{Path(b.path).name} a {b.game} demo ({b.format})")
    common = set(a.maps) & set(b.maps)
    if not common:
        raise MergeError(f"cannot merge {_names(a, b)}: not the same map ({', '.join(a.maps)} vs "
                         f"{', '.join(b.maps)})")
    clock_a, clock_b = server_clock(a), server_clock(b)
    if clock_a is None or clock_b is None:
        return np.asarray(a.times), np.asarray(b.times)
    return clock_a, clock_b


def _check_one_match(a: DemoTimeline, clock_a: np.ndarray, b: DemoTimeline, clock_b: np.ndarray) -> float:
    """The shift from ``b``'s clock to ``a``'s (0 with a server clock), after checking the demos are one match."""
    names = _names(a, b)
    info_a, info_b = a.meta.get("serverinfo"), b.meta.get("serverinfo")
    if a.game == "quake3" and isinstance(info_a, dict) and isinstance(info_b, dict):
        for key in IDENTITY_KEYS:
            if key in info_a and key in info_b and info_a[key] != info_b[key]:
                raise MergeError(f"cannot merge {names}: not one match: the serverinfo differs ({key} "
                                 f"{info_a[key]!r} vs {info_b[key]!r})")
    if server_clock(a) is None:
        return _content_shift(a, clock_a, b, clock_b)
    if not _overlap(a, clock_a, b, clock_b):
        span_a, span_b = _span(a, clock_a), _span(b, clock_b)
        raise MergeError(f"cannot merge {names}: their server times do not overlap ({span_a} vs {span_b})")
    apart, count = _Tracks(a, clock_a, b, clock_b).apart(0.0)
    if count and apart > MAX_APART:
        raise MergeError(f"cannot merge {names}: not one match: the players both demos show are {apart:.0f} units "
                         f"apart at the same server time (median of {count} samples; one match: at most "
                         f"{MAX_APART:.0f})")
    return 0.0


def players_apart(a: DemoTimeline, b: DemoTimeline, shift: float = 0.0) -> tuple[float, int]:
    """(median distance in units, samples): how far apart the players both demos show are at the same time, ``b``'s
    clock shifted by ``shift`` seconds (server clocks; a QuakeWorld demo's own times)."""
    clock_a, clock_b = server_clock(a), server_clock(b)
    if clock_a is None or clock_b is None:
        clock_a, clock_b = np.asarray(a.times), np.asarray(b.times)
    return _Tracks(a, clock_a, b, clock_b).apart(shift)


def _span(tl: DemoTimeline, clock: np.ndarray) -> str:
    return f"{tl.maps[0] if len(tl.maps) == 1 else 'maps'} {clock.min():.2f}..{clock.max():.2f} s"


def _segment_frames(tl: DemoTimeline, map_name: str) -> np.ndarray:
    """The frames of ``tl``'s segments of map ``map_name``."""
    segments = [s.index for s in tl.segments if s.map_name == map_name]
    return np.flatnonzero(np.isin(tl.frame_segment, segments))


def _overlap(a: DemoTimeline, clock_a: np.ndarray, b: DemoTimeline, clock_b: np.ndarray) -> bool:
    """Whether the demos share a stretch of server time on one map."""
    for name in set(a.maps) & set(b.maps):
        fa, fb = _segment_frames(a, name), _segment_frames(b, name)
        if len(fa) and len(fb) and max(clock_a[fa].min(), clock_b[fb].min()) <= min(clock_a[fa].max(),
                                                                                     clock_b[fb].max()):
            return True
    return False


def _player_tracks(tl: DemoTimeline, clock: np.ndarray) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per slot seen: (clock f8 [R], origin f8 [R, 3], segment i4 [R]) of all its rows, sorted by clock."""
    pl = tl.players
    if pl is None:
        return {}
    out = {}
    for slot in pl.seen_slots().tolist():
        a, b = int(pl.slot_start[slot]), int(pl.slot_start[slot + 1])
        frames = pl.row_frame[a:b]
        order = np.argsort(clock[frames], kind="stable")
        out[slot] = (clock[frames][order], pl.row_origin[a:b][order].astype(np.float64),
                     tl.frame_segment[frames][order])
    return out


class _Tracks:
    """The players of two demos for comparing where they are (:meth:`apart`)."""

    def __init__(self, a: DemoTimeline, clock_a: np.ndarray, b: DemoTimeline, clock_b: np.ndarray) -> None:
        self.a, self.b = _player_tracks(a, clock_a), _player_tracks(b, clock_b)
        self.slots = sorted(self.a.keys() & self.b.keys())
        self.maps_a = np.array([s.map_name for s in a.segments])
        self.maps_b = np.array([s.map_name for s in b.segments])

    def apart(self, shift: float, stride: int = 1) -> tuple[float, int]:
        """(median distance, samples): how far apart the players both demos show are at the same time (``b``'s
        clock shifted by ``shift``; every ``stride``-th of ``a``'s rows), over samples of one map."""
        distances = []
        for slot in self.slots:
            ta, oa, sa = (v[::stride] for v in self.a[slot])
            tb, ob, sb = self.b[slot]
            value, ok = _interpolate(tb + shift, ob, ta)
            hi = np.minimum(np.searchsorted(tb + shift, ta), len(tb) - 1)
            ok &= self.maps_a[sa] == self.maps_b[sb[hi]]
            distances.append(np.linalg.norm(value[ok] - oa[ok], axis=1))
        d = np.concatenate(distances) if distances else np.zeros(0)
        return (float(np.median(d)), len(d)) if len(d) else (0.0, 0)


def _content_shift(a: DemoTimeline, clock_a: np.ndarray, b: DemoTimeline, clock_b: np.ndarray) -> float:
    """The shift of ``b``'s clock that puts the players both demos show in the same places (QuakeWorld): the best
    of a 1 s search over every shift that overlaps the demos, refined to 50 ms then 2 ms; ``MergeError`` when no
    shift puts them within :data:`MAX_APART` units."""
    names = _names(a, b)
    tracks = _Tracks(a, clock_a, b, clock_b)
    if not tracks.slots:
        raise MergeError(f"cannot merge {names}: {a.format} demos keep no server clock and they show no player in "
                         "common to line them up by")
    stride = max(1, len(clock_a) // 400)
    lo, hi = clock_a.min() - clock_b.max(), clock_a.max() - clock_b.min()

    def best(candidates: np.ndarray) -> tuple[float, float]:
        scores = [(tracks.apart(float(s), stride), float(s)) for s in candidates]
        (apart, _count), shift = min(((r, s) for r, s in scores if r[1] >= 20), default=((np.inf, 0), 0.0))
        return apart, shift

    _, shift = best(np.arange(lo, hi, 1.0))
    _, shift = best(np.arange(shift - 1.0, shift + 1.0, 0.05))
    apart, shift = best(np.arange(shift - 0.05, shift + 0.05, 0.002))
    if not apart <= MAX_APART:
        raise MergeError(f"cannot merge {names}: {a.format} demos keep no server clock and no time shift puts their "
                         f"players in the same places (best: {apart:.0f} units apart) — not one match")
    return shift


# --- the other demo's exact views at A's frames -----------------------------------------------------------------

def _interpolate(clock: np.ndarray, values: np.ndarray, at: np.ndarray, teleport: float = np.inf,
                 angles: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(values [N, ...] at times ``at``, valid bool [N]): linear between the samples around each time (sorted
    ``clock``; ``angles``: on the shortest arc), the newer one where they are more than ``teleport`` apart or one
    is at that time; valid where a sample is at that time or the two around it are at most :data:`MAX_GAP`
    apart."""
    n = len(clock)
    if not n:
        return np.zeros((len(at),) + values.shape[1:]), np.zeros(len(at), bool)
    hi = np.minimum(np.searchsorted(clock, at - _EXACT), n - 1)
    lo = np.maximum(hi - 1, 0)
    exact = np.abs(clock[hi] - at) <= _EXACT
    span = clock[hi] - clock[lo]
    ok = exact | ((lo < hi) & (clock[lo] <= at) & (at <= clock[hi]) & (span <= MAX_GAP))
    frac = np.where(exact | (span <= 0), 1.0, (at - clock[lo]) / np.where(span > 0, span, 1.0))
    v0, v1 = values[lo].astype(np.float64), values[hi].astype(np.float64)
    d = v1 - v0
    if angles:
        d = (d + 180.0) % 360.0 - 180.0
    shape = (-1,) + (1,) * (values.ndim - 1)
    out = np.where(frac.reshape(shape) >= 1.0, v1, v0 + frac.reshape(shape) * d)
    jump = (np.abs(v1 - v0) > teleport).reshape(len(at), -1).any(axis=1)
    out[jump] = v1[jump]
    return out, ok


def _exact_rows(tl: DemoTimeline) -> list[_Rows]:
    """The samples of every slot ``tl`` has an exact view of: a slot with stats while the view is that slot (the
    recorder; a followed player), every slot with stats of a multi-view demo (MVD); where the players come from
    entities (NetQuake, Quake II), the recorder's own view."""
    pl = tl.players
    if pl is None:
        return []
    viewed = tl.view_entity - tl.schema.client_entity_offset
    names = tl.schema.stat_names
    if pl.from_entities:
        frames = np.flatnonzero(viewed == pl.recorder) if pl.recorder >= 0 else np.zeros(0, np.int64)
        stats = np.stack([tl.stats[n] for n in names], axis=1)[frames] if names else np.zeros((len(frames), 0))
        vh = stats[:, names.index("viewheight")] if "viewheight" in names else np.zeros(len(frames))
        origin = tl.view_origin[frames]
        origin[:, 2] -= [view_height(0, int(v), tl.schema.view_height) for v in vh]
        ints = np.zeros((len(frames), 6), np.int32)
        return [_Rows(pl.recorder, frames, origin.astype(np.float32), tl.view_angles[frames].astype(np.float32),
                      ints, stats.astype(np.int32))]
    out = []
    for slot in np.flatnonzero(pl.has_stats).tolist():
        a, b = int(pl.slot_start[slot]), int(pl.slot_start[slot + 1])
        frames = pl.row_frame[a:b]
        keep = np.flatnonzero(np.ones(len(frames), bool) if pl.recorder < 0 else viewed[frames] == slot)
        frames = frames[keep]
        out.append(_Rows(slot, frames, pl.row_origin[a + keep], pl.row_angles[a + keep], pl.row_ints[a + keep],
                         pl.slot_stats(slot)[frames]))
    return out


def _at_frames(a: DemoTimeline, clock_a: np.ndarray, b: DemoTimeline, clock_b: np.ndarray, rows: _Rows) -> _Rows:
    """``rows`` of ``b`` at ``a``'s frames of the same map and server time (``clock_b`` already on ``a``'s clock)."""
    parts: list[tuple[np.ndarray, ...]] = []
    teleport = a.schema.teleport_distance
    row_maps = np.array([s.map_name for s in b.segments])[b.frame_segment[rows.frames]]
    for name in dict.fromkeys(a.maps):
        mine = np.flatnonzero(row_maps == name)
        frames = _segment_frames(a, name)
        if not len(mine) or not len(frames):
            continue
        order = mine[np.argsort(clock_b[rows.frames[mine]], kind="stable")]
        clock = clock_b[rows.frames[order]]
        at = clock_a[frames]
        origin, ok = _interpolate(clock, rows.origin[order], at, teleport)
        angles, _ok = _interpolate(clock, rows.angles[order], at, angles=True)
        hi = np.minimum(np.searchsorted(clock, at - _EXACT), len(clock) - 1)
        parts.append((frames[ok], origin[ok], angles[ok], rows.ints[order][hi[ok]], rows.stats[order][hi[ok]]))
    if not parts:
        return _Rows(rows.slot, np.zeros(0, np.int64), *(np.zeros((0,) + x.shape[1:], x.dtype) for x in
                                                          (rows.origin, rows.angles, rows.ints, rows.stats)))
    frames, origin, angles, ints, stats = (np.concatenate(p) for p in zip(*parts))
    return _Rows(rows.slot, frames, origin.astype(np.float32), angles.astype(np.float32), ints, stats)


def _with_rows(a: DemoTimeline, players: PlayerFrames | None, added: list[_Rows]) -> PlayerFrames | None:
    """``players`` (of ``a``) with each of ``added``'s slots given those rows at their frames (A's own rows of the
    slot kept at the other frames) and those stats."""
    if not added:
        return players
    stat_count = len(a.schema.stat_names)
    nslots = max([players.num_slots if players is not None else 0] + [r.slot + 1 for r in added])
    by_slot = {r.slot: r for r in added}
    rows: list[tuple[np.ndarray, ...]] = []
    stats: list[tuple[np.ndarray, np.ndarray]] = []
    has_stats = np.zeros(nslots, bool)
    for slot in range(nslots):
        own = players is not None and slot < players.num_slots
        if own:
            assert players is not None
            r0, r1 = int(players.slot_start[slot]), int(players.slot_start[slot + 1])
            s0, s1 = int(players.stat_start[slot]), int(players.stat_start[slot + 1])
            mine = (players.row_frame[r0:r1], players.row_origin[r0:r1], players.row_angles[r0:r1],
                    players.row_ints[r0:r1])
            has_stats[slot] = players.has_stats[slot]
        if slot not in by_slot:
            if own:
                rows.append(mine)
                stats.append((players.stat_frame[s0:s1], players.stat_values[s0:s1]))   # type: ignore[union-attr]
            continue
        new = by_slot[slot]
        if own:
            kept = ~np.isin(mine[0], new.frames)
            frames = np.concatenate([mine[0][kept], new.frames])
            order = np.argsort(frames, kind="stable")
            rows.append(tuple(np.concatenate([m[kept], n])[order] for m, n in
                              zip(mine, (new.frames, new.origin, new.angles, new.ints))))
        else:
            rows.append((new.frames, new.origin, new.angles, new.ints))
        change = np.ones(len(new.frames), bool)
        change[1:] = (new.stats[1:] != new.stats[:-1]).any(axis=1)
        stats.append((new.frames[change], new.stats[change]))
        has_stats[slot] = True
    counts = [len(r[0]) for r in rows]
    stat_counts = [len(s[0]) for s in stats]
    return PlayerFrames(
        num_frames=a.num_frames, slot_start=np.concatenate([[0], np.cumsum(counts)]).astype(np.int64),
        row_frame=np.concatenate([r[0] for r in rows]).astype(np.int32),
        row_origin=np.concatenate([r[1] for r in rows]).astype(np.float32),
        row_angles=np.concatenate([r[2] for r in rows]).astype(np.float32),
        row_ints=np.concatenate([np.asarray(r[3], np.int32) for r in rows]).reshape(-1, 6),
        stat_start=np.concatenate([[0], np.cumsum(stat_counts)]).astype(np.int64),
        stat_frame=np.concatenate([s[0] for s in stats]).astype(np.int32),
        stat_values=np.concatenate([np.asarray(s[1], np.int32) for s in stats]).reshape(-1, stat_count),
        has_stats=has_stats, recorder=players.recorder if players is not None else -1,
        from_entities=players.from_entities if players is not None else False)


# --- events ---------------------------------------------------------------------------------------------------------

def _new_events(a: DemoTimeline, clock_a: np.ndarray, have: Sequence[Event], b: DemoTimeline, clock_b: np.ndarray
                ) -> list[Event]:
    """``b``'s server-wide events (:data:`MERGED_EVENT_KINDS`) that ``have`` lacks, on ``a``'s clock and frames."""
    seen: dict[tuple[str, str], list[float]] = {}
    for e in have:
        if e.kind in MERGED_EVENT_KINDS:
            seen.setdefault((e.kind, str(getattr(e, "text", ""))), []).append(e.time)
    maps_b = [s.map_name for s in b.segments]
    frames_of = {name: _segment_frames(a, name) for name in dict.fromkeys(a.maps)}
    out: list[Event] = []
    for e in b.events:
        if (e.kind not in MERGED_EVENT_KINDS or not 0 <= e.frame < b.num_frames or getattr(e, "to", None) is not None
                or getattr(e, "team", False)):
            continue
        frames = frames_of.get(maps_b[e.segment] if 0 <= e.segment < len(maps_b) else "")
        if frames is None or not len(frames):
            continue
        clock = clock_b[e.frame] + (e.time - b.times[e.frame])
        at = clock_a[frames]
        if not at.min() - MAX_GAP <= clock <= at.max() + MAX_GAP:
            continue
        frame = int(frames[min(int(np.searchsorted(at, clock - _EXACT)), len(frames) - 1)])
        time = float(clock + (a.times[frame] - clock_a[frame]))
        key = (e.kind, str(getattr(e, "text", "")))
        if any(abs(time - t) <= SAME_EVENT_SECONDS for t in seen.get(key, ())):
            continue
        seen.setdefault(key, []).append(time)
        out.append(dataclasses.replace(e, time=time, frame=frame, segment=int(a.frame_segment[frame])))
    return out
