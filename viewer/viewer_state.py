"""Everything the window remembers between frames, as plain Python: the playback clock, the camera mode and its
controllers, the UI toggles and the mouse interaction in progress. Updated by :class:`~viewer.input.Action` values
and injected ``dt``; no OpenGL, no window, no wall clock — so every key's effect is unit tested.

The window asks three things of it each frame: :meth:`ViewerState.update` (advance the clock, fly the free camera),
:meth:`ViewerState.camera_for` (the camera to draw from, ``None`` for the recorder's eyes) and the UI flags
(:attr:`ViewerState.bar_visible`, ``show_help``…). Side effects only the window can perform (screenshot,
export, fullscreen, saving the camera path, quit) are queued in :attr:`ViewerState.requests` for it to take, and the
sentences to show the user ("camera key 2 of 3 added at 0:12.3") in :attr:`ViewerState.messages`.

The camera path being edited (:class:`~viewer.camera_path_edit.PathEdit`) lives here too: K / Shift+K / Delete /
Ctrl+K edit its keys, the key row above the bar (:mod:`viewer.ui.key_row`) selects and drags them, P switches to the
``path`` camera and back.

Switching cameras never touches the clock; the free camera keeps flying while paused and while scrubbing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np

from assets_loader.demos import DemoTimeline, PlayerScore, SceneState
from assets_loader.demos.entity_eyes import exact_recorder
from assets_loader.demos.events import plain_line
from assets_loader.demos.schema import QUAKE, GameSchema
from assets_loader.game_map import GameMap

from .ghosts import Ghosts
from .render.refdef import Camera
from .camera_path import entity_origin
from .camera_path_edit import PathEdit, centred_entity
from .camera_pose import ORBIT_PITCH, ShotCamera, camera_pose
from .scene import pov_camera
from .cameras import FreeFly, Orbit
from .director import DirectorPlan, plan_director
from .input import CAMERA_MODES, Action, Movement, next_speed
from .overlays.options import OVERLAY_NAMES, OverlayOptions
from .multiview.layout import Rect, next_layout, pane_rects
from .multiview.panes import MultiShot, watchable
from .multiview.window import PaneCamera, Panes
from .playback import PlaybackClock
from .ui.controls import Control, on_controls
from .ui.key_row import key_mark_at, key_mark_x, on_key_row
from .ui.range_marks import RangeMarks
from .ui.timeline_bar import BarGeometry, Marker, bar_geometry, format_time, markers_from_events, next_marker_time

#: Seconds without mouse movement after which the bar hides while playing.
BAR_HIDE_DELAY = 2.0
#: Degrees the captured mouse turns the camera per count and unit of sensitivity (Quake's ``m_yaw``/``m_pitch``).
MOUSE_LOOK_DEGREES = 0.022
#: Chase distance limits and the wheel step (units).
CHASE_MIN, CHASE_MAX, CHASE_STEP = 40.0, 400.0, 20.0
#: The longest director line of the readout (characters; a shot of many frags is cut short).
DIRECTOR_LINE = 64
#: The actions that pick a camera or a player by hand: they take the camera back from the director.
TAKE_OVER = frozenset({"camera", "player", "watch", "orbit_next", "mouse_look", "path_camera"})

@dataclass(frozen=True, slots=True)
class FrameContext:
    """What the window knows about the picture on screen when an action arrives: the ``camera`` it was drawn from,
    the entities that can be followed and the players (asked of the game's
    :class:`~viewer.games.base.GameView`), and the ``scene`` state it shows."""

    camera: Camera | None = None
    followable: tuple[int, ...] = ()
    players: tuple[int, ...] = ()
    scene: SceneState | None = None


@dataclass(frozen=True, slots=True)
class TimelineInfo:
    """The facts of a demo the state needs: time range, frame times (for frame steps), markers, POV slots, the
    height above a followed entity's origin orbit cameras look at (the game's), and the game's ``schema`` (which
    entity is which player, whether names have colour codes)."""

    start: float
    end: float
    frame_times: np.ndarray
    markers: tuple[Marker, ...] = ()
    pov_slots: tuple[int, ...] = ()
    pov_markers: Mapping[int, tuple[Marker, ...]] = field(default_factory=dict)
    orbit_height: float = QUAKE.orbit_height
    schema: GameSchema = QUAKE
    #: The recorder's slot when the demo's own view is its exact eye and its player rows are derived (-1: none).
    recorder_slot: int = -1

    def slot_name(self, board: Sequence[PlayerScore], slot: int) -> str:
        """The plain name (one line, no colour codes) of the player in scoreboard slot ``slot``, or ``""``."""
        return plain_line(board[slot].name, self.schema.color_codes) if 0 <= slot < len(board) else ""

    def entity_name(self, board: Sequence[PlayerScore], entity: int) -> str:
        """The plain name of the player that is entity ``entity`` (the game's entity → slot rule), or ``""``."""
        return self.slot_name(board, self.schema.entity_slot(entity))

    @classmethod
    def of(cls, timeline: DemoTimeline) -> TimelineInfo:
        """The facts of ``timeline``; frag/death markers are coloured for the recorder, and for each player whose
        eyes can be watched (MVD) from that player's side."""
        board = timeline.final_scoreboard()
        codes = timeline.schema.color_codes
        pov_markers = {slot: markers_from_events(timeline.events, board[slot].name if slot < len(board) else None,
                                                 codes)
                       for slot in timeline.pov_slots}
        return cls(timeline.start_time, timeline.end_time, timeline.times,
                   markers_from_events(timeline.events, _recorder_name(timeline), codes), tuple(timeline.pov_slots),
                   pov_markers, timeline.schema.orbit_height, timeline.schema, exact_recorder(timeline))

    def markers_for(self, pov_slot: int | None) -> tuple[Marker, ...]:
        """The markers as seen by the player in ``pov_slot`` (``None``: the recorder)."""
        return self.pov_markers.get(pov_slot, self.markers) if pov_slot is not None else self.markers

    @classmethod
    def empty(cls) -> TimelineInfo:
        """No demo (``qdv map``): a zero-length range."""
        return cls(0.0, 0.0, np.zeros(1))


def _recorder_name(timeline: DemoTimeline) -> str | None:
    """The recording player's name (scoreboard slot of the view entity) at the end of the demo."""
    if not len(timeline.times):
        return None
    slot = timeline.schema.entity_slot(int(timeline.view_entity[-1]))
    board = timeline.final_scoreboard()
    return board[slot].name if 0 <= slot < len(board) and board[slot].name else None


@dataclass
class ViewerState:
    """The window's state (see the module docstring). ``info`` describes the demo (``TimelineInfo.empty()`` for a
    map without a demo: the camera starts free and the bar stays hidden)."""

    info: TimelineInfo
    clock: PlaybackClock
    fov: float = 90.0
    size: tuple[int, int] = (1280, 720)
    sbar_lines: int = 0
    mode: str = "pov"
    free: FreeFly | None = None
    path_edit: PathEdit = field(default_factory=PathEdit)
    mode_before_path: str = "pov"
    key_grab: tuple[float, float] | None = None
    orbit: Orbit = field(default_factory=Orbit)
    follow: int | None = None
    chase_back: float = 100.0
    pov_slot: int | None = None
    ghost: int | None = None
    ghost_labels: tuple[str, ...] = ()
    show_help: bool = False
    show_bar: bool = True
    show_scores: bool = False
    show_hud: bool = True
    show_fps: bool = False
    overlays: OverlayOptions = OverlayOptions()
    show_trails: bool = False
    show_splits: bool = False
    mouse_look: bool = False
    sensitivity: float = 3.0
    invert_mouse: bool = False
    idle: float = 0.0
    scrubbing: bool = False
    dragging: bool = False
    hover: tuple[float, float] | None = None
    last_target: tuple[float, float, float] | None = None
    marks: RangeMarks = RangeMarks()
    controls: tuple[Control, ...] = ()
    requests: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    #: The director (Ctrl+D, ``--camera director``): whether it has the camera, its shot list, and how to plan it
    #: (once, when it first takes the camera).
    directing: bool = False
    plan: DirectorPlan | None = None
    planner: Callable[[], DirectorPlan] | None = None
    panes: Panes = field(default_factory=Panes)

    def __post_init__(self) -> None:
        if not self.panes.cameras:     # the panes G adds watch the demo's players
            self.panes = Panes.of(watchable(self.info.pov_slots, self.info.recorder_slot), fov=self.fov)

    @classmethod
    def for_timeline(cls, timeline: DemoTimeline, *, start: float = 0.0, speed: float = 1.0, fov: float = 90.0,
                     size: tuple[int, int] = (1280, 720), multi: MultiShot | None = None) -> ViewerState:
        """A state playing ``timeline`` from ``start`` seconds after its first frame at ``speed``; ``multi``: start
        with these panes (``--multiview``), pane 0 selected."""
        info = TimelineInfo.of(timeline)
        clock = PlaybackClock.for_range(info.start, info.end, info.start + start).with_speed(speed)
        slot = timeline.default_pov if timeline.default_pov >= 0 and info.pov_slots else None
        state = cls(info, clock, fov=fov, size=size, pov_slot=slot, planner=partial(plan_director, timeline),
                    panes=Panes.of(watchable(info.pov_slots, info.recorder_slot), multi, fov))
        if multi is not None:
            state._load_pane(state.panes.cameras[0])
            if multi.shots[0].director is not None:   # --panes director,…: the director has the first pane
                state.plan = multi.shots[0].director
                state.start_directing()
        return state

    @classmethod
    def for_map(cls, camera: Camera, *, size: tuple[int, int] = (1280, 720)) -> ViewerState:
        """A state flying through a map from ``camera`` (no demo)."""
        info = TimelineInfo.empty()
        clock = PlaybackClock.for_range(0.0, 0.0)
        return cls(info, clock, fov=camera.fov, size=size, mode="free", free=FreeFly.from_camera(camera),
                   show_bar=False)

    # --- queries -------------------------------------------------------------------------------------------------

    @property
    def has_demo(self) -> bool:
        return self.info.end > self.info.start

    @property
    def t(self) -> float:
        return self.clock.t

    def geometry(self) -> BarGeometry:
        """Where the timeline bar is in the current window."""
        return bar_geometry(self.size, self.info.start, self.info.end, self.sbar_lines)

    @property
    def bar_visible(self) -> bool:
        """Drawn (and clickable) now: enabled with B, and paused, scrubbing, under the mouse, or the mouse moved in
        the last :data:`BAR_HIDE_DELAY` seconds."""
        if not (self.show_bar and self.has_demo):
            return False
        if self.clock.paused or self.scrubbing or self.key_grab is not None or self.idle < BAR_HIDE_DELAY:
            return True
        return self.hover is not None and (self.geometry().contains(*self.hover) or self._on_key_row(*self.hover)
                                           or on_controls(self.controls, *self.hover))

    def on_bar(self, x: float, y: float) -> bool:
        """Is the (top-left based) point on the visible bar (or its camera key row)?"""
        return self.bar_visible and (self.geometry().contains(x, y) or self._on_key_row(x, y))

    def _on_key_row(self, x: float, y: float) -> bool:
        return bool(self.path_edit.path.keys) and on_key_row(self.geometry(), x, y)

    def key_mark_at(self, x: float, y: float) -> int | None:
        """The camera key whose mark on the visible key row is under the (top-left based) point, or ``None``."""
        if not self.bar_visible:
            return None
        return key_mark_at(self.geometry(), self.path_edit.path.keys, x, y)

    def view_pov(self) -> int | None:
        """The player slot to sample the demo with now: the director's shot's while it directs, else the watched
        one (``None``: the demo's own view)."""
        if self.directing and self.plan is not None:
            return self.plan.pov_at(self.t)
        return self.pov_slot

    @property
    def camera_name(self) -> str:
        """The camera mode as the bar and the readout name it (``director`` while the director has the camera)."""
        return "director" if self.directing else self.mode

    def director_line(self) -> str:
        """What the director shows now, for the readout: ``director: NAME - why`` (``""`` when it is off)."""
        if not (self.directing and self.plan is not None):
            return ""
        shot = self.plan.shot_at(self.t)
        line = f"director: {shot.player or 'the demo view'} - {shot.why}"
        return line if len(line) <= DIRECTOR_LINE else line[:DIRECTOR_LINE - 3] + "..."

    def camera_for(self, scene: SceneState | None, world: GameMap | None = None,
                   ghosts: Ghosts | None = None) -> Camera | None:
        """The camera to draw ``scene`` from (:func:`~viewer.camera_pose.camera_pose` of :meth:`shot`, as every
        export asks it): ``None`` for the recorder's eyes (the view weapon is drawn), else the free, chase, orbit or
        path camera. ``world`` (any game's map) keeps chase and orbit cameras out of walls; the orbit target is held
        in :attr:`last_target` while the followed entity is out of the frame; ``ghosts``: the race :attr:`ghost`
        indexes (its eyes, chase and orbit)."""
        pose = camera_pose(self.shot(), scene, world, start=self.info.start, orbit_height=self.info.orbit_height,
                           held=self.last_target, ghosts=ghosts)
        self.last_target = pose.held
        return pose.camera

    def shot(self) -> ShotCamera:
        """The window's camera (the selected pane's) as a :class:`~viewer.camera_pose.ShotCamera` (what Ctrl+E
        exports): the director's shot list while it directs, else :meth:`~viewer.multiview.window.PaneCamera.shot`
        (the free camera where it is, the chase camera at its distance, the orbit around the followed entity at its
        yaw, pitch and distance, the camera path being edited, else the eyes of the watched player), on the watched
        ghost where one is."""
        if self.directing and self.plan is not None:
            return ShotCamera("director", self.view_pov(), self.fov, director=self.plan)
        shot = self.pane_camera().shot(self.fov, self.path_edit.path)
        if self.ghost is not None and shot.mode in ("pov", "chase", "orbit"):   # the eyes, back or orbit of a ghost
            return replace(shot, ghost=self.ghost)
        return shot

    # --- multiview: the selected pane's camera is the fields above; the others wait in panes.cameras ------------

    def pane_camera(self) -> PaneCamera:
        """The camera the state's fields describe (the selected pane's)."""
        return PaneCamera(self.mode, self.pov_slot, self.free, self.orbit, self.follow, self.chase_back,
                          self.last_target)

    def _load_pane(self, camera: PaneCamera) -> None:
        self.mode, self.pov_slot, self.free, self.orbit = camera.mode, camera.pov_slot, camera.free, camera.orbit
        self.follow, self.chase_back, self.last_target = camera.follow, camera.chase_back, camera.last_target

    def pane_rects(self) -> tuple[Rect, ...]:
        """Where the panes are in the window (one: the whole window)."""
        return pane_rects(self.panes.count, self.size, self.panes.layout)

    def pane_shots(self) -> list[ShotCamera]:
        """Each pane's camera, in pane order (the selected one's is :meth:`shot`)."""
        panes = self.panes
        return [self.shot() if i == panes.selected else panes.cameras[i].shot(self.fov, self.path_edit.path)
                for i in range(panes.count)]

    def export_shot(self) -> ShotCamera | MultiShot:
        """What Ctrl+E exports: :meth:`shot`, or with several panes all of them, heard from the selected one."""
        if not self.panes.multi:
            return self.shot()
        return MultiShot(tuple(self.pane_shots()), self.panes.layout, self.panes.selected)

    def pane_camera_for(self, pane: int, scene: SceneState, world: GameMap | None = None,
                        ghosts: Ghosts | None = None) -> Camera | None:
        """:meth:`camera_for` of pane ``pane`` (its orbit target held in its own camera); a free camera not placed
        yet starts at the pane's eye in ``scene``; ``ghosts``: the race the selected pane may watch a ghost of."""
        if pane == self.panes.selected:
            if self.mode == "free" and self.free is None:
                self.free = FreeFly.from_camera(pov_camera(scene, self.fov))
            return self.camera_for(scene, world, ghosts)
        camera = self.panes.cameras[pane]
        if camera.mode == "free" and camera.free is None:
            camera = replace(camera, free=FreeFly.from_camera(pov_camera(scene, self.fov)))
        pose = camera_pose(camera.shot(self.fov, self.path_edit.path), scene, world, start=self.info.start,
                           orbit_height=self.info.orbit_height, held=camera.last_target)
        self.panes.cameras[pane] = replace(camera, last_target=pose.held)
        return pose.camera

    def _on_layout(self, a: Action, ctx: FrameContext) -> None:
        """G: the next step of :data:`~viewer.multiview.layout.LAYOUT_CYCLE`; a selected pane that goes away hands
        the selection to pane 0."""
        if not self.has_demo:
            return
        panes = self.panes
        panes.count, panes.layout = next_layout(panes.count, panes.layout)
        if panes.selected >= panes.count:
            self._select_pane(0)
        self._say(f"multiview: {panes.count} panes, {panes.layout}" if panes.multi else "multiview off")

    def _on_select_pane(self, a: Action, ctx: FrameContext) -> None:
        """A left click on pane ``a.a``: the camera keys now act on it."""
        pane = int(a.a)
        if 0 <= pane < self.panes.count:
            self._select_pane(pane)

    def _select_pane(self, pane: int) -> None:
        panes = self.panes
        if pane != panes.selected:
            self.ghost = None   # a ghost is watched in the selected pane only
            panes.cameras[panes.selected] = self.pane_camera()
            panes.selected = pane
            self._load_pane(panes.cameras[pane])

    # --- time and input ------------------------------------------------------------------------------------------

    def update(self, dt: float, move: Movement = Movement()) -> None:
        """One frame of ``dt`` wall seconds: the clock advances (held still while scrubbing), the free camera flies
        by the held keys (also while paused or scrubbing), the bar's idle timer runs."""
        self.idle += max(dt, 0.0)
        if not self.scrubbing and self.key_grab is None:
            self.clock = self.clock.advance(dt)
        if self.mode == "free" and self.free is not None and move.moving:
            self.free = self.free.move(dt, move.forward, move.right, move.up, move.fast)

    def handle(self, action: Action, ctx: FrameContext = FrameContext()) -> None:
        """Apply one user action (see :mod:`viewer.input` for what produces them); picking a camera or a player by
        hand takes the camera back from the director (on the player it showed)."""
        if self.directing and action.name in TAKE_OVER:
            self._stop_directing()
        handler = getattr(self, f"_on_{action.name}", None)
        if handler is not None:
            handler(action, ctx)

    # clock
    def _on_toggle_pause(self, a: Action, ctx: FrameContext) -> None:
        if self.has_demo:
            self.clock = self.clock.toggle_pause()

    def _on_speed(self, a: Action, ctx: FrameContext) -> None:
        self.clock = self.clock.with_speed(next_speed(self.clock.speed, int(a.a)))

    def _on_reverse(self, a: Action, ctx: FrameContext) -> None:
        self.clock = self.clock.reversed()

    def _on_seek_by(self, a: Action, ctx: FrameContext) -> None:
        self.clock = self.clock.seek(self.clock.t + a.a)

    def _on_seek_start(self, a: Action, ctx: FrameContext) -> None:
        self.clock = self.clock.seek(self.info.start)

    def _on_seek_end(self, a: Action, ctx: FrameContext) -> None:
        self.clock = self.clock.seek(self.info.end)

    def _on_jump_fraction(self, a: Action, ctx: FrameContext) -> None:
        self.clock = self.clock.seek(self.info.start + a.a * (self.info.end - self.info.start))

    def _on_step(self, a: Action, ctx: FrameContext) -> None:
        if self.has_demo:
            self.clock = self.clock.step_frame(self.info.frame_times, int(a.a))

    def _on_marker(self, a: Action, ctx: FrameContext) -> None:
        t = next_marker_time(self.info.markers_for(self.pov_slot), self.clock.t, int(a.a))
        if t is not None:
            self.clock = self.clock.seek(t)

    # the bar
    def _on_scrub_begin(self, a: Action, ctx: FrameContext) -> None:
        self.scrubbing = True
        self.idle = 0.0
        self.clock = self.clock.seek(self.geometry().time_at(a.a))

    def _on_scrub_move(self, a: Action, ctx: FrameContext) -> None:
        self.idle = 0.0
        self.clock = self.clock.seek(self.geometry().time_at(a.a))

    def _on_scrub_end(self, a: Action, ctx: FrameContext) -> None:
        self.scrubbing = False

    def _on_hover(self, a: Action, ctx: FrameContext) -> None:
        self.idle = 0.0
        self.hover = (a.a, a.b)

    def _on_leave(self, a: Action, ctx: FrameContext) -> None:
        self.hover = None

    # toggles
    def _on_toggle_bar(self, a: Action, ctx: FrameContext) -> None:
        self.show_bar = not self.show_bar

    def _on_toggle_scores(self, a: Action, ctx: FrameContext) -> None:
        self.show_scores = not self.show_scores

    def _on_toggle_hud(self, a: Action, ctx: FrameContext) -> None:
        self.show_hud = not self.show_hud

    def _on_help(self, a: Action, ctx: FrameContext) -> None:
        self.show_help = not self.show_help

    def _on_toggle_fps(self, a: Action, ctx: FrameContext) -> None:
        self.show_fps = not self.show_fps

    def _on_toggle_overlay(self, a: Action, ctx: FrameContext) -> None:
        """F5–F8: one of the caster's overlays (:data:`~viewer.overlays.OVERLAY_NAMES` by ``a.a``) on / off."""
        self.overlays = self.overlays.toggled(OVERLAY_NAMES[int(a.a)])

    def _on_toggle_splits(self, a: Action, ctx: FrameContext) -> None:
        if self.has_demo:
            self.show_splits = not self.show_splits

    def _on_toggle_trails(self, a: Action, ctx: FrameContext) -> None:
        if self.has_demo:
            self.show_trails = not self.show_trails
            self._say(f"trails {'on' if self.show_trails else 'off'}")

    # mouse look: the window captures the mouse (requests "capture_mouse" / "release_mouse")
    def _on_mouse_look(self, a: Action, ctx: FrameContext) -> None:
        if self.mouse_look:
            self._release_mouse()
            return
        if self.mode in ("pov", "chase", "path"):
            if ctx.camera is None:
                return
            self.free = FreeFly.from_camera(ctx.camera)   # these cameras cannot be turned: fly from there
            self.mode = "free"
        self.mouse_look = True
        self.dragging = False
        self.requests.append("capture_mouse")

    def _release_mouse(self) -> None:
        self.mouse_look = False
        self.requests.append("release_mouse")

    def _on_mouse_look_move(self, a: Action, ctx: FrameContext) -> None:
        """Turn by captured mouse counts: ``sensitivity`` × :data:`MOUSE_LOOK_DEGREES` a count, up looks up unless
        ``invert_mouse``."""
        if not self.mouse_look:
            return
        k = self.sensitivity * MOUSE_LOOK_DEGREES
        dy = -a.b if self.invert_mouse else a.b
        if self.mode == "free" and self.free is not None:
            self.free = self.free.look(a.a, dy, sensitivity=k)
        elif self.mode == "orbit":
            self.orbit = self.orbit.look(a.a, dy, sensitivity=k)

    # cameras
    def _on_camera(self, a: Action, ctx: FrameContext) -> None:
        wanted = CAMERA_MODES[int(a.a)]
        if not self.has_demo:
            return  # a map without a demo has only the free camera
        if wanted == self.mode and wanted != "pov":
            wanted = "pov"  # F or C again: back to the recorder's eyes
        if int(a.a) == 0:
            self.ghost = None   # V: the demo's own eyes, not a ghost's
        if wanted == "free":
            self.free = FreeFly.from_camera(ctx.camera) if ctx.camera is not None else self.free
            if self.free is None:
                return
        self.mode = wanted

    def _on_orbit_next(self, a: Action, ctx: FrameContext) -> None:
        if not self.has_demo or not (ctx.followable or self.ghost_labels):
            return
        self._follow(ctx.followable, int(a.a), ctx)

    def _on_player(self, a: Action, ctx: FrameContext) -> None:
        """Tab: the next player's eyes (a multi-view demo's slots, then the ghosts'), or the orbit camera around the
        next player where the demo has only the recorder's view."""
        slots = self.info.pov_slots
        if len(slots) > 1 or self.has_demo and self.ghost_labels and not ctx.players:
            views: list[tuple[int | None, int | None]] = [(slot, None) for slot in slots] or [(None, None)]
            views += [(None, g) for g in range(len(self.ghost_labels))]
            if self.ghost is not None and self.mode == "pov":
                current = views.index((None, self.ghost))
            else:
                watched = self.pov_slot
                if watched is None and slots:   # the recorder's view: the player it shows (a spectator's followed)
                    shown = self.info.schema.entity_slot(int(ctx.scene.view_entity)) if ctx.scene is not None else -1
                    watched = shown if shown in slots else self.info.recorder_slot
                current = views.index((watched, None)) if (watched, None) in views else -1
            slot, self.ghost = views[(current + int(a.a)) % len(views)]
            self.pov_slot = None if slot == self.info.recorder_slot else slot
            self.mode = "pov"
        elif self.has_demo and ctx.players:
            self._follow(ctx.players, int(a.a), ctx)

    def _on_watch(self, a: Action, ctx: FrameContext) -> None:
        """A player picked in the controls' list (:mod:`viewer.ui.controls`): one of those Tab cycles through, at
        once — POV slot ``a.a`` in an MVD, else the orbit camera follows player entity ``a.a``."""
        who = int(a.a)
        self.ghost = None
        if len(self.info.pov_slots) > 1:
            if who in self.info.pov_slots:
                self.pov_slot = None if who == self.info.recorder_slot else who
                self.mode = "pov"
        elif self.has_demo and who in ctx.players:
            self._follow_entity(who, ctx)

    def _follow(self, numbers: tuple[int, ...], direction: int, ctx: FrameContext) -> None:
        """The orbit camera on the next (``direction`` 1) or previous of the entities ``numbers``, then of the
        ghosts."""
        subjects: list[tuple[int | None, int | None]] = [(n, None) for n in numbers]
        subjects += [(None, g) for g in range(len(self.ghost_labels))]
        now = (None, self.ghost) if self.ghost is not None else (self.follow, None)
        if self.mode == "orbit" and now in subjects:
            i = (subjects.index(now) + direction) % len(subjects)
        else:
            i = 0 if direction > 0 else len(subjects) - 1
        entity, ghost = subjects[i]
        self._follow_entity(entity, ctx, ghost)

    def _follow_entity(self, entity: int | None, ctx: FrameContext, ghost: int | None = None) -> None:
        """The orbit camera follows ``entity`` (or ``ghost``), turned as the view was when it starts orbiting."""
        if self.mode != "orbit" and ctx.camera is not None:
            self.orbit = Orbit(float(ctx.camera.angles[1]), ORBIT_PITCH, self.orbit.distance)
        self.follow = entity
        self.ghost = ghost
        self.last_target = None
        self.mode = "orbit"

    def _on_drag_begin(self, a: Action, ctx: FrameContext) -> None:
        self.dragging = True

    def _on_drag_end(self, a: Action, ctx: FrameContext) -> None:
        self.dragging = False

    def _on_look(self, a: Action, ctx: FrameContext) -> None:
        if self.mode == "free" and self.free is not None:
            self.free = self.free.look(a.a, a.b)
        elif self.mode == "orbit":
            self.orbit = self.orbit.look(a.a, a.b)

    def _on_zoom(self, a: Action, ctx: FrameContext) -> None:
        if self.mode == "orbit":
            self.orbit = self.orbit.zoom(a.a)
        elif self.mode == "chase":
            self.chase_back = min(max(self.chase_back - a.a * CHASE_STEP, CHASE_MIN), CHASE_MAX)

    # the director (Ctrl+D)
    def _on_director(self, a: Action, ctx: FrameContext) -> None:
        if self.directing:
            self._stop_directing()
        else:
            self.start_directing()

    def start_directing(self) -> None:
        """The director takes the camera (its shot list planned now if it was not yet)."""
        if not self.has_demo:
            return
        if self.plan is None and self.planner is not None:
            self.plan = self.planner()
        if self.plan is None:
            return
        if self.mouse_look:
            self._release_mouse()
        self.directing = True
        self.mode = "pov"
        self._say(f"director on: {len(self.plan.shots)} shots (Ctrl+D: off)")

    def _stop_directing(self) -> None:
        """The director gives the camera back: the eyes of the player it showed."""
        self.pov_slot = self.view_pov()
        self.directing = False
        self.mode = "pov"
        self._say("director off")

    # the export range (I / O, Shift+I) and Ctrl+E: the window starts the export
    def _on_mark_in(self, a: Action, ctx: FrameContext) -> None:
        if self.has_demo:
            self.marks = self.marks.mark_in(self.clock.t)
            self._say_range()

    def _on_mark_out(self, a: Action, ctx: FrameContext) -> None:
        if self.has_demo:
            self.marks = self.marks.mark_out(self.clock.t)
            self._say_range()

    def _on_clear_marks(self, a: Action, ctx: FrameContext) -> None:
        if self.marks.any:
            self.marks = RangeMarks()
            self._say_range()

    def _say_range(self) -> None:
        if not self.marks.any:
            self._say("export range cleared: Ctrl+E exports the whole demo (Ctrl+X cuts it as a demo)")
            return
        first, last = self.export_span()
        self._say(f"export range {format_time(first - self.info.start)} - {format_time(last - self.info.start)}: "
                  "Ctrl+E exports it, Ctrl+X cuts it as a demo")

    def export_span(self) -> tuple[float, float]:
        """The range Ctrl+E exports (timeline seconds): the marks, unset ones at the demo's ends."""
        return self.marks.span(self.info.start, self.info.end)

    def _on_export(self, a: Action, ctx: FrameContext) -> None:
        self.requests.append("export")

    def _on_cut_demo(self, a: Action, ctx: FrameContext) -> None:
        self.requests.append("cut_demo")

    # the camera path (K, Shift+K, Delete, Ctrl+K, P, Ctrl+S and the key row)
    def _say(self, text: str) -> None:
        if text:
            self.messages.append(text)

    def _view_camera(self, ctx: FrameContext) -> Camera | None:
        """The pose a new key takes: the free camera's (exact, even between frames), else the picture's."""
        if self.mode == "free" and self.free is not None:
            return self.free.camera(self.fov)
        return ctx.camera

    def _on_key_add(self, a: Action, ctx: FrameContext) -> None:
        if not self.has_demo:
            self._say("camera keys need a demo playing")
            return
        camera = self._view_camera(ctx)
        if camera is not None:
            self.path_edit, said = self.path_edit.add(self.t - self.info.start, camera)
            self._say(said)

    def _on_key_replace(self, a: Action, ctx: FrameContext) -> None:
        camera = self._view_camera(ctx)
        if camera is not None:
            self.path_edit, said = self.path_edit.replace_pose(camera)
            self._say(said)

    def _on_key_delete(self, a: Action, ctx: FrameContext) -> None:
        self.path_edit, said = self.path_edit.delete()
        self._say(said)
        if self.mode == "path" and not self.path_edit.path.keys:
            self.mode = self.mode_before_path

    def watching(self, scene: SceneState) -> str:
        """The plain name of the player whose eyes are shown (POV) or whom the orbit camera follows in ``scene``, or
        the director's shot shows, else ``""`` (the corner readout's "watching")."""
        if self.directing and self.plan is not None:
            return self.plan.shot_at(self.t).player
        if self.ghost is not None and self.mode in ("pov", "chase", "orbit"):
            return f"ghost {self.ghost_labels[self.ghost]}"
        if self.mode == "orbit" and self.follow is not None:
            return self.info.entity_name(scene.scoreboard, self.follow)
        if self.mode == "pov":
            if self.pov_slot is not None:
                return self.info.slot_name(scene.scoreboard, self.pov_slot)
            return self.info.entity_name(scene.scoreboard, int(scene.view_entity))
        return ""

    def _on_key_look_at(self, a: Action, ctx: FrameContext) -> None:
        entity = self._watched_entity(ctx)
        name = ""
        if entity is not None and ctx.scene is not None:
            name = self.info.entity_name(ctx.scene.scoreboard, entity)
        self.path_edit, said = self.path_edit.toggle_look_at(entity, name)
        self._say(said)

    def _watched_entity(self, ctx: FrameContext) -> int | None:
        """The entity Ctrl+K aims the selected key at: the one the orbit camera follows, the player whose eyes or
        back the view shows (POV, chase), else the player nearest the middle of the view."""
        if self.mode == "orbit" and self.follow is not None:
            return self.follow
        scene = ctx.scene
        if scene is None:
            return None
        if self.mode in ("pov", "chase"):
            return int(scene.view_entity)
        camera = self._view_camera(ctx)
        if camera is None:
            return None
        positions = {n: o for n in ctx.players if (o := entity_origin(scene, n)) is not None}
        return centred_entity(camera, positions)

    def _on_path_camera(self, a: Action, ctx: FrameContext) -> None:
        if self.mode == "path":
            self.mode = self.mode_before_path
            self._say(f"path camera off: {self.mode} camera")
        elif not self.path_edit.path.keys:
            self._say("no camera keys yet: K adds one at this time from the view")
        else:
            self.mode_before_path, self.mode = self.mode, "path"
            self._say(f"path camera: {len(self.path_edit.path.keys)} keys")

    def _on_path_save(self, a: Action, ctx: FrameContext) -> None:
        if not self.path_edit.path.keys:
            self._say("no camera keys to save: K adds one")
        else:
            self.requests.append("save_path")

    def _on_key_grab(self, a: Action, ctx: FrameContext) -> None:
        """A press on key ``a.a``'s mark at column ``a.b``: select it and jump to its time; a drag may follow."""
        index = int(a.a)
        keys = self.path_edit.path.keys
        if not 0 <= index < len(keys):
            return
        self.path_edit, said = self.path_edit.select(index)
        self.key_grab = (keys[index].time, key_mark_x(self.geometry(), keys[index]) - a.b)
        self.idle = 0.0
        self.clock = self.clock.seek(self.info.start + keys[index].time)
        self._say(said)

    def _on_key_drag(self, a: Action, ctx: FrameContext) -> None:
        """The grabbed key follows the mouse in time (keeping where on the mark it was grabbed); the path re-sorts,
        the selection and the clock follow the key."""
        selected = self.path_edit.selected
        if self.key_grab is None or selected is None:
            return
        self.idle = 0.0
        t = self.geometry().time_at(a.a + self.key_grab[1])
        self.path_edit = self.path_edit.move(selected, t - self.info.start)
        moved = self.path_edit.key
        if moved is not None:
            self.clock = self.clock.seek(self.info.start + moved.time)

    def _on_key_drop(self, a: Action, ctx: FrameContext) -> None:
        if self.key_grab is None:
            return
        was, _offset = self.key_grab
        self.key_grab = None
        edit = self.path_edit
        if edit.selected is not None and edit.path.keys[edit.selected].time != was:
            self._say(f"{edit.describe(edit.selected)}: moved from {format_time(was)}")

    # requests for the window
    def _on_screenshot(self, a: Action, ctx: FrameContext) -> None:
        self.requests.append("screenshot")

    def _on_fullscreen(self, a: Action, ctx: FrameContext) -> None:
        self.requests.append("fullscreen")

    def _on_open(self, a: Action, ctx: FrameContext) -> None:
        self.requests.append("open")

    def _on_escape(self, a: Action, ctx: FrameContext) -> None:
        if self.mouse_look:
            self._release_mouse()
        elif self.show_help:
            self.show_help = False
        else:
            self.requests.append("escape")

    def _on_quit(self, a: Action, ctx: FrameContext) -> None:
        self.requests.append("quit")

    def take_messages(self) -> list[str]:
        """The sentences to show the user, oldest first (the queue is emptied)."""
        out, self.messages = self.messages, []
        return out

    def take_requests(self) -> list[str]:
        """The queued window requests, oldest first (the queue is emptied)."""
        out, self.requests = self.requests, []
        return out
