"""QuakeWorld demo framing: client recordings (``.qwd``) and server multi-view demos (``.mvd``), and the few
messages whose layout or addressee differ between the two.

A ``.qwd`` is a list of blocks ``float time, byte type``: type 0 (``dem_cmd``) carries the recorder's usercmd (24
bytes) and view angles (3 floats); type 1 (``dem_read``) a server packet ``int length`` + bytes that start with the
netchan header (``seq | reliable << 31``, ``ack``) — or ``-1`` for a connectionless packet; type 2 (``dem_set``) the
netchan sequence numbers at the start.  A delta entity set applies to the set of the netchan sequence in its
``from`` byte, kept in a ring of the last 64.  A frame is a server packet that carried entities or players, at the
block's time; the default view is the recorder (its playerinfo origin + view height, the ``dem_cmd`` view angles).

An ``.mvd`` block starts with ``byte msec`` (time since the previous block) and a type byte whose low 3 bits are the
block type and whose high 5 bits name a player for ``dem_single`` / ``dem_stats``; ``dem_multiple`` has a 32-bit
player mask; ``dem_all`` goes to everyone; each is followed by ``int length`` and server messages without a netchan
header.  A delta entity set applies to the previous frame's set.  A frame is every block up to the next one whose
``msec`` is non-zero, at the accumulated time (from 0); stats are per addressed player (``dem_stats``); the default
view is the first playing slot.  Hidden MVD1 data (``dem_multiple`` to nobody) is walked and counted, not decoded.

Bad input: a file cut inside a block gives the timeline up to the cut with a warning; a corrupt message raises
:class:`~assets_loader.errors.FormatError` naming the file, offset and message, or — when at least one frame was
decoded — returns the timeline up to the previous frame with a warning.

References: Uwe Girlich, "The unofficial QWD format description" (blocks); ezQuake ``cl_demo.c``
``CL_GetDemoMessage`` / ``CL_PeekDemoTime`` (QWD/MVD framing), ``cl_ents.c`` ``CL_ParsePlayerinfo``,
``com_msg.c`` ``MSG_ReadDeltaUsercmd``; mvdsv ``sv_demo.c`` ``MVDWrite_Begin`` / ``SV_MVDWritePackets``.
"""

from __future__ import annotations

import math
import struct
from typing import Any

import numpy as np

from ...errors import BadIndexError, BadMagicError, FormatError
from .. import events as ev
from ..kit.messages import Corrupt, MessageError, decode_guarded, message_error
from ..kit.packet_entities import EntitySet
from ..schema import PLAYER_DEAD, PLAYER_GIB, QUAKEWORLD
from ..steps import Steps
from ..timeline import DemoTimeline, PlayerFrames
from . import protocol as P
from .parse import QuakeWorldParser, fresh_stats, read_qw_string

__all__ = ["decode_qwd", "decode_mvd", "looks_like_qwd", "looks_like_mvd"]

_F32 = struct.Struct("<f")
_S16 = struct.Struct("<h")
_U16 = struct.Struct("<H")
_S32 = struct.Struct("<i")
_U32 = struct.Struct("<I")
_ANGLE16 = 360.0 / 65536.0
_NSTAT = len(QUAKEWORLD.stat_names)
_ST_VIEWHEIGHT, _ST_PUNCH = (QUAKEWORLD.stat_index(n) for n in ("viewheight", "punch_pitch"))
_QWD_HEAD = struct.Struct("<fB")
_QWD_CMD = struct.Struct("<B3x3f3hBB3f")
_II = struct.Struct("<II")
_TIME_LIMIT = 1e9


def looks_like_qwd(data: bytes) -> bool:
    """Content sniff: the first blocks parse as QWD blocks (float time, type 0/1/2, sane sizes)."""
    pos, n, seen = 0, len(data), 0
    while pos + 5 <= n and seen < 8:
        t, typ = _QWD_HEAD.unpack_from(data, pos)
        if math.isnan(t) or abs(t) > _TIME_LIMIT:
            return False
        pos += 5
        if typ == P.dem_cmd:
            pos += 36
        elif typ == P.dem_read:
            if pos + 4 > n:
                return False
            length, = _S32.unpack_from(data, pos)
            if not 0 <= length <= P.MAX_MSGLEN:
                return False
            pos += 4 + length
        elif typ == P.dem_set:
            pos += 8
        else:
            return False
        seen += 1
    return seen > 0 and pos <= n + 64 * 1024


def looks_like_mvd(data: bytes) -> bool:
    """Content sniff: the first blocks parse as MVD blocks and the first message is ``svc_serverdata``."""
    if len(data) < 8:
        return False
    first_type = data[1] & 7
    if first_type not in (P.dem_all, P.dem_read, P.dem_multiple, P.dem_single):
        return False
    off = 2 + (4 if first_type == P.dem_multiple else 0)
    if off + 5 > len(data):
        return False
    length, = _S32.unpack_from(data, off)
    return 0 < length <= P.MAX_MSGLEN and data[off + 4] == P.svc_serverdata



def _message_span(parser: QuakeWorldParser, data: bytes, pos: int, body: int,
                  what: str) -> tuple[int, int] | FormatError | None:
    """The ``(start, end)`` of the int32-length-prefixed message at ``body`` of the block at ``pos``; ``None`` when
    the file is cut there (recorded as a truncation), or the error for a length outside 0..MAX_MSGLEN."""
    n = len(data)
    if n - body < 4:
        parser.b.truncated(pos, "a message length", n - body, stacklevel=5)
        return None
    length, = _S32.unpack_from(data, body)
    if not 0 <= length <= P.MAX_MSGLEN:
        return BadIndexError(parser.path, parser.FMT, body, f"a message length 0..{P.MAX_MSGLEN}", str(length))
    start = body + 4
    end = start + length
    if end > n:
        parser.b.truncated(pos, f"a {length}-byte {what}", n - start, stacklevel=5)
        return None
    return start, end


class QwdParser(QuakeWorldParser):
    """A client's recording: the recorder's view, stats and netchan sequence numbers."""

    FMT = "QWD"

    def read_blocks(self) -> FormatError | None:
        data = self.data
        n = len(data)
        pos = 0
        head = _QWD_HEAD.unpack_from
        while pos < n and not self.ended:
            if n - pos < 5:
                self.b.truncated(pos, "a 5-byte block header", n - pos)
                break
            t, typ = head(data, pos)
            if math.isnan(t) or abs(t) > _TIME_LIMIT:
                return FormatError(self.path, self.FMT, pos, "a finite block time", repr(t))
            body = pos + 5
            if typ == P.dem_read:
                span = _message_span(self, data, pos, body, "server packet")
                if span is None:
                    break
                if isinstance(span, FormatError):
                    return span
                start, end = span
                self._qwd_packet(data, start, end, t, self.blocks)
                pos = end
            elif typ == P.dem_cmd:
                if n - body < 36:
                    self.b.truncated(pos, "a 36-byte usercmd block", n - body)
                    break
                (_msec, _a0, _a1, _a2, _fw, _sd, _up, _buttons, _impulse, v0, v1, v2) = _QWD_CMD.unpack_from(data, body)
                if not all(abs(v) < _TIME_LIMIT for v in (v0, v1, v2)):
                    return FormatError(self.path, self.FMT, body, "finite view angles", repr((v0, v1, v2)))
                self.view_angles = (v0, v1, v2)
                pos = body + 36
            elif typ == P.dem_set:
                if n - body < 8:
                    self.b.truncated(pos, "an 8-byte dem_set block", n - body)
                    break
                _outgoing, self.incoming_seq = _II.unpack_from(data, body)
                pos = body + 8
            else:
                return BadMagicError(self.path, self.FMT, pos + 4, "a block type 0, 1 or 2", str(typ))
            self.blocks += 1
        return None

    def _qwd_packet(self, data: bytes, start: int, end: int, t: float, block: int) -> None:
        length = end - start
        if length >= 4 and data[start:start + 4] == b"\xff\xff\xff\xff":
            self._connectionless(data, start + 4, end, block)
            return
        if length < 8:
            return                                    # runt packet: the engine ignores it
        seq, _ack = _II.unpack_from(data, start)
        seq &= 0x7FFFFFFF
        if seq <= self.incoming_seq:
            self.counters["dropped_packets"] += 1     # Netchan_Process: out of order or duplicate
            return
        self.incoming_seq = seq
        self.run_messages(data, start + 8, end, block)
        if self.dirty:
            self.commit_frame(t)

    def _connectionless(self, data: bytes, p: int, end: int, block: int) -> None:
        if p >= end:
            return
        c = data[p]
        try:
            if c in (ord("n"), ord("B")):
                body = data[p + 1:end] + b"\0"        # the text may run to the end of the packet
                text, _ = read_qw_string(body, 0, len(body))
                if c == ord("n"):
                    self._emit(ev.PrintEvent, text, None, None)
                else:
                    self._emit(ev.StuffTextEvent, text)
            elif c == 0x02:                               # end of demo ("EndOfDemo")
                self._emit(ev.DisconnectEvent)
                self.ended = True
        except Corrupt as exc:
            raise message_error(MessageError(exc, p, 0), self.path, self.FMT, P.svc_name, block) from None


    def _player_header(self, data: bytes, p: int) -> tuple[int, bool, float, int]:
        playernum = data[p]
        spectator = bool(playernum & 128)
        playernum &= 127
        if playernum >= P.MAX_CLIENTS:
            raise Corrupt(f"a player number below {P.MAX_CLIENTS}, found {playernum}")
        return playernum, spectator, 0.0, p + 1

    def _delta_source(self, frm: int) -> EntitySet | None:
        return self.ring.get(frm, self.incoming_seq)

    def _store_set(self, entities: EntitySet) -> None:
        self.current = entities
        self.ring.store(self.incoming_seq, entities)

    def _record_view(self, frame: int) -> None:
        b = self.b
        stats = self.stats
        rec = self.playernum
        if self.intermission_view is not None:
            org, ang = self.intermission_view
            self.view_org = org
            b.view_angles.extend(ang)
        else:
            st = self.pstate[rec]
            if st is not None and rec in self.psent:
                flags = st[11]
                vh = 8.0 if flags & PLAYER_GIB else -16.0 if flags & PLAYER_DEAD else (
                    stats[_ST_VIEWHEIGHT] or P.DEFAULT_VIEWHEIGHT)
                self.view_org = (st[0], st[1], st[2] + vh)
            b.view_angles.extend(self.view_angles)
        b.view_origin.extend(self.view_org)
        b.view_entity.append(rec + 1)
        b.record_stats(stats)
        stats[_ST_PUNCH] = 0

    def _view_columns(self, players: PlayerFrames, nframes: int) -> tuple[int, dict[str, Any]]:
        return (self.b.segments[0]["playernum"] if self.b.segments else 0), {}

    def _stat_changes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        values = np.frombuffer(self.b.stat_values, np.int64).astype(np.int32).reshape(-1, _NSTAT)
        frames = np.frombuffer(self.b.stat_frames, np.int32).copy()
        return frames, np.full(len(frames), self.playernum, np.int64), values

    def _playerinfo(self, data: bytes, p: int, num: int) -> int:
        flags, = _U16.unpack_from(data, p)
        p += 2
        if self.fte & P.FTE_PEXT_TRANS:
            if flags & P.PF_EXTRA_PFS:
                flags |= data[p] << 16
                p += 1
        else:
            flags = (flags & 0x3FFF) | (flags & 0xC000) << 8
        if self.ent_coord_float:
            ox, oy, oz = struct.unpack_from("<3f", data, p)
            p += 12
        else:
            ox, oy, oz = struct.unpack_from("<3h", data, p)
            ox, oy, oz = ox * 0.125, oy * 0.125, oz * 0.125
            p += 6
        frame = data[p]
        p += 1
        if flags & P.PF_MSEC:
            p += 1
        pitch = yaw = roll = 0.0
        if flags & P.PF_COMMAND:
            (pitch, yaw, roll), p = self._usercmd(data, p)
        for i in range(3):
            if flags & (P.PF_VELOCITY1 << i):
                p += 2
        if flags & P.PF_MODEL:
            model = data[p]
            p += 1
        else:
            model = self.player_model
        skin = 0
        if flags & P.PF_SKINNUM:
            skin = data[p]
            p += 1
            if skin & 128 and flags & P.PF_MODEL:
                model += 256
                skin -= 128
        effects = 0
        if flags & P.PF_EFFECTS:
            effects = data[p]
            p += 1
        wframe = 0
        if flags & P.PF_WEAPONFRAME:
            wframe = data[p]
            p += 1
        if flags & P.PF_TRANS_Z and self.fte & P.FTE_PEXT_TRANS:
            p += 1
        pflags = flags & (PLAYER_DEAD | PLAYER_GIB)
        self.pstate[num] = [ox, oy, oz, pitch, yaw, roll, model, frame, skin, effects, wframe, pflags]
        return p


    def _usercmd(self, data: bytes, p: int) -> tuple[tuple[float, float, float], int]:
        """``MSG_ReadDeltaUsercmd`` from the null command: returns the command's view angles."""
        bits = data[p]
        p += 1
        a = [0.0, 0.0, 0.0]
        if self.protocol <= 26:
            if bits & P.CM_ANGLE1:
                a[0] = _S16.unpack_from(data, p)[0] * _ANGLE16
                p += 2
            a[1] = _S16.unpack_from(data, p)[0] * _ANGLE16
            p += 2
            if bits & P.CM_ANGLE3:
                a[2] = _S16.unpack_from(data, p)[0] * _ANGLE16
                p += 2
            p += (bits & P.CM_FORWARD) // P.CM_FORWARD + (bits & P.CM_SIDE) // P.CM_SIDE + (bits & P.CM_UP) // P.CM_UP
        else:
            if bits & P.CM_ANGLE1:
                a[0] = _S16.unpack_from(data, p)[0] * _ANGLE16
                p += 2
            if bits & P.CM_ANGLE2:
                a[1] = _S16.unpack_from(data, p)[0] * _ANGLE16
                p += 2
            if bits & P.CM_ANGLE3:
                a[2] = _S16.unpack_from(data, p)[0] * _ANGLE16
                p += 2
            p += 2 * ((bits & P.CM_FORWARD) // P.CM_FORWARD + (bits & P.CM_SIDE) // P.CM_SIDE
                      + (bits & P.CM_UP) // P.CM_UP)
        if bits & P.CM_BUTTONS:
            p += 1
        if bits & P.CM_IMPULSE:
            p += 1
        if self.protocol >= 27 or bits & P.CM_ANGLE2:
            p += 1                                       # msec
        return (a[0], a[1], a[2]), p


class MvdParser(QuakeWorldParser):
    """A server's multi-view recording: every player's view and stats, messages addressed per player."""

    FMT = "MVD"
    has_recorder = False
    setangle_has_slot = True

    def read_blocks(self) -> FormatError | None:
        data = self.data
        n = len(data)
        pos = 0
        ms_total = 0
        while pos < n and not self.ended:
            if n - pos < 2:
                self.b.truncated(pos, "a 2-byte block header", n - pos)
                break
            dt = data[pos]
            c = data[pos + 1]
            typ = c & 7
            if dt:
                if self.dirty:
                    self.commit_frame(ms_total * 0.001)
                ms_total += dt
            body = pos + 2
            if typ == P.dem_cmd:
                if n - body < 36:
                    self.b.truncated(pos, "a 36-byte usercmd block", n - body)
                    break
                pos = body + 36
                self.blocks += 1
                continue
            if typ == P.dem_set:
                if n - body < 8:
                    self.b.truncated(pos, "an 8-byte dem_set block", n - body)
                    break
                pos = body + 8
                self.blocks += 1
                continue
            if typ == P.dem_multiple:
                if n - body < 4:
                    self.b.truncated(pos, "a player mask", n - body)
                    break
                mask, = _U32.unpack_from(data, body)
                body += 4
                self.target_type = P.dem_multiple
                self.target = tuple(i for i in range(32) if mask >> i & 1)
                self.target_slot = self.target[0] if self.target else 0
            elif typ in (P.dem_single, P.dem_stats):
                self.target_type = typ
                self.target_slot = c >> 3
                self.target = (c >> 3,)
            elif typ == P.dem_all or typ == P.dem_read:
                self.target_type = P.dem_all
                self.target = None
                self.target_slot = 0
            else:
                return BadMagicError(self.path, self.FMT, pos + 1, "a block type 0..6", str(typ))
            span = _message_span(self, data, pos, body, "message block")
            if span is None:
                break
            if isinstance(span, FormatError):
                return span
            start, end = span
            if typ == P.dem_multiple and not self.target:
                self._hidden(data, start, end)          # to nobody: MVD1 hidden data (or junk the engine skips)
            else:
                self.run_messages(data, start, end, self.blocks)
            pos = end
            self.blocks += 1
        if self.dirty:
            self.commit_frame(ms_total * 0.001)
        return None


    def _hidden(self, data: bytes, p: int, end: int) -> None:
        """Walk MVD1 hidden records (``int length, short type``) and count them; nothing else reads them."""
        if not self.mvd1 & P.MVD_PEXT1_HIDDEN_MESSAGES:
            self.hidden_counts["skipped"] = self.hidden_counts.get("skipped", 0) + 1
            return
        while p + 4 <= end:
            size, = _S32.unpack_from(data, p)
            p += 4
            if size == -1:
                break
            if size < 0 or p + 2 > end:
                self.hidden_counts["malformed"] = self.hidden_counts.get("malformed", 0) + 1
                return
            typ, = _U16.unpack_from(data, p)
            p += 2
            name = P.MVDHIDDEN_NAMES.get(typ, f"type{typ}")
            self.hidden_counts[name] = self.hidden_counts.get(name, 0) + 1
            p += size
        if p > end:
            self.hidden_counts["malformed"] = self.hidden_counts.get("malformed", 0) + 1


    def _addressee(self) -> int:
        return self.target_slot if self.target_type in (P.dem_single, P.dem_stats) else 0

    def _stats_for_message(self) -> list[int]:
        return self.pstats.setdefault(self._addressee(), fresh_stats())

    def _player_header(self, data: bytes, p: int) -> tuple[int, bool, float, int]:
        demotime, = _F32.unpack_from(data, p)
        return P.MAX_CLIENTS - 1, True, demotime, p + 4

    def parse_svc_disconnect(self, data: bytes, p: int, end: int) -> int:
        # mvdsv appends "EndOfDemo"; a multi-map MVD goes on with the next svc_serverdata.
        self._emit(ev.DisconnectEvent)
        if p < end:
            _text, p = read_qw_string(data, p, end)
        if end >= len(self.data):
            self.ended = True
            return end
        return p

    def _delta_source(self, frm: int) -> EntitySet | None:
        return self.current

    def _record_view(self, frame: int) -> None:
        last = self.last_stats
        for slot, pst in self.pstats.items():
            values = tuple(pst)
            if last.get(slot) != values:                 # stats are stored when they change
                self.ps_rows.append((frame, slot, values))
                last[slot] = values
            pst[_ST_PUNCH] = 0

    def _view_columns(self, players: PlayerFrames, nframes: int) -> tuple[int, dict[str, Any]]:
        pov = self._default_pov(players)
        first = np.zeros(1, np.int32)

        def constant(value: Any, dtype: type) -> Steps:
            return Steps.at_frames(nframes, first, np.asarray([value], dtype), dtype)

        fresh = constant(fresh_stats(), np.int32)
        if pov < 0:
            return pov, {"view_entity": constant(0, np.int32), "view_origin": constant((0.0, 0.0, 0.0), np.float64),
                         "view_angles": constant((0.0, 0.0, 0.0), np.float64), "stat_rows": fresh}
        # Each frame shows the slot's row of that frame, else its last row before (its first row before any): the
        # view changes only at the slot's rows, so it is made from them.
        a, b = int(players.slot_start[pov]), int(players.slot_start[pov + 1])
        frames = players.row_frame[a:b]
        flags = players.row_ints[a:b, 5].astype(np.int32)
        vh = np.where(flags & PLAYER_GIB, 8.0, np.where(flags & PLAYER_DEAD, -16.0, 0.0))
        sa, sb = int(players.stat_start[pov]), int(players.stat_start[pov + 1])
        if players.has_stats[pov]:
            at = np.maximum(np.searchsorted(players.stat_frame[sa:sb], frames, side="right") - 1, 0)
            stat_vh = players.stat_values[sa + at, _ST_VIEWHEIGHT]
            vh = np.where(vh != 0, vh, np.where(stat_vh != 0, stat_vh, P.DEFAULT_VIEWHEIGHT))
            stat_rows = Steps.at_frames(nframes, players.stat_frame[sa:sb], players.stat_values[sa:sb], np.int32)
        else:
            vh = np.where(vh != 0, vh, P.DEFAULT_VIEWHEIGHT)
            stat_rows = fresh
        view_origin = players.row_origin[a:b].astype(np.float64)
        view_origin[:, 2] += vh
        return pov, {"view_entity": constant(pov + 1, np.int32),
                     "view_origin": Steps.at_frames(nframes, frames, view_origin, np.float64),
                     "view_angles": Steps.at_frames(nframes, frames, players.row_angles[a:b].astype(np.float64),
                                                    np.float64),
                     "stat_rows": stat_rows}

    def _default_pov(self, players: PlayerFrames) -> int:
        """The slot an MVD view follows by default: the first named, non-spectator player that is ever present."""
        final = self.b.scores or []
        seen = players.seen_slots()
        for slot in seen:
            if slot < len(final) and final[slot]["name"] and not final[slot]["spectator"]:
                return int(slot)
        return int(seen[0]) if len(seen) else -1

    def _stat_changes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rows = sorted(self.ps_rows, key=lambda r: r[1])              # by slot, then (stable) by frame
        return (np.asarray([r[0] for r in rows], np.int32), np.asarray([r[1] for r in rows], np.int64),
                np.asarray([r[2] for r in rows], np.int64).astype(np.int32).reshape(-1, _NSTAT))

    def _playerinfo(self, data: bytes, p: int, num: int) -> int:
        prev = self.pstate[num]
        if prev is None or len(self.b.times) - self.pframe[num] >= P.UPDATE_BACKUP - 1:
            prev = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, 0, 0, 0, 0]
        st = list(prev)
        flags, frame = struct.unpack_from("<HB", data, p)
        p += 3
        st[7] = frame
        cf = self.coord_float
        for i in range(3):
            if flags & (P.DF_ORIGIN << i):
                if cf:
                    st[i], = _F32.unpack_from(data, p)
                    p += 4
                else:
                    st[i] = _S16.unpack_from(data, p)[0] * 0.125
                    p += 2
        for i in range(3):
            if flags & (P.DF_ANGLES << i):
                st[3 + i] = _S16.unpack_from(data, p)[0] * _ANGLE16
                p += 2
        if flags & P.DF_MODEL:
            st[6] = data[p]
            p += 1
        elif not st[6] and not self.b.scores[num]["spectator"]:
            st[6] = self.player_model          # old MVD/QTV bug: model index never sent (cl_fix_mvd)
        if flags & P.DF_SKINNUM:
            skin = data[p]
            p += 1
            if self.fte & P.FTE_PEXT_MODELDBL and skin & 128 and flags & P.DF_MODEL:
                skin &= 127
                st[6] += 256
            st[8] = skin
        if flags & P.DF_EFFECTS:
            st[9] = data[p]
            p += 1
        if flags & P.DF_WEAPONFRAME:
            st[10] = data[p]
            p += 1
        st[11] = (PLAYER_DEAD if flags & P.DF_DEAD else 0) | (PLAYER_GIB if flags & P.DF_GIB else 0)
        self.pstate[num] = st
        return p




def _decode(parser: QuakeWorldParser) -> DemoTimeline:
    b = parser.b
    try:
        error = parser.read_blocks()
    except FormatError as exc:
        error = exc
    if error is not None:
        b.drop_from(b.num_frames)
        b.stop(error, "the previous frame")
    b.require_frames(len(parser.data), "at least one frame with entities or players")
    return parser.finish(parser.blocks)


def _decode_guarded(cls: type[QuakeWorldParser], data: bytes, path: str) -> DemoTimeline:
    return decode_guarded(lambda data, path: _decode(cls(data, path)), data, path, cls.FMT,
                          f"a decodable QuakeWorld {cls.FMT} demo")


def decode_qwd(data: bytes, path: str = "<bytes>") -> DemoTimeline:
    """Decode a whole QuakeWorld client demo (``.qwd``).  Raises only :class:`FormatError` (module docstring)."""
    return _decode_guarded(QwdParser, data, path)


def decode_mvd(data: bytes, path: str = "<bytes>") -> DemoTimeline:
    """Decode a whole QuakeWorld multi-view demo (``.mvd``).  Raises only :class:`FormatError` (module docstring)."""
    return _decode_guarded(MvdParser, data, path)
