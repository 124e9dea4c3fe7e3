"""Palette-indexed pictures → GL textures.

Colour textures keep the fullbright mask (palette indices 224–255) in alpha so one sampler gives both the
colour and whether the lightmap applies (docs/DESIGN.md, "Rendering notes": fullbright range via a mask).
"""

from __future__ import annotations

import moderngl
import numpy as np

from assets_loader.palette import Palette


def fullbright_rgba(indices: np.ndarray, palette: Palette) -> np.ndarray:
    """``uint8 [H, W, 4]`` colours of palette ``indices [H, W]``, alpha 255 where the index is fullbright."""
    rgba = palette.to_rgba(indices)
    rgba[..., 3] = np.where(palette.fullbright[indices], 255, 0)
    return rgba


def upload_rgba(ctx: moderngl.Context, rgba: np.ndarray, mipmaps: bool = True, repeat: bool = True) -> moderngl.Texture:
    """A GL texture from ``uint8 [H, W, 4]`` (row 0 = texture coordinate t = 0)."""
    h, w = rgba.shape[:2]
    tex = ctx.texture((w, h), 4, np.ascontiguousarray(rgba).tobytes())
    tex.repeat_x = tex.repeat_y = repeat
    if mipmaps:
        tex.build_mipmaps()
        tex.filter = (moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR)
    else:
        tex.filter = (moderngl.LINEAR, moderngl.LINEAR)
    return tex
