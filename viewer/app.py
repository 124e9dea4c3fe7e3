"""The viewer window (``qdv play``, ``qdv map``): a pyglet window that wires the pieces together and nothing else.

Events → :mod:`viewer.input` actions → :class:`~viewer.viewer_state.ViewerState`; each frame the state gives the
time and camera, :func:`~viewer.scene.build_scene` the scene, :class:`~viewer.render.frame.FrameRenderer` draws it
into an :class:`~viewer.render.context.OffscreenTarget` the size of the window's framebuffer, the HUD
(:func:`~viewer.hud.build_hud`) and the UI (timeline bar, help, messages) are drawn over it in the same target, and
the target is blitted to the window (reading the window's own framebuffer fails on Mesa through pyglet). F12 reads
the target back into a numbered PNG.

Loading happens in steps between frames (the window shows "loading …" and the terminal prints progress), so the
window appears at once and the first picture follows as soon as the map is uploaded.

Import this module only after choosing pyglet's headless mode (``pyglet.options['headless']``): importing
``pyglet.window`` opens the display.
"""

from __future__ import annotations

import sys
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import moderngl
import numpy as np
import pyglet
from pyglet.window import key

from assets_loader.demos import DemoTimeline, load_demo
from assets_loader.images import load_lmp
from assets_loader.vfs import VirtualFS
from assets_loader.wad2 import load_wad

from . import input as inp
from .assets import SegmentAssets, load_palette_pair, load_segment_assets, load_world
from .export import next_numbered_path, write_png
from .hud import build_hud
from .offscreen import map_start_camera
from .render.blit import ScreenBlit
from .render.context import OffscreenTarget
from .render.frame import FrameRenderer
from .render.hud import HudRenderer
from .render.ui import UiRenderer, conchars_rgba
from .scene import SceneFrame, build_scene
from .scene_effects import SceneEffects
from .settings import SettingsFile, save_settings
from .ui.timeline import BarStatus, UiLayout, text_box_layout, timeline_layout, ui_scale
from .viewer_state import FrameContext, ViewerState, follow_candidates, player_entities

#: How long a message ("saved screenshots/qdv0000.png") stays on screen, seconds.
MESSAGE_TIME = 2.5


@dataclass(frozen=True, slots=True)
class PlaySource:
    """What to open: a demo (``demo`` path) or a map (``map_path`` inside ``fs``), with its game filesystem."""

    fs: VirtualFS
    demo: str | None = None
    map_path: str | None = None
    start: str = "0"
    speed: float = 1.0
    fov: float = 90.0
    settings: SettingsFile | None = None

    @property
    def title(self) -> str:
        return Path(self.demo).name if self.demo else str(self.map_path)


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
                         fullscreen=fullscreen)
        self.source = source
        self.shots = Path(shots)
        self.quiet = quiet
        self.ctx = moderngl.create_context()
        self._screen_fb = self.ctx.detect_framebuffer()
        self.target = OffscreenTarget(self.ctx, self._fb_size())
        self._blit = ScreenBlit(self.ctx)
        fs = source.fs
        self.palette, _colormap = load_palette_pair(fs)
        wad = load_wad(fs.read("gfx.wad"), "gfx.wad") if fs.exists("gfx.wad") else None
        font = conchars_rgba(wad.conchars(), self.palette) if wad is not None and "conchars" in wad else None
        self.ui = UiRenderer(self.ctx, font)
        self.hud = HudRenderer(self.ctx, wad, self.palette,
                               lambda name: load_lmp(fs.read(name), name) if fs.exists(name) else None)
        self.timeline: DemoTimeline | None = None
        self.state: ViewerState | None = None
        self._effects: SceneEffects | None = None
        self._model_flags: list[np.ndarray] = []
        self._renderer: FrameRenderer | None = None
        self._segment = -1
        self._world = None
        self._held: set[str] = set()
        self._last: SceneFrame | None = None
        self._screenshot = False
        self._message = ("", 0.0)
        self._loading_text = f"loading {source.title}"
        self._loader: Iterator[str] | None = self._load()
        self.frames = 0
        self.first_frame_seconds: float | None = None
        self.last_screenshot: Path | None = None

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
                timeline = load_demo(src.demo)
            for w in caught:
                self._say(f"warning: {w.message}")
            self._say(f"demo {Path(src.demo).name}: {timeline.num_frames} frames, {timeline.duration:.1f} s, "
                      f"maps {', '.join(timeline.maps)} ({time.perf_counter() - t:.2f} s)")
            from .timespec import parse_timespec  # local: only the demo path needs it
            start = parse_timespec(src.start, duration=timeline.duration)
            self.timeline = timeline
            self.state = ViewerState.for_timeline(timeline, start=start, speed=src.speed, fov=src.fov, size=size)
            self._apply_settings()
            self._effects = SceneEffects.for_timeline(timeline)
            self._model_flags = [np.zeros(0, np.int32)] * len(timeline.segments)
            segment = max(timeline.sample(self.state.t).segment, 0)
            seg = timeline.segments[segment]
            yield f"loading {seg.map_path} and {len(seg.model_precache) - 2} models"
            self._use_segment(segment)
        else:
            yield f"loading {src.map_path}"
            t = time.perf_counter()
            world = load_world(src.fs, src.map_path)
            palette, colormap = load_palette_pair(src.fs)
            self._renderer = FrameRenderer(self.ctx, SegmentAssets(world, (), palette, colormap))
            self._world = world
            self._segment = 0
            camera = map_start_camera(src.fs, src.map_path, src.fov)
            self.state = ViewerState.for_map(camera, size=size)
            self._apply_settings()
            self._say(f"map {src.map_path}: {len(world.entities)} entities ({time.perf_counter() - t:.2f} s)")

    def _use_segment(self, segment: int) -> None:
        if segment == self._segment and self._renderer is not None:
            return
        seg = self.timeline.segments[segment]
        t = time.perf_counter()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assets = load_segment_assets(self.source.fs, seg.model_precache)
            if self._renderer is not None:
                self._renderer.release()
            self._renderer = FrameRenderer(self.ctx, assets)
        for w in caught:
            self._say(f"warning: {w.message}")
        self._world = assets.world
        self._segment = segment
        self._model_flags[segment] = assets.model_flags()
        self._say(f"map {seg.map_path} ({seg.level_name}) and {len(seg.model_precache) - 2} models "
                  f"({time.perf_counter() - t:.2f} s)")

    @property
    def ready(self) -> bool:
        return self._loader is None

    # --- per frame -----------------------------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        """Scheduled at 60 Hz: one loading step, or advance the clock and fly the free camera."""
        if self._loader is not None:
            try:
                self._loading_text = next(self._loader)
            except StopIteration:
                self._loader = None
            return
        held = frozenset(self._held) if self.state.mode == "free" else frozenset()
        self.state.update(dt, inp.movement(held))
        text, left = self._message
        self._message = (text, left - dt)

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
        if not self.ready:
            target.use()
            self.ctx.clear(0.0, 0.0, 0.0, 1.0, depth=1.0)
            self.ui.draw(text_box_layout([self._loading_text + " ..."], size, scale), size)
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
        if self.timeline is not None:
            tl = self.timeline
            t = st.t
            sample = None
            if st.mode in ("chase", "orbit"):
                sample = tl.sample(t, pov=st.pov_slot)
            camera = st.camera_for(sample, self._world)
            names = tl.segments[max(self._segment, 0)].model_precache if tl.segments else ()
            frame = build_scene(tl, t, camera, st.fov, pov=st.pov_slot, effects=self._effects,
                                model_flags=self._model_flags, model_names=names)
            self._use_segment(max(frame.segment, 0))
        else:
            frame = SceneFrame(0.0, 0, st.camera_for(None), (), _ONES)
        self._renderer.draw(frame, self.target)
        self._last = frame
        layers = UiLayout()
        if self.timeline is not None and frame.state is not None:
            seg = self.timeline.segments[max(frame.state.segment, 0)]
            layout = build_hud(frame.state, self.timeline.events, size, scale, segment=seg,
                               show_scores=st.show_scores, pic_sizes=self.hud.pic_size)
            st.sbar_lines = layout.sbar_lines if st.show_hud else 0
            if st.show_hud:
                self.hud.draw(layout, size)
            if st.bar_visible:
                hover = st.hover
                layers += timeline_layout(st.geometry(), st.info.markers_for(st.pov_slot), st.t,
                                          BarStatus(st.clock.speed, st.clock.paused, st.mode), hover)
        if st.show_help:
            layers += text_box_layout([f"{k:<20} {v}" for k, v in inp.KEY_HELP], size, scale)
        text, left = self._message
        if left > 0 and text:
            layers += text_box_layout([text], size, scale, anchor="topright")
        if layers.rects or layers.texts:
            self.target.use()
            self.ui.draw(layers, size)

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

    # --- input ---------------------------------------------------------------------------------------------------

    def _frame_context(self) -> FrameContext:
        frame = self._last
        if frame is None or frame.state is None or self.timeline is None:
            return FrameContext(frame.camera if frame is not None else None)
        precache = self.timeline.segments[max(frame.state.segment, 0)].model_precache
        return FrameContext(frame.camera, follow_candidates(frame.state, precache),
                            player_entities(frame.state, precache))

    def _act(self, action: inp.Action | None) -> None:
        if action is None or self.state is None:
            return
        self.state.handle(action, self._frame_context())
        for request in self.state.take_requests():
            if request == "screenshot":
                self._screenshot = True
            elif request == "fullscreen":
                self.set_fullscreen(not self.fullscreen)
            elif request == "escape" and self.fullscreen:
                self.set_fullscreen(False)
            elif request in ("escape", "quit"):
                self.close()

    def _top(self, y: float) -> float:
        """pyglet's bottom-up window ``y`` → top-down framebuffer pixels (HiDPI-aware)."""
        fw, fh = self._fb_size()
        return (self.height - y) * fh / max(self.height, 1)

    def _fx(self, x: float) -> float:
        fw, _fh = self._fb_size()
        return x * fw / max(self.width, 1)

    def on_key_press(self, symbol: int, modifiers: int):
        name = key.symbol_string(symbol)
        self._held.add(name)
        free = self.state is not None and self.state.mode == "free"
        self._act(inp.key_action(name, modifiers, free_camera=free))
        return pyglet.event.EVENT_HANDLED

    def on_key_release(self, symbol: int, modifiers: int):
        self._held.discard(key.symbol_string(symbol))
        return pyglet.event.EVENT_HANDLED

    def on_deactivate(self):
        self._held.clear()

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int):
        self._act(inp.mouse_motion(self._fx(x), self._top(y)))

    def on_mouse_leave(self, x: int, y: int):
        self._act(inp.Action("leave"))

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int):
        if self.state is None:
            return
        fx, fy = self._fx(x), self._top(y)
        self._act(inp.mouse_motion(fx, fy))
        self._act(inp.mouse_press(fx, fy, button, on_bar=self.state.on_bar(fx, fy)))

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int):
        if self.state is None:
            return
        fx, fy = self._fx(x), self._top(y)
        self._act(inp.mouse_motion(fx, fy))
        if self.state.scrubbing or self.state.dragging:
            self._act(inp.mouse_drag(fx, fy, dx, dy, scrubbing=self.state.scrubbing))

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int):
        if self.state is None:
            return
        self._act(inp.mouse_release(button, scrubbing=self.state.scrubbing))

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float):
        self._act(inp.mouse_scroll(scroll_y))

    def _apply_settings(self) -> None:
        """The remembered HUD visibility (the bar's only for demos: a map has no timeline)."""
        if self.source.settings is not None and self.state is not None:
            self.state.show_hud = self.source.settings.settings.show_hud
            if self.source.demo is not None:
                self.state.show_bar = self.source.settings.settings.show_bar

    def save_settings(self) -> None:
        """Remember the window size, fov, HUD/bar visibility and the demo's folder for the next run."""
        file = self.source.settings
        if file is None or self.state is None:
            return
        remembered = replace(file.settings, fov=self.state.fov, show_hud=self.state.show_hud)
        if not self.fullscreen:
            width, height = self.get_size()
            remembered = replace(remembered, width=width, height=height)
        if self.source.demo is not None:
            remembered = replace(remembered, show_bar=self.state.show_bar,
                                 last_dir=str(Path(self.source.demo).resolve().parent))
        try:
            save_settings(file, remembered)
        except OSError as exc:
            _log(f"warning: settings not saved: {exc}")

    def on_close(self) -> None:
        pyglet.clock.unschedule(self.update)
        super().on_close()

    def close(self) -> None:
        """Remember the settings, then close (every way out passes here: the close button, Esc, Ctrl+Q)."""
        if not self._closed_once:
            self._closed_once = True
            self.save_settings()
        super().close()

    def release(self) -> None:
        """Free the GPU objects (before closing the window)."""
        for obj in (self._renderer, self.hud, self.ui, self._blit):
            if obj is not None:
                obj.release()
        self._renderer = None
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
