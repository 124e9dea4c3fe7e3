"""PK3 packs: Quake III's zip archives, opened with :mod:`zipfile` and guarded against zip bombs.

A pk3 is a plain zip file. The directory is read once; member names are looked up case-insensitively, like the
engine's pack hash. First the directory may hold at most ``max_entries`` entries, the PAK cap
(:data:`~assets_loader.pak.MAX_ENTRIES`): the end record's count, then the central directory's headers walked up to
the cap, are checked before :mod:`zipfile` builds an object per entry (millions of them took 3 GB). Before
anything is inflated the declared sizes are checked: the sum of every member's uncompressed size must stay under
``max_total_bytes``, no member may exceed ``max_member_bytes`` and no member may declare more than ``max_ratio``
times its compressed size (deflate cannot exceed about 1032:1, so a larger ratio means a crafted archive). Reads
are incremental; :mod:`zipfile` stops at the declared size and checks the CRC, so a member that lies about its size
cannot inflate further. A path must be a regular file within the pk3 size limit (:mod:`assets_loader.source`).
Every problem is a :class:`~assets_loader.errors.FormatError` (bounds: :class:`ZipBombError`, a
:class:`~assets_loader.errors.TooLargeError`).

References: ioquake3 ``qcommon/files.c`` (``FS_LoadZipFile``, ``FS_AddGameDirectory``); PKWARE APPNOTE.TXT
(local file header, central directory).
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from .errors import FormatError, NotFoundError, TooLargeError, TruncatedError
from .pak import MAX_ENTRIES
from .source import check_file, check_size, kind_of

#: Default bounds: far above real packs (OpenArena's largest pk3 is ~300 MB inflated), far below a bomb.
MAX_TOTAL_BYTES = 2 << 30
MAX_MEMBER_BYTES = 512 << 20
MAX_RATIO = 1100
_CHUNK = 1 << 20
_ENCRYPTED = 0x1  # general purpose bit flag 0 (APPNOTE 4.4.4)
#: The end of central directory record (22 bytes and a comment of up to 65535) and the zip64 locator before it.
_EOCD, _EOCD_SIZE, _EOCD_SEARCH = b"PK\x05\x06", 22, 22 + 65535 + 20
_ZIP64_LOCATOR, _ZIP64_EOCD, _ZIP64_EOCD_SIZE = b"PK\x06\x07", b"PK\x06\x06", 56
_CENTRAL, _CENTRAL_SIZE = b"PK\x01\x02", 46


def check_directory(fp, path: str, max_entries: int = MAX_ENTRIES) -> None:
    """Raise ``TooLargeError`` if the zip in ``fp`` (a seekable binary file) lists more than ``max_entries``
    entries: the count its end record (or zip64 end record) declares, then the central directory headers walked
    up to the cap, since :mod:`zipfile` reads as many as the directory's size holds whatever the count says.
    Anything else wrong is left for :mod:`zipfile` to report."""
    size = fp.seek(0, io.SEEK_END)
    fp.seek(size - min(size, _EOCD_SEARCH))
    tail = fp.read(_EOCD_SEARCH)
    at = tail.rfind(_EOCD)
    if at < 0 or at + _EOCD_SIZE > len(tail):
        return
    count, cd_size, cd_offset = struct.unpack_from("<HII", tail, at + 10)
    if at >= 20 and tail[at - 20:at - 16] == _ZIP64_LOCATOR:
        fp.seek(struct.unpack_from("<Q", tail, at - 12)[0])
        record = fp.read(_ZIP64_EOCD_SIZE)
        if len(record) == _ZIP64_EOCD_SIZE and record[:4] == _ZIP64_EOCD:
            count, cd_size, cd_offset = struct.unpack_from("<QQQ", record, 32)
    too_many = f"a directory of at most {max_entries} entries (like a PAK)"
    if count > max_entries:
        raise TooLargeError(path, "PK3", None, too_many, f"a directory of {count} entries")
    fp.seek(cd_offset)
    walked = seen = 0
    while walked + _CENTRAL_SIZE <= cd_size:
        head = fp.read(_CENTRAL_SIZE)
        if len(head) < _CENTRAL_SIZE or head[:4] != _CENTRAL:
            return
        seen += 1
        if seen > max_entries:
            raise TooLargeError(path, "PK3", cd_offset, too_many, f"a directory holding more (its end record says "
                                f"{count})")
        skip = sum(struct.unpack_from("<3H", head, 28))   # name, extra field, comment
        fp.seek(skip, io.SEEK_CUR)
        walked += _CENTRAL_SIZE + skip


class ZipBombError(TooLargeError):
    """A pk3 declares more inflated bytes (in total, per member, or per compressed byte) than allowed."""


@dataclass(frozen=True, slots=True)
class Pk3Entry:
    """One member of a pk3: its name (as stored), uncompressed and compressed size."""

    name: str
    size: int
    compressed_size: int


class Pk3File:
    """An open pk3: ``entries``, ``name in pk3`` (case-insensitive), :meth:`read`.

    ``src`` is a path or the archive's bytes (``path`` then names it in errors). The zip directory is parsed
    once and the archive stays open; members are inflated on demand.
    """

    def __init__(self, src: str | Path | bytes, path: str | None = None, *, max_total_bytes: int = MAX_TOTAL_BYTES,
                 max_member_bytes: int = MAX_MEMBER_BYTES, max_ratio: float = MAX_RATIO,
                 max_entries: int = MAX_ENTRIES) -> None:
        if isinstance(src, (bytes, bytearray, memoryview)):
            self.path = path or "<bytes>"
            self._data: bytes | None = bytes(src)
        else:
            self.path = path or str(src)
            self._data = None
        self._max_member = max_member_bytes
        self._max_entries = max_entries
        try:
            self._zip = self._open_zip()
            members = self._zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, NotImplementedError) as exc:
            raise FormatError(self.path, "PK3", None, "a zip archive", str(exc)) from None
        unnamed = next((i for i in members if not i.filename), None)
        if unnamed is not None:  # zipfile's is_dir() would fail on it
            raise FormatError(self.path, "PK3", unnamed.header_offset, "a member name", "an empty name")
        infos = [i for i in members if not i.is_dir()]
        encrypted = next((i for i in infos if i.flag_bits & _ENCRYPTED), None)
        if encrypted is not None:  # zipfile would need a password (RuntimeError); Quake III never encrypts
            raise FormatError(self.path, "PK3", encrypted.header_offset,
                              f"member {encrypted.filename!r} not encrypted", "the encryption flag")
        total = 0
        for info in infos:
            if info.file_size > max_member_bytes:
                raise ZipBombError(self.path, "PK3", info.header_offset, f"members of at most {max_member_bytes} bytes",
                                   f"member {info.filename!r} declaring {info.file_size} bytes")
            if info.file_size > max_ratio * max(info.compress_size, 1):
                raise ZipBombError(self.path, "PK3", info.header_offset, f"members inflating at most {max_ratio:g}x",
                                   f"member {info.filename!r} declaring {info.file_size} bytes from "
                                   f"{info.compress_size}")
            total += info.file_size
            if total > max_total_bytes:
                raise ZipBombError(self.path, "PK3", info.header_offset,
                                   f"at most {max_total_bytes} uncompressed bytes in all",
                                   f"members declaring {total} bytes up to {info.filename!r}")
        self.entries: tuple[Pk3Entry, ...] = tuple(Pk3Entry(i.filename, i.file_size, i.compress_size) for i in infos)
        self._infos = {i.filename.lower(): i for i in infos}

    def _open_zip(self) -> zipfile.ZipFile:
        if self._data is not None:
            data = io.BytesIO(self._data)
            check_directory(data, self.path, self._max_entries)
            return zipfile.ZipFile(data)
        check_file(self.path, "pk3")  # a regular file within the pk3 limit, before zipfile opens it
        try:
            with open(self.path, "rb") as f:
                check_directory(f, self.path, self._max_entries)
            return zipfile.ZipFile(self.path)
        except OSError as exc:
            raise NotFoundError(self.path, "PK3", None, "a readable file", str(exc)) from None

    def __contains__(self, name: str) -> bool:
        return name.lower() in self._infos

    def entry(self, name: str) -> Pk3Entry:
        info = self._infos.get(name.lower())
        if info is None:
            raise NotFoundError(self.path, "PK3", None, f"a member named {name!r}")
        return Pk3Entry(info.filename, info.file_size, info.compress_size)

    def read(self, name: str) -> bytes:
        """The inflated bytes of member ``name`` (case-insensitive), read in chunks up to its declared size."""
        info = self._info(name)
        check_size(self.path, kind_of(info.filename), info.file_size, what=f"member {info.filename!r}")
        return self._inflate(info, info.file_size)

    def read_head(self, name: str, size: int) -> bytes:
        """The first ``size`` inflated bytes of member ``name`` (fewer when it is shorter)."""
        return self._inflate(self._info(name), size)

    def _info(self, name: str) -> zipfile.ZipInfo:
        info = self._infos.get(name.lower())
        if info is None:
            raise NotFoundError(self.path, "PK3", None, f"a member named {name!r}")
        return info

    def _inflate(self, info: zipfile.ZipInfo, size: int) -> bytes:
        """Up to ``size`` inflated bytes of ``info``, read in chunks (the member yields at most its declared size)."""
        out = bytearray()
        try:
            with self._zip.open(info) as member:  # checks the CRC when read to the end
                while len(out) < size and (chunk := member.read(min(_CHUNK, size - len(out)))):
                    out += chunk
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, ValueError, OSError) as exc:
            raise TruncatedError(self.path, "PK3", info.header_offset, f"member {info.filename!r} intact",
                                 str(exc)) from None
        return bytes(out)


def load_pk3(src: str | Path | bytes, name: str | None = None) -> Pk3File:
    """Open a pk3 from a path or from bytes."""
    return Pk3File(src, name)
