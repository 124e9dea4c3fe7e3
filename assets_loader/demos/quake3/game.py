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

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

__all__ = [
    "CS_ITEMS", "CS_LEVEL_START_TIME", "CS_MODELS", "CS_PLAYERS", "CS_SCORES1", "CS_SCORES2", "CS_SOUNDS",
    "CS_WARMUP", "EF_DEAD", "EF_FIRING", "EF_NODRAW", "EF_PLAYER_EVENT", "EF_TELEPORT_BIT", "ENTITYNUM_WORLD",
    "ET_EVENTS", "ET_GENERAL", "ET_INVISIBLE", "ET_ITEM", "ET_MISSILE", "ET_MOVER", "ET_PLAYER", "EV", "GIB_HEALTH",
    "GT_CTF", "GT_FFA", "GT_TEAM", "GT_TOURNAMENT", "EV_EVENT_BITS", "ITEMS",
    "MAX_CLIENTS", "MEANS_OF_DEATH", "PM_DEAD",
    "PM_INTERMISSION", "PM_SPECTATOR", "SCORE_NOT_PRESENT", "TEAM_BLUE", "TEAM_FREE", "TEAM_RED", "TEAM_SPECTATOR",
    "WEAPONS", "info_pairs", "team_number", "DEFAULT_MODEL",
    "PERS_HITS", "PERS_PLAYEREVENTS", "PERS_RANK", "PERS_SCORE", "PERS_SPAWN_COUNT", "PERS_TEAM",
    "PW_BATTLESUIT", "PW_BLUEFLAG", "PW_FLIGHT", "PW_HASTE", "PW_INVIS", "PW_NEUTRALFLAG", "PW_NONE", "PW_QUAD",
    "PW_REDFLAG", "PW_REGEN",
    "WP_BFG", "WP_CHAINGUN", "WP_GAUNTLET", "WP_GRAPPLING_HOOK", "WP_GRENADE_LAUNCHER", "WP_LIGHTNING", "WP_MACHINEGUN",
    "WP_NAILGUN", "WP_NONE", "WP_PLASMAGUN", "WP_PROX_LAUNCHER", "WP_RAILGUN", "WP_ROCKET_LAUNCHER", "WP_SHOTGUN",
    "GameNumbers", "QL_GAME_TYPES", "QL_PROTOCOLS", "QL_ITEMS_73", "QL_ITEMS_90", "QL_MEANS_OF_DEATH", "QL_WEAPONS",
    "QL91_POWERUPS", "QL_PERSISTANT_AS_QUAKE3", "powerups_as_quake3",
    "Q3_GAME_TYPES", "QUAKE3_NUMBERS", "QUAKE_LIVE_73_NUMBERS", "QUAKE_LIVE_NUMBERS", "game_numbers",
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

# entityType_t
ET_GENERAL, ET_PLAYER, ET_ITEM, ET_MISSILE, ET_MOVER = 0, 1, 2, 3, 4
ET_INVISIBLE = 10
ET_EVENTS = 13

# weapon_t (Team Arena order: :data:`WEAPONS` names them)
(WP_NONE, WP_GAUNTLET, WP_MACHINEGUN, WP_SHOTGUN, WP_GRENADE_LAUNCHER, WP_ROCKET_LAUNCHER, WP_LIGHTNING, WP_RAILGUN,
 WP_PLASMAGUN, WP_BFG, WP_GRAPPLING_HOOK, WP_NAILGUN, WP_PROX_LAUNCHER, WP_CHAINGUN) = range(14)

# powerup_t (bit numbers of entityState_t.powerups)
(PW_NONE, PW_QUAD, PW_BATTLESUIT, PW_HASTE, PW_INVIS, PW_REGEN, PW_FLIGHT, PW_REDFLAG, PW_BLUEFLAG,
 PW_NEUTRALFLAG) = range(10)

#: A player whose health is this or less has been gibbed: no body is left to draw.
GIB_HEALTH = -40

# gametype_t (serverinfo g_gametype); from GT_TEAM on players are in teams
GT_FFA, GT_TOURNAMENT, GT_TEAM, GT_CTF = 0, 1, 3, 4

# pmtype_t
PM_SPECTATOR = 2
PM_DEAD = 3
PM_INTERMISSION = 5
#: ``pm_flags`` bit of a spectator's playerState copied from the client it follows (Quake Live keeps ``PM_SPECTATOR``).
PMF_FOLLOW = 4096

# persEnum_t (playerState_t.persistant indexes, the ones read here)
PERS_SCORE, PERS_HITS, PERS_RANK, PERS_TEAM, PERS_SPAWN_COUNT, PERS_PLAYEREVENTS = range(6)

#: ``DEFAULT_MODEL`` of the baseq3 cgame (``cg_local.h``; OpenArena's is the same): the player model (and its
#: sounds) of a player whose own is missing.
DEFAULT_MODEL = "sarge"

# team_t (a player's PERS_TEAM and its CS_PLAYERS "t")
TEAM_FREE, TEAM_RED, TEAM_BLUE, TEAM_SPECTATOR = 0, 1, 2, 3

# eFlags
EF_DEAD = 0x1
EF_TELEPORT_BIT = 0x4
EF_PLAYER_EVENT = 0x10
EF_NODRAW = 0x80
EF_FIRING = 0x100
#: The two high bits of ``event`` toggle so that the same event twice in a row is seen as new.
EV_EVENT_BITS = 0x300

#: entity_event_t numbers by name (Team Arena order), all of them: the timeline and the sound rules
#: (:mod:`.sound_events`) read them by these names.
EV: Mapping[str, int] = MappingProxyType({name: i for i, name in enumerate((
    "NONE", "FOOTSTEP", "FOOTSTEP_METAL", "FOOTSPLASH", "FOOTWADE", "SWIM", "STEP_4", "STEP_8", "STEP_12", "STEP_16",
    "FALL_SHORT", "FALL_MEDIUM", "FALL_FAR", "JUMP_PAD", "JUMP", "WATER_TOUCH", "WATER_LEAVE", "WATER_UNDER",
    "WATER_CLEAR", "ITEM_PICKUP", "GLOBAL_ITEM_PICKUP", "NOAMMO", "CHANGE_WEAPON", "FIRE_WEAPON",
    *(f"USE_ITEM{i}" for i in range(16)), "ITEM_RESPAWN", "ITEM_POP", "PLAYER_TELEPORT_IN", "PLAYER_TELEPORT_OUT",
    "GRENADE_BOUNCE", "GENERAL_SOUND", "GLOBAL_SOUND", "GLOBAL_TEAM_SOUND", "BULLET_HIT_FLESH", "BULLET_HIT_WALL",
    "MISSILE_HIT", "MISSILE_MISS", "MISSILE_MISS_METAL", "RAILTRAIL", "SHOTGUN", "BULLET", "PAIN", "DEATH1",
    "DEATH2", "DEATH3", "OBITUARY", "POWERUP_QUAD", "POWERUP_BATTLESUIT", "POWERUP_REGEN", "GIB_PLAYER",
    "SCOREPLUM", "PROXIMITY_MINE_STICK", "PROXIMITY_MINE_TRIGGER", "KAMIKAZE", "OBELISKEXPLODE", "OBELISKPAIN",
    "INVUL_IMPACT", "JUICED", "LIGHTNINGBOLT", "DEBUG_LINE", "STOPLOOPINGSOUND", "TAUNT"))})

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


# --- per game: Quake III (66/67/68/71) or Quake Live (73/90/91) ---------------------------------------------------

#: The demo protocols of Quake Live.
QL_PROTOCOLS = frozenset({73, 90, 91})

#: Quake Live's gametype_t (serverinfo ``g_gametype``; WolfcamQL ``bg_public.h``): race takes single player's 2,
#: clan arena moves CTF to 5.
QL_GAME_TYPES: Mapping[int, str] = MappingProxyType({
    0: "free for all", 1: "duel", 2: "race", 3: "team deathmatch", 4: "clan arena", 5: "capture the flag",
    6: "one flag ctf", 7: "overload", 8: "harvester", 9: "freeze tag", 10: "domination", 11: "attack & defend",
    12: "red rover"})
Q3_GAME_TYPES: Mapping[int, str] = MappingProxyType({
    0: "free for all", 1: "tournament", 2: "single player", 3: "team deathmatch", 4: "capture the flag",
    5: "one flag ctf", 6: "overload", 7: "harvester"})

#: Quake Live's entity_event_t, all of it (WolfcamQL ``bg_public.h``, UDT ``look_up_tables.cpp``
#: ``EntityEvents_73p``; the same for 73, 90 and 91): the four step events are gone, so most numbers are 4 lower
#: than Quake III's; ``DROP_WEAPON`` comes before the fire event, 15 ``USE_ITEM``s, then ``DROWN``, armour regen,
#: the taunts, and from 81 Quake Live's own (overtime, game over, thaw, race, damage plums, awards…).  Names that
#: Quake III also has mean the same event.
_QL_EV: dict[str, int] = {name: i for i, name in enumerate((
    "NONE", "FOOTSTEP", "FOOTSTEP_METAL", "FOOTSPLASH", "FOOTWADE", "SWIM", "FALL_SHORT", "FALL_MEDIUM", "FALL_FAR",
    "JUMP_PAD", "JUMP", "WATER_TOUCH", "WATER_LEAVE", "WATER_UNDER", "WATER_CLEAR", "ITEM_PICKUP",
    "GLOBAL_ITEM_PICKUP", "NOAMMO", "CHANGE_WEAPON", "DROP_WEAPON", "FIRE_WEAPON",
    *(f"USE_ITEM{i}" for i in range(15)), "UNUSED_24", "ITEM_RESPAWN", "ITEM_POP", "PLAYER_TELEPORT_IN",
    "PLAYER_TELEPORT_OUT", "GRENADE_BOUNCE", "GENERAL_SOUND", "GLOBAL_SOUND", "GLOBAL_TEAM_SOUND",
    "BULLET_HIT_FLESH", "BULLET_HIT_WALL", "MISSILE_HIT", "MISSILE_MISS", "MISSILE_MISS_METAL", "RAILTRAIL",
    "SHOTGUN", "UNUSED_34", "PAIN", "DEATH1", "DEATH2", "DEATH3", "DROWN", "OBITUARY", "POWERUP_QUAD",
    "POWERUP_BATTLESUIT", "POWERUP_REGEN", "POWERUP_ARMORREGEN", "GIB_PLAYER", "SCOREPLUM",
    "PROXIMITY_MINE_STICK", "PROXIMITY_MINE_TRIGGER", "KAMIKAZE", "OBELISKEXPLODE", "OBELISKPAIN", "INVUL_IMPACT",
    "JUICED", "LIGHTNINGBOLT", "DEBUG_LINE", "TAUNT", "TAUNT_YES", "TAUNT_NO", "TAUNT_FOLLOWME", "TAUNT_GETFLAG",
    "TAUNT_GUARDBASE", "TAUNT_PATROL", "FOOTSTEP_SNOW", "FOOTSTEP_WOOD", "ITEM_PICKUP_SPEC", "OVERTIME", "GAMEOVER",
    "MISSILE_MISS_DMGTHROUGH", "THAW_PLAYER", "THAW_TICK", "SHOTGUN_KILL", "POI", "UNUSED_5B",
    "LIGHTNING_DISCHARGE", "RACE_START", "RACE_CHECKPOINT", "RACE_FINISH", "DAMAGEPLUM", "AWARD", "INFECTED",
    "NEW_HIGH_SCORE"))}

#: Quake Live's meansOfDeath_t: Team Arena's list, then team switch, thaw (freeze tag), lightning discharge,
#: heavy machine gun and rail headshot (WolfcamQL ``bg_public.h``, UDT ``MeansOfDeath_73p``).
QL_MEANS_OF_DEATH: tuple[str, ...] = MEANS_OF_DEATH + (
    "switch teams", "thaw", "lightning discharge", "heavy machinegun", "railgun headshot")

#: Quake Live's weapon_t: Team Arena's, then the heavy machine gun (14).
QL_WEAPONS: tuple[str, ...] = WEAPONS + ("heavy machinegun",)

#: Quake Live's item list for protocol 73: the jacket (green) armour after the body armour, then Team Arena's
#: order (UDT ``Items_73``); 90 and 91 add spawn armour, the heavy machine gun and its ammo, the ammo pack and the
#: race keys (UDT ``Items_90p``; class names from WolfcamQL ``bg_misc.c``).
QL_ITEMS_73: tuple[str, ...] = ITEMS[:4] + ("item_armor_jacket",) + ITEMS[4:]
QL_ITEMS_90: tuple[str, ...] = QL_ITEMS_73 + (
    "item_spawnarmor", "weapon_hmg", "ammo_hmg", "ammo_pack", "item_key_silver", "item_key_gold",
    "item_key_master")


#: Protocol 91's powerup_t slot → Quake III's (UDT ``powerup_91_t``): the flags moved to 2-4, quad … flight to 5-10,
#: invulnerability to 11; 12-15 are the persistent powerups (scout, guard, doubler, armour regen: Quake III's
#: ammo regen slot), 16 freeze tag's frozen mark, kept at 16 (Quake III has no such slot).  -1: unused.
QL91_POWERUPS: tuple[int, ...] = (-1, -1, 7, 8, 9, 1, 2, 3, 4, 5, 6, 14, 10, 11, 12, 13, 16)


def powerups_as_quake3(bits: np.ndarray, slots: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Protocol 91's powerups in Quake III's numbering (:data:`QL91_POWERUPS`): ``bits`` the entities' ``powerups``
    masks (a bit per slot), ``slots`` the player states' ``powerups[16]`` arrays (``[N, 16]``, the end times)."""
    out_bits = np.zeros_like(bits)
    out_slots = np.zeros_like(slots)
    for wire, q3 in enumerate(QL91_POWERUPS):
        if q3 < 0:
            continue
        out_bits |= ((bits >> wire) & 1) << q3
        if wire < slots.shape[1] and q3 < slots.shape[1]:
            out_slots[:, q3] = slots[:, wire]
    return out_bits, out_slots


#: Quake Live's ``persistant`` slots in Quake III's order (UDT ``persEnum_73_t``): 0-6 as Quake III's, then
#: ``PERS_KILLED`` at 7, the award counters 8-13 and ``PERS_ATTACKEE_ARMOR`` moved to 14.
QL_PERSISTANT_AS_QUAKE3: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 14, 7, 8, 9, 10, 11, 12, 13)


@dataclass(frozen=True, slots=True)
class GameNumbers:
    """The numbers of one game module that differ between Quake III and Quake Live: configstring indices, event
    and means-of-death tables, items, weapons, game types and the ``persistant`` slots of the award counters
    (``PERS_IMPRESSIVE_COUNT`` …: Quake Live moved ``PERS_ATTACKEE_ARMOR`` to the end).  ``cs_round_status`` /
    ``cs_round_time`` are -1 where the game has no rounds; ``round_game_types`` are the ``g_gametype`` values
    that play rounds."""

    name: str
    cs_models: int
    cs_sounds: int
    cs_players: int
    cs_level_start_time: int
    cs_intermission: int
    cs_round_status: int
    cs_round_time: int
    ev: Mapping[str, int]
    means_of_death: tuple[str, ...]
    weapons: tuple[str, ...]
    items: tuple[str, ...]
    game_types: Mapping[int, str]
    round_game_types: frozenset[int]
    awards: tuple[tuple[str, int], ...]


QUAKE3_NUMBERS = GameNumbers(
    "Quake III Arena", CS_MODELS, CS_SOUNDS, CS_PLAYERS, CS_LEVEL_START_TIME, 22, -1, -1, EV,
    MEANS_OF_DEATH, WEAPONS, ITEMS, Q3_GAME_TYPES, frozenset(),
    (("impressive", 9), ("excellent", 10), ("defend", 11), ("assist", 12), ("gauntlet", 13), ("capture", 14)))


def _quake_live(items: tuple[str, ...]) -> GameNumbers:
    """Quake Live's numbers (WolfcamQL ``bg_public.h``, UDT ``ConfigStringIndices_73_90`` / ``_91``): models from
    17, sounds from 273, players from 529; level start 13, intermission 14; round status 661 and round time 662
    (-1 when a round ends) in clan arena, freeze tag, attack & defend and red rover."""
    return GameNumbers("Quake Live", 17, 273, 529, 13, 14, 661, 662, MappingProxyType(_QL_EV), QL_MEANS_OF_DEATH,
                       QL_WEAPONS, items, QL_GAME_TYPES, frozenset({4, 9, 11, 12}),
                       (("impressive", 8), ("excellent", 9), ("defend", 10), ("assist", 11), ("gauntlet", 12),
                        ("capture", 13)))


QUAKE_LIVE_73_NUMBERS = _quake_live(QL_ITEMS_73)
QUAKE_LIVE_NUMBERS = _quake_live(QL_ITEMS_90)


def game_numbers(protocol: int) -> GameNumbers:
    """The game numbers a demo of ``protocol`` uses: Quake Live's for 73, 90 and 91, Quake III's otherwise."""
    if protocol == 73:
        return QUAKE_LIVE_73_NUMBERS
    return QUAKE_LIVE_NUMBERS if protocol in QL_PROTOCOLS else QUAKE3_NUMBERS
