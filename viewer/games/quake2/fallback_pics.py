"""Stand-ins for the Quake II HUD pictures a game directory may lack: the font (``conchars``) and the big digits
(``num_0`` … ``num_minus``, ``anum_0`` … ``anum_minus``), taken from the bundled LibreQuake sample
(``viewer/sample/lq1/pak0.pak``) so that the status bar, layouts, centerprints and notify lines still read as text.

Quake's ``gfx.wad`` holds the same pictures under the same names: ``conchars`` is the 16×16 grid of 8×8 glyphs in
the same character order as Quake II's ``pics/conchars.pcx``.  Quake's digits fill their 24×24 pictures while
Quake II's leave room to be drawn 16 pixels apart (``SCR_DrawField``), so the stand-ins are squeezed to 16×24
(nearest texel).  The font's alternate (high-bit) half, gold in Quake and light blue in LibreQuake, is turned green
as Quake II draws it.  Colours are then moved to the nearest ones of the Quake II palette, so the stand-ins stay
indexed pictures (the UI font needs one), each keeping its transparent index: 0 for the font (``Draw_Init``), 255
for the digits (``Draw_PicFromWad``), which no opaque texel lands on.  A game dir's own picture always wins.

References: QuakeSpasm ``gl_draw.c`` (``Draw_Init``: conchars index 0 transparent; ``Draw_PicFromWad``: index 255
transparent); Quake II 3.20 ``ref_gl/gl_draw.c`` (``Draw_InitLocal`` loads ``pics/conchars.pcx``),
``client/cl_scrn.c`` (``sb_nums``: ``num_*`` and ``anum_*``).
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import resources

import numpy as np
from PIL import Image as PilImage

from assets_loader.images import Image
from assets_loader.pak import load_pak
from assets_loader.palette import TRANSPARENT_INDEX, Palette, load_palette
from assets_loader.wad2 import CONCHARS_NAME, load_wad

from .hud import DIGIT_WIDTH, digit_pics

#: The sample pak, inside the ``viewer`` package.
SAMPLE_PAK = ("sample", "lq1", "pak0.pak")
#: The pictures a stand-in exists for: the font and both digit sets.
FALLBACK_NAMES = (CONCHARS_NAME,) + digit_pics(0) + digit_pics(1)
#: ``Draw_Init``: the transparent index of the font (the HUD renderer's key for ``conchars``).
FONT_TRANSPARENT_INDEX = 0
#: Brightness weights, and the colour the alternate characters' brightness is turned into: Quake II draws them
#: green (Quake's are gold, LibreQuake's light blue).
LUMA = np.array([0.299, 0.587, 0.114], np.float32)
ALT_TINT = np.array([0.45, 1.0, 0.3], np.float32)


def sample_pak_path() -> str:
    """Where the bundled LibreQuake sample pak lives."""
    return str(resources.files("viewer").joinpath(*SAMPLE_PAK))


def missing_names(have: Iterable[str]) -> tuple[str, ...]:
    """The stand-in names a picture set lacks."""
    present = set(have)
    return tuple(n for n in FALLBACK_NAMES if n not in present)


def described(names: Iterable[str]) -> str:
    """A short text for a warning: ``"pics/conchars.pcx and 22 digit pictures"``."""
    names = tuple(names)
    digits = sum(1 for n in names if n != CONCHARS_NAME)
    parts = (["pics/conchars.pcx"] if CONCHARS_NAME in names else []) + \
        ([f"{digits} digit picture{'s' if digits != 1 else ''}"] if digits else [])
    return " and ".join(parts)


def nearest_indices(rgb: np.ndarray, target: Palette, transparent: int) -> np.ndarray:
    """``u1[...]``: each colour of ``rgb`` (``[..., 3]``) → the index of the nearest ``target`` colour (squared RGB
    distance) other than ``transparent``."""
    colours, inverse = np.unique(rgb.reshape(-1, 3).astype(np.int32), axis=0, return_inverse=True)
    distance = ((colours[:, None, :] - target.rgb[None, :, :].astype(np.int32)) ** 2).sum(axis=2)
    distance[:, transparent] = np.iinfo(np.int32).max
    return distance.argmin(axis=1).astype(np.uint8)[inverse.reshape(-1)].reshape(rgb.shape[:-1])


def font_colours(indices: np.ndarray, source: Palette) -> np.ndarray:
    """``u1[128, 128, 3]``: the font's colours, the alternate (high-bit) half's brightness turned green."""
    rgb = source.rgb[indices].astype(np.float32)
    alt = rgb[indices.shape[0] // 2:]
    alt[:] = (alt @ LUMA)[..., None] * ALT_TINT
    return np.clip(rgb, 0, 255).astype(np.uint8)


def fallback_pics(names: Iterable[str], palette: Palette, pak_path: str | None = None) -> dict[str, Image]:
    """Indexed stand-ins in ``palette``'s colours for those of ``names`` in :data:`FALLBACK_NAMES`, read from
    ``pak_path`` (default: the bundled sample's). Raises :class:`~assets_loader.errors.FormatError` when that pak,
    its ``gfx.wad`` or its ``gfx/palette.lmp`` is broken or missing inside it, ``OSError`` when the pak cannot be
    opened."""
    asked = set(names)
    wanted = [n for n in FALLBACK_NAMES if n in asked]
    if not wanted:
        return {}
    pak = load_pak(pak_path or sample_pak_path())
    source = load_palette(pak.read("gfx/palette.lmp"), "gfx/palette.lmp")
    wad = load_wad(pak.read("gfx.wad"), "gfx.wad")
    out: dict[str, Image] = {}
    for name in wanted:
        pic = wad.pic(name)
        indices = np.asarray(pic.indices, np.uint8).reshape(pic.height, pic.width)
        if name == CONCHARS_NAME:
            mapped = nearest_indices(font_colours(indices, source), palette, FONT_TRANSPARENT_INDEX)
            mapped[indices == FONT_TRANSPARENT_INDEX] = FONT_TRANSPARENT_INDEX
        else:
            indices = squeezed(indices, DIGIT_WIDTH)
            mapped = nearest_indices(source.rgb[indices], palette, TRANSPARENT_INDEX)
            mapped[indices == TRANSPARENT_INDEX] = TRANSPARENT_INDEX
        out[name] = Image(mapped.shape[1], mapped.shape[0], mapped)
    return out


def squeezed(indices: np.ndarray, width: int) -> np.ndarray:
    """An index picture resampled to ``width`` columns, nearest texel."""
    resized = PilImage.fromarray(indices, "L").resize((width, indices.shape[0]), PilImage.Resampling.NEAREST)
    return np.asarray(resized, np.uint8)
