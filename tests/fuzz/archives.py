"""Fuzz the archive readers: PAK (Quake, Quake II) and pk3 (Quake III zip), every member read back."""

from __future__ import annotations

import io
import zipfile

from assets_loader.pak import load_pak
from assets_loader.pk3 import load_pk3
from tests.builders.pak import build_pak

from .corpus import AQ_PAK, LQ1_PAK, OA_PK3, from_pak, from_pk3
from .engine import Target


def _small_pak() -> list[tuple[str, bytes]]:
    """A few files of the corpus PAKs packed again."""
    files = from_pak(LQ1_PAK, "gfx/box_bl.lmp", "progs/bolt.mdl", "progs/s_bubble.spr")
    files += from_pak(AQ_PAK, "sprites/lsight.sp2", "sprites/null.pcx")
    return [("small.pak", build_pak(dict(files)))]


def _small_pk3() -> list[tuple[str, bytes]]:
    """A small zip of real Quake III members, stored and deflated."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for i, (name, data) in enumerate(from_pk3(OA_PK3, "scripts/flaretest.shader", "gfx/2d/colorbar.jpg",
                                                  "models/players/major/lower_default.skin")):
            z.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED if i % 2 == 0 else zipfile.ZIP_STORED)
    return [("small.pk3", out.getvalue())]


def _pak(data: bytes, name: str) -> object:
    pak = load_pak(data, name)
    return [len(pak.read(e.name)) for e in pak.entries]


def _pk3(data: bytes, name: str) -> object:
    pk3 = load_pk3(data, name)
    return [len(pk3.read(e.name)) for e in pk3.entries]


TARGETS = (Target("load_pak", _pak, _small_pak), Target("load_pk3", _pk3, _small_pk3))
