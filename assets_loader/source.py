"""Accept bytes or a filesystem path wherever a loader takes a file (docs/DESIGN.md, "Python API")."""

from __future__ import annotations

import os
from pathlib import Path

Source = bytes | bytearray | memoryview | str | os.PathLike


def read_source(src: Source, name: str | None = None) -> tuple[bytes, str]:
    """Return ``(data, name)``: the bytes of ``src`` and the name errors should use for it.

    Raises ``OSError`` (with the path) if ``src`` is a path that cannot be read.
    """
    if isinstance(src, (bytes, bytearray, memoryview)):
        return bytes(src), name or "<bytes>"
    path = Path(src)
    return path.read_bytes(), name or str(path)
