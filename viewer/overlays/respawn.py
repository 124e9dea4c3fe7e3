"""Which entities are items that respawn, and each game's respawn time for them.

An item is named by a key: Quake's and QuakeWorld's and Quake II's by the world model the entity shows (Quake's
armour by model and skin), Quake III's by its ``bg_itemlist`` class name (an ``ET_ITEM`` entity's ``modelindex`` is
its item number). Each :class:`ItemRule` gives the short name casters use, the seconds from the pickup to the item's
return, and whether the caster's panel lists it (armour, mega health, powerups, and Quake's and Quake II's weapons;
not small health, shards or ammo).

References (deathmatch rules):

* Quake ``items.qc`` (id 1.06, QuakeWorld ``qwprogs``, KTX keep them): ``health_touch`` ``nextthink = time + 20``,
  the mega health only 20 s after its taker's health rotted back to 100 (``item_megahealth_rot``, whose first
  look is 5 s after the pickup: at least 25 s, :attr:`ItemRule.rot`); ``armor_touch`` 20; ``weapon_touch`` and
  ``ammo_touch`` 30; ``powerup_touch`` 60, 300 for the Pentagram and the Ring.
* Quake II ``g_items.c``: ``Pickup_Armor`` ``SetRespawn(ent, 20)``, ``Pickup_Health`` 30 (the mega health 20 s
  after its taker's health rotted back, ``MegaHealth_think``: at least 25 s), ``Pickup_Ammo`` 30, ``p_weapon.c``
  ``Pickup_Weapon`` 30, ``Pickup_Powerup``/``Pickup_Adrenaline``/``Pickup_Bandolier``/``Pickup_PowerArmor``:
  the item's ``quantity`` (Quad, Silencer, Rebreather, Environment Suit, Adrenaline, Bandolier, Power Screen and
  Shield 60, Invulnerability 300, Ammo Pack 180).
* Quake III ``g_items.c``: ``RESPAWN_ARMOR`` 25, ``RESPAWN_HEALTH`` 35, ``RESPAWN_MEGAHEALTH`` 35 (1.32; it was
  120 before), ``RESPAWN_AMMO`` 40, ``RESPAWN_HOLDABLE`` 60, ``RESPAWN_POWERUP`` 120, weapons ``g_weaponRespawn``
  (5 s; ``g_weaponTeamRespawn`` 30 in team games). OpenArena keeps them (its game code is Quake III's). CPMA's
  armours keep 25 s (measured on ``cpma_duel.dm_68``, CPM gameplay: the red and yellow armours come back 24.98 s
  after their pickups every time the recorder sees them come back); its mega health comes back sooner than 35 s
  (seen back 22.0 s after a pickup), a time no source at hand gives: the panel counts 35 s, and a spot the demo
  shows back reads "up" whatever the count (:meth:`~.item_timers.ItemSpot.seconds_left`).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from collections.abc import Mapping


@dataclass(frozen=True, slots=True)
class ItemRule:
    """``short`` name, ``respawn`` seconds after the pickup, ``major``: listed in the timers panel; ``rot``: the
    respawn counts from when the taker's health rotted back under the maximum (mega health), so it is a minimum."""

    short: str
    respawn: float
    major: bool = False
    rot: bool = False


def _rules(table: dict[str, tuple]) -> Mapping[str, ItemRule]:
    return MappingProxyType({key: ItemRule(*value) for key, value in table.items()})


#: Quake and QuakeWorld, by model (``progs/armor.mdl`` by skin: ``:0`` green, ``:1`` yellow, ``:2`` red).
QUAKE_ITEMS = _rules({
    "progs/armor.mdl:0": ("GA", 20.0, True), "progs/armor.mdl:1": ("YA", 20.0, True),
    "progs/armor.mdl:2": ("RA", 20.0, True),
    "maps/b_bh100.bsp": ("MH", 25.0, True, True), "maps/b_bh25.bsp": ("+25", 20.0), "maps/b_bh10.bsp": ("+15", 20.0),
    "progs/g_shot.mdl": ("SSG", 30.0), "progs/g_nail.mdl": ("NG", 30.0),
    "progs/g_nail2.mdl": ("SNG", 30.0), "progs/g_rock.mdl": ("GL", 30.0),
    "progs/g_rock2.mdl": ("RL", 30.0), "progs/g_light.mdl": ("LG", 30.0),
    "progs/quaddama.mdl": ("Quad", 60.0, True), "progs/invulner.mdl": ("Pent", 300.0, True),
    "progs/invisibl.mdl": ("Ring", 300.0, True), "progs/suit.mdl": ("Suit", 60.0, True),
    **{f"maps/b_{ammo}{size}.bsp": (ammo, 30.0) for ammo in ("shell", "nail", "rock", "batt") for size in "01"},
})

#: Quake II, by model.
_Q2 = "models/items"
QUAKE2_ITEMS = _rules({
    f"{_Q2}/armor/body/tris.md2": ("BA", 20.0, True), f"{_Q2}/armor/combat/tris.md2": ("CA", 20.0, True),
    f"{_Q2}/armor/jacket/tris.md2": ("JA", 20.0, True), f"{_Q2}/armor/shard/tris.md2": ("shard", 20.0),
    f"{_Q2}/armor/screen/tris.md2": ("PS", 60.0, True), f"{_Q2}/armor/shield/tris.md2": ("PSh", 60.0, True),
    f"{_Q2}/mega_h/tris.md2": ("MH", 25.0, True, True),
    **{f"{_Q2}/healing/{kind}/tris.md2": (kind, 30.0) for kind in ("stimpack", "medium", "large")},
    "models/weapons/g_shotg/tris.md2": ("SG", 30.0), "models/weapons/g_shotg2/tris.md2": ("SSG", 30.0),
    "models/weapons/g_machn/tris.md2": ("MG", 30.0), "models/weapons/g_chain/tris.md2": ("CG", 30.0),
    "models/weapons/g_launch/tris.md2": ("GL", 30.0), "models/weapons/g_rocket/tris.md2": ("RL", 30.0),
    "models/weapons/g_hyperb/tris.md2": ("HB", 30.0), "models/weapons/g_rail/tris.md2": ("RG", 30.0),
    "models/weapons/g_bfg/tris.md2": ("BFG", 30.0),
    f"{_Q2}/quaddama/tris.md2": ("Quad", 60.0, True), f"{_Q2}/invulner/tris.md2": ("Invuln", 300.0, True),
    f"{_Q2}/silencer/tris.md2": ("Silencer", 60.0), f"{_Q2}/breather/tris.md2": ("Rebreather", 60.0),
    f"{_Q2}/enviro/tris.md2": ("Enviro", 60.0), f"{_Q2}/adrenal/tris.md2": ("Adren", 60.0, True),
    f"{_Q2}/band/tris.md2": ("Bando", 60.0), f"{_Q2}/pack/tris.md2": ("Pack", 180.0, True),
    **{f"{_Q2}/ammo/{kind}/medium/tris.md2": (kind, 30.0) for kind in ("shells", "bullets", "cells", "slugs")},
    f"{_Q2}/ammo/grenades/medium/tris.md2": ("grenades", 30.0),
    f"{_Q2}/ammo/rockets/medium/tris.md2": ("rockets", 30.0),
})

#: Quake III (and OpenArena), by ``bg_itemlist`` class name.
QUAKE3_ITEMS = _rules({
    "item_armor_shard": ("shard", 25.0), "item_armor_combat": ("YA", 25.0, True),
    "item_armor_body": ("RA", 25.0, True), "item_armor_jacket": ("GA", 25.0, True),
    "item_health_small": ("+5", 35.0), "item_health": ("+25", 35.0), "item_health_large": ("+50", 35.0),
    "item_health_mega": ("MH", 35.0, True),
    **{f"weapon_{w}": (w, 5.0) for w in ("shotgun", "machinegun", "grenadelauncher", "rocketlauncher", "lightning",
                                          "railgun", "plasmagun", "bfg", "nailgun", "prox_launcher", "chaingun")},
    **{f"ammo_{a}": (a, 40.0) for a in ("shells", "bullets", "grenades", "cells", "lightning", "rockets", "slugs",
                                         "bfg", "nails", "mines", "belt")},
    "holdable_teleporter": ("Tele", 60.0), "holdable_medkit": ("Medkit", 60.0),
    "item_quad": ("Quad", 120.0, True), "item_enviro": ("BS", 120.0, True), "item_haste": ("Haste", 120.0, True),
    "item_invis": ("Invis", 120.0, True), "item_regen": ("Regen", 120.0, True),
    "item_flight": ("Flight", 120.0, True),
})

#: The tables by ``DemoTimeline.game``.
GAME_ITEMS: Mapping[str, Mapping[str, ItemRule]] = MappingProxyType({
    "quake": QUAKE_ITEMS, "quakeworld": QUAKE_ITEMS, "quake2": QUAKE2_ITEMS, "quake3": QUAKE3_ITEMS})


def quake_item_key(model: str, skin: int) -> str:
    """The key of a Quake entity showing ``model`` with ``skin`` (armour is one model in three skins)."""
    model = model.lower()
    return f"{model}:{skin}" if model == "progs/armor.mdl" else model
