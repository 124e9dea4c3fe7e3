"""PAK archives: the ``PACK`` header and its directory of 64-byte entries.

The archive is never read whole: its size is checked from ``stat`` (:mod:`assets_loader.source`, a regular
file within the PAK limit), the directory must lie inside the file and hold at most ``max_entries`` entries
(:data:`MAX_ENTRIES`, far above any real pak) before a byte of it is read, and it is then read and checked
:data:`_DIR_CHUNK` entries at a time; entries are read on demand.

References: Unofficial Quake Specs 3.2, chapter 3.1 "Pack files"; Quake ``COM_LoadPackFile`` (common.c).
Quake II uses the same container (``qcommon/files.c``, ``FS_LoadPackFile``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .binreader import BinReader
from .errors import BadMagicError, NotFoundError, TooLargeError, TruncatedError
from .source import check_file, check_size, kind_of

#: ``dpackfile_t``: 56-byte NUL-padded name, file offset, file length.
D_PACKFILE = np.dtype([("name", "S56"), ("filepos", "<i4"), ("filelen", "<i4")])
PACK_MAGIC = b"PACK"
#: Most directory entries accepted (Quake's own limit is 2048, Quake II's 4096; large mod paks hold ~20k).
MAX_ENTRIES = 1 << 18
#: Directory entries read and checked at a time.
_DIR_CHUNK = 4096


@dataclass(frozen=True, slots=True)
class PakEntry:
    """One file inside a pak: its name (as stored), byte offset and size."""

    name: str
    offset: int
    size: int


class PakFile:
    """An open PAK archive; reads entries on demand from the file (or from bytes held in memory).

    ``max_size`` replaces the PAK size limit of :mod:`assets_loader.source`; ``max_entries`` the directory cap.
    """

    def __init__(self, path: str | Path, data: bytes | None = None, *, max_size: int | None = None,
                 max_entries: int = MAX_ENTRIES) -> None:
        self.path = str(path)
        self._data = data
        size = len(data) if data is not None else check_file(self.path, "pak", max_size)
        header = self._read(0, 12) if data is None else data[:12]
        r = BinReader(header, self.path, "PAK")
        magic = r.bytes(4, "PACK magic") if len(header) >= 4 else b""
        if magic != PACK_MAGIC:
            raise BadMagicError(self.path, "PAK", 0, "magic 'PACK'", repr(bytes(header[:4])))
        dir_offset, dir_length = r.s32("directory offset"), r.s32("directory length")
        if dir_length % D_PACKFILE.itemsize:
            raise TruncatedError(self.path, "PAK", 8, f"a directory length that is a multiple of {D_PACKFILE.itemsize}",
                                 str(dir_length))
        if dir_offset < 12 or dir_length < 0 or dir_offset + dir_length > size:
            raise TruncatedError(self.path, "PAK", 4, f"a directory inside the file (size {size})",
                                 f"offset {dir_offset} length {dir_length}")
        count = dir_length // D_PACKFILE.itemsize
        if count > max_entries:
            raise TooLargeError(self.path, "PAK", 8, f"a directory of at most {max_entries} entries",
                                f"a directory of {count} entries")
        entries: list[PakEntry] = []
        for first in range(0, count, _DIR_CHUNK):
            entries += self._directory_chunk(dir_offset, first, min(_DIR_CHUNK, count - first), size)
        self.entries: tuple[PakEntry, ...] = tuple(entries)
        self._by_name = {e.name.lower(): e for e in self.entries}

    def _directory_chunk(self, dir_offset: int, first: int, count: int, size: int) -> list[PakEntry]:
        """Entries ``first .. first + count - 1`` of the directory, each checked to lie inside the file."""
        start = dir_offset + first * D_PACKFILE.itemsize
        table = np.frombuffer(self._read(start, count * D_PACKFILE.itemsize), dtype=D_PACKFILE)
        pos, length = table["filepos"].astype(np.int64), table["filelen"].astype(np.int64)
        bad = (pos < 0) | (length < 0) | (pos + length > size)
        if bad.any():
            i = int(np.argmax(bad))
            raise TruncatedError(self.path, "PAK", start + i * D_PACKFILE.itemsize,
                                 f"entry {first + i} inside the file (size {size})",
                                 f"offset {int(pos[i])} length {int(length[i])}")
        return [PakEntry(n.split(b"\0", 1)[0].decode("latin-1"), int(o), int(s))
                for n, o, s in zip(table["name"], pos, length)]

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
        """The bytes of entry ``name`` (case-insensitive), within the size limit of its kind."""
        e = self.entry(name)
        check_size(self.path, kind_of(e.name), e.size, what=f"member {e.name!r}")
        return self._read(e.offset, e.size)

    def read_head(self, name: str, size: int) -> bytes:
        """The first ``size`` bytes of entry ``name`` (fewer when the entry is shorter), without reading the rest."""
        e = self.entry(name)
        return self._read(e.offset, min(size, e.size))


def load_pak(src: str | Path | bytes, name: str | None = None, max_size: int | None = None) -> PakFile:
    """Open a PAK from a path or from bytes (``max_size``: see :class:`PakFile`)."""
    if isinstance(src, (bytes, bytearray, memoryview)):
        return PakFile(name or "<bytes>", bytes(src))
    return PakFile(src, max_size=max_size)
