"""The pictures the Quake III HUD names, loaded from the game data when first asked for: truecolour RGBA arrays for
the cgame's 2D art (``gfx/2d/…``: numbers, crosshairs, the select frame; ``icons/…``; players' ``icon_<skin>``
heads), the ``bigchars`` font cut into one picture per glyph (``q3char<size>/<code>``, smoothly scaled to
``size`` texels so the overlay's exact texel fetch stays smooth), and ``conchars``: the same font shrunk to the
viewer's 128×128 indexed UI font (grey levels of the stand-in palette; transparent texels → index 0).

A picture named by a shader script (``iconsprites.shader``: ``gfx/2d/select``, the crosshairs, icons…) is its
first stage's image, drawn with that stage's ``blendFunc`` (:meth:`Q3Pics.blend`; alpha made opaque where the
blend does not read it); without a script it is the image of that name alpha-blended, as ioquake3's default 2D
shader (``R_FindShader`` with ``LIGHTMAP_2D``) draws it.  Images are found with the engine's extension fallback
(``R_FindImageFile``) and decoded by :func:`~assets_loader.truecolor.load_rgba`, which keeps a TGA's own alpha as
``R_LoadTGA`` does (OpenArena's scoreboard column titles are red letters at alpha ≤ 72 on transparent black, whose
TGA footer says "no alpha"); a missing or broken one is ``None`` (the overlay draws its placeholder; a broken one
warns).

References: ioquake3 ``code/cgame/cg_main.c`` (``CG_RegisterGraphics``: ``gfx/2d/bigchars``, ``sb_nums``,
crosshairs, ``selectShader``), ``code/renderergl1/tr_image.c`` (``R_FindImageFile``), ``tr_shader.c``
(``R_FindShader``: the 2D default stage's ``GLS_SRCBLEND_SRC_ALPHA | GLS_DSTBLEND_ONE_MINUS_SRC_ALPHA``),
``code/cgame/cg_drawtools.c`` (``CG_DrawChar``: 16 × 16 glyphs of the 256 × 256 font).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping

import numpy as np
from PIL import Image as PilImage

from assets_loader.errors import FormatError
from assets_loader.images import Image
from assets_loader.q3shaders import ShaderLibrary, load_shader_library
from assets_loader.truecolor import load_rgba
from assets_loader.vfs import VirtualFS

from ...render.gl_state import ALPHA_BLEND
from ...render.hud_overlay import Blend
from ...render.shaded.stages import BLEND_FACTORS, blend_factors

__all__ = ["FONT", "Q3Pics", "char_pic", "load_hud_pics"]

FONT = "gfx/2d/bigchars"
#: Blend factors that read the picture's alpha.
_READS_ALPHA = frozenset(BLEND_FACTORS[f] for f in ("GL_SRC_ALPHA", "GL_ONE_MINUS_SRC_ALPHA",
                                                      "GL_SRC_ALPHA_SATURATE"))
_PREFIXES = ("gfx/", "icons/", "models/", "menu/")


def char_pic(code: int, size: int) -> str:
    """The picture name of glyph ``code`` scaled to ``size`` texels."""
    return f"q3char{size}/{code & 255}"


def _rgba(fs: VirtualFS, name: str) -> np.ndarray | None:
    found = fs.find_image(name)
    if found is None:
        return None
    try:
        return np.array(load_rgba(fs.read(found), found))
    except FormatError as exc:
        warnings.warn(f"{exc}; the HUD draws a placeholder", stacklevel=2)
        return None


def _indexed_font(rgba: np.ndarray) -> Image:
    """The font as the viewer's 128 × 128 indexed UI font: grey levels, transparent texels index 0."""
    small = np.asarray(PilImage.fromarray(rgba).resize((128, 128), PilImage.Resampling.BOX))
    grey = (small[..., :3].astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)).astype(np.uint8)
    indices = np.where(small[..., 3] < 128, 0, np.clip(grey, 1, 254)).astype(np.uint8)
    return Image(128, 128, indices)


class Q3Pics(Mapping[str, "Image | np.ndarray"]):
    """The HUD's pictures from ``fs``, each loaded on first use and kept (see the module docstring)."""

    def __init__(self, fs: VirtualFS) -> None:
        self._fs = fs
        self._cache: dict[str, Image | np.ndarray | None] = {}
        self._blends: dict[str, Blend] = {}
        self._shaders: ShaderLibrary | None = None
        self._font = _rgba(fs, FONT)
        if self._font is None:
            warnings.warn(f"{FONT} not found; the Quake III HUD has no text", stacklevel=2)

    def _load(self, key: str) -> Image | np.ndarray | None:
        if key == "conchars":
            return _indexed_font(self._font) if self._font is not None else None
        if key.startswith("q3char"):
            size_text, _, code_text = key[len("q3char"):].partition("/")
            if self._font is None or not size_text.isdigit() or not code_text.isdigit():
                return None
            code, size = int(code_text) & 255, max(1, min(int(size_text), 256))
            cell = self._font[(code >> 4) * 16:(code >> 4) * 16 + 16, (code & 15) * 16:(code & 15) * 16 + 16]
            return np.asarray(PilImage.fromarray(cell).resize((size, size), PilImage.Resampling.BICUBIC))
        if not key.startswith(_PREFIXES):
            return None
        if self._shaders is None:
            self._shaders = load_shader_library(self._fs)
        shader = self._shaders.get(key)
        stage = shader.stages[0] if shader is not None and shader.stages else None
        image = stage.images[0] if stage is not None and stage.images and stage.images[0][:1] != "$" else key
        rgba = _rgba(self._fs, image)
        if stage is not None:
            blend = self._blends[key] = blend_factors(stage)
            if rgba is not None and (blend is None or not _READS_ALPHA.intersection(blend)):
                rgba[..., 3] = 255
        return rgba

    def blend(self, name: str) -> Blend:
        """How picture ``name`` is drawn: its script's first stage's ``blendFunc`` (``None``: opaque), else alpha
        blending (:class:`~viewer.render.hud_overlay.PicBlends`)."""
        key = name.lower()
        self.get(key)
        return self._blends.get(key, ALPHA_BLEND)

    def __getitem__(self, key: str) -> Image | np.ndarray:
        key = key.lower()
        if key not in self._cache:
            self._cache[key] = self._load(key)
        found = self._cache[key]
        if found is None:
            raise KeyError(key)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(k for k, v in self._cache.items() if v is not None)

    def __len__(self) -> int:
        return sum(v is not None for v in self._cache.values())

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None


def load_hud_pics(fs: VirtualFS) -> Q3Pics:
    """The HUD's pictures of ``fs`` (loaded as they are asked for; a warning when the font is missing)."""
    return Q3Pics(fs)
