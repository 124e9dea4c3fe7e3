"""The viewer window (``qdv play``, ``qdv map``): a pyglet window that wires the pieces together and nothing else.

Events → :mod:`viewer.input` actions → :class:`~viewer.viewer_state.ViewerState`; each frame the state gives the
time and camera, the open demo's :class:`~viewer.session.DemoSession` builds the scene and draws it into an
:class:`~viewer.render.context.OffscreenTarget` the size of the window's framebuffer, the HUD (the game's
:meth:`~viewer.games.base.GameView.hud_layout`) and the UI (timeline bar, help, messages) are drawn over it in the
same target, and the target is blitted to the window (reading the window's own framebuffer fails on Mesa through
pyglet). F12 reads the target back into a numbered PNG.

Loading happens in steps between frames (the window shows "loading …" and the terminal prints progress), so the
window appears at once and the first picture follows as soon as the map is uploaded.

Import this module only after choosing pyglet's headless mode (``pyglet.options['headless']``): importing
``pyglet.window`` opens the display.
"""

from __future__ import annotations

import sys
import textwrap
import time
import warnings
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import moderngl
import numpy as np
import pyglet
from pyglet.window import key

from assets_loader.images import Image
from assets_loader.demos import DemoTimeline, SceneState, is_demo_name
from assets_loader.demos.merge import load_merged
from assets_loader.demos.detect import demo_game
from assets_loader.demos.events import plain_line
from assets_loader.errors import FormatError
from assets_loader.vfs import VirtualFS

from . import heap
from . import input as inp
from .audio.output import SOUND_KEYS, AudioOutput, listener_for, open_output
from .camera_path import CameraPath, save_path
from .camera_path_edit import PathEdit, outside_report, path_beside, save_target
from .cameras import map_start_camera
from .cut import cut_beside
from .export import next_numbered_path, write_png
from .games import game_data
from .games.base import GameView
from .games.registry import DEFAULT_GAME, game_view
from .render.blit import ScreenBlit
from .render.context import OffscreenTarget
from .render.frame import FrameRenderer
from .render.hud_overlay import HudRenderer
from .render.refdef import HudLayout, SceneFrame
from .render.ui_overlay import UiRenderer, conchars_rgba
from .ghosts import Ghost, Ghosts
from .splits import Split, splits, splits_table
from .ui.ghost_labels import label_layout
from .ui.splits_box import splits_layout
from .session import DemoSession, game_filesystem, map_game_view
from .settings import SettingsFile, save_settings
from .ui.browser import browser_layout
from .ui.browser_session import BrowserSession
from .ui.controls import Control, ControlsStatus, control_at, controls, controls_layout, on_controls, tooltip_layout
from .ui.hint import HINT_TIME, hint_layout
from .ui.key_row import key_row_layout
from .ui.picker import Picker, demo_files, picker_key, picker_layout
from .ui.readout import Readout, missing_data_notice, notice_layout, readout_layout, readout_lines
from .multiview.draw import PaneHook, PaneView, draw_panes
from .multiview.layout import pane_at
from .multiview.panes import MultiShot
from .overlays import OverlayOptions, Overlays
from .overlays.minimap import minimap_rect
from .picture import Overrides, Picture, draw_picture
from .ui.timeline_bar import BarStatus, UiLayout, text_box_layout, timeline_layout, ui_scale
from .watch_list import watch_list
from .video.background import BackgroundExport, GameData, export_for_view
from .viewer_state import FrameContext, ViewerState

#: How long a message ("saved screenshots/qdv0000.png") stays on screen, seconds.
MESSAGE_TIME = 2.5
#: How long the missing-data notice stays on screen after a map is loaded, seconds.
NOTICE_TIME = 12.0
#: Frames the frame rate is averaged over.
FPS_FRAMES = 30


@dataclass(frozen=True, slots=True)
class PlaySource:
    """What to open: a demo (``demo`` path) or a map (``map_path`` inside ``fs``), with its game filesystem.

    ``basedir`` / ``game`` (``--basedir`` / ``--game``) find the game data of demos opened later from the window;
    ``folder``: open the demo picker on it at once (``qdv play DIR``); ``sensitivity`` / ``invert_mouse``
    override the remembered mouse-look settings; ``camera_path`` (``--camera-path``, read from
    ``camera_path_file``): the demo starts on that path's camera (without it the path saved beside the demo is
    loaded, if any); ``pov`` (``--pov``): the player slot whose eyes the demo starts from (``None``: the demo's
    own view); ``water_alpha`` overrides the maps' liquid opacity (``None``: each map's own); ``library_db`` /
    ``library_workers``: the Ctrl+O library browser's file (``None``: the platform data folder's) and indexing
    processes; ``ghosts`` / ``ghost_offsets``: other demos of the same map raced as ghosts (``--ghost``,
    ``--ghost-offset``, :mod:`viewer.ghosts`), or ``ghost_runs``: those ghosts already loaded (``qdv play`` checks
    them before the window opens: each ghost demo is decoded once); ``pov_ghost``: start from that ghost's eyes
    (``--pov ghost:N``); ``trails``: start with the routes drawn (``--trails``, key T); ``merges``: other client
    demos of the same match whose recorders' exact views are added (``--merge``, :mod:`assets_loader.demos.merge`);
    ``overlays``: the caster's overlays on at the start (``--overlay``, F5-F8); ``director``: the director has the
    camera from the start (``--camera director``); ``multiview``: the panes the demo starts with
    (``--multiview``); ``timeline``: ``demo`` with its ``merges`` already decoded (``qdv play`` decodes it once for
    its checks; ``None``: the window decodes it)."""

    fs: VirtualFS
    demo: str | None = None
    map_path: str | None = None
    start: str = "0"
    speed: float = 1.0
    fov: float = 90.0
    pov: int | None = None
    settings: SettingsFile | None = None
    basedir: str | None = None
    game: str | None = None
    folder: str | None = None
    sensitivity: float | None = None
    invert_mouse: bool | None = None
    camera_path: CameraPath | None = None
    camera_path_file: str | None = None
    water_alpha: float | None = None
    library_db: str | None = None
    library_workers: int | None = None
    overlays: OverlayOptions = OverlayOptions()
    ghosts: tuple[str, ...] = ()
    ghost_offsets: tuple[float, ...] = ()
    merges: tuple[str, ...] = ()
    director: bool = False
    multiview: MultiShot | None = None
    ghost_runs: tuple[Ghost, ...] = ()
    pov_ghost: int | None = None
    trails: bool = False
    timeline: DemoTimeline | None = None

    @property
    def title(self) -> str:
        return Path(self.demo).name if self.demo else str(self.map_path)


def _demo_view(demo: str | None) -> GameView:
    """The view of the game ``demo`` belongs to (from its first bytes), so the palette and HUD pictures loaded
    before it is decoded are that game's; the default game's for no demo or a game qdv cannot show."""
    if demo is None:
        return game_view(DEFAULT_GAME)
    with open(demo, "rb") as f:
        head = f.read(65536)
    try:
        return game_view(demo_game(head, str(demo)))
    except ValueError:
        return game_view(DEFAULT_GAME)


def _log(text: str) -> None:
    print(f"qdv: {text}", file=sys.stderr, flush=True)


class ViewerWindow(pyglet.window.Window):
    """The viewer. ``shots``: the screenshot folder. Drive it with ``pyglet.app.run`` (:func:`run`) or, in tests,
    :meth:`tick`."""

    def __init__(self, source: PlaySource, *, size: tuple[int, int] = (1280, 720), shots: str | Path = "screenshots",
                 fullscreen: bool = False, visible: bool = True, quiet: bool = False) -> None:
        self._t0 = time.perf_counter()
        self._closed_once = False
        super().__init__(size[0], size[1], caption=f"qdv — {source.title}", resizable=True, visible=visible,
                         fullscreen=fullscreen, file_drops=True)
        self.source = source
        self.shots = Path(shots)
        self.quiet = quiet
        self.ctx = moderngl.create_context()
        self._screen_fb = self.ctx.detect_framebuffer()
        self.target = OffscreenTarget(self.ctx, self._fb_size())
        self._blit = ScreenBlit(self.ctx)
        self.game: GameView = (map_game_view(source.fs, source.map_path) if source.map_path
                               else _demo_view(source.demo))
        self.palette = self.game.load_palette(source.fs)   # a demo's own game may change it once it is decoded
        self.ui, self.hud = self._overlays()
        self.session: DemoSession | None = None
        self._caster: Overlays | None = None    # the caster's overlays of the session's pictures
        self.state: ViewerState | None = None
        self._map_renderer: FrameRenderer | None = None
        self._sound: AudioOutput | None = None
        self._held: set[str] = set()
        self._last: SceneFrame | None = None
        self._last_state: SceneState | None = None
        self._splits: list[Split] | None = None   # the open demo's splits (key Y, map ends), made when first shown
        self._screenshot = False
        self._message = ("", 0.0)
        self._notice: tuple[tuple[str, ...], float] = ((), 0.0)
        self._draw_times: deque[float] = deque(maxlen=FPS_FRAMES)
        self.picker: Picker | None = Picker.of(source.folder) if source.folder else None
        self.library: BrowserSession | None = None     # the Ctrl+O library browser, while open
        self.failed: str | None = None
        self.last_layers = UiLayout()   # the UI drawn last (bar, readout, notice, help, picker): for tests
        self._loading_text = f"loading {source.title}"
        self._loader: Iterator[str] | None = self._load()
        self.frames = 0
        self._opened_later = False
        self._last_dir: Path | None = Path(source.folder) if source.folder else None
        self.first_frame_seconds: float | None = None
        self.last_screenshot: Path | None = None
        self.export: BackgroundExport | None = None   # the Ctrl+E export running (or the last one, ended)
        seen = source.settings is not None and source.settings.settings.hint_seen
        self._hint: float | None = None if seen else HINT_TIME   # seconds the first-run hint ("F1: keys") stays

    def _overlays(self) -> tuple[UiRenderer, HudRenderer]:
        """The UI and HUD renderers with the pictures of the current game (its ``conchars`` is the UI font)."""
        pics = self.game.load_hud_pics(self.source.fs)
        conchars, palette = pics.get("conchars"), self.palette
        if not isinstance(conchars, Image):     # no game data: the bundled font, so the notice can be read
            conchars, palette = game_data.stand_in_font()
        font = conchars_rgba(conchars, palette)
        return UiRenderer(self.ctx, font), HudRenderer(self.ctx, self.palette, pics)

    # --- loading -------------------------------------------------------------------------------------------------

    def _say(self, text: str) -> None:
        if not self.quiet:
            _log(text)

    def _load(self) -> Iterator[str]:
        src = self.source
        size = self._fb_size()
        if src.demo is not None:
            yield f"loading demo {Path(src.demo).name}"
            self._say(f"loading demo {src.demo} ({Path(src.demo).stat().st_size / 1e6:.1f} MB)")
            t = time.perf_counter()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                timeline = src.timeline if src.timeline is not None else load_merged(src.demo, src.merges)
            for w in caught:
                self._say(f"warning: {w.message}")
            self._say(f"demo {Path(src.demo).name}: {timeline.num_frames} frames, {timeline.duration:.1f} s, "
                      f"maps {', '.join(timeline.maps)} ({time.perf_counter() - t:.2f} s)")
            from .timespec import parse_timespec  # local: only the demo path needs it
            start = parse_timespec(src.start, duration=timeline.duration)
            self.state = ViewerState.for_timeline(timeline, start=start, speed=src.speed, fov=src.fov, size=size,
                                                  multi=src.multiview)
            if src.pov is not None:
                self.state.pov_slot = src.pov
            if src.director:
                self.state.start_directing()
            if src.camera_path is not None:     # --camera-path: start on the path's preview
                self.state.path_edit = PathEdit.loaded(src.camera_path, src.camera_path_file)
                self.state.mode = "path"
                self._tell(outside_report(src.camera_path, timeline.duration))
            else:
                self.state.path_edit, said = path_beside(src.demo, timeline.duration)
                self._tell(said)
            self._apply_settings()
            self.state.overlays = src.overlays
            self.session = DemoSession(timeline, src.fs, self.ctx)
            self._splits = None
            if src.ghost_runs:
                self.session.ghosts = Ghosts(timeline, list(src.ghost_runs))
            elif src.ghosts:
                self.session.ghosts = Ghosts.load(timeline, list(src.ghosts), list(src.ghost_offsets))
            self.state.show_trails = src.trails
            if self.session.ghosts is not None:
                self.state.ghost_labels = tuple(g.label for g in self.session.ghosts.ghosts)
                self.state.ghost = src.pov_ghost
            if self.session.game != self.game:
                self.game = self.session.game
                self.palette = self.game.load_palette(src.fs)
                for overlay in (self.ui, self.hud):
                    overlay.release()
                self.ui, self.hud = self._overlays()
            segment = max(timeline.sample(self.state.t).segment, 0)
            seg = timeline.segments[segment]
            yield f"loading {seg.map_path} and {len(seg.model_precache) - 2} models"
            self._use_segment(segment)
            yield "loading sounds"
            session = self.session
            self._sound = open_output(timeline, src.fs, lambda s: session.game_map if s == session.segment else None,
                                      self._say)
        else:
            assert src.map_path is not None, "a source is a demo or a map"
            yield f"loading {src.map_path}"
            t = time.perf_counter()
            assets = self.game.load_map_assets(src.fs, src.map_path)
            self._map_renderer = FrameRenderer(self.ctx, assets, owns_assets=True)
            world = assets.game_map
            self.state = ViewerState.for_map(map_start_camera(world, src.fov), size=size)
            self._apply_settings()
            entities = len(world.entities) if world is not None else 0
            self._say(f"map {src.map_path}: {entities} entities ({time.perf_counter() - t:.2f} s)")
        heap.settle()       # what was loaded stays: keep the collector from walking it during playback

    def _use_segment(self, segment: int) -> None:
        """Switch the session to map segment ``segment`` when it is not the loaded one, printing what was loaded and
        the warnings (missing models, a missing map) in the terminal."""
        session = self.session
        assert session is not None
        if segment == session.segment:
            return
        seg = session.timeline.segments[segment]
        t = time.perf_counter()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            session.use_segment(segment)
        for w in caught:
            self._say(f"warning: {w.message}")
        said = game_data.missing_data_notice(session.timeline.game, session.fs, session.missing_map, window=True)
        self._notice = (missing_data_notice(said, [str(w.message) for w in caught]), NOTICE_TIME)
        level = plain_line(seg.level_name, session.timeline.schema.color_codes)
        self._say(f"map {seg.map_path} ({level}) and {len(seg.model_precache) - 2} models "
                  f"({time.perf_counter() - t:.2f} s)")
        if self._loader is None:    # a level change during playback (loading settles the heap at its end)
            heap.settle()

    @property
    def ready(self) -> bool:
        return self._loader is None

    # --- per frame -----------------------------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        """Scheduled at 60 Hz: one loading step, or advance the clock and fly the free camera; says when the
        background export has ended."""
        self._check_export()
        if self.library is not None and (said := self.library.poll()):
            self._say(said)
        if self._loader is not None:
            try:
                self._loading_text = next(self._loader)
            except StopIteration:
                self._loader = None
            except (OSError, ValueError, FormatError) as exc:   # a broken demo opened from the window
                if self.frames == 0 and self.source.folder is None and not self._opened_later:
                    raise
                self._loader = None
                self.failed = f"cannot open {Path(self.source.title).name}: {exc}"
                self._say(self.failed)
                self._close_demo()
            return
        if self.state is None:
            return
        held = frozenset(self._held) if self.state.mode == "free" else frozenset()
        self.state.update(dt, inp.movement(held))
        st = self.state
        if self._sound is not None:
            self._sound.update(st.t, st.clock.speed, st.clock.paused, st.scrubbing,
                               listener_for(self._last, self._last_state, st.mode in ("free", "path")))
        text, left = self._message
        self._message = (text, left - dt)
        lines, left = self._notice
        self._notice = (lines, left - dt)
        if self._hint is not None:
            self._hint -= dt
            if self._hint <= 0:
                self._end_hint()

    def tick(self, dt: float = 1 / 60) -> None:
        """One iteration of the loop without ``pyglet.app.run`` (tests, benchmarks): pending events (including those
        sent with ``dispatch_event``, which pyglet queues until the loop runs), update, draw, flip."""
        self.dispatch_events()
        self.update(dt)
        self.switch_to()
        self.on_draw()
        self.flip()

    def _fb_size(self) -> tuple[int, int]:
        w, h = self.get_framebuffer_size()
        return max(int(w), 1), max(int(h), 1)

    def on_resize(self, width: int, height: int):
        size = self._fb_size()
        if size != self.target.size:
            self.target.release()
            self.target = OffscreenTarget(self.ctx, size)
        if self.state is not None:
            self.state.size = size
        return pyglet.event.EVENT_HANDLED

    def on_draw(self) -> None:
        target = self.target
        size = target.size
        scale = ui_scale(size)
        self._draw_times.append(time.perf_counter())
        if not self.ready or self.state is None:
            target.use()
            self.ctx.clear(0.0, 0.0, 0.0, 1.0, depth=1.0)
            columns = max(size[0] // (8 * scale) - 4, 20)
            lines = [self._loading_text + " ..."] if not self.ready else \
                [*textwrap.wrap(self.failed or "no demo", columns),
                 "Ctrl+O: open another demo, or drop one on the window"]
            layers = text_box_layout(lines, size, scale)
            chooser = self._chooser_layout(size, scale)
            self.last_layers = layers + chooser
            self.ui.draw(layers, size)
            self.ui.draw(chooser, size)
        else:
            self._draw_frame(size, scale)
            self.frames += 1
            if self.first_frame_seconds is None:
                self.ctx.finish()
                self.first_frame_seconds = time.perf_counter() - self._t0
                self._say(f"first frame after {self.first_frame_seconds:.2f} s")
        if self._screenshot and self.ready:
            self._screenshot = False
            self._save_screenshot()
        self._screen_fb.use()
        fw, fh = self._fb_size()
        self._blit.draw(target.color, (0, 0, fw, fh))

    def _draw_frame(self, size: tuple[int, int], scale: int) -> None:
        st = self.state
        assert st is not None, "drawn only once loaded"
        session = self.session
        hud_shown: HudLayout | None = None   # the game's HUD as drawn (the readout takes a free place beside it)
        if session is not None and st.panes.multi:
            picture = self._draw_panes(session, st)
            frame, sample = picture.frame, picture.state
        elif session is not None:
            t = st.t
            pov = st.view_pov()
            sample = session.timeline.sample(t, pov=pov)
            self._use_segment(max(sample.segment, 0))
            if st.show_trails and session.ghosts is None:    # T without --ghost: the recorder's route alone
                session.ghosts = Ghosts(session.timeline, [])
            ghost_eyes = st.ghost if st.mode == "pov" else None
            if session.ghosts is not None:
                session.ghosts.show_trails = st.show_trails
                session.ghosts.eyes = ghost_eyes
            camera = st.camera_for(sample, session.game_map, session.ghosts)
            picture = draw_picture(session, self.target, t, camera, st.fov, pov, state=sample,
                                   overrides=Overrides(self.source.water_alpha, st.show_scores),
                                   hud=self.hud if st.show_hud and ghost_eyes is None else None)
            frame, hud_shown = picture.frame, picture.layout
            if st.overlays.any:
                self._overlays_of(session).draw(picture, self.target, st.overlays)
        else:  # a map without a demo
            sample = None
            camera = st.camera_for(None)
            assert self._map_renderer is not None and camera is not None, "a map is seen from the free camera"
            frame = SceneFrame(0.0, 0, camera, (), _ONES, water_alpha=self.source.water_alpha)
            self._map_renderer.draw(frame, self.target)
        self._last = frame
        self._last_state = sample
        layers = body = UiLayout()
        if session is not None and sample is not None:
            st.sbar_lines = hud_shown.sbar_lines if hud_shown is not None else 0
            st.controls = self._controls(st, sample) if st.bar_visible else ()
            if st.bar_visible:
                hover = st.hover
                body = controls_layout(st.controls, hover)
                self.target.use()
                self.ui.draw(body, size)     # first: the bar's and the controls' tooltips go over it
                layers = tooltip_layout(st.controls, hover, size)
                layers += key_row_layout(st.geometry(), st.path_edit.path.keys, st.path_edit.selected, hover)
                layers += timeline_layout(st.geometry(), st.info.markers_for(st.view_pov()), st.t,
                                          BarStatus(st.clock.speed, st.clock.paused, st.camera_name), hover,
                                          marked=(st.marks.start, st.marks.end),
                                          export_progress=self._export_progress)
        if session is not None and session.ghosts is not None and sample is not None:
            layers = self._ghost_labels(frame, size, scale) + layers    # under the rest of the UI
        if session is not None and sample is not None:
            layers += self._splits_box(st, sample, size, scale)
        if self._hint is not None:
            layers += hint_layout(size, scale)
        text, left = self._message
        message = text_box_layout([text], size, scale, anchor="topright") if left > 0 and text else UiLayout()
        layers += message
        if sample is not None:
            lines = readout_lines(self._readout(st, sample), with_clock=not st.bar_visible)
            if self.session is not None and self.session.ghosts is not None:
                lines += tuple(self.session.ghosts.readout(max(sample.segment, 0), st.t))
            below = max([0.0, *(r.y + r.h for r in message.rects)])
            if st.overlays.minimap:     # under the minimap of the pane in the top-right corner
                rects = st.pane_rects()
                pane = rects[pane_at(rects, size[0] - 1, 0) or 0]
                corner = minimap_rect(pane.size)
                below = max(below, pane.y + corner[1] + corner[3])
            if st.panes.multi and st.panes.layout == "inset":    # under the insets' column
                below = max([below, *(r.y + r.h for r in st.pane_rects()[1:])])
            layers += readout_layout(lines, size, scale, top=below, hud=hud_shown)
        notice, left = self._notice
        if left > 0 and notice and not st.show_scores:
            layers += notice_layout(notice, size, scale)
        if st.show_help:
            layers += text_box_layout([f"{k:<20} {v}" for k, v in inp.KEY_HELP], size, scale)
        chooser = self._chooser_layout(size, scale)
        self.last_layers = body + layers + chooser
        if layers.rects or layers.texts or chooser.rects:
            self.target.use()
            self.ui.draw(layers, size)
            self.ui.draw(chooser, size)     # over the rest, texts included

    def _draw_panes(self, session: DemoSession, st: ViewerState) -> Picture:
        """The multiview: each pane's picture composed into the target, the selected pane framed; its picture is
        returned (the keys, the readout and the sound follow it)."""
        t = st.t
        views = []
        samples: dict[int | None, SceneState] = {}     # the timeline sampled once per player watched
        for pane, shot in enumerate(st.pane_shots()):
            if shot.pov not in samples:
                samples[shot.pov] = session.timeline.sample(t, pov=shot.pov)
            sample = samples[shot.pov]
            self._use_segment(max(sample.segment, 0))
            views.append(PaneView(st.pane_camera_for(pane, sample, session.game_map, session.ghosts), st.fov,
                                   shot.pov, sample))
        pictures = draw_panes(session, self.target, t, views, st.pane_rects(),
                              overrides=Overrides(self.source.water_alpha, st.show_scores),
                              hud=self.hud if st.show_hud else None, selected=st.panes.selected,
                              after_picture=self._pane_overlays(session, st.overlays))
        return pictures[st.panes.selected]

    def _overlays_of(self, session: DemoSession) -> Overlays:
        """The caster's overlays of ``session``'s pictures (made when first asked for)."""
        if self._caster is None or self._caster.session is not session:
            self._release_caster()
            self._caster = Overlays(session)
        return self._caster

    def _pane_overlays(self, session: DemoSession, options: OverlayOptions) -> PaneHook | None:
        """What draws the caster's overlays over each pane (``None`` while none is on)."""
        if not options.any:
            return None
        overlays = self._overlays_of(session)
        return lambda picture, pane: overlays.draw(picture, pane, options)

    def _splits_box(self, st: ViewerState, sample: SceneState, size: tuple[int, int], scale: int) -> UiLayout:
        """The splits table (:mod:`viewer.splits`, as ``qdv splits`` prints it): every map's with Y, else the maps
        so far once the shown map has ended (its intermission)."""
        session = self.session
        assert session is not None, "asked only for a demo"
        segment = max(sample.segment, 0)
        if self._splits is None:
            self._splits = splits(session.timeline, session.ghosts)
        row = self._splits[segment]
        if st.show_splits:
            rows = self._splits
        elif row.finished and row.end <= st.t:
            rows = self._splits[:segment + 1]
        else:
            return UiLayout()
        return splits_layout([f"splits of {Path(session.timeline.path).name}", *splits_table(rows).splitlines()],
                             size, scale)

    def _ghost_labels(self, frame: SceneFrame, size: tuple[int, int], scale: int) -> UiLayout:
        """Each ghost's name over its head in its tint (:mod:`viewer.ui.ghost_labels`), as the frame's camera sees
        it."""
        session = self.session
        assert session is not None and session.ghosts is not None, "asked only in a race"
        renderer = session.renderer
        poses = session.ghosts.seen_from(frame.camera.origin, frame.segment, frame.time)
        labels = [(p.ghost.label, p.ghost.color, p.origin) for p in poses]
        look = renderer.assets.look if renderer is not None else None
        return label_layout(labels, frame.camera, size, scale, warp=frame.view_warp, world=session.game_map,
                            fov_across_width=look is not None and look.fov_across_width)

    def _chooser_layout(self, size: tuple[int, int], scale: int) -> UiLayout:
        """The picker or the library browser, when one is open (drawn last, over the HUD and notices)."""
        if self.picker is not None:
            return picker_layout(self.picker, size, scale)
        if self.library is not None and self.library.browser is not None:
            return browser_layout(self.library.browser, size, scale)
        return UiLayout()

    def _controls(self, st: ViewerState, sample: SceneState) -> tuple[Control, ...]:
        """The controls shown with the bar (:mod:`viewer.ui.controls`) for the picture on screen."""
        sound = self._sound
        players, watched = watch_list(st, sample, self._frame_context().players, self.palette.rgb)
        status = ControlsStatus(st.clock.speed, st.clock.paused, st.mode, bool(st.path_edit.path.keys), st.show_hud,
                                sound.volume if sound is not None else None, sound is not None and sound.muted,
                                players, watched)
        return controls(st.geometry(), status, bool(st.path_edit.path.keys))

    @property
    def fps(self) -> float | None:
        """Frames drawn a second over the last :data:`FPS_FRAMES` frames (``None`` before two frames)."""
        times = self._draw_times
        if len(times) < 2 or times[-1] <= times[0]:
            return None
        return (len(times) - 1) / (times[-1] - times[0])

    def _readout(self, st: ViewerState, sample: SceneState) -> Readout:
        return Readout(st.t - st.info.start, st.info.end - st.info.start, st.clock.speed, st.clock.paused,
                       st.camera_name, st.watching(sample), self.fps if st.show_fps else None,
                       self._export_progress, overlays=",".join(st.overlays.enabled), director=st.director_line())

    def _save_screenshot(self) -> None:
        pixels = self.target.read_rgb()
        try:
            path = write_png(next_numbered_path(self.shots), pixels)
        except OSError as exc:  # a full disk, a shots "folder" that is a file: said on screen, never a crash
            self._message = (f"screenshot not saved: {exc}", MESSAGE_TIME)
            self._say(f"screenshot not saved: {exc}")
            return
        self.last_screenshot = path
        self._message = (f"saved {path}", MESSAGE_TIME)
        self._say(f"screenshot {path}")

    # --- export (Ctrl+E) -----------------------------------------------------------------------------------------

    @property
    def _exporting(self) -> bool:
        return self.export is not None and self.export.running

    @property
    def _export_progress(self) -> float | None:
        """The running export's share done (0..1), ``None`` when none runs."""
        return self.export.progress if self.export is not None and self.export.running else None

    def _start_export(self) -> None:
        """Ctrl+E: export the marked range (or the whole demo) as the window shows it, in the background; refused
        while an export runs."""
        st = self.state
        if self._exporting:
            assert self.export is not None
            self._tell(f"an export is running ({self.export.progress:.0%} of {self.export.job.out.name}): "
                       "wait for it to finish")
            return
        if st is None or self.session is None or self.source.demo is None:
            self._tell("nothing to export: no demo is open")
            return
        try:
            self.shots.mkdir(parents=True, exist_ok=True)
            out = next_numbered_path(self.shots, suffix=".mp4")
            job = export_for_view(st, self.source.demo, GameData.of(self.source.fs), out, self.source.water_alpha,
                                  self.session.ghosts, self.source.merges)
        except (OSError, ValueError) as exc:  # a shots "folder" that is a file; a range shorter than a frame
            self._tell(f"export not started: {exc}")
            return
        self.export = BackgroundExport(job)
        w, h = job.size
        self._tell(f"exporting {job.frames} frames {w}x{h} ({job.shot.mode}) to {out}")

    def _cut_demo(self) -> None:
        """Ctrl+X: the marked range (or the whole demo) written as a demo of the same format beside the demo, under
        the first free ``DEMO_cutNNNN.EXT`` (:func:`~viewer.cut.cut_beside`); the corner says where."""
        st = self.state
        if st is None or self.session is None or self.source.demo is None:
            self._tell("nothing to cut: no demo is open")
            return
        try:
            out, frames, seconds = cut_beside(self.source.demo, self.session.timeline, *st.export_span())
        except (FormatError, OSError, ValueError) as exc:   # a folder that cannot be written; a format not cut
            self._tell(f"demo not cut: {exc}")
            return
        self._tell(f"cut {frames} frames ({seconds:.1f} s) to {out}")

    def _check_export(self) -> None:
        """Say how the background export ended, once it has."""
        if self._exporting:
            assert self.export is not None
            outcome = self.export.poll()
            if outcome is not None:
                self._tell(outcome.message())

    def _stop_export(self) -> None:
        """The window is closing: a running export ends now, its file finalised (or removed when empty); the
        terminal says which."""
        if self._exporting:
            assert self.export is not None
            _log(f"stopping the export to {self.export.job.out} ...")
            _log(self.export.stop().message())

    # --- input ---------------------------------------------------------------------------------------------------

    def _frame_context(self) -> FrameContext:
        frame, state = self._last, self._last_state
        if frame is None or state is None or self.session is None:
            return FrameContext(frame.camera if frame is not None else None)
        precache = self.session.timeline.segments[max(state.segment, 0)].model_precache
        return FrameContext(frame.camera, self.game.follow_candidates(state, precache),
                            self.game.player_entities(state, precache), state)

    def _act(self, action: inp.Action | None) -> None:
        if action is not None and action.name == "open":
            self.open_library()
            return
        if action is None or self.state is None:
            if action is not None and action.name in ("quit", "escape"):
                self.close()
            return
        self.state.handle(action, self._frame_context())
        for said in self.state.take_messages():
            self._tell(said)
        for request in self.state.take_requests():
            if request == "save_path":
                self._save_camera_path(self.state)
            elif request == "screenshot":
                self._screenshot = True
            elif request == "export":
                self._start_export()
            elif request == "cut_demo":
                self._cut_demo()
            elif request == "capture_mouse":
                self.set_exclusive_mouse(True)
                self._message = ("mouse look: Esc or right click releases the mouse", MESSAGE_TIME)
                self._say("mouse look on")
            elif request == "release_mouse":
                self.set_exclusive_mouse(False)
                self._message = ("mouse released", MESSAGE_TIME)
                self._say("mouse look off")
            elif request == "fullscreen":
                self.set_fullscreen(not self.fullscreen)
            elif request == "escape" and self.fullscreen:
                self.set_fullscreen(False)
            elif request in ("escape", "quit"):
                self.close()

    def _tell(self, text: str) -> None:
        """Show ``text`` in the corner for :data:`MESSAGE_TIME` and print it in the terminal."""
        if text:
            self._message = (text, MESSAGE_TIME)
            self._say(text)

    def _save_camera_path(self, st: ViewerState, why: str = "saved") -> None:
        """Ctrl+S: the path into the file :func:`~viewer.camera_path_edit.save_target` picks, which it then owns."""
        target = save_target(self.source.demo or "camera", st.path_edit.file)
        try:
            save_path(st.path_edit.path, target)
        except OSError as exc:
            self._tell(f"camera path not saved: {exc}")
            return
        st.path_edit = replace(st.path_edit, file=str(target), kept=st.path_edit.path)
        self._tell(f"{why} camera path ({len(st.path_edit.path.keys)} keys) to {target}")

    def _keep_unsaved_path(self) -> None:
        """Before the demo closes (another opens, or the window closes): an edited, unsaved path is saved as Ctrl+S
        would save it, so no key the user made is lost."""
        st = self.state
        if st is not None and self.source.demo is not None and st.path_edit.unsaved:
            self._save_camera_path(st, why="kept the unsaved")

    def _top(self, y: float) -> float:
        """pyglet's bottom-up window ``y`` → top-down framebuffer pixels (HiDPI-aware)."""
        fw, fh = self._fb_size()
        return (self.height - y) * fh / max(self.height, 1)

    def _fx(self, x: float) -> float:
        fw, _fh = self._fb_size()
        return x * fw / max(self.width, 1)

    def on_key_press(self, symbol: int, modifiers: int):
        name = key.symbol_string(symbol)
        self._end_hint()
        if self.picker is not None:
            self.picker, chosen = picker_key(self.picker, name)
            if chosen is not None:
                self.open_demo(chosen)
            return pyglet.event.EVENT_HANDLED
        if self.library is not None:
            self._opened(self.library.key(name))
            return pyglet.event.EVENT_HANDLED
        if not modifiers & inp.CTRL:     # Ctrl+S saves: it must not fly the free camera backwards
            self._held.add(name)
        free = self.state is not None and self.state.mode == "free"
        if name in SOUND_KEYS and not modifiers & (inp.SHIFT | inp.CTRL | inp.ALT) and self.session is not None:
            said = self._sound.key(name) if self._sound is not None else "no sound (no audio device)"
            self._message = (said or "", MESSAGE_TIME)
            return pyglet.event.EVENT_HANDLED
        self._act(inp.key_action(name, modifiers, free_camera=free))
        return pyglet.event.EVENT_HANDLED

    def on_text(self, text: str):
        if self.library is not None and self.library.browser is not None:
            self.library.text(text)

    def on_key_release(self, symbol: int, modifiers: int):
        self._held.discard(key.symbol_string(symbol))
        return pyglet.event.EVENT_HANDLED

    def on_deactivate(self):
        self._held.clear()

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int):
        if self.state is not None and self.state.mouse_look:
            self._act(inp.captured_motion(dx, dy))
            return
        self._act(inp.mouse_motion(self._fx(x), self._top(y)))

    def on_mouse_leave(self, x: int, y: int):
        self._act(inp.Action("leave"))

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int):
        if self.library is not None:
            self._opened(self.library.click(self._fx(x), self._top(y), self._fb_size(), ui_scale(self._fb_size())))
            return
        if self.state is None or self.picker is not None:
            return
        if self.state.mouse_look:
            if button == inp.MOUSE_RIGHT:
                self._act(inp.Action("mouse_look"))
            return
        fx, fy = self._fx(x), self._top(y)
        self._end_hint()
        if on_controls(self.state.controls, fx, fy):    # on the controls: never a scrub or a look drag
            clicked = control_at(self.state.controls, fx, fy)
            if clicked is not None and button == inp.MOUSE_LEFT:
                self._click(clicked)
            return
        panes = self.state.panes
        if panes.multi and not self.state.on_bar(fx, fy):
            self._act(inp.pane_press(pane_at(self.state.pane_rects(), fx, fy), panes.selected, button))
        self._act(inp.mouse_motion(fx, fy))
        self._act(inp.mouse_press(fx, fy, button, on_bar=self.state.on_bar(fx, fy),
                                  key_mark=self.state.key_mark_at(fx, fy)))

    def _end_hint(self) -> None:
        """The first-run hint goes (a key, a click, or its time is up), remembered in the settings at once."""
        if self._hint is not None and self.state is not None:
            self._hint = None
            self.save_settings()

    def _click(self, control: Control) -> None:
        """A control clicked: the player it watches, else its key pressed and released, as the keyboard would."""
        if control.watch is not None:
            self._act(inp.Action("watch", control.watch))
            return
        symbol = getattr(key, control.key)
        self.on_key_press(symbol, control.modifiers)
        self.on_key_release(symbol, control.modifiers)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int):
        if self.state is None:
            return
        if self.state.mouse_look:
            self._act(inp.captured_motion(dx, dy))
            return
        fx, fy = self._fx(x), self._top(y)
        self._act(inp.mouse_motion(fx, fy))
        moving_key = self.state.key_grab is not None
        if self.state.scrubbing or self.state.dragging or moving_key:
            self._act(inp.mouse_drag(fx, fy, dx, dy, scrubbing=self.state.scrubbing, moving_key=moving_key))

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int):
        if self.state is None:
            return
        self._act(inp.mouse_release(button, scrubbing=self.state.scrubbing, moving_key=self.state.key_grab is not None))

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float):
        self._act(inp.mouse_scroll(scroll_y))

    def _apply_settings(self) -> None:
        """The remembered HUD visibility (the bar's only for demos: a map has no timeline) and mouse-look settings
        (the command line's win)."""
        src, st = self.source, self.state
        if st is None:
            return
        if src.settings is not None:
            remembered = src.settings.settings
            st.show_hud = remembered.show_hud
            if src.demo is not None:
                st.show_bar = remembered.show_bar
            st.sensitivity, st.invert_mouse = remembered.mouse_sensitivity, remembered.invert_mouse
        if src.sensitivity is not None:
            st.sensitivity = src.sensitivity
        if src.invert_mouse is not None:
            st.invert_mouse = src.invert_mouse

    # --- opening other demos -------------------------------------------------------------------------------------

    def on_file_drop(self, x: int, y: int, paths: list[str]):
        """A dropped demo opens in this window; a dropped folder of game data (:func:`~viewer.games.game_data.
        game_folder`, without demos of its own) becomes the game data of the open demo and of the next runs; another
        folder lists its demos in the picker."""
        if not paths:
            return pyglet.event.EVENT_HANDLED
        path = Path(paths[0])
        data = game_data.game_folder(path) if path.is_dir() and not demo_files(path) else None
        if data is not None:
            self.use_game_data(*data)
        elif path.is_dir():
            self._show_picker(path)
        elif is_demo_name(path.name):
            self.open_demo(path)
        else:
            self._message = (f"not a demo: {path.name}", MESSAGE_TIME)
        return pyglet.event.EVENT_HANDLED

    def use_game_data(self, basedir: str, game: str | None) -> None:
        """Show the open demo again with the game data of ``basedir`` (``game``: its mod dir), remembered in the
        settings for the next runs."""
        self.source = replace(self.source, basedir=basedir, game=game)
        self._say(f"game data: {basedir}" + (f" ({game})" if game else ""))
        if self.source.demo is not None:
            self.open_demo(self.source.demo)
        self.save_settings()

    def _picker_folder(self) -> Path:
        """The last folder: the remembered one (settings) until a demo or folder is opened from the window, then
        that one; without either the open demo's folder, else the working directory."""
        folder = self._last_dir
        if folder is None and self.source.settings is not None and self.source.settings.settings.last_dir:
            folder = Path(self.source.settings.settings.last_dir)
        if folder is None or not folder.is_dir():
            folder = Path(self.source.demo).resolve().parent if self.source.demo else Path(".")
        return folder

    def open_library(self) -> None:
        """Ctrl+O: the library browser on the last folder (:meth:`_picker_folder`), indexing it meanwhile."""
        if self.state is not None and self.state.mouse_look:
            self._act(inp.Action("mouse_look"))
        self._last_dir = self._picker_folder()
        self._close_library()
        self.library = BrowserSession(self._last_dir, self.source.library_db, self.source.library_workers)
        self._say(f"library browser on {self._last_dir} ({self.library.db_path})")

    def _opened(self, chosen: tuple[Path, float] | None) -> None:
        """After a key or click in the library browser: closed, it lets the library go; a chosen demo opens."""
        if self.library is not None and self.library.browser is None:
            self._close_library()
        if chosen is not None:
            self.open_demo(*chosen)

    def _close_library(self) -> None:
        if self.library is not None:
            self.library.close()
            self.library = None

    def _show_picker(self, folder: Path) -> None:
        if self.state is not None and self.state.mouse_look:
            self._act(inp.Action("mouse_look"))
        self._last_dir = folder
        self.picker = Picker.of(folder)
        self._say(f"{len(self.picker.files)} demos in {folder}")

    def open_demo(self, path: str | Path, start: float = 0.0) -> None:
        """Replace the open demo (or map) with the demo at ``path`` from ``start`` seconds, loading it in steps as
        at start."""
        path = Path(path)
        self.picker = None
        self._close_library()
        try:
            fs = game_filesystem(str(path), self.source.basedir, self.source.game)
            if not fs.game_dirs and self.source.fs.game_dirs:   # outside any game dir: the game data in use so far
                fs = game_filesystem(str(path), str(self.source.fs.basedir), self.source.fs.game)
        except (OSError, ValueError, FormatError) as exc:
            self._message = (f"cannot open {path.name}: {exc}", MESSAGE_TIME * 2)
            return
        self.save_settings()
        self._keep_unsaved_path()
        self._close_demo()
        self._opened_later = True
        self._last_dir = path.resolve().parent
        self.failed = None
        self.source = replace(self.source, fs=fs, demo=str(path), map_path=None, start=f"{start:.3f}", speed=1.0,
                              fov=self.state.fov if self.state is not None else self.source.fov, folder=None,
                              camera_path=None, camera_path_file=None, pov=None, ghosts=(), ghost_runs=(),
                              pov_ghost=None, merges=())  # they belong to the demo given
        self.set_caption(f"qdv — {self.source.title}")
        self.state = None
        self._last = self._last_state = None
        self._notice = ((), 0.0)
        self._loading_text = f"loading {self.source.title}"
        self._loader = self._load()
        self._say(f"opening {path}" + (f" at {start:.3f} s" if start else ""))

    def _close_demo(self) -> None:
        """Free the open demo's session, map renderer and sound (the window and its overlays stay)."""
        if self.state is not None and self.state.mouse_look:
            self.set_exclusive_mouse(False)
        if self._sound is not None:
            self._sound.close()
            self._sound = None
        self._release_caster()
        for obj in (self.session, self._map_renderer):
            if obj is not None:
                obj.release()
        self.session = self._map_renderer = None
        self.state = None
        heap.unsettle()

    def _release_caster(self) -> None:
        if self._caster is not None:
            self._caster.release()
        self._caster = None

    def save_settings(self) -> None:
        """Remember the window size, fov, HUD/bar visibility and the demo's folder for the next run."""
        file = self.source.settings
        if file is None or self.state is None:
            return
        remembered = replace(file.settings, fov=self.state.fov, show_hud=self.state.show_hud, hint_seen=True)
        if not self.fullscreen:
            width, height = self.get_size()
            remembered = replace(remembered, width=width, height=height)
        if self.source.demo is not None:
            remembered = replace(remembered, show_bar=self.state.show_bar,
                                 last_dir=str(Path(self.source.demo).resolve().parent))
        if self.source.basedir is not None:
            remembered = replace(remembered, basedir=str(Path(self.source.basedir).resolve()),
                                 game=self.source.game or "")
        try:
            save_settings(file, remembered)
        except OSError as exc:
            _log(f"warning: settings not saved: {exc}")

    def on_close(self) -> None:
        pyglet.clock.unschedule(self.update)
        self._close_library()
        if self._sound is not None:
            self._sound.close()
            self._sound = None
        super().on_close()

    def close(self) -> None:
        """Remember the settings, then close (every way out passes here: the close button, Esc, Ctrl+Q)."""
        if not self._closed_once:
            self._closed_once = True
            self.save_settings()
            self._keep_unsaved_path()
            self._stop_export()
        super().close()

    def release(self) -> None:
        """Free the GPU objects (before closing the window)."""
        self._release_caster()
        for obj in (self.session, self._map_renderer, self.hud, self.ui, self._blit):
            if obj is not None:
                obj.release()
        self.session = self._map_renderer = None
        self.target.release()


_ONES = np.ones(64, np.float32)  # light style values of a map without a demo: all normal


def run(source: PlaySource, *, size: tuple[int, int] = (1280, 720), shots: str | Path = "screenshots",
        fullscreen: bool = False, max_frames: int | None = None) -> ViewerWindow:
    """Open the window and run until it is closed (or ``max_frames`` frames were drawn)."""
    window = ViewerWindow(source, size=size, shots=shots, fullscreen=fullscreen)
    pyglet.clock.schedule_interval(window.update, 1 / 60)
    if max_frames is not None:
        def stop(dt: float) -> None:
            if window.frames >= max_frames:
                window.close()
                pyglet.app.exit()
        pyglet.clock.schedule_interval(stop, 1 / 120)
    pyglet.app.run(1 / 60)
    return window
