"""NetQuake wire protocol constants as tables: server message numbers, update/clientdata/sound/baseline bits,
RMQ protocol flags and temp-entity kinds.

Names follow the engine headers so a reader can grep both sides (``svc_spawnbaseline2``, ``U_LERPFINISH``,
``PRFL_INT32COORD``).  Only facts live here; :mod:`.parse` turns them into field tables and handlers.

References: Uwe Girlich, "The unofficial DEM format description" v1.0.9, section 7 (message list);
QuakeSpasm ``protocol.h`` (PROTOCOL_FITZQUAKE 666 / PROTOCOL_RMQ 999 additions).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final
from collections.abc import Mapping

# --- protocol versions (svc_serverinfo / svc_version) -------------------------------------------------------------

PROTOCOL_NETQUAKE: Final = 15
PROTOCOL_FITZQUAKE: Final = 666
PROTOCOL_RMQ: Final = 999
SUPPORTED_PROTOCOLS: Final = frozenset({PROTOCOL_NETQUAKE, PROTOCOL_FITZQUAKE, PROTOCOL_RMQ})

# --- PROTOCOL_RMQ protocol flags (a long after the version in svc_serverinfo) -------------------------------------

PRFL_SHORTANGLE: Final = 1 << 1     # angles are int16 * 360/65536
PRFL_FLOATANGLE: Final = 1 << 2     # angles are float32 degrees
PRFL_24BITCOORD: Final = 1 << 3     # coords are int16 + uint8/255
PRFL_FLOATCOORD: Final = 1 << 4     # coords are float32
PRFL_EDICTSCALE: Final = 1 << 5     # U_SCALE / B_SCALE carry a scale byte
PRFL_ALPHASANITY: Final = 1 << 6
PRFL_INT32COORD: Final = 1 << 7     # coords are int32 / 16
PRFL_MOREFLAGS: Final = 1 << 31

PRFL_NAMES: Final[Mapping[int, str]] = MappingProxyType({
    PRFL_SHORTANGLE: "shortangle", PRFL_FLOATANGLE: "floatangle", PRFL_24BITCOORD: "24bitcoord",
    PRFL_FLOATCOORD: "floatcoord", PRFL_EDICTSCALE: "edictscale", PRFL_ALPHASANITY: "alphasanity",
    PRFL_INT32COORD: "int32coord", PRFL_MOREFLAGS: "moreflags",
})


def protocol_flag_names(flags: int) -> tuple[str, ...]:
    """Names of the PRFL_* bits set in ``flags`` (unknown bits as ``bitN``)."""
    out = []
    for bit in range(32):
        if flags & (1 << bit):
            out.append(PRFL_NAMES.get(1 << bit, f"bit{bit}"))
    return tuple(out)


# --- server → client messages -------------------------------------------------------------------------------------

svc_bad: Final = 0
svc_nop: Final = 1
svc_disconnect: Final = 2
svc_updatestat: Final = 3
svc_version: Final = 4
svc_setview: Final = 5
svc_sound: Final = 6
svc_time: Final = 7
svc_print: Final = 8
svc_stufftext: Final = 9
svc_setangle: Final = 10
svc_serverinfo: Final = 11
svc_lightstyle: Final = 12
svc_updatename: Final = 13
svc_updatefrags: Final = 14
svc_clientdata: Final = 15
svc_stopsound: Final = 16
svc_updatecolors: Final = 17
svc_particle: Final = 18
svc_damage: Final = 19
svc_spawnstatic: Final = 20
svc_spawnbinary: Final = 21     # obsolete; never valid in a demo
svc_spawnbaseline: Final = 22
svc_temp_entity: Final = 23
svc_setpause: Final = 24
svc_signonnum: Final = 25
svc_centerprint: Final = 26
svc_killedmonster: Final = 27
svc_foundsecret: Final = 28
svc_spawnstaticsound: Final = 29
svc_intermission: Final = 30
svc_finale: Final = 31
svc_cdtrack: Final = 32
svc_sellscreen: Final = 33
svc_cutscene: Final = 34
# PROTOCOL_FITZQUAKE additions
svc_skybox: Final = 37
svc_bf: Final = 40
svc_fog: Final = 41
svc_spawnbaseline2: Final = 42
svc_spawnstatic2: Final = 43
svc_spawnstaticsound2: Final = 44
# 2021 re-release messages that QuakeSpasm also accepts
svc_achievement: Final = 52
svc_localsound: Final = 56

SVC_NAMES: Final[Mapping[int, str]] = MappingProxyType({
    value: name[4:] for name, value in globals().items() if name.startswith("svc_") and isinstance(value, int)
})


def svc_name(cmd: int) -> str:
    """Human name of a message byte for error messages (``"svc_sound"``, ``"fast update"``…)."""
    if cmd & 0x80:
        return "fast entity update"
    name = SVC_NAMES.get(cmd)
    return f"svc_{name}" if name else f"unknown message {cmd}"


# --- fast entity update bits (message byte has U_SIGNAL set) ------------------------------------------------------

U_MOREBITS: Final = 1 << 0
U_ORIGIN1: Final = 1 << 1
U_ORIGIN2: Final = 1 << 2
U_ORIGIN3: Final = 1 << 3
U_ANGLE2: Final = 1 << 4
U_STEP: Final = 1 << 5          # was U_NOLERP
U_FRAME: Final = 1 << 6
U_SIGNAL: Final = 1 << 7
U_ANGLE1: Final = 1 << 8
U_ANGLE3: Final = 1 << 9
U_MODEL: Final = 1 << 10
U_COLORMAP: Final = 1 << 11
U_SKIN: Final = 1 << 12
U_EFFECTS: Final = 1 << 13
U_LONGENTITY: Final = 1 << 14
U_EXTEND1: Final = 1 << 15      # 666/999: one more bits byte
U_TRANS: Final = 1 << 15        # protocol 15 only: Nehahra transparency (floats follow)
U_ALPHA: Final = 1 << 16
U_FRAME2: Final = 1 << 17
U_MODEL2: Final = 1 << 18
U_LERPFINISH: Final = 1 << 19
U_SCALE: Final = 1 << 20
U_EXTEND2: Final = 1 << 23

# --- svc_clientdata bits ------------------------------------------------------------------------------------------

SU_VIEWHEIGHT: Final = 1 << 0
SU_IDEALPITCH: Final = 1 << 1
SU_PUNCH1: Final = 1 << 2
SU_PUNCH2: Final = 1 << 3
SU_PUNCH3: Final = 1 << 4
SU_VELOCITY1: Final = 1 << 5
SU_VELOCITY2: Final = 1 << 6
SU_VELOCITY3: Final = 1 << 7
SU_ITEMS: Final = 1 << 9        # items are always sent since Quake 1.07
SU_ONGROUND: Final = 1 << 10
SU_INWATER: Final = 1 << 11
SU_WEAPONFRAME: Final = 1 << 12
SU_ARMOR: Final = 1 << 13
SU_WEAPON: Final = 1 << 14
SU_EXTEND1: Final = 1 << 15
SU_WEAPON2: Final = 1 << 16
SU_ARMOR2: Final = 1 << 17
SU_AMMO2: Final = 1 << 18
SU_SHELLS2: Final = 1 << 19
SU_NAILS2: Final = 1 << 20
SU_ROCKETS2: Final = 1 << 21
SU_CELLS2: Final = 1 << 22
SU_EXTEND2: Final = 1 << 23
SU_WEAPONFRAME2: Final = 1 << 24
SU_WEAPONALPHA: Final = 1 << 25
SU_EXTEND3: Final = 1 << 31

DEFAULT_VIEWHEIGHT: Final = 22

# --- svc_sound bits -----------------------------------------------------------------------------------------------

SND_VOLUME: Final = 1 << 0
SND_ATTENUATION: Final = 1 << 1
SND_LOOPING: Final = 1 << 2
SND_LARGEENTITY: Final = 1 << 3
SND_LARGESOUND: Final = 1 << 4
DEFAULT_SOUND_PACKET_VOLUME: Final = 255
DEFAULT_SOUND_PACKET_ATTENUATION: Final = 1.0

# --- svc_spawnbaseline2 / svc_spawnstatic2 bits ------------------------------------------------------------------

B_LARGEMODEL: Final = 1 << 0
B_LARGEFRAME: Final = 1 << 1
B_ALPHA: Final = 1 << 2
B_SCALE: Final = 1 << 3

ENTALPHA_DEFAULT: Final = 0
ENTSCALE_DEFAULT: Final = 16


# --- cl.stats indices (svc_updatestat) ----------------------------------------------------------------------------

STAT_HEALTH: Final = 0
STAT_FRAGS: Final = 1
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
MAX_CL_STATS: Final = 32

# --- temp entities (svc_temp_entity) ------------------------------------------------------------------------------

TE_SPIKE: Final = 0
TE_SUPERSPIKE: Final = 1
TE_GUNSHOT: Final = 2
TE_EXPLOSION: Final = 3
TE_TAREXPLOSION: Final = 4
TE_LIGHTNING1: Final = 5
TE_LIGHTNING2: Final = 6
TE_WIZSPIKE: Final = 7
TE_KNIGHTSPIKE: Final = 8
TE_LIGHTNING3: Final = 9
TE_LAVASPLASH: Final = 10
TE_TELEPORT: Final = 11
TE_EXPLOSION2: Final = 12
TE_BEAM: Final = 13

#: Payload shape of each temp entity: "point" = coord3, "beam" = short entity + coord3 start + coord3 end,
#: "explosion2" = coord3 + byte colour start + byte colour length.
TE_SHAPES: Final[Mapping[int, str]] = MappingProxyType({
    TE_SPIKE: "point", TE_SUPERSPIKE: "point", TE_GUNSHOT: "point", TE_EXPLOSION: "point",
    TE_TAREXPLOSION: "point", TE_WIZSPIKE: "point", TE_KNIGHTSPIKE: "point", TE_LAVASPLASH: "point",
    TE_TELEPORT: "point", TE_LIGHTNING1: "beam", TE_LIGHTNING2: "beam", TE_LIGHTNING3: "beam", TE_BEAM: "beam",
    TE_EXPLOSION2: "explosion2",
})
#: Wire code → the neutral name decoders emit (:data:`assets_loader.demos.events.TEMP_ENTITIES`).
TE_NAMES: Final[Mapping[int, str]] = MappingProxyType({
    value: name[3:].lower() for name, value in globals().items() if name.startswith("TE_") and isinstance(value, int)
})

# --- limits (QuakeSpasm's, generous for 666/999) ------------------------------------------------------------------

MAX_MSGLEN: Final = 64000           # largest demo message block a client accepts
MAX_MODELS: Final = 4096
MAX_SOUNDS: Final = 2048
MAX_LIGHTSTYLES: Final = 64
MAX_SCOREBOARD: Final = 16
MAX_EDICTS: Final = 32000
MAX_STATIC_ENTITIES: Final = 4096
