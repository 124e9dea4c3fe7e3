"""The pictures Quake II's HUD draws, loaded from the game filesystem once: every ``pics/*.pcx`` (keyed by its bare
name, as layout programs name them: ``i_health``, ``num_0``, ``field_3``), ``conchars`` (the font) and the players'
icons ``players/<model>/<skin>_i.pcx`` (keyed ``/players/…``, the absolute form ``Draw_FindPic`` accepts).

The font's transparent index 255 becomes 0, the index the HUD renderer keys the font on.  A picture with a
truecolour replacement beside it (``.png``, then ``.jpg``, then ``.tga``: Q2PRO's ``r_override_textures 1``,
AQtion's icons with their own alpha) is that RGBA picture, area-averaged to the ``.pcx``'s size when there is one
(Q2PRO draws a replacement at the size of the picture it replaces, filtered linearly: ``gl_bilerp_pics 1``); the
font keeps its ``.pcx``.  A broken picture is left out with a warning naming it (the HUD then draws a
placeholder).  When the game dirs lack the font or the big
digits (AQtion's pak has neither), the bundled LibreQuake sample's stand-ins fill in (:mod:`.fallback_pics`), with
one warning.

References: Quake II 3.20 ``ref_gl/gl_draw.c`` ``Draw_FindPic`` (``pics/<name>.pcx`` or an absolute path),
``Draw_InitLocal`` (``pics/conchars.pcx``); Q2PRO ``src/refresh/images.c`` (``load_image_data``,
``try_other_formats``, ``need_override_image``), ``src/refresh/texture.c`` (``GL_SetFilterAndRepeat``).
"""

from __future__ import annotations

import warnings

import numpy as np
from PIL import Image as PilImage

from assets_loader.errors import FormatError
from assets_loader.images import Image
from assets_loader.pcx import load_pcx
from assets_loader.truecolor import load_rgba
from assets_loader.vfs import VirtualFS

from . import fallback_pics
from .assets import load_palette

FONT = "pics/conchars.pcx"
#: Q2PRO's ``r_texture_formats``: the truecolour replacements tried, in order.
REPLACEMENTS = (".png", ".jpg", ".tga")
HudPic = Image | np.ndarray


def _load(fs: VirtualFS, path: str) -> Image | None:
    try:
        pcx = load_pcx(fs.read(path), path)
    except FormatError as exc:
        warnings.warn(f"{exc}; the HUD draws a placeholder for it", stacklevel=3)
        return None
    indices = pcx.indices
    if path == FONT:
        indices = indices.copy()
        indices[indices == 255] = 0
    return Image(pcx.width, pcx.height, indices)


def _with_stand_ins(fs: VirtualFS, pics: dict[str, HudPic]) -> None:
    """Add the sample's font and digits the game dirs lack, warning once (or once that they cannot be read)."""
    missing = fallback_pics.missing_names(pics)
    if not missing:
        return
    what = fallback_pics.described(missing)
    try:
        pics.update(fallback_pics.fallback_pics(missing, load_palette(fs)))
    except (FormatError, OSError) as exc:
        warnings.warn(f"the game dirs lack {what} and the stand-ins cannot be read ({exc}); "
                      "the HUD draws placeholders for them", stacklevel=3)
        return
    warnings.warn(f"the game dirs lack {what}; the HUD uses the LibreQuake sample's font and digits",
                  stacklevel=3)


def _replacement(fs: VirtualFS, stem: str, size: tuple[int, int] | None) -> np.ndarray | None:
    """The truecolour picture that replaces ``stem``, area-averaged to ``size`` (``None``: its own), or ``None``."""
    found = next((stem + ext for ext in REPLACEMENTS if fs.exists(stem + ext)), None)
    if found is None:
        return None
    try:
        rgba = load_rgba(fs.read(found), found)
    except FormatError as exc:
        warnings.warn(f"{exc}; the HUD draws the 8-bit picture instead", stacklevel=3)
        return None
    if size is None or size == (rgba.shape[1], rgba.shape[0]):
        return np.asarray(rgba)
    return np.asarray(PilImage.fromarray(np.ascontiguousarray(rgba)).resize(size, PilImage.Resampling.BOX))


def load_hud_pics(fs: VirtualFS) -> dict[str, HudPic]:
    """Lower-case picture name → indexed image or RGBA replacement, for every HUD picture the game dirs have, plus
    stand-ins for a missing font or digits."""
    pics: dict[str, HudPic] = {}
    stems = {path[:path.rfind(".")] for ext in (".pcx", *REPLACEMENTS) for path in fs.list(f"pics/*{ext}")}
    for stem in sorted(stems):
        name = stem[len("pics/"):]
        if "/" in name:
            continue
        image = _load(fs, stem + ".pcx") if fs.exists(stem + ".pcx") else None
        if stem + ".pcx" == FONT:
            if image is not None:
                pics["conchars"] = image
            continue
        replaced = _replacement(fs, stem, (image.width, image.height) if image is not None else None)
        if replaced is not None:
            pics[name] = replaced
        elif image is not None:
            pics[name] = image
    for path in fs.list("players/*_i.pcx"):
        image = _load(fs, path)
        if image is not None:
            pics["/" + path] = image
    _with_stand_ins(fs, pics)
    return pics
