"""Ghosts: the recorders (or chosen players) of other demos of the same map drawn into a demo's world, translucent
and tinted one colour per ghost, each run aligned on its own level start; and how far ahead or behind each ghost is.

Alignment (:func:`level_start`): a run of a map starts at the first frame of its segment in which the player can
move, as the engines tell it. Quake II and Quake III send the player's movement type: the first frame in
``PM_NORMAL`` (0 in both ``pmtype_t``; not frozen, dead, spectating or in the intermission: Quake II ``q_shared.h``,
ioquake3 ``bg_public.h``). Quake and QuakeWorld send no such state: the first frame whose view origin moved more
than :data:`MOVE_EPSILON` units from the segment's first frame — NetQuake's first frame precedes the view entity's
placement (the eye at the world origin), QuakeWorld's countdown holds the players where they spawned. A watched
player other than the recorder (``pov``) is timed by the motion rule in every game. A ghost at the main demo's
time ``t`` shows its own time ``t - main_start + ghost_start - offset``: a positive ``--ghost-offset`` starts the
ghost that much later.

Where a ghost is: its entity's origin when the timeline has one for its view entity, else its eye (``view_origin``)
less the game's view height (the schema's, ``DEFAULT_VIEWHEIGHT``). The main demo's game draws it
(:meth:`~viewer.games.base.GameView.ghost_draws`): Quake and Quake II as the segment's player model with a colour
shell of its tint at :data:`GHOST_ALPHA` (Quake II's ``RF_SHELL`` look), or the placeholder box when that model is
not loaded; Quake III as its player box, flat in the tint.

Trails (:meth:`Ghosts.trails`, shown while :attr:`Ghosts.show_trails`): the recorder's and each ghost's path over
the map segment, sampled at :data:`PATH_RATE` once per segment, as line segments in the ghost's tint (the recorder
white), one :class:`~viewer.render.refdef.Lines` the renderer uploads once.

Ahead/behind (:meth:`Ghosts.race`; with how far away it stands in :meth:`Ghosts.readout`): the main time at which
the ghost reached the point of its path nearest to the viewer's current position, minus the time the viewer reached
it (now, while it moves; when it stopped, if it stands still: :func:`arrival`): positive = the ghost is behind by
that much.

References: JoeQuake ``cl_demo.c`` ghost demos (``ghost_demo``), QuakeSpasm ``view.c`` (``DEFAULT_VIEWHEIGHT``),
ioquake3 ``bg_public.h`` (``DEFAULT_VIEWHEIGHT`` 26).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace

import numpy as np

from assets_loader.demos import DemoTimeline, SceneState, load_demo

from .games.base import GhostFigure
from .games.registry import game_view
from .render.refdef import Lines, SceneFrame, SegmentAssets

#: Opacity of a ghost.
GHOST_ALPHA = 0.4
#: A ghost whose origin is nearer the camera than this (units) is not drawn: the camera would be inside it.
GHOST_NEAR = 40.0
#: One tint per ghost, in order (RGB 0..1).
GHOST_COLORS = ((1.0, 0.35, 0.2), (0.25, 0.6, 1.0), (0.3, 1.0, 0.3), (1.0, 0.9, 0.2), (1.0, 0.3, 1.0),
                (0.3, 1.0, 1.0))
#: How far (units) the view must move from a segment's first frame for the run to have started.
MOVE_EPSILON = 1.0
#: The stat of the player's movement type (Quake II, Quake III) and its value while the player moves freely.
PM_TYPE, PM_NORMAL = "pm_type", 0
#: A ghost whose path never came nearer than this (units, a player's width) to where the viewer is took another
#: route: no time is read there.
ROUTE_NEAR = 32.0
#: Path samples per second for the race readout and the trails.
PATH_RATE = 20.0
#: The recorder's own trail colour (each ghost's is its tint) and the trails' opacity.
RECORDER_COLOR = (1.0, 1.0, 1.0)
TRAIL_ALPHA = 0.85
#: A step longer than this (units) between two path samples is a teleport or a respawn (4000 units a second at
#: :data:`PATH_RATE`, far past any run): the trail does not cross it.
TRAIL_JUMP = 200.0


class GhostError(ValueError):
    """A ghost that cannot race: another map, an unknown player name."""


def map_key(name: str) -> str:
    """A map's name as compared between demos: the file name without folder or extension, lower case."""
    return os.path.splitext(os.path.basename(name.replace("\\", "/")))[0].lower()


def level_start(timeline: DemoTimeline, segment: int, pov: int | None = None) -> float:
    """When the run of ``segment`` starts: its first frame in ``PM_NORMAL`` where the game sends the movement type,
    else its first frame whose view origin moved (see the module docstring)."""
    seg = timeline.segments[segment]
    first, last = seg.start_frame, min(seg.end_frame, timeline.num_frames - 1)
    if pov is None and PM_TYPE in timeline.schema.stat_names:
        normal = np.flatnonzero(np.asarray(timeline.stats[PM_TYPE][first:last + 1]) == PM_NORMAL)
        return float(timeline.times[first + int(normal[0])]) if len(normal) else float(seg.start_time)
    if pov is None:
        origins = np.asarray(timeline.view_origin[first:last + 1], np.float64)
        times = np.asarray(timeline.times[first:last + 1])
    else:
        times = np.asarray(timeline.times[first:last + 1])
        origins = np.array([timeline.sample(float(t), pov=pov).view_origin for t in times])
    moved = np.linalg.norm(origins - origins[0], axis=1) > MOVE_EPSILON
    return float(times[int(np.argmax(moved))]) if moved.any() else float(seg.start_time)


def map_end(timeline: DemoTimeline, segment: int) -> tuple[float, bool]:
    """When ``segment``'s map ends: its first intermission or finale (``True``), else the segment's end
    (``False``). A cutscene (Quake's ``intermission`` stat 3, LibreQuake's attract demos play in one) ends
    nothing."""
    seg = timeline.segments[segment]
    ends = [e.time for kind in ("intermission", "finale") for e in timeline.events_of_kind(kind)
            if seg.start_time <= e.time <= seg.end_time]
    if "intermission" in timeline.schema.stat_names:
        first, last = seg.start_frame, min(seg.end_frame, timeline.num_frames - 1)
        on = np.flatnonzero(np.isin(np.asarray(timeline.stats["intermission"][first:last + 1]), (1, 2)))
        if len(on):
            ends.append(float(timeline.times[first + int(on[0])]))
    return (float(min(ends)), True) if ends else (float(seg.end_time), False)


def run_end(timeline: DemoTimeline, segment: int) -> float:
    """The last time of ``segment`` its player is in the run: the frame before the map's end (the intermission
    moves the view to the intermission camera), or the segment's end when the map does not end."""
    end, finished = map_end(timeline, segment)
    if not finished:
        return end
    times = np.asarray(timeline.times)
    before = int(np.searchsorted(times, end)) - 1
    return float(times[before]) if before >= timeline.segments[segment].start_frame else end


def player_position(timeline: DemoTimeline, state: SceneState) -> tuple[np.ndarray, float]:
    """Where the player seen in ``state`` stands (its entity, else its eye less the view height) and its yaw."""
    row = state.entities.index_of(state.view_entity) if state.pov < 0 else None
    if row is not None:
        origin = np.asarray(state.entities.origin[row], np.float64)
    else:
        origin = np.asarray(state.view_origin, np.float64) - (0.0, 0.0, timeline.schema.view_height)
    return origin, float(state.view_angles[1])


def parse_ghost(text: str) -> tuple[str, str | None]:
    """``OTHER`` or ``OTHER@NAME`` → (path, player name or ``None`` for the recorder)."""
    path, sep, name = text.rpartition("@")
    if sep and name and not os.path.exists(text):
        return path, name
    return text, None


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _slot_of(timeline: DemoTimeline, name: str) -> int:
    players = [p for p in timeline.final_scoreboard() if p.name]
    for p in players:
        if p.name.lower() == name.lower():
            return p.slot
    raise GhostError(f"{timeline.path}: no player named {name!r} (players: {', '.join(p.name for p in players)})")


@dataclass(eq=False)
class Ghost:
    """One other run: its ``timeline``, ``pov`` (a player slot, ``None`` for the recorder), ``label``, tint
    ``color``, ``offset`` (seconds it starts later) and, per main segment, its own segment and level start
    (``segments``) and the last time it is in its run there (``ends``: :func:`run_end`)."""

    timeline: DemoTimeline
    pov: int | None
    label: str
    color: tuple[float, float, float]
    offset: float = 0.0
    segments: dict[int, tuple[int, float]] = field(default_factory=dict)
    ends: dict[int, float] = field(default_factory=dict)
    _paths: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)

    @property
    def spec(self) -> str:
        """What ``--ghost`` loads this run from again: ``OTHER`` or ``OTHER@NAME``."""
        return self.timeline.path if self.pov is None else f"{self.timeline.path}@{self.label}"

    def sample(self, t: float) -> SceneState:
        return self.timeline.sample(t, pov=self.pov)

    def path(self, segment: int) -> tuple[np.ndarray, np.ndarray]:
        """The ghost's own times ``f8 [N]`` and positions ``f8 [N, 3]`` over its segment (:func:`sampled_path`)."""
        if segment not in self._paths:
            self._paths[segment] = sampled_path(self.timeline, segment, self.pov)
        return self._paths[segment]


def sampled_path(timeline: DemoTimeline, segment: int, pov: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Times ``f8 [N]`` and positions ``f8 [N, 3]`` of a player over ``segment``, at :data:`PATH_RATE`."""
    seg = timeline.segments[segment]
    times = np.arange(seg.start_time, seg.end_time, 1.0 / PATH_RATE)
    points = np.array([player_position(timeline, timeline.sample(float(t), pov=pov))[0] for t in times])
    return times, points.reshape(-1, 3)


def arrival(times: np.ndarray, points: np.ndarray, here: np.ndarray, around: float, *, by: bool = False) -> float:
    """When a path reached ``here``: its points nearest to ``here`` (within :data:`MOVE_EPSILON` of the nearest)
    form runs, one per visit (a player standing still arrived when it stopped); the start of the run nearest
    ``around``, or with ``by`` the last one starting by ``around`` (the visit the player is in now)."""
    dist = np.linalg.norm(points - here, axis=1)
    near = dist <= dist.min() + MOVE_EPSILON
    starts = times[np.flatnonzero(near & ~np.concatenate(([False], near[:-1])))]
    if by and (starts <= around).any():
        return float(starts[starts <= around][-1])
    return float(starts[np.argmin(np.abs(starts - around))])


@dataclass(frozen=True, slots=True)
class GhostPose:
    """A ghost at one main time: its ``origin`` ``[3]``, ``yaw``, own time ``ghost_time``, its own ``state`` then
    and its entity's ``row`` in it (``None``: none, as for a view without an entity)."""

    ghost: Ghost
    origin: np.ndarray
    yaw: float
    ghost_time: float
    state: SceneState
    row: int | None = None


class Ghosts:
    """The ghosts racing ``main``: placed at main times, drawn into its frames, compared with its recorder."""

    def __init__(self, main: DemoTimeline, ghosts: list[Ghost]) -> None:
        self.main = main
        self.ghosts = ghosts
        self._starts = {i: level_start(main, i) for i in range(len(main.segments))}
        self._main_paths: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._trails: dict[int, Lines] = {}
        #: Draw the trails into the frames (key T, ``--trails``).
        self.show_trails = False
        #: The ghost whose eyes the camera is (not drawn: the camera is inside it), ``None`` for none.
        self.eyes: int | None = None

    @staticmethod
    def load(main: DemoTimeline, specs: list[str], offsets: list[float] | None = None) -> Ghosts:
        """Load ``specs`` (``OTHER`` or ``OTHER@NAME``) with their ``offsets`` (the last one repeats; default 0);
        :class:`GhostError` naming both maps when a ghost shares no map with ``main``."""
        offsets = offsets or [0.0]
        ghosts = []
        for i, spec in enumerate(specs):
            path, name = parse_ghost(spec)
            timeline = main if _same_file(path, main.path) else load_demo(path)
            pov = _slot_of(timeline, name) if name else None
            label = name or os.path.splitext(os.path.basename(path))[0]
            ghost = Ghost(timeline, pov, label, GHOST_COLORS[i % len(GHOST_COLORS)],
                          offsets[min(i, len(offsets) - 1)])
            by_map: dict[str, int] = {}
            for j, seg in enumerate(timeline.segments):
                by_map.setdefault(map_key(seg.map_name), j)
            for k, seg in enumerate(main.segments):
                own = by_map.get(map_key(seg.map_name))
                if own is not None:
                    ghost.segments[k] = (own, level_start(timeline, own, pov))
                    ghost.ends[k] = run_end(timeline, own)
            if not ghost.segments:
                raise GhostError(f"ghost {path} plays {', '.join(s.map_name for s in timeline.segments)}, "
                                 f"not {', '.join(s.map_name for s in main.segments)} like {main.path}")
            ghosts.append(ghost)
        return Ghosts(main, ghosts)

    def ghost_time(self, ghost: Ghost, segment: int, t: float) -> float | None:
        """The ghost's own time at main time ``t`` in main ``segment`` (``None``: it does not race that map)."""
        if segment not in ghost.segments:
            return None
        _, start = ghost.segments[segment]
        return t - self._starts[segment] + start - ghost.offset

    def seen(self, ghost: Ghost, segment: int, t: float) -> GhostPose | None:
        """The ghost at main time ``t`` as its own timeline has it (its run held at its first frame before it and
        at its last after it: where it left the map); ``None`` when it does not race ``segment``."""
        gt = self.ghost_time(ghost, segment, t)
        if gt is None:
            return None
        seg = ghost.timeline.segments[ghost.segments[segment][0]]
        gt = min(max(gt, seg.start_time), ghost.ends.get(segment, seg.end_time))
        state = ghost.sample(gt)
        origin, yaw = player_position(ghost.timeline, state)
        return GhostPose(ghost, origin, yaw, gt, state, state.entities.index_of(state.view_entity))

    def poses(self, segment: int, t: float) -> list[GhostPose]:
        """Every ghost racing ``segment`` at main time ``t``, where its own timeline has it (but the one whose eyes
        the camera is: :attr:`eyes`)."""
        return [pose for i, ghost in enumerate(self.ghosts)
                if i != self.eyes and (pose := self.seen(ghost, segment, t)) is not None]

    def seen_from(self, eye, segment: int, t: float) -> list[GhostPose]:
        """:meth:`poses` but those the camera at ``eye`` ``[3]`` is inside (nearer than :data:`GHOST_NEAR`)."""
        at = np.asarray(eye, np.float64)
        return [p for p in self.poses(segment, t) if np.linalg.norm(p.origin - at) >= GHOST_NEAR]

    def index_of(self, text: str) -> int:
        """The ghost ``--pov ghost:N`` (1-based, in ``--ghost`` order) or ``ghost:NAME`` (its label) names;
        :class:`GhostError` listing them when none is."""
        wanted = text.partition(":")[2] or "1"
        for i, ghost in enumerate(self.ghosts):
            if wanted == str(i + 1) or wanted.lower() == ghost.label.lower():
                return i
        listed = ", ".join(f"ghost:{i + 1} ({g.label})" for i, g in enumerate(self.ghosts)) or "no --ghost"
        raise GhostError(f"--pov {text}: no such ghost; {listed}")

    def add_to(self, frame: SceneFrame, assets: SegmentAssets | None) -> SceneFrame:
        """``frame`` with the ghosts at its time drawn in, as the main demo's game draws another player
        (:meth:`~viewer.games.base.GameView.ghost_draws`), but those the camera is in (nearer than
        :data:`GHOST_NEAR`: two runs standing on the same spot), and the trails while :attr:`show_trails`."""
        if self.show_trails:
            frame = replace(frame, lines=self.trails(frame.segment))
        poses = self.seen_from(frame.camera.origin, frame.segment, frame.time)
        if not poses:
            return frame
        figures = [GhostFigure(p.origin, p.yaw, p.ghost.color, GHOST_ALPHA, p.state, p.row) for p in poses]
        models, md3 = game_view(self.main.game).ghost_draws(figures, assets)
        return replace(frame, models=frame.models + tuple(models), md3=frame.md3 + md3)

    def main_path(self, segment: int) -> tuple[np.ndarray, np.ndarray]:
        """The main recorder's times and positions over ``segment`` (:func:`sampled_path`, once)."""
        if segment not in self._main_paths:
            self._main_paths[segment] = sampled_path(self.main, segment)
        return self._main_paths[segment]

    def trails(self, segment: int) -> Lines:
        """The recorder's path over ``segment`` (white) and each racing ghost's over its own run of the map (its
        tint), as one set of line segments, made once per segment."""
        if segment not in self._trails:
            routes = [(self.main_path(segment)[1], RECORDER_COLOR)]
            routes += [(g.path(g.segments[segment][0])[1], g.color) for g in self.ghosts if segment in g.segments]
            self._trails[segment] = trail_lines(routes)
        return self._trails[segment]

    def race(self, segment: int, t: float) -> list[tuple[Ghost, float | None]]:
        """Per ghost racing ``segment``: seconds it is behind the main recorder at ``t`` (negative: ahead), ``None``
        when its path never came within :data:`ROUTE_NEAR` of where the recorder is (another route)."""
        main_times, main_points = self.main_path(segment)
        if not len(main_times):
            return []
        here, _ = player_position(self.main, self.main.sample(t))
        reached = arrival(main_times, main_points, here, t, by=True)
        out: list[tuple[Ghost, float | None]] = []
        for ghost in self.ghosts:
            if segment not in ghost.segments:
                continue
            own, start = ghost.segments[segment]
            times, points = ghost.path(own)
            if len(times):
                if np.linalg.norm(points - here, axis=1).min() > ROUTE_NEAR:
                    out.append((ghost, None))
                    continue
                ghost_times = times - start + self._starts[segment] + ghost.offset   # in the main demo's time
                out.append((ghost, arrival(ghost_times, points, here, reached) - reached))
        return out

    def readout(self, segment: int, t: float) -> list[str]:
        """One line per ghost: ``ghost NAME: +1.2 s (behind), 340 u away`` (how far it stands from the viewer
        now), ``ghost NAME: off its route, …`` where the ghost never passed."""
        here, _ = player_position(self.main, self.main.sample(t))
        lines = []
        for ghost, behind in self.race(segment, t):
            pose = self.seen(ghost, segment, t)
            away = f", {float(np.linalg.norm(pose.origin - here)):.0f} u away" if pose is not None else ""
            said = "off its route" if behind is None else race_words(behind)
            lines.append(f"ghost {ghost.label}: {said}{away}")
        return lines


def trail_lines(routes: list[tuple[np.ndarray, tuple[float, float, float]]]) -> Lines:
    """Line segments joining each route's successive points ``f8 [N, 3]`` in its colour, at :data:`TRAIL_ALPHA`;
    none across a step longer than :data:`TRAIL_JUMP` (a teleport) or of no length (standing still)."""
    points, colors = [np.zeros((0, 3), np.float32)], [np.zeros((0, 4), np.float32)]
    for route, color in routes:
        a, b = route[:-1], route[1:]
        step = np.linalg.norm(b - a, axis=1)
        keep = (step > 0.0) & (step <= TRAIL_JUMP)
        pairs = np.stack([a[keep], b[keep]], axis=1).reshape(-1, 3)
        points.append(pairs.astype(np.float32))
        colors.append(np.tile(np.array([*color, TRAIL_ALPHA], np.float32), (len(pairs), 1)))
    return Lines(np.concatenate(points), np.concatenate(colors))


def race_words(seconds: float) -> str:
    """``+2.0 s (behind)``, ``-0.5 s (ahead)``, ``+0.0 s (level)`` for a ghost ``seconds`` behind."""
    d = round(seconds, 1)
    return f"{d:+.1f} s ({'behind' if d > 0 else 'ahead' if d < 0 else 'level'})".replace("-0.0", "+0.0")
