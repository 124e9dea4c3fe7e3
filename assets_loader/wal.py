"""Quake II wall textures (``.wal``): one 8-bit mip texture per file, named by its path under ``textures/``.

Layout (``miptex_t`` of qfiles.h, 100-byte header): ``name[32]``, ``width``, ``height``, ``offsets[4]`` (from the
start of the file) to the four mip levels of ``(width >> i) x (height >> i)`` palette indices (the palette is
``pics/colormap.pcx``), ``animname[32]`` (the next frame of an animated texture, empty for none), ``flags``
(``SURF_*`` defaults for the map compiler), ``contents`` (``CONTENTS_*``) and ``value`` (light emitted by
``SURF_LIGHT`` faces).

References: Quake II ``miptex_t`` (qcommon/qfiles.h); ``GL_LoadWal`` (ref_gl/gl_image.c).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from .binreader import BinReader
from .errors import BadMagicError
from .images import read_mip_levels
from .source import Source, read_source

#: ``miptex_t``: name[32], width, height, offsets[4], animname[32], flags, contents, value.
WAL_HEADER = struct.Struct("<32s2I4I32s3i")
WAL_NAME_SIZE = 32


@dataclass(frozen=True, slots=True)
class WalTexture:
    """A decoded ``.wal``: ``name`` as stored (``"e1u1/floor1_1"``), base ``width``/``height``, ``mips``: 4 arrays,
    level ``i`` is ``u1[height >> i, width >> i]``; ``next_name``: ``animname`` (``""`` when not animated);
    ``flags`` (``SURF_*``), ``contents`` (``CONTENTS_*``) and ``value``."""

    name: str
    width: int
    height: int
    mips: tuple[np.ndarray, ...]
    next_name: str
    flags: int
    contents: int
    value: int


def load_wal(src: Source, name: str | None = None) -> WalTexture:
    """Read a ``.wal`` (bytes or a path). Trailing bytes are ignored.

    Raises ``TruncatedError`` (shorter than the header), ``BadIndexError`` (a zero or absurd size, a mip level
    outside the file), ``BadMagicError`` (a name that is not text).
    """
    data, path = read_source(src, name)
    r = BinReader(data, path, "WAL")
    raw_name, width, height, o0, o1, o2, o3, raw_next, flags, contents, value = r.struct(WAL_HEADER, "WAL header")
    mips = read_mip_levels(r, 0, width, height, [o0, o1, o2, o3], WAL_HEADER.size, len(data), WAL_NAME_SIZE,
                           "WAL texture")
    return WalTexture(_text(raw_name, path, 0), width, height, tuple(m.indices for m in mips),
                      _text(raw_next, path, 56), flags, contents, value)


def _text(raw: bytes, path: str, offset: int) -> str:
    """A NUL-padded name field; control characters mean the header is not a WAL header."""
    text = raw.split(b"\0", 1)[0].decode("latin-1")
    if any(ord(c) < 32 for c in text):
        raise BadMagicError(path, "WAL", offset, "a texture name of printable characters", repr(text[:32]))
    return text
