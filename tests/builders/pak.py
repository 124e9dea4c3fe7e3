"""Write tiny PAK archives for tests (Unofficial Quake Specs 3.2, 3.1)."""

from __future__ import annotations

import struct


def build_pak(files: dict[str, bytes]) -> bytes:
    """A PAK holding ``files`` (name → bytes) in the given order."""
    body = bytearray()
    directory = bytearray()
    offset = 12
    for name, data in files.items():
        directory += struct.pack("<56sii", name.encode("latin-1"), offset + len(body), len(data))
        body += data
    header = struct.pack("<4sii", b"PACK", 12 + len(body), len(directory))
    return header + bytes(body) + bytes(directory)
