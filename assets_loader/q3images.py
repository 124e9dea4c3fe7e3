"""Quake III images: TGA/JPG/PNG files decoded to RGBA through Pillow, found by name with the engine's extension
fallback, and the engine's placeholder for a missing image.

A missing name warns once per :class:`ImageLoader` and resolves to :func:`default_image`, the 16×16 dark grid
cell with a white border that ``R_CreateDefaultImage`` makes so mapping coordinates stay visible.

References: ioquake3 ``renderergl1/tr_image.c`` (``R_LoadImage``, ``R_FindImageFile``, ``R_CreateDefaultImage``);
``renderercommon/tr_image_tga.c``, ``tr_image_jpg.c``.
"""

from __future__ import annotations

import io
import warnings

import numpy as np
from PIL import Image, UnidentifiedImageError

from .errors import FormatError
from .images import MAX_IMAGE_SIDE
from .vfs import VirtualFS

DEFAULT_SIZE = 16


def default_image() -> np.ndarray:
    """``R_CreateDefaultImage``: RGBA ``[16, 16, 4]``, grey 32 inside a white one-pixel border."""
    img = np.full((DEFAULT_SIZE, DEFAULT_SIZE, 4), 32, np.uint8)
    img[0, :] = img[-1, :] = img[:, 0] = img[:, -1] = 255
    return img


def decode_image(data: bytes, name: str) -> np.ndarray:
    """RGBA uint8 ``[H, W, 4]`` with row 0 at the top, from TGA, JPEG, PNG, PCX or BMP bytes.

    Quake III uploads images top row first and its texture ``t`` grows downwards, so these rows can be uploaded
    as they are and sampled with the map's and models' ``st`` unchanged."""
    try:
        with Image.open(io.BytesIO(data)) as im:
            w, h = im.size
            if not (0 < w <= MAX_IMAGE_SIDE and 0 < h <= MAX_IMAGE_SIDE):
                raise FormatError(name, "image", 0, f"a size up to {MAX_IMAGE_SIDE}", f"{w}x{h}")
            return np.asarray(im.convert("RGBA"))
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, Image.DecompressionBombError) as exc:
        raise FormatError(name, "image", None, "a TGA, JPEG or PNG image", str(exc)) from None


class ImageLoader:
    """Decodes images from ``fs`` once each; records and warns once about each missing or broken name."""

    def __init__(self, fs: VirtualFS) -> None:
        self.fs = fs
        self.images: dict[str, np.ndarray] = {}
        self.missing: list[str] = []

    def load(self, name: str) -> np.ndarray:
        """The RGBA pixels for image ``name`` (any extension), or the placeholder if it cannot be had."""
        key = name.lower()
        if key in self.images:
            return self.images[key]
        found = self.fs.find_image(name)
        if found is None:
            warnings.warn(f"image {name!r} not found; drawing the default grid", stacklevel=2)
            self.missing.append(key)
            pixels = default_image()
        else:
            try:
                pixels = decode_image(self.fs.read(found), found)
            except FormatError as exc:
                warnings.warn(f"{exc}; drawing the default grid", stacklevel=2)
                self.missing.append(key)
                pixels = default_image()
        self.images[key] = pixels
        return pixels
