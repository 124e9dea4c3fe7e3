"""A bounds-checked little-endian cursor over a ``memoryview`` (docs/DESIGN.md, style rule 3).

Every read checks the remaining bytes first and raises :class:`~assets_loader.errors.TruncatedError`
naming the file, format and offset, so corrupt counts never turn into ``struct.error`` or huge allocations.
"""

from __future__ import annotations

import struct

import numpy as np
import numpy.typing as npt

from .errors import BadIndexError, TruncatedError

_U16 = struct.Struct("<H")
_S32 = struct.Struct("<i")
_U32 = struct.Struct("<I")


class BinReader:
    """Sequential reader over ``data`` for format ``fmt`` of file ``path``."""

    __slots__ = ("raw", "data", "pos", "path", "fmt")

    def __init__(self, data: bytes | bytearray | memoryview, path: str = "<bytes>", fmt: str = "data", pos: int = 0):
        self.raw = data if isinstance(data, bytes) else bytes(data)
        self.data = memoryview(self.raw)
        self.pos = pos
        self.path = path
        self.fmt = fmt

    def __len__(self) -> int:
        return len(self.data)

    @property
    def remaining(self) -> int:
        return len(self.data) - self.pos

    def need(self, size: int, what: str) -> None:
        """Raise ``TruncatedError`` unless ``size`` more bytes are available."""
        if size < 0 or self.pos + size > len(self.data):
            raise TruncatedError(self.path, self.fmt, self.pos, f"{size} bytes of {what}",
                                 f"{max(self.remaining, 0)} bytes left")

    def check_count(self, count: int, item_size: int, what: str) -> None:
        """Raise unless ``count`` items of ``item_size`` bytes fit in the rest of the data."""
        if count < 0:
            raise BadIndexError(self.path, self.fmt, self.pos, f"a non-negative count of {what}", str(count))
        self.need(count * item_size, what)

    def check_ranges(self, fields) -> None:
        """Raise ``BadIndexError`` for the first ``(offset, what, value, low, high)`` of ``fields`` whose value lies
        outside ``low..high`` (``high`` ``None``: no upper bound); ``offset`` is where the field sits."""
        for offset, what, value, low, high in fields:
            if value < low or (high is not None and value > high):
                bound = f"{low}..{high}" if high is not None else f">= {low}"
                raise BadIndexError(self.path, self.fmt, offset, f"a {what} {bound}", str(value))

    def seek(self, pos: int) -> None:
        if not 0 <= pos <= len(self.data):
            raise TruncatedError(self.path, self.fmt, pos, "an offset inside the file", f"size {len(self.data)}")
        self.pos = pos

    def _unpack(self, st: struct.Struct, what: str):
        self.need(st.size, what)
        value = st.unpack_from(self.data, self.pos)[0]
        self.pos += st.size
        return value

    def u16(self, what: str = "uint16") -> int:
        return self._unpack(_U16, what)

    def s32(self, what: str = "int32") -> int:
        return self._unpack(_S32, what)

    def u32(self, what: str = "uint32") -> int:
        return self._unpack(_U32, what)

    def struct(self, st: struct.Struct, what: str) -> tuple:
        self.need(st.size, what)
        values = st.unpack_from(self.data, self.pos)
        self.pos += st.size
        return values

    def bytes(self, size: int, what: str = "bytes") -> bytes:
        self.need(size, what)
        out = bytes(self.data[self.pos:self.pos + size])
        self.pos += size
        return out

    def view(self, size: int, what: str = "bytes") -> memoryview:
        self.need(size, what)
        out = self.data[self.pos:self.pos + size]
        self.pos += size
        return out

    def fixed_string(self, size: int, what: str = "name") -> str:
        """A NUL-padded string field of ``size`` bytes."""
        raw = self.bytes(size, what)
        return raw.split(b"\0", 1)[0].decode("latin-1")

    def array(self, dtype: npt.DTypeLike, count: int, what: str) -> np.ndarray:
        """``count`` records of ``dtype`` as a read-only numpy view (no copy)."""
        dt = np.dtype(dtype)
        self.check_count(count, dt.itemsize, what)
        out = np.frombuffer(self.data, dtype=dt, count=count, offset=self.pos)
        self.pos += count * dt.itemsize
        return out

