"""Quake III protocol tables: server command numbers and limits, the field tables of the delta-coded
``entityState_t`` / ``playerState_t`` per protocol, and their numpy dtypes.

A delta names fields by their index in a table ordered by how often they change; each field is sent with a bit
count (> 0 unsigned, < 0 signed, 0 a float sent as a 13-bit integer or 32 raw bits).  Protocols 66 (Quake III
1.29/1.30), 67 (1.31), 68 (1.32) and 71 (OpenArena's number for the 1.32 wire format, same bytes) all use the
same two tables; Quake Live's 73, 90 and 91 add fields to them (see ``_ENTITY_73``); the older 3 and 48 use
other tables and are not decoded.

While decoding, a state is a flat list of 32-bit values in table order (floats as their IEEE bit patterns, as
the engine's ``FIELD_INTEGER`` sees them); a player state has the four 16-entry arrays (``stats``,
``persistant``, ``ammo``, ``powerups``) appended.  :func:`entity_records` / :func:`player_records` turn such
lists into structured arrays of the engine structs' layout (:data:`ENTITY_STATE`, :data:`PLAYER_STATE`).

References: ioquake3 ``code/qcommon/qcommon.h`` (``svc_ops_e``, ``PACKET_BACKUP``, ``MAX_PARSE_ENTITIES``),
``code/qcommon/msg.c`` (``entityStateFields``, ``playerStateFields``),
``code/qcommon/q_shared.h`` (``entityState_t``, ``playerState_t``, ``MAX_STATS`` …); spec 004 section 6;
UberDemoTools ``message.cpp`` (one table for 66/67/68; the Quake Live tables 73/90/91).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

import numpy as np

__all__ = [
    "ENTITYNUM_NONE",
    "ENTITY_STATE",
    "GENTITYNUM_BITS",
    "MAX_CONFIGSTRINGS",
    "MAX_GAMESTATE_CHARS",
    "MAX_GENTITIES",
    "MAX_MAP_AREA_BYTES",
    "MAX_PARSE_ENTITIES",
    "MAX_PS_ARRAY",
    "MAX_SNAPSHOT_ENTITIES",
    "PACKET_BACKUP",
    "PLAYER_ARRAYS",
    "PLAYER_STATE",
    "PROTOCOLS",
    "SVC_BAD",
    "SVC_BASELINE",
    "SVC_CONFIGSTRING",
    "SVC_DOWNLOAD",
    "SVC_EOF",
    "SVC_GAMESTATE",
    "SVC_NOP",
    "SVC_SERVERCOMMAND",
    "SVC_SNAPSHOT",
    "SVC_VOIP_OPUS",
    "SVC_VOIP_SPEEX",
    "UTF8_PROTOCOLS",
    "VOIP_FLAGCNT",
    "FieldTable",
    "ProtocolTables",
    "entity_records",
    "player_records",
    "tables_for",
]

SVC_BAD, SVC_NOP, SVC_GAMESTATE, SVC_CONFIGSTRING, SVC_BASELINE, SVC_SERVERCOMMAND, SVC_DOWNLOAD, SVC_SNAPSHOT, \
    SVC_EOF = range(9)
#: ioquake3's VoIP extension commands (Speex, then Opus), and the width of their flags field.
SVC_VOIP_SPEEX, SVC_VOIP_OPUS = 9, 10
VOIP_FLAGCNT = 2

MAX_CONFIGSTRINGS = 1024
#: Room for all configstrings of a gamestate, terminators included (``gameState_t.stringData``).
MAX_GAMESTATE_CHARS = 16000
#: Snapshot ring size (``cl.snapshots``) and the entity ring behind it (``cl.parseEntities``).
PACKET_BACKUP = 32
MAX_SNAPSHOT_ENTITIES = 256
MAX_PARSE_ENTITIES = PACKET_BACKUP * MAX_SNAPSHOT_ENTITIES

GENTITYNUM_BITS = 10
MAX_GENTITIES = 1 << GENTITYNUM_BITS
#: Entity number that ends a packet-entities list and marks a removed entity.
ENTITYNUM_NONE = MAX_GENTITIES - 1
#: ``MAX_STATS`` = ``MAX_PERSISTANT`` = ``MAX_WEAPONS`` = ``MAX_POWERUPS`` = 16.
MAX_PS_ARRAY = 16
#: The player state's arrays in wire order: (name, element bits: -16 signed short, 32 long).
PLAYER_ARRAYS: tuple[tuple[str, int], ...] = (("stats", -16), ("persistant", -16), ("ammo", -16), ("powerups", 32))
MAX_MAP_AREA_BYTES = 32


@dataclass(frozen=True, slots=True)
class FieldTable:
    """One delta field table: ``names[i]`` (engine member, e.g. ``pos.trBase[1]``) is sent with ``bits[i]``."""

    names: tuple[str, ...]
    bits: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ProtocolTables:
    """The entity and player field tables of one wire format."""

    entity: FieldTable
    player: FieldTable


def _table(*fields: tuple[str, int]) -> FieldTable:
    return FieldTable(tuple(n for n, _ in fields), tuple(b for _, b in fields))


_ENTITY_68 = _table(
    ("pos.trTime", 32), ("pos.trBase[0]", 0), ("pos.trBase[1]", 0), ("pos.trDelta[0]", 0), ("pos.trDelta[1]", 0),
    ("pos.trBase[2]", 0), ("apos.trBase[1]", 0), ("pos.trDelta[2]", 0), ("apos.trBase[0]", 0), ("event", 10),
    ("angles2[1]", 0), ("eType", 8), ("torsoAnim", 8), ("eventParm", 8), ("legsAnim", 8),
    ("groundEntityNum", GENTITYNUM_BITS), ("pos.trType", 8), ("eFlags", 19), ("otherEntityNum", GENTITYNUM_BITS),
    ("weapon", 8), ("clientNum", 8), ("angles[1]", 0), ("pos.trDuration", 32), ("apos.trType", 8),
    ("origin[0]", 0), ("origin[1]", 0), ("origin[2]", 0), ("solid", 24), ("powerups", 16), ("modelindex", 8),
    ("otherEntityNum2", GENTITYNUM_BITS), ("loopSound", 8), ("generic1", 8), ("origin2[2]", 0), ("origin2[0]", 0),
    ("origin2[1]", 0), ("modelindex2", 8), ("angles[0]", 0), ("time", 32), ("apos.trTime", 32),
    ("apos.trDuration", 32), ("apos.trBase[2]", 0), ("apos.trDelta[0]", 0), ("apos.trDelta[1]", 0),
    ("apos.trDelta[2]", 0), ("time2", 32), ("angles[2]", 0), ("angles2[0]", 0), ("angles2[2]", 0),
    ("constantLight", 32), ("frame", 16),
)

_PLAYER_68 = _table(
    ("commandTime", 32), ("origin[0]", 0), ("origin[1]", 0), ("bobCycle", 8), ("velocity[0]", 0),
    ("velocity[1]", 0), ("viewangles[1]", 0), ("viewangles[0]", 0), ("weaponTime", -16), ("origin[2]", 0),
    ("velocity[2]", 0), ("legsTimer", 8), ("pm_time", -16), ("eventSequence", 16), ("torsoAnim", 8),
    ("movementDir", 4), ("events[0]", 8), ("legsAnim", 8), ("events[1]", 8), ("pm_flags", 16),
    ("groundEntityNum", GENTITYNUM_BITS), ("weaponstate", 4), ("eFlags", 16), ("externalEvent", 10),
    ("gravity", 16), ("speed", 16), ("delta_angles[1]", 16), ("externalEventParm", 8), ("viewheight", -8),
    ("damageEvent", 8), ("damageYaw", 8), ("damagePitch", 8), ("damageCount", 8), ("generic1", 8),
    ("pm_type", 8), ("delta_angles[0]", 16), ("delta_angles[2]", 16), ("torsoTimer", 12), ("eventParms[0]", 8),
    ("eventParms[1]", 8), ("clientNum", 8), ("weapon", 5), ("viewangles[2]", 0), ("grapplePoint[0]", 0),
    ("grapplePoint[1]", 0), ("grapplePoint[2]", 0), ("jumppad_ent", GENTITYNUM_BITS), ("loopSound", 16),
)

_Q3_132 = ProtocolTables(_ENTITY_68, _PLAYER_68)


def _insert(table: FieldTable, after: str, *fields: tuple[str, int]) -> FieldTable:
    """``table`` with ``fields`` sent right after its field ``after``."""
    at = table.names.index(after) + 1
    pairs = list(zip(table.names, table.bits))
    return _table(*pairs[:at], *fields, *pairs[at:])


def _with_bits(table: FieldTable, name: str, bits: int) -> FieldTable:
    """``table`` with field ``name`` sent with ``bits`` instead."""
    return _table(*((n, bits if n == name else b) for n, b in zip(table.names, table.bits)))


# Quake Live (UberDemoTools message.cpp EntityStateFields73/90/91, PlayerStateFields73/90/91): 73 sends a
# per-entity gravity with each trajectory; 90 adds the double jump (and widens pm_flags to 24 bits); 91 adds the
# entity's health/armour/location, the player's primary weapon, crouch slide, fov and last move.
_ENTITY_73 = _insert(_insert(_ENTITY_68, "apos.trBase[0]", ("pos.gravity", 32)),
                     "apos.trDelta[2]", ("apos.gravity", 32))
_ENTITY_90 = _insert(_ENTITY_73, "frame", ("jumpTime", 32), ("doubleJumped", 1))
_ENTITY_91 = _insert(_ENTITY_90, "doubleJumped", ("health", 16), ("armor", 16), ("location", 8))
_PLAYER_90 = _insert(_with_bits(_PLAYER_68, "pm_flags", 24), "loopSound", ("jumpTime", 32), ("doubleJumped", 1))
_PLAYER_91 = _insert(_insert(_PLAYER_90, "weapon", ("weaponPrimary", 8)), "doubleJumped",
                     ("crouchTime", 32), ("crouchSlideTime", 32), ("location", 8), ("fov", 8),
                     ("forwardmove", 8), ("rightmove", 8), ("upmove", 8))

#: Protocol number → its tables.  71 is OpenArena's number for the unchanged 1.32 (68) wire format; 73, 90 and
#: 91 are Quake Live's (73: the 68 player table).
PROTOCOLS: Mapping[int, ProtocolTables] = MappingProxyType({
    66: _Q3_132, 67: _Q3_132, 68: _Q3_132, 71: _Q3_132, 73: ProtocolTables(_ENTITY_73, _PLAYER_68),
    90: ProtocolTables(_ENTITY_90, _PLAYER_90), 91: ProtocolTables(_ENTITY_91, _PLAYER_91)})


#: Protocols whose strings are UTF-8 (Quake Live's 91; UDT ``utils.cpp`` ``QL_Unicode``); the others turn bytes
#: above 127 into '.'.
UTF8_PROTOCOLS = frozenset({91})


def tables_for(protocol: int) -> ProtocolTables | None:
    """The field tables of ``protocol``, or ``None`` if it is not one this decoder reads."""
    return PROTOCOLS.get(protocol)


_V3 = (np.float32, (3,))

#: ``entityState_t`` (q_shared.h); ``pos``/``apos`` trajectories flattened to ``pos_trType`` … ``apos_trDelta``.
ENTITY_STATE = np.dtype([
    ("number", np.int32), ("eType", np.int32), ("eFlags", np.int32),
    ("pos_trType", np.int32), ("pos_trTime", np.int32), ("pos_trDuration", np.int32),
    ("pos_trBase", *_V3), ("pos_trDelta", *_V3),
    ("apos_trType", np.int32), ("apos_trTime", np.int32), ("apos_trDuration", np.int32),
    ("apos_trBase", *_V3), ("apos_trDelta", *_V3),
    ("time", np.int32), ("time2", np.int32),
    ("origin", *_V3), ("origin2", *_V3), ("angles", *_V3), ("angles2", *_V3),
    ("otherEntityNum", np.int32), ("otherEntityNum2", np.int32), ("groundEntityNum", np.int32),
    ("constantLight", np.int32), ("loopSound", np.int32), ("modelindex", np.int32), ("modelindex2", np.int32),
    ("clientNum", np.int32), ("frame", np.int32), ("solid", np.int32), ("event", np.int32),
    ("eventParm", np.int32), ("powerups", np.int32), ("weapon", np.int32), ("legsAnim", np.int32),
    ("torsoAnim", np.int32), ("generic1", np.int32),
])

_A16 = (np.int32, (MAX_PS_ARRAY,))

#: The transmitted part of ``playerState_t`` (q_shared.h), in the struct's order.
PLAYER_STATE = np.dtype([
    ("commandTime", np.int32), ("pm_type", np.int32), ("bobCycle", np.int32), ("pm_flags", np.int32),
    ("pm_time", np.int32), ("origin", *_V3), ("velocity", *_V3), ("weaponTime", np.int32), ("gravity", np.int32),
    ("speed", np.int32), ("delta_angles", np.int32, (3,)), ("groundEntityNum", np.int32),
    ("legsTimer", np.int32), ("legsAnim", np.int32), ("torsoTimer", np.int32), ("torsoAnim", np.int32),
    ("movementDir", np.int32), ("grapplePoint", *_V3), ("eFlags", np.int32), ("eventSequence", np.int32),
    ("events", np.int32, (2,)), ("eventParms", np.int32, (2,)), ("externalEvent", np.int32),
    ("externalEventParm", np.int32), ("clientNum", np.int32), ("weapon", np.int32), ("weaponstate", np.int32),
    ("viewangles", *_V3), ("viewheight", np.int32), ("damageEvent", np.int32), ("damageYaw", np.int32),
    ("damagePitch", np.int32), ("damageCount", np.int32),
    ("stats", *_A16), ("persistant", *_A16), ("powerups", *_A16), ("ammo", *_A16),
    ("generic1", np.int32), ("loopSound", np.int32), ("jumppad_ent", np.int32),
])


@lru_cache(maxsize=16)
def _slots(table: FieldTable, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """(table columns, 32-bit slots of the record ``dtype``) of each table entry the record has; Quake Live's
    extra fields (``jumpTime``, ``health`` …) are decoded but have no slot and are not kept.  Every field of the
    records is 4 bytes wide, so a record is a row of 32-bit slots and a float's bit pattern copies as is."""
    columns, slots = [], []
    for i, name in enumerate(table.names):
        field, _, rest = name.replace(".", "_").partition("[")
        if dtype.fields is not None and field in dtype.fields:
            columns.append(i)
            slots.append(dtype.fields[field][1] // 4 + (int(rest[:-1]) if rest else 0))
    return np.array(columns, np.intp), np.array(slots, np.intp)


def _records(raw: np.ndarray, table: FieldTable, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """Zeroed ``dtype`` records for the rows of ``raw`` with the table's fields filled in, and the same memory as
    rows of 32-bit slots (for the caller's other fields)."""
    slots = np.zeros((len(raw), dtype.itemsize // 4), np.int32)
    columns, where = _slots(table, dtype)
    slots[:, where] = raw[:, columns]
    return slots.view(dtype).reshape(len(raw)), slots


def entity_records(numbers: np.ndarray, raw: np.ndarray, table: FieldTable) -> np.ndarray:
    """Structured :data:`ENTITY_STATE` rows from entity numbers and raw field values (rows × table fields)."""
    out, _ = _records(raw, table, ENTITY_STATE)
    out["number"] = numbers
    return out


def player_records(raw: np.ndarray, table: FieldTable) -> np.ndarray:
    """Structured :data:`PLAYER_STATE` rows from raw player states (table fields, then the four arrays)."""
    out, slots = _records(raw, table, PLAYER_STATE)
    fields = PLAYER_STATE.fields
    assert fields is not None
    start = len(table.names)
    for k, (name, _) in enumerate(PLAYER_ARRAYS):
        at = fields[name][1] // 4
        slots[:, at:at + MAX_PS_ARRAY] = raw[:, start + k * MAX_PS_ARRAY: start + (k + 1) * MAX_PS_ARRAY]
    return out
