"""8-bit PCX pictures (Quake II's skins, HUD pictures, sky faces and ``pics/colormap.pcx``, the game palette).

Quake II accepts only one kind of PCX: manufacturer 10, version 5, run-length encoding 1, 8 bits per pixel in one
colour plane. The 128-byte header is followed by the run-length coded rows (a byte ``>= 0xC0`` repeats the next
byte ``byte & 0x3F`` times) and the file ends with the 256-colour palette: the last 768 bytes, as ``LoadPCX``
reads them. The header is checked here; Pillow decodes the rows.

References: ZSoft "PCX Technical Reference Manual" (header layout, RLE, the 256-colour palette after a 0x0C
byte); Quake II ``LoadPCX`` (ref_gl/gl_image.c) and ``pcx_t`` (qcommon/qfiles.h).
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass

import numpy as np
from PIL import Image as PilImage

from .binreader import BinReader
from .errors import BadMagicError, FormatError, TruncatedError
from .images import check_dimensions
from .palette import PALETTE_SIZE, Palette
from .source import Source, read_source

#: ``pcx_t`` up to ``bytes_per_line``: manufacturer, version, encoding, bits_per_pixel, xmin, ymin, xmax, ymax,
#: hres, vres, palette[48], reserved, color_planes, bytes_per_line (the rest of the 128 bytes is filler).
PCX_HEADER = struct.Struct("<4B6H48sBBH")
PCX_HEADER_SIZE = 128
PCX_MANUFACTURER = 10
PCX_VERSION = 5
PCX_RLE = 1


@dataclass(frozen=True, slots=True)
class PcxImage:
    """A decoded PCX: ``indices`` ``u1[height, width]`` palette indices and the file's own ``palette``."""

    width: int
    height: int
    indices: np.ndarray
    palette: Palette

    def to_rgba(self, alpha_index: int | None = None) -> np.ndarray:
        """``u1[height, width, 4]`` through the file's palette (``alpha_index``: the transparent index, if any)."""
        return self.palette.to_rgba(self.indices, alpha_index)


def load_pcx(src: Source, name: str | None = None) -> PcxImage:
    """Read an 8-bit PCX (bytes or a path).

    Raises ``BadMagicError`` (not manufacturer 10 / version 5 / RLE / 8-bit single plane), ``TruncatedError``
    (no room for header and palette, or rows cut short), ``BadIndexError`` (absurd sizes).
    """
    data, path = read_source(src, name)
    r = BinReader(data, path, "PCX")
    r.need(PCX_HEADER_SIZE + PALETTE_SIZE, "the PCX header and the 768-byte palette at the end")
    (manufacturer, version, encoding, bits, xmin, ymin, xmax, ymax, _hres, _vres, _ega, _reserved, planes,
     _bytes_per_line) = r.struct(PCX_HEADER, "PCX header")
    for offset, what, value, wanted in ((0, "manufacturer", manufacturer, PCX_MANUFACTURER),
                                        (1, "version", version, PCX_VERSION),
                                        (2, "encoding (RLE)", encoding, PCX_RLE),
                                        (3, "bits per pixel", bits, 8),
                                        (65, "colour planes", planes, 1)):
        if value != wanted:
            raise BadMagicError(path, "PCX", offset, f"{what} {wanted}", str(value))
    check_dimensions(r, xmax - xmin + 1, ymax - ymin + 1, 4, "PCX picture")
    try:
        with PilImage.open(io.BytesIO(data), formats=["PCX"]) as pic:
            pic.load()
            if pic.mode not in ("P", "L"):
                raise BadMagicError(path, "PCX", 0, "an 8-bit palette picture", f"Pillow mode {pic.mode}")
            indices = np.asarray(pic, dtype=np.uint8)
    except FormatError:
        raise
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise TruncatedError(path, "PCX", PCX_HEADER_SIZE, "run-length coded rows for the whole picture",
                             str(exc)) from None
    indices.setflags(write=False)
    rgb = np.frombuffer(data, np.uint8, PALETTE_SIZE, len(data) - PALETTE_SIZE).reshape(256, 3)
    height, width = indices.shape
    return PcxImage(width, height, indices, Palette(rgb))
