"""Fuzz the picture loaders: LMP and WAD2 (Quake), PCX and WAL (Quake II), TGA/JPG through Pillow (Quake III)."""

from __future__ import annotations

from assets_loader.images import load_lmp
from assets_loader.pcx import load_pcx
from assets_loader.truecolor import load_rgba
from assets_loader.wad2 import load_wad
from assets_loader.wal import load_wal

from .corpus import AQ_PAK, LQ1_PAK, OA_PK3, from_pak, from_pk3
from .engine import Target


def _wad(data: bytes, name: str) -> object:
    from assets_loader.errors import FormatError

    wad = load_wad(data, name)
    decoded = 0
    for lump in wad.lumps[:8]:  # every lump kind of gfx.wad sits among the first entries
        for decode in (wad.pic, wad.miptex):
            try:
                decode(lump.name)
                decoded += 1
            except FormatError:
                pass
    return decoded


TARGETS = (
    Target("load_lmp", load_lmp, lambda: from_pak(LQ1_PAK, "gfx/box_bl.lmp", "gfx/sell.lmp")),
    Target("load_wad", _wad, lambda: from_pak(LQ1_PAK, "gfx.wad")),
    Target("load_pcx", load_pcx, lambda: from_pak(AQ_PAK, "sprites/null.pcx", "sprites/lsight.pcx")),
    Target("load_wal", load_wal, lambda: from_pak(AQ_PAK, "textures/wizardext/wlight8_2.wal")),
    Target("load_rgba", load_rgba, lambda: from_pk3(OA_PK3, "textures/sfx/130boom/dpexplosion4_0000.tga",
                                                    "gfx/2d/backtile.jpg")),
)
