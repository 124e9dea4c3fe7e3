"""What the backend of Quake, QuakeWorld and Quake II registers for a map segment: the lightmapped map, how the game
turns texture × lightmap into colour, and the sky box.

References: QuakeSpasm ``gl_model.c`` (``Mod_LoadBrushModel``), Quake II ``ref_gl/gl_model.c``, ``gl_warp.c``
(``R_SetSky``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


from ..refdef import MapWorld, SegmentAssets


@dataclass(frozen=True, slots=True)
class SkyBox:
    """A six-sided sky (Quake II ``R_SetSky``): ``faces`` ``u1[6, H, W, 4]`` in the order rt, bk, lf, ft, up, dn
    (row 0 = top of each picture), turning ``rotate`` degrees a second about ``axis`` ``[3]``.

    The faces sit on the box axes as Quake II's ``MakeSkyVec`` places them: rt on +X, bk on +Y, lf on −X,
    ft on −Y, up on +Z, dn on −Z."""

    name: str
    faces: np.ndarray
    rotate: float = 0.0
    axis: tuple[float, float, float] = (0.0, 0.0, 1.0)


@dataclass(frozen=True, slots=True)
class Lighting:
    """How a game turns texture × lightmap into a colour: ``texture_scale`` brightens textures (clamped at 1:
    Quake II's ``intensity``), ``lightmap_scale`` multiplies the clamped lightmap (Quake's overbright 2, Quake II's
    ``gl_modulate``); ``fullbrights``: palette indices 224..255 ignore light (Quake only); ``texture_mode``: the
    engine's default ``gl_texturemode`` for mipmapped world textures and model skins (QuakeSpasm's
    ``GL_LINEAR_MIPMAP_LINEAR`` blends two mip levels, Quake II ref_gl's ``GL_LINEAR_MIPMAP_NEAREST`` reads the
    nearer one)."""

    texture_scale: float = 1.0
    lightmap_scale: float = 2.0
    fullbrights: bool = True
    texture_mode: str = "GL_LINEAR_MIPMAP_LINEAR"


#: Quake's look (QuakeSpasm's overbright lightmaps, fullbright palette range).
QUAKE_LIGHTING = Lighting()


@dataclass(frozen=True, slots=True)
class BspSegment(SegmentAssets):
    """A Quake, QuakeWorld or Quake II segment: its ``world`` (``None`` when the game dirs lack it), the game's
    ``lighting`` rule and the ``sky_box`` (``None``: Quake's scrolling two-layer sky, or no sky)."""

    world: MapWorld | None = field(default=None, kw_only=True)
    lighting: Lighting = field(default=QUAKE_LIGHTING, kw_only=True)
    sky_box: SkyBox | None = field(default=None, kw_only=True)

    @property
    def game_map(self) -> MapWorld | None:
        return self.world
