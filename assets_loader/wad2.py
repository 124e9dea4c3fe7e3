"""WAD2 archives (``gfx.wad``): a 12-byte header and a directory of 32-byte ``lumpinfo_t`` entries.

Lump names are stored upper-case in id's ``gfx.wad``; like the engine (``W_CleanupName``) they are lower-cased and
looked up case-insensitively, the first entry winning when a name repeats. Lump types are single characters:
``'@'`` palette, ``'A'`` qtex, ``'B'`` qpic (status bar pictures), ``'C'`` sound, ``'D'`` miptex, ``'E'`` flat
console picture. ``conchars`` is stored as type ``'D'`` but is a raw 128×128 picture with no header, exactly as
``Draw_Init`` reads it. Compressed lumps (never shipped) are listed but cannot be read.

References: Unofficial Quake Specs 3.2, chapter 6 "New WAD file" (6.1 WAD2 format, 6.2 status bar pictures,
6.3 console lumps); Quake ``W_LoadWadFile`` / ``W_GetLumpinfo`` / ``W_CleanupName`` (wad.c, wad.h) and
``Draw_Init`` (gl_draw.c) for ``conchars``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .binreader import BinReader
from .errors import BadIndexError, BadMagicError, FormatError, NotFoundError, TruncatedError
from .images import Image, MipTex, read_miptex, read_pixels, read_qpic
from .palette import PALETTE_SIZE, Palette
from .source import Source, read_source

WAD2_MAGIC = b"WAD2"
#: ``lumpinfo_t``: filepos, disksize, size, type, compression, 2 pad bytes, 16-byte name.
D_LUMPINFO = np.dtype([("filepos", "<i4"), ("disksize", "<i4"), ("size", "<i4"), ("type", "u1"),
                       ("compression", "u1"), ("pad", "u1", 2), ("name", "S16")])

TYP_NONE = "\x00"
TYP_LABEL = "\x01"
TYP_PALETTE = "@"
TYP_QTEX = "A"
TYP_QPIC = "B"
TYP_SOUND = "C"
TYP_MIPTEX = "D"
TYP_CONPIC = "E"
CMP_NONE = 0

CONCHARS_NAME = "conchars"
CONCHARS_SIDE = 128
#: Flat console pictures by size: (width, height).
_FLAT_SIZES = {CONCHARS_SIDE * CONCHARS_SIDE: (CONCHARS_SIDE, CONCHARS_SIDE), 320 * 200: (320, 200)}


@dataclass(frozen=True, slots=True)
class WadLump:
    """One directory entry: ``name`` lower-cased, ``type`` one character (``'B'`` …), byte ``filepos``,
    ``disksize`` (bytes in the file), ``size`` (bytes once uncompressed), ``compression`` (0 = none)."""

    name: str
    type: str
    filepos: int
    disksize: int
    size: int
    compression: int


@dataclass(frozen=True, slots=True)
class Wad:
    """An opened WAD2 file: ``lumps`` in directory order; lump data is read from ``data`` on demand."""

    path: str
    lumps: tuple[WadLump, ...]
    data: bytes = field(repr=False)
    _index: dict[str, WadLump] = field(repr=False, compare=False)

    def __contains__(self, name: str) -> bool:
        return _clean(name) in self._index

    def names(self) -> tuple[str, ...]:
        return tuple(lump.name for lump in self.lumps)

    def lump(self, name: str) -> WadLump:
        """The first lump called ``name`` (case-insensitive); ``NotFoundError`` if absent."""
        try:
            return self._index[_clean(name)]
        except KeyError:
            raise NotFoundError(self.path, "WAD2", None, f"a lump named {name!r}") from None

    def _reader(self, lump: WadLump) -> BinReader:
        if lump.compression != CMP_NONE:
            raise FormatError(self.path, "WAD2", lump.filepos, f"an uncompressed lump {lump.name!r}",
                              f"compression {lump.compression}")
        return BinReader(memoryview(self.data)[lump.filepos:lump.filepos + lump.disksize],
                         f"{self.path}:{lump.name}", "WAD2 lump")

    def read(self, name: str) -> bytes:
        """The raw bytes of lump ``name``."""
        lump = self.lump(name)
        return self._reader(lump).bytes(lump.disksize, "lump data")

    def pic(self, name: str) -> Image:
        """Decode lump ``name`` as a picture: qpic (``'B'``), or a flat 128×128 / 320×200 lump (``conchars``,
        ``'E'``)."""
        lump = self.lump(name)
        r = self._reader(lump)
        if lump.name == CONCHARS_NAME or lump.type == TYP_CONPIC:
            if lump.disksize not in _FLAT_SIZES:
                raise BadIndexError(r.path, r.fmt, 0, "a flat picture of 16384 (128x128) or 64000 (320x200) bytes",
                                    f"{lump.disksize} bytes")
            width, height = _FLAT_SIZES[lump.disksize]
            return read_pixels(r, width, height, "flat picture")
        return read_qpic(r, "qpic")

    def conchars(self) -> Image:
        """The console font: ``u1[128, 128]`` (16×16 glyphs of 8×8; index 0 is transparent)."""
        return self.pic(CONCHARS_NAME)

    def miptex(self, name: str) -> MipTex:
        """Decode lump ``name`` as a ``miptex_t`` with its 4 mip levels."""
        lump = self.lump(name)
        return read_miptex(self._reader(lump), lump.disksize)

    def palette(self, name: str = "palette") -> Palette:
        """Decode a ``'@'`` palette lump (768 bytes)."""
        lump = self.lump(name)
        r = self._reader(lump)
        if lump.disksize < PALETTE_SIZE:
            raise TruncatedError(r.path, r.fmt, 0, f"{PALETTE_SIZE} bytes of palette", f"{lump.disksize} bytes")
        return Palette(r.array(np.uint8, PALETTE_SIZE, "palette").reshape(256, 3))


def _clean(name: str) -> str:
    """``W_CleanupName``: lower-case, at most 16 characters."""
    return name.lower()[:16]


def load_wad(src: Source, name: str | None = None) -> Wad:
    """Read a WAD2 file's header and directory (bytes or a path); every lump must lie inside the file."""
    data, path = read_source(src, name)
    r = BinReader(data, path, "WAD2")
    magic = r.bytes(4, "WAD2 magic") if len(data) >= 4 else data
    if magic != WAD2_MAGIC:
        raise BadMagicError(path, "WAD2", 0, "magic 'WAD2'", repr(magic))
    numlumps, infotableofs = r.s32("lump count"), r.s32("directory offset")
    if numlumps < 0:
        raise BadIndexError(path, "WAD2", 4, "a non-negative lump count", str(numlumps))
    if not 12 <= infotableofs <= len(data):
        raise TruncatedError(path, "WAD2", 8, f"a directory offset inside the file (size {len(data)})",
                             str(infotableofs))
    r.seek(infotableofs)
    table = r.array(D_LUMPINFO, numlumps, f"directory of {numlumps} lumps")
    start = table["filepos"].astype(np.int64)
    bad = (start < 0) | (table["disksize"] < 0) | (table["size"] < 0) | (start + table["disksize"] > len(data))
    if bad.any():
        i = int(np.argmax(bad))
        raise TruncatedError(path, "WAD2", infotableofs + i * D_LUMPINFO.itemsize,
                             f"lump {i} inside the file (size {len(data)})",
                             f"offset {int(table['filepos'][i])} size {int(table['disksize'][i])}")
    lumps = tuple(
        WadLump(_clean(raw.split(b"\0", 1)[0].decode("latin-1")), chr(t), int(p), int(ds), int(s), int(c))
        for raw, t, p, ds, s, c in zip(table["name"], table["type"], table["filepos"], table["disksize"],
                                       table["size"], table["compression"]))
    index: dict[str, WadLump] = {}
    for lump in lumps:
        index.setdefault(lump.name, lump)
    return Wad(path, lumps, data, index)
