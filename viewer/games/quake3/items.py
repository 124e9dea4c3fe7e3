"""Quake III items and missiles as models: the world model of each ``bg_itemlist`` entry an ``ET_ITEM`` entity
names by its ``modelindex``, the weapon models players hold, and the model a missile of each weapon flies as.

References: ioquake3 ``code/game/bg_misc.c`` (``bg_itemlist``: ``world_model[0]``), ``code/cgame/cg_weapons.c``
(``CG_RegisterWeapon``: ``missileModel``), ``code/cgame/cg_ents.c`` (``CG_Item``: rotation, ``CG_Missile``).
"""

from __future__ import annotations

from types import MappingProxyType
from collections.abc import Mapping

from assets_loader.models.q3player import WEAPON_MODELS

__all__ = ["ITEM_MODELS", "MISSILE_MODELS", "WEAPON_MODELS", "segment_models"]

_W = "models/weapons2"
_P = "models/powerups"

#: bg_itemlist index → world model (Team Arena / OpenArena order).
ITEM_MODELS: Mapping[int, str] = MappingProxyType({
    1: f"{_P}/armor/shard.md3", 2: f"{_P}/armor/armor_yel.md3", 3: f"{_P}/armor/armor_red.md3",
    4: f"{_P}/health/small_cross.md3", 5: f"{_P}/health/medium_cross.md3", 6: f"{_P}/health/large_cross.md3",
    7: f"{_P}/health/mega_cross.md3",
    8: WEAPON_MODELS[1], 9: WEAPON_MODELS[3], 10: WEAPON_MODELS[2], 11: WEAPON_MODELS[4], 12: WEAPON_MODELS[5],
    13: WEAPON_MODELS[6], 14: WEAPON_MODELS[7], 15: WEAPON_MODELS[8], 16: WEAPON_MODELS[9],
    17: WEAPON_MODELS[10],
    18: f"{_P}/ammo/shotgunam.md3", 19: f"{_P}/ammo/machinegunam.md3", 20: f"{_P}/ammo/grenadeam.md3",
    21: f"{_P}/ammo/plasmaam.md3", 22: f"{_P}/ammo/lightningam.md3", 23: f"{_P}/ammo/rocketam.md3",
    24: f"{_P}/ammo/railgunam.md3", 25: f"{_P}/ammo/bfgam.md3",
    26: f"{_P}/holdable/teleporter.md3", 27: f"{_P}/holdable/medkit.md3",
    28: f"{_P}/instant/quad.md3", 29: f"{_P}/instant/enviro.md3", 30: f"{_P}/instant/haste.md3",
    31: f"{_P}/instant/invis.md3", 32: f"{_P}/instant/regen.md3", 33: f"{_P}/instant/flight.md3",
})

#: weapon_t → the model its missile flies as (``CG_RegisterWeapon``).
MISSILE_MODELS: Mapping[int, str] = MappingProxyType({
    4: "models/ammo/grenade1.md3", 5: "models/ammo/rocket/rocket.md3",
})


def segment_models() -> tuple[str, ...]:
    """Every model the entity drawing may ask for (registered with a segment besides its configstrings)."""
    return tuple(dict.fromkeys([*ITEM_MODELS.values(), *WEAPON_MODELS.values(), *MISSILE_MODELS.values()]))
