"""QuakeWorld server messages: one handler per ``svc_*``, shared by ``.qwd`` and ``.mvd`` (their framing and the
few messages whose layout or addressee differ live in :mod:`.framing`), filling a
:class:`~..kit.builder.TimelineBuilder`.  The handlers of the messages NetQuake lays out alike (text, lightstyles,
frags, temp entities, damage, static sounds, finale …) are the kit's (:class:`~..kit.svc_common.SharedSvc`), given
this protocol's temp-entity table (``TE_GUNSHOT`` / ``TE_BLOOD`` carry a count), stat columns and coordinate
encoding (:mod:`..kit.coords`: FTE float coordinates with 16-bit angles, else the original ones).

Entities come in ``svc_packetentities`` (a full set against the baselines) or ``svc_deltapacketentities`` (against
an earlier set), merged by :func:`~..kit.packet_entities.merge_packet_entities`.  Each update word holds the entity
number and flag bits (:mod:`.entity_words`); the fields a flag combination names (:func:`delta_fields`, a field
table) are compiled once per combination by :mod:`..kit.deltas`.

A timeline frame holds every entity of the current packet set, every player present in it (``svc_playerinfo``) as
entity ``slot + 1`` with ``colormap = slot + 1`` and the model from the playerinfo (``progs/player.mdl`` by default),
and the nails (``svc_nails`` / ``svc_nails2``) as ``progs/spike.mdl`` entities numbered from
:data:`NAIL_NUMBER_BASE`.  ``svc_muzzleflash`` sets ``EF_MUZZLEFLASH`` on that entity for the frame.  Per-player
columns (origin, view angles, pose, flags, stats) go to :class:`~..timeline.PlayerFrames`.

Protocol extensions in ``svc_serverdata`` (``FTEX``, ``FTE2``, ``MVD1``) are recorded in
``timeline.meta["extensions"]``; the FTE bits that change message layouts (float coords, entity / model index
doubling, transparency, colour mod, spawnstatic2) are honoured, other FTE messages are rejected as unknown.

References: Uwe Girlich, "The unofficial QWD format description" (messages 0x00–0x35); ezQuake ``cl_parse.c``
``CL_ParseServerMessage``, ``CL_ParseServerData``, ``CL_ParseModellist``, ``CL_ParseSoundlist``,
``CL_ParseStartSoundPacket``, ``CL_SetStat``, ``CL_UpdateUserinfo``; ``cl_ents.c`` ``CL_ParsePacketEntities``,
``CL_ParseDelta``, ``CL_ParsePlayerinfo``, ``CL_ParseProjectiles``, ``CL_LinkPlayers``; ``com_msg.c``
``MSG_ReadDeltaUsercmd``; mvdsv ``sv_ents.c`` ``SV_EmitNailUpdate``; QW-Group ``qwprot`` ``protocol.h``.
"""

from __future__ import annotations

import struct
from typing import Any
from collections.abc import Callable

import numpy as np

from .. import events as ev
from ..kit.builder import TimelineBuilder
from ..kit.coords import ANGLE_BYTE, ANGLE_SHORT, COORD_FLOAT, COORD_SHORT, group_reader
from ..kit.deltas import DeltaPlans, Field, Op
from ...errors import FormatError
from ..kit.messages import Corrupt, MessageError, handler_table, message_error, parse_messages, read_string
from ..kit.packet_entities import EntitySet, FrameRing, merge_packet_entities, packed_rows
from ..kit.rows import RowLayout, decode_fte_trans, states_from_rows
from ..kit.svc_common import SharedSvc
from ..schema import QUAKEWORLD
from ..steps import narrowest
from ..timeline import DemoTimeline, PlayerFrames, StaticSound
from . import protocol as P
from .entity_words import entity_header_reader, read_bits

__all__ = ["QuakeWorldParser", "NAIL_NUMBER_BASE", "ROW_LAYOUT", "delta_fields", "parse_info", "fresh_stats",
           "read_qw_string"]

#: Entity numbers of nails in the timeline start here (above any edict number).  ``svc_nails2`` (MVD) nails keep their
#: server id (``base + id``) so they interpolate; ``svc_nails`` (QWD) nails get a fresh number every frame.
NAIL_NUMBER_BASE = 1 << 16
_QWD_NAIL_BASE = NAIL_NUMBER_BASE + 256

_F32 = struct.Struct("<f")
_S16 = struct.Struct("<h")
_U16 = struct.Struct("<H")
_S32 = struct.Struct("<i")
_U32 = struct.Struct("<I")

# Entity state row: number, model, frame, colormap, skin, effects, origin xyz, angles xyz, trans (FTE alpha byte).
_ROW = struct.Struct("<6i6fi")
_NCOL = 13
(_NUM, _MODEL, _FRAME, _COLORMAP, _SKIN, _EFFECTS, _OX, _OY, _OZ, _AX, _AY, _AZ, _TRANS) = range(_NCOL)
_NULL_STATE = (0, 0, 0, 0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0)


def _row_columns(raw: np.ndarray) -> dict[str, np.ndarray]:
    ints, flts = raw["i"], raw["f"]
    n = len(raw)
    return {
        "number": np.ascontiguousarray(ints[:, 0]),
        "model": np.ascontiguousarray(ints[:, 1]),
        "frame": np.ascontiguousarray(ints[:, 2]),
        "colormap": np.ascontiguousarray(ints[:, 3]),
        "skin": np.ascontiguousarray(ints[:, 4]),
        "effects": np.ascontiguousarray(ints[:, 5]),
        "origin": np.ascontiguousarray(flts[:, 0:3]),
        "angles": np.ascontiguousarray(flts[:, 3:6]),
        "alpha": decode_fte_trans(raw["t"]),
        "scale": np.ones(n, np.float32),
        "frame_interval": np.full(n, QUAKEWORLD.pose_interval, np.float32),
    }


ROW_LAYOUT = RowLayout(_ROW, np.dtype([("i", "<i4", 6), ("f", "<f4", 6), ("t", "<i4")]), lambda raw: raw["i"][:, 0],
                       _row_columns)

# Player row (timeline PlayerFrames): frame, slot, origin, angles, model, frame, skin, effects, weaponframe, flags.
_PLAYER_ROW = struct.Struct("<ii3f3f6i")
_PLAYER_DTYPE = np.dtype([("frame", "<i4"), ("slot", "<i4"), ("origin", "<f4", 3), ("angles", "<f4", 3),
                          ("ints", "<i4", 6)])
_NSTAT = len(QUAKEWORLD.stat_names)
_ST_VIEWHEIGHT, _ST_PUNCH, _ST_INTERMISSION, _ST_MONSTERS, _ST_SECRETS = (
    QUAKEWORLD.stat_index(n) for n in ("viewheight", "punch_pitch", "intermission", "monsters", "secrets"))


def delta_fields(coord_float: bool, angle16: bool, model_dbl: bool) -> tuple[Field, ...]:
    """The entity-delta fields in ``CL_ParseDelta`` read order.  A bit mask is the word's flag bits | the MOREBITS
    byte | the FTE EVENMORE bits << 16."""
    dbl = P.U_FTE_MODELDBL << 16
    out: list[Field] = []
    if model_dbl:
        out += [Field(P.U_MODEL | dbl, "B", _MODEL, offset=256), Field(P.U_MODEL, "B", _MODEL, unless=dbl),
                Field(dbl, "H", _MODEL, unless=P.U_MODEL)]
    else:
        out.append(Field(P.U_MODEL, "B", _MODEL))
    out += [Field(P.U_FRAME, "B", _FRAME), Field(P.U_COLORMAP, "B", _COLORMAP), Field(P.U_SKIN, "B", _SKIN),
            Field(P.U_EFFECTS, "B", _EFFECTS)]
    (coord, scale, _), = COORD_FLOAT if coord_float else COORD_SHORT
    (angle, ascale, _), = ANGLE_SHORT if angle16 else ANGLE_BYTE
    for obit, abit, oi, ai in ((P.U_ORIGIN1, P.U_ANGLE1, _OX, _AX), (P.U_ORIGIN2, P.U_ANGLE2, _OY, _AY),
                               (P.U_ORIGIN3, P.U_ANGLE3, _OZ, _AZ)):
        out += [Field(obit, coord, oi, scale), Field(abit, angle, ai, ascale)]
    out.append(Field(P.U_FTE_TRANS << 16, "B", _TRANS))
    out += [Field(P.U_FTE_COLOURMOD << 16, "B", op=Op.SKIP)] * 3
    return tuple(out)


def parse_info(text: str) -> list[tuple[str, str]]:
    """``\\\\key\\\\value\\\\key2\\\\value2`` → ordered ``(key, value)`` pairs (later duplicates replace earlier)."""
    parts = text.split("\\")
    if parts and parts[0] == "":
        parts = parts[1:]
    out: dict[str, str] = {}
    for i in range(0, len(parts) - 1, 2):
        out[parts[i]] = parts[i + 1]
    return list(out.items())


def _int(text: str, default: int = 0) -> int:
    try:
        return int(float(text.strip() or default))
    except (ValueError, OverflowError):
        return default


def read_qw_string(data: bytes, pos: int, end: int) -> tuple[str, int]:
    """``MSG_ReadString``, which skips 0xFF bytes."""
    text, pos = read_string(data, pos, end)
    return (text.replace("\xff", "") if "\xff" in text else text), pos


def fresh_stats() -> list[int]:
    """A stat row at a level start: zeros, the default view height."""
    st = [0] * _NSTAT
    st[_ST_VIEWHEIGHT] = P.DEFAULT_VIEWHEIGHT
    return st


class QuakeWorldParser(SharedSvc):
    """The client state of one QuakeWorld demo pass and a handler per message (``table``; the handlers NetQuake
    shares come from :class:`~..kit.svc_common.SharedSvc`).  Subclasses (:mod:`.framing`) read the blocks and handle
    what differs between a client's and a server's recording."""

    te_shapes = P.TE_SHAPES
    te_names = P.TE_NAMES
    max_lightstyles = P.MAX_LIGHTSTYLES
    stat_secrets = _ST_SECRETS
    stat_monsters = _ST_MONSTERS
    stat_intermission = _ST_INTERMISSION

    FMT = "QWD"
    #: Whether the recording client's view and stats are the default view (``.qwd``; an ``.mvd`` has no recorder).
    has_recorder = True
    #: Whether ``svc_setangle`` names the player it turns (MVD, or the MVD1 high-lag teleport extension).
    setangle_has_slot = False

    def __init__(self, data: bytes, path: str) -> None:
        self.data = data
        self.path = path
        self.b = TimelineBuilder(path, self.FMT, QUAKEWORLD, ROW_LAYOUT, frames_open_at_start=False,
                                 shift_segments=False, store_repeats_once=True)
        self._emit = self.b.emit
        # protocol
        self.protocol = P.PROTOCOL_VERSION
        self.first_protocol: int | None = None
        self.fte = 0
        self.fte2 = 0
        self.mvd1 = 0
        self.extensions: dict[str, int] = {}
        self._set_encodings()
        # level
        self.models: list[str] = [""]
        self.sound_names: list[str] = [""]
        self.player_model = 0
        self.spike_model = 0
        self.gamedir = ""
        self.serverinfo: dict[str, str] = {}
        self.movevars: dict[str, float] = {}
        # client state
        self.baselines: dict[int, tuple] = {}
        self.statics: list[tuple] = []
        self.static_sounds: list[StaticSound] = []
        self.ring: FrameRing[EntitySet] = FrameRing(P.UPDATE_BACKUP)
        self.current: EntitySet = []               # (num, state, row) of the latest packet set, sorted by number
        self.incoming_seq = 0
        self.playernum = 0
        self.spectator = False
        self.pstate: list[list | None] = [None] * P.MAX_CLIENTS   # last playerinfo per slot
        self.pframe = [-1] * P.MAX_CLIENTS                        # frame index of that playerinfo
        self.psent: set[int] = set()
        self.nails: list[tuple[int, float, float, float, float, float]] = []
        self.nail_counter = 0
        self.flashes: set[int] = set()
        self.stats = fresh_stats()
        self.pstats: dict[int, list[int]] = {}
        self.view_angles = (0.0, 0.0, 0.0)
        self.view_org = (0.0, 0.0, 0.0)
        self.intermission_view: tuple[tuple, tuple] | None = None
        self.dirty = False
        self.target: tuple[int, ...] | None = None     # MVD: slots the current block is addressed to
        self.target_type = P.dem_all
        self.target_slot = 0
        self.hidden_counts: dict[str, int] = {}
        self.last_print: tuple | None = None
        self.counters = {"delta_from_mismatch": 0, "dropped_packets": 0, "chokecount": 0, "downloads": 0}
        self.p_rows = bytearray()                   # one packed _PLAYER_ROW per player and frame
        self.ps_rows: list[tuple] = []               # (frame, slot, stats tuple) when a slot's stats changed
        self.last_stats: dict[int, tuple] = {}       # the last stats tuple in ps_rows, by slot
        self.ended = False
        self.blocks = 0
        self.read_text = read_qw_string
        self.table = handler_table(self, P.SVC_NAMES, 256)

    # --- helpers --------------------------------------------------------------------------------------------------

    def _set_encodings(self) -> None:
        fte_float = bool(self.fte & P.FTE_PEXT_FLOATCOORDS)
        self.coord_float = fte_float
        self.ent_coord_float = fte_float or bool(self.mvd1 & P.MVD_PEXT1_FLOATCOORDS)
        coord, angle = (COORD_FLOAT, ANGLE_SHORT) if fte_float else (COORD_SHORT, ANGLE_BYTE)
        self.rd_c3 = group_reader("ccc", coord, angle)
        self.rd_a3 = group_reader("aaa", coord, angle)
        self.rd_ca3 = group_reader("cacaca", coord, angle)
        self.plans = DeltaPlans(delta_fields(self.ent_coord_float, fte_float, bool(self.fte & P.FTE_PEXT_MODELDBL)),
                                _NCOL, _ROW)
        self.entity_header = entity_header_reader(self.plans, self.fte)

    def _slot(self, slot: int, what: str) -> dict[str, Any]:
        if not self.b.scores:                       # scores may come before svc_serverdata
            self.b.reset_scores(P.MAX_CLIENTS)
        return self.b.score(slot, what)

    # --- what differs between a .qwd and an .mvd (overridden in .framing) -------------------------------------------

    def _addressee(self) -> int:
        """The player slot a stat / print is for."""
        return self.playernum

    def _player_header(self, data: bytes, p: int) -> tuple[int, bool, float, int]:
        """``svc_serverdata`` after the game dir: ``(playernum, spectator, demotime, p)``."""
        raise NotImplementedError

    def _playerinfo(self, data: bytes, p: int, num: int) -> int:
        raise NotImplementedError

    def _delta_source(self, frm: int) -> EntitySet | None:
        """The set a ``svc_deltapacketentities`` from ``frm`` applies to, ``None`` if it is gone."""
        raise NotImplementedError

    def _store_set(self, entities: EntitySet) -> None:
        self.current = entities

    def _record_view(self, frame: int) -> None:
        """Append the frame's view and stats columns (or keep what :meth:`_view_columns` needs)."""
        raise NotImplementedError

    def _view_columns(self, players: PlayerFrames, nframes: int) -> tuple[int, dict[str, Any]]:
        """The default view slot and the ``finish`` view / stat columns."""
        raise NotImplementedError

    def read_blocks(self) -> FormatError | None:
        """Run every block of the demo (counting them in ``blocks``); the error that stopped it, if any."""
        raise NotImplementedError

    def run_messages(self, data: bytes, start: int, end: int, block: int) -> None:
        try:
            parse_messages(self.table, data, start, end, P.svc_name)
        except MessageError as exc:
            raise message_error(exc, self.path, self.FMT, P.svc_name, block) from None

    # --- frames ---------------------------------------------------------------------------------------------------

    def commit_frame(self, t: float) -> None:
        """Close the frame being built at time ``t``: entity rows, players, view, stats."""
        b = self.b
        fi = b.open_frame(max(t, b.last_time))   # a demo's clock is its only clock: server time = playback time
        rows = b.rows
        pack = _ROW.pack
        flashes = self.flashes
        recorder = self.playernum if self.has_recorder else -1
        # players (entities 1..32)
        for slot in sorted(self.psent):
            st = self.pstate[slot]
            if st is None:
                continue
            ox, oy, oz, pitch, yaw, roll, model, frame, skin, effects, wframe, flags = st
            if slot == recorder:
                pitch, yaw, roll = self.view_angles
            if slot + 1 in flashes:
                effects |= P.EF_MUZZLEFLASH
            self.p_rows += _PLAYER_ROW.pack(fi, slot, ox, oy, oz, pitch, yaw, roll, model, frame, skin, effects, wframe,
                                            flags)
            if model:
                rows += pack(slot + 1, model, frame, slot + 1, skin, effects, ox, oy, oz, -pitch / 3.0, yaw, 0.0, 0)
        # packet entities
        if flashes:
            for num, state, row in self.current:
                if num in flashes:
                    s = list(state)
                    s[_EFFECTS] |= P.EF_MUZZLEFLASH
                    rows += pack(*s)
                else:
                    rows += row
        else:
            rows += packed_rows(self.current)
        # nails
        if self.nails and self.spike_model:
            spike = self.spike_model
            for num, x, y, z, pitch, yaw in sorted(self.nails):
                rows += pack(num, spike, 0, 0, 0, 0, x, y, z, pitch, yaw, 0.0, 0)
        self._record_view(fi)
        self.psent = set()
        self.nails = []
        self.flashes = set()
        self.dirty = False

    # --- messages (one method per svc, named after the engine's message) ------------------------------------------

    def parse_svc_bad(self, data: bytes, p: int, end: int) -> int:
        raise Corrupt("a message type other than svc_bad (0)")

    def parse_svc_nq_time(self, data: bytes, p: int, end: int) -> int:
        return p + 4

    def parse_svc_print(self, data: bytes, p: int, end: int) -> int:
        level = data[p]
        text, p = read_qw_string(data, p + 1, end)
        if not text:
            self.counters["empty_prints"] = self.counters.get("empty_prints", 0) + 1
            return p
        to = self.target
        if to is not None and self._merge_print(text, level, to):
            return p
        first = len(self.b.events)
        self._emit(ev.PrintEvent, text, level, to)
        if level == P.PRINT_CHAT:
            chat = ev.parse_chat(text, [sc["name"] for sc in self.b.scores])
            if chat is not None:
                sender, team, message = chat
                slot = self._slot_of_name(sender)
                self._emit(ev.ChatEvent, sender, slot, team, message, to)
            if to is not None:
                self.last_print = ((len(self.b.times), text, level), first, len(self.b.events))
            return p
        if self._obituary(text):
            return p
        if level == P.PRINT_LOW:
            item = ev.parse_pickup(text)
            if item is not None:
                self._emit(ev.ItemPickupEvent, self._addressee(), item, text)
        return p

    def _merge_print(self, text: str, level: int, to: tuple[int, ...]) -> bool:
        """MVD: the same print sent to several players one by one (chat, notices) becomes one event whose ``to`` lists
        them all.  True if ``text`` was merged into the previous print."""
        last = self.last_print
        if last is None or last[0] != (len(self.b.times), text, level) or last[2] != len(self.b.events):
            return False
        merged = False
        for i in range(last[1], last[2]):
            frame, seg, cls, args = self.b.events[i]
            old = args[-1]
            if old is None or set(to) <= set(old):
                return False
            self.b.events[i] = (frame, seg, cls, args[:-1] + (tuple(sorted(set(old) | set(to))),))
            merged = True
        return merged

    def _slot_of_name(self, name: str) -> int:
        plain = ev.plain_text(name)
        for i, s in enumerate(self.b.scores):
            if s["name"] and (s["name"] == name or ev.plain_text(s["name"]) == plain):
                return i
        return -1

    def console_commands(self, text: str) -> None:
        """``fullserverinfo "\\key\\value…"`` (stuffed to a connecting client) sets the whole server info."""
        for line in text.split("\n"):
            if line.startswith("fullserverinfo "):
                arg = line[len("fullserverinfo "):].strip()
                if len(arg) >= 2 and arg[0] == '"' and arg[-1] == '"':
                    arg = arg[1:-1]
                self.serverinfo = dict(parse_info(arg))

    def parse_svc_serverdata(self, data: bytes, p: int, end: int) -> int:
        fte = fte2 = mvd1 = 0
        extensions: dict[str, int] = {}
        for _ in range(8):
            version, = _U32.unpack_from(data, p)
            p += 4
            if version in P.EXTENSION_NAMES:
                bits, = _U32.unpack_from(data, p)
                p += 4
                extensions[P.EXTENSION_NAMES[version]] = bits
                if version == P.PROTOCOL_VERSION_FTE:
                    fte = bits
                elif version == P.PROTOCOL_VERSION_FTE2:
                    fte2 = bits
                else:
                    mvd1 = bits
                continue
            if version == P.PROTOCOL_VERSION or version in P.OLD_PROTOCOLS:
                break
            raise Corrupt(f"protocol {P.PROTOCOL_VERSION} (or 24..27, FTEX/FTE2/MVD1 prefixes), found {version}")
        else:
            raise Corrupt("a protocol version after at most 7 extension prefixes")
        servercount, = _S32.unpack_from(data, p)
        gamedir, p = read_qw_string(data, p + 4, end)
        playernum, spectator, demotime, p = self._player_header(data, p)
        level_name, p = read_qw_string(data, p, end)
        movevars: dict[str, float] = {}
        if version >= 25:
            names = ("gravity", "stopspeed", "maxspeed", "spectatormaxspeed", "accelerate", "airaccelerate",
                     "wateraccelerate", "friction", "waterfriction", "entgravity")
            values = struct.unpack_from("<10f", data, p)
            p += 40
            movevars = dict(zip(names, values))
        self._new_segment(version, fte, fte2, mvd1, extensions, servercount, gamedir, playernum, spectator,
                          level_name, movevars, demotime)
        return p

    def _new_segment(self, version: int, fte: int, fte2: int, mvd1: int, extensions: dict[str, int],
                     servercount: int, gamedir: str, playernum: int, spectator: bool, level_name: str,
                     movevars: dict[str, float], demotime: float) -> None:
        if self.dirty and self.b.segment >= 0:
            self.commit_frame(self.b.last_time if self.b.times else 0.0)
        self.end_segment()
        self.protocol = version
        if self.first_protocol is None:
            self.first_protocol = version
        self.fte, self.fte2, self.mvd1 = fte, fte2, mvd1
        self.extensions.update(extensions)
        self._set_encodings()
        self.models = [""]
        self.sound_names = [""]
        self.player_model = 0
        self.spike_model = 0
        self.gamedir = gamedir
        self.movevars = movevars
        self.playernum = playernum
        self.spectator = spectator
        self.b.begin_segment(P.MAX_CLIENTS, level_name=level_name, protocol=version, maxclients=P.MAX_CLIENTS,
                             servercount=servercount, gamedir=gamedir, playernum=playernum, spectator=spectator,
                             demotime=demotime)
        # CL_ClearState: baselines, statics, entities, players, stats start fresh (the builder resets lightstyles
        # and scores).
        self.baselines = {}
        self.statics = []
        self.static_sounds = []
        self.ring = FrameRing(P.UPDATE_BACKUP)
        self.current = []
        self.pstate = [None] * P.MAX_CLIENTS
        self.pframe = [-1] * P.MAX_CLIENTS
        self.psent = set()
        self.nails = []
        self.flashes = set()
        self.stats = fresh_stats()
        self.pstats = {}
        self.intermission_view = None
        self._emit(ev.ServerInfoEvent, None, level_name, version, P.MAX_CLIENTS)

    def end_segment(self) -> None:
        if self.b.segment < 0:
            return
        seg = self.b.segments[self.b.segment]
        seg["model_precache"] = tuple(self.models)
        seg["sound_precache"] = tuple(self.sound_names)
        seg["map_path"] = self.models[1] if len(self.models) > 1 else ""
        # Baselines without a model (recorders send one for every edict slot) are left out of the summary.
        seg["baselines"] = states_from_rows(ROW_LAYOUT, sorted((k, v) for k, v in self.baselines.items() if v[_MODEL]))
        seg["statics"] = states_from_rows(ROW_LAYOUT, [(-1, s) for s in self.statics])
        seg["static_sounds"] = tuple(self.static_sounds)
        seg["serverinfo"] = dict(self.serverinfo)
        seg["gametype"] = 1 if _int(self.serverinfo.get("deathmatch", "1")) else 0

    def _need_segment(self) -> None:
        if self.b.segment < 0:
            raise Corrupt("svc_serverdata before this message")

    def parse_svc_modellist(self, data: bytes, p: int, end: int, extended: bool = False) -> int:
        self._need_segment()
        if self.protocol < 26:
            p = self._precaches(data, p, end, self.models, "model", 0, 256, str)
        else:
            if extended:
                count, = _U16.unpack_from(data, p)
                p += 2
            else:
                count = data[p]
                p += 1
            limit = P.MAX_MODELS if (self.fte & P.FTE_PEXT_MODELDBL) else 256
            p = self._precaches(data, p, end, self.models, "model", count, limit, lambda n: n.lstrip("/")) + 1
        self.player_model = self._index_of(self.models, P.PLAYER_MODEL)
        self.spike_model = self._index_of(self.models, P.SPIKE_MODEL)
        return p

    def parse_svc_fte_modellistshort(self, data: bytes, p: int, end: int) -> int:
        if not self.fte & P.FTE_PEXT_MODELDBL:
            raise Corrupt("svc_fte_modellistshort only with the FTE MODELDBL extension")
        return self.parse_svc_modellist(data, p, end, True)

    def parse_svc_soundlist(self, data: bytes, p: int, end: int) -> int:
        self._need_segment()
        if self.protocol < 26:
            return self._precaches(data, p, end, self.sound_names, "sound", 0, 256, str)
        return self._precaches(data, p + 1, end, self.sound_names, "sound", data[p], P.MAX_SOUNDS,
                               lambda n: n.removeprefix("/")) + 1

    def _precaches(self, data: bytes, p: int, end: int, table: list[str], what: str, count: int, limit: int,
                   clean: Callable[[str], str]) -> int:
        """The names of a model / sound list after index ``count``, up to an empty one, into ``table``.  From
        protocol 26 on the list starts with that index and a byte follows it, the index to continue from (the caller
        skips it: the lists arrive in order, so it adds nothing)."""
        while True:
            name, p = read_qw_string(data, p, end)
            if not name:
                return p
            count += 1
            if count >= limit:
                raise Corrupt(f"at most {limit - 1} {what} precaches")
            self._set_precache(table, count, clean(name))

    @staticmethod
    def _set_precache(table: list[str], index: int, name: str) -> None:
        while len(table) <= index:
            table.append("")
        table[index] = name

    @staticmethod
    def _index_of(table: list[str], name: str) -> int:
        try:
            return table.index(name)
        except ValueError:
            return 0

    def parse_svc_updatestat(self, data: bytes, p: int, end: int, long: bool = False) -> int:
        i = data[p]
        if long:
            value, = _S32.unpack_from(data, p + 1)
            p += 5
        else:
            value = data[p + 1]
            p += 2
        if i >= P.MAX_CL_STATS:
            raise Corrupt(f"a stat index below {P.MAX_CL_STATS}, found {i}")
        if i < 16:
            col = i
        elif i == P.STAT_VIEWHEIGHT:
            col = _ST_VIEWHEIGHT
        else:
            return p                                   # STAT_TIME, match start time…: not timeline stats
        self._stats_for_message()[col] = value
        return p

    def parse_svc_updatestatlong(self, data: bytes, p: int, end: int) -> int:
        return self.parse_svc_updatestat(data, p, end, True)

    def parse_svc_sound(self, data: bytes, p: int, end: int) -> int:
        channel, = _U16.unpack_from(data, p)
        p += 2
        volume = P.DEFAULT_SOUND_PACKET_VOLUME
        atten = 1.0
        if channel & P.SND_VOLUME:
            volume = data[p]
            p += 1
        if channel & P.SND_ATTENUATION:
            atten = data[p] / 64.0
            p += 1
        snd = data[p]
        origin, p = self.rd_c3(data, p + 1)
        ent = (channel >> 3) & 1023
        if ent > P.MAX_EDICTS:
            raise Corrupt(f"a sound entity up to {P.MAX_EDICTS}, found {ent}")
        self._emit(ev.SoundEvent, ent, channel & 7, snd, self._sound_name(snd), volume / 255.0, atten, origin)
        return p

    def parse_svc_setangle(self, data: bytes, p: int, end: int) -> int:
        if self.setangle_has_slot or self.mvd1 & P.MVD_PEXT1_HIGHLAGTELEPORT:
            p += 1  # the player slot the angles are for: only the recorder's view turns
        (a0, a1, a2), p = self.rd_a3(data, p)
        self.view_angles = (a0, a1, a2)
        self._emit(ev.SetAngleEvent, self.view_angles)
        return p

    def parse_svc_updateping(self, data: bytes, p: int, end: int) -> int:
        slot = data[p]
        self._score_if_changed(slot, "svc_updateping", "ping", _S16.unpack_from(data, p + 1)[0])
        return p + 3

    def parse_svc_updatepl(self, data: bytes, p: int, end: int) -> int:
        self._score_if_changed(data[p], "svc_updatepl", "pl", data[p + 1])
        return p + 2

    def _score_if_changed(self, slot: int, what: str, key: str, value: int) -> None:
        """Pings and packet loss come again every few seconds: a change is recorded only when the value changes."""
        s = self._slot(slot, what)
        if s[key] != value:
            s[key] = value
            self.b.score_changed(slot)

    def parse_svc_updateentertime(self, data: bytes, p: int, end: int) -> int:
        self._slot(data[p], "svc_updateentertime")
        _F32.unpack_from(data, p + 1)
        return p + 5

    def parse_svc_updateuserinfo(self, data: bytes, p: int, end: int) -> int:
        slot = data[p]
        userid, = _S32.unpack_from(data, p + 1)
        text, p = read_qw_string(data, p + 5, end)
        s = self._slot(slot, "svc_updateuserinfo")
        s["userid"] = userid
        self._apply_userinfo(slot, parse_info(text))
        return p

    def parse_svc_setinfo(self, data: bytes, p: int, end: int) -> int:
        slot = data[p]
        key, p = read_qw_string(data, p + 1, end)
        value, p = read_qw_string(data, p, end)
        s = self._slot(slot, "svc_setinfo")
        info = dict(s["userinfo"])
        if value:
            info[key] = value
        else:
            info.pop(key, None)
        self._apply_userinfo(slot, list(info.items()))
        self._emit(ev.SetInfoEvent, slot, key, value)
        return p

    def _apply_userinfo(self, slot: int, pairs: list[tuple[str, str]]) -> None:
        s = self.b.scores[slot]
        info = dict(pairs)
        s["userinfo"] = tuple(pairs)
        s["name"] = info.get("name", "")
        s["team"] = info.get("team", "")
        s["spectator"] = info.get("*spectator", "") not in ("", "0")
        s["colors"] = ((_int(info.get("topcolor", "0")) & 15) << 4) | (_int(info.get("bottomcolor", "0")) & 15)
        self.b.score_changed(slot)

    def parse_svc_serverinfo(self, data: bytes, p: int, end: int) -> int:
        key, p = read_qw_string(data, p, end)
        value, p = read_qw_string(data, p, end)
        if value:
            self.serverinfo[key] = value
        else:
            self.serverinfo.pop(key, None)
        self._emit(ev.SetInfoEvent, -1, key, value)
        return p

    def _baseline(self, data: bytes, p: int) -> tuple[tuple, int]:
        (ox, ax, oy, ay, oz, az), q = self.rd_ca3(data, p + 4)
        return (0, data[p], data[p + 1], data[p + 2], data[p + 3], 0, ox, oy, oz, ax, ay, az, 0), q

    def parse_svc_spawnbaseline(self, data: bytes, p: int, end: int) -> int:
        self._need_segment()
        num, = _U16.unpack_from(data, p)
        if num >= P.MAX_EDICTS:
            raise Corrupt(f"an entity number below {P.MAX_EDICTS}, found {num}")
        state, p = self._baseline(data, p + 2)
        self.baselines[num] = (num,) + state[1:]
        return p

    def parse_svc_spawnstatic(self, data: bytes, p: int, end: int) -> int:
        self._need_segment()
        if len(self.statics) >= P.MAX_STATIC_ENTITIES:
            raise Corrupt(f"at most {P.MAX_STATIC_ENTITIES} static entities")
        state, p = self._baseline(data, p)
        self.statics.append(state)
        return p

    def _null_delta(self, data: bytes, p: int) -> tuple[tuple, int]:
        word, = _U16.unpack_from(data, p)
        p += 2
        num, key, p = read_bits(data, p, word, self.fte)
        state, _row, p = self.plans[key](data, p, _NULL_STATE, num)
        return state, p

    def parse_svc_fte_spawnstatic2(self, data: bytes, p: int, end: int) -> int:
        self._need_segment()
        if not self.fte & P.FTE_PEXT_SPAWNSTATIC2:
            raise Corrupt("svc_fte_spawnstatic2 only with the FTE SPAWNSTATIC2 extension")
        if len(self.statics) >= P.MAX_STATIC_ENTITIES:
            raise Corrupt(f"at most {P.MAX_STATIC_ENTITIES} static entities")
        state, p = self._null_delta(data, p)
        self.statics.append(state)
        return p

    def parse_svc_fte_spawnbaseline2(self, data: bytes, p: int, end: int) -> int:
        self._need_segment()
        if not self.fte & P.FTE_PEXT_SPAWNSTATIC2:
            raise Corrupt("svc_fte_spawnbaseline2 only with the FTE SPAWNSTATIC2 extension")
        state, p = self._null_delta(data, p)
        if state[_NUM] >= P.MAX_EDICTS:
            raise Corrupt(f"an entity number below {P.MAX_EDICTS}, found {state[_NUM]}")
        self.baselines[state[_NUM]] = state
        return p

    def parse_svc_intermission(self, data: bytes, p: int, end: int) -> int:
        origin, p = self.rd_c3(data, p)
        angles, p = self.rd_a3(data, p)
        self.intermission_view = (origin, angles)
        self._set_intermission(1)
        self._emit(ev.IntermissionEvent)
        return p

    def _set_intermission(self, value: int) -> None:
        super()._set_intermission(value)
        for st in self.pstats.values():
            st[_ST_INTERMISSION] = value

    def parse_svc_cdtrack(self, data: bytes, p: int, end: int) -> int:
        self._emit(ev.CdTrackEvent, data[p], data[p])
        return p + 1

    def _kick(self, pitch: int) -> None:
        self._stats_for_message()[_ST_PUNCH] = pitch
        self._emit(ev.KickEvent, float(pitch))

    def parse_svc_smallkick(self, data: bytes, p: int, end: int) -> int:
        self._kick(-2)
        return p

    def parse_svc_bigkick(self, data: bytes, p: int, end: int) -> int:
        self._kick(-4)
        return p

    def parse_svc_muzzleflash(self, data: bytes, p: int, end: int) -> int:
        ent, = _U16.unpack_from(data, p)
        self.flashes.add(ent)
        self._emit(ev.MuzzleFlashEvent, ent)
        return p + 2

    def parse_svc_download(self, data: bytes, p: int, end: int) -> int:
        if self.fte & P.FTE_PEXT_CHUNKEDDOWNLOADS:
            raise Corrupt("a svc_download without FTE chunked downloads (not supported)")
        size, = _S16.unpack_from(data, p)
        p += 3  # size, then the percentage done
        self.counters["downloads"] += 1
        if size > 0:
            if p + size > end:
                raise Corrupt(f"{size} download bytes inside the block")
            p += size
        return p

    def parse_svc_chokecount(self, data: bytes, p: int, end: int) -> int:
        self.counters["chokecount"] += data[p]
        return p + 1

    def parse_svc_maxspeed(self, data: bytes, p: int, end: int) -> int:
        self.movevars["maxspeed"], = _F32.unpack_from(data, p)
        return p + 4

    def parse_svc_entgravity(self, data: bytes, p: int, end: int) -> int:
        self.movevars["entgravity"], = _F32.unpack_from(data, p)
        return p + 4

    def parse_svc_qizmovoice(self, data: bytes, p: int, end: int) -> int:
        if p + 34 > end:
            raise Corrupt("34 bytes of Qizmo voice data")
        return p + 34

    # --- players ----------------------------------------------------------------------------------------------------

    def parse_svc_playerinfo(self, data: bytes, p: int, end: int) -> int:
        self._need_segment()
        num = data[p]
        if num >= P.MAX_CLIENTS:
            raise Corrupt(f"a player number below {P.MAX_CLIENTS}, found {num}")
        p = self._playerinfo(data, p + 1, num)
        self.psent.add(num)
        self.pframe[num] = len(self.b.times)
        self.dirty = True
        return p

    # --- nails ------------------------------------------------------------------------------------------------------

    def parse_svc_nails(self, data: bytes, p: int, end: int, indexed: bool = False) -> int:
        count = data[p]
        p += 1
        size = 7 if indexed else 6
        if p + count * size > end:
            raise Corrupt(f"{count} nails of {size} bytes inside the block")
        nails = self.nails
        for _ in range(count):
            if indexed:
                num = NAIL_NUMBER_BASE + data[p]
                p += 1
            else:
                self.nail_counter += 1
                num = _QWD_NAIL_BASE + self.nail_counter
            b0, b1, b2, b3, b4, b5 = data[p:p + 6]
            p += 6
            x = ((b0 + ((b1 & 15) << 8)) << 1) - 4096
            y = (((b1 >> 4) + (b2 << 4)) << 1) - 4096
            z = ((b3 + ((b4 & 15) << 8)) << 1) - 4096
            nails.append((num, float(x), float(y), float(z), 360.0 * (b4 >> 4) / 16.0, 360.0 * b5 / 256.0))
        self.dirty = True
        return p

    def parse_svc_nails2(self, data: bytes, p: int, end: int) -> int:
        return self.parse_svc_nails(data, p, end, True)

    # --- packet entities ----------------------------------------------------------------------------------------------

    def parse_svc_packetentities(self, data: bytes, p: int, end: int, delta: bool = False) -> int:
        self._need_segment()
        old: EntitySet | None = []
        if delta:
            old = self._delta_source(data[p])
            p += 1
        new, _fresh, p = merge_packet_entities(data, p, end, old or [], self.entity_header, self.baselines, _NULL_STATE,
                                       P.MAX_PACKET_ENTITIES)
        if old is None:
            self.counters["delta_from_mismatch"] += 1
            return p                                # FlushEntityPacket: parsed, the old set stays
        self._store_set(new)
        self.dirty = True
        return p

    def parse_svc_deltapacketentities(self, data: bytes, p: int, end: int) -> int:
        return self.parse_svc_packetentities(data, p, end, True)

    # --- the timeline ---------------------------------------------------------------------------------------------

    def finish(self, blocks: int) -> DemoTimeline:
        self.end_segment()
        b = self.b
        b.require_end(ev.DisconnectEvent)        # recorded demos end with svc_disconnect (CL_Stop_f)
        b.drop_frameless_levels()
        nframes = b.num_frames
        players = self._players_table(nframes)
        pov, view = self._view_columns(players, nframes)
        first = b.segments[0] if b.segments else {}
        meta = {
            "gamedir": first.get("gamedir", ""),
            "serverinfo": dict(first.get("serverinfo", {})),
            "extensions": dict(self.extensions),
            "recorder": int(first.get("playernum", 0)) if self.has_recorder else -1,
            "recorder_spectator": bool(first.get("spectator", False)) if self.has_recorder else None,
            "servercount": first.get("servercount", 0),
            "movevars": dict(self.movevars),
            "hidden_messages": dict(self.hidden_counts),
            "delta_from_mismatch": self.counters["delta_from_mismatch"],
            "dropped_packets": self.counters["dropped_packets"],
            "empty_prints": self.counters.get("empty_prints", 0),
        }
        return b.finish(protocol=self.first_protocol or P.PROTOCOL_VERSION, protocol_flags=0, block_count=blocks,
                        frameless_at_end=True, players=players, default_pov=pov, meta=meta, **view)

    def _players_table(self, nframes: int) -> PlayerFrames:
        rows = np.frombuffer(self.p_rows, _PLAYER_DTYPE)      # a view: the bytes go with ``rows``
        self.p_rows = bytearray()
        if (rows["slot"][1:] < rows["slot"][:-1]).any():      # rows are in frame order: sort by slot, then frame
            rows = rows[np.lexsort((rows["frame"], rows["slot"]))]
        stat_frame, stat_slot, stat_values = self._stat_changes()
        nslots = 1 + max(int(rows["slot"].max(initial=-1)), int(stat_slot.max(initial=-1)))
        if self.has_recorder:
            nslots = max(nslots, self.playernum + 1)
        has_stats = np.zeros(nslots, bool)
        has_stats[stat_slot] = True
        return PlayerFrames(
            num_frames=nframes, slot_start=np.searchsorted(rows["slot"], np.arange(nslots + 1)).astype(np.int64),
            row_frame=np.ascontiguousarray(rows["frame"]), row_origin=np.ascontiguousarray(rows["origin"]),
            row_angles=np.ascontiguousarray(rows["angles"]), row_ints=np.ascontiguousarray(narrowest(rows["ints"])),
            stat_start=np.searchsorted(stat_slot, np.arange(nslots + 1)).astype(np.int64), stat_frame=stat_frame,
            stat_values=stat_values, has_stats=has_stats, recorder=self.playernum if self.has_recorder else -1)

    def _stat_changes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(frame, slot, values)`` of every stat change, sorted by slot then frame (values i4 [S, stats])."""
        raise NotImplementedError
