"""QuakeWorld wire protocol constants as tables: demo block types, server message numbers, playerinfo / MVD /
packet-entity bits, protocol-extension magics, print levels, stats and temp-entity kinds.

Names follow the engine headers so a reader can grep both sides (``svc_deltapacketentities``, ``PF_COMMAND``,
``DF_WEAPONFRAME``, ``U_MOREBITS``).  Only facts live here; :mod:`.parse` turns them into field tables and handlers.

References: Uwe Girlich, "The unofficial QWD format description" (block types, messages 0x00–0x35);
QW-Group ``qwprot`` ``protocol.h`` (svc numbers up to svc_nails2, PF_/DF_/U_ bits, FTE/MVD1 extension magics,
dem_* block types, hidden MVD message types); ezQuake ``cl_parse.c`` ``CL_ParseServerMessage``.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final
from collections.abc import Mapping

# --- protocol versions (svc_serverdata) ---------------------------------------------------------------------------

PROTOCOL_VERSION: Final = 28
#: Older QuakeWorld versions a demo may carry (2.00 … 2.30); 24/25/26 change the modellist and usercmd layouts.
OLD_PROTOCOLS: Final = frozenset({24, 25, 26, 27})


def _magic(s: str) -> int:
    return int.from_bytes(s.encode("ascii"), "little")


#: Extension prefixes: each is followed by a long of extension bits, then another version long.
PROTOCOL_VERSION_FTE: Final = _magic("FTEX")
PROTOCOL_VERSION_FTE2: Final = _magic("FTE2")
PROTOCOL_VERSION_MVD1: Final = _magic("MVD1")
EXTENSION_NAMES: Final[Mapping[int, str]] = MappingProxyType({
    PROTOCOL_VERSION_FTE: "fte", PROTOCOL_VERSION_FTE2: "fte2", PROTOCOL_VERSION_MVD1: "mvd1"})

# FTE extension bits that change the wire format of messages we parse.
FTE_PEXT_TRANS: Final = 0x00000008
FTE_PEXT_MODELDBL: Final = 0x00001000
FTE_PEXT_ENTITYDBL: Final = 0x00002000
FTE_PEXT_ENTITYDBL2: Final = 0x00004000
FTE_PEXT_FLOATCOORDS: Final = 0x00008000
FTE_PEXT_COLOURMOD: Final = 0x00080000
FTE_PEXT_SPAWNSTATIC2: Final = 0x00400000
FTE_PEXT_256PACKETENTITIES: Final = 0x01000000
FTE_PEXT_CHUNKEDDOWNLOADS: Final = 0x20000000
#: FTE bits the decoder understands; others are recorded and ignored (they only matter for messages it rejects).
FTE_SUPPORTED: Final = (FTE_PEXT_TRANS | FTE_PEXT_MODELDBL | FTE_PEXT_ENTITYDBL | FTE_PEXT_ENTITYDBL2
                        | FTE_PEXT_FLOATCOORDS | FTE_PEXT_COLOURMOD | FTE_PEXT_SPAWNSTATIC2
                        | FTE_PEXT_256PACKETENTITIES)

MVD_PEXT1_FLOATCOORDS: Final = 1 << 0
MVD_PEXT1_HIGHLAGTELEPORT: Final = 1 << 1
MVD_PEXT1_HIDDEN_MESSAGES: Final = 1 << 5

# --- demo blocks --------------------------------------------------------------------------------------------------

dem_cmd: Final = 0        # QWD: a usercmd (24 bytes) + view angles (3 floats)
dem_read: Final = 1       # a server packet (QWD: with the 8-byte netchan header)
dem_set: Final = 2        # outgoing / incoming sequence numbers at the start
dem_multiple: Final = 3   # MVD: to the players in a 32-bit mask (mask 0: hidden MVD1 data)
dem_single: Final = 4     # MVD: to one player (slot in the type byte's high 5 bits)
dem_stats: Final = 5      # MVD: stat update of one player
dem_all: Final = 6        # MVD: to everyone
DEM_NAMES: Final[Mapping[int, str]] = MappingProxyType({
    dem_cmd: "dem_cmd", dem_read: "dem_read", dem_set: "dem_set", dem_multiple: "dem_multiple",
    dem_single: "dem_single", dem_stats: "dem_stats", dem_all: "dem_all"})

#: sizeof(usercmd_t) as written by CL_WriteDemoCmd: msec, 3 pad bytes, float angles[3], short moves[3], buttons,
#: impulse.
USERCMD_SIZE: Final = 24

# Hidden MVD1 data (dem_multiple to nobody): <int length><short type> records.
MVDHIDDEN_NAMES: Final[Mapping[int, str]] = MappingProxyType({
    0x0000: "antilag_position", 0x0001: "usercmd", 0x0002: "usercmd_weapons", 0x0003: "demoinfo",
    0x0004: "commentary_track", 0x0005: "commentary_data", 0x0006: "commentary_text_segment",
    0x0007: "dmgdone", 0x0008: "usercmd_weapons_ss", 0x0009: "usercmd_weapon_instruction",
    0x000A: "paused_duration", 0x000B: "demo_start_timestamp_ms", 0xFFFF: "extended"})

# Connectionless packets (QWD dem_read starting with -1).
CONNLESS_NAMES: Final[Mapping[int, str]] = MappingProxyType({
    0x02: "disconnect", ord("B"): "client_command", ord("c"): "challenge", ord("j"): "connection",
    ord("k"): "ping", ord("l"): "ack", ord("n"): "print"})

# --- server → client messages -------------------------------------------------------------------------------------

svc_bad: Final = 0
svc_nop: Final = 1
svc_disconnect: Final = 2
svc_updatestat: Final = 3
svc_sound: Final = 6
svc_nq_time: Final = 7
svc_print: Final = 8
svc_stufftext: Final = 9
svc_setangle: Final = 10
svc_serverdata: Final = 11
svc_lightstyle: Final = 12
svc_updatefrags: Final = 14
svc_stopsound: Final = 16
svc_damage: Final = 19
svc_spawnstatic: Final = 20
svc_fte_spawnstatic2: Final = 21
svc_spawnbaseline: Final = 22
svc_temp_entity: Final = 23
svc_setpause: Final = 24
svc_centerprint: Final = 26
svc_killedmonster: Final = 27
svc_foundsecret: Final = 28
svc_spawnstaticsound: Final = 29
svc_intermission: Final = 30
svc_finale: Final = 31
svc_cdtrack: Final = 32
svc_sellscreen: Final = 33
svc_smallkick: Final = 34
svc_bigkick: Final = 35
svc_updateping: Final = 36
svc_updateentertime: Final = 37
svc_updatestatlong: Final = 38
svc_muzzleflash: Final = 39
svc_updateuserinfo: Final = 40
svc_download: Final = 41
svc_playerinfo: Final = 42
svc_nails: Final = 43
svc_chokecount: Final = 44
svc_modellist: Final = 45
svc_soundlist: Final = 46
svc_packetentities: Final = 47
svc_deltapacketentities: Final = 48
svc_maxspeed: Final = 49
svc_entgravity: Final = 50
svc_setinfo: Final = 51
svc_serverinfo: Final = 52
svc_updatepl: Final = 53
svc_nails2: Final = 54
svc_fte_modellistshort: Final = 60
svc_fte_spawnbaseline2: Final = 66
svc_qizmovoice: Final = 83

SVC_NAMES: Final[Mapping[int, str]] = MappingProxyType({
    value: name[4:] for name, value in globals().items() if name.startswith("svc_") and isinstance(value, int)
})


def svc_name(cmd: int) -> str:
    """``svc_<name>`` for a known message number, else ``svc_<number>``."""
    return "svc_" + SVC_NAMES.get(cmd, str(cmd))


# --- svc_playerinfo (QWD: PF_*; MVD: DF_*) -------------------------------------------------------------------------

PF_MSEC: Final = 1 << 0
PF_COMMAND: Final = 1 << 1
PF_VELOCITY1: Final = 1 << 2
PF_VELOCITY2: Final = 1 << 3
PF_VELOCITY3: Final = 1 << 4
PF_MODEL: Final = 1 << 5
PF_SKINNUM: Final = 1 << 6
PF_EFFECTS: Final = 1 << 7
PF_WEAPONFRAME: Final = 1 << 8
PF_DEAD: Final = 1 << 9
PF_GIB: Final = 1 << 10
PF_PMC_SHIFT: Final = 11
PF_PMC_MASK: Final = 7
PF_EXTRA_PFS: Final = 1 << 15       # FTE_PEXT_TRANS: a third flags byte follows
PF_TRANS_Z: Final = 1 << 17         # FTE_PEXT_TRANS: an alpha byte follows the weapon frame

DF_ORIGIN: Final = 1                # << 0..2
DF_ANGLES: Final = 1 << 3           # << 0..2
DF_EFFECTS: Final = 1 << 6
DF_SKINNUM: Final = 1 << 7
DF_DEAD: Final = 1 << 8
DF_GIB: Final = 1 << 9
DF_WEAPONFRAME: Final = 1 << 10
DF_MODEL: Final = 1 << 11

# usercmd delta bits (PF_COMMAND, protocol ≥ 27: msec always follows; ≤ 26: CM_ANGLE2 slot means msec)
CM_ANGLE1: Final = 1 << 0
CM_ANGLE3: Final = 1 << 1
CM_FORWARD: Final = 1 << 2
CM_SIDE: Final = 1 << 3
CM_UP: Final = 1 << 4
CM_BUTTONS: Final = 1 << 5
CM_IMPULSE: Final = 1 << 6
CM_ANGLE2: Final = 1 << 7

BUTTON_ATTACK: Final = 1 << 0
BUTTON_JUMP: Final = 1 << 1

# --- svc_packetentities / svc_deltapacketentities -----------------------------------------------------------------

U_ENTITY_MASK: Final = 511          # low 9 bits of the word: entity number
U_ORIGIN1: Final = 1 << 9
U_ORIGIN2: Final = 1 << 10
U_ORIGIN3: Final = 1 << 11
U_ANGLE2: Final = 1 << 12
U_FRAME: Final = 1 << 13
U_REMOVE: Final = 1 << 14
U_MOREBITS: Final = 1 << 15
# in the MOREBITS byte
U_ANGLE1: Final = 1 << 0
U_ANGLE3: Final = 1 << 1
U_MODEL: Final = 1 << 2
U_COLORMAP: Final = 1 << 3
U_SKIN: Final = 1 << 4
U_EFFECTS: Final = 1 << 5
U_SOLID: Final = 1 << 6
U_FTE_EVENMORE: Final = 1 << 7
# in the FTE EVENMORE byte(s)
U_FTE_SCALE: Final = 1 << 0
U_FTE_TRANS: Final = 1 << 1
U_FTE_FATNESS: Final = 1 << 2
U_FTE_MODELDBL: Final = 1 << 3
U_FTE_ENTITYDBL: Final = 1 << 5
U_FTE_ENTITYDBL2: Final = 1 << 6
U_FTE_YETMORE: Final = 1 << 7
U_FTE_COLOURMOD: Final = 1 << 10

# --- sound --------------------------------------------------------------------------------------------------------

SND_VOLUME: Final = 1 << 15
SND_ATTENUATION: Final = 1 << 14
DEFAULT_SOUND_PACKET_VOLUME: Final = 255

# --- prints -------------------------------------------------------------------------------------------------------

PRINT_LOW: Final = 0
PRINT_MEDIUM: Final = 1
PRINT_HIGH: Final = 2
PRINT_CHAT: Final = 3

# --- stats (svc_updatestat / svc_updatestatlong index → timeline STAT_NAMES index) --------------------------------

MAX_CL_STATS: Final = 32
STAT_HEALTH: Final = 0
STAT_WEAPON: Final = 2
STAT_AMMO: Final = 3
STAT_ARMOR: Final = 4
STAT_WEAPONFRAME: Final = 5
STAT_SHELLS: Final = 6
STAT_NAILS: Final = 7
STAT_ROCKETS: Final = 8
STAT_CELLS: Final = 9
STAT_ACTIVEWEAPON: Final = 10
STAT_TOTALSECRETS: Final = 11
STAT_TOTALMONSTERS: Final = 12
STAT_SECRETS: Final = 13
STAT_MONSTERS: Final = 14
STAT_ITEMS: Final = 15
STAT_VIEWHEIGHT: Final = 16         # ZQuake extension (Z_EXT_VIEWHEIGHT)
STAT_TIME: Final = 17               # ZQuake extension (Z_EXT_SERVERTIME), milliseconds
STAT_MATCHSTARTTIME: Final = 18

# --- limits -------------------------------------------------------------------------------------------------------

MAX_CLIENTS: Final = 32
UPDATE_BACKUP: Final = 64
UPDATE_MASK: Final = UPDATE_BACKUP - 1
MAX_EDICTS: Final = 2048            # 512 without FTE ENTITYDBL/ENTITYDBL2
MAX_MODELS: Final = 512             # 256 without FTE MODELDBL
MAX_SOUNDS: Final = 256
MAX_LIGHTSTYLES: Final = 64
MAX_STATIC_ENTITIES: Final = 1024
MAX_PACKET_ENTITIES: Final = 300    # MAX_MVD_PACKET_ENTITIES: the largest any server sends
MAX_NAILS: Final = 255
MAX_MSGLEN: Final = 1 << 20         # a generous cap on one demo message (engines use 1450 … 64 KiB)
DEFAULT_VIEWHEIGHT: Final = 22

# --- effects (the first four are NetQuake's ``server.h`` bits too) ------------------------------------------------

EF_BRIGHTFIELD: Final = 1
EF_MUZZLEFLASH: Final = 2
EF_BRIGHTLIGHT: Final = 4
EF_DIMLIGHT: Final = 8
EF_FLAG1: Final = 16
EF_FLAG2: Final = 32
EF_BLUE: Final = 64
EF_RED: Final = 128

# --- temp entities (QuakeWorld variants) --------------------------------------------------------------------------

TE_SPIKE: Final = 0
TE_SUPERSPIKE: Final = 1
TE_GUNSHOT: Final = 2               # QW: count byte, then the position
TE_EXPLOSION: Final = 3
TE_TAREXPLOSION: Final = 4
TE_LIGHTNING1: Final = 5            # entity short, start, end
TE_LIGHTNING2: Final = 6
TE_WIZSPIKE: Final = 7
TE_KNIGHTSPIKE: Final = 8
TE_LIGHTNING3: Final = 9
TE_LAVASPLASH: Final = 10
TE_TELEPORT: Final = 11
TE_BLOOD: Final = 12                # QW: count byte, then the position
TE_LIGHTNINGBLOOD: Final = 13       # QW: position only

#: Wire shape of each TE kind: "point" (3 coords), "count" (byte + 3 coords), "beam" (short + 6 coords).
TE_SHAPES: Final[Mapping[int, str]] = MappingProxyType({
    TE_SPIKE: "point", TE_SUPERSPIKE: "point", TE_GUNSHOT: "count", TE_EXPLOSION: "point",
    TE_TAREXPLOSION: "point", TE_LIGHTNING1: "beam", TE_LIGHTNING2: "beam", TE_WIZSPIKE: "point",
    TE_KNIGHTSPIKE: "point", TE_LIGHTNING3: "beam", TE_LAVASPLASH: "point", TE_TELEPORT: "point",
    TE_BLOOD: "count", TE_LIGHTNINGBLOOD: "point",
})
#: Wire code → the neutral name decoders emit (:data:`assets_loader.demos.events.TEMP_ENTITIES`).
TE_NAMES: Final[Mapping[int, str]] = MappingProxyType({
    value: name[3:].lower() for name, value in globals().items() if name.startswith("TE_") and isinstance(value, int)
})

#: The model a nail projectile is drawn with (``mi_spike``).
SPIKE_MODEL: Final = "progs/spike.mdl"
PLAYER_MODEL: Final = "progs/player.mdl"
