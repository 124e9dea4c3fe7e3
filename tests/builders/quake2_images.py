"""Writers for tiny synthetic Quake II pictures: 8-bit PCX (with its palette) and ``.wal`` mip textures.

Layouts are spelled out with ``struct`` here, independently of the loaders (ZSoft PCX header, Quake II
``miptex_t``), so a round trip checks the readers.
"""

from __future__ import annotations

import struct

import numpy as np


def ramp_palette() -> np.ndarray:
    """``u1[256, 3]``: index ``i`` is ``(i, 255 - i, i // 2)``."""
    i = np.arange(256)
    return np.stack([i, 255 - i, i // 2], axis=1).astype(np.uint8)


def _rle_row(row: bytes) -> bytes:
    out = bytearray()
    i = 0
    while i < len(row):
        value = row[i]
        run = 1
        while i + run < len(row) and row[i + run] == value and run < 63:
            run += 1
        if run > 1 or value >= 0xC0:
            out += bytes((0xC0 | run, value))
        else:
            out.append(value)
        i += run
    return bytes(out)


def build_pcx(indices: np.ndarray, palette: np.ndarray | None = None, version: int = 5, bits: int = 8,
              planes: int = 1, marker: int = 0x0C) -> bytes:
    """An 8-bit run-length coded PCX of ``indices`` ``u1[H, W]`` with ``palette`` (default :func:`ramp_palette`)."""
    height, width = indices.shape
    pitch = width + (width & 1)
    header = struct.pack("<4B6H48sBBHH58s", 10, version, 1, bits, 0, 0, width - 1, height - 1, 72, 72, bytes(48),
                         0, planes, pitch, 1, bytes(58))
    rows = b"".join(_rle_row(np.ascontiguousarray(r, np.uint8).tobytes() + b"\0" * (pitch - width))
                    for r in indices)
    pal = ramp_palette() if palette is None else palette
    return header + rows + bytes((marker,)) + np.ascontiguousarray(pal, np.uint8).tobytes()


def build_wal(name: str, width: int, height: int, seed: int = 0, next_name: str = "", flags: int = 0,
              contents: int = 0, value: int = 0) -> bytes:
    """A ``.wal``: the 100-byte header then 4 mip levels, level ``i`` filled with ``(seed + i) % 256``."""
    offsets, pos = [], 100
    for level in range(4):
        offsets.append(pos)
        pos += (width >> level) * (height >> level)
    head = struct.pack("<32sII4I32siii", name.encode("latin-1"), width, height, *offsets,
                       next_name.encode("latin-1"), flags, contents, value)
    mips = b"".join(bytes([(seed + level) % 256]) * ((width >> level) * (height >> level)) for level in range(4))
    return head + mips
