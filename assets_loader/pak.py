"""PAK archives: the ``PACK`` header and its directory of 64-byte entries.

References: Unofficial Quake Specs 3.2, chapter 3.1 "Pack files"; Quake ``COM_LoadPackFile`` (common.c).
Quake II uses the same container (``qcommon/files.c``, ``FS_LoadPackFile``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .binreader import BinReader
from .errors import BadMagicError, NotFoundError, TruncatedError

#: ``dpackfile_t``: 56-byte NUL-padded name, file offset, file length.
D_PACKFILE = np.dtype([("name", "S56"), ("filepos", "<i4"), ("filelen", "<i4")])
PACK_MAGIC = b"PACK"


@dataclass(frozen=True, slots=True)
class PakEntry:
    """One file inside a pak: its name (as stored), byte offset and size."""

    name: str
    offset: int
    size: int


class PakFile:
    """An open PAK archive; reads entries on demand from the file (or from bytes held in memory)."""

    def __init__(self, path: str | Path, data: bytes | None = None) -> None:
        self.path = str(path)
        self._data = data
        header = self._read(0, 12) if data is None else data[:12]
        r = BinReader(header, self.path, "PAK")
        magic = r.bytes(4, "PACK magic") if len(header) >= 4 else b""
        if magic != PACK_MAGIC:
            raise BadMagicError(self.path, "PAK", 0, "magic 'PACK'", repr(bytes(header[:4])))
        dir_offset, dir_length = r.s32("directory offset"), r.s32("directory length")
        size = len(data) if data is not None else Path(self.path).stat().st_size
        if dir_length % D_PACKFILE.itemsize:
            raise TruncatedError(self.path, "PAK", 8, f"a directory length that is a multiple of {D_PACKFILE.itemsize}",
                                 str(dir_length))
        if dir_offset < 12 or dir_length < 0 or dir_offset + dir_length > size:
            raise TruncatedError(self.path, "PAK", 4, f"a directory inside the file (size {size})",
                                 f"offset {dir_offset} length {dir_length}")
        raw = self._read(dir_offset, dir_length)
        table = np.frombuffer(raw, dtype=D_PACKFILE)
        end = table["filepos"].astype(np.int64) + table["filelen"]
        bad = (table["filepos"] < 0) | (table["filelen"] < 0) | (end > size)
        if bad.any():
            i = int(np.argmax(bad))
            raise TruncatedError(self.path, "PAK", dir_offset + i * D_PACKFILE.itemsize,
                                 f"entry {i} inside the file (size {size})",
                                 f"offset {int(table['filepos'][i])} length {int(table['filelen'][i])}")
        self.entries: tuple[PakEntry, ...] = tuple(
            PakEntry(n.split(b"\0", 1)[0].decode("latin-1"), int(o), int(s))
            for n, o, s in zip(table["name"], table["filepos"], table["filelen"]))
        self._by_name = {e.name.lower(): e for e in self.entries}

    def _read(self, offset: int, size: int) -> bytes:
        if self._data is not None:
            return self._data[offset:offset + size]
        with open(self.path, "rb") as f:
            f.seek(offset)
            return f.read(size)

    def __contains__(self, name: str) -> bool:
        return name.lower() in self._by_name

    def entry(self, name: str) -> PakEntry:
        try:
            return self._by_name[name.lower()]
        except KeyError:
            raise NotFoundError(self.path, "PAK", None, f"an entry named {name!r}") from None

    def read(self, name: str) -> bytes:
        """The bytes of entry ``name`` (case-insensitive)."""
        e = self.entry(name)
        return self._read(e.offset, e.size)


def load_pak(src: str | Path | bytes, name: str | None = None) -> PakFile:
    """Open a PAK from a path or from bytes."""
    if isinstance(src, (bytes, bytearray, memoryview)):
        return PakFile(name or "<bytes>", bytes(src))
    return PakFile(src)
