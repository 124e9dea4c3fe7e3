"""Writing files the user asked for (pictures, cut demos) that never overwrite what the user already has."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import numpy as np
from PIL import Image

from .file_writes import open_new


class ExportError(OSError):
    """A file could not be written where the user asked."""


def write_png(path: str | Path, pixels: np.ndarray, force: bool = False) -> Path:
    """Write ``uint8 [H, W, 3]`` ``pixels`` to ``path`` as a PNG (:func:`write_new`)."""
    return write_new(path, lambda f: Image.fromarray(pixels, "RGB").save(f, format="PNG"), force)


def write_new(path: str | Path, write: Callable[[BinaryIO], object], force: bool = False) -> Path:
    """Create ``path`` (and its folder) and let ``write`` fill it; refuse to overwrite an existing file unless
    ``force``. Any failure to write (a directory in the way, a full disk, no permission) is an :class:`ExportError`
    whose message names the path; a partly written file is removed. A symbolic link at ``path`` is never written
    through (:func:`~viewer.file_writes.open_new`)."""
    path = Path(path)
    if path.exists() and not force:
        raise ExportError(f"{path}: already exists (use --force to overwrite)")
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open_new(path, force) as f:
            write(f)
    except FileExistsError:
        raise ExportError(f"{path}: already exists (use --force to overwrite)") from None
    except IsADirectoryError:
        raise ExportError(f"{path}: is a directory, expected a file name") from None
    except OSError as exc:
        if path.is_file():
            path.unlink()
        raise ExportError(f"{path}: cannot write: {exc.strerror or exc}") from None
    return path


def next_numbered_path(folder: str | Path, stem: str = "qdv", suffix: str = ".png") -> Path:
    """The first free ``folder/stemNNNN.png`` (numbered from 0000), never an existing file."""
    folder = Path(folder)
    n = 0
    while (candidate := folder / f"{stem}{n:04d}{suffix}").exists():
        n += 1
    return candidate
