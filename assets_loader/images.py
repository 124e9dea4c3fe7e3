"""8-bit indexed pictures: qpic ``.lmp`` files, qpic/flat lumps inside WAD2 files, and mip textures.

A *qpic* is ``int32 width, int32 height`` followed by ``width*height`` palette indices, row by row (index 255 is
transparent when drawn as a 2D picture). A *miptex* is a 16-byte name, ``uint32 width, height``, four
``uint32`` offsets (relative to the miptex start) to the four mip levels of ``(w >> i) × (h >> i)`` indices.
``gfx/palette.lmp``, ``gfx/colormap.lmp`` and ``gfx/pop.lmp`` are not qpics (see :mod:`assets_loader.palette`).

References: Unofficial Quake Specs 3.2, sections 2.5 "The lump file (.LMP)" (``picture_t``) and 6.2 "Format of
status bar pictures" (``pichead_t``); Quake ``qpic_t`` / ``Draw_CachePic`` (gl_draw.c, wad.h) and ``miptex_t`` /
``Mod_LoadTextures`` (bspfile.h, gl_model.c).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .binreader import BinReader
from .errors import BadIndexError
from .source import Source, read_source

#: Largest width or height accepted for any 8-bit picture (guards against absurd sizes before any work).
MAX_IMAGE_SIDE = 8192
MIPLEVELS = 4


@dataclass(frozen=True, slots=True)
class Image:
    """An indexed picture: ``indices`` is ``u1[height, width]`` palette indices (often a read-only view)."""

    width: int
    height: int
    indices: np.ndarray


@dataclass(frozen=True, slots=True)
class MipTex:
    """A mip texture: ``name`` (lower-cased), base ``width``/``height`` and ``mips``: 4 images, level ``i`` is
    ``u1[height >> i, width >> i]``."""

    name: str
    width: int
    height: int
    mips: tuple[Image, ...]


def check_dimensions(r: BinReader, width: int, height: int, at: int, what: str) -> None:
    """Raise ``BadIndexError`` unless ``0 <= width, height <= MAX_IMAGE_SIDE``."""
    for side, value in (("width", width), ("height", height)):
        if not 0 <= value <= MAX_IMAGE_SIDE:
            raise BadIndexError(r.path, r.fmt, at, f"a {what} {side} in 0..{MAX_IMAGE_SIDE}", str(value))


def read_pixels(r: BinReader, width: int, height: int, what: str) -> Image:
    """``width*height`` indices at the cursor → :class:`Image` (a read-only view; bounds checked first)."""
    pixels = r.array(np.uint8, width * height, what)
    return Image(width, height, pixels.reshape(height, width))


def read_qpic(r: BinReader, what: str = "qpic") -> Image:
    """A qpic (``int32 width, int32 height, pixels``) at the cursor of ``r``."""
    at = r.pos
    width, height = r.s32(f"{what} width"), r.s32(f"{what} height")
    check_dimensions(r, width, height, at, what)
    return read_pixels(r, width, height, f"{what} pixels ({width}x{height})")


def load_lmp(src: Source, name: str | None = None) -> Image:
    """Read a qpic ``.lmp`` (``gfx/conback.lmp``, menu pictures…). Trailing bytes are ignored, as in the engine."""
    data, path = read_source(src, name)
    return read_qpic(BinReader(data, path, "LMP"))


def read_miptex(r: BinReader, size: int, what: str = "miptex") -> MipTex:
    """A ``miptex_t`` of ``size`` bytes starting at the cursor of ``r`` (WAD2 ``'D'`` lumps, BSP texture lump).

    Every mip level must lie inside those ``size`` bytes; offsets of 0 (textures stored outside a BSP) are
    rejected here, so callers that allow external textures check for them first.
    """
    base = r.pos
    r.need(size, what)
    name = r.fixed_string(16, f"{what} name").lower()
    width, height = r.u32(f"{what} width"), r.u32(f"{what} height")
    offsets = [r.u32(f"{what} mip offset") for _ in range(MIPLEVELS)]
    mips = read_mip_levels(r, base, width, height, offsets, 40, size, 16, what)
    r.seek(base + size)
    return MipTex(name, width, height, mips)


def read_mip_levels(r: BinReader, base: int, width: int, height: int, offsets: list[int], header_size: int,
                    size: int, size_at: int, what: str) -> tuple[Image, ...]:
    """The 4 mip levels of a mip texture at ``base`` (a ``miptex_t``: Quake's BSP/WAD2 one or Quake II's
    ``.wal``): level ``i`` is ``(width >> i) x (height >> i)`` indices at ``base + offsets[i]``, which must lie
    between the ``header_size``-byte header and the end of the ``size``-byte texture. ``size_at`` is the offset
    of the width field (for errors); the offsets follow it right after the height."""
    check_dimensions(r, width, height, base + size_at, what)
    if width == 0 or height == 0:
        raise BadIndexError(r.path, r.fmt, base + size_at, f"a non-zero {what} size", f"{width}x{height}")
    mips = []
    for level, offset in enumerate(offsets):
        w, h = width >> level, height >> level
        if offset < header_size or offset + w * h > size:
            raise BadIndexError(r.path, r.fmt, base + size_at + 8 + 4 * level,
                                f"mip level {level} ({w}x{h}) inside the {size}-byte {what}", f"offset {offset}")
        r.seek(base + offset)
        mips.append(read_pixels(r, w, h, f"{what} mip {level}"))
    return tuple(mips)
