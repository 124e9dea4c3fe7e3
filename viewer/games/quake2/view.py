"""Quake II's :class:`~viewer.games.base.GameView`: the package's pieces behind the one seam.

Asset loading (:mod:`.assets`, with the weapon and explosion models of :mod:`.segment_models`), entity linking
(:mod:`.link`), effects (:mod:`.fx`, :mod:`.explosions`), the HUD (:mod:`.hud`, :mod:`.hud_pics`) and the recorder's
blend, field of view and underwater warp (:mod:`.player_view`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from assets_loader.demos import DemoTimeline, MapSegment, SceneState
from assets_loader.images import Image
from assets_loader.palette import Palette
from assets_loader.game_map import GameMap
from assets_loader.vfs import VirtualFS

from ...render.refdef import EntityDraw, HudLayout, SegmentAssets
from ...render.shaded.records import Md3Draw
from ..base import GhostFigure, PicSizes, PovLens, player_model_ghosts
from . import assets, fx, hud, hud_pics, link, player_view, segment_models


@dataclass(frozen=True, slots=True)
class Quake2View:
    """Quake II (``.dm2``, ``qdv map`` on a BSP38 map): BSP38 + WAL world, MD2 models, SP2 sprites, sky box."""

    def load_segment_assets(self, fs: VirtualFS, segment: MapSegment) -> SegmentAssets:
        loaded = assets.load_segment_assets(fs, segment.model_precache, segment.map_path, segment.sky)
        return segment_models.with_extra_models(fs, loaded, segment.model_precache, assets.load_model)

    def load_map_assets(self, fs: VirtualFS, map_path: str) -> SegmentAssets:
        return assets.load_map_assets(fs, map_path)

    def load_palette(self, fs: VirtualFS) -> Palette:
        return assets.load_palette(fs)

    def entity_draws(self, state: SceneState, first_person: bool,
                     model_flags: np.ndarray | None = None) -> list[EntityDraw]:
        return link.entity_draws(state, first_person)

    def prepare_effects(self, timeline: DemoTimeline) -> fx.Quake2Effects:
        return fx.Quake2Effects.of(timeline)

    def load_hud_pics(self, fs: VirtualFS) -> Mapping[str, Image | np.ndarray]:
        return hud_pics.load_hud_pics(fs)

    def hud_layout(self, state: SceneState, timeline: DemoTimeline, screen_size: tuple[int, int], scale: int, *,
                   show_scores: bool = False, pic_sizes: PicSizes | None = None,
                   assets: SegmentAssets | None = None) -> HudLayout:
        """The HUD at Q2PRO's automatic scale for ``screen_size`` (:func:`.hud.auto_scale`), not ``scale``."""
        return hud.build_hud(state, timeline, screen_size, hud.auto_scale(screen_size), show_scores=show_scores,
                             pic_sizes=pic_sizes)

    def watching_layout(self, name: str, screen_size: tuple[int, int], scale: int,
                        pic_sizes: PicSizes | None = None) -> HudLayout:
        return hud.watching_hud(name, screen_size, hud.auto_scale(screen_size), pic_sizes)

    def name_tag(self, name: str, x: float, y: float, screen_size: tuple[int, int], scale: int) -> HudLayout:
        return hud.name_tag(name, x, y, screen_size, scale)

    def screen_blend(self, state: SceneState, timeline: DemoTimeline, t: float,
                     map_: GameMap | None) -> tuple[float, float, float, float] | None:
        return player_view.screen_blend(state)

    def pov_lens(self, state: SceneState, t: float, fov: float, map_: GameMap | None = None) -> PovLens:
        return player_view.pov_lens(state, t, fov)

    def ghost_draws(self, figures: Sequence[GhostFigure], assets: SegmentAssets | None
                    ) -> tuple[list[EntityDraw], tuple[Md3Draw, ...]]:
        return player_model_ghosts(figures, assets, ("players/male/tris.md2",)), ()

    def follow_candidates(self, state: SceneState, model_precache: Sequence[str]) -> tuple[int, ...]:
        return link.follow_candidates(state)

    def player_entities(self, state: SceneState, model_precache: Sequence[str]) -> tuple[int, ...]:
        return link.player_entities(state)
