"""Palette-indexed pictures → GL textures.

Colour textures keep the fullbright mask (palette indices 224–255) in alpha so one sampler gives both the
colour and whether the lightmap applies (docs/DESIGN.md, "Rendering notes": fullbright range via a mask).
Mipmapped textures are minified by the game's ``gl_texturemode`` (:data:`TEXTURE_MODES`).

References: GLQuake / Quake II ref_gl ``GL_TextureMode`` (the ``modes`` table of mode names and GL filters).
"""

from __future__ import annotations

import moderngl
import numpy as np

from assets_loader.palette import Palette

from .mipmaps import upload_mipmaps

#: ``gl_texturemode`` names → the minifying filter of mipmapped textures (magnified texels are always bilinear here).
TEXTURE_MODES = {
    "GL_LINEAR_MIPMAP_LINEAR": moderngl.LINEAR_MIPMAP_LINEAR,
    "GL_LINEAR_MIPMAP_NEAREST": moderngl.LINEAR_MIPMAP_NEAREST,
    "GL_NEAREST_MIPMAP_LINEAR": moderngl.NEAREST_MIPMAP_LINEAR,
    "GL_NEAREST_MIPMAP_NEAREST": moderngl.NEAREST_MIPMAP_NEAREST,
}


def fullbright_rgba(indices: np.ndarray, palette: Palette) -> np.ndarray:
    """``uint8 [H, W, 4]`` colours of palette ``indices [H, W]``, alpha 255 where the index is fullbright."""
    rgba = palette.to_rgba(indices)
    rgba[..., 3] = np.where(palette.fullbright[indices], 255, 0)
    return rgba


def upload_rgba(ctx: moderngl.Context, rgba: np.ndarray, mipmaps: bool = True, repeat: bool = True,
                texture_mode: str = "GL_LINEAR_MIPMAP_LINEAR") -> moderngl.Texture:
    """A GL texture from ``uint8 [H, W, 4]`` (row 0 = texture coordinate t = 0); ``mipmaps``: a chain of 2×2 box
    averages down to 1×1 (``GL_MipMap``), minified by ``texture_mode`` (a :data:`TEXTURE_MODES` name)."""
    h, w = rgba.shape[:2]
    tex = ctx.texture((w, h), 4, np.ascontiguousarray(rgba).tobytes())
    tex.repeat_x = tex.repeat_y = repeat
    if mipmaps:
        upload_mipmaps(tex, rgba)
        tex.filter = (TEXTURE_MODES[texture_mode], moderngl.LINEAR)
    else:
        tex.filter = (moderngl.LINEAR, moderngl.LINEAR)
    return tex
