"""The automatic director: who to watch, and how, at every moment of a demo — a shot list planned once from the
timeline by rules a caster follows, each a named constant below.

1. **Frags first.**  For each frag whose killer can be watched (a player with a view, in the demo's view from
   :data:`FRAG_LEAD` s before the frag), the director is on the killer's eyes from :data:`FRAG_LEAD` s before it
   (ezQuake's ``autotrack`` jumps to the killer after the frag; ezQuake #1005 asks to favour the fragger).  Frags of
   one killer close together are one shot.  When two killers' lead-ins overlap, the earlier frag keeps the camera
   and the later one is missed (said in :attr:`DirectorPlan.frags`).
2. **Stay on the death.**  After a frag the shot holds :data:`DEATH_HOLD` s on the killer, and a shot between frags
   that shows its player die holds as long after the death (ezQuake #1005: "give it 0.5 seconds more on the killed
   pov"), unless the next frag's lead-in needs the cut.
3. **Never cut too often.**  No shot is shorter than :data:`MIN_SHOT` s except the last of a map (where the demo or
   the level ends); a gap too short for a shot of its own goes to the next frag's lead-in or the shot before.
4. **Between frags, the interesting player.**  Scored per player in view: :data:`POWERUP_SCORE` for a powerup
   carrier (quad, pentagram, flags…), :data:`LEADER_SCORE` for the sole leader on the scoreboard (of two or more
   players), :data:`STAY_SCORE` for the player already watched (ezQuake's ``mvd_autotrack`` formulas weigh
   powerups and frags the same way); a shot is cut when someone else scores higher, and at :data:`MAX_SHOT` s at
   the latest.
5. **Variety.**  Frag shots are the killer's eyes; the shots between frags take :data:`FILLER_CAMERAS` in turn
   (the eyes, the chase camera, the orbit camera that circles at :data:`ORBIT_SPEED` °/s).  A demo with one player
   to watch has every shot on them: only the camera changes.

Each map (segment) is planned on its own: a level change is a cut.  While no player is in view the shot is the
demo's own view (a demo without players to watch is one such shot).  The shots cover the demo from its first to
its last frame without gaps or overlaps.

References: ezQuake ``mvd_utils.c`` / ``cl_cam.c`` (``mvd_autotrack``, ``mvd_autotrack_*_values``: powerups and
frags weighted), ezQuake issue #1005 "Improve autotrack" (favour the killer, stay after a death, powerups).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

import numpy as np

from assets_loader.demos import DemoTimeline
from assets_loader.demos.entity_eyes import exact_recorder

from .moments import Frag, Signals, frags_of, signals_of, slot_names

__all__ = ["DEATH_HOLD", "FILLER_CAMERAS", "FRAG_LEAD", "LEADER_SCORE", "MAX_SHOT", "MIN_SHOT", "ORBIT_SPEED",
           "POWERUP_SCORE", "STAY_SCORE", "COVERED", "CONFLICT", "OUT_OF_VIEW", "NOT_A_PLAYER", "DirectorPlan",
           "FragCall", "Shot", "plan_director"]

#: Seconds before a frag that the director is on the killer's eyes.
FRAG_LEAD = 2.0
#: Seconds the shot stays on the killer after a frag.
DEATH_HOLD = 1.0
#: The shortest shot (the last shot of a map may be shorter).
MIN_SHOT = 2.0
#: The longest shot between frags before the director looks again (and changes camera).
MAX_SHOT = 10.0
#: Interest of a player between frags: carries a powerup / is the sole leader / is already watched.
POWERUP_SCORE = 4
LEADER_SCORE = 2
STAY_SCORE = 1
#: The cameras of the shots between frags, in turn.
FILLER_CAMERAS = ("chase", "pov", "orbit", "pov")
#: Degrees per second the director's orbit camera circles its player.
ORBIT_SPEED = 15.0

#: What the director did about a frag (:attr:`FragCall.outcome`).
COVERED, CONFLICT, OUT_OF_VIEW, NOT_A_PLAYER = "covered", "conflict", "out of view", "not a player"


@dataclass(frozen=True, slots=True)
class Shot:
    """From ``start`` to ``end`` (timeline seconds) the camera is ``camera`` (pov, chase, orbit) on player ``slot``
    (``None``: the demo's own view) named ``player``; ``reason`` (frag, powerup, leader, stay, only, first, demo)
    and ``why`` say what the player does (``fragged Bob (rocket)``, ``has the quad``, ``leads the scoreboard``…);
    ``yaw``: the orbit camera's yaw at ``start`` (behind the player's view)."""

    start: float
    end: float
    slot: int | None
    player: str
    camera: str
    reason: str
    why: str
    yaw: float = 0.0


@dataclass(frozen=True, slots=True)
class FragCall:
    """A frag at ``time`` in map ``segment`` and what the director did: ``outcome`` :data:`COVERED` (on the killer from
    :data:`FRAG_LEAD` s before), :data:`CONFLICT` (another killer's lead-in had the camera), :data:`OUT_OF_VIEW`
    (the killer is not in the demo's view then) or :data:`NOT_A_PLAYER` (no player with a view has the killer's
    name); ``note`` says more."""

    time: float
    segment: int
    killer: str
    victim: str
    killer_slot: int | None
    outcome: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class DirectorPlan:
    """The shot list of a demo, in time order, covering ``start`` … ``end``; ``frags`` what became of each frag;
    ``recorder``: the slot whose eyes are the demo's own exact view (watched as the demo's view, -1: none)."""

    shots: tuple[Shot, ...]
    frags: tuple[FragCall, ...]
    start: float
    end: float
    recorder: int = -1
    _starts: tuple[float, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_starts", tuple(s.start for s in self.shots))

    def shot_at(self, t: float) -> Shot:
        """The shot at ``t`` (the first / last one outside the plan)."""
        return self.shots[min(max(bisect_right(self._starts, t) - 1, 0), len(self.shots) - 1)]

    def pov_at(self, t: float) -> int | None:
        """The player slot to sample at ``t`` (``None``: the demo's own view, also for the recorder's exact eyes)."""
        slot = self.shot_at(t).slot
        return None if slot is None or slot == self.recorder else slot

    def orbit_yaw(self, t: float) -> float:
        """The orbit camera's yaw at ``t``: circling from the shot's start."""
        shot = self.shot_at(t)
        return (shot.yaw + ORBIT_SPEED * (t - shot.start)) % 360.0


@dataclass
class _Window:
    """A frag shot being planned: on ``slot`` from ``start``, not ending before ``min_end``, wanting ``want_end``."""

    slot: int
    start: float
    min_end: float
    want_end: float
    frags: list[Frag]


def plan_director(timeline: DemoTimeline) -> DirectorPlan:
    """The director's shot list for ``timeline`` (the rules: module docstring)."""
    slots = timeline.pov_slots
    frags = frags_of(timeline)
    planner = _Planner(timeline, signals_of(timeline, slots), frags)
    shots: list[Shot] = []
    calls: list[FragCall] = []
    for segment, (s0, s1) in enumerate(_segment_spans(timeline)):
        if s1 < s0:
            continue
        seg_shots, seg_calls = planner.span(segment, s0, s1, [f for f in frags if f.segment == segment])
        shots += seg_shots
        calls += seg_calls
    if not shots:
        shots.append(planner.shot(timeline.start_time, timeline.end_time, None, "pov", "demo", 0))
    return DirectorPlan(tuple(shots), tuple(calls), timeline.start_time, timeline.end_time, exact_recorder(timeline))


def _segment_spans(timeline: DemoTimeline) -> list[tuple[float, float]]:
    """Each map's time span: from its first frame to the next map's first frame (the last: to the demo's end)."""
    n = len(timeline.times)
    starts = [float(timeline.times[min(seg.start_frame, n - 1)]) if seg.end_frame > seg.start_frame else None
              for seg in timeline.segments] if n else []
    spans = []
    for k, a in enumerate(starts):
        if a is None:
            spans.append((1.0, 0.0))        # a map without frames: nothing to plan
            continue
        later = [b for b in starts[k + 1:] if b is not None]
        spans.append((a if k else timeline.start_time, later[0] if later else timeline.end_time))
    return spans


class _Planner:
    """The rules applied to one map after another (the camera turn carries over)."""

    def __init__(self, timeline: DemoTimeline, signals: Signals, frags: list[Frag]) -> None:
        self.timeline = timeline
        self.signals = signals
        self.deaths: dict[int, list[float]] = {}      # each player's deaths by a frag, in time order
        for f in frags:
            if f.victim_slot is not None:
                self.deaths.setdefault(f.victim_slot, []).append(f.time)
        self.names = slot_names(timeline)
        self.columns = {slot: column for column, slot in enumerate(signals.slots)}
        self.fillers = 0
        self.segment = 0

    def name(self, slot: int | None) -> str:
        if slot is None:
            return ""
        names = self.names[self.segment] if self.segment < len(self.names) else {}
        return names.get(slot) or f"slot {slot}"

    def shot(self, start: float, end: float, slot: int | None, camera: str, reason: str, tick: int,
             why: str = "") -> Shot:
        if not why:
            if reason == "powerup":
                held = self.signals.powerup[tick, self.columns[slot]] if slot is not None else 0
                why = f"has the {self.signals.powerup_names[held - 1]}"
            else:
                why = {"leader": "leads the scoreboard", "stay": "still the one to watch",
                       "only": "the only player in view", "first": "the first player in view",
                       "demo": "no player in view: the demo's own view"}[reason]
        return Shot(start, end, slot, self.name(slot), camera, reason, why, self.yaw(slot, start))

    def yaw(self, slot: int | None, t: float) -> float:
        """The view yaw of ``slot`` (``None``: the demo's view) at ``t``."""
        timeline = self.timeline
        frame = timeline.frame_at(t)
        players = timeline.players
        if slot is not None and players is not None and slot < players.num_slots:
            row, _exact = players.row_near(slot, frame)
            if row >= 0:
                return float(players.row_angles[row][1])
        return float(timeline.view_angles_at(frame)[1])

    # --- rule 1: frag windows ------------------------------------------------------------------------------------

    def span(self, segment: int, s0: float, s1: float, frags: list[Frag]) -> tuple[list[Shot], list[FragCall]]:
        """The shots of one map from ``s0`` to ``s1`` and what became of its ``frags``."""
        self.segment = segment
        windows: list[_Window] = []
        calls = []
        for f in frags:
            outcome, note = self._take(f, windows, s0, s1)
            calls.append(FragCall(f.time, f.segment, f.killer, f.victim, f.killer_slot, outcome, note))
        return self._shots(s0, s1, windows), calls

    def _take(self, f: Frag, windows: list[_Window], s0: float, s1: float) -> tuple[str, str]:
        k = f.killer_slot
        if k is None or k not in self.columns:
            return NOT_A_PLAYER, f"no player with a view is named {f.killer}"
        start = max(s0, f.time - FRAG_LEAD)
        if not self.signals.in_view(self.columns[k], start, f.time):
            return OUT_OF_VIEW, f"{f.killer} is not in the demo's view in the {FRAG_LEAD:g} s before"
        last = windows[-1] if windows else None
        if last is not None and last.slot == k and start <= last.want_end + MIN_SHOT:
            last.min_end = min(max(last.min_end, f.time), s1)
            last.want_end = min(max(last.want_end, f.time + DEATH_HOLD), s1)
            last.frags.append(f)
            return COVERED, ""
        if last is not None and start < last.min_end:
            when = last.frags[-1].time - self.timeline.start_time
            return CONFLICT, f"on {self.name(last.slot)} for the frag at {when:.1f} s"
        windows.append(_Window(k, start, min(max(f.time, start + MIN_SHOT), s1),
                               min(max(f.time + DEATH_HOLD, start + MIN_SHOT), s1), [f]))
        return COVERED, ""

    # --- rules 2, 3: ends, gaps -------------------------------------------------------------------------------------

    def _shots(self, s0: float, s1: float, windows: list[_Window]) -> list[Shot]:
        shots: list[Shot] = []
        at, slot = s0, None
        for i, w in enumerate(windows):
            end = min(w.want_end, windows[i + 1].start if i + 1 < len(windows) else s1)
            start = w.start if w.start - at >= MIN_SHOT else at
            if start > at:
                shots += self._fill(at, start, slot)
            why = "fragged " + ", ".join(f.victim + (f" ({f.weapon})" if f.weapon else "") for f in w.frags)
            shots.append(self.shot(start, end, w.slot, "pov", "frag", 0, why))
            at, slot = end, w.slot
        if shots and s1 - at < MIN_SHOT:
            last = shots[-1]
            shots[-1] = Shot(last.start, s1, last.slot, last.player, last.camera, last.reason, last.why, last.yaw)
        elif s1 > at or not shots:
            shots += self._fill(at, s1, slot)
        return shots

    # --- rules 4, 5: between frags ----------------------------------------------------------------------------------

    def _fill(self, g0: float, g1: float, slot: int | None) -> list[Shot]:
        """Shots from ``g0`` to ``g1`` (at least :data:`MIN_SHOT` apart unless the gap is shorter), after a shot on
        ``slot``."""
        sig = self.signals
        out = []
        t = g0
        while True:
            i = sig.index(t)
            ahead = sig.span(t, min(t + MIN_SHOT, g1))
            candidates = sig.present[ahead].all(axis=0)
            if not candidates.any():
                candidates = sig.present[i]
            interest = self._interest(sig.span(t, t))[0]
            pick, reason = None, "demo"
            if candidates.any():
                score = np.where(candidates, interest + STAY_SCORE * (np.asarray(sig.slots) == slot), -1)
                column = int(np.argmax(score))
                pick = sig.slots[column]
                reason = self._reason(interest[column], pick == slot, int(candidates.sum()))
            end = self._end(t, g1, pick)
            if g1 - end < MIN_SHOT:
                end = g1
            camera = "pov"
            if pick is not None:
                camera = FILLER_CAMERAS[self.fillers % len(FILLER_CAMERAS)]
                self.fillers += 1
            out.append(self.shot(t, end, pick, camera, reason, i))
            t, slot = end, pick
            if t >= g1:
                return out

    def _interest(self, ticks: slice) -> np.ndarray:
        """i4 [T, P]: each player's score at ``ticks`` without the stay bonus (absent players: -1)."""
        sig = self.signals
        frags = sig.frags[ticks]
        best = frags.max(axis=1, initial=np.iinfo(np.int32).min)[:, None]
        sole = (frags == best) & ((frags == best).sum(axis=1) == 1)[:, None] & (len(sig.slots) > 1)
        score = POWERUP_SCORE * (sig.powerup[ticks] > 0) + LEADER_SCORE * sole
        return np.where(sig.present[ticks], score, -1)

    def _reason(self, score: int, stays: bool, candidates: int) -> str:
        if score >= POWERUP_SCORE:
            return "powerup"
        if score >= LEADER_SCORE:
            return "leader"
        if candidates == 1:
            return "only"
        return "stay" if stays else "first"

    def _end(self, t: float, g1: float, slot: int | None) -> float:
        """Where a shot on ``slot`` from ``t`` ends: :data:`MIN_SHOT` on, the first tick where the player leaves the
        view or someone else is more interesting, by :data:`MAX_SHOT` (or one step of the signals, when a demo's
        clock jumps so far that they are read more coarsely) and ``g1`` at the latest, but :data:`DEATH_HOLD` s after
        a death of the player it shows; the demo's own view (``None``) lasts until a player comes into view."""
        sig = self.signals
        latest = min(t + max(MAX_SHOT, sig.step), g1) if slot is not None else g1
        if t + MIN_SHOT >= latest:
            return latest
        ticks = sig.span(t + MIN_SHOT, latest)
        if slot is None:
            seen = np.flatnonzero(sig.present[ticks].any(axis=1))
            return max(float(sig.ticks[ticks][seen[0]]), t + MIN_SHOT) if len(seen) else latest
        interest = self._interest(ticks)
        column = self.columns[slot]
        mine = interest[:, column] + STAY_SCORE
        others = np.delete(interest, column, axis=1).max(axis=1, initial=-1)
        stop = np.flatnonzero(~sig.present[ticks, column] | (others > mine))
        end = max(float(sig.ticks[ticks][stop[0]]), t + MIN_SHOT) if len(stop) else latest
        shown = [d for d in self.deaths.get(slot, ()) if t <= d < end]
        return min(max(end, shown[-1] + DEATH_HOLD), g1) if shown else end
