"""The item the viewed player picked up last, in the lower left (``CG_DrawPickupItem``): the item's icon 48 units
square at x 8, y 384 and its pickup name in 16-unit shadowed letters beside it, for 3 s after the pickup, the icon
fading in the last 0.2 s (the name stays opaque: the cgame passes ``fadeColor[0]``, always 1, as its alpha).  Not
while the viewed player is dead, nor once the weapon select has shown since the pickup (``CG_DrawWeaponSelect``
clears ``cg.itemPickupTime``).

References: OpenArena gamecode ``code/cgame/cg_draw.c`` (``CG_DrawPickupItem``, ``CG_DrawLowerLeft``),
``cg_event.c`` (``CG_ItemPickup``), ``cg_weapons.c`` (``CG_DrawWeaponSelect``), ``code/game/bg_misc.c``
(``bg_itemlist``: icons and pickup names).
"""

from __future__ import annotations

from .screen import VirtualScreen

__all__ = ["ITEM_ICONS", "PICKUP_TIME", "draw_pickup_item"]

PICKUP_TIME = 3.0
ICON_SIZE = 48
#: ``bg_itemlist``: class name → (icon, pickup name).
ITEM_ICONS: dict[str, tuple[str, str]] = {
    "item_armor_shard": ("icons/iconr_shard", "Armor Shard"),
    "item_armor_combat": ("icons/iconr_yellow", "Armor"),
    "item_armor_body": ("icons/iconr_red", "Heavy Armor"),
    "item_health_small": ("icons/iconh_green", "5 Health"),
    "item_health": ("icons/iconh_yellow", "25 Health"),
    "item_health_large": ("icons/iconh_red", "50 Health"),
    "item_health_mega": ("icons/iconh_mega", "Mega Health"),
    "weapon_gauntlet": ("icons/iconw_gauntlet", "Gauntlet"),
    "weapon_shotgun": ("icons/iconw_shotgun", "Shotgun"),
    "weapon_machinegun": ("icons/iconw_machinegun", "Machinegun"),
    "weapon_grenadelauncher": ("icons/iconw_grenade", "Grenade Launcher"),
    "weapon_rocketlauncher": ("icons/iconw_rocket", "Rocket Launcher"),
    "weapon_lightning": ("icons/iconw_lightning", "Lightning Gun"),
    "weapon_railgun": ("icons/iconw_railgun", "Railgun"),
    "weapon_plasmagun": ("icons/iconw_plasma", "Plasma Gun"),
    "weapon_bfg": ("icons/iconw_bfg", "BFG10K"),
    "weapon_grapplinghook": ("icons/iconw_grapple", "Grappling Hook"),
    "ammo_shells": ("icons/icona_shotgun", "Shells"),
    "ammo_bullets": ("icons/icona_machinegun", "Bullets"),
    "ammo_grenades": ("icons/icona_grenade", "Grenades"),
    "ammo_cells": ("icons/icona_plasma", "Cells"),
    "ammo_lightning": ("icons/icona_lightning", "Lightning"),
    "ammo_rockets": ("icons/icona_rocket", "Rockets"),
    "ammo_slugs": ("icons/icona_railgun", "Slugs"),
    "ammo_bfg": ("icons/icona_bfg", "Bfg Ammo"),
    "holdable_teleporter": ("icons/teleporter", "Personal Teleporter"),
    "holdable_medkit": ("icons/medkit", "Medkit"),
    "item_quad": ("icons/quad", "Quad Damage"),
    "item_enviro": ("icons/envirosuit", "Battle Suit"),
    "item_haste": ("icons/haste", "Speed"),
    "item_invis": ("icons/invis", "Invisibility"),
    "item_regen": ("icons/regen", "Regeneration"),
    "item_flight": ("icons/flight", "Flight"),
    "team_CTF_redflag": ("icons/iconf_red1", "Red Flag"),
    "team_CTF_blueflag": ("icons/iconf_blu1", "Blue Flag"),
    "holdable_kamikaze": ("icons/kamikaze", "Kamikaze"),
    "holdable_portal": ("icons/portal", "Portal"),
    "holdable_invulnerability": ("icons/invulnerability", "Invulnerability"),
    "ammo_nails": ("icons/icona_nailgun", "Nails"),
    "ammo_mines": ("icons/icona_proxlauncher", "Proximity Mines"),
    "ammo_belt": ("icons/icona_chaingun", "Chaingun Belt"),
    "item_scout": ("icons/scout", "Scout"),
    "item_guard": ("icons/guard", "Guard"),
    "item_doubler": ("icons/doubler", "Doubler"),
    "item_ammoregen": ("icons/ammo_regen", "Ammo Regen"),
    "team_CTF_neutralflag": ("icons/iconf_neutral1", "Neutral Flag"),
    "item_redcube": ("icons/iconh_rorb", "Red Cube"),
    "item_bluecube": ("icons/iconh_borb", "Blue Cube"),
    "weapon_nailgun": ("icons/iconw_nailgun", "Nailgun"),
    "weapon_prox_launcher": ("icons/iconw_proxlauncher", "Prox Launcher"),
    "weapon_chaingun": ("icons/iconw_chaingun", "Chaingun"),
}


def draw_pickup_item(screen: VirtualScreen, item: str, alpha: float) -> None:
    """Item ``item`` (a ``bg_itemlist`` class name; nothing for one not listed) with its icon at ``alpha``."""
    found = ITEM_ICONS.get(item)
    if found is None or alpha <= 0:
        return
    icon, name = found
    y = 480 - 2 * ICON_SIZE
    screen.pic(icon, 8, y, ICON_SIZE, ICON_SIZE, alpha=alpha)
    screen.text(name, ICON_SIZE + 16, y + ICON_SIZE / 2 - 8, 16, 16, shadow=True)
