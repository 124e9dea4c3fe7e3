"""The Quake III part of the render contract: a map's shaded world and the MD3 models a segment registers.

Quake III surfaces are not palette textures: each batch of the map is drawn by a shader (a list of stages with
their images, blend functions, colour/alpha/texture-coordinate generators and modifiers, alpha test, depth write
and cull; :class:`~assets_loader.q3shaders.Shader` is that material record) over truecolour images, a
lightmap atlas and per-vertex colours. Games fill these records; the renderer only reads them.

References: ioquake3 ``renderergl1/tr_local.h`` (``shader_t``, ``shaderStage_t``, ``world_t``),
``tr_public.h`` (``refexport_t``: ``RE_LoadWorldMap``, ``RE_RegisterModel``, ``RE_RegisterShader``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from assets_loader.bsp46 import Bsp46World
from assets_loader.models.md3 import Md3Model
from assets_loader.q3shaders import Shader, ShaderLibrary


@dataclass(frozen=True, slots=True)
class Quake3World:
    """A loaded Quake III map ready to draw: ``shaders[b]`` draws ``world.batches[b]``; ``images`` holds every
    image those shaders name (lower-case name → RGBA ``u1 [H, W, 4]``, rows top first); ``missing``: names that
    resolved to the engine's default grid (each reported once by the loader)."""

    world: Bsp46World
    shaders: tuple[Shader, ...]
    images: Mapping[str, np.ndarray]
    missing: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Quake3Models:
    """What a Quake III segment registers besides the map: ``md3`` models by precache name, the shader
    ``library`` for their surfaces, and the ``images`` those shaders use (lower-case name → RGBA)."""

    md3: Mapping[str, Md3Model] = field(default_factory=dict)
    library: ShaderLibrary | None = None
    images: Mapping[str, np.ndarray] = field(default_factory=dict)
