"""``qdv cut --split maps|rounds|lives``: the pieces a demo falls into (issue 35 item 5).

* ``maps``: one piece per map segment (a marathon or a multi-map recording);
* ``rounds``: one per round of a round-based game type, from its ``round`` start event to its end event (else to
  the next start or the map's end) — Quake Live's clan arena, freeze tag…; a demo without round events has none;
* ``lives``: one per life of the player the demo's view follows, read from the view's ``health`` stat: a life
  starts where the health turns positive (or first is in a map) and runs to the next one, its death included.

Times are the demo's playback clock (``DemoTimeline.times``); every piece lies within one map segment.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assets_loader.demos.events import RoundEvent
from assets_loader.demos.timeline import DemoTimeline

__all__ = ["SPLITS", "Piece", "NoPiecesError", "split_pieces"]

SPLITS = ("maps", "rounds", "lives")


class NoPiecesError(ValueError):
    """A demo that has nothing to split by (no rounds, or a view that is never alive)."""


@dataclass(frozen=True, slots=True)
class Piece:
    start: float       # playback clock, seconds
    end: float
    what: str          # for the file name: the map, "round3", "life"


def _maps(timeline: DemoTimeline) -> list[Piece]:
    times = timeline.times
    return [Piece(float(times[s.start_frame]), float(times[s.end_frame - 1]), s.map_name or f"map{s.index + 1}")
            for s in timeline.segments if s.end_frame > s.start_frame]


def _segment_end(timeline: DemoTimeline, frame: int) -> float:
    """The last frame time of the segment holding ``frame``."""
    return float(timeline.times[timeline.segments[int(timeline.frame_segment[frame])].end_frame - 1])


def _rounds(timeline: DemoTimeline) -> list[Piece]:
    rounds = [e for e in timeline.events_of_kind("round") if isinstance(e, RoundEvent)]
    pieces = []
    for i, e in enumerate(rounds):
        if not e.started:
            continue
        end = _segment_end(timeline, e.frame)
        nxt = rounds[i + 1] if i + 1 < len(rounds) else None
        if nxt is not None and nxt.segment == e.segment:
            end = nxt.time
        pieces.append(Piece(e.time, end, f"round{e.number}" if e.number else "round"))
    if not pieces:
        raise NoPiecesError(f"{timeline.path}: no rounds: the demo has no round events (rounds are read from "
                            "round-based game types such as Quake Live's clan arena and freeze tag)")
    return pieces


def _lives(timeline: DemoTimeline) -> list[Piece]:
    if "health" not in timeline.schema.stat_names:
        raise NoPiecesError(f"{timeline.path}: no lives: the demo's view has no health stat")
    alive = timeline.stats["health"] > 0
    starts = np.flatnonzero(alive & np.concatenate(([True], ~alive[:-1])))
    segment_starts = [s.start_frame + int(np.argmax(alive[s.start_frame:s.end_frame])) for s in timeline.segments
                      if alive[s.start_frame:s.end_frame].any()]
    starts = np.union1d(starts, segment_starts).astype(int)
    if not len(starts):
        raise NoPiecesError(f"{timeline.path}: no lives: the view's health is never above 0 (a spectator's demo?)")
    times = timeline.times
    pieces = []
    for i, f in enumerate(starts.tolist()):
        end = _segment_end(timeline, f)
        if i + 1 < len(starts) and timeline.frame_segment[starts[i + 1]] == timeline.frame_segment[f]:
            end = float(times[starts[i + 1] - 1])
        pieces.append(Piece(float(times[f]), end, "life"))
    return pieces


def split_pieces(timeline: DemoTimeline, by: str) -> list[Piece]:
    """The pieces of ``timeline`` split ``by`` one of :data:`SPLITS` (module docstring), in time order;
    :class:`NoPiecesError` when there is none."""
    if by == "maps":
        return _maps(timeline)
    if by == "rounds":
        return _rounds(timeline)
    if by == "lives":
        return _lives(timeline)
    raise ValueError(f"--split: expected one of {', '.join(SPLITS)}, got {by!r}")
