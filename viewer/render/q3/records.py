"""What the Quake III backend registers for a map segment: the map with the shaders of its surfaces, and its MD3s.

References: ioquake3 ``renderergl1/tr_local.h`` (``world_t``), ``tr_public.h`` (``RE_LoadWorldMap``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from assets_loader.bsp46 import Bsp46World
from assets_loader.q3shaders import Shader

from ..refdef import SegmentAssets


@dataclass(frozen=True, slots=True)
class Quake3World:
    """A loaded Quake III map ready to draw: ``shaders[b]`` draws ``world.batches[b]``; ``images`` holds every
    image those shaders name (lower-case name → RGBA ``u1 [H, W, 4]``, rows top first); ``missing``: names that
    resolved to the engine's default grid (each reported once by the loader); ``fog_shaders[f]``: the shader of
    ``world.fogs[f]`` (its ``fogParms`` colour and opaque distance), ``None`` when no script defines it."""

    world: Bsp46World
    shaders: tuple[Shader, ...]
    images: Mapping[str, np.ndarray]
    missing: tuple[str, ...] = ()
    fog_shaders: tuple[Shader | None, ...] = ()


@dataclass(frozen=True, slots=True)
class Quake3Segment(SegmentAssets):
    """A Quake III segment: its shaded map ``q3_world`` (``None`` when the game data lacks it); its MD3 models are
    :attr:`SegmentAssets.md3`."""

    q3_world: Quake3World | None = field(default=None, kw_only=True)

    @property
    def game_map(self) -> Bsp46World | None:
        return self.q3_world.world if self.q3_world is not None else None
