"""Writers for tiny synthetic qpic ``.lmp``, miptex and WAD2 files (the inverse of the loaders), and blank PNGs."""

from __future__ import annotations

import struct
import zlib

import numpy as np


def pattern(width: int, height: int, seed: int = 0) -> np.ndarray:
    """A deterministic ``u1[height, width]`` test picture."""
    return ((np.arange(width * height, dtype=np.int64) * 7 + seed) % 256).astype(np.uint8).reshape(height, width)


def build_qpic(indices: np.ndarray) -> bytes:
    """``int32 width, int32 height`` + rows of indices."""
    height, width = indices.shape
    return struct.pack("<ii", width, height) + np.ascontiguousarray(indices, dtype=np.uint8).tobytes()


def build_miptex(name: str, width: int, height: int, seed: int = 0) -> bytes:
    """A ``miptex_t`` with 4 mip levels stored right after the 40-byte header."""
    mips = [pattern(width >> i, height >> i, seed + i) for i in range(4)]
    offsets, pos = [], 40
    for m in mips:
        offsets.append(pos)
        pos += m.size
    head = name.encode("latin-1").ljust(16, b"\0")[:16] + struct.pack("<II4I", width, height, *offsets)
    return head + b"".join(m.tobytes() for m in mips)


def build_wad(lumps: list[tuple[str, str, bytes]], compression: int = 0) -> bytes:
    """WAD2: header, lump data, then the directory (as id's tools lay it out). ``lumps``: (name, type char, data)."""
    body = bytearray()
    entries = []
    for name, typ, data in lumps:
        entries.append((12 + len(body), len(data), name, typ))
        body += data
    directory = b"".join(
        struct.pack("<iiiBBBB16s", pos, size, size, ord(typ), compression, 0, 0, name.encode("latin-1"))
        for pos, size, name, typ in entries)
    return b"WAD2" + struct.pack("<ii", len(lumps), 12 + len(body)) + bytes(body) + directory


def blank_png(width: int, height: int) -> bytes:
    """A greyscale PNG of ``width × height`` black pixels, compressed a row at a time (an 8192×8192 one is 65 KB
    and never held whole)."""
    deflate = zlib.compressobj(9)
    row = bytes(1 + width)                                     # filter byte 0, then the row
    idat = b"".join(deflate.compress(row) for _ in range(height)) + deflate.flush()

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")
