"""Accept bytes or a filesystem path wherever a loader takes a file, reading a path in bounded memory.

A path must name a regular file (a FIFO, a character device such as ``/dev/zero`` or a socket is refused from
its ``stat``, before it is opened) no larger than the limit for its kind, so a 2 GB file is rejected without
reading it and an endless stream never starts. The file is then read with that limit as an upper bound, so a
file that grows, or reports a wrong size (``/proc``), cannot exceed it either. PAK archives are not read whole:
:class:`~assets_loader.pak.PakFile` checks their size here and reads entries on demand, each within the limit
of its own kind (a PAK or pk3 member ``maps/x.bsp`` is a map), as :class:`~assets_loader.pk3.Pk3File` does.

Limits per kind (:data:`SIZE_LIMITS`), far above real files: demo 512 MiB (the largest real demos are tens of
MB), map 256 MiB, PAK 2 GiB (its offsets are 32-bit signed), pk3 4 GiB (only its zip directory is read up
front; members are bounded by :mod:`assets_loader.pk3`), any other asset (models, images, palettes) 64 MiB; the
viewer's own side files: settings 1 MiB, a camera path 8 MiB (a real one of a thousand keys holds 250 KB).
Each loader taking ``max_size`` can be given another limit; the environment variable ``QDV_MAX_<KIND>_SIZE``
(``QDV_MAX_DEMO_SIZE=2G``, ``QDV_MAX_MAP_SIZE=600M``; a number of bytes with an optional K/M/G suffix)
raises a kind's default for every command.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path
from types import MappingProxyType
from typing import BinaryIO

from .errors import NotAFileError, TooLargeError

Source = bytes | bytearray | memoryview | str | os.PathLike

#: Default largest accepted file per kind, in bytes (see the module docstring).
SIZE_LIMITS = MappingProxyType({
    "demo": 512 << 20, "map": 256 << 20, "pak": 2 << 30, "pk3": 4 << 30, "asset": 64 << 20,
    "settings": 1 << 20, "camera path": 8 << 20,
})
_KIND_OF_EXTENSION = MappingProxyType({
    ".dem": "demo", ".qwd": "demo", ".mvd": "demo", ".dm2": "demo", ".gz": "demo", ".bsp": "map", ".lit": "map",
    ".pak": "pak", ".pk3": "pk3",
})
_DM_Q3 = re.compile(r"\.dm_\d+$", re.IGNORECASE)
_SIZE = re.compile(r"^\s*(\d+)\s*([KMG]?)i?B?\s*$", re.IGNORECASE)
_NOT_REGULAR = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
                (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class LimitSettingError(ValueError):
    """A ``QDV_MAX_<KIND>_SIZE`` variable that is not a size."""


def kind_of(name: str) -> str:
    """The size-limit kind of a file name: ``"demo"``, ``"map"``, ``"pak"``, ``"pk3"`` or ``"asset"``."""
    lower = name.lower()
    if _DM_Q3.search(lower):
        return "demo"
    return _KIND_OF_EXTENSION.get(os.path.splitext(lower)[1], "asset")


def parse_size(text: str) -> int:
    """``"512M"`` → 536870912: bytes, or K/M/G (binary) units; ``ValueError`` for anything else."""
    m = _SIZE.match(text)
    if m is None:
        raise ValueError(f"{text!r}: expected a size such as 600M or 2G")
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2).upper()]


def size_limit(kind: str) -> int:
    """The largest file of ``kind`` accepted: ``QDV_MAX_<KIND>_SIZE`` if set, else :data:`SIZE_LIMITS`."""
    return limit_setting(_variable(kind), SIZE_LIMITS[kind])


def limit_setting(variable: str, default: int) -> int:
    """The environment variable ``variable`` read by :func:`parse_size` if set, else ``default``;
    :class:`LimitSettingError` naming the variable if it is not a count (every ``QDV_MAX_*`` limit and budget)."""
    text = os.environ.get(variable)
    if text is None:
        return default
    try:
        return parse_size(text)
    except ValueError as exc:
        raise LimitSettingError(f"{variable}: {exc}") from None


def check_file(path: str | os.PathLike, kind: str, max_size: int | None = None, name: str | None = None) -> int:
    """The size of ``path`` after checking, from its ``stat`` alone, that it is a regular file within the limit.

    Raises :class:`NotAFileError` (FIFO, device, socket), :class:`TooLargeError`, or ``OSError`` (missing file;
    ``IsADirectoryError`` for a directory)."""
    label = name or str(path)
    st = os.stat(path)
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    for test, what in _NOT_REGULAR:
        if test(st.st_mode):
            raise NotAFileError(label, kind, None, f"a regular {kind} file", what)
    check_size(label, kind, st.st_size, max_size)
    return st.st_size


def check_size(label: str, kind: str, size: int, max_size: int | None = None, what: str = "a file") -> None:
    """Raise :class:`TooLargeError` if ``size`` bytes exceed the limit for ``kind`` (``max_size`` if given);
    archives call it with the member's declared size before reading it (``what`` names the member)."""
    limit = size_limit(kind) if max_size is None else max_size
    if size > limit:
        raise TooLargeError(label, kind, None, _within(kind, limit, max_size), f"{what} of {size} bytes")


def _variable(kind: str) -> str:
    """``QDV_MAX_DEMO_SIZE``, ``QDV_MAX_CAMERA_PATH_SIZE``: the variable raising ``kind``'s limit."""
    return f"QDV_MAX_{kind.upper().replace(' ', '_')}_SIZE"


def _within(kind: str, limit: int, given: int | None) -> str:
    how = "" if given is not None else f" (raise it with {_variable(kind)})"
    article = "an" if kind[0] in "aeiou" else "a"
    return f"{article} {kind} file of at most {limit} bytes{how}"


def read_source(src: Source, name: str | None = None, kind: str | None = None,
                max_size: int | None = None) -> tuple[bytes, str]:
    """Return ``(data, name)``: the bytes of ``src`` and the name errors should use for it.

    A path is checked by :func:`check_file` first (``kind`` defaults to :func:`kind_of` its name) and read with
    the limit as an upper bound. Raises ``OSError`` (with the path) if it cannot be read.
    """
    if isinstance(src, (bytes, bytearray, memoryview)):
        return bytes(src), name or "<bytes>"
    path = Path(src)
    label = name or str(path)
    kind = kind or kind_of(path.name)
    limit = size_limit(kind) if max_size is None else max_size
    size = check_file(path, kind, max_size, label)
    with open(path, "rb") as f:
        data = _read_at_most(f, limit + 1, size)
    if len(data) > limit:
        raise TooLargeError(label, kind, None, _within(kind, limit, max_size), "a file holding more")
    return data, label


#: Bytes read at a time past the size a file's ``stat`` reported (a file that grows, or ``/proc``'s zero).
_CHUNK = 1 << 20


def _read_at_most(f: BinaryIO, most: int, expected: int) -> bytes:
    """Up to ``most`` bytes of ``f``: memory follows what is read, never the limit (``f.read(n)`` allocates ``n``
    bytes up front, so a limit raised to ``1000G`` asked for a terabyte even for a small demo)."""
    first = min(most, expected + 1)
    data = f.read(first)
    if len(data) < first or len(data) == most:  # the end where ``stat`` said (a regular file), or the limit
        return data
    grown = bytearray(data)
    while len(grown) < most and (chunk := f.read(min(_CHUNK, most - len(grown)))):
        grown += chunk
    return bytes(grown)
