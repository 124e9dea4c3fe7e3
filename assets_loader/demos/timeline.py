"""The game-agnostic, immutable :class:`DemoTimeline` and the pure ``sample(timeline, t)``
(docs/DESIGN.md, "The one idea").

A decoder parses a demo once into numpy columns; everything interactive is then a pure function of time.

Frames.  One timeline frame per server time stamp (``svc_time`` in NetQuake): the frame holds the entities that
message updated, the recorder's view (the block's view angles, the view entity's origin + view height) and the
player stats after that message.  ``times`` is the monotonic playback clock: within the first map segment it is the
server time itself; each later segment is shifted so that it starts where the previous one ended, and a server
clock that steps back is clamped, so ``times`` never decreases.  ``server_times`` keeps the raw values.

State at ``t``.  Like the engine during demo playback (``CL_GetMessage`` reads the next message as soon as the
clock passes the newest one), the state at ``t`` is that of the *newer* bracketing frame ``hi`` (the first frame
with ``times[hi] >= t``): its entity set, stats, lightstyles and scoreboard; positions and angles are interpolated
from the older frame ``lo = hi - 1`` with ``frac = (t - times[lo]) / (times[hi] - times[lo])`` clamped to [0, 1]
(``CL_LerpPoint``), following ``CL_RelinkEntities``:

* entities are matched by number; an entity absent from ``hi`` is not drawn (static entities are separate);
* no lerp (snap to ``hi``) when the entity was absent from ``lo``, its model changed, or it moved more than
  100 units on any axis (teleport); frames of different map segments never interpolate;
* angles interpolate on the shortest arc;
* alias-model poses: each state carries ``prev_frame`` and ``frame_time`` (when its ``frame`` value last changed,
  i.e. the time of the message before the change) and ``frame_interval`` (0.1 s, or the 666/999 lerp-finish
  value); ``frame_blend = clamp((t - frame_time) / frame_interval, 0, 1)`` blends prev_frame → frame.

Storage (private): entity states of all frames in flat columns, frame ``f`` owning rows
``offsets[f]:offsets[f+1]`` sorted by entity number, so a seek is two slices and a dozen vectorised numpy ops.  The
storage holds what the demo sent, not frames × fields (issue 20 item 5): a common entity column whose rows are all
equal is one broadcast row, the others are kept in the narrowest dtype that holds their values exactly (8-bit frame
and skin numbers, 16-bit entity numbers, float32 times when exact) and widened back when sliced; a decoder may
also keep a state once for the frames that repeat it (``entity_rows``: the column row of each frame row, Quake III),
then a frame's rows are gathered instead of sliced; the recorder's view
and the stats are :class:`~.steps.Steps` (a row where the value changes), the lightstyle and scoreboard histories
change frames.  ``sample`` hands out the decoded dtypes, bit for bit the values decoded.

Players (QuakeWorld).  ``.qwd`` / ``.mvd`` timelines also carry :class:`PlayerFrames` (``timeline.players``): every
client slot's origin, view angles, pose, effects and stats per frame, so any player's eye can be sampled
(``sample(timeline, t, pov=slot)``): origin lerped like an entity, angles on the shortest arc, eye height 22 units
(``STAT_VIEWHEIGHT`` when the server sends it), -16 when dead, +8 when gibbed (``V_CalcRefdef``).  Quake III
timelines build theirs from the ``ET_PLAYER`` entities, NetQuake and Quake II ones from the players' entities
(:mod:`.entity_eyes`: no stats, the view pitch from the entity's), so every format has every player's eye.

References: QuakeSpasm ``cl_main.c`` ``CL_LerpPoint`` / ``CL_RelinkEntities``, ``r_alias.c`` ``R_SetupAliasFrame``
(pose lerp), ``cl_demo.c`` ``CL_GetDemoMessage`` (message timing during playback).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import pairwise
from types import MappingProxyType
from collections.abc import Mapping, Sequence

import numpy as np

from .entity_eyes import entity_players
from .events import Event
from .schema import GameSchema, view_height
from .steps import Steps, compact_column, is_broadcast, narrowest
from .trajectory import evaluate_trajectory, moves_by_itself

__all__ = ["DemoTimeline", "SceneState", "EntityStates", "MapSegment", "PlayerScore", "ScoreChange",
           "StaticSound", "PlayerFrames", "PLAYER_INTS", "sample", "sample_pov"]

_EMPTY_I = np.zeros(0, np.int32)
_EMPTY_F = np.zeros(0, np.float32)
_EMPTY_V = np.zeros((0, 3), np.float32)
_NO_EXTRA: Mapping[str, np.ndarray] = MappingProxyType({})
#: The entity columns every timeline has, with the dtype ``sample`` hands them out in (they may be stored compact:
#: :func:`~.steps.compact_column`); a decoder may add more (Quake II ``model2``, ``renderfx``, ``old_origin``…),
#: which ``sample`` slices into :attr:`EntityStates.extra` as they are.
STANDARD_DTYPES: Mapping[str, np.dtype] = MappingProxyType(
    {**{k: np.dtype(np.int32) for k in ("number", "model", "frame", "prev_frame", "skin", "colormap", "effects")},
     **{k: np.dtype(np.float32) for k in ("origin", "angles", "alpha", "scale", "frame_interval")},
     "frame_time": np.dtype(np.float64)})
STANDARD_COLUMNS = frozenset(STANDARD_DTYPES)
#: The common columns ``sample`` hands out as they are stored for the newer frame (origin and angles are lerped).
_HANDED_OUT = ("number", "model", "frame", "prev_frame", "skin", "colormap", "effects", "alpha", "scale")


def _ro(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


@dataclass(frozen=True, slots=True)
class EntityStates:
    """A set of entity states as parallel arrays, all of length N.

    ``number`` i4 [N] (static entities: -1), ``model`` i4 [N] (index into the segment's ``model_precache``),
    ``frame`` / ``prev_frame`` i4 [N], ``frame_blend`` f4 [N] (0 = prev_frame, 1 = frame), ``skin``, ``colormap``
    (0 = none, else scoreboard slot + 1), ``effects`` (EF_* bits) i4 [N], ``origin`` / ``angles`` f4 [N, 3]
    (pitch, yaw, roll degrees), ``alpha`` f4 [N] (1 = opaque), ``scale`` f4 [N] (1 = normal).  ``extra`` holds a
    game's further columns by name, each [N] or [N, 3] (Quake II: ``model2``…``model4``, ``renderfx``, ``sound``,
    ``event``, ``solid``, ``old_origin``); empty for games without.
    """

    number: np.ndarray
    model: np.ndarray
    frame: np.ndarray
    prev_frame: np.ndarray
    frame_blend: np.ndarray
    skin: np.ndarray
    colormap: np.ndarray
    effects: np.ndarray
    origin: np.ndarray
    angles: np.ndarray
    alpha: np.ndarray
    scale: np.ndarray
    extra: Mapping[str, np.ndarray] = field(default_factory=lambda: _NO_EXTRA)

    def __len__(self) -> int:
        return len(self.number)

    @staticmethod
    def empty() -> EntityStates:
        return EntityStates(_EMPTY_I, _EMPTY_I, _EMPTY_I, _EMPTY_I, _EMPTY_F, _EMPTY_I, _EMPTY_I, _EMPTY_I,
                            _EMPTY_V, _EMPTY_V, _EMPTY_F, _EMPTY_F)

    def index_of(self, number: int) -> int | None:
        """Row of entity ``number`` or ``None``."""
        hits = np.flatnonzero(self.number == number)
        return int(hits[0]) if len(hits) else None


@dataclass(frozen=True, slots=True)
class StaticSound:
    """An ambient sound (``svc_spawnstaticsound``): ``volume`` 0..1, ``attenuation`` as sent / 64."""

    origin: tuple[float, float, float]
    sound_index: int
    sound: str
    volume: float
    attenuation: float


@dataclass(frozen=True, slots=True)
class MapSegment:
    """One level of the demo: everything a ``svc_serverinfo`` starts.

    ``model_precache[i]`` / ``sound_precache[i]`` name model/sound index ``i`` (index 0 is ``""``).  ``map_path`` is
    the world model (``maps/e1m1.bsp``; ``""`` when unknown).  Frames ``start_frame:end_frame`` belong to the segment;
    ``time_offset`` converts server time to timeline time (``timeline = server + time_offset``).
    """

    index: int
    map_name: str
    level_name: str
    protocol: int
    protocol_flags: int
    maxclients: int
    gametype: int
    model_precache: tuple[str, ...]
    sound_precache: tuple[str, ...]
    start_frame: int
    end_frame: int
    start_time: float
    end_time: float
    time_offset: float
    baselines: EntityStates
    statics: EntityStates
    static_sounds: tuple[StaticSound, ...]
    map_path: str = ""
    #: Quake III: the player models (``model/skin`` of ``CS_PLAYERS``) the segment's clients use at any time.
    player_models: tuple[str, ...] = ()
    #: Quake II: the sky the level's configstrings name (``CS_SKY``, ``CS_SKYROTATE``, ``CS_SKYAXIS`` texts), ``None``
    #: when they name none (the map's worldspawn sky is used).
    sky: tuple[str, str, str] | None = None


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """A scoreboard slot (client ``slot`` is entity ``slot + 1``); ``top`` / ``bottom`` are colours 0..15."""

    slot: int
    name: str
    frags: int
    colors: int
    #: QuakeWorld extras (userinfo ``team``, ``*spectator``; ``svc_updateping`` / ``svc_updatepl``; the full userinfo
    #: as ``(key, value)`` pairs in wire order), also kept for Quake III with ``minutes`` on the server (``scores``).
    #: NetQuake slots keep the defaults.
    team: str = ""
    spectator: bool = False
    userid: int = 0
    ping: int = 0
    pl: int = 0
    userinfo: tuple[tuple[str, str], ...] = ()
    minutes: int = 0

    @property
    def info(self) -> dict[str, str]:
        """The userinfo as a dict (QuakeWorld; empty for NetQuake)."""
        return dict(self.userinfo)

    @property
    def top(self) -> int:
        return (self.colors >> 4) & 15

    @property
    def bottom(self) -> int:
        return self.colors & 15


@dataclass(frozen=True, slots=True)
class ScoreChange:
    """The full state of one slot after an ``updatename`` / ``updatefrags`` / ``updatecolors`` at ``time``."""

    time: float
    frame: int
    segment: int
    slot: int
    name: str
    frags: int
    colors: int
    team: str = ""
    spectator: bool = False
    userid: int = 0
    ping: int = 0
    pl: int = 0
    userinfo: tuple[tuple[str, str], ...] = ()
    minutes: int = 0


#: The integer columns of a player row (:attr:`PlayerFrames.row_ints`), in order.
PLAYER_INTS = ("model", "frame", "skin", "effects", "weaponframe", "flags")


@dataclass(frozen=True, slots=True)
class PlayerFrames:
    """Per-frame state of every client slot (QuakeWorld ``svc_playerinfo``), stored as rows — one per slot and frame
    the slot was in — so memory follows what the demo sent, not frames × slots.

    F = ``num_frames``, P = ``num_slots`` (the highest slot seen + 1).  The rows of slot ``s`` are
    ``slot_start[s]:slot_start[s + 1]`` (i8 [P + 1]), in frame order: ``row_frame`` i4 [R], ``row_origin`` f4 [R, 3]
    (entity origin), ``row_angles`` f4 [R, 3] (view angles: pitch, yaw, roll degrees — the drawn model uses
    ``-pitch / 3``), ``row_ints`` [R, 6] (:data:`PLAYER_INTS`; ``flags`` holds :data:`~.schema.PLAYER_DEAD` /
    :data:`~.schema.PLAYER_GIB`).  Stats are stored when they change: the rows of slot ``s`` are
    ``stat_start[s]:stat_start[s + 1]``, ``stat_frame`` i4 [S], ``stat_values`` [S, stats]; a slot's stats at
    frame ``f`` are those of its last change at or before ``f`` (before the first change, the first).  ``row_ints``
    and ``stat_values`` are kept in the narrowest integer dtype that holds them (:func:`~.steps.narrowest`).
    ``has_stats`` bool [P] (MVD ``dem_stats`` per player; in a ``.qwd`` only the recorder's).  ``recorder`` is the
    recording client's slot (``.qwd``) or -1 (``.mvd``); ``from_entities``: derived from the entity rows
    (:mod:`.entity_eyes`).

    The dense views ``present`` bool [F, P], ``origin`` / ``angles`` f8 [F, P, 3], ``model`` … ``flags`` i4 [F, P] and
    ``stats`` i4 [F, P, stats] are built on each access (zeros where a slot was absent): for reports and tests.
    """

    num_frames: int
    slot_start: np.ndarray
    row_frame: np.ndarray
    row_origin: np.ndarray
    row_angles: np.ndarray
    row_ints: np.ndarray
    stat_start: np.ndarray
    stat_frame: np.ndarray
    stat_values: np.ndarray
    has_stats: np.ndarray
    recorder: int = -1
    #: Built from the players' entities by :mod:`.entity_eyes` (NetQuake, Quake II), not decoded.
    from_entities: bool = False
    # Per slot: (first row, its rows' frames) and (first stat row, their frames) — views for quick look-ups.
    _rows_by_slot: tuple[tuple[int, np.ndarray], ...] = field(init=False, repr=False, compare=False)
    _stats_by_slot: tuple[tuple[int, np.ndarray], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "row_ints", narrowest(self.row_ints))
        object.__setattr__(self, "stat_values", narrowest(self.stat_values))
        rows = self.slot_start.tolist()
        stats = self.stat_start.tolist()
        object.__setattr__(self, "_rows_by_slot", tuple((a, self.row_frame[a:b]) for a, b in pairwise(rows)))
        object.__setattr__(self, "_stats_by_slot", tuple((a, self.stat_frame[a:b]) for a, b in pairwise(stats)))

    @property
    def num_slots(self) -> int:
        return len(self.slot_start) - 1

    def seen_slots(self) -> np.ndarray:
        """The slots with at least one row."""
        return np.flatnonzero(np.diff(self.slot_start) > 0)

    def row_near(self, slot: int, frame: int) -> tuple[int, bool]:
        """``(row, exact)``: the row of ``slot`` at ``frame``, else its last row before, else its first after
        (``row`` -1 when the slot has none)."""
        a, frames = self._rows_by_slot[slot]
        if not len(frames):
            return -1, False
        i = int(frames.searchsorted(frame, side="right")) - 1
        if i < 0:
            return a, False
        return a + i, bool(frames[i] == frame)

    def stats_at(self, slot: int, frame: int) -> np.ndarray:
        """i4 [stats]: the stats of ``slot`` at ``frame`` (zeros if it has none)."""
        a, frames = self._stats_by_slot[slot]
        if not len(frames):
            return np.zeros(self.stat_values.shape[1], np.int32)
        return self.stat_values[a + max(int(frames.searchsorted(frame, side="right")) - 1, 0)]

    def slot_stats(self, slot: int) -> np.ndarray:
        """i4 [F, stats]: the stats of ``slot`` at every frame."""
        a, b = int(self.stat_start[slot]), int(self.stat_start[slot + 1])
        if a == b:
            return np.zeros((self.num_frames, self.stat_values.shape[1]), np.int32)
        idx = np.searchsorted(self.stat_frame[a:b], np.arange(self.num_frames), side="right") - 1
        return self.stat_values[a + np.maximum(idx, 0)]

    def _row_slots(self) -> np.ndarray:
        return np.repeat(np.arange(self.num_slots), np.diff(self.slot_start))

    def _dense(self, values: np.ndarray, dtype: type) -> np.ndarray:
        out: np.ndarray = np.zeros((self.num_frames, self.num_slots) + values.shape[1:], dtype)
        out[self.row_frame, self._row_slots()] = values
        return out

    @property
    def present(self) -> np.ndarray:
        return self._dense(np.ones(len(self.row_frame), bool), bool)

    @property
    def origin(self) -> np.ndarray:
        return self._dense(self.row_origin, np.float64)

    @property
    def angles(self) -> np.ndarray:
        return self._dense(self.row_angles, np.float64)

    @property
    def model(self) -> np.ndarray:
        return self._dense(self.row_ints[:, 0], np.int32)

    @property
    def frame(self) -> np.ndarray:
        return self._dense(self.row_ints[:, 1], np.int32)

    @property
    def skin(self) -> np.ndarray:
        return self._dense(self.row_ints[:, 2], np.int32)

    @property
    def effects(self) -> np.ndarray:
        return self._dense(self.row_ints[:, 3], np.int32)

    @property
    def weaponframe(self) -> np.ndarray:
        return self._dense(self.row_ints[:, 4], np.int32)

    @property
    def flags(self) -> np.ndarray:
        return self._dense(self.row_ints[:, 5], np.int32)

    @property
    def stats(self) -> np.ndarray:
        out = np.zeros((self.num_frames, self.num_slots, self.stat_values.shape[1]), np.int32)
        for slot in range(self.num_slots):
            out[:, slot] = self.slot_stats(slot)
        return out


@dataclass(frozen=True, slots=True)
class SceneState:
    """Everything drawable at time ``t`` (see the module docstring for the rules).

    ``frame`` is the newer bracketing frame, ``lerp`` the interpolation factor from the older one, ``view_origin``
    / ``view_angles`` f8 [3] the recorder's eye (origin includes the view height) and look direction,
    ``entities`` the dynamic entities drawn (includes the view entity: skip it for a first-person camera),
    ``statics`` the segment's static entities, ``stats`` the game's stat values (by the schema's stat names),
    ``lightstyles`` the 64 style
    strings, ``scoreboard`` one entry per client slot of the segment.  ``pov`` is the player slot whose eye the view
    is (QuakeWorld, Quake III), or -1 for the recorder's default view.  ``entity_fields`` holds the game's extra
    per-entity columns (``entities.extra``, row-aligned with ``entities``; empty for Quake and QuakeWorld).
    """

    time: float
    frame: int
    segment: int
    lerp: float
    view_entity: int
    view_origin: np.ndarray
    view_angles: np.ndarray
    entities: EntityStates
    statics: EntityStates
    stats: Mapping[str, int]
    lightstyles: tuple[str, ...]
    scoreboard: tuple[PlayerScore, ...]
    pov: int = -1
    entity_fields: Mapping[str, np.ndarray] = field(default_factory=lambda: _NO_EXTRA)


class DemoTimeline:
    """An immutable decoded demo: per-frame columns, map segments, events, lightstyles and scoreboard over time.

    Built by a decoder (``load_demo``), never by hand.  Public columns (read-only numpy arrays, F = frames):
    ``times`` f8 [F], ``server_times`` f8 [F], ``frame_segment`` i4 [F]; ``view_entity`` i4 [F],
    ``view_origin`` f8 [F, 3], ``view_angles`` f8 [F, 3] and ``stats[name]`` i4 [F] (names: ``schema.stat_names``)
    are stored where they change (:class:`~.steps.Steps`) and built on each access: ``sample`` reads the steps.
    ``schema`` is the game's :class:`~.schema.GameSchema` (``game`` is its name).

    ``players`` (:class:`PlayerFrames`; ``None`` when no player was ever seen), ``default_pov`` (the slot the
    default view follows, -1 if none) and ``meta`` (read-only dict of format facts: ``gamedir``, ``serverinfo``,
    ``extensions``, ``recorder``…).
    """

    __slots__ = ("schema", "game", "format", "protocol", "protocol_flags", "path", "segments", "events", "warnings",
                 "block_count", "cd_track", "times", "server_times", "frame_segment", "_view_entity", "_view_origin",
                 "_view_angles", "lightstyles", "scoreboard_changes",
                 "_offsets", "_cols", "_ls_frames", "_ls_snapshots", "_sb_frames", "_sb_snapshots",
                 "_stat_rows", "_statics_cache", "_events_by_kind", "players", "default_pov", "meta", "_extra_keys",
                 "_col_dtype", "_widen", "_constant_rows", "_ints", "_int_names", "_row_index", "_extra_blocks",
                 "__weakref__")

    def __init__(self, *, schema: GameSchema, format: str, protocol: int, protocol_flags: int, path: str,
                 segments: Sequence[MapSegment], events: Sequence[Event], warnings: Sequence[str],
                 block_count: int, cd_track: int, times: np.ndarray, server_times: np.ndarray,
                 frame_segment: np.ndarray, view_entity: np.ndarray | Steps, view_origin: np.ndarray | Steps,
                 view_angles: np.ndarray | Steps, stat_rows: np.ndarray | Steps, entity_offsets: np.ndarray,
                 entity_columns: Mapping[str, np.ndarray], lightstyle_changes: Sequence[tuple[int, int, str]],
                 score_changes: Sequence[ScoreChange], score_resets: Sequence[tuple[int, int]],
                 players: PlayerFrames | None = None, default_pov: int = -1,
                 meta: Mapping[str, object] | None = None, entity_rows: np.ndarray | None = None) -> None:
        """Internal: decoders pass finished columns.  ``entity_columns`` maps the :class:`EntityStates` field names
        (minus ``frame_blend``) plus ``frame_time`` f8 / ``frame_interval`` f4 to arrays of all frames' rows,
        ``entity_offsets`` i8 [F + 1]; ``entity_rows`` (optional, i4 [rows]) gives each row of the frames its row of
        ``entity_columns``, for a decoder that keeps a repeated state once (else row k is row k of the columns);
        ``lightstyle_changes`` are ``(frame, style, pattern)`` in frame order;
        ``score_resets`` ``(frame, maxclients)`` mark segment starts.  The view and stat columns come dense
        ([F] / [F, 3] / [F, stats]) or as :class:`~.steps.Steps`; they are kept as steps either way."""
        self.schema = schema
        self.game = schema.game
        self.format = format
        self.protocol = protocol
        self.protocol_flags = protocol_flags
        self.path = path
        self.segments = tuple(segments)
        self.events = tuple(events)
        by_kind: dict[str, list[Event]] = {}
        for e in self.events:
            by_kind.setdefault(e.kind, []).append(e)
        self._events_by_kind = {kind: tuple(group) for kind, group in by_kind.items()}
        self.warnings = tuple(warnings)
        self.block_count = block_count
        self.cd_track = cd_track
        self.times = _ro(np.asarray(times, np.float64))
        self.server_times = _ro(np.asarray(server_times, np.float64))
        self.frame_segment = _ro(np.asarray(frame_segment, np.int32))
        self._view_entity = _steps(view_entity, np.int32, ())
        self._view_origin = _steps(view_origin, np.float64, (3,))
        self._view_angles = _steps(view_angles, np.float64, (3,))
        self._stat_rows = _steps(stat_rows, np.int32, (len(schema.stat_names),))
        self._offsets = _ro(narrowest(np.asarray(entity_offsets, np.int64)))
        self._row_index = None if entity_rows is None else _ro(narrowest(np.asarray(entity_rows, np.int64)))
        # The common columns are kept compact (one value broadcast when every row has it, else the narrowest exact
        # dtype) and widened back to their decoded dtype when sliced; a game's extra columns stay as decoded.
        self._col_dtype = {k: STANDARD_DTYPES.get(k, v.dtype) for k, v in entity_columns.items()}
        self._cols = {k: _ro(compact_column(v) if k in STANDARD_COLUMNS else v) for k, v in entity_columns.items()}
        self._widen = {k: self._col_dtype[k] for k, v in self._cols.items()
                       if v.dtype != self._col_dtype[k] or is_broadcast(v)}
        # A constant column's value for the most rows a frame has: a frame's rows are a slice of it (no copy).
        most = int(np.diff(self._offsets).max(initial=0))
        self._constant_rows = {k: _ro(np.full(most, v[0], self._col_dtype[k])) for k, v in self._cols.items()
                               if k in _HANDED_OUT and is_broadcast(v)}
        # The other integer columns sample() hands out share one [columns, rows] array (their widest narrowed
        # dtype), so a frame's are widened in one step; each column is a row of it.
        self._int_names = tuple(k for k in _HANDED_OUT if k in self._cols and k not in self._constant_rows
                                and self._col_dtype[k].kind == "i")
        self._ints = _ro(np.stack([self._cols[k] for k in self._int_names]) if self._int_names
                         else np.zeros((0, max((len(v) for v in self._cols.values()), default=0)), np.int32))
        for i, k in enumerate(self._int_names):
            self._cols[k] = self._ints[i]
        self._extra_keys = tuple(k for k in self._cols if k not in STANDARD_COLUMNS)
        # With indexed rows, the extra columns of one dtype and row shape share one [columns, rows, ...] array, so
        # a frame's are gathered in one step; each column is a row of it.
        groups: dict[tuple[np.dtype, tuple[int, ...]], list[str]] = {}
        for k in self._extra_keys if self._row_index is not None else ():
            groups.setdefault((self._cols[k].dtype, self._cols[k].shape[1:]), []).append(k)
        self._extra_blocks = tuple((_ro(np.stack([self._cols[k] for k in names])), tuple(names))
                                   for names in groups.values())
        for block, names in self._extra_blocks:
            self._cols.update(zip(names, block))
        self.scoreboard_changes = tuple(score_changes)
        self.players = players
        self.default_pov = int(default_pov)
        self.meta: Mapping[str, object] = MappingProxyType(dict(meta or {}))
        n = len(self.times)

        # Lightstyles: per style the (time, pattern) history, plus one snapshot per change count for sample().
        ls: dict[int, list[tuple[float, str]]] = {}
        current = [""] * 64
        snapshots = [tuple(current)]
        frames_of_change = []
        for frame, style, pattern in lightstyle_changes:
            when = float(self.times[min(frame, n - 1)]) if n else 0.0
            ls.setdefault(style, []).append((when, pattern))
            current[style] = pattern
            snapshots.append(tuple(current))
            frames_of_change.append(frame)
        self.lightstyles: Mapping[int, tuple[tuple[float, str], ...]] = MappingProxyType(
            {k: tuple(v) for k, v in sorted(ls.items())})
        self._ls_snapshots = tuple(snapshots)
        self._ls_frames = tuple(frames_of_change)       # snapshot k + 1 holds from frame _ls_frames[k] on

        # Scoreboard: one snapshot per change (resets start a segment with empty slots).
        slots: list[PlayerScore] = []
        snapshots_sb: list[tuple[PlayerScore, ...]] = [()]
        frames_sb: list[int] = []
        merged = sorted([(f, 0, i) for i, (f, _m) in enumerate(score_resets)]
                        + [(c.frame, 1, i) for i, c in enumerate(self.scoreboard_changes)])
        for frame, typ, i in merged:
            if typ == 0:
                slots = [PlayerScore(s, "", 0, 0) for s in range(score_resets[i][1])]
            elif (change := self.scoreboard_changes[i]).slot < len(slots):
                slots[change.slot] = PlayerScore(change.slot, change.name, change.frags, change.colors, change.team,
                                                 change.spectator, change.userid, change.ping, change.pl,
                                                 change.userinfo, change.minutes)
            snapshots_sb.append(tuple(slots))
            frames_sb.append(frame)
        self._sb_snapshots = tuple(snapshots_sb)
        self._sb_frames = tuple(frames_sb)
        self._statics_cache = tuple(seg.statics for seg in self.segments)
        if self.players is None and n:
            self.players = self._entity_players()

    def replaced(self, *, players: PlayerFrames | None, events: Sequence[Event],
                 meta: Mapping[str, object]) -> DemoTimeline:
        """This timeline with other ``players``, ``events`` and ``meta``, sharing every other column (no copy):
        how :mod:`.merge` adds another demo's players to it."""
        out = object.__new__(DemoTimeline)
        for name in DemoTimeline.__slots__:
            if name != "__weakref__":
                setattr(out, name, getattr(self, name))
        out.players = players
        out.events = tuple(sorted(events, key=lambda e: e.frame))      # stable: demo order within a frame
        by_kind: dict[str, list[Event]] = {}
        for e in out.events:
            by_kind.setdefault(e.kind, []).append(e)
        out._events_by_kind = {kind: tuple(group) for kind, group in by_kind.items()}
        out.meta = MappingProxyType(dict(meta))
        return out

    def _entity_players(self) -> PlayerFrames | None:
        """Every client slot's eye from its entity (NetQuake, Quake II: :mod:`.entity_eyes`)."""
        col = self.entity_column
        slots = max((len(board) for board in self._sb_snapshots), default=0)
        recorder = int(self._view_entity.values[0]) - self.schema.client_entity_offset
        return entity_players(self.schema, self.times, np.asarray(self._offsets, np.int64), col("number"), col("model"),
                              col("frame"), col("skin"), col("effects"), col("origin"), col("angles"), slots,
                              len(self.schema.stat_names), recorder if 0 <= recorder < slots else -1)

    # --- the view and stat columns (stored as steps, dense on demand) ----------------------------------------------

    @property
    def view_entity(self) -> np.ndarray:
        """i4 [F] (built on each access)."""
        return self._view_entity.dense()

    @property
    def view_origin(self) -> np.ndarray:
        """f8 [F, 3] (built on each access)."""
        return self._view_origin.dense()

    @property
    def view_angles(self) -> np.ndarray:
        """f8 [F, 3] (built on each access)."""
        return self._view_angles.dense()

    @property
    def stats(self) -> Mapping[str, np.ndarray]:
        """Stat name → i4 [F] (built on each access)."""
        rows = self._stat_rows.dense()
        return MappingProxyType({name: rows[:, i] for i, name in enumerate(self.schema.stat_names)})

    def stats_window(self, first: int, last: int) -> Mapping[str, np.ndarray]:
        """Stat name → i4 [N]: the stats of frames ``first`` … ``last - 1`` only (clipped to the demo), for readers
        that look a few frames back without building whole columns."""
        rows = self._stat_rows.window(first, last)
        return MappingProxyType({name: rows[:, i] for i, name in enumerate(self.schema.stat_names)})

    def view_angles_at(self, frame: int) -> np.ndarray:
        """f8 [3]: the view angles of frame ``frame`` (clamped to the demo)."""
        return self._view_angles.at(min(max(frame, 0), max(len(self.times) - 1, 0)))

    # --- summary ------------------------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.times)

    def __repr__(self) -> str:
        maps = ",".join(s.map_name for s in self.segments)
        return (f"DemoTimeline({self.format} protocol {self.protocol}, maps {maps}, {len(self)} frames, "
                f"{self.duration:.3f} s)")

    @property
    def nbytes(self) -> int:
        """Bytes of the per-frame storage: frame, view and stat columns, entity rows and the player table (each
        buffer counted once, a broadcast column as its one row)."""
        arrays: list[np.ndarray] = [self.times, self.server_times, self.frame_segment, self._offsets, self._ints,
                                    *self._cols.values(), *self._constant_rows.values(),
                                    *(block for block, _ in self._extra_blocks)]
        if self._row_index is not None:
            arrays.append(self._row_index)
        for steps in (self._view_entity, self._view_origin, self._view_angles, self._stat_rows):
            arrays += [steps.frames, steps.values]
        if self.players is not None:
            pl = self.players
            arrays += [pl.slot_start, pl.row_frame, pl.row_origin, pl.row_angles, pl.row_ints, pl.stat_start,
                       pl.stat_frame, pl.stat_values, pl.has_stats]
        buffers: dict[int, int] = {}
        for a in arrays:
            while isinstance(a.base, np.ndarray):
                a = a.base
            buffers[id(a)] = a.nbytes
        return sum(buffers.values())

    @property
    def num_frames(self) -> int:
        return len(self.times)

    @property
    def start_time(self) -> float:
        return float(self.times[0]) if len(self.times) else 0.0

    @property
    def end_time(self) -> float:
        return float(self.times[-1]) if len(self.times) else 0.0

    @property
    def duration(self) -> float:
        """Last frame time − first frame time (seconds)."""
        return self.end_time - self.start_time

    @property
    def maps(self) -> tuple[str, ...]:
        return tuple(s.map_name for s in self.segments)

    def frame_at(self, t: float) -> int:
        """Index of the newer bracketing frame for time ``t`` (clamped to the demo)."""
        n = len(self.times)
        if n == 0:
            raise IndexError("empty timeline")
        return min(int(np.searchsorted(self.times, t, side="left")), n - 1)

    def frame_entities(self, frame: int) -> EntityStates:
        """The entity states decoded for ``frame`` (sorted by number; ``frame_blend`` is 1)."""
        n = len(self.times)
        if not -n <= frame < n:
            raise IndexError(f"frame {frame} out of range 0..{n - 1}")
        frame %= n
        a, b = int(self._offsets[frame]), int(self._offsets[frame + 1])
        r = self._rows
        return EntityStates(r("number", a, b), r("model", a, b), r("frame", a, b), r("prev_frame", a, b),
                            np.ones(b - a, np.float32), r("skin", a, b), r("colormap", a, b), r("effects", a, b),
                            r("origin", a, b), r("angles", a, b), r("alpha", a, b), r("scale", a, b),
                            self._extra_slices(a, b))

    def frames_entities(self, first: int, last: int) -> tuple[np.ndarray, EntityStates]:
        """The entity states of frames ``first..last`` (inclusive) in one piece, frame after frame, and the frame of
        each row (``i8 [N]``): what :meth:`frame_entities` gives for each of those frames, without a call per
        frame."""
        n = len(self.times)
        if not 0 <= first <= last < n:
            raise IndexError(f"frames {first}..{last} out of range 0..{n - 1}")
        a, b = int(self._offsets[first]), int(self._offsets[last + 1])
        rows_per_frame = np.diff(self._offsets[first:last + 2])
        frame_of_row = np.repeat(np.arange(first, last + 1, dtype=np.int64), rows_per_frame)
        r = self._rows
        return frame_of_row, EntityStates(
            r("number", a, b), r("model", a, b), r("frame", a, b), r("prev_frame", a, b), np.ones(b - a, np.float32),
            r("skin", a, b), r("colormap", a, b), r("effects", a, b), r("origin", a, b), r("angles", a, b),
            r("alpha", a, b), r("scale", a, b), self._extra_slices(a, b))

    def _span(self, a: int, b: int) -> slice | np.ndarray:
        """Where rows ``a:b`` of the frames are in the entity columns: that slice, or their column rows when the
        decoder keeps repeated states once (``entity_rows``)."""
        return slice(a, b) if self._row_index is None else self._row_index[a:b].astype(np.intp)

    def _rows(self, name: str, a: int, b: int) -> np.ndarray:
        """Rows ``a:b`` of entity column ``name`` in its decoded dtype (a view, or a copy of a compacted or
        indexed column)."""
        v = self._cols[name][self._span(a, b)]
        return v.astype(self._widen[name]) if name in self._widen else v

    def entity_column(self, name: str) -> np.ndarray:
        """Every frame's rows of entity column ``name`` (``frame_entities`` of all frames, concatenated), in its
        decoded dtype: for reports and tests (built on each call)."""
        column = np.array(self._cols[name], self._col_dtype[name])
        return column if self._row_index is None else column[self._row_index]

    def entity_row_frames(self) -> np.ndarray:
        """i8 [rows]: the frame of each row of :meth:`entity_column`, for whole-demo scans of a column (built on
        each call)."""
        counts = np.diff(np.asarray(self._offsets, np.int64)).astype(np.int64)
        return np.repeat(np.arange(len(self.times), dtype=np.int64), counts)

    def _extra_slices(self, a: int, b: int) -> Mapping[str, np.ndarray]:
        if not self._extra_keys:
            return _NO_EXTRA
        if self._row_index is None:
            return MappingProxyType({k: self._cols[k][a:b] for k in self._extra_keys})
        span = self._row_index[a:b].astype(np.intp)
        rows = {k: v for block, names in self._extra_blocks for k, v in zip(names, block.take(span, axis=1))}
        return MappingProxyType({k: rows[k] for k in self._extra_keys})

    def final_scoreboard(self) -> tuple[PlayerScore, ...]:
        return self._sb_snapshots[-1]

    def events_of_kind(self, kind: str) -> tuple[Event, ...]:
        """The events of one ``kind``, in demo order (grouped once when the timeline is built)."""
        return self._events_by_kind.get(kind, ())

    @property
    def pov_slots(self) -> tuple[int, ...]:
        """Player slots that can be viewed with ``sample(t, pov=slot)`` (present in some frame)."""
        if self.players is None:
            return ()
        return tuple(int(s) for s in self.players.seen_slots())

    def sample(self, t: float, pov: int | None = None) -> SceneState:
        """Same as :func:`sample` (``sample(self, t, pov)``)."""
        return sample(self, t, pov)


def _steps(column: np.ndarray | Steps, dtype: type, shape: tuple[int, ...]) -> Steps:
    """A view / stat column as :class:`Steps` (dense input is cast to ``dtype`` rows of ``shape`` first)."""
    if isinstance(column, Steps):
        return column
    return Steps.of(np.asarray(column, dtype).reshape((-1,) + shape), dtype)


def _lerp_angles(a0: np.ndarray, a1: np.ndarray, frac: float | np.floating) -> np.ndarray:
    d = a1 - a0
    d = (d + 180.0) % 360.0 - 180.0
    return a0 + frac * d


def _trajectories(timeline: DemoTimeline, segment: int, t: float, fields: Mapping[str, np.ndarray],
                  origin: np.ndarray, angles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Quake III: origins / angles of the entities on a moving trajectory, evaluated at ``t`` (``trajectory.py``);
    the others keep their snapshot lerp (``CG_CalcEntityLerpPositions``)."""
    at_ms = (t - timeline.segments[segment].time_offset) * 1000.0
    out = []
    for prefix, values in (("pos", origin), ("apos", angles)):
        moving = np.flatnonzero(moves_by_itself(fields[f"{prefix}_trType"]))
        if len(moving):
            values = np.array(values, np.float32)
            values[moving] = evaluate_trajectory(
                fields[f"{prefix}_trType"][moving], fields[f"{prefix}_trTime"][moving],
                fields[f"{prefix}_trDuration"][moving], fields[f"{prefix}_trBase"][moving],
                fields[f"{prefix}_trDelta"][moving], at_ms)
        out.append(values)
    return out[0], out[1]


def sample_pov(timeline: DemoTimeline, t: float, slot: int) -> SceneState:
    """The scene at ``t`` seen from player ``slot``'s eye (QuakeWorld); same as ``sample(timeline, t, pov=slot)``."""
    return sample(timeline, t, slot)


def _pov_view(timeline: DemoTimeline, slot: int, lo: int, hi: int, frac: float
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Eye origin / angles of ``slot`` between frames ``lo`` and ``hi`` and its stats (``None`` without stats)."""
    pl: PlayerFrames = timeline.players  # type: ignore[assignment]  # checked by sample()
    teleport = timeline.schema.teleport_distance
    has_stats = bool(pl.has_stats[slot])
    vh_col = timeline.schema.stat_names.index("viewheight") if "viewheight" in timeline.schema.stat_names else -1
    default = timeline.schema.view_height
    origins, angles_rows, ints = pl.row_origin, pl.row_angles, pl.row_ints

    def eye(row: int, stats: np.ndarray | None) -> np.ndarray:
        vh = int(stats[vh_col]) if stats is not None and vh_col >= 0 else 0
        if row < 0:
            return np.array([0.0, 0.0, view_height(0, vh, default)])
        o = origins[row].astype(np.float64)
        o[2] += view_height(int(ints[row, 5]), vh, default)
        return o

    row1, exact = pl.row_near(slot, hi)
    src = hi
    if not exact:
        # Not in this frame (out of the recorder's PVS, disconnected): hold the last known state.
        src = int(pl.row_frame[row1]) if row1 >= 0 else hi
        lo = src
    stats1 = pl.stats_at(slot, src) if has_stats else None
    o1 = eye(row1, stats1)
    a1 = angles_rows[row1].astype(np.float64) if row1 >= 0 else np.zeros(3)
    row0, present0 = pl.row_near(slot, lo) if lo != src and frac < 1.0 else (-1, False)
    if present0:
        o0 = eye(row0, pl.stats_at(slot, lo) if has_stats else None)
        d = o1 - o0
        origin = o1 if (np.abs(d) > teleport).any() else o0 + frac * d
        angles = _lerp_angles(angles_rows[row0].astype(np.float64), a1, frac)
    else:
        origin, angles = o1, a1.copy()
    return origin, angles, stats1


def sample(timeline: DemoTimeline, t: float, pov: int | None = None) -> SceneState:
    """The scene at time ``t`` — pure and deterministic, any ``t`` in any order (rules: module docstring).

    ``pov`` (QuakeWorld, Quake III) is a player slot: the view is that player's eye and the stats are theirs when
    the demo has them (MVD ``dem_stats``); ``view_entity`` becomes the slot's entity.  ``ValueError`` for a slot the
    timeline has no player data for.
    """
    if pov is not None:
        pl = timeline.players
        if pl is None or not 0 <= pov < pl.num_slots:
            raise ValueError(f"no player data for slot {pov} (pov_slots: {timeline.pov_slots})")
    times = timeline.times
    n = len(times)
    t = float(t)
    if n == 0:
        empty = EntityStates.empty()
        return SceneState(t, -1, -1, 1.0, 0, np.zeros(3), np.zeros(3), empty, empty, MappingProxyType({}),
                          ("",) * 64, ())
    hi = int(np.searchsorted(times, t, side="left"))
    if hi >= n:
        hi = n - 1
    seg = timeline.frame_segment
    seg_hi = int(seg[hi])
    lo = hi - 1 if hi > 0 and seg[hi - 1] == seg_hi else hi
    if lo == hi:
        frac = 1.0
    else:
        t0 = times[lo]
        dt = times[hi] - t0
        frac = 1.0 if dt <= 0 else min(max((t - t0) / dt, 0.0), 1.0)

    teleport = timeline.schema.teleport_distance
    off = timeline._offsets
    c = timeline._cols
    a, b = int(off[hi]), int(off[hi + 1])
    rows1 = timeline._span(a, b)
    # Compacted columns are handed out in their decoded dtype (the older frame's are only compared).
    ints = timeline._ints[:, rows1]
    s1 = dict(zip(timeline._int_names, ints if ints.dtype == np.int32 else ints.astype(np.int32)))
    same = timeline._constant_rows
    for k in _HANDED_OUT:
        if k not in s1:
            s1[k] = same[k][:b - a] if k in same else timeline._rows(k, a, b)
    num1 = s1["number"]
    model1 = s1["model"]
    org1 = c["origin"][rows1]
    ang1 = c["angles"][rows1]
    frame1 = s1["frame"]
    prev1 = s1["prev_frame"]

    if lo != hi and frac < 1.0 and b > a:
        a0, b0 = int(off[lo]), int(off[lo + 1])
        rows0 = timeline._span(a0, b0)
        num0 = c["number"][rows0]
        if b0 > a0:
            idx = np.searchsorted(num0, num1)
            np.minimum(idx, b0 - a0 - 1, out=idx)
            org0 = c["origin"][rows0][idx]
            ang0 = c["angles"][rows0][idx]
            delta = org1 - org0
            snap = ((num0[idx] != num1) | (c["model"][rows0][idx] != model1)
                    | (np.abs(delta) > teleport).any(axis=1))
            if timeline.schema.snap_events and "event" in c:
                snap |= np.isin(c["event"][rows1], timeline.schema.snap_events)
            origin = org0 + np.float32(frac) * delta
            angles = _lerp_angles(ang0, ang1, np.float32(frac)).astype(np.float32, copy=False)
            if snap.any():
                if "old_origin" in c:
                    # Quake II (CL_DeltaEntity): a new, changed or teleported entity lerps from its old_origin.
                    old = c["old_origin"][rows1][snap]
                    origin[snap] = old + np.float32(frac) * (org1[snap] - old)
                else:
                    origin[snap] = org1[snap]
                angles[snap] = ang1[snap]
        elif "old_origin" in c:                      # nothing in the older frame: every entity is new
            old = c["old_origin"][rows1]
            origin, angles = old + np.float32(frac) * (org1 - old), ang1
        else:
            origin, angles = org1, ang1
    else:
        origin, angles = org1, ang1

    # Alias pose blend from the time each entity's frame value changed.
    changed = prev1 != frame1
    if changed.any():
        blend = (t - timeline._rows("frame_time", a, b)) / c["frame_interval"][rows1]
        blend = np.minimum(np.maximum(blend, 0.0), 1.0).astype(np.float32)
        blend[~changed] = 1.0
    else:
        blend = np.ones(b - a, np.float32)

    extra = timeline._extra_slices(a, b)   # the game's own entity columns (Quake II model2…, Quake III trajectories)
    if timeline.schema.trajectory == "quake3" and b > a:
        origin, angles = _trajectories(timeline, seg_hi, t, extra, origin, angles)

    entities = EntityStates(num1, model1, frame1, prev1, blend, s1["skin"], s1["colormap"], s1["effects"], origin,
                            angles, s1["alpha"], s1["scale"], extra)

    # The recorder's eye.  A view that holds still from ``lo`` to ``hi`` (the same step) is not lerped: the lerp
    # would give it back, plus 0.0.
    vs, angs = timeline._view_origin, timeline._view_angles
    o1, r1 = vs.index(hi), angs.index(hi)
    view_origin = vo1 = vs.values[o1].astype(np.float64)
    view_angles = va1 = angs.values[r1].astype(np.float64)
    if lo != hi and frac < 1.0:
        o0, r0 = vs.index(lo), angs.index(lo)
        if o0 != o1:
            vo0 = vs.values[o0].astype(np.float64)
            d = vo1 - vo0
            view_origin = vo1 if (np.abs(d) > teleport).any() else vo0 + frac * d
        else:
            view_origin = vo1 + 0.0
        view_angles = (_lerp_angles(angs.values[r0].astype(np.float64), va1, frac) if r0 != r1
                       else va1 + 0.0)

    ve = timeline._view_entity
    view_entity = int(ve.values[ve.index(hi)])
    st = timeline._stat_rows
    row = st.values[st.index(hi)].tolist()
    if pov is not None and timeline.players is not None:
        pl = timeline.players
        view_origin, view_angles, pov_stats = _pov_view(timeline, pov, lo, hi, float(frac))
        view_entity = pov + timeline.schema.client_entity_offset
        if pov_stats is not None:
            row = pov_stats.tolist()
    stats = MappingProxyType(dict(zip(timeline.schema.stat_names, row)))
    return SceneState(t, hi, seg_hi, float(frac), view_entity, view_origin, view_angles, entities,
                      timeline._statics_cache[seg_hi] if seg_hi < len(timeline._statics_cache)
                      else EntityStates.empty(),
                      stats, timeline._ls_snapshots[bisect_right(timeline._ls_frames, hi)],
                      timeline._sb_snapshots[bisect_right(timeline._sb_frames, hi)],
                      -1 if pov is None else int(pov),
                      extra)
