"""Quake II wire protocol constants as tables: server message numbers, entity / player-state / sound bits,
configstring indices, temp-entity kinds and their payload shapes, player muzzle flashes.

Names follow the engine headers (``svc_packetentities``, ``U_OLDORIGIN``, ``PS_WEAPONFRAME``, ``CS_PLAYERSKINS``) so a
reader can grep both sides.  Only facts live here; :mod:`.parse` turns them into field tables and handlers.

References: Uwe Girlich, "The unofficial DM2 format description" v1.0.1, sections 2–3; Quake II 3.20
``qcommon/qcommon.h`` (``svc_ops_e``, ``PS_*``, ``U_*``, ``SND_*``), ``game/q_shared.h`` (``CS_*``, ``TE_*``,
``MZ_*``, ``STAT_*``, ``EF_*``, ``RF_*``), ``client/cl_tent.c`` ``CL_ParseTEnt`` (payloads).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final
from collections.abc import Mapping

# --- protocol versions (svc_serverdata) ----------------------------------------------------------------------------

PROTOCOL_OLD: Final = 26            # 3.05 / 3.06: svc_frame has no suppress-count byte
#: 3.00 test release: other message numbers (its svc_serverdata is byte 7), which the format description leaves out
#: on purpose; no such demo is known outside id's retail pak, so it is reported as unsupported.
PROTOCOL_TEST: Final = 25
SVC_SERVERDATA_TEST: Final = 7
PROTOCOL_VERSION: Final = 34        # 3.19 .. 3.24
#: 3.05 (26) to 3.24 (34): the format description covers 3.05 .. 3.17, and the numbers between share 34's messages
#: (Q2PRO plays demos of every protocol 26..34; only 26 lacks svc_frame's suppress count).
SUPPORTED_PROTOCOLS: Final = frozenset(range(PROTOCOL_OLD, PROTOCOL_VERSION + 1))
#: Protocols qdv knows by name but does not decode, for the "unsupported protocol N (name)" error.
UNSUPPORTED_PROTOCOL_NAMES: Final[Mapping[int, str]] = MappingProxyType({
    PROTOCOL_TEST: "Quake II 3.00 test release", 35: "R1Q2", 36: "Q2PRO", 56: "KMQuake2",
    2023: "the Quake II re-release",
})


def unsupported_protocol(protocol: int) -> str:
    """``"unsupported protocol 25 (Quake II 3.00 test release)"``; the bare number for protocols without a name."""
    name = UNSUPPORTED_PROTOCOL_NAMES.get(protocol)
    return f"unsupported protocol {protocol}" + (f" ({name})" if name else "")


# --- serverdata attractloop / isdemo -------------------------------------------------------------------------------

RECORD_NETWORK: Final = 0
RECORD_CLIENT: Final = 1
RECORD_SERVER: Final = 2            # server-side recording: svc_frame carries the frame number only

# --- server → client messages (svc_ops_e) --------------------------------------------------------------------------

svc_bad: Final = 0
svc_muzzleflash: Final = 1
svc_muzzleflash2: Final = 2
svc_temp_entity: Final = 3
svc_layout: Final = 4
svc_inventory: Final = 5
svc_nop: Final = 6
svc_disconnect: Final = 7
svc_reconnect: Final = 8
svc_sound: Final = 9
svc_print: Final = 10
svc_stufftext: Final = 11
svc_serverdata: Final = 12
svc_configstring: Final = 13
svc_spawnbaseline: Final = 14
svc_centerprint: Final = 15
svc_download: Final = 16
svc_playerinfo: Final = 17
svc_packetentities: Final = 18
svc_deltapacketentities: Final = 19
svc_frame: Final = 20

SVC_NAMES: Final[Mapping[int, str]] = MappingProxyType({
    value: name[4:] for name, value in globals().items() if name.startswith("svc_") and isinstance(value, int)
})


def svc_name(cmd: int) -> str:
    """Human name of a message byte for error messages (``"svc_frame"``)."""
    name = SVC_NAMES.get(cmd)
    return f"svc_{name}" if name else f"unknown message {cmd}"


# --- entity update bits (U_*), read as up to four bytes -------------------------------------------------------------

U_ORIGIN1: Final = 1 << 0
U_ORIGIN2: Final = 1 << 1
U_ANGLE2: Final = 1 << 2
U_ANGLE3: Final = 1 << 3
U_FRAME8: Final = 1 << 4
U_EVENT: Final = 1 << 5
U_REMOVE: Final = 1 << 6
U_MOREBITS1: Final = 1 << 7
U_NUMBER16: Final = 1 << 8
U_ORIGIN3: Final = 1 << 9
U_ANGLE1: Final = 1 << 10
U_MODEL: Final = 1 << 11
U_RENDERFX8: Final = 1 << 12
U_EFFECTS8: Final = 1 << 14
U_MOREBITS2: Final = 1 << 15
U_SKIN8: Final = 1 << 16
U_FRAME16: Final = 1 << 17
U_RENDERFX16: Final = 1 << 18
U_EFFECTS16: Final = 1 << 19
U_MODEL2: Final = 1 << 20
U_MODEL3: Final = 1 << 21
U_MODEL4: Final = 1 << 22
U_MOREBITS3: Final = 1 << 23
U_OLDORIGIN: Final = 1 << 24
U_SKIN16: Final = 1 << 25
U_SOUND: Final = 1 << 26
U_SOLID: Final = 1 << 27

# --- player state bits (svc_playerinfo) ---------------------------------------------------------------------------

PS_M_TYPE: Final = 1 << 0
PS_M_ORIGIN: Final = 1 << 1
PS_M_VELOCITY: Final = 1 << 2
PS_M_TIME: Final = 1 << 3
PS_M_FLAGS: Final = 1 << 4
PS_M_GRAVITY: Final = 1 << 5
PS_M_DELTA_ANGLES: Final = 1 << 6
PS_VIEWOFFSET: Final = 1 << 7
PS_VIEWANGLES: Final = 1 << 8
PS_KICKANGLES: Final = 1 << 9
PS_BLEND: Final = 1 << 10
PS_FOV: Final = 1 << 11
PS_WEAPONINDEX: Final = 1 << 12
PS_WEAPONFRAME: Final = 1 << 13
PS_RDFLAGS: Final = 1 << 14

# pmtype_t
PM_NORMAL: Final = 0
PM_SPECTATOR: Final = 1
PM_DEAD: Final = 2
PM_GIB: Final = 3
PM_FREEZE: Final = 4                 # intermission

# --- svc_sound bits -------------------------------------------------------------------------------------------------

SND_VOLUME: Final = 1 << 0
SND_ATTENUATION: Final = 1 << 1
SND_POS: Final = 1 << 2
SND_ENT: Final = 1 << 3
SND_OFFSET: Final = 1 << 4
DEFAULT_SOUND_PACKET_VOLUME: Final = 1.0
DEFAULT_SOUND_PACKET_ATTENUATION: Final = 1.0

# --- svc_print levels -------------------------------------------------------------------------------------------------

PRINT_LOW: Final = 0        # pickups
PRINT_MEDIUM: Final = 1     # deaths
PRINT_HIGH: Final = 2       # critical messages
PRINT_CHAT: Final = 3       # chat

# --- configstrings ------------------------------------------------------------------------------------------------

CS_NAME: Final = 0
CS_CDTRACK: Final = 1
CS_SKY: Final = 2
CS_SKYAXIS: Final = 3
CS_SKYROTATE: Final = 4
CS_STATUSBAR: Final = 5             # the status bar layout program, spread over indices 5..29
CS_AIRACCEL: Final = 29
CS_MAXCLIENTS: Final = 30
CS_MAPCHECKSUM: Final = 31
CS_MODELS: Final = 32
CS_SOUNDS: Final = 288
CS_IMAGES: Final = 544
CS_LIGHTS: Final = 800
CS_ITEMS: Final = 1056
CS_PLAYERSKINS: Final = 1312
CS_GENERAL: Final = 1568
MAX_CONFIGSTRINGS: Final = 2080
MAX_QPATH: Final = 64                # bytes of one configstring slot
MAX_MODELS: Final = 256
MAX_SOUNDS: Final = 256
MAX_IMAGES: Final = 256
MAX_CLIENTS: Final = 256
MAX_EDICTS: Final = 1024
MAX_STATS: Final = 32
MAX_ITEMS: Final = 256
MAX_PACKET_ENTITIES: Final = 1024
MAX_MAP_AREAS: Final = 256
UPDATE_BACKUP: Final = 16           # frames the client keeps for delta decoding (a power of two)

# --- stats (STAT_*) ---------------------------------------------------------------------------------------------------

STAT_NAMES: Final[tuple[str, ...]] = (
    "health_icon", "health", "ammo_icon", "ammo", "armor_icon", "armor", "selected_icon", "pickup_icon",
    "pickup_string", "timer_icon", "timer", "help_icon", "selected_item", "layouts", "frags", "flashes",
) + tuple(f"stat{i}" for i in range(16, MAX_STATS))
STAT_PICKUP_STRING: Final = 8
STAT_LAYOUTS: Final = 13

# --- temp entities (TE_*) ---------------------------------------------------------------------------------------------

#: Payload shapes: "point" = pos; "impact" = pos + dir byte; "line" = pos + pos; "splash" = count byte + pos + dir +
#: colour byte; "beam" = short entity + pos + pos; "beam_offset" = short entity + pos + pos + pos; "blue_hyper" =
#: pos + pos (a direction sent as a position); "lightning" = short + short + pos + pos; "flashlight" = pos + short;
#: "forcewall" = pos + pos + colour byte; "steam" = short id + count + pos + dir + colour + short magnitude
#: (+ long wait when id != -1); "widow" = short id + pos.
TE_KINDS: Final[tuple[tuple[str, str], ...]] = (
    ("gunshot", "impact"), ("blood", "impact"), ("blaster", "impact"), ("railtrail", "line"),
    ("shotgun", "impact"), ("explosion1", "point"), ("barrel_explosion", "point"), ("rocket_explosion", "point"),
    ("grenade_explosion", "point"), ("sparks", "impact"), ("splash", "splash"), ("bubbletrail", "line"),
    ("screen_sparks", "impact"), ("shield_sparks", "impact"), ("bullet_sparks", "impact"),
    ("laser_sparks", "splash"), ("parasite_attack", "beam"), ("rocket_explosion_water", "point"),
    ("grenade_explosion_water", "point"), ("medic_cable_attack", "beam"), ("bfg_explosion", "point"),
    ("bfg_bigexplosion", "point"), ("bosstport", "point"), ("bfg_laser", "line"),
    ("grapple_cable", "beam_offset"), ("welding_sparks", "splash"), ("greenblood", "impact"),
    ("bluehyperblaster", "blue_hyper"), ("plasma_explosion", "point"), ("tunnel_sparks", "splash"),
    ("blaster2", "impact"), ("railtrail2", ""), ("flame", ""), ("lightning", "lightning"), ("debugtrail", "line"),
    ("plain_explosion", "point"), ("flashlight", "flashlight"), ("forcewall", "forcewall"), ("heatbeam", "beam"),
    ("monster_heatbeam", "beam"), ("steam", "steam"), ("bubbletrail2", "line"), ("moreblood", "impact"),
    ("heatbeam_sparks", "impact"), ("heatbeam_steam", "impact"), ("chainfist_smoke", "point"),
    ("electric_sparks", "impact"), ("tracker_explosion", "point"), ("teleport_effect", "point"),
    ("dball_goal", "point"), ("widowbeamout", "widow"), ("nukeblast", "point"), ("widowsplash", "point"),
    ("explosion1_big", "point"), ("explosion1_np", "point"), ("flechette", "impact"),
)
TE_BLOOD: Final = 1
TE_ROCKET_EXPLOSION: Final = 7
#: Kinds the engine never parses (``CL_ParseTEnt``: "bad type").
TE_UNPARSED: Final = frozenset(i for i, (_, shape) in enumerate(TE_KINDS) if not shape)

# --- player muzzle flashes (MZ_*, svc_muzzleflash) ---------------------------------------------------------------

MZ_SILENCED: Final = 128
MUZZLE_FLASHES: Final[Mapping[int, str]] = MappingProxyType({
    0: "blaster", 1: "machinegun", 2: "shotgun", 3: "chaingun1", 4: "chaingun2", 5: "chaingun3", 6: "railgun",
    7: "rocket", 8: "grenade", 9: "login", 10: "logout", 11: "respawn", 12: "bfg", 13: "sshotgun",
    14: "hyperblaster", 15: "itemrespawn", 16: "ionripper", 17: "bluehyperblaster", 18: "phalanx", 30: "etf_rifle",
    31: "unused", 32: "shotgun2", 33: "heatbeam", 34: "blaster2", 35: "tracker", 36: "nuke1", 37: "nuke2",
    38: "nuke4", 39: "nuke8",
})


def muzzle_flash_name(value: int) -> str:
    """The name of player flash ``value`` without the silencer bit (``"railgun"``; ``"flash_N"`` if unknown)."""
    return MUZZLE_FLASHES.get(value & ~MZ_SILENCED, f"flash_{value & ~MZ_SILENCED}")


# --- entity flags the timeline and viewer use -----------------------------------------------------------------------

EV_OTHER_TELEPORT: Final = 7        # entity_event_t: snap, do not lerp from old_origin
EV_PLAYER_TELEPORT: Final = 6

#: entity_state_t ``effects`` bits (``q_shared.h`` ``EF_*``; ``EF_DOUBLE`` and ``EF_HALF_DAMAGE`` from Rogue).
EF_ROTATE: Final = 0x00000001
EF_GIB: Final = 0x00000002
EF_BLASTER: Final = 0x00000008
EF_ROCKET: Final = 0x00000010
EF_GRENADE: Final = 0x00000020
EF_HYPERBLASTER: Final = 0x00000040
EF_BFG: Final = 0x00000080
EF_COLOR_SHELL: Final = 0x00000100
EF_ANIM01: Final = 0x00000400
EF_ANIM23: Final = 0x00000800
EF_ANIM_ALL: Final = 0x00001000
EF_ANIM_ALLFAST: Final = 0x00002000
EF_QUAD: Final = 0x00008000
EF_PENT: Final = 0x00010000
EF_FLAG1: Final = 0x00040000
EF_FLAG2: Final = 0x00080000
EF_DOUBLE: Final = 0x08000000
EF_HALF_DAMAGE: Final = 0x40000000

#: entity_state_t ``renderfx`` bits (``q_shared.h`` ``RF_*``).
RF_VIEWERMODEL: Final = 0x00000002
RF_FULLBRIGHT: Final = 0x00000008
RF_TRANSLUCENT: Final = 0x00000020
RF_BEAM: Final = 0x00000080
RF_SHELL_RED: Final = 0x00000400
RF_SHELL_GREEN: Final = 0x00000800
RF_SHELL_BLUE: Final = 0x00001000
RF_SHELL_DOUBLE: Final = 0x00010000
RF_SHELL_HALF_DAM: Final = 0x00020000
