"""One open demo: its timeline, its game's view and effects, and the GPU assets of the map segment being shown.

A demo may change level (each level is a map segment with its own model list). :class:`DemoSession` loads a
segment's map and models the first time a frame of it is drawn, and releases the previous segment's; frames are
built by :func:`viewer.scene.build_scene` with the game's :class:`~viewer.games.base.GameView`. The window
(:mod:`viewer.app`) and headless rendering (:mod:`viewer.headless`: screenshots, timedemo) use the same object, so
both switch maps the same way.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import moderngl
import numpy as np

from assets_loader.bsp import WorldMesh
from assets_loader.bsp38 import World38
from assets_loader.demos import DemoTimeline, MapSegment, SceneState, demo_game_dir
from assets_loader.demos.detect import demo_game
from assets_loader.errors import NotFoundError, UnsupportedFormatError
from assets_loader.game_map import GameMap
from assets_loader.vfs import VirtualFS, detect_base_game, game_dir_of

from .games.base import GameView
from .games.game_data import has_game_data, missing_data_notice, with_stand_ins
from .games.registry import game_view, map_game
from . import heap
from .ghosts import Ghosts
from .render.context import OffscreenTarget
from .render.bsp.records import BspSegment
from .render.frame import FrameRenderer
from .render.refdef import Camera, HudLayout, SceneFrame
from .scene import build_scene

#: From the feet to the eye, units: Quake's 22 (``DEFAULT_VIEWHEIGHT``) over the player's origin 24 above its feet;
#: Quake III's eye is 2 units higher (26), close enough for a placeholder floor.
EYE_HEIGHT = 46.0
#: How much of a demo :func:`~assets_loader.demos.detect.demo_game` reads to tell its game.
DETECT_BYTES = 65536
#: How many HUD layouts :meth:`DemoSession.hud_layout` keeps (a multiview's panes of one moment).
CACHED_LAYOUTS = 8


def game_filesystem(path: str | None, basedir: str | None, game: str | None) -> VirtualFS:
    """The game data for a demo or map file: its own game dir when it sits in one, else ``--basedir``/``--game``
    (without ``--game``, the game dir the demo names: a Quake II demo's serverdata); the base game (``id1``,
    ``baseq2``) is the one the installation holds. No game data (the file outside any game dir, a basedir holding
    none of the game dirs) is :meth:`VirtualFS.empty`: the demo is still shown, with the stand-ins of
    :func:`~viewer.games.game_data.with_stand_ins` for a demo's game. A ``basedir`` that does not exist is a
    :class:`NotFoundError`."""
    if basedir is not None and game is None and path:
        game = demo_game_dir(path)
    if basedir is None:
        found = game_dir_of(path) if path else None
        if found is not None:
            basedir, game = str(found[0]), game or found[1]
    fs = VirtualFS.empty()
    if basedir is not None:
        try:
            fs = VirtualFS(basedir, game, base=detect_base_game(basedir, game))
        except NotFoundError:
            if not Path(basedir).is_dir():
                raise
    return with_stand_ins(_file_game(path), fs) if path else fs


def _file_game(path: str) -> str | None:
    """The game a demo file belongs to (from its first bytes), ``None`` for a map or a file qdv cannot read (not a
    regular file: a FIFO would block)."""
    if not Path(path).is_file():
        return None
    try:
        with open(path, "rb") as f:
            return demo_game(f.read(DETECT_BYTES), path)
    except (OSError, ValueError):
        return None


def floor_height(timeline: DemoTimeline, segment: MapSegment) -> float:
    """The height of the placeholder floor of ``segment``: where the feet are at the lowest eye the recorder's view
    reaches (:data:`EYE_HEIGHT` below it; views at the origin, before the first update, are left out), 0 when
    none is known."""
    eyes = timeline.view_origin[segment.start_frame:segment.end_frame]
    known = eyes[np.any(eyes != 0.0, axis=1)]
    return float(known[:, 2].min()) - EYE_HEIGHT if len(known) else 0.0


def map_game_view(fs: VirtualFS, map_path: str) -> GameView:
    """The view of the game a map file belongs to (by its header); :class:`UnsupportedFormatError` naming the file
    when qdv cannot show it."""
    try:
        return game_view(map_game(fs.read_head(map_path, 8)))
    except ValueError as exc:
        raise UnsupportedFormatError(map_path, "map", 0, "a map of a game qdv can show", str(exc)) from None


class DemoSession:
    """``timeline`` played with the game data of ``fs``, drawn through ``ctx``."""

    def __init__(self, timeline: DemoTimeline, fs: VirtualFS, ctx: moderngl.Context) -> None:
        self.timeline = timeline
        self.fs = fs
        self.ctx = ctx
        self.game = game_view(timeline.game)
        self.effects = self.game.prepare_effects(timeline)
        self.segment = -1
        self.renderer: FrameRenderer | None = None
        self._model_flags: list[np.ndarray] = [np.zeros(0, np.int32)] * len(timeline.segments)
        #: Whether ``fs`` holds the demo's game's own data (not only the stand-ins, or nothing).
        self.has_data = has_game_data(timeline.game, fs)
        #: What game data the loaded segment misses and how to point qdv at it (one line), ``""`` when nothing.
        self.notice = ""
        #: The loaded segment's map when the game data lacks it (drawn as a grid floor), else ``None``.
        self.missing_map: str | None = None
        #: Other runs of the same map drawn into each frame (``--ghost``), ``None`` for none.
        self.ghosts: Ghosts | None = None
        #: The HUD layouts built lately, by the sample's identity and the other inputs (:meth:`hud_layout`).
        self._layouts: dict[tuple, tuple[SceneState, HudLayout]] = {}

    @property
    def world(self) -> WorldMesh | World38 | None:
        """The map of the loaded segment (``None`` before the first frame, or when the game dirs lack it)."""
        assets = self.renderer.assets if self.renderer is not None else None
        return assets.world if isinstance(assets, BspSegment) else None

    @property
    def game_map(self) -> GameMap | None:
        """The loaded segment's map, whatever its game (``None`` before the first frame, or when the game dirs lack
        it): what chase and orbit cameras stay inside."""
        return self.renderer.assets.game_map if self.renderer is not None else None

    def use_segment(self, segment: int) -> FrameRenderer:
        """The renderer of map segment ``segment``, loading its map and models first when another segment (or none)
        is loaded. Missing models are reported as warnings (each game's ``load_segment_assets``); missing game data
        or a missing map sets :attr:`notice` (also given as one warning), and the map becomes a grid floor. Without
        the game's data the loaders' warnings about each file are left out: the notice says it once."""
        if segment != self.segment or self.renderer is None:
            seg = self.timeline.segments[segment]
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                assets = self.game.load_segment_assets(self.fs, seg)
            for w in caught if self.has_data else ():
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
            self.missing_map = seg.map_path if assets.game_map is None else None
            if self.missing_map is not None:
                assets = replace(assets, floor=floor_height(self.timeline, seg))
            self.notice = missing_data_notice(self.timeline.game, self.fs, self.missing_map)
            if self.notice:
                warnings.warn(self.notice, stacklevel=2)
            if self.renderer is not None:
                self.renderer.release()
            self.renderer = FrameRenderer(self.ctx, assets, owns_assets=True)
            heap.trim()     # what loading decoded and uploaded is freed by now
            self.segment = segment
            self._model_flags[segment] = assets.model_flags()
        return self.renderer

    def scene(self, t: float, camera: Camera | None = None, fov: float = 90.0, pov: int | None = None,
              state: SceneState | None = None) -> SceneFrame:
        """The frame at ``t`` (from the recorder's eyes, or ``camera``), with effects; loads its segment if needed.
        ``state``: ``timeline.sample(t, pov=pov)`` when the caller already has it."""
        if state is None:
            state = self.timeline.sample(t, pov=pov)
        segment = max(state.segment, 0)
        self.use_segment(segment)
        frame = build_scene(self.timeline, t, camera, fov, pov=pov, effects=self.effects,
                            model_flags=self._model_flags, state=state, game=self.game,
                            assets=self.renderer.assets if self.renderer is not None else None)
        if self.ghosts is not None:
            frame = self.ghosts.add_to(frame, self.renderer.assets if self.renderer is not None else None)
        return frame if self.has_data else replace(frame, polys=())   # every shader would be the default grid

    def hud_layout(self, state: SceneState, screen_size: tuple[int, int], scale: int, show_scores: bool = False,
                   pic_sizes: Callable[[str], tuple[int, int] | None] | None = None) -> HudLayout:
        """The game's HUD (:meth:`~viewer.games.base.GameView.hud_layout`) for the sample ``state`` of the loaded
        segment; asked again with the same sample object (a multiview's panes watching the same player share it)
        and arguments, the layout already built (the last :data:`CACHED_LAYOUTS` are kept)."""
        key = (id(state), screen_size, scale, show_scores, pic_sizes)
        found = self._layouts.get(key)
        if found is not None and found[0] is state:
            return found[1]
        layout = self.game.hud_layout(state, self.timeline, screen_size, scale, show_scores=show_scores,
                                      pic_sizes=pic_sizes,
                                      assets=self.renderer.assets if self.renderer is not None else None)
        if len(self._layouts) >= CACHED_LAYOUTS:
            del self._layouts[next(iter(self._layouts))]
        self._layouts[key] = (state, layout)    # the state kept alive: its id is not reused while cached
        return layout

    def draw(self, frame: SceneFrame, target: OffscreenTarget) -> None:
        """Render ``frame`` into ``target`` with its segment's assets (without the game's data, the renderer's
        warnings about each missing model are left out: :attr:`notice` says it once)."""
        renderer = self.use_segment(max(frame.segment, 0))
        with self.quiet():
            renderer.draw(frame, target)

    @contextlib.contextmanager
    def quiet(self) -> Iterator[None]:
        """A context that drops the warnings about missing files when the game's data is missing (the notice says
        it once), and changes nothing otherwise: for loading pictures and drawing."""
        if self.has_data:
            yield
            return
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield

    def release(self) -> None:
        if self.renderer is not None:
            self.renderer.release()
        self.renderer = None
        self.segment = -1
