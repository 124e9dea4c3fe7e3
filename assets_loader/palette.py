"""The 256-colour palette (``gfx/palette.lmp``), the light colormap (``gfx/colormap.lmp``) and player colours.

Quake draws everything with 8-bit palette indices. ``palette.lmp`` is 256 RGB triples; ``colormap.lmp`` is 64
rows of 256 indices, one row per light level (row 0 brightest, row 63 darkest; rows 32.. darken toward black),
with indices 224..255 left unchanged on every row: those are the *fullbright* colours. Some copies of
``colormap.lmp`` carry one extra trailing byte (16385 bytes), which is accepted and ignored.

Player shirt and pants colours recolour two 16-entry ranges of the skin through a translation table
(:func:`translation_table`), exactly as the engine does before uploading a player skin.

References: Unofficial Quake Specs 3.2, sections 2.5 "The lump file (.LMP)" and 6.4 "Format of palettes"
(the spec's "32 tables" colormap is 64 rows in the shipped file);
Quake ``VID_SetPalette`` / ``Draw_Init`` (vid_*.c, gl_draw.c) and ``R_TranslatePlayerSkin`` (gl_rmisc.c) with
``TOP_RANGE`` / ``BOTTOM_RANGE`` from render.h; ``CL_NewTranslation`` (cl_parse.c) for the colour byte split.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .errors import TruncatedError
from .source import Source, read_source

PALETTE_SIZE = 768
COLORMAP_ROWS = 64
COLORMAP_SIZE = COLORMAP_ROWS * 256
#: First fullbright palette index (224..255 ignore lighting).
FULLBRIGHT_START = 224
#: Palette index drawn transparent in sprites, qpics and ``{``-textures.
TRANSPARENT_INDEX = 255
#: Shirt (top) colour range in skins: indices 16..31.
TOP_RANGE = 16
#: Pants (bottom) colour range in skins: indices 96..111.
BOTTOM_RANGE = 96


@dataclass(frozen=True, slots=True)
class Palette:
    """``rgb``: ``u1[256, 3]`` colours by palette index (read-only)."""

    rgb: np.ndarray

    @property
    def fullbright(self) -> np.ndarray:
        """``bool[256]``: True for the fullbright indices 224..255."""
        mask = np.zeros(256, dtype=bool)
        mask[FULLBRIGHT_START:] = True
        return mask

    def rgba_table(self, alpha_index: int | None = None) -> np.ndarray:
        """``u1[256, 4]``: opaque RGBA per index; ``alpha_index`` (e.g. 255 for sprites) gets alpha 0."""
        table = np.empty((256, 4), dtype=np.uint8)
        table[:, :3] = self.rgb
        table[:, 3] = 255
        if alpha_index is not None:
            table[alpha_index] = 0
        return table

    def to_rgba(self, indices: np.ndarray, alpha_index: int | None = None) -> np.ndarray:
        """Index image ``u1[...]`` (e.g. ``[H, W]``) → ``u1[..., 4]`` RGBA in one lookup.

        ``alpha_index`` is the transparent index (``TRANSPARENT_INDEX`` = 255 for sprites and qpics), or ``None``
        to keep every pixel opaque (skins, world textures).
        """
        return self.rgba_table(alpha_index)[np.asarray(indices, dtype=np.uint8)]


@dataclass(frozen=True, slots=True)
class Colormap:
    """``rows``: ``u1[64, 256]``; ``rows[level, index]`` is the palette index of ``index`` at light ``level``."""

    rows: np.ndarray

    def shade(self, indices: np.ndarray, level: int) -> np.ndarray:
        """Index image ``u1[...]`` lit at ``level`` (0 brightest .. 63 darkest) → ``u1[...]``."""
        return self.rows[min(max(int(level), 0), COLORMAP_ROWS - 1)][np.asarray(indices, dtype=np.uint8)]


def load_palette(src: Source, name: str | None = None) -> Palette:
    """Read ``gfx/palette.lmp`` (768 bytes: 256 × RGB). Longer data is rejected; shorter raises ``TruncatedError``."""
    data, path = read_source(src, name)
    if len(data) != PALETTE_SIZE:
        raise TruncatedError(path, "palette", min(PALETTE_SIZE, len(data)),
                             f"{PALETTE_SIZE} bytes (256 RGB triples)", f"{len(data)} bytes")
    rgb = np.frombuffer(data, dtype=np.uint8).reshape(256, 3)
    return Palette(rgb)


def load_colormap(src: Source, name: str | None = None) -> Colormap:
    """Read ``gfx/colormap.lmp``: 64 × 256 bytes, optionally followed by one trailing byte (16385 bytes)."""
    data, path = read_source(src, name)
    if len(data) not in (COLORMAP_SIZE, COLORMAP_SIZE + 1):
        raise TruncatedError(path, "colormap", min(len(data), COLORMAP_SIZE),
                             f"{COLORMAP_SIZE} or {COLORMAP_SIZE + 1} bytes (64 rows of 256 indices)",
                             f"{len(data)} bytes")
    rows = np.frombuffer(data, dtype=np.uint8, count=COLORMAP_SIZE).reshape(COLORMAP_ROWS, 256)
    return Colormap(rows)


def split_player_colors(colors: int) -> tuple[int, int]:
    """The network colour byte ``colors`` → ``(top, bottom)`` colour numbers 0..15 (high nibble = shirt)."""
    return (colors >> 4) & 15, colors & 15


def translation_table(top: int, bottom: int) -> np.ndarray:
    """``u1[256]`` skin index translation for shirt colour ``top`` and pants colour ``bottom`` (0..15 each).

    Identity everywhere except the 16 entries from ``TOP_RANGE`` and from ``BOTTOM_RANGE``: colour ``c`` maps
    the range onto palette row ``c * 16``, forward for ``c < 8`` and reversed (``c*16 + 15 - i``) for ``c >= 8``
    because "the artists made some backwards ranges". Values are masked to 0..15 as the engine does.
    The table is made once per colour pair and shared: it is read-only.
    """
    return _translation_table(int(top) & 15, int(bottom) & 15)


@functools.lru_cache(maxsize=16 * 16)
def _translation_table(top: int, bottom: int) -> np.ndarray:
    table = np.arange(256, dtype=np.uint8)
    ramp = np.arange(16, dtype=np.uint8)
    for start, colour in ((TOP_RANGE, top), (BOTTOM_RANGE, bottom)):
        base = colour * 16
        table[start:start + 16] = base + ramp if base < 128 else base + 15 - ramp
    table.flags.writeable = False
    return table
