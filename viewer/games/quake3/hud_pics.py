"""The pictures the Quake III HUD names, as the indexed images the HUD overlay draws: ``conchars`` made from
``gfx/2d/bigchars`` (16×16 glyphs, shrunk to the overlay's 128×128 font; transparent texels → index 0) and the
crosshair (transparent and near-black texels → index 255).  Quake III art is truecolour: each texel becomes its
grey level in the stand-in palette, so the HUD draws in greys.

References: ioquake3 ``code/cgame/cg_main.c`` (``CG_RegisterGraphics``: ``gfx/2d/bigchars``, crosshairs),
``code/renderergl1/tr_image.c`` (``R_FindImageFile``: ``.tga`` then ``.jpg``).
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Mapping

import numpy as np
from PIL import Image as PilImage

from assets_loader.images import Image
from assets_loader.vfs import VirtualFS

from .hud import CROSSHAIR

__all__ = ["load_hud_pics"]


def _rgba(fs: VirtualFS, name: str) -> np.ndarray | None:
    for ext in (".tga", ".png", ".jpg"):
        if fs.exists(name + ext):
            with PilImage.open(io.BytesIO(fs.read(name + ext))) as img:
                return np.asarray(img.convert("RGBA"))
    return None


def _indexed(rgba: np.ndarray, transparent: int, dark_is_clear: bool = False) -> Image:
    """Grey indices; texels with alpha < 128 (and, with ``dark_is_clear``, near-black ones: the crosshairs are
    drawn additively by the engine) become ``transparent``."""
    grey = (rgba[..., :3].astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)).astype(np.uint8)
    clear = rgba[..., 3] < 128
    if dark_is_clear:
        clear |= grey < 48
    indices = np.where(clear, transparent, np.clip(grey, 1, 254)).astype(np.uint8)
    return Image(indices.shape[1], indices.shape[0], indices)


def load_hud_pics(fs: VirtualFS) -> Mapping[str, Image]:
    """``conchars`` and the crosshair when the game data has them (a warning for a missing font)."""
    out: dict[str, Image] = {}
    font = _rgba(fs, "gfx/2d/bigchars")
    if font is None:
        warnings.warn("gfx/2d/bigchars not found; the Quake III HUD has no text", stacklevel=2)
    else:
        small = np.asarray(PilImage.fromarray(font).resize((128, 128), PilImage.Resampling.BOX))
        out["conchars"] = _indexed(small, 0)
    crosshair = _rgba(fs, CROSSHAIR)
    if crosshair is not None:
        out[CROSSHAIR] = _indexed(crosshair, 255, dark_is_clear=True)
    return out
