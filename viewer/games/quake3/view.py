"""Quake III's :class:`~viewer.games.base.GameView`: assets for maps and demo segments (the map, the item, weapon
and missile models of :mod:`.items`, the players' models of the segment, the effects' models and shaders),
entity drawing (:mod:`.link`: players, items, missiles as MD3 draws, movers as brush models), effects through their
shaders and the first-person weapon (:mod:`.fx`, :mod:`.view_weapon`), the HUD (:mod:`.hud`, :mod:`.hud_pics`, the
3D icons of :mod:`.hud_icons`, :mod:`.lagometer`), the view from behind a dead player (:mod:`.third_person`), Tab /
orbit over the players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from assets_loader.demos import DemoTimeline, MapSegment, SceneState
from assets_loader.demos.quake3.game import ET_PLAYER
from assets_loader.images import Image
from assets_loader.palette import Palette
from assets_loader.game_map import GameMap
from assets_loader.vfs import VirtualFS

from ...render.refdef import EntityDraw, HudLayout, SegmentAssets
from ...render.shaded.records import Md3Draw
from ..base import GhostFigure, PicSizes, PovLens
from . import assets, fx, hud, hud_pics, link
from .items import segment_models
from .players import ghost_player
from .third_person import dead_view, renders_third_person


@dataclass(frozen=True, slots=True)
class Quake3View:
    """Quake III Arena / OpenArena demos (``.dm_68``, ``.dm_71``) and IBSP 46 maps."""

    def load_segment_assets(self, fs: VirtualFS, segment: MapSegment) -> SegmentAssets:
        precache = segment.model_precache
        map_path = segment.map_path or (precache[1] if len(precache) > 1 else "")
        names = (*(precache + ("",) * link.MAX_MODELS)[:link.MAX_MODELS],
                 *(f"*{n}" for n in range(link.MAX_MODELS)))
        extra = tuple(m for m in (*segment_models(), *fx.segment_effect_models()) if fs.exists(m))
        players = tuple(m if "/" in m else f"{m}/default" for m in segment.player_models)
        return assets.load_segment_assets(fs, map_path, names + extra, players, fx.EFFECT_SHADERS,
                                          segment.gametype)

    def load_map_assets(self, fs: VirtualFS, map_path: str) -> SegmentAssets:
        return assets.load_map_assets(fs, map_path)

    def load_palette(self, fs: VirtualFS) -> Palette:
        return assets.GREY_PALETTE

    def entity_draws(self, state: SceneState, first_person: bool,
                     model_flags: np.ndarray | None = None) -> list[EntityDraw]:
        return link.entity_draws(state)

    def prepare_effects(self, timeline: DemoTimeline) -> fx.Quake3Effects:
        return fx.prepare_effects(timeline)

    def load_hud_pics(self, fs: VirtualFS) -> Mapping[str, Image | np.ndarray]:
        return hud_pics.load_hud_pics(fs)

    def hud_layout(self, state: SceneState, timeline: DemoTimeline, screen_size: tuple[int, int], scale: int, *,
                   show_scores: bool = False, pic_sizes: PicSizes | None = None,
                   assets: SegmentAssets | None = None) -> HudLayout:
        return hud.hud_layout(state, timeline, screen_size, scale, show_scores=show_scores, pic_sizes=pic_sizes,
                              models=assets.md3 if assets is not None else None,
                              game_map=assets.game_map if assets is not None else None)

    def watching_layout(self, name: str, screen_size: tuple[int, int], scale: int,
                        pic_sizes: PicSizes | None = None) -> HudLayout:
        return hud.watching_hud(name, screen_size, scale)

    def name_tag(self, name: str, x: float, y: float, screen_size: tuple[int, int], scale: int) -> HudLayout:
        return hud.name_tag(name, x, y, screen_size, scale)

    def screen_blend(self, state: SceneState, timeline: DemoTimeline, t: float,
                     map_: GameMap | None) -> tuple[float, float, float, float] | None:
        return None   # cgame's damage and powerup screen effects are not drawn yet

    def pov_lens(self, state: SceneState, t: float, fov: float, map_: GameMap | None = None) -> PovLens:
        return PovLens(fov, eye=dead_view(state, map_) if renders_third_person(state) else None)

    def ghost_draws(self, figures: Sequence[GhostFigure], assets: SegmentAssets | None
                    ) -> tuple[list[EntityDraw], tuple[Md3Draw, ...]]:
        models = assets.md3 if assets is not None else None
        return [], tuple(part for f in figures for part in ghost_player(
            models, link.player_draw(f.state, f.row) if f.state is not None and f.row is not None else None,
            f.origin, f.yaw, f.color, f.alpha))

    def follow_candidates(self, state: SceneState, model_precache: Sequence[str]) -> tuple[int, ...]:
        players = self.player_entities(state, model_precache)
        return tuple(sorted(players, key=lambda n: n != state.view_entity))

    def player_entities(self, state: SceneState, model_precache: Sequence[str]) -> tuple[int, ...]:
        fields = state.entity_fields
        if not fields:
            return ()
        return tuple(int(n) for n, kind in zip(state.entities.number, fields["eType"]) if kind == ET_PLAYER)
