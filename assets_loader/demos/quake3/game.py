"""What the game module's numbers mean (baseq3 / Team Arena / OpenArena ``bg_public.h``): entity types, entity
events, means of death, the item list, configstring indices and playerState array slots.

These are facts of the game code, not of the wire: the protocol layer (:mod:`.parse`) decodes numbers, the
timeline (:mod:`.timeline`, :mod:`.game_events`) reads them with these tables.  OpenArena 0.8 uses the Team Arena
(``MISSIONPACK``) variants: ``STAT_PERSISTANT_POWERUP`` in the stats, the nailgun / prox / chaingun items and
means of death.

References: ioquake3 ``code/game/bg_public.h`` (``entityType_t``, ``entity_event_t``, ``meansOfDeath_t``,
``statIndex_t``, ``persEnum_t``, ``powerup_t``, ``weapon_t``, ``EF_*``, ``EV_EVENT_BITS``), ``code/game/bg_misc.c``
(``bg_itemlist``), ``code/qcommon/q_shared.h`` (``CS_SERVERINFO``, ``CS_SYSTEMINFO``, ``MAX_CLIENTS``),
``code/cgame/cg_public.h`` / ``bg_public.h`` (``CS_MUSIC`` … ``CS_PLAYERS``).
"""

from __future__ import annotations

__all__ = [
    "CS_ITEMS", "CS_LEVEL_START_TIME", "CS_MODELS", "CS_PLAYERS", "CS_SCORES1", "CS_SCORES2", "CS_SOUNDS",
    "CS_WARMUP", "EF_DEAD", "EF_PLAYER_EVENT", "EF_TELEPORT_BIT", "ENTITYNUM_WORLD", "ET_EVENTS", "ET_INVISIBLE",
    "ET_PLAYER", "EV", "GIB_HEALTH", "GT_CTF", "GT_FFA", "GT_TEAM", "GT_TOURNAMENT", "EV_EVENT_BITS", "ITEMS",
    "MAX_CLIENTS", "MEANS_OF_DEATH", "PM_DEAD",
    "PM_INTERMISSION", "PM_SPECTATOR", "SCORE_NOT_PRESENT", "TEAM_BLUE", "TEAM_FREE", "TEAM_RED", "TEAM_SPECTATOR",
    "WEAPONS", "info_pairs", "team_number",
]

MAX_CLIENTS = 64
ENTITYNUM_WORLD = 1022

# configstrings (bg_public.h; 0 and 1 are serverinfo / systeminfo)
CS_SCORES1, CS_SCORES2 = 6, 7
#: What ``CS_SCORES1`` / ``CS_SCORES2`` hold when nobody has that place (``SCORE_NOT_PRESENT``).
SCORE_NOT_PRESENT = -9999
#: The server time the warm-up ends at (ms; negative: waiting for players; empty: no warm-up).
CS_WARMUP = 5
CS_LEVEL_START_TIME = 21
CS_ITEMS = 27
CS_MODELS = 32
CS_SOUNDS = CS_MODELS + 256
CS_PLAYERS = CS_SOUNDS + 256

# entityType_t (the ones the timeline reads)
ET_PLAYER = 1
ET_INVISIBLE = 10
ET_EVENTS = 13

#: A player whose health is this or less has been gibbed: no body is left to draw.
GIB_HEALTH = -40

# gametype_t (serverinfo g_gametype); from GT_TEAM on players are in teams
GT_FFA, GT_TOURNAMENT, GT_TEAM, GT_CTF = 0, 1, 3, 4

# pmtype_t
PM_SPECTATOR = 2
PM_DEAD = 3
PM_INTERMISSION = 5

# team_t (a player's PERS_TEAM and its CS_PLAYERS "t")
TEAM_FREE, TEAM_RED, TEAM_BLUE, TEAM_SPECTATOR = 0, 1, 2, 3

# eFlags
EF_DEAD = 0x1
EF_TELEPORT_BIT = 0x4
EF_PLAYER_EVENT = 0x10
#: The two high bits of ``event`` toggle so that the same event twice in a row is seen as new.
EV_EVENT_BITS = 0x300

#: entity_event_t numbers the timeline turns into events.
EV: dict[str, int] = {
    "JUMP_PAD": 13, "ITEM_PICKUP": 19, "GLOBAL_ITEM_PICKUP": 20, "FIRE_WEAPON": 23,
    "PLAYER_TELEPORT_IN": 42, "PLAYER_TELEPORT_OUT": 43, "BULLET_HIT_FLESH": 48, "BULLET_HIT_WALL": 49,
    "MISSILE_HIT": 50, "MISSILE_MISS": 51, "MISSILE_MISS_METAL": 52, "RAILTRAIL": 53, "SHOTGUN": 54,
    "PAIN": 56, "DEATH1": 57, "DEATH2": 58, "DEATH3": 59, "OBITUARY": 60, "GIB_PLAYER": 64,
}

#: weapon_t names (Team Arena order).
WEAPONS: tuple[str, ...] = (
    "none", "gauntlet", "machinegun", "shotgun", "grenade launcher", "rocket launcher", "lightning gun", "railgun",
    "plasma gun", "bfg", "grappling hook", "nailgun", "prox launcher", "chaingun",
)

#: meansOfDeath_t (Team Arena order) → the weapon or cause named in an obituary.
MEANS_OF_DEATH: tuple[str, ...] = (
    "unknown", "shotgun", "gauntlet", "machinegun", "grenade", "grenade splash", "rocket", "rocket splash",
    "plasma", "plasma splash", "railgun", "lightning", "bfg", "bfg splash", "water", "slime", "lava", "crush",
    "telefrag", "falling", "suicide", "target laser", "trigger hurt", "nail", "chaingun", "proximity mine",
    "kamikaze", "juiced", "grapple",
)

#: bg_itemlist class names by item index (Team Arena order; ``EV_ITEM_PICKUP``'s parameter).
ITEMS: tuple[str, ...] = (
    "", "item_armor_shard", "item_armor_combat", "item_armor_body", "item_health_small", "item_health",
    "item_health_large", "item_health_mega", "weapon_gauntlet", "weapon_shotgun", "weapon_machinegun",
    "weapon_grenadelauncher", "weapon_rocketlauncher", "weapon_lightning", "weapon_railgun", "weapon_plasmagun",
    "weapon_bfg", "weapon_grapplinghook", "ammo_shells", "ammo_bullets", "ammo_grenades", "ammo_cells",
    "ammo_lightning", "ammo_rockets", "ammo_slugs", "ammo_bfg", "holdable_teleporter", "holdable_medkit",
    "item_quad", "item_enviro", "item_haste", "item_invis", "item_regen", "item_flight", "team_CTF_redflag",
    "team_CTF_blueflag", "holdable_kamikaze", "holdable_portal", "holdable_invulnerability", "ammo_nails",
    "ammo_mines", "ammo_belt", "item_scout", "item_guard", "item_doubler", "item_ammoregen",
    "team_CTF_neutralflag", "item_redcube", "item_bluecube", "weapon_nailgun", "weapon_prox_launcher",
    "weapon_chaingun",
)


def info_pairs(info: str) -> tuple[tuple[str, str], ...]:
    """``\\\\key\\\\value\\\\…`` (serverinfo, a ``CS_PLAYERS`` string) as ``(key, value)`` pairs in order
    (``Info_ValueForKey``; a leading backslash is optional)."""
    parts = info[1:].split("\\") if info.startswith("\\") else info.split("\\")
    return tuple((parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2))


def team_number(text: str) -> int:
    """A ``CS_PLAYERS`` ``t`` value as the cgame's ``atoi`` reads it: the team, ``TEAM_FREE`` when not a number."""
    try:
        return int(text)
    except ValueError:
        return TEAM_FREE
