"""Quake's and QuakeWorld's :class:`~viewer.games.base.GameView`: the package's pieces behind the one seam."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from assets_loader.demos import DemoTimeline, MapSegment, SceneState
from assets_loader.images import Image
from assets_loader.palette import Palette
from assets_loader.game_map import GameMap
from assets_loader.vfs import VirtualFS

from ...render.refdef import EntityDraw, HudLayout, Look, SegmentAssets
from ...render.shaded.records import Md3Draw
from ..base import GhostFigure, PicSizes, PovLens, player_model_ghosts
from . import actors, assets, blend, hud, hud_pics, link
from .look import QUAKESPASM, QUAKESPASM_SBAR
from .tents import SceneEffects


@dataclass(frozen=True, slots=True)
class QuakeView:
    """Quake (``.dem``) and QuakeWorld (``.qwd``/``.mvd``): id's models, ``r_part.c`` effects, ``sbar.c``;
    ``look``: how the game's reference engine lights and fogs, ``sbar``: how it draws the status bar (:mod:`.look`)."""

    look: Look = QUAKESPASM
    sbar: hud.SbarStyle = QUAKESPASM_SBAR

    def load_segment_assets(self, fs: VirtualFS, segment: MapSegment) -> SegmentAssets:
        return assets.load_segment_assets(fs, segment.model_precache, self.look)

    def load_map_assets(self, fs: VirtualFS, map_path: str) -> SegmentAssets:
        return assets.load_map_assets(fs, map_path, self.look)

    def load_palette(self, fs: VirtualFS) -> Palette:
        return assets.load_palette_pair(fs)[0]

    def entity_draws(self, state: SceneState, first_person: bool,
                     model_flags: np.ndarray | None = None) -> list[EntityDraw]:
        return link.spun(link.entity_draws(state, first_person), model_flags, state.time)

    def prepare_effects(self, timeline: DemoTimeline) -> SceneEffects:
        return SceneEffects.for_timeline(timeline)

    def load_hud_pics(self, fs: VirtualFS) -> Mapping[str, Image]:
        return hud_pics.load_hud_pics(fs)

    def hud_layout(self, state: SceneState, timeline: DemoTimeline, screen_size: tuple[int, int], scale: int, *,
                   show_scores: bool = False, pic_sizes: PicSizes | None = None,
                   assets: SegmentAssets | None = None) -> HudLayout:
        segment = timeline.segments[max(state.segment, 0)] if timeline.segments else None
        return hud.build_hud(state, timeline.events, screen_size, scale, segment=segment, show_scores=show_scores,
                             pic_sizes=pic_sizes, quakeworld=timeline.game == "quakeworld", sbar=self.sbar)

    def watching_layout(self, name: str, screen_size: tuple[int, int], scale: int,
                        pic_sizes: PicSizes | None = None) -> HudLayout:
        return hud.watching_hud(name, screen_size, scale)

    def name_tag(self, name: str, x: float, y: float, screen_size: tuple[int, int], scale: int) -> HudLayout:
        return hud.name_tag(name, x, y, screen_size, scale)

    def screen_blend(self, state: SceneState, timeline: DemoTimeline, t: float,
                     map_: GameMap | None) -> tuple[float, float, float, float] | None:
        return blend.screen_blend(state, timeline, t, map_)

    def pov_lens(self, state: SceneState, t: float, fov: float, map_: GameMap | None = None) -> PovLens:
        return PovLens(fov)

    def ghost_draws(self, figures: Sequence[GhostFigure], assets: SegmentAssets | None
                    ) -> tuple[list[EntityDraw], tuple[Md3Draw, ...]]:
        return player_model_ghosts(figures, assets, ("progs/player.mdl",)), ()

    def follow_candidates(self, state: SceneState, model_precache: Sequence[str]) -> tuple[int, ...]:
        return actors.follow_candidates(state, model_precache)

    def player_entities(self, state: SceneState, model_precache: Sequence[str]) -> tuple[int, ...]:
        return actors.player_entities(state, model_precache)
