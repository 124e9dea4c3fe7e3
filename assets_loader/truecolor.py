"""Pictures decoded to RGBA through Pillow: ``.tga``, ``.jpg``, ``.png`` (and ``.pcx``/``.bmp``, which Quake III's
image fallback also tries), row 0 at the top.

Quake II's sky boxes (``env/<sky><side>.tga``) and Quake III's textures come in these formats; Pillow decodes them
and every decoder failure becomes a :class:`~assets_loader.errors.FormatError`. Sizes are checked before the
pixels are decoded. The format named by the extension is tried first, then the others (TGA, which has no magic
number, last).

A TGA's version 2 footer is dropped before decoding: Pillow reads it and turns the alpha of pictures whose
extension area says "no alpha" opaque, while the engines read only the header and keep the pixels' alpha
(OpenArena's blood and plasma marks are such files).

References: Quake II ``LoadTGA`` (ref_gl/gl_image.c) and ``R_SetSky`` (ref_gl/gl_warp.c) for where skies come from;
ioquake3 ``R_LoadImage`` (renderergl1/tr_image.c); Pillow's TGA, JPEG, PNG, PCX and BMP plugins for the decoding.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Callable

import numpy as np
from PIL import Image as PilImage

from .budgets import check_budget
from .errors import BadIndexError, BadMagicError, TruncatedError
from .images import MAX_IMAGE_SIDE
from .source import Source, read_source

#: The last 18 bytes of a TGA 2.0 file; its footer (26 bytes) ends with them.
TGA2_SIGNATURE = b"TRUEVISION-XFILE.\x00"
TGA2_FOOTER_SIZE = 26

#: Pillow format names by file extension; the order of the values is the order tried for other names.
FORMATS = {".jpg": "JPEG", ".jpeg": "JPEG", ".png": "PNG", ".pcx": "PCX", ".bmp": "BMP", ".tga": "TGA"}


def load_rgba(src: Source, name: str | None = None, spend: Callable[[str, int], None] | None = None) -> np.ndarray:
    """Decode a TGA, JPG, PNG, PCX or BMP (bytes or a path) into read-only ``u1[height, width, 4]`` RGBA, top row
    first.

    The size comes from the header, before decoding: past the ``image_pixels`` budget
    (:mod:`assets_loader.budgets`) nothing is decoded, and ``spend(name, pixels)`` (a caller's total budget) is
    called first and may raise. Raises ``BadMagicError`` (not a picture Pillow reads), ``BadIndexError`` (a side
    above ``MAX_IMAGE_SIDE``), ``OverBudgetError``, ``TruncatedError`` (pixel data cut short or corrupt).
    """
    data, path = read_source(src, name)
    if data.endswith(TGA2_SIGNATURE) and len(data) > TGA2_FOOTER_SIZE:
        data = data[:-TGA2_FOOTER_SIZE]
    ext = path[path.rfind("."):].lower() if "." in path else ""
    formats = list(dict.fromkeys(([FORMATS[ext]] if ext in FORMATS else []) + list(FORMATS.values())))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", PilImage.DecompressionBombWarning)
            pic = PilImage.open(io.BytesIO(data), formats=formats)
    except (OSError, ValueError, SyntaxError, EOFError, PilImage.DecompressionBombWarning,
            PilImage.DecompressionBombError) as exc:
        raise BadMagicError(path, "picture", 0, f"a {formats[0]} (or {', '.join(formats[1:])}) picture",
                            str(exc)) from None
    with pic:
        width, height = pic.size
        if not (0 < width <= MAX_IMAGE_SIDE and 0 < height <= MAX_IMAGE_SIDE):
            raise BadIndexError(path, pic.format or "picture", 0, f"sides in 1..{MAX_IMAGE_SIDE}",
                                f"{width}x{height}")
        check_budget(path, pic.format or "picture", "image_pixels", width * height, "pixels in one image")
        if spend is not None:
            spend(path, width * height)
        try:
            rgba = np.asarray(pic.convert("RGBA"), dtype=np.uint8)
        except (OSError, ValueError, SyntaxError, EOFError) as exc:
            raise TruncatedError(path, pic.format or "picture", None, f"{width}x{height} pixels", str(exc)) from None
    rgba.setflags(write=False)
    return rgba
