"""Fuzz the model and sprite loaders: MDL and SPR (Quake), MD2 and SP2 (Quake II), MD3 (Quake III)."""

from __future__ import annotations

from assets_loader.models import load_md2, load_mdl, load_sp2, load_spr
from assets_loader.models.md3 import load_md3

from .corpus import AQ_PAK, LQ1_PAK, OA_PK3, from_pak, from_pk3
from .shared_ranges import md3_shared_block
from .engine import Target


def _mdl(data: bytes, name: str) -> object:
    model = load_mdl(data, name)
    return model.pose_at(model.num_frames - 1, 1.25), model.skin_image_at(len(model.skins) - 1, 0.5)


def _spr(data: bytes, name: str) -> object:
    sprite = load_spr(data, name)
    return sprite.image_at(sprite.num_frames - 1, 0.3)


def _md2(data: bytes, name: str) -> object:
    model = load_md2(data, name)
    return model.pose_at(model.num_frames - 1, 0.5)


def _sp2(data: bytes, name: str) -> object:
    sprite = load_sp2(data, name)
    return sprite.frame_at(len(sprite.frames) - 1) if sprite.frames else None


TARGETS = (
    Target("load_mdl", _mdl, lambda: from_pak(LQ1_PAK, "progs/bolt.mdl", "progs/armor.mdl")),
    Target("load_spr", _spr, lambda: from_pak(LQ1_PAK, "progs/s_bubble.spr", "progs/s_explod.spr")),
    Target("load_md2", _md2, lambda: from_pak(AQ_PAK, "models/items/ammo/sniper/tris.md2",
                                              "models/objects/knife/tris.md2")),
    Target("load_sp2", _sp2, lambda: from_pak(AQ_PAK, "sprites/null.sp2", "sprites/lsight.sp2")),
    Target("load_md3", load_md3, lambda: [*from_pk3(OA_PK3, "models/powerups/instant/quad_ring.md3"),
                                          ("shared_block.md3", md3_shared_block(surfaces=4, frames=8, verts=64))]),
)
