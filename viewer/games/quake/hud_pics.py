"""The pictures Quake's HUD draws, loaded from the game filesystem once: the qpics of ``gfx.wad`` (``sbar``,
``num_0`` …), its ``conchars`` font and the ``gfx/*.lmp`` pictures the overlays centre (``gfx/ranking.lmp`` …).

They are handed by name to :class:`viewer.render.hud_overlay.HudRenderer`, which reads no files. A file the game
dirs lack leaves its pictures out (the HUD draws a visible placeholder); a broken picture is left out with a
warning naming it (docs/DESIGN.md, "Errors and bad input").

References: QuakeSpasm ``gl_draw.c`` (``Draw_Init``: ``W_LoadWadFile("gfx.wad")``, ``Draw_PicFromWad``,
``Draw_CachePic``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import partial

from assets_loader.errors import FormatError
from assets_loader.images import Image, load_lmp
from assets_loader.vfs import VirtualFS
from assets_loader.wad2 import CONCHARS_NAME, TYP_CONPIC, TYP_QPIC, load_wad

from .hud import DEFAULT_LMP_SIZES

WAD_PATH = "gfx.wad"
#: The ``gfx/*.lmp`` pictures :func:`viewer.games.quake.hud.build_hud` may draw.
LMP_PICS = tuple(DEFAULT_LMP_SIZES)


def _add(pics: dict[str, Image], name: str, load: Callable[[], Image]) -> None:
    try:
        pics[name] = load()
    except FormatError as exc:
        warnings.warn(f"{exc}; the HUD draws a placeholder for {name!r}", stacklevel=2)


def load_hud_pics(fs: VirtualFS) -> dict[str, Image]:
    """Lower-case picture name → indexed image, for every HUD picture the game dirs have."""
    pics: dict[str, Image] = {}
    if fs.exists(WAD_PATH):
        wad = load_wad(fs.read(WAD_PATH), WAD_PATH)
        for lump in wad.lumps:
            if lump.type in (TYP_QPIC, TYP_CONPIC) or lump.name == CONCHARS_NAME:
                _add(pics, lump.name, partial(wad.pic, lump.name))
    for path in LMP_PICS:
        if fs.exists(path):
            _add(pics, path, partial(_load_lmp, fs, path))
    return pics


def _load_lmp(fs: VirtualFS, path: str) -> Image:
    return load_lmp(fs.read(path), path)
