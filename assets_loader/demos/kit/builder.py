"""The timeline builder every demo decoder fills: frames, map segments, entity rows, the recorder's view and stats,
events, lightstyles, the scoreboard, the truncation policy and the final assembly into a :class:`DemoTimeline`.

A decoder says *when* a frame starts (:meth:`TimelineBuilder.open_frame`) and appends its entity rows
(``builder.rows``, a ``bytearray`` the decoder extends by one packed :class:`~.rows.RowLayout` row per entity state),
its view columns (typed arrays, extended by 3 values a frame for origin and angles) and its stats
(:meth:`TimelineBuilder.record_stats`, kept when they change); everything else about frames is here.  Nothing is
kept as a Python object per frame or per row, so decoding costs the packed bytes and no heap fragments.

Frames come in two styles, after the protocol: NetQuake opens a frame at ``svc_time`` and the messages after it
belong to it (``frames_open_at_start``); QuakeWorld closes a frame at the end of a packet and the messages before
it belong to it.  Events, lightstyle and score changes are recorded against that frame and resolved to times at the
end.

Segments: ``begin_segment`` starts a level (``CL_ClearState``: lightstyles and scoreboard start empty), the decoder
fills the segment's fields (``map_path`` — the world model, precache entry 1 — ``model_precache``, ``baselines``…)
and ``finish`` turns each into a :class:`MapSegment`.  With ``shift_segments`` each later level's clock is shifted to
start where the previous one ended (NetQuake's server time restarts at every level); the playback clock never
decreases.

Repeats (``store_repeats_once``, the copy-forward protocols: QuakeWorld, Quake II): a row that repeats its entity's
previous row (the same packed bytes, in the same segment, seen again within :data:`~.rows.POSE_RESET_GAP`) has
every column value of that row, pose history included, so it is stored once and the frames reference it
(``entity_rows`` of the timeline).  The rows appended since the last frames were stored wait in ``rows`` (about
1 MB) and are stored a batch at a time with numpy as the next frame opens: a snapshot that copies a thousand
unchanged entities forward costs a thousand indices, not a thousand rows.

Bad input (one policy for every protocol): :meth:`truncated` records a cut file, :meth:`stop` a corrupt message —
both keep the timeline up to the last complete frame with a warning, or raise when no frame was decoded.  Rows past
the entity-state budget (:mod:`.budget`, checked as each frame opens) raise :class:`~.budget.StateBudgetError`,
never kept as a partial timeline.

References: QuakeSpasm ``cl_main.c`` ``CL_ClearState``, ``cl_demo.c`` ``CL_GetDemoMessage``; ezQuake ``cl_demo.c``
``CL_GetDemoMessage`` (frame timing); ioquake3 ``cl_parse.c`` ``CL_ParseSnapshot``.
"""

from __future__ import annotations

import bisect
import warnings
from array import array
from typing import Any
from collections.abc import Mapping

import numpy as np

from ...errors import FormatError, TruncatedError
from .. import events as ev
from ..schema import GameSchema
from ..steps import Steps, compact_column
from ..timeline import STANDARD_COLUMNS, DemoTimeline, EntityStates, MapSegment, PlayerFrames, ScoreChange
from .budget import StateBudgetError, check_states, state_budget
from .messages import Corrupt
from .rows import POSE_RESET_GAP, RowLayout, pose_history

__all__ = ["TimelineBuilder", "map_name_of"]

#: Packed rows appended before the builder stores them once per run of repeats (see the module docstring).
_PENDING_BYTES = 1 << 20

_SCORE_FIELDS = ("name", "frags", "colors", "team", "spectator", "userid", "ping", "pl", "userinfo")


def map_name_of(world_model: str) -> str:
    """``maps/e1m1.bsp`` → ``e1m1`` (the world model's base name without ``.bsp``)."""
    name = world_model.rsplit("/", 1)[-1]
    return name[:-4] if name.lower().endswith(".bsp") else name


def _fresh_score() -> dict[str, Any]:
    return {"name": "", "frags": 0, "colors": 0, "team": "", "spectator": False, "userid": 0, "ping": 0, "pl": 0,
            "userinfo": ()}


def _frame_number_order(frame_of_row: np.ndarray, numbers: np.ndarray) -> np.ndarray:
    """The stable order of rows by (frame, entity number): one integer key, whose stable sort (timsort) runs fast
    over rows that are nearly in order already, as a demo's are."""
    lo = int(numbers.min())
    span = int(numbers.max()) - lo + 1
    key = frame_of_row.astype(np.int64) * span + (numbers.astype(np.int64) - lo)
    return np.argsort(key, kind="stable")


def _no_last(size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """No entity seen yet: (numbers i8, packed rows u1 [0, size], stored rows i8, frames i4), all empty."""
    return (np.zeros(0, np.int64), np.zeros((0, size), np.uint8), np.zeros(0, np.int64), np.zeros(0, np.int32))


class TimelineBuilder:
    """Mutable while a demo decodes; :meth:`finish` makes the immutable :class:`DemoTimeline`."""

    def __init__(self, path: str, fmt: str, schema: GameSchema, layout: RowLayout, *, frames_open_at_start: bool,
                 shift_segments: bool, store_repeats_once: bool = False) -> None:
        self.path = path
        self.fmt = fmt
        self.schema = schema
        self.layout = layout
        self.frames_open_at_start = frames_open_at_start
        self.shift_segments = shift_segments
        self.warnings: list[str] = []
        # frames: per-frame columns as typed arrays (8 bytes a time, not a Python float and a list slot)
        self.times = array("d")
        self.server_times = array("d")
        self.frame_segment = array("i")
        self.offsets = array("q")                    # first row of each frame (rows stored and pending together)
        self.rows = bytearray()                      # packed layout rows, one per entity state (not stored yet)
        self.store_repeats_once = store_repeats_once
        self.stored = bytearray()                    # distinct packed rows (store_repeats_once), and for each ...
        self.stored_frame = array("i")               # ... the frame it first appears in, and the frame its
        self.stored_since = array("i")               # entity was seen before that (its own if never)
        self.row_index = array("i")                  # the stored row of each frame row stored so far
        self.pending_frame = 0                       # the first frame whose rows are in ``rows``
        self._last = _no_last(layout.row.size)       # each entity's last row: number, bytes, stored row, frame
        self.max_states = state_budget()
        self.view_entity = array("i")
        self.view_origin = array("d")                # x, y, z per frame
        self.view_angles = array("d")                # pitch, yaw, roll per frame
        self.stat_frames = array("i")                # frames where the stats changed ...
        self.stat_values = array("q")                # ... and their values there (all stats, in schema order)
        self.stat_count = 0                          # frames whose stats were recorded
        self.last_stats: list[int] | None = None
        self.last_time = -np.inf
        self.time_offset = 0.0
        # segments
        self.segments: list[dict[str, Any]] = []
        self.segment = -1
        self.segment_has_frames = False
        # histories: (frame, segment, ...) resolved to times at the end
        self.events: list[tuple[int, int, type, tuple]] = []
        self.ls_changes: list[tuple[int, int, str]] = []
        self.lightstyles_set: set[int] = set()
        self.scores: list[dict[str, Any]] = []
        self.score_changes: list[tuple] = []
        self.score_resets: list[tuple[int, int]] = []

    # --- frames ---------------------------------------------------------------------------------------------------

    @property
    def num_frames(self) -> int:
        return len(self.times)

    def event_frame(self) -> int:
        """The frame a message arriving now belongs to (see the module docstring)."""
        n = len(self.times)
        return n - 1 if (self.frames_open_at_start and self.segment_has_frames and n) else n

    def open_frame(self, server_time: float) -> int:
        """Start frame ``num_frames`` at ``server_time``; its rows are the ones appended from now on."""
        if self.segment < 0:
            raise Corrupt("a level start (serverinfo) before the first frame")
        self.check_budget()
        if self.store_repeats_once and len(self.rows) >= _PENDING_BYTES:
            self._store_pending()
        seg = self.segments[self.segment]
        if not self.segment_has_frames:
            if self.shift_segments:
                self.time_offset = 0.0 if self.segment == 0 or not self.times else self.last_time - server_time
            seg["time_offset"] = self.time_offset
            seg["start_frame"] = len(self.times)
            seg["has_frames"] = True
            self.segment_has_frames = True
        t = server_time + self.time_offset
        t = max(t, self.last_time)
        self.last_time = t
        self.times.append(t)
        self.server_times.append(server_time)
        self.frame_segment.append(self.segment)
        self.offsets.append(self.row_count)
        return len(self.times) - 1

    @property
    def row_count(self) -> int:
        """Entity rows of all frames so far, stored and pending."""
        return len(self.row_index) + len(self.rows) // self.layout.row.size

    def check_budget(self) -> None:
        """Raise :class:`~.budget.StateBudgetError` when the rows kept pass the entity-state budget."""
        if self.row_count > self.max_states:
            check_states(self.path, self.fmt, self.row_count, self.max_states)

    def _store_pending(self) -> None:
        """Store the rows of frames ``pending_frame`` .. the last one opened: each row that repeats its entity's
        previous row (module docstring) references that row's stored row, the others are stored."""
        size = self.layout.row.size
        nframes = len(self.times)
        # every array here views copies, never the growing buffers: a view kept alive (a sampling profiler holding a
        # frame of this call or of numpy's, as Dask's workers run one) would stop the next append with "cannot
        # resize an array that is exporting buffers"
        pending = bytes(self.rows)
        offsets = np.frombuffer(self.offsets[self.pending_frame:], np.int64)
        counts = np.diff(np.append(offsets, self.row_count))
        frame = np.concatenate([self._last[3], np.repeat(np.arange(self.pending_frame, nframes, dtype=np.int32),
                                                                  counts)])
        number = np.concatenate([self._last[0], self.layout.numbers(self.layout.read(pending)).astype(np.int64)])
        raw = np.concatenate([self._last[1], np.frombuffer(pending, np.uint8).reshape(-1, size)])
        carried = len(self._last[0])                 # each entity's last row before: first in its group
        order = np.argsort(number, kind="stable")    # by entity, in frame order
        g_num, g_frame, g_raw = number[order], frame[order], raw[order]
        times = np.array(self.times, np.float64)
        segment = np.array(self.frame_segment, np.int32)
        same = np.zeros(len(order), bool)
        same[1:] = g_num[1:] == g_num[:-1]
        repeats = same.copy()
        repeats[1:] &= ((segment[g_frame[1:]] == segment[g_frame[:-1]])
                        & (times[g_frame[1:]] - times[g_frame[:-1]] <= POSE_RESET_GAP)
                        & (g_raw[1:] == g_raw[:-1]).all(axis=1))
        new = order >= carried
        kept = np.zeros(len(order) - carried, bool)  # pending rows stored (in append order)
        kept[order[~repeats & new] - carried] = True
        stored_of = np.cumsum(kept, dtype=np.int64) - 1 + len(self.stored) // size
        g_stored = np.where(new, stored_of[np.maximum(order - carried, 0)], 0)
        g_stored[~new] = self._last[2][order[~new]]  # carried rows: their stored row
        g_stored = g_stored[np.maximum.accumulate(np.where(repeats, 0, np.arange(len(order))))]
        row_index = np.empty(len(kept), np.int32)
        row_index[order[new] - carried] = g_stored[new]
        since = np.empty(len(kept), np.int32)
        since[order[new] - carried] = np.where(same, np.roll(g_frame, 1), g_frame)[new]
        self.stored += raw[carried:][kept].tobytes()
        self.stored_frame.frombytes(frame[carried:][kept].tobytes())     # (i4 bytes: not one Python int each)
        self.stored_since.frombytes(since[kept].tobytes())
        self.row_index.frombytes(row_index.tobytes())
        last = np.flatnonzero(~np.append(same[1:], False)) if len(order) else order   # each entity's last row
        self._last = (g_num[last], g_raw[last], g_stored[last], g_frame[last].astype(np.int32))
        del self.rows[:]
        self.pending_frame = nframes

    def record_stats(self, stats: list[int]) -> None:
        """The stats after the next frame (one call per frame, in frame order); stored when they change."""
        if stats != self.last_stats:
            self.stat_frames.append(self.stat_count)
            self.stat_values.extend(stats)
            self.last_stats = list(stats)
        self.stat_count += 1

    def drop_from(self, frame: int) -> None:
        """Forget frame ``frame`` and later ones, and everything recorded for them (a block that did not parse)."""
        if frame < len(self.times):
            if frame < self.pending_frame:
                raise ValueError(f"frame {frame} is stored already (rows pending from {self.pending_frame})")
            del self.rows[(self.offsets[frame] - len(self.row_index)) * self.layout.row.size:]
        columns: tuple[Any, ...] = (self.times, self.server_times, self.frame_segment, self.offsets, self.view_entity)
        for column in columns:
            del column[frame:]
        del self.view_origin[3 * frame:], self.view_angles[3 * frame:]
        if frame < self.stat_count:
            nstat = len(self.schema.stat_names)
            kept = bisect.bisect_left(self.stat_frames, frame)   # no numpy view: the array shrinks next
            del self.stat_frames[kept:], self.stat_values[kept * nstat:]
            self.stat_count = frame
            self.last_stats = list(self.stat_values[-nstat:]) if kept else None
        self.last_time = self.times[-1] if self.times else -np.inf
        self.events = [e for e in self.events if e[0] < frame]
        self.ls_changes = [c for c in self.ls_changes if c[0] < frame]
        self.score_changes = [c for c in self.score_changes if c[0] < frame]
        self.score_resets = [c for c in self.score_resets if c[0] < frame or c[0] == 0]

    # --- segments, events, lightstyles, scores --------------------------------------------------------------------

    def begin_segment(self, maxslots: int, **fields: Any) -> dict[str, Any]:
        """A new level (``CL_ClearState``): its segment record (the decoder fills in the rest), lightstyles reset,
        ``maxslots`` empty scoreboard slots."""
        self.segment += 1
        self.segment_has_frames = False
        seg: dict[str, Any] = dict(index=self.segment, start_frame=len(self.times), time_offset=0.0, **fields)
        self.segments.append(seg)
        frame = len(self.times)
        for style in sorted(self.lightstyles_set):
            self.ls_changes.append((frame, style, ""))
        self.lightstyles_set = set()
        self.reset_scores(maxslots)
        self.score_resets.append((frame, maxslots))
        return seg

    def emit(self, cls: type, *args: object) -> None:
        """Record an event of class ``cls`` (fields after time/frame/segment) at the current frame."""
        n = len(self.times)
        frame = n - 1 if (self.frames_open_at_start and self.segment_has_frames and n) else n
        self.events.append((frame, max(self.segment, 0), cls, args))

    def lightstyle(self, style: int, pattern: str) -> None:
        self.lightstyles_set.add(style)
        self.ls_changes.append((self.event_frame(), style, pattern))

    def reset_scores(self, maxslots: int) -> None:
        self.scores = [_fresh_score() for _ in range(maxslots)]

    def score(self, slot: int, what: str) -> dict[str, Any]:
        """Scoreboard slot ``slot`` (a dict of :class:`PlayerScore` fields) for message ``what``."""
        if slot >= len(self.scores):
            raise Corrupt(f"a player slot below {len(self.scores)} in {what}, found {slot}")
        return self.scores[slot]

    def score_changed(self, slot: int) -> None:
        s = self.scores[slot]
        self.score_changes.append((self.event_frame(), max(self.segment, 0), slot)
                                  + tuple(s[k] for k in _SCORE_FIELDS))

    # --- bad input ------------------------------------------------------------------------------------------------

    def truncated(self, pos: int, what: str, have: int, stacklevel: int = 4) -> None:
        """The file is cut at ``pos`` where ``what`` was expected (only ``have`` bytes left)."""
        msg = (f"{self.path}: demo is truncated at offset {pos}: expected {what}, found {have} bytes; "
               f"the timeline ends at the previous block")
        self.warnings.append(msg)
        if self.times:
            warnings.warn(msg, stacklevel=stacklevel)

    def stop(self, error: FormatError, kept: str, stacklevel: int = 4) -> None:
        """Decoding stopped at ``error``: raise it when no frame was decoded or it is the budget's, else keep
        ``kept`` with a warning."""
        if not self.times or isinstance(error, StateBudgetError):
            raise error
        msg = f"{error}; decoding stopped there, the timeline ends at {kept}"
        self.warnings.append(msg)
        warnings.warn(msg, stacklevel=stacklevel)

    def require_end(self, end_event: type[ev.Event], stacklevel: int = 4) -> None:
        """Warn when the stream ended without its end-of-demo message (``end_event``) and no cut was seen: a file
        cut exactly on a block boundary."""
        if self.warnings or any(cls is end_event for _frame, _seg, cls, _args in self.events):
            return
        msg = (f"{self.path}: the demo ends without its end-of-demo message ({end_event.kind}): "
               f"the file may be cut short")
        self.warnings.append(msg)
        warnings.warn(msg, stacklevel=stacklevel)

    def require_frames(self, pos: int, what: str) -> None:
        if not self.times:
            raise TruncatedError(self.path, self.fmt, pos, what,
                                 "none" if not self.warnings else "a cut before the first frame")

    # --- assembling the timeline ----------------------------------------------------------------------------------

    def drop_frameless_levels(self) -> None:
        """Drop trailing levels whose signon arrived but no frame, with what they announced."""
        nf = len(self.times)
        while len(self.segments) > 1 and not self.segments[-1].get("has_frames"):
            gone = len(self.segments) - 1
            self.segments.pop()
            self.events = [e for e in self.events if e[1] != gone]
            self.score_changes = [c for c in self.score_changes if c[1] != gone]
            self.score_resets = [c for c in self.score_resets if c[0] < nf]
            self.ls_changes = [c for c in self.ls_changes if c[0] < nf]

    def _entity_columns(self, times: np.ndarray, frame_segment: np.ndarray
                        ) -> tuple[np.ndarray, dict, np.ndarray | None]:
        """(offsets i8 [F + 1], columns, the column row of each frame row or ``None`` when they are the same)."""
        nframes = len(times)
        if self.store_repeats_once:
            self._store_pending()
        offsets = np.append(np.frombuffer(self.offsets, np.int64), self.row_count)
        frame_of_row = np.repeat(np.arange(nframes, dtype=np.int32), np.diff(offsets))
        raw = self.layout.read(self.stored if self.store_repeats_once else self.rows)   # a view of the packed rows
        index = np.frombuffer(self.row_index, np.int32) if self.store_repeats_once else None
        nums = self.layout.numbers(raw) if index is None else self.layout.numbers(raw)[index]
        # Sort each frame's rows by entity number (stable), so sample() can match frames with searchsorted.
        unsorted = np.flatnonzero(nums[1:] < nums[:-1]) + 1            # rows where the number goes down ...
        if np.any(np.isin(unsorted, offsets[1:-1], invert=True)):      # ... other than at a frame start
            order = _frame_number_order(frame_of_row, nums)
            if index is None:
                raw = raw[order]                                       # (packed rows: one gather, not one per column)
            else:
                index = index[order]
        self.rows = self.stored = bytearray()
        # Columns compacted as they are made (the timeline keeps them so).
        cols = {k: compact_column(v) if k in STANDARD_COLUMNS else v for k, v in self.layout.columns(raw).items()}
        del raw, nums
        if index is None:
            cols["prev_frame"], cols["frame_time"] = pose_history(cols["number"], cols["model"], cols["frame"],
                                                                  frame_of_row, times, frame_segment)
        else:
            cols["prev_frame"], cols["frame_time"] = pose_history(
                cols["number"], cols["model"], cols["frame"], np.frombuffer(self.stored_frame, np.int32), times,
                frame_segment, times[np.frombuffer(self.stored_since, np.int32)])
        return offsets, cols, index

    def _map_segments(self, times: np.ndarray, frameless_at_end: bool) -> list[MapSegment]:
        nframes = len(times)
        out = []
        for i, s in enumerate(self.segments):
            start = s["start_frame"] if (s.get("has_frames") or not frameless_at_end) else nframes
            stop = self.segments[i + 1]["start_frame"] if i + 1 < len(self.segments) else nframes
            stop = max(stop, start)
            out.append(MapSegment(
                index=i, map_name=map_name_of(s.get("map_path", "")), level_name=s["level_name"],
                protocol=s["protocol"], protocol_flags=s.get("protocol_flags", 0), maxclients=s["maxclients"],
                gametype=s["gametype"], model_precache=s.get("model_precache", ("",)),
                sound_precache=s.get("sound_precache", ("",)), start_frame=start, end_frame=stop,
                start_time=float(times[start]) if start < stop else 0.0,
                end_time=float(times[stop - 1]) if start < stop else 0.0, time_offset=s["time_offset"],
                baselines=s.get("baselines", EntityStates.empty()), statics=s.get("statics", EntityStates.empty()),
                static_sounds=s.get("static_sounds", ()), map_path=s.get("map_path", ""),
                sky=s.get("sky")))
        return out

    def finish(self, *, protocol: int, protocol_flags: int, block_count: int, cd_track: int = -1,
               frameless_at_end: bool = False, view_entity: np.ndarray | Steps | None = None,
               view_origin: np.ndarray | Steps | None = None, view_angles: np.ndarray | Steps | None = None,
               stat_rows: np.ndarray | Steps | None = None, players: PlayerFrames | None = None, default_pov: int = -1,
               meta: Mapping[str, object] | None = None) -> DemoTimeline:
        """The timeline.  View and stat columns default to the ones appended per frame; a level without frames
        keeps its place (``frameless_at_end`` False) or sorts after the last frame."""
        self.check_budget()
        times = np.array(self.times, np.float64)
        nframes = len(times)
        fseg = np.array(self.frame_segment, np.int32)
        offsets, cols, entity_rows = self._entity_columns(times, fseg)
        segs = self._map_segments(times, frameless_at_end)

        def when(frame: int) -> tuple[int, float]:
            f = min(frame, nframes - 1)
            return f, float(times[f])

        events = []
        for frame, seg, cls, args in self.events:
            f, t = when(frame)
            if cls is ev.ServerInfoEvent and args[0] is None:      # the map is known once its model list arrived
                args = (segs[seg].map_name if seg < len(segs) else "",) + tuple(args[1:])
            events.append(cls(t, f, seg, *args))
        score_changes = []
        for frame, seg, slot, *rest in self.score_changes:
            f, t = when(frame)
            score_changes.append(ScoreChange(t, f, seg, slot, *rest))
        nstat = len(self.schema.stat_names)
        if stat_rows is None:
            values = np.frombuffer(self.stat_values, np.int64).reshape(-1, nstat).astype(np.int32)
            stat_rows = Steps.at_frames(nframes, np.frombuffer(self.stat_frames, np.int32), values, np.int32)
        return DemoTimeline(
            schema=self.schema, format=self.fmt.lower(), protocol=protocol, protocol_flags=protocol_flags,
            path=self.path, segments=segs, events=events, warnings=self.warnings, block_count=block_count,
            cd_track=cd_track, times=times, server_times=np.array(self.server_times, np.float64),
            frame_segment=fseg,
            view_entity=np.frombuffer(self.view_entity, np.int32) if view_entity is None else view_entity,
            view_origin=np.frombuffer(self.view_origin, np.float64) if view_origin is None else view_origin,
            view_angles=np.frombuffer(self.view_angles, np.float64) if view_angles is None else view_angles,
            stat_rows=stat_rows,
            entity_offsets=offsets, entity_columns=cols, entity_rows=entity_rows,
            lightstyle_changes=[(min(f, nframes - 1), style, pat) for f, style, pat in self.ls_changes],
            score_changes=score_changes, score_resets=[(min(f, nframes - 1), m) for f, m in self.score_resets],
            players=players, default_pov=default_pov, meta=meta)
