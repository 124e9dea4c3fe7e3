"""Quake III images: TGA/JPG/PNG files decoded to RGBA (:func:`~assets_loader.truecolor.load_rgba`), found by
name with the engine's extension fallback, and the engine's placeholder for a missing image.

Quake III uploads images top row first and its texture ``t`` grows downwards, so the decoded rows can be uploaded
as they are and sampled with the map's and models' ``st`` unchanged.

A missing name warns once per :class:`ImageLoader` and resolves to :func:`default_image`, the 16×16 dark grid
cell with a white border that ``R_CreateDefaultImage`` makes so mapping coordinates stay visible. One loader serves
a map and its models, so it holds their total texture budget (``map_texture_pixels``, :mod:`assets_loader.budgets`,
counted from each header before decoding): an image past it is not decoded and draws the default grid too, with
one warning for the first such image.

References: ioquake3 ``renderergl1/tr_image.c`` (``R_LoadImage``, ``R_FindImageFile``, ``R_CreateDefaultImage``);
``renderercommon/tr_image_tga.c``, ``tr_image_jpg.c``.
"""

from __future__ import annotations

import warnings

import numpy as np

from .budgets import budget, variable
from .errors import FormatError, OverBudgetError
from .truecolor import load_rgba
from .vfs import VirtualFS

DEFAULT_SIZE = 16


def default_image() -> np.ndarray:
    """``R_CreateDefaultImage``: RGBA ``[16, 16, 4]``, grey 32 inside a white one-pixel border."""
    img = np.full((DEFAULT_SIZE, DEFAULT_SIZE, 4), 32, np.uint8)
    img[0, :] = img[-1, :] = img[:, 0] = img[:, -1] = 255
    return img


class ImageLoader:
    """Decodes images from ``fs`` once each; records and warns once about each missing or broken name."""

    def __init__(self, fs: VirtualFS) -> None:
        self.fs = fs
        self.images: dict[str, np.ndarray] = {}
        self.missing: list[str] = []
        self.pixels = 0
        self.over_budget: list[str] = []

    def _spend(self, name: str, pixels: int) -> None:
        """Count an image's ``pixels`` against the total budget before it is decoded (raise past it)."""
        limit = budget("map_texture_pixels")
        if self.pixels + pixels > limit:
            self.over_budget.append(name)
            raise OverBudgetError(name, "images", None, f"at most {limit} texture pixels for a map and its models "
                                  f"(raise it with {variable('map_texture_pixels')})",
                                  f"{self.pixels + pixels} texture pixels with this image")
        self.pixels += pixels

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
                pixels = load_rgba(self.fs.read(found), found, self._spend)
            except FormatError as exc:
                warned = len(self.over_budget) > 1 and self.over_budget[-1] == found  # at the first one past it
                if not warned:
                    warnings.warn(f"{exc}; drawing the default grid", stacklevel=2)
                self.missing.append(key)
                pixels = default_image()
        self.images[key] = pixels
        return pixels
