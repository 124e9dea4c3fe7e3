"""One open demo: its timeline, its game's view and effects, and the GPU assets of the map segment being shown.

A demo may change level (each level is a map segment with its own model list). :class:`DemoSession` loads a
segment's map and models the first time a frame of it is drawn, and releases the previous segment's; frames are
built by :func:`viewer.scene.build_scene` with the game's :class:`~viewer.games.base.GameView`. The window
(:mod:`viewer.app`) and headless rendering (:mod:`viewer.headless`: screenshots, timedemo) use the same object, so
both switch maps the same way.
"""

from __future__ import annotations

import moderngl
import numpy as np

from assets_loader.bsp import WorldMesh
from assets_loader.bsp38 import World38
from assets_loader.bsp46 import Bsp46World
from assets_loader.demos import DemoTimeline, SceneState, demo_game_dir
from assets_loader.errors import NotFoundError, UnsupportedFormatError
from assets_loader.vfs import VirtualFS, detect_base_game, game_dir_of

from .games.base import GameView
from .games.registry import game_view, map_game
from .render.context import OffscreenTarget
from .render.frame import FrameRenderer
from .render.refdef import Camera, SceneFrame
from .scene import build_scene


def game_filesystem(path: str | None, basedir: str | None, game: str | None) -> VirtualFS:
    """The game data for a demo or map file: its own game dir when it sits in one, else ``--basedir``/``--game``
    (without ``--game``, the game dir the demo names: a Quake II demo's serverdata); the base game (``id1``,
    ``baseq2``) is the one the installation holds."""
    if basedir is not None and game is None and path:
        game = demo_game_dir(path)
    if basedir is None:
        found = game_dir_of(path) if path else None
        if found is None:
            raise NotFoundError(str(path or "the map"), "game data", None,
                                "the file inside a game dir (with pak0.pak or maps/), or --basedir DIR [--game MOD]")
        basedir, game = str(found[0]), game or found[1]
    return VirtualFS(basedir, game, base=detect_base_game(basedir, game))


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
        self._model_names: tuple[str, ...] = ()
        self._model_flags: list[np.ndarray] = [np.zeros(0, np.int32)] * len(timeline.segments)

    @property
    def world(self) -> WorldMesh | World38 | None:
        """The map of the loaded segment (``None`` before the first frame, or when the game dirs lack it)."""
        return self.renderer.assets.world if self.renderer is not None else None

    @property
    def solid_world(self) -> WorldMesh | World38 | Bsp46World | None:
        """The loaded map that chase and orbit cameras stay inside (Quake III's level, else :attr:`world`)."""
        return self._level() or self.world

    def use_segment(self, segment: int) -> FrameRenderer:
        """The renderer of map segment ``segment``, loading its map and models first when another segment (or none)
        is loaded. Missing models and maps are reported as warnings (each game's ``load_segment_assets``)."""
        if segment != self.segment or self.renderer is None:
            assets = self.game.load_segment_assets(self.fs, self.timeline.segments[segment])
            if self.renderer is not None:
                self.renderer.release()
            self.renderer = FrameRenderer(self.ctx, assets)
            self.segment = segment
            self._model_flags[segment] = assets.model_flags()
            self._model_names = tuple(ref.name for ref in assets.models)
        return self.renderer

    def scene(self, t: float, camera: Camera | None = None, fov: float = 90.0, pov: int | None = None,
              state: SceneState | None = None) -> SceneFrame:
        """The frame at ``t`` (from the recorder's eyes, or ``camera``), with effects; loads its segment if needed.
        ``state``: ``timeline.sample(t, pov=pov)`` when the caller already has it."""
        if state is None:
            state = self.timeline.sample(t, pov=pov)
        segment = max(state.segment, 0)
        self.use_segment(segment)
        return build_scene(self.timeline, t, camera, fov, pov=pov, effects=self.effects,
                           model_flags=self._model_flags, model_names=self._model_names, state=state, game=self.game,
                           world=self.world, level=self._level())

    def _level(self) -> Bsp46World | None:
        """The loaded segment's Quake III map, if any."""
        q3 = self.renderer.assets.q3_world if self.renderer is not None else None
        return q3.world if q3 is not None else None

    def draw(self, frame: SceneFrame, target: OffscreenTarget) -> None:
        """Render ``frame`` into ``target`` with its segment's assets."""
        self.use_segment(max(frame.segment, 0)).draw(frame, target)

    def release(self) -> None:
        if self.renderer is not None:
            self.renderer.release()
        self.renderer = None
        self.segment = -1
