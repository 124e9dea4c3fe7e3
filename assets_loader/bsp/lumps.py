"""A BSP file's lump directory: every lump checked to lie inside the file, read as numpy records on demand.

Quake (15 lumps after a 4-byte version) and Quake II (19 lumps after ``"IBSP"`` and the version) share the
``lump_t`` entry (file offset, length); :class:`LumpReader` reads either and names the file, the format, the
lump and the byte offset in every error.

References: Quake ``bspfile.h`` / Quake II ``qfiles.h`` (``lump_t``, ``dheader_t``); ``Mod_LoadBrushModel`` and
``CM_LoadMap``, which check each lump's size against its record size.
"""

from __future__ import annotations

import numpy as np

from ..errors import BadIndexError, TruncatedError
from .dtypes import D_LUMP


class LumpReader:
    """The ``names``-long lump directory at ``dir_offset`` of ``data`` (file ``path``, format ``version``)."""

    def __init__(self, data: bytes, path: str, version: str, names: tuple[str, ...], dir_offset: int) -> None:
        self.data = data
        self.path = path
        self.version = version
        self.names = names
        self.dir_offset = dir_offset
        size = len(data)
        if size < dir_offset + D_LUMP.itemsize * len(names):
            raise TruncatedError(path, version, dir_offset, f"{len(names)} lump entries", f"{size - dir_offset} bytes")
        lumps = np.frombuffer(data, D_LUMP, len(names), dir_offset)
        ofs = lumps["fileofs"].astype(np.int64)
        lens = lumps["filelen"].astype(np.int64)
        bad = (ofs < 0) | (lens < 0) | (ofs + lens > size)
        if bad.any():
            i = int(np.argmax(bad))
            raise TruncatedError(path, version, dir_offset + D_LUMP.itemsize * i,
                                 f"the {names[i]} lump inside the file (size {size})",
                                 f"offset {int(ofs[i])} length {int(lens[i])}")
        self.ofs: list[int] = ofs.tolist()
        self.lens: list[int] = lens.tolist()

    def lump(self, index: int, dtype: np.dtype) -> np.ndarray:
        """Lump ``index`` as an array of ``dtype`` records (a read-only view)."""
        dtype = np.dtype(dtype)
        length = self.lens[index]
        if length % dtype.itemsize:
            raise TruncatedError(self.path, self.version, self.dir_offset + D_LUMP.itemsize * index + 4,
                                 f"a {self.names[index]} lump size that is a multiple of {dtype.itemsize}",
                                 str(length))
        return np.frombuffer(self.data, dtype, length // dtype.itemsize, self.ofs[index])

    def raw(self, index: int) -> memoryview:
        return memoryview(self.data)[self.ofs[index]:self.ofs[index] + self.lens[index]]

    def bad_index(self, index: int, dtype: np.dtype, bad: np.ndarray | np.bool_, field: str, expected: str,
                  values) -> None:
        """Raise ``BadIndexError`` for the first record flagged in ``bad`` (no-op if none)."""
        if not np.any(bad):
            return
        i = int(np.argmax(bad))
        dtype = np.dtype(dtype)
        field_ofs = dtype.fields[field][1] if dtype.fields and field in dtype.fields else 0
        raise BadIndexError(self.path, self.version, self.ofs[index] + i * dtype.itemsize + field_ofs,
                            f"{self.names[index]}[{i}].{field} {expected}", str(values[i]))
