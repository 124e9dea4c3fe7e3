"""Write tiny PAK archives for tests (Unofficial Quake Specs 3.2, 3.1), and zips holding only a directory."""

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


def directory_only_zip(entries: int, declared: int = 0xFFFF, zip64_declared: int | None = None) -> bytes:
    """A zip holding only a central directory of ``entries`` headers named ``a`` (47 bytes each, no member data),
    whose end record declares ``declared`` entries, or a zip64 end record declaring ``zip64_declared``."""
    header = struct.pack("<4s6H3I5H2I", b"PK\x01\x02", 20, 20, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0) + b"a"
    directory = header * entries
    end = b""
    if zip64_declared is not None:
        end = struct.pack("<4sQ2H2I4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, zip64_declared, zip64_declared,
                          len(directory), 0)
        end += struct.pack("<4sIQI", b"PK\x06\x07", 0, len(directory), 1)
        declared = 0xFFFF
    return directory + end + struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, declared, declared, len(directory), 0, 0)
