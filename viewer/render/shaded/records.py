"""The records of shader-script drawing: the MD3 models a segment registers, and what a frame draws with shaders.

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

from assets_loader.models.md3 import Md3Model
from assets_loader.models.q3player import PlayerModel
from assets_loader.q3shaders import ShaderLibrary

from ..placeholders import Box


@dataclass(frozen=True, slots=True)
class Quake3Models:
    """What a Quake III segment registers besides the map: ``md3`` models by name (precache entries and player
    parts), ``players`` by ``model/skin`` name, the shader ``library`` for their surfaces, and the ``images`` those
    shaders use (lower-case name → RGBA); ``shaders``: names of the shaders the segment's effects draw with (their
    images are in ``images`` too); ``lods``: by the same names, each model's lower levels of detail
    (``NAME_1.md3``, ``NAME_2.md3``; ``R_RegisterMD3``), drawn far away (:mod:`.lod`)."""

    md3: Mapping[str, Md3Model] = field(default_factory=dict)
    library: ShaderLibrary | None = None
    images: Mapping[str, np.ndarray] = field(default_factory=dict)
    players: Mapping[str, PlayerModel] = field(default_factory=dict)
    shaders: tuple[str, ...] = ()
    lods: Mapping[str, tuple[Md3Model, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, eq=False)
class Md3Draw:
    """One MD3 to draw (a ``refEntity_t``): ``model`` names an entry of :attr:`Quake3Models.md3`; ``origin``
    ``[3]`` and ``axis`` ``[3, 3]`` (rows forward, left, up) place it; it shows ``old_frame`` blended ``frac`` of
    the way to ``frame``; ``shaders`` maps surface names to a skin's shaders; ``light_origin`` is where the light
    grid is sampled (the legs' origin for every part of a player, as ``lightingOrigin``); ``view_model``: the
    first-person weapon; ``shader_rgba``: the colour ``rgbGen entity``/``alphaGen entity`` stages use (0‥255,
    ``shaderRGBA``); ``custom_shader`` draws every surface with one shader (``customShader``: explosion models);
    ``shader_time``: when the shader's clock started (``shaderTime``: waves and ``animMap`` frames of an effect
    begin with it), seconds of the frame's time; ``placeholder``: the box (mins, maxs in model space) drawn
    instead when the model is not loaded (entities: items, missiles, a player's weapon; ``None``: nothing), in
    ``shader_rgba``'s colour and opacity when that is not white (a ghost, :mod:`viewer.ghosts`)."""

    model: str
    origin: np.ndarray
    axis: np.ndarray
    frame: int = 0
    old_frame: int = 0
    frac: float = 0.0
    shaders: Mapping[str, str] = field(default_factory=dict)
    light_origin: np.ndarray | None = None
    view_model: bool = False
    shader_rgba: tuple[int, int, int, int] = (255, 255, 255, 255)
    custom_shader: str = ""
    shader_time: float = 0.0
    placeholder: Box | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Q3Poly:
    """A polygon drawn with a shader (``RE_AddPolyToScene``; effect sprites, beams and impact marks reach the
    renderer this way): ``shader`` by name, ``positions`` ``f4 [N, 3]`` of a convex fan, texture coordinates
    ``st`` ``f4 [N, 2]``, vertex ``colors`` ``u1 [N, 4]`` (what ``rgbGen``/``alphaGen vertex`` and ``entity`` read,
    as for sprites and beams whose vertices carry the entity's ``shaderRGBA``), ``shader_time`` as for
    :class:`Md3Draw`."""

    shader: str
    positions: np.ndarray
    st: np.ndarray
    colors: np.ndarray
    shader_time: float = 0.0
