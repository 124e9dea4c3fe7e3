"""The pictures Quake II's HUD draws, loaded from the game filesystem once: every ``pics/*.pcx`` (keyed by its bare
name, as layout programs name them: ``i_health``, ``num_0``, ``field_3``), ``conchars`` (the font) and the players'
icons ``players/<model>/<skin>_i.pcx`` (keyed ``/players/…``, the absolute form ``Draw_FindPic`` accepts).

The font's transparent index 255 becomes 0, the index the HUD renderer keys the font on.  A broken picture is left
out with a warning naming it (the HUD then draws a placeholder).  When the game dirs lack the font or the big
digits (AQtion's pak has neither), the bundled LibreQuake sample's stand-ins fill in (:mod:`.fallback_pics`), with
one warning.

References: Quake II 3.20 ``ref_gl/gl_draw.c`` ``Draw_FindPic`` (``pics/<name>.pcx`` or an absolute path),
``Draw_InitLocal`` (``pics/conchars.pcx``).
"""

from __future__ import annotations

import warnings

from assets_loader.errors import FormatError
from assets_loader.images import Image
from assets_loader.pcx import load_pcx
from assets_loader.vfs import VirtualFS

from . import fallback_pics
from .assets import load_palette

FONT = "pics/conchars.pcx"


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


def _with_stand_ins(fs: VirtualFS, pics: dict[str, Image]) -> None:
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


def load_hud_pics(fs: VirtualFS) -> dict[str, Image]:
    """Lower-case picture name → indexed image, for every HUD picture the game dirs have, plus stand-ins for a
    missing font or digits."""
    pics: dict[str, Image] = {}
    for path in fs.list("pics/*.pcx"):
        name = path[len("pics/"):-len(".pcx")]
        if "/" in name:
            continue
        image = _load(fs, path)
        if image is not None:
            pics["conchars" if path == FONT else name] = image
    for path in fs.list("players/*_i.pcx"):
        image = _load(fs, path)
        if image is not None:
            pics["/" + path] = image
    _with_stand_ins(fs, pics)
    return pics
