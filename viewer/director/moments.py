"""What a demo tells the director: its frags with the killer's and victim's player slots, and on a grid of times
(:class:`Signals`) which players are in view, who carries a powerup and each player's frags.

Frags are the ``obituary`` events with a killer other than the victim (as ``qdv find`` counts them); the names are
resolved to slots through the scoreboard of the frag's map (``svc_updatename``, ``CS_PLAYERS``), compared without
colour codes.  A player is in view at a time when the demo has a row of them (:attr:`~assets_loader.demos.timeline.
PlayerFrames.row_frame`) within :data:`SEEN_WITHIN` seconds: MVDs have every player all the time, a Quake III demo only
those its snapshots carry.  Powerups are read from what each game sends about a player: Quake / QuakeWorld the glow
effects (``EF_DIMLIGHT``, KTX's ``EF_BLUE`` quad / ``EF_RED`` pentagram) and the ring's ``progs/eyes.mdl``, Quake II
``EF_QUAD`` / ``EF_PENT`` / ``EF_DOUBLE`` / the CTF flags, Quake III the player entity's ``powerups`` bits
(``PW_*``, flags included).

References: id QuakeC ``client.qc`` ``CheckPowerups`` (``EF_DIMLIGHT``, ``progs/eyes.mdl``), KTX ``client.c``
(``EF_BLUE`` / ``EF_RED``), Quake II ``g_player.c`` / ``p_view.c`` ``G_SetClientEffects``, ioquake3
``bg_public.h`` ``powerup_t``, ``BG_PlayerStateToEntityState``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from assets_loader.demos import DemoTimeline
from assets_loader.demos.events import ObituaryEvent, plain_line
from assets_loader.demos.quake2 import protocol as q2
from assets_loader.demos.quake3 import game as q3
from assets_loader.demos.quakeworld import protocol as qw

__all__ = ["Frag", "Signals", "MAX_TICKS", "SEEN_WITHIN", "TICK", "frags_of", "signals_of", "slot_names"]

#: Seconds between the times the signals are read at.
TICK = 0.1
#: At most this many times (a demo longer than 5.5 hours, or whose clock jumps by years, is read more coarsely).
MAX_TICKS = 200_000
#: A player is in view at ``t`` when the demo has a row of them this close to ``t``.
SEEN_WITHIN = 0.25
#: A pseudo bit for Quake's ring of shadows (the player is drawn as ``progs/eyes.mdl``).
_RING = 1 << 30
#: Per game: (bits, name) of the powerups a caster watches, first match names a player's.
POWERUPS: dict[str, tuple[tuple[int, str], ...]] = {
    "quake": ((qw.EF_BLUE, "quad"), (qw.EF_RED, "pentagram"), (qw.EF_DIMLIGHT, "quad or pentagram"),
              (_RING, "ring")),
    "quake2": ((q2.EF_QUAD, "quad"), (q2.EF_PENT, "invulnerability"), (q2.EF_DOUBLE, "double damage"),
               (q2.EF_FLAG1 | q2.EF_FLAG2, "flag")),
    "quake3": (((1 << q3.PW_REDFLAG) | (1 << q3.PW_BLUEFLAG) | (1 << q3.PW_NEUTRALFLAG), "flag"),
               (1 << q3.PW_QUAD, "quad"), (1 << q3.PW_BATTLESUIT, "battle suit"), (1 << q3.PW_HASTE, "haste"),
               (1 << q3.PW_INVIS, "invisibility"), (1 << q3.PW_REGEN, "regeneration"), (1 << q3.PW_FLIGHT, "flight")),
}
POWERUPS["quakeworld"] = POWERUPS["quake"]


@dataclass(frozen=True, slots=True)
class Frag:
    """One frag: at ``time`` (timeline seconds) in map ``segment``, ``killer`` fragged ``victim`` (plain names) with
    ``weapon``; ``killer_slot`` / ``victim_slot`` their scoreboard slots (``None``: no player of that name)."""

    time: float
    segment: int
    killer: str
    victim: str
    weapon: str | None
    killer_slot: int | None
    victim_slot: int | None


@dataclass(frozen=True, slots=True)
class Signals:
    """The facts at ``ticks`` (f8 [T], every ``step`` s: :data:`TICK` or more) for player ``slots`` (columns):
    ``present`` bool [T, P] (in view), ``powerup`` i4 [T, P] (0: none, else 1 + the index of its name in
    ``powerup_names``), ``frags`` i4 [T, P] (the scoreboard's of the tick's map)."""

    ticks: np.ndarray
    step: float
    slots: tuple[int, ...]
    present: np.ndarray
    powerup: np.ndarray
    powerup_names: tuple[str, ...]
    frags: np.ndarray

    def index(self, t: float) -> int:
        """The tick at or just before ``t`` (clamped)."""
        return min(max(int(np.searchsorted(self.ticks, t + 1e-9, side="right")) - 1, 0), len(self.ticks) - 1)

    def span(self, a: float, b: float) -> slice:
        """The ticks from ``a`` through ``b``."""
        return slice(self.index(a), self.index(b) + 1)

    def in_view(self, column: int, a: float, b: float) -> bool:
        """Whether the player of ``column`` is in view at every tick from ``a`` through ``b``."""
        return bool(self.present[self.span(a, b), column].all())


def slot_names(timeline: DemoTimeline) -> list[dict[int, str]]:
    """Per map segment: each slot's plain name as the scoreboard last named it in that map."""
    codes = timeline.schema.color_codes
    names: list[dict[int, str]] = [{} for _ in timeline.segments] or [{}]
    for change in timeline.scoreboard_changes:
        if 0 <= change.segment < len(names) and change.name:
            names[change.segment][change.slot] = plain_line(change.name, codes)
    return names


def frags_of(timeline: DemoTimeline) -> list[Frag]:
    """The demo's frags in time order, their names resolved to the slots the scoreboard gives them at that moment
    (else at the end of their map: a name the scoreboard sends after the obituary)."""
    codes = timeline.schema.color_codes
    changes = timeline.scoreboard_changes
    last_names = slot_names(timeline)
    current: dict[int, str] = {}
    segment = -1
    k = 0
    out = []
    for event in timeline.events_of_kind("obituary"):
        assert isinstance(event, ObituaryEvent)
        if event.killer is None or event.suicide or event.killer == event.victim:
            continue
        while k < len(changes) and changes[k].frame <= event.frame:
            change = changes[k]
            if change.segment != segment:
                current, segment = {}, change.segment
            current[change.slot] = plain_line(change.name, codes)
            k += 1
        names = current if segment == event.segment else {}
        later = last_names[event.segment] if 0 <= event.segment < len(last_names) else {}
        killer, victim = plain_line(event.killer, codes), plain_line(event.victim or "", codes)
        out.append(Frag(event.time, event.segment, killer, victim, event.weapon,
                        _slot_of(names, killer, later), _slot_of(names, victim, later)))
    return out


def _slot_of(names: dict[int, str], name: str, later: dict[int, str]) -> int | None:
    """The slot ``names`` gives ``name`` (the lowest of equal names), else the one the map's last names give it."""
    for table in (names, later):
        hits = sorted(slot for slot, known in table.items() if known == name and name)
        if hits:
            return hits[0]
    return None


def signals_of(timeline: DemoTimeline, slots: Sequence[int]) -> Signals:
    """The :class:`Signals` of ``timeline`` for the watchable ``slots`` (``timeline.pov_slots``), every
    :data:`TICK` s (at most :data:`MAX_TICKS` times)."""
    step = max(TICK, timeline.duration / MAX_TICKS)
    n = min(max(int(np.ceil(timeline.duration / step)), 0) + 1, MAX_TICKS + 1)
    ticks = np.minimum(timeline.start_time + step * np.arange(n), timeline.end_time)
    frame = np.minimum(np.searchsorted(timeline.times, ticks, side="left"), max(len(timeline.times) - 1, 0))
    segment = timeline.frame_segment[frame] if len(timeline.times) else np.zeros(n, np.int32)
    present = np.zeros((n, len(slots)), bool)
    powerup = np.zeros((n, len(slots)), np.int32)
    table = POWERUPS.get(timeline.game, ())
    rows = _powerup_rows(timeline, table)
    players = timeline.players
    for column, slot in enumerate(slots):
        if players is not None and slot < players.num_slots:
            a, b = int(players.slot_start[slot]), int(players.slot_start[slot + 1])
            present[:, column] = _near(timeline.times[players.row_frame[a:b]], ticks)
        row_time, bits = rows.get(slot, (np.zeros(0), np.zeros(0, np.int64)))
        if len(row_time):
            last = np.searchsorted(row_time, ticks, side="right") - 1
            seen = (last >= 0) & (ticks - row_time[np.maximum(last, 0)] <= SEEN_WITHIN)
            held = np.where(seen, bits[np.maximum(last, 0)], 0)
            for code, (flag, _name) in reversed(list(enumerate(table, 1))):
                powerup[held & flag != 0, column] = code
    return Signals(ticks, step, tuple(slots), present, powerup,
                   tuple(name for _mask, name in table), _frags(timeline, slots, ticks, segment))


def _near(row_time: np.ndarray, ticks: np.ndarray) -> np.ndarray:
    """bool [T]: a row time within :data:`SEEN_WITHIN` of each tick (``row_time`` sorted)."""
    if not len(row_time):
        return np.zeros(len(ticks), bool)
    i = np.searchsorted(row_time, ticks)
    before = np.abs(ticks - row_time[np.maximum(i - 1, 0)])
    after = np.abs(row_time[np.minimum(i, len(row_time) - 1)] - ticks)
    return np.minimum(before, after) <= SEEN_WITHIN


def _powerup_rows(timeline: DemoTimeline, table: tuple[tuple[int, str], ...]
                  ) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """slot → (row times, powerup bits of those rows), sorted by time: Quake III's from the player entities'
    ``powerups``, the other games' from the player rows' effects (and Quake's ring model)."""
    mask = 0
    for flag, _name in table:
        mask |= flag
    if not mask:
        return {}
    times = timeline.times
    if timeline.game == "quake3":
        number = timeline.entity_column("number")
        keep = np.flatnonzero((number >= 0) & (number < q3.MAX_CLIENTS)
                              & (timeline.entity_column("eType") == q3.ET_PLAYER))
        slot = number[keep].astype(np.int64)
        frame = timeline.entity_row_frames()[keep]
        bits = timeline.entity_column("powerups")[keep].astype(np.int64)
    else:
        players = timeline.players
        if players is None:
            return {}
        slot = np.repeat(np.arange(players.num_slots), np.diff(players.slot_start))
        frame = players.row_frame.astype(np.int64)
        bits = players.row_ints[:, 3].astype(np.int64)
        if _RING & mask:
            bits = bits | np.where(_ring_model(timeline, frame, players.row_ints[:, 0]), _RING, 0)
    bits &= mask
    order = np.lexsort((frame, slot))
    slot, frame, bits = slot[order], frame[order], bits[order]
    starts = np.searchsorted(slot, np.unique(slot))
    ends = np.append(starts[1:], len(slot))
    return {int(slot[a]): (times[frame[a:b]], bits[a:b]) for a, b in zip(starts, ends) if bits[a:b].any()}


def _ring_model(timeline: DemoTimeline, frame: np.ndarray, model: np.ndarray) -> np.ndarray:
    """bool [R]: rows drawn as the ring's ``progs/eyes.mdl`` in their map's model list."""
    eyes = np.array([seg.model_precache.index("progs/eyes.mdl") if "progs/eyes.mdl" in seg.model_precache else -1
                     for seg in timeline.segments] or [-1])
    segment = timeline.frame_segment[frame] if len(frame) else np.zeros(0, np.int64)
    return (model == eyes[np.minimum(segment, len(eyes) - 1)]) & (model > 0)


def _frags(timeline: DemoTimeline, slots: Sequence[int], ticks: np.ndarray, segment: np.ndarray) -> np.ndarray:
    """i4 [T, P]: each slot's frags at each tick, as the scoreboard of the tick's map says (0 before it says)."""
    out = np.zeros((len(ticks), len(slots)), np.int32)
    columns = {slot: column for column, slot in enumerate(slots)}
    per_slot: dict[int, tuple[list[float], list[int], list[int]]] = {}
    for change in timeline.scoreboard_changes:
        if change.slot in columns:
            when, frags, seg = per_slot.setdefault(change.slot, ([], [], []))
            when.append(change.time)
            frags.append(change.frags)
            seg.append(change.segment)
    for slot, (when, frags, seg) in per_slot.items():
        last = np.searchsorted(np.asarray(when), ticks, side="right") - 1
        valid = (last >= 0) & (np.asarray(seg)[np.maximum(last, 0)] == segment)
        out[:, columns[slot]] = np.where(valid, np.asarray(frags)[np.maximum(last, 0)], 0)
    return out
