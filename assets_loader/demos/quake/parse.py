"""NetQuake server messages (protocols 15, 666 FitzQuake, 999 RMQ): one handler per ``svc_*`` and the fast entity
update, filling a :class:`~..kit.builder.TimelineBuilder`.  The handlers of the messages QuakeWorld lays out alike
(text, lightstyles, frags, temp entities, damage, static sounds, finale …) are the kit's
(:class:`~..kit.svc_common.SharedSvc`), given this protocol's temp-entity table, stat columns and coordinate
encoding (:mod:`..kit.coords`, picked by the RMQ flags).

Entity updates (message byte with the high bit set) carry the fields their bits name, in ``CL_ParseUpdate`` order
(:func:`update_fields`, a field table for :mod:`..kit.deltas`); fields not sent come from the entity's baseline.
The message loop only walks the updates and keeps where each one starts (:mod:`.update_walk`); they are read all at
once when the timeline is assembled (:mod:`.updates`).
Frames: each ``svc_time`` opens one; it collects the entities updated after it (until the next ``svc_time`` or the end
of the block) and closes at the end of the block with the stats, view entity and view origin of that moment.  Blocks
without a ``svc_time`` (the signon) make no frame; an entity updated outside a frame makes no row (the view entity's
update still places the eye).  ``svc_disconnect`` ends the demo, as in the engine.

References: Uwe Girlich, "The unofficial DEM format description" v1.0.9, section 7 (messages); QuakeSpasm
``cl_parse.c`` ``CL_ParseServerMessage``, ``CL_ParseServerInfo``, ``CL_ParseUpdate``, ``CL_ParseBaseline``,
``CL_ParseClientdata``, ``CL_ParseStatic``, ``CL_ParseStartSoundPacket``; ``gl_fog.c`` ``Fog_ParseServerMessage``.
"""

from __future__ import annotations

import math
from array import array
import struct
from collections.abc import Callable

import numpy as np

from .. import events as ev
from ..kit.builder import TimelineBuilder, map_name_of
from ..kit.coords import (ANGLE_BYTE, ANGLE_FLOAT, ANGLE_SHORT, COORD_24BIT, COORD_FLOAT, COORD_INT32, COORD_SHORT,
                          Encoding, group_reader)
from ..kit.deltas import Field, Op
from ..kit.messages import DECODE_ERRORS, Corrupt, MessageError, handler_table, read_string
from ..kit.rows import RowLayout, decode_entalpha, states_from_rows
from ..kit.svc_common import SharedSvc
from ..schema import QUAKE
from ..timeline import DemoTimeline, StaticSound
from . import protocol as P
from .update_walk import RUN_FIELDS, update_lengths, update_records
from .updates import UPDATE_DTYPE, UpdateTable, decode_updates

__all__ = ["DemParser", "ROW_LAYOUT", "update_fields"]

#: The builder's row: an update's index among the walked ones (it is read from the file when the timeline is made).
_WALKED_INDEX = struct.Struct("<q")

_S8 = struct.Struct("<b")
_S16 = struct.Struct("<h")
_U16 = struct.Struct("<H")
_S32 = struct.Struct("<i")
_F32 = struct.Struct("<f")
_FOG = struct.Struct("<BBBBh")
_PARTICLE_TAIL = struct.Struct("<bbbBB")

# Entity state row: 15 doubles (baselines and decoded updates).
(_NUM, _MODEL, _FRAME, _COLORMAP, _SKIN, _EFFECTS, _OX, _OY, _OZ, _AX, _AY, _AZ, _ALPHA, _SCALE,
 _INTERVAL) = range(15)
_NCOL = 15
_ROW = struct.Struct(f"<{_NCOL}d")
_DEFAULT_STATE = (0, 0, 0, 0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, P.ENTSCALE_DEFAULT, QUAKE.pose_interval)
_NSTAT = len(QUAKE.stat_names)
_ST_ITEMS, _ST_VIEWHEIGHT, _ST_INTERMISSION = (QUAKE.stat_index(n) for n in ("items", "viewheight", "intermission"))


def _state_columns(rows: np.ndarray) -> dict[str, np.ndarray]:
    """Timeline columns of state rows [N, 15]."""
    return {
        "number": rows[:, _NUM].astype(np.int32),
        "model": rows[:, _MODEL].astype(np.int32),
        "frame": rows[:, _FRAME].astype(np.int32),
        "colormap": rows[:, _COLORMAP].astype(np.int32),
        "skin": rows[:, _SKIN].astype(np.int32),
        "effects": rows[:, _EFFECTS].astype(np.int32),
        "origin": np.ascontiguousarray(rows[:, _OX:_OZ + 1], np.float32),
        "angles": np.ascontiguousarray(rows[:, _AX:_AZ + 1], np.float32),
        "alpha": decode_entalpha(rows[:, _ALPHA]),
        "scale": (rows[:, _SCALE] / P.ENTSCALE_DEFAULT).astype(np.float32),
        "frame_interval": rows[:, _INTERVAL].astype(np.float32),
    }


#: Packed entity states (baselines, statics).
ROW_LAYOUT = RowLayout(_ROW, np.dtype([("v", "<f8", (_NCOL,))]), lambda raw: raw["v"][:, _NUM],
                       lambda raw: _state_columns(raw["v"]))


# --- coordinate / angle encodings and the update field table ------------------------------------------------------

def _encodings(flags: int) -> tuple[Encoding, Encoding]:
    """The coordinate and angle encodings the RMQ protocol ``flags`` name (none: the original ones)."""
    coord = (COORD_FLOAT if flags & P.PRFL_FLOATCOORD else COORD_INT32 if flags & P.PRFL_INT32COORD
             else COORD_24BIT if flags & P.PRFL_24BITCOORD else COORD_SHORT)
    angle = ANGLE_FLOAT if flags & P.PRFL_FLOATANGLE else ANGLE_SHORT if flags & P.PRFL_SHORTANGLE else ANGLE_BYTE
    return coord, angle


def update_fields(protocol: int, flags: int) -> tuple[Field, ...]:
    """The fast-update fields in ``CL_ParseUpdate`` read order for ``protocol`` and RMQ ``flags``."""
    out = [Field(P.U_MODEL, "B", _MODEL), Field(P.U_FRAME, "B", _FRAME), Field(P.U_COLORMAP, "B", _COLORMAP),
           Field(P.U_SKIN, "B", _SKIN), Field(P.U_EFFECTS, "B", _EFFECTS)]
    coord, angle = _encodings(flags)
    for obit, abit, oidx, aidx in ((P.U_ORIGIN1, P.U_ANGLE1, _OX, _AX), (P.U_ORIGIN2, P.U_ANGLE2, _OY, _AY),
                                   (P.U_ORIGIN3, P.U_ANGLE3, _OZ, _AZ)):
        out += [Field(obit, code, oidx, scale, op) for code, scale, op in coord]
        out += [Field(abit, code, aidx, scale, op) for code, scale, op in angle]
    if protocol != P.PROTOCOL_NETQUAKE:
        out += [Field(P.U_ALPHA, "B", _ALPHA), Field(P.U_SCALE, "B", _SCALE),
                Field(P.U_FRAME2, "B", _FRAME, op=Op.HIGH_BYTE), Field(P.U_MODEL2, "B", _MODEL, op=Op.HIGH_BYTE),
                Field(P.U_LERPFINISH, "B", _INTERVAL, 1.0 / 255.0, Op.INTERVAL)]
    return tuple(out)


def _precaches(data: bytes, p: int, end: int, limit: int, what: str) -> tuple[list[str], int]:
    """A precache list of ``svc_serverinfo``: names up to an empty one, index 0 none, fewer than ``limit`` in all."""
    names = [""]
    while True:
        name, p = read_string(data, p, end)
        if not name:
            return names, p
        if len(names) >= limit:
            raise Corrupt(f"at most {limit} {what} precaches")
        names.append(name)


class DemParser(SharedSvc):
    """The client state of one NetQuake demo pass and a handler per message (``table``; the handlers QuakeWorld
    shares come from :class:`~..kit.svc_common.SharedSvc`)."""

    te_shapes = P.TE_SHAPES
    te_names = P.TE_NAMES
    max_lightstyles = P.MAX_LIGHTSTYLES
    stat_secrets = P.STAT_SECRETS
    stat_monsters = P.STAT_MONSTERS
    stat_intermission = _ST_INTERMISSION

    def __init__(self, path: str, data: bytes) -> None:
        self.path = path
        self.data = data
        # The builder's rows index the walked updates, read into states when the timeline is made.
        layout = RowLayout(_WALKED_INDEX, np.dtype("<i8"), lambda raw: self.walked_records["number"][raw],
                           lambda raw: _state_columns(self._states(np.take(self.walked_records, raw))))
        self.b = TimelineBuilder(path, "DEM", QUAKE, layout, frames_open_at_start=True, shift_segments=True)
        self.protocol = P.PROTOCOL_NETQUAKE
        self.flags = 0
        self.first_protocol: int | None = None
        self.first_flags = 0
        self.model_precache: tuple[str, ...] = ("",)
        self.sound_names: tuple[str, ...] = ("",)
        self.baselines: dict[int, list] = {}
        self.baseline_log: list[list] = []          # every baseline received, in order (update records index it) ...
        self.baseline_numbers = array("q")           # ... and its entity
        self.level_baselines = 0                     # baselines received before the current level
        self.tables: list[UpdateTable] = []        # the update field tables so far (records index them)
        self.runs = array("q")                      # per run of updates: RUN_FIELDS values (update_walk)
        self.walked = array("q")                    # every update's position, in frames or not (the view's pose)
        self.level_walked = 0                       # updates walked before the current level
        self.alphas: dict[int, int] = {}             # Nehahra alpha by update position
        self.walked_records = np.zeros(0, UPDATE_DTYPE)
        self.statics: list[list] = []
        self.static_sounds: list[StaticSound] = []
        self.stats = [0] * _NSTAT
        self.viewentity = 0
        self.frame_views = array("q")      # per closed frame: updates walked, level_walked, intermission, view height
        self.walked_kept = 0               # updates walked by the last block that parsed
        self.in_frame = False
        self.rows_kept = 0            # rows after this one were updates outside a frame (signon): dropped
        self.block_angles = (0.0, 0.0, 0.0)
        self.ended = False
        self.read_text = read_string
        self.table = handler_table(self, P.SVC_NAMES, 256)
        self._emit = self.b.emit
        self._set_encodings()

    def _set_encodings(self) -> None:
        coord, angle = _encodings(self.flags)
        self.rd_c3 = group_reader("ccc", coord, angle)
        self.rd_a3 = group_reader("aaa", coord, angle)
        self.rd_ca3 = group_reader("cacaca", coord, angle)
        self.extended = self.protocol != P.PROTOCOL_NETQUAKE
        table = UpdateTable(update_fields(self.protocol, self.flags), "B", "H", P.U_LONGENTITY, _DEFAULT_STATE,
                            self.extended)
        known = [(t.fields, t.extended) for t in self.tables]
        if (table.fields, table.extended) not in known:
            self.tables.append(table)
            known.append((table.fields, table.extended))
        self.table_index = known.index((table.fields, table.extended))
        self.update_table = self.tables[self.table_index]
        self.table[0x80:] = [self._fast_update_handler()] * 0x80

    # --- frames ---------------------------------------------------------------------------------------------------

    def begin_block(self, angles: tuple[float, float, float]) -> None:
        self.block_angles = angles

    def end_block(self) -> None:
        if self.in_frame:
            self._close_frame()
        del self.b.rows[self.rows_kept:]
        self.walked_kept = len(self.walked)

    def drop_open_frame(self) -> None:
        """The block did not parse: forget the frame it opened and the updates it recorded."""
        if self.in_frame:
            self.b.drop_from(self.b.num_frames - 1)
            self.in_frame = False
        del self.b.rows[self.rows_kept:]
        del self.walked[self.walked_kept:]

    def _open_frame(self, server_time: float) -> None:
        if self.in_frame:
            self._close_frame()
        del self.b.rows[self.rows_kept:]
        self.b.open_frame(server_time)
        self.b.view_angles.extend(self.block_angles)
        self.in_frame = True

    def _close_frame(self) -> None:
        """Record what the view needs (the view entity's pose is known once the updates are decoded:
        :meth:`_view_columns`)."""
        b = self.b
        st = self.stats
        b.view_entity.append(self.viewentity)
        self.frame_views.extend((len(self.walked), self.level_walked, st[_ST_INTERMISSION], st[_ST_VIEWHEIGHT]))
        b.record_stats(st)
        self.in_frame = False
        self.rows_kept = len(b.rows)

    # --- the fast entity update -----------------------------------------------------------------------------------

    def _fast_update_handler(self) -> Callable[[bytes, int, int], int]:
        """The handler of message bytes 0x80..0xFF for the current protocol (a closure: this is the hot path, one
        call per run of entity updates).  It crosses the run with the length table of :mod:`.update_walk` and
        keeps each update's position (every walked update: the view entity's pose; the builder's rows index them)."""
        table = self.update_table
        run = (self.table_index,)
        out = self.b.rows.extend
        walked = self.walked
        keep = walked.append
        runs = self.runs.extend
        odd = self._odd_update

        def fast_updates(data: bytes, p: int, end: int) -> int:
            # A run of consecutive updates in one call (this loop is the hot path); errors name the failing one.
            lengths = table.lengths
            if lengths is None:
                lengths = table.lengths = update_lengths(data, table, table.extended)
            i = p - 1
            first = len(walked)
            while True:
                keep(i)
                step = lengths[i]
                i = i + step if step else odd(data, i, end)
                if i >= end or data[i] < 0x80:
                    break
            out(array("q", range(first, len(walked))))
            runs((walked[first],) + run + (len(self.baseline_log), self.level_baselines, self.viewentity))
            if i > end:
                raise MessageError(Corrupt("the entity update to end inside its block"), walked[-1], data[walked[-1]])
            return i

        return fast_updates

    def _odd_update(self, data: bytes, i: int, end: int) -> int:
        """The update at ``i`` the length table leaves to the loop: protocol 15 with U_TRANS (bit 15, Nehahra), the
        usual fields, then 2 or 3 transparency floats.  Returns the position after it."""
        try:
            bits = data[i] & 0x7F
            p = i + 1
            if bits & P.U_MOREBITS:
                bits |= data[p] << 8
                p += 1
            q = p + self.update_table[bits & ~P.U_TRANS]
            a, b = struct.unpack_from("<ff", data, q)
        except DECODE_ERRORS as exc:
            raise MessageError(exc, i, data[i]) from None
        self.alphas[i] = 0 if b == 0 else round(min(max(b * 254 + 1, 1), 255))
        return q + (12 if a == 2 else 8)

    def _read_records(self) -> None:
        """The update records (:mod:`.updates`) of every walked update."""
        runs = np.frombuffer(self.runs, np.int64).reshape(-1, RUN_FIELDS)
        self.walked_records = update_records(self.data, np.frombuffer(self.walked, np.int64), runs, self.tables,
                                             np.frombuffer(self.baseline_numbers, np.int64), self.alphas)

    def _states(self, records: np.ndarray) -> np.ndarray:
        """The entity states [N, 15] of update records."""
        return decode_updates(self.data, records, self.tables, self.baseline_log, number_column=_NUM,
                              alpha_column=_ALPHA)

    def _update_columns(self, records: np.ndarray) -> dict[str, np.ndarray]:
        """The timeline columns of update records (the builder's rows)."""
        return _state_columns(self._states(records))

    def _view_columns(self) -> tuple[np.ndarray, np.ndarray]:
        """View origin and angles per frame: the eye at the view entity plus the view height, looking along the
        block's angles; during an intermission, finale or cutscene the eye is the view entity itself, origin and
        angles (``V_CalcIntermissionRefdef``).  The view entity's pose at a frame is that of its last update
        walked in the level so far (the run's view entity; zero before its first)."""
        views = np.frombuffer(self.frame_views, np.int64).reshape(-1, 4)
        walked_then, level_start, intermission, viewheight = views[:, 0], views[:, 1], views[:, 2] != 0, views[:, 3]
        walked = np.frombuffer(self.walked, np.int64)
        records = self.walked_records
        runs = np.frombuffer(self.runs, np.int64).reshape(-1, RUN_FIELDS)
        viewent = runs[np.searchsorted(runs[:, 0], walked, side="right") - 1, 4]
        is_view = records["number"] == viewent
        last_view = np.maximum.accumulate(np.where(is_view, np.arange(len(walked)), -1))   # at or before each update
        latest = last_view[walked_then - 1] if len(walked) else np.full(len(views), -1)
        latest[walked_then == 0] = -1
        known = latest >= level_start        # in this level (-1: none yet)
        pose = np.zeros((len(views), 6))
        if known.any():
            used = np.unique(latest[known])
            states = self._states(records[used])
            pose[known] = states[np.searchsorted(used, latest[known]), _OX:_AZ + 1]
        origin = pose[:, :3].copy()
        origin[~intermission, 2] += viewheight[~intermission]
        angles = np.frombuffer(self.b.view_angles, np.float64).reshape(-1, 3).copy()
        angles[intermission] = pose[intermission, 3:]
        return origin.ravel(), angles.ravel()

    # --- messages (one method per svc, named after the engine's message) ------------------------------------------

    def parse_svc_updatestat(self, data: bytes, p: int, end: int) -> int:
        i = data[p]
        value, = _S32.unpack_from(data, p + 1)
        if i >= P.MAX_CL_STATS:
            raise Corrupt(f"a stat index below {P.MAX_CL_STATS}, found {i}")
        if i < 15:
            self.stats[i] = value
        return p + 5

    def parse_svc_version(self, data: bytes, p: int, end: int) -> int:
        version, = _S32.unpack_from(data, p)
        if version not in P.SUPPORTED_PROTOCOLS:
            raise Corrupt(f"protocol 15, 666 or 999, found {version}")
        self.protocol = version
        self._set_encodings()
        return p + 4

    def parse_svc_setview(self, data: bytes, p: int, end: int) -> int:
        ent, = _U16.unpack_from(data, p)
        self.viewentity = ent
        self._emit(ev.SetViewEvent, ent)
        return p + 2

    def parse_svc_sound(self, data: bytes, p: int, end: int) -> int:
        mask = data[p]
        p += 1
        volume = 255
        atten = 1.0
        if mask & P.SND_VOLUME:
            volume = data[p]
            p += 1
        if mask & P.SND_ATTENUATION:
            atten = data[p] / 64.0
            p += 1
        if mask & P.SND_LARGEENTITY:
            ent, = _U16.unpack_from(data, p)
            channel = data[p + 2]
            p += 3
        else:
            ch, = _U16.unpack_from(data, p)
            p += 2
            ent, channel = ch >> 3, ch & 7
        if mask & P.SND_LARGESOUND:
            snd, = _U16.unpack_from(data, p)
            p += 2
        else:
            snd = data[p]
            p += 1
        if snd >= P.MAX_SOUNDS:
            raise Corrupt(f"a sound index below {P.MAX_SOUNDS}, found {snd}")
        origin, p = self.rd_c3(data, p)
        self._emit(ev.SoundEvent, ent, channel, snd, self._sound_name(snd), volume / 255.0, atten, origin)
        return p

    def parse_svc_time(self, data: bytes, p: int, end: int) -> int:
        t, = _F32.unpack_from(data, p)
        if math.isnan(t) or abs(t) > 1e9:
            raise Corrupt(f"a finite server time, found {t}")
        self._open_frame(t)
        return p + 4

    def parse_svc_print(self, data: bytes, p: int, end: int) -> int:
        text, p = read_string(data, p, end)
        self._emit(ev.PrintEvent, text)
        if not text.startswith("\x01"):      # \x01 marks chat: never an obituary
            self._obituary(text)
        return p

    def parse_svc_setangle(self, data: bytes, p: int, end: int) -> int:
        angles, p = self.rd_a3(data, p)
        self._emit(ev.SetAngleEvent, angles)
        return p

    def parse_svc_serverinfo(self, data: bytes, p: int, end: int) -> int:
        version, = _S32.unpack_from(data, p)
        p += 4
        if version not in P.SUPPORTED_PROTOCOLS:
            raise Corrupt(f"protocol 15, 666 or 999, found {version}")
        flags = 0
        if version == P.PROTOCOL_RMQ:
            flags, = struct.unpack_from("<I", data, p)
            p += 4
        maxclients = data[p]
        gametype = data[p + 1]
        p += 2
        if not 1 <= maxclients <= P.MAX_SCOREBOARD:
            raise Corrupt(f"maxclients 1..{P.MAX_SCOREBOARD}, found {maxclients}")
        level_name, p = read_string(data, p, end)
        models, p = _precaches(data, p, end, P.MAX_MODELS, "model")
        sounds, p = _precaches(data, p, end, P.MAX_SOUNDS, "sound")
        self._new_segment(version, flags, maxclients, gametype, level_name, models, sounds)
        return p

    def _new_segment(self, version: int, flags: int, maxclients: int, gametype: int, level_name: str,
                     models: list[str], sounds: list[str]) -> None:
        if self.in_frame:
            self._close_frame()
        self.end_segment()
        self.protocol, self.flags = version, flags
        if self.first_protocol is None:
            self.first_protocol, self.first_flags = version, flags
        self.model_precache = tuple(models)
        self.sound_names = tuple(sounds)
        world = models[1] if len(models) > 1 else ""
        self.b.begin_segment(maxclients, map_path=world, level_name=level_name, protocol=version,
                             protocol_flags=flags, maxclients=maxclients, gametype=gametype,
                             model_precache=self.model_precache, sound_precache=self.sound_names)
        # CL_ClearState: baselines, statics, stats start fresh (the builder resets lightstyles and scores).
        self.baselines = {}
        self.level_baselines = len(self.baseline_log)
        self.level_walked = len(self.walked)
        self._set_encodings()
        self.statics = []
        self.static_sounds = []
        self.stats = [0] * _NSTAT
        self.stats[_ST_VIEWHEIGHT] = P.DEFAULT_VIEWHEIGHT
        self.viewentity = 0
        self._emit(ev.ServerInfoEvent, map_name_of(world), level_name, version, maxclients)

    def end_segment(self) -> None:
        if self.b.segment < 0:
            return
        seg = self.b.segments[self.b.segment]
        seg["baselines"] = states_from_rows(ROW_LAYOUT, sorted(self.baselines.items()))
        seg["statics"] = states_from_rows(ROW_LAYOUT, [(-1, s) for s in self.statics])
        seg["static_sounds"] = tuple(self.static_sounds)

    def parse_svc_updatename(self, data: bytes, p: int, end: int) -> int:
        slot = data[p]
        name, p = read_string(data, p + 1, end)
        self._set_score(slot, "svc_updatename", "name", name)
        return p

    def parse_svc_updatecolors(self, data: bytes, p: int, end: int) -> int:
        self._set_score(data[p], "svc_updatecolors", "colors", data[p + 1])
        return p + 2

    def parse_svc_clientdata(self, data: bytes, p: int, end: int) -> int:
        bits, = _U16.unpack_from(data, p)
        p += 2
        if bits & P.SU_EXTEND1:
            bits |= data[p] << 16
            p += 1
        if bits & P.SU_EXTEND2:
            bits |= data[p] << 24
            p += 1
        st = self.stats
        x = _ST_ITEMS
        if bits & P.SU_VIEWHEIGHT:
            st[x + 1] = _S8.unpack_from(data, p)[0]
            p += 1
        else:
            st[x + 1] = P.DEFAULT_VIEWHEIGHT
        if bits & P.SU_IDEALPITCH:
            st[x + 2] = _S8.unpack_from(data, p)[0]
            p += 1
        else:
            st[x + 2] = 0
        for i in range(3):
            if bits & (P.SU_PUNCH1 << i):
                st[x + 3 + i] = _S8.unpack_from(data, p)[0]
                p += 1
            else:
                st[x + 3 + i] = 0
            if bits & (P.SU_VELOCITY1 << i):
                p += 1
        items, = _S32.unpack_from(data, p)
        st[x + 0] = items
        p += 4
        st[x + 6] = 1 if bits & P.SU_ONGROUND else 0
        st[x + 7] = 1 if bits & P.SU_INWATER else 0
        if bits & P.SU_WEAPONFRAME:
            st[P.STAT_WEAPONFRAME] = data[p]
            p += 1
        else:
            st[P.STAT_WEAPONFRAME] = 0
        if bits & P.SU_ARMOR:
            st[P.STAT_ARMOR] = data[p]
            p += 1
        else:
            st[P.STAT_ARMOR] = 0
        if bits & P.SU_WEAPON:
            st[P.STAT_WEAPON] = data[p]
            p += 1
        else:
            st[P.STAT_WEAPON] = 0
        st[P.STAT_HEALTH], = _S16.unpack_from(data, p)
        st[P.STAT_AMMO] = data[p + 2]
        st[P.STAT_SHELLS] = data[p + 3]
        st[P.STAT_NAILS] = data[p + 4]
        st[P.STAT_ROCKETS] = data[p + 5]
        st[P.STAT_CELLS] = data[p + 6]
        st[P.STAT_ACTIVEWEAPON] = data[p + 7]
        p += 8
        if bits & 0xFF0000 or bits & P.SU_WEAPONFRAME2 or bits & P.SU_WEAPONALPHA:
            for bit, stat in ((P.SU_WEAPON2, P.STAT_WEAPON), (P.SU_ARMOR2, P.STAT_ARMOR),
                              (P.SU_AMMO2, P.STAT_AMMO), (P.SU_SHELLS2, P.STAT_SHELLS),
                              (P.SU_NAILS2, P.STAT_NAILS), (P.SU_ROCKETS2, P.STAT_ROCKETS),
                              (P.SU_CELLS2, P.STAT_CELLS), (P.SU_WEAPONFRAME2, P.STAT_WEAPONFRAME)):
                if bits & bit:
                    st[stat] |= data[p] << 8
                    p += 1
        if bits & P.SU_WEAPONALPHA:
            st[x + 8] = data[p]
            p += 1
        else:
            st[x + 8] = 0
        return p

    def parse_svc_particle(self, data: bytes, p: int, end: int) -> int:
        origin, p = self.rd_c3(data, p)
        dx, dy, dz, count, color = _PARTICLE_TAIL.unpack_from(data, p)
        self._emit(ev.ParticleEvent, origin, (dx / 16.0, dy / 16.0, dz / 16.0), 1024 if count == 255 else count,
                   color)
        return p + 5

    def _baseline(self, data: bytes, p: int, version: int) -> tuple[list, int]:
        bits = 0
        if version == 2:
            bits = data[p]
            p += 1
        if bits & P.B_LARGEMODEL:
            model, = _U16.unpack_from(data, p)
            p += 2
        else:
            model = data[p]
            p += 1
        if bits & P.B_LARGEFRAME:
            frame, = _U16.unpack_from(data, p)
            p += 2
        else:
            frame = data[p]
            p += 1
        colormap, skin = data[p], data[p + 1]
        ca, p = self.rd_ca3(data, p + 2)
        alpha = 0
        scale = P.ENTSCALE_DEFAULT
        if bits & P.B_ALPHA:
            alpha = data[p]
            p += 1
        if bits & P.B_SCALE:
            scale = data[p]
            p += 1
        return [0, model, frame, colormap, skin, 0, ca[0], ca[2], ca[4], ca[1], ca[3], ca[5], alpha, scale,
                QUAKE.pose_interval], p

    def parse_svc_spawnbaseline(self, data: bytes, p: int, end: int, version: int = 1) -> int:
        num, = _U16.unpack_from(data, p)
        if num >= P.MAX_EDICTS:
            raise Corrupt(f"an entity number below {P.MAX_EDICTS}, found {num}")
        state, p = self._baseline(data, p + 2, version)
        state[_NUM] = num
        self.baselines[num] = state
        self.baseline_numbers.append(num)
        self.baseline_log.append(state)
        return p

    def parse_svc_spawnbaseline2(self, data: bytes, p: int, end: int) -> int:
        return self.parse_svc_spawnbaseline(data, p, end, 2)

    def parse_svc_spawnstatic(self, data: bytes, p: int, end: int, version: int = 1) -> int:
        if len(self.statics) >= P.MAX_STATIC_ENTITIES:
            raise Corrupt(f"at most {P.MAX_STATIC_ENTITIES} static entities")
        state, p = self._baseline(data, p, version)
        self.statics.append(state)
        return p

    def parse_svc_spawnstatic2(self, data: bytes, p: int, end: int) -> int:
        return self.parse_svc_spawnstatic(data, p, end, 2)

    def parse_svc_signonnum(self, data: bytes, p: int, end: int) -> int:
        data[p]
        return p + 1

    def parse_svc_spawnstaticsound2(self, data: bytes, p: int, end: int) -> int:
        return self.parse_svc_spawnstaticsound(data, p, end, large=True)

    def parse_svc_intermission(self, data: bytes, p: int, end: int) -> int:
        self._set_intermission(1)
        self._emit(ev.IntermissionEvent)
        return p

    def parse_svc_cdtrack(self, data: bytes, p: int, end: int) -> int:
        self._emit(ev.CdTrackEvent, data[p], data[p + 1])
        return p + 2

    def parse_svc_cutscene(self, data: bytes, p: int, end: int) -> int:
        text, p = read_string(data, p, end)
        self._set_intermission(3)
        self._emit(ev.CutsceneEvent, text)
        return p

    def parse_svc_skybox(self, data: bytes, p: int, end: int) -> int:
        name, p = read_string(data, p, end)
        self._emit(ev.SkyboxEvent, name)
        return p

    def parse_svc_bf(self, data: bytes, p: int, end: int) -> int:
        self._emit(ev.BonusFlashEvent)
        return p

    def parse_svc_fog(self, data: bytes, p: int, end: int) -> int:
        density, r, g, b, time = _FOG.unpack_from(data, p)
        self._emit(ev.FogEvent, density / 255.0, (r / 255.0, g / 255.0, b / 255.0), max(time / 100.0, 0.0))
        return p + _FOG.size

    def parse_svc_achievement(self, data: bytes, p: int, end: int) -> int:
        name, p = read_string(data, p, end)
        self._emit(ev.AchievementEvent, name)
        return p

    def parse_svc_localsound(self, data: bytes, p: int, end: int) -> int:
        mask = data[p]
        if mask & P.SND_LARGESOUND:
            snd, = _U16.unpack_from(data, p + 1)
            p += 3
        else:
            snd = data[p + 1]
            p += 2
        self._emit(ev.LocalSoundEvent, snd, self._sound_name(snd))
        return p

    # --- the timeline ---------------------------------------------------------------------------------------------

    def finish(self, blocks: int, cd_track: int) -> DemoTimeline:
        self.end_block()
        self.end_segment()
        self.b.require_end(ev.DisconnectEvent)   # recorded demos end with svc_disconnect (CL_Stop_f)
        self._read_records()
        view_origin, view_angles = self._view_columns()
        return self.b.finish(protocol=self.first_protocol or P.PROTOCOL_NETQUAKE, protocol_flags=self.first_flags,
                             block_count=blocks, cd_track=cd_track, view_origin=view_origin, view_angles=view_angles)
