"""Quake II server messages: one handler per ``svc_*``, filling a :class:`~..kit.builder.TimelineBuilder`.

A server frame is ``svc_frame`` (server frame number, the frame it is a delta from, the suppress count, the area
bits), then ``svc_playerinfo`` (the recorder's ``player_state_t`` as a delta) and ``svc_packetentities`` (the
visible entities as a delta against the delta frame's set, merged by
:func:`~..kit.packet_entities.merge_packet_entities`).  Entity and player-state updates are field tables compiled per
bit mask by :mod:`..kit.deltas`; like ``CL_ParseDelta`` every update starts with ``old_origin`` = the old origin
and ``event`` = 0.  One timeline frame per server frame (10 Hz, ``time = serverframe / 10``); the messages after a
frame in its block (sounds, temp entities) belong to it.

The recorder's view is the pmove origin + view offset, its angles the view angles + kick angles
(``CL_CalcViewValues``); the previous server frame's gun frame and fov are kept beside this one's
(``gunframe_prev``, ``fov_prev``) for the lerps the engine does.  Stats and the rest of the player state go to the
stat columns of :data:`~..schema.QUAKE2`.  Configstrings are kept over time (``meta["configstring_changes"]``, see
:mod:`.configstrings`); player names come from the player-skin configstrings.  A segment's ``model_precache`` is
the model configstrings padded to 256 entries, then one entry per client slot (model ``256 + slot``): the picture
of its skin, ``players/<model>/<skin>.pcx`` (its model is ``tris.md2`` beside it), for the entities drawn with
model index 255 (``CL_ParseClientinfo``).  Its ``sky`` is the texts of the sky configstrings (``CL_PrepRefresh``).

References: Uwe Girlich, "The unofficial DM2 format description" v1.0.1, section 3; Quake II 3.20
``client/cl_parse.c`` ``CL_ParseServerMessage``, ``CL_ParseServerData``, ``CL_ParseConfigString``,
``CL_ParseStartSoundPacket``, ``CL_ParseDownload``; ``client/cl_ents.c`` ``CL_ParseFrame``,
``CL_ParseEntityBits``, ``CL_ParseDelta``, ``CL_ParsePacketEntities``, ``CL_ParsePlayerstate``;
``client/cl_tent.c`` ``CL_ParseTEnt``; ``client/cl_fx.c`` ``CL_ParseMuzzleFlash`` / ``CL_ParseMuzzleFlash2``.
"""

from __future__ import annotations

import struct
from collections import Counter
from typing import Any

import numpy as np

from ...errors import UnsupportedFormatError
from ...models.anorms import ANORMS
from .. import events as ev
from ..kit.builder import TimelineBuilder
from ..kit.deltas import DeltaPlans, Field, Op
from ..kit.messages import Corrupt, handler_table, read_string
from ..kit.packet_entities import EntitySet, FrameRing, carry_forward, merge_packet_entities, packed_rows
from ..kit.rows import RowLayout, states_from_rows
from ..schema import QUAKE2
from ..timeline import DemoTimeline
from . import protocol as P
from .configstrings import ConfigStrings, parse_player_skin
from .monster_flashes import monster_flash_name
from .obituaries import parse_quake2_obituary

__all__ = ["Quake2Parser", "ROW_LAYOUT", "FMT", "entity_fields", "player_fields"]

FMT = "DM2"

_S16 = struct.Struct("<h")
_U16 = struct.Struct("<H")
_S32 = struct.Struct("<i")
_POS = struct.Struct("<3h")
_FRAME = struct.Struct("<iiB")
_FRAME_OLD = struct.Struct("<ii")

# Entity state row (entity_state_t): number, modelindex 1-4, frame, skin, effects, renderfx, sound, event, solid;
# origin xyz, angles xyz, old_origin xyz.
_ROW = struct.Struct("<12i9f")
_NCOL = 21
(_NUM, _MODEL, _MODEL2, _MODEL3, _MODEL4, _FRAMEC, _SKIN, _EFFECTS, _RENDERFX, _SOUND, _EVENT, _SOLID,
 _OX, _OY, _OZ, _AX, _AY, _AZ, _OLDX, _OLDY, _OLDZ) = range(_NCOL)
_NULL_STATE: tuple = (0,) * 12 + (0.0,) * 9
_ANGLE8 = 360.0 / 256.0
_ANGLE16 = 360.0 / 65536.0
_HEADER_BITS = P.U_MOREBITS1 | P.U_MOREBITS2 | P.U_MOREBITS3 | P.U_NUMBER16 | P.U_REMOVE


def _row_columns(raw: np.ndarray) -> dict[str, np.ndarray]:
    ints, flts = raw["i"], raw["f"]
    n = len(raw)

    def col(i: int) -> np.ndarray:
        return np.ascontiguousarray(ints[:, i])

    return {
        "number": col(_NUM), "model": col(_MODEL), "frame": col(_FRAMEC), "colormap": np.zeros(n, np.int32),
        "skin": col(_SKIN), "effects": col(_EFFECTS), "origin": np.ascontiguousarray(flts[:, 0:3]),
        "angles": np.ascontiguousarray(flts[:, 3:6]), "alpha": np.ones(n, np.float32),
        "scale": np.ones(n, np.float32), "frame_interval": np.full(n, QUAKE2.pose_interval, np.float32),
        "model2": col(_MODEL2), "model3": col(_MODEL3), "model4": col(_MODEL4), "renderfx": col(_RENDERFX),
        "sound": col(_SOUND), "event": col(_EVENT), "solid": col(_SOLID),
        "old_origin": np.ascontiguousarray(flts[:, 6:9]),
    }


ROW_LAYOUT = RowLayout(_ROW, np.dtype([("i", "<i4", 12), ("f", "<f4", 9)]), lambda raw: raw["i"][:, 0],
                       _row_columns)


def _width_pair(low: int, high: int, column: int) -> list[Field]:
    """Quake II's 8 / 16 / 32-bit fields: low bit alone a byte, high alone a short, both a long."""
    return [Field(low | high, "i", column), Field(low, "B", column, unless=high), Field(high, "H", column, unless=low)]


def entity_fields() -> tuple[Field, ...]:
    """The entity-delta fields in ``CL_ParseDelta`` read order (``old_origin`` starts as the old origin)."""
    out = [Field(0, "", _OLDX, op=Op.COPY, offset=_OX), Field(0, "", _OLDY, op=Op.COPY, offset=_OY),
           Field(0, "", _OLDZ, op=Op.COPY, offset=_OZ),
           Field(P.U_MODEL, "B", _MODEL), Field(P.U_MODEL2, "B", _MODEL2), Field(P.U_MODEL3, "B", _MODEL3),
           Field(P.U_MODEL4, "B", _MODEL4), Field(P.U_FRAME8, "B", _FRAMEC), Field(P.U_FRAME16, "H", _FRAMEC)]
    out += _width_pair(P.U_SKIN8, P.U_SKIN16, _SKIN)
    out += _width_pair(P.U_EFFECTS8, P.U_EFFECTS16, _EFFECTS)
    out += _width_pair(P.U_RENDERFX8, P.U_RENDERFX16, _RENDERFX)
    out += [Field(P.U_ORIGIN1, "h", _OX, 0.125), Field(P.U_ORIGIN2, "h", _OY, 0.125),
            Field(P.U_ORIGIN3, "h", _OZ, 0.125),
            Field(P.U_ANGLE1, "b", _AX, _ANGLE8), Field(P.U_ANGLE2, "b", _AY, _ANGLE8),
            Field(P.U_ANGLE3, "b", _AZ, _ANGLE8),
            Field(P.U_OLDORIGIN, "h", _OLDX, 0.125), Field(P.U_OLDORIGIN, "h", _OLDY, 0.125),
            Field(P.U_OLDORIGIN, "h", _OLDZ, 0.125),
            Field(P.U_SOUND, "B", _SOUND), Field(P.U_EVENT, "B", _EVENT), Field(P.U_SOLID, "H", _SOLID)]
    return tuple(out)


# Player state row (player_state_t in wire units): a dummy number column, pm_type, pm origin xyz (1/8 units),
# velocity xyz, pm_time, pm_flags, gravity, delta angles xyz (angle16), view offset xyz (1/4), view angles xyz
# (angle16), kick angles xyz (1/4 degree), gun index, gun frame, gun offset xyz, gun angles xyz (1/4), blend rgba, fov,
# rdflags.
_PS_NCOL = 37
_PS_ROW = struct.Struct(f"<{_PS_NCOL}i")
_NULL_PS: tuple = (0,) * _PS_NCOL
(_PM_TYPE, _PM_ORIGIN, _PM_VELOCITY, _PM_TIME, _PM_FLAGS, _PM_GRAVITY, _PM_DELTA, _VIEWOFFSET, _VIEWANGLES, _KICK,
 _GUNINDEX, _GUNFRAME, _GUNOFFSET, _GUNANGLES, _BLEND, _FOV, _RDFLAGS) = (
    1, 2, 5, 8, 9, 10, 11, 14, 17, 20, 23, 24, 25, 28, 31, 35, 36)


def player_fields() -> tuple[Field, ...]:
    """The player-state fields in ``CL_ParsePlayerstate`` read order."""
    def three(bit: int, code: str, first: int) -> list[Field]:
        return [Field(bit, code, first + i) for i in range(3)]

    return tuple([Field(P.PS_M_TYPE, "B", _PM_TYPE)] + three(P.PS_M_ORIGIN, "h", _PM_ORIGIN)
                 + three(P.PS_M_VELOCITY, "h", _PM_VELOCITY)
                 + [Field(P.PS_M_TIME, "B", _PM_TIME), Field(P.PS_M_FLAGS, "B", _PM_FLAGS),
                    Field(P.PS_M_GRAVITY, "h", _PM_GRAVITY)]
                 + three(P.PS_M_DELTA_ANGLES, "h", _PM_DELTA) + three(P.PS_VIEWOFFSET, "b", _VIEWOFFSET)
                 + three(P.PS_VIEWANGLES, "h", _VIEWANGLES) + three(P.PS_KICKANGLES, "b", _KICK)
                 + [Field(P.PS_WEAPONINDEX, "B", _GUNINDEX), Field(P.PS_WEAPONFRAME, "B", _GUNFRAME)]
                 + three(P.PS_WEAPONFRAME, "b", _GUNOFFSET) + three(P.PS_WEAPONFRAME, "b", _GUNANGLES)
                 + [Field(P.PS_BLEND, "B", _BLEND + i) for i in range(4)]
                 + [Field(P.PS_FOV, "B", _FOV), Field(P.PS_RDFLAGS, "B", _RDFLAGS)])


_ENTITY_FIELDS = entity_fields()
_PLAYER_FIELDS = player_fields()


def _carry(item: tuple[int, Any, bytes]) -> tuple[int, Any, bytes]:
    """An entity the frame does not update: ``CL_ParseDelta`` with no bits (event cleared, old_origin = origin)."""
    s = item[1]
    if s[_EVENT] == 0 and s[_OLDX] == s[_OX] and s[_OLDY] == s[_OY] and s[_OLDZ] == s[_OZ]:
        return item
    s = s[:_EVENT] + (0,) + s[_EVENT + 1:_OLDX] + s[_OX:_OZ + 1]
    return item[0], s, _ROW.pack(*s)


class Quake2Parser:
    """The client state of one ``.dm2`` pass and a handler per message (``table``); :mod:`.framing` reads the
    blocks."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.b = TimelineBuilder(path, FMT, QUAKE2, ROW_LAYOUT, frames_open_at_start=True, shift_segments=False,
                                 store_repeats_once=True)
        self.table = handler_table(self, P.SVC_NAMES)
        self.entity_plans = DeltaPlans(_ENTITY_FIELDS, _NCOL, _ROW)
        self.player_plans = DeltaPlans(_PLAYER_FIELDS, _PS_NCOL, _PS_ROW)
        self.counts: Counter[str] = Counter()
        self.temp_entity_counts: Counter[str] = Counter()
        self.ended = False
        # level
        self.protocol: int | None = None
        self.attractloop = 0
        self.gamedir = ""
        self.playernum = 0
        self.level_name = ""
        self.configstrings: dict[int, str] = {}
        self.cs_changes: list[tuple[int, int, str]] = []
        self.baselines: dict[int, tuple] = {}
        self.level_started = False
        # frames
        self.ring: FrameRing[tuple[EntitySet, tuple, tuple[int, ...]]] = FrameRing(2 * P.UPDATE_BACKUP)
        self.current: EntitySet = []
        self.ps: tuple = _NULL_PS
        self.stats: tuple[int, ...] = (0,) * P.MAX_STATS
        self.prev_stats: tuple[int, ...] = self.stats
        self.prev_pm_type = 0
        self.prev_frame: tuple[int, tuple] = (-1, _NULL_PS)      # the last closed frame's number and player state
        self.serverframe = 0
        self.old: tuple[EntitySet, tuple, tuple[int, ...]] = ([], _NULL_PS, self.stats)
        self.frame_open = False
        self.invalid_deltas = 0

    # --- reading helpers ------------------------------------------------------------------------------------------

    @staticmethod
    def _pos(data: bytes, p: int) -> tuple[tuple[float, float, float], int]:
        x, y, z = _POS.unpack_from(data, p)
        return (x * 0.125, y * 0.125, z * 0.125), p + 6

    @staticmethod
    def _dir(data: bytes, p: int) -> tuple[tuple[float, float, float], int]:
        code = data[p]
        if code >= len(ANORMS):
            raise Corrupt(f"a direction index below {len(ANORMS)}, found {code}")
        x, y, z = ANORMS[code].tolist()
        return (x, y, z), p + 1

    def read_entity_header(self, data: bytes, p: int, end: int) -> tuple[int, Any, int]:
        """``CL_ParseEntityBits``: the bit mask and entity number; ``(-1, None, p)`` for the list's end, plan
        ``None`` for a removal."""
        bits = data[p]
        p += 1
        if bits & P.U_MOREBITS1:
            bits |= data[p] << 8
            p += 1
            if bits & P.U_MOREBITS2:
                bits |= data[p] << 16
                p += 1
                if bits & P.U_MOREBITS3:
                    bits |= data[p] << 24
                    p += 1
        if bits & P.U_NUMBER16:
            num = _U16.unpack_from(data, p)[0]
            p += 2
        else:
            num = data[p]
            p += 1
        if num >= P.MAX_EDICTS:
            raise Corrupt(f"an entity number below {P.MAX_EDICTS}, found {num}")
        if num == 0:
            return -1, None, p
        if bits & P.U_REMOVE:
            return num, None, p
        return num, self.entity_plans[bits & ~_HEADER_BITS], p

    # --- level and configstrings ----------------------------------------------------------------------------------

    def parse_svc_serverdata(self, data: bytes, p: int, end: int) -> int:
        self.counts["serverdata"] += 1
        protocol = _S32.unpack_from(data, p)[0]
        if protocol not in P.SUPPORTED_PROTOCOLS:
            raise UnsupportedFormatError(self.path, FMT, p, "Quake II protocol 26..34",
                                         f"{P.unsupported_protocol(protocol)} at offset {p}")
        if self.frame_open:
            raise Corrupt("svc_playerinfo and svc_packetentities before the next svc_serverdata")
        self.protocol = protocol
        self.attractloop = data[p + 8]
        self.gamedir, p = read_string(data, p + 9, end)
        self.playernum = _S16.unpack_from(data, p)[0]
        self.level_name, p = read_string(data, p + 2, end)
        # A new level (CL_ClearState): configstrings, baselines and frames start over.
        self.configstrings = {}
        self.baselines = {}
        self.current = []
        self.ring = FrameRing(2 * P.UPDATE_BACKUP)
        self.level_started = False
        self.prev_frame = (-1, _NULL_PS)
        return p

    def parse_svc_configstring(self, data: bytes, p: int, end: int) -> int:
        self.counts["configstring"] += 1
        index = _S16.unpack_from(data, p)[0]
        if not 0 <= index < P.MAX_CONFIGSTRINGS:
            raise Corrupt(f"a configstring index 0..{P.MAX_CONFIGSTRINGS - 1}, found {index}")
        text, p = read_string(data, p + 2, end)
        self.configstrings[index] = text
        self.cs_changes.append((self.b.event_frame(), index, text))
        if self.level_started:
            if P.CS_PLAYERSKINS <= index < P.CS_PLAYERSKINS + P.MAX_CLIENTS:
                self._set_player(index - P.CS_PLAYERSKINS, text)
            if (P.CS_SKY <= index <= P.CS_SKYROTATE or P.CS_MODELS <= index < P.CS_SOUNDS + P.MAX_SOUNDS
                    or P.CS_PLAYERSKINS <= index < P.CS_GENERAL):
                self._set_precache(self.b.segments[-1])
        return p

    def _set_precache(self, seg: dict[str, Any]) -> None:
        models = ConfigStrings.models(self.configstrings)
        skins = ConfigStrings.player_skins(self.configstrings)
        if skins:            # client slot s: model 256 + s, its skin picture (the model is tris.md2 beside it)
            models += ("",) * (P.MAX_MODELS - len(models))
            models += tuple(f"players/{skins[s].model}/{skins[s].skin}.pcx" if s in skins else ""
                            for s in range(max(skins) + 1))
        seg["model_precache"] = models
        seg["sound_precache"] = ConfigStrings.sounds(self.configstrings)
        seg["map_path"] = self.configstrings.get(P.CS_MODELS + 1, "")
        sky = self.configstrings.get(P.CS_SKY, "")
        seg["sky"] = (sky, self.configstrings.get(P.CS_SKYROTATE, "0"),
                      self.configstrings.get(P.CS_SKYAXIS, "0 0 1")) if sky else None

    def _set_player(self, slot: int, text: str) -> None:
        if slot < len(self.b.scores):
            self.b.score(slot, "a player-skin configstring")["name"] = parse_player_skin(text).name
            self.b.score_changed(slot)

    def _start_level(self) -> None:
        """The first frame of a level: its segment, from the configstrings and baselines received so far."""
        try:
            maxclients = int(self.configstrings.get(P.CS_MAXCLIENTS, "") or 0)
        except ValueError:
            maxclients = 0
        maxclients = min(max(maxclients, self.playernum + 1, 1), P.MAX_CLIENTS)
        seg = self.b.begin_segment(maxclients, level_name=self.level_name, protocol=self.protocol,
                                   maxclients=maxclients, gametype=1 if maxclients > 1 else 0)
        self._set_precache(seg)
        seg["baselines"] = states_from_rows(ROW_LAYOUT, sorted(self.baselines.items()))
        self.b.emit(ev.ServerInfoEvent, None, self.level_name, self.protocol or 0, maxclients)
        for index, text in sorted(self.configstrings.items()):
            if P.CS_PLAYERSKINS <= index < P.CS_PLAYERSKINS + P.MAX_CLIENTS:
                self._set_player(index - P.CS_PLAYERSKINS, text)
        self.level_started = True

    def parse_svc_spawnbaseline(self, data: bytes, p: int, end: int) -> int:
        self.counts["spawnbaseline"] += 1
        num, plan, p = self.read_entity_header(data, p, end)
        if num < 0 or plan is None:
            raise Corrupt("a baseline for an entity number above 0 without U_REMOVE")
        state, _row, p = plan(data, p, _NULL_STATE, num)
        self.baselines[num] = state
        return p

    # --- frames -----------------------------------------------------------------------------------------------------

    def parse_svc_frame(self, data: bytes, p: int, end: int) -> int:
        self.counts["frame"] += 1
        if self.frame_open:
            raise Corrupt("svc_packetentities to complete the previous frame")
        if self.protocol is None:
            raise Corrupt("svc_serverdata before the first frame")
        if self.attractloop == P.RECORD_SERVER:
            serverframe, deltaframe = _S32.unpack_from(data, p)[0], -1
            p += 4
        else:
            if self.protocol != P.PROTOCOL_OLD:
                serverframe, deltaframe, _suppress = _FRAME.unpack_from(data, p)
                p += _FRAME.size
            else:
                serverframe, deltaframe = _FRAME_OLD.unpack_from(data, p)
                p += _FRAME_OLD.size
            count = data[p]
            if count > P.MAX_MAP_AREAS // 8:
                raise Corrupt(f"at most {P.MAX_MAP_AREAS // 8} area bytes, found {count}")
            p += 1 + count
        if deltaframe <= 0:
            self.old = ([], _NULL_PS, (0,) * P.MAX_STATS)
        else:
            found = self.ring.get(deltaframe, serverframe, -1)
            if found is None:                 # CL_ParseFrame: "delta from invalid frame"; parse it against nothing
                self.invalid_deltas += 1
                found = ([], _NULL_PS, (0,) * P.MAX_STATS)
            self.old = found
        if not self.level_started:
            self._start_level()
        self.serverframe = serverframe
        self.ps, self.stats = self.old[1], self.old[2]
        self.b.open_frame(serverframe * 0.1)
        self.frame_open = True
        if self.attractloop == P.RECORD_SERVER:
            self.ps = _NULL_PS
        return p

    def parse_svc_playerinfo(self, data: bytes, p: int, end: int) -> int:
        self.counts["playerinfo"] += 1
        if not self.frame_open:
            raise Corrupt("svc_playerinfo right after svc_frame")
        flags = _U16.unpack_from(data, p)[0]
        self.ps, _row, p = self.player_plans[flags](data, p + 2, self.old[1], 0)
        statbits = _S32.unpack_from(data, p)[0] & 0xFFFFFFFF
        p += 4
        if statbits:
            stats = list(self.stats)
            for i in range(P.MAX_STATS):
                if statbits & (1 << i):
                    stats[i] = _S16.unpack_from(data, p)[0]
                    p += 2
            self.stats = tuple(stats)
        return p

    def parse_svc_packetentities(self, data: bytes, p: int, end: int) -> int:
        self.counts["packetentities"] += 1
        if not self.frame_open:
            raise Corrupt("svc_packetentities after svc_frame")
        new, fresh, p = merge_packet_entities(data, p, end, self.old[0], self.read_entity_header, self.baselines,
                                              _NULL_STATE, P.MAX_PACKET_ENTITIES)
        self.current = new
        self.b.rows += packed_rows(new)
        self._close_frame()
        self.ring.store(self.serverframe, (carry_forward(new, fresh, _carry), self.ps, self.stats))
        return p

    def _close_frame(self) -> None:
        ps = self.ps
        b = self.b
        b.view_entity.append(self.playernum + 1)
        o, vo = ps[_PM_ORIGIN:_PM_ORIGIN + 3], ps[_VIEWOFFSET:_VIEWOFFSET + 3]
        b.view_origin.extend((o[0] * 0.125 + vo[0] * 0.25, o[1] * 0.125 + vo[1] * 0.25, o[2] * 0.125 + vo[2] * 0.25))
        a, k = ps[_VIEWANGLES:_VIEWANGLES + 3], ps[_KICK:_KICK + 3]
        b.view_angles.extend((a[0] * _ANGLE16 + k[0] * 0.25, a[1] * _ANGLE16 + k[1] * 0.25,
                              a[2] * _ANGLE16 + k[2] * 0.25))
        pm_type = ps[_PM_TYPE]
        # CL_CalcViewValues lerps the gun frame and fov from the previous server frame's state (this one's when the
        # previous frame is not the one before)
        ops = self.prev_frame[1] if self.prev_frame[0] == self.serverframe - 1 else ps
        b.record_stats(list(self.stats) + [
            pm_type, ps[_PM_FLAGS], ps[_PM_TIME], ps[_PM_GRAVITY], ps[_GUNINDEX], ps[_GUNFRAME], ps[_FOV],
            ps[_RDFLAGS], *ps[_BLEND:_BLEND + 4], *vo, *k, *ps[_GUNOFFSET:_GUNOFFSET + 3],
            *ps[_GUNANGLES:_GUNANGLES + 3], int(pm_type == P.PM_FREEZE), ops[_GUNFRAME], ops[_FOV]])
        pickup = self.stats[P.STAT_PICKUP_STRING]
        if pickup and pickup != self.prev_stats[P.STAT_PICKUP_STRING]:
            item = self.configstrings.get(pickup, "")
            b.emit(ev.ItemPickupEvent, self.playernum, item, item)
        if pm_type == P.PM_FREEZE and self.prev_pm_type != P.PM_FREEZE:
            b.emit(ev.IntermissionEvent)
        self.prev_stats = self.stats
        self.prev_pm_type = pm_type
        self.prev_frame = (self.serverframe, ps)
        self.frame_open = False

    def drop_open_frame(self) -> None:
        """A block failed after its ``svc_frame``: forget that frame."""
        if self.frame_open:
            self.b.drop_from(self.b.num_frames - 1)
            self.frame_open = False

    # --- events -------------------------------------------------------------------------------------------------------

    def parse_svc_muzzleflash(self, data: bytes, p: int, end: int) -> int:
        self.counts["muzzleflash"] += 1
        entity = _S16.unpack_from(data, p)[0]
        value = data[p + 2]
        if not 0 < entity < P.MAX_EDICTS:
            raise Corrupt(f"a muzzle flash entity 1..{P.MAX_EDICTS - 1}, found {entity}")
        self.b.emit(ev.MuzzleFlashEvent, entity, P.muzzle_flash_name(value), bool(value & P.MZ_SILENCED), False)
        return p + 3

    def parse_svc_muzzleflash2(self, data: bytes, p: int, end: int) -> int:
        self.counts["muzzleflash2"] += 1
        entity = _S16.unpack_from(data, p)[0]
        value = data[p + 2]
        if not 0 < entity < P.MAX_EDICTS:
            raise Corrupt(f"a muzzle flash entity 1..{P.MAX_EDICTS - 1}, found {entity}")
        self.b.emit(ev.MuzzleFlashEvent, entity, monster_flash_name(value), False, True)
        return p + 3

    def parse_svc_temp_entity(self, data: bytes, p: int, end: int) -> int:
        self.counts["temp_entity"] += 1
        kind = data[p]
        p += 1
        if kind >= len(P.TE_KINDS) or kind in P.TE_UNPARSED:
            raise Corrupt(f"a temp entity kind the engine parses, found {kind}")
        name, shape = P.TE_KINDS[kind]
        self.temp_entity_counts[name] += 1
        end_pos = direction = None
        entity = count = color = None
        extra: tuple[float, ...] = ()
        if shape == "point":
            origin, p = self._pos(data, p)
        elif shape == "impact":
            origin, p = self._pos(data, p)
            direction, p = self._dir(data, p)
        elif shape in ("line", "blue_hyper"):
            origin, p = self._pos(data, p)
            end_pos, p = self._pos(data, p)
        elif shape == "splash":
            count = data[p]
            origin, p = self._pos(data, p + 1)
            direction, p = self._dir(data, p)
            color = data[p]
            p += 1
        elif shape in ("beam", "beam_offset"):
            entity = _S16.unpack_from(data, p)[0]
            origin, p = self._pos(data, p + 2)
            end_pos, p = self._pos(data, p)
            if shape == "beam_offset":
                offset, p = self._pos(data, p)
                extra = offset
        elif shape == "lightning":
            entity, target = _S16.unpack_from(data, p)[0], _S16.unpack_from(data, p + 2)[0]
            origin, p = self._pos(data, p + 4)
            end_pos, p = self._pos(data, p)
            extra = (float(target),)
        elif shape == "flashlight":
            origin, p = self._pos(data, p)
            entity = _S16.unpack_from(data, p)[0]
            p += 2
        elif shape == "forcewall":
            origin, p = self._pos(data, p)
            end_pos, p = self._pos(data, p)
            color = data[p]
            p += 1
        elif shape == "steam":
            steam_id = _S16.unpack_from(data, p)[0]
            count = data[p + 2]
            origin, p = self._pos(data, p + 3)
            direction, p = self._dir(data, p)
            color = data[p]
            magnitude = _S16.unpack_from(data, p + 1)[0]
            p += 3
            extra = (float(steam_id), float(magnitude))
            if steam_id != -1:
                extra += (float(_S32.unpack_from(data, p)[0]),)
                p += 4
        else:                                                      # "widow"
            entity = _S16.unpack_from(data, p)[0]
            origin, p = self._pos(data, p + 2)
        if p > end:
            raise Corrupt(f"the {name} temp entity inside its block")
        self.b.emit(ev.TempEntityEvent, name, origin, end_pos, entity, None, None, count, direction, color, extra)
        return p

    def parse_svc_layout(self, data: bytes, p: int, end: int) -> int:
        self.counts["layout"] += 1
        text, p = read_string(data, p, end)
        self.b.emit(ev.LayoutEvent, text)
        return p

    def parse_svc_inventory(self, data: bytes, p: int, end: int) -> int:
        self.counts["inventory"] += 1
        if end - p < 2 * P.MAX_ITEMS:
            raise Corrupt(f"{P.MAX_ITEMS} inventory counts")
        counts = struct.unpack_from(f"<{P.MAX_ITEMS}h", data, p)
        self.b.emit(ev.InventoryEvent, counts)
        return p + 2 * P.MAX_ITEMS

    def parse_svc_nop(self, data: bytes, p: int, end: int) -> int:
        self.counts["nop"] += 1
        return p

    def parse_svc_disconnect(self, data: bytes, p: int, end: int) -> int:
        self.counts["disconnect"] += 1
        self.b.emit(ev.DisconnectEvent)
        self.ended = True
        return end

    def parse_svc_reconnect(self, data: bytes, p: int, end: int) -> int:
        self.counts["reconnect"] += 1
        self.b.emit(ev.ReconnectEvent)
        return p

    def parse_svc_sound(self, data: bytes, p: int, end: int) -> int:
        self.counts["sound"] += 1
        flags = data[p]
        index = data[p + 1]
        p += 2
        volume = P.DEFAULT_SOUND_PACKET_VOLUME
        attenuation = P.DEFAULT_SOUND_PACKET_ATTENUATION
        if flags & P.SND_VOLUME:
            volume = data[p] / 255.0
            p += 1
        if flags & P.SND_ATTENUATION:
            attenuation = data[p] / 64.0
            p += 1
        if flags & P.SND_OFFSET:
            p += 1                                      # time offset in ms within the frame: not kept
        entity = channel = 0
        if flags & P.SND_ENT:
            value = _U16.unpack_from(data, p)[0]
            p += 2
            entity, channel = value >> 3, value & 7
            if entity > P.MAX_EDICTS:
                raise Corrupt(f"a sound entity up to {P.MAX_EDICTS}, found {entity}")
        origin: tuple[float, float, float]
        if flags & P.SND_POS:
            origin, p = self._pos(data, p)
        else:
            origin = self._entity_origin(entity)
        name = self.configstrings.get(P.CS_SOUNDS + index, "")
        self.b.emit(ev.SoundEvent, entity, channel, index, name, volume, attenuation, origin)
        return p

    def _entity_origin(self, entity: int) -> tuple[float, float, float]:
        for num, state, _ in self.current:
            if num == entity:
                return state[_OX], state[_OY], state[_OZ]
        return 0.0, 0.0, 0.0

    def _names(self) -> list[str]:
        return [s["name"] for s in self.b.scores if s["name"]]

    def parse_svc_print(self, data: bytes, p: int, end: int) -> int:
        self.counts["print"] += 1
        level = data[p]
        text, p = read_string(data, p + 1, end)
        b = self.b
        b.emit(ev.PrintEvent, text, level)
        if level == P.PRINT_CHAT:
            chat = ev.parse_chat(text, self._names())
            if chat is not None:
                sender, team, message = chat
                slot = next((i for i, s in enumerate(b.scores) if s["name"] == sender), -1)
                b.emit(ev.ChatEvent, sender, slot, team, message)
        elif level == P.PRINT_MEDIUM:                  # ClientObituary prints at this level
            ob = parse_quake2_obituary(text, self._names())
            if ob is not None:
                b.emit(ev.ObituaryEvent, ob.victim, ob.killer, ob.weapon, ob.suicide, text)
        return p

    def parse_svc_stufftext(self, data: bytes, p: int, end: int) -> int:
        self.counts["stufftext"] += 1
        text, p = read_string(data, p, end)
        self.b.emit(ev.StuffTextEvent, text)           # recorded, never executed
        return p

    def parse_svc_centerprint(self, data: bytes, p: int, end: int) -> int:
        self.counts["centerprint"] += 1
        text, p = read_string(data, p, end)
        self.b.emit(ev.CenterPrintEvent, text)
        return p

    def parse_svc_download(self, data: bytes, p: int, end: int) -> int:
        self.counts["download"] += 1
        size = _S16.unpack_from(data, p)[0]
        p += 3                                          # size, percent
        if size == -1:
            return p
        if size < 0 or p + size > end:
            raise Corrupt(f"a download chunk of 0..{max(end - p, 0)} bytes, found {size}")
        return p + size

    # --- assembly ---------------------------------------------------------------------------------------------------

    def finish(self, blocks: int) -> DemoTimeline:
        if self.frame_open:
            self.drop_open_frame()
        b = self.b
        b.drop_frameless_levels()
        nframes = b.num_frames
        changes = tuple((min(f, max(nframes - 1, 0)), i, t) for f, i, t in self.cs_changes)
        meta = {
            "gamedir": self.gamedir, "attractloop": self.attractloop, "playernum": self.playernum,
            "level_name": self.level_name, "configstring_changes": changes,
            "message_counts": dict(self.counts), "temp_entity_counts": dict(self.temp_entity_counts),
            "invalid_deltas": self.invalid_deltas,
        }
        return b.finish(protocol=self.protocol or 0, protocol_flags=0, block_count=blocks, meta=meta)
