"""Quake II's :class:`~viewer.games.base.GameView`: the package's pieces behind the one seam.

Asset loading is complete (:mod:`.assets`). Entity linking, effects and the HUD are minimal placeholders (no
entities, no effects, an empty HUD) until the ``.dm2`` decoder's game code fills them in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from assets_loader.demos import DemoTimeline, MapSegment, SceneState
from assets_loader.images import Image
from assets_loader.palette import Palette
from assets_loader.vfs import VirtualFS

from ...render.refdef import EntityDraw, HudLayout, Lights, MapWorld, Particles, SegmentAssets
from ..base import EffectModel, PicSizes
from . import assets


@dataclass(frozen=True, slots=True)
class NoEffects:
    """A timeline without particles, lights or effect models."""

    def particles(self, timeline: DemoTimeline, t: float, model_flags: list[np.ndarray] | None) -> Particles:
        return Particles.empty()

    def lights(self, state: SceneState, t: float, model_flags: np.ndarray | None) -> Lights:
        return Lights.empty()

    def models(self, state: SceneState, t: float) -> list[EffectModel]:
        return []


@dataclass(frozen=True, slots=True)
class Quake2View:
    """Quake II (``.dm2``, ``qdv map`` on a BSP38 map): BSP38 + WAL world, MD2 models, SP2 sprites, sky box."""

    def load_segment_assets(self, fs: VirtualFS, segment: MapSegment) -> SegmentAssets:
        return assets.load_segment_assets(fs, segment.model_precache, segment.map_path)

    def load_map_assets(self, fs: VirtualFS, map_path: str) -> SegmentAssets:
        return assets.load_map_assets(fs, map_path)

    def load_palette(self, fs: VirtualFS) -> Palette:
        return assets.load_palette(fs)

    def entity_draws(self, state: SceneState, first_person: bool) -> list[EntityDraw]:
        return []

    def prepare_effects(self, timeline: DemoTimeline) -> NoEffects:
        return NoEffects()

    def load_hud_pics(self, fs: VirtualFS) -> Mapping[str, Image]:
        return {}

    def hud_layout(self, state: SceneState, timeline: DemoTimeline, screen_size: tuple[int, int], scale: int, *,
                   show_scores: bool = False, pic_sizes: PicSizes | None = None) -> HudLayout:
        return HudLayout(screen_size, scale, ())

    def screen_blend(self, state: SceneState, timeline: DemoTimeline, t: float,
                     world: MapWorld | None) -> tuple[float, float, float, float] | None:
        return None   # Quake II's player_state blend is not decoded yet

    def follow_candidates(self, state: SceneState, model_precache: Sequence[str]) -> tuple[int, ...]:
        return ()

    def player_entities(self, state: SceneState, model_precache: Sequence[str]) -> tuple[int, ...]:
        return ()
