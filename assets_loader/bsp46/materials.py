"""What each batch of a loaded map is drawn with: its shader (scripted or default) and the decoded images.

Shaders are found per batch with the batch's lightmap mode, as ``ShaderForShaderNum`` finds them per surface,
so a surface without a script gets the default "texture × lightmap" shader, or the vertex-lit one for
triangle soups. Every image a batch's shader names (stage maps, animMap frames, sky boxes) is decoded once.

References: ioquake3 ``renderergl1/tr_bsp.c`` (``ShaderForShaderNum``); ``tr_shader.c`` (``R_FindShader``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..q3images import ImageLoader
from ..q3shaders import Shader, ShaderLibrary
from .world import Bsp46World


@dataclass(frozen=True, slots=True)
class WorldMaterials:
    """``shaders[b]`` draws ``world.batches[b]``; ``images`` by lower-case name (RGBA ``[H, W, 4]``);
    ``missing``: image names that fell back to the default grid."""

    shaders: tuple[Shader, ...]
    images: dict[str, np.ndarray]
    missing: tuple[str, ...]


def load_world_materials(world: Bsp46World, library: ShaderLibrary, images: ImageLoader) -> WorldMaterials:
    """Shaders for every batch of ``world`` and every image they use."""
    shaders = tuple(library.find(world.shader_names[int(b["shader"])], int(b["lightmap"])) for b in world.batches)
    names: dict[str, None] = {}
    for shader in shaders:
        names.update(dict.fromkeys(shader.image_names()))
    decoded = {name.lower(): images.load(name) for name in names}
    missing = tuple(n for n in images.missing if n in decoded)
    return WorldMaterials(shaders, decoded, missing)
