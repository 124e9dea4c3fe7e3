"""QuakeWorld demo decoder — client recordings (``.qwd``) and server multi-view demos (``.mvd``) →
:class:`~.timeline.DemoTimeline`.

File layouts.  A ``.qwd`` is a list of blocks ``float time, byte type``: type 0 (``dem_cmd``) carries the recorder's
usercmd (24 bytes) and view angles (3 floats); type 1 (``dem_read``) a server packet ``int length`` + bytes that
start with the netchan header (``seq | reliable << 31``, ``ack``) — or ``-1`` for a connectionless packet; type 2
(``dem_set``) the netchan sequence numbers at the start.  An ``.mvd`` block starts with ``byte msec`` (time since
the previous block) and a type byte whose low 3 bits are the block type and whose high 5 bits name a player for
``dem_single`` / ``dem_stats``; ``dem_multiple`` has a 32-bit player mask; ``dem_all`` goes to everyone; each is
followed by ``int length`` and server messages without a netchan header.

Messages are a byte opcode and a payload; the protocol is a table opcode → ``parse_svc_<name>`` method.  Entities
come in ``svc_packetentities`` (a full set against the baselines) or ``svc_deltapacketentities`` (against an earlier
set: in a ``.qwd`` the one of the netchan sequence in the ``from`` byte, kept in a ring of the last 64 sets indexed by
``sequence & UPDATE_MASK``; in an ``.mvd`` the previous frame's set).  Each update word holds the entity number and
flag bits; every distinct flag combination is compiled once into a small specialised reader (one
``Struct.unpack_from`` + one ``Struct.pack`` of the 13-field state row), so unchanged entities are never repacked.

Timeline frames.  A ``.qwd`` frame is a server packet that carried entities or players, at the block's time.  An
``.mvd`` frame is every block up to the next one whose ``msec`` is non-zero, at the accumulated time (from 0).  A
frame holds every entity of the current packet set, every player present in it (``svc_playerinfo``) as entity
``slot + 1`` with ``colormap = slot + 1`` and the model from the playerinfo (``progs/player.mdl`` by default), and the
nails (``svc_nails`` / ``svc_nails2``) as ``progs/spike.mdl`` entities numbered from :data:`NAIL_NUMBER_BASE`.
``svc_muzzleflash`` sets ``EF_MUZZLEFLASH`` on that entity for the frame.  Per-player columns (origin, view angles,
pose, flags, stats) go to :class:`~.timeline.PlayerFrames`; the default view is the recorder (``.qwd``: its
playerinfo origin + view height, the ``dem_cmd`` view angles) or, in an ``.mvd``, the first playing slot.

Bad input: a file cut inside a block gives the timeline up to the cut with a warning; a corrupt message raises
:class:`~assets_loader.errors.FormatError` naming the file, offset and message, or — when at least one frame was
decoded — returns the timeline up to the previous frame with a warning.  Every count and index is checked before
use, so no corrupt count allocates memory.  Protocol extensions in ``svc_serverdata`` (``FTEX``, ``FTE2``, ``MVD1``)
are recorded in ``timeline.meta["extensions"]``; the FTE bits that change message layouts (float coords, entity /
model index doubling, transparency, colour mod, spawnstatic2) are honoured, other FTE messages are rejected as
unknown.  Hidden MVD1 data (``dem_multiple`` to nobody) is walked and counted, not decoded.

References: Uwe Girlich, "The unofficial QWD format description" (blocks, messages 0x00–0x35); ezQuake
``cl_demo.c`` ``CL_GetDemoMessage`` / ``CL_PeekDemoTime`` (QWD/MVD framing), ``cl_parse.c``
``CL_ParseServerMessage``, ``CL_ParseServerData``, ``CL_ParseModellist``, ``CL_ParseSoundlist``,
``CL_ParseStartSoundPacket``, ``CL_SetStat``, ``CL_UpdateUserinfo``; ``cl_ents.c`` ``CL_ParsePacketEntities``,
``CL_ParseDelta``, ``CL_ParsePlayerinfo``, ``CL_ParseProjectiles``, ``CL_LinkPlayers``; ``cl_tent.c``
``CL_ParseTEnt``; ``com_msg.c`` ``MSG_ReadDeltaUsercmd``; mvdsv ``sv_demo.c`` ``MVDWrite_Begin`` /
``SV_MVDWritePackets`` and ``sv_ents.c`` ``SV_EmitNailUpdate``; QW-Group ``qwprot`` ``protocol.h``.
"""

from __future__ import annotations

import struct
import warnings
from typing import Callable

import numpy as np

from ..errors import BadIndexError, BadMagicError, FormatError, TruncatedError
from . import events as ev
from . import qw_protocol as P
from .nq_dem import _pose_history
from .timeline import (PLAYER_DEAD, PLAYER_GIB, STAT_NAMES, DemoTimeline, EntityStates, MapSegment, PlayerFrames,
                       ScoreChange, StaticSound)

__all__ = ["decode_qwd", "decode_mvd", "looks_like_qwd", "looks_like_mvd", "NAIL_NUMBER_BASE"]

#: Entity numbers of nails in the timeline start here (above any edict number).  ``svc_nails2`` (MVD) nails keep their
#: server id (``base + id``) so they interpolate; ``svc_nails`` (QWD) nails get a fresh number every frame.
NAIL_NUMBER_BASE = 1 << 16
_QWD_NAIL_BASE = NAIL_NUMBER_BASE + 256

_F32 = struct.Struct("<f")
_S16 = struct.Struct("<h")
_U16 = struct.Struct("<H")
_S32 = struct.Struct("<i")
_U32 = struct.Struct("<I")
_QWD_HEAD = struct.Struct("<fB")
_QWD_CMD = struct.Struct("<B3x3f3hBB3f")
_II = struct.Struct("<II")
_TIME_LIMIT = 1e9

# Entity state row: number, model, frame, colormap, skin, effects, origin xyz, angles xyz, trans (FTE alpha byte).
_ROW = struct.Struct("<6i6fi")
_NCOL = 13
(_NUM, _MODEL, _FRAME, _COLORMAP, _SKIN, _EFFECTS, _OX, _OY, _OZ, _AX, _AY, _AZ, _TRANS) = range(_NCOL)
_NULL_STATE = (0, 0, 0, 0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0)
_ROW_DTYPE = np.dtype([("i", "<i4", 6), ("f", "<f4", 6), ("t", "<i4")])

# Player row (timeline PlayerFrames): frame index, slot, origin, angles, model, frame, skin, effects, weaponframe,
# flags.
_NSTAT = len(STAT_NAMES)
_ST_VIEWHEIGHT = STAT_NAMES.index("viewheight")
_ST_PUNCH = STAT_NAMES.index("punch_pitch")
_ST_INTERMISSION = STAT_NAMES.index("intermission")
_ST_MONSTERS = STAT_NAMES.index("monsters")
_ST_SECRETS = STAT_NAMES.index("secrets")
_ST_HEALTH = STAT_NAMES.index("health")

_ANGLE8 = 360.0 / 256.0
_ANGLE16 = 360.0 / 65536.0


class _Corrupt(Exception):
    """Internal: a message does not parse; converted to FormatError with file, offset and message name."""


def _delta_plan(key: int, coord_float: bool, angle16: bool, model_dbl: bool) -> Callable:
    """Compile the entity delta for flag ``key`` into ``upd(data, p, base, n) -> (state, row, p)``.

    ``key`` = word bits (U_ORIGIN1… above the 9 number bits) | MOREBITS byte | FTE EVENMORE bits << 16.  The field
    list is data (the read order of ``CL_ParseDelta``); the generated source contains only our own constants.
    """
    more = key & 0xFFFF
    even = key >> 16
    fmt = "<"
    expr = [f"b[{i}]" for i in range(_NCOL)]
    expr[_NUM] = "n"
    names: list[str] = []

    def take(code: str) -> str:
        nonlocal fmt
        fmt += code
        names.append(f"v{len(names)}")
        return names[-1]

    coord = ("f", "") if coord_float else ("h", " * 0.125")
    angle = ("h", f" * {_ANGLE16!r}") if angle16 else ("b", f" * {_ANGLE8!r}")
    if more & P.U_MODEL:
        v = take("B")
        expr[_MODEL] = f"({v} + 256)" if (model_dbl and even & P.U_FTE_MODELDBL) else v
    elif model_dbl and even & P.U_FTE_MODELDBL:
        expr[_MODEL] = take("H")
    if more & P.U_FRAME:
        expr[_FRAME] = take("B")
    if more & P.U_COLORMAP:
        expr[_COLORMAP] = take("B")
    if more & P.U_SKIN:
        expr[_SKIN] = take("B")
    if more & P.U_EFFECTS:
        expr[_EFFECTS] = take("B")
    for obit, abit, oi, ai in ((P.U_ORIGIN1, P.U_ANGLE1, _OX, _AX), (P.U_ORIGIN2, P.U_ANGLE2, _OY, _AY),
                               (P.U_ORIGIN3, P.U_ANGLE3, _OZ, _AZ)):
        if more & obit:
            expr[oi] = take(coord[0]) + coord[1]
        if more & abit:
            expr[ai] = take(angle[0]) + angle[1]
    if even & P.U_FTE_TRANS:
        expr[_TRANS] = take("B")
    if even & P.U_FTE_COLOURMOD:
        take("B"), take("B"), take("B")
    st = struct.Struct(fmt)
    lines = ["def upd(data, p, b, n):"]
    if names:
        lines.append(f"    {', '.join(names)}, = unpack(data, p)")
    lines.append(f"    s = ({', '.join(expr)})")
    lines.append(f"    return s, pack(*s), p + {st.size}")
    namespace = {"unpack": st.unpack_from, "pack": _ROW.pack}
    exec(compile("\n".join(lines) + "\n", f"<qw delta 0x{key:x}>", "exec"), namespace)  # noqa: S102
    return namespace["upd"]


def _parse_info(text: str) -> list[tuple[str, str]]:
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


def looks_like_qwd(data: bytes) -> bool:
    """Content sniff: the first blocks parse as QWD blocks (float time, type 0/1/2, sane sizes)."""
    pos, n, seen = 0, len(data), 0
    while pos + 5 <= n and seen < 8:
        t, typ = _QWD_HEAD.unpack_from(data, pos)
        if t != t or abs(t) > _TIME_LIMIT:
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


class _Decoder:
    """One pass over a QWD or MVD demo.  Mutable only while decoding; produces an immutable DemoTimeline."""

    def __init__(self, data: bytes, path: str, mvd: bool) -> None:
        self.data = data
        self.path = path
        self.mvd = mvd
        self.fmt = "MVD" if mvd else "QWD"
        self.warnings: list[str] = []
        # protocol
        self.protocol = P.PROTOCOL_VERSION
        self.first_protocol: int | None = None
        self.fte = 0
        self.fte2 = 0
        self.mvd1 = 0
        self.extensions: dict[str, int] = {}
        self.plans: dict[int, Callable] = {}
        self._set_encodings()
        # segments
        self.segments: list[dict] = []
        self.seg = -1
        self.models: list[str] = [""]
        self.sounds: list[str] = [""]
        self.player_model = 0
        self.spike_model = 0
        self.gamedir = ""
        self.serverinfo: dict[str, str] = {}
        self.movevars: dict[str, float] = {}
        # client state
        self.baselines: dict[int, tuple] = {}
        self.statics: list[tuple] = []
        self.static_sounds: list[StaticSound] = []
        self.ring: list[tuple[int, list] | None] = [None] * P.UPDATE_BACKUP
        self.current: list[tuple] = []             # (num, state, row) of the latest packet set, sorted by number
        self.incoming_seq = 0
        self.playernum = 0
        self.spectator = False
        self.pstate: list[list | None] = [None] * P.MAX_CLIENTS   # last playerinfo per slot
        self.pframe = [-1] * P.MAX_CLIENTS                        # frame index of that playerinfo
        self.psent: set[int] = set()
        self.nails: list[tuple[int, float, float, float, float, float]] = []
        self.nail_counter = 0
        self.flashes: set[int] = set()
        self.stats = self._fresh_stats()
        self.pstats: dict[int, list[int]] = {}
        self.view_angles = (0.0, 0.0, 0.0)
        self.view_org = (0.0, 0.0, 0.0)
        self.intermission_view: tuple[tuple, tuple] | None = None
        self.scores: list[dict] = []
        self.lightstyles_set: set[int] = set()
        self.dirty = False
        self.target: tuple[int, ...] | None = None     # MVD: slots the current block is addressed to
        self.target_type = P.dem_all
        self.target_slot = 0
        self.hidden_counts: dict[str, int] = {}
        self.last_print: tuple | None = None
        self.counters = {"delta_from_mismatch": 0, "dropped_packets": 0, "chokecount": 0, "downloads": 0}
        # frames (Python lists, converted to numpy once)
        self.f_time: list[float] = []
        self.f_seg: list[int] = []
        self.f_offsets: list[int] = []
        self.f_vieworg: list[tuple[float, float, float]] = []
        self.f_viewang: list[tuple[float, float, float]] = []
        self.f_viewent: list[int] = []
        self.f_stats: list[list[int]] = []
        self.f_rows: list[bytes] = []
        self.nrows = 0
        self.p_rows: list[tuple] = []
        self.ps_rows: list[tuple] = []               # (frame, slot, stats tuple)
        self.last_time = -np.inf
        # events and histories: (frame, segment, cls, args) resolved to times at the end
        self.events: list[tuple] = []
        self.ls_changes: list[tuple[int, int, str]] = []
        self.score_changes: list[tuple] = []
        self.score_resets: list[tuple[int, int]] = []
        self.ended = False
        self.table: list[Callable[[bytes, int, int], int] | None] = [None] * 256
        for cmd, name in P.SVC_NAMES.items():
            fn = getattr(self, f"parse_svc_{name}", None)
            if fn is not None:
                self.table[cmd] = fn

    # --- helpers --------------------------------------------------------------------------------------------------

    def _set_encodings(self) -> None:
        fte_float = bool(self.fte & P.FTE_PEXT_FLOATCOORDS)
        self.coord_float = fte_float
        self.ent_coord_float = fte_float or bool(self.mvd1 & P.MVD_PEXT1_FLOATCOORDS)
        self.angle16 = fte_float
        self.coord3 = struct.Struct("<3f" if fte_float else "<3h")
        self.coord_scale = 1.0 if fte_float else 0.125
        self.plans = {}

    @staticmethod
    def _fresh_stats() -> list[int]:
        st = [0] * _NSTAT
        st[_ST_VIEWHEIGHT] = P.DEFAULT_VIEWHEIGHT
        return st

    def _coords(self, data: bytes, p: int) -> tuple[tuple[float, float, float], int]:
        x, y, z = self.coord3.unpack_from(data, p)
        s = self.coord_scale
        return (x * s, y * s, z * s), p + self.coord3.size

    def _angle(self, data: bytes, p: int) -> tuple[float, int]:
        if self.angle16:
            return _S16.unpack_from(data, p)[0] * _ANGLE16, p + 2
        v = data[p]
        return (v - 256 if v > 127 else v) * _ANGLE8, p + 1

    @staticmethod
    def _string(data: bytes, pos: int, end: int) -> tuple[str, int]:
        z = data.find(b"\0", pos, end)
        if z < 0:
            raise _Corrupt("a NUL-terminated string inside the message block")
        raw = data[pos:z]
        if b"\xff" in raw:               # MSG_ReadString skips 0xFF bytes
            raw = raw.replace(b"\xff", b"")
        return raw.decode("latin-1"), z + 1

    def _emit(self, cls: type, *args: object) -> None:
        self.events.append((len(self.f_time), max(self.seg, 0), cls, args))

    def _sound_name(self, index: int) -> str:
        return self.sounds[index] if 0 <= index < len(self.sounds) else ""

    def _slot(self, slot: int, what: str) -> dict:
        if slot >= P.MAX_CLIENTS:
            raise _Corrupt(f"a player slot below {P.MAX_CLIENTS} in {what}, found {slot}")
        if not self.scores:
            self._reset_scores()
        return self.scores[slot]

    def _reset_scores(self) -> None:
        self.scores = [dict(name="", frags=0, colors=0, team="", spectator=False, userid=0, ping=0, pl=0,
                            userinfo=()) for _ in range(P.MAX_CLIENTS)]

    def _score_changed(self, slot: int) -> None:
        s = self.scores[slot]
        self.score_changes.append((len(self.f_time), max(self.seg, 0), slot, s["name"], s["frags"], s["colors"],
                                   s["team"], s["spectator"], s["userid"], s["ping"], s["pl"], s["userinfo"]))

    def _addressee(self) -> int:
        """The player slot a stat / print is for: the recorder (QWD) or the MVD block's addressee."""
        if not self.mvd:
            return self.playernum
        return self.target_slot if self.target_type in (P.dem_single, P.dem_stats) else 0

    # --- frames ---------------------------------------------------------------------------------------------------

    def _commit_frame(self, t: float) -> None:
        """Close the frame being built at time ``t``: entity rows, players, view, stats."""
        if self.seg < 0:
            raise _Corrupt("svc_serverdata before the first entity update")
        if t < self.last_time:
            t = self.last_time
        self.last_time = t
        fi = len(self.f_time)
        if not self.segments[self.seg].get("has_frames"):
            self.segments[self.seg]["has_frames"] = True
            self.segments[self.seg]["start_frame"] = fi
        pack = _ROW.pack
        rows: list[bytes] = []
        flashes = self.flashes
        # players (entities 1..32)
        rec = self.playernum
        for slot in sorted(self.psent):
            st = self.pstate[slot]
            if st is None:
                continue
            ox, oy, oz, pitch, yaw, roll, model, frame, skin, effects, wframe, flags = st
            if not self.mvd and slot == rec:
                pitch, yaw, roll = self.view_angles
            if slot + 1 in flashes:
                effects |= P.EF_MUZZLEFLASH
            self.p_rows.append((fi, slot, ox, oy, oz, pitch, yaw, roll, model, frame, skin, effects, wframe, flags))
            if model:
                rows.append(pack(slot + 1, model, frame, slot + 1, skin, effects, ox, oy, oz, -pitch / 3.0, yaw,
                                 0.0, 0))
        # packet entities
        if flashes:
            for num, state, row in self.current:
                if num in flashes:
                    s = list(state)
                    s[_EFFECTS] |= P.EF_MUZZLEFLASH
                    rows.append(pack(*s))
                else:
                    rows.append(row)
        else:
            rows.extend([e[2] for e in self.current])
        # nails
        if self.nails and self.spike_model:
            spike = self.spike_model
            for num, x, y, z, pitch, yaw in sorted(self.nails):
                rows.append(pack(num, spike, 0, 0, 0, 0, x, y, z, pitch, yaw, 0.0, 0))
        blob = b"".join(rows)
        self.f_offsets.append(self.nrows)
        self.nrows += len(blob) // _ROW.size
        self.f_rows.append(blob)
        self.f_time.append(t)
        self.f_seg.append(self.seg)
        # view (the recorder in a .qwd; filled from the players table for an .mvd)
        stats = self.stats
        if not self.mvd:
            if self.intermission_view is not None:
                org, ang = self.intermission_view
                self.view_org = org
                self.f_viewang.append(ang)
            else:
                st = self.pstate[rec]
                if st is not None and rec in self.psent:
                    flags = st[11]
                    vh = 8.0 if flags & PLAYER_GIB else -16.0 if flags & PLAYER_DEAD else (
                        stats[_ST_VIEWHEIGHT] or P.DEFAULT_VIEWHEIGHT)
                    self.view_org = (st[0], st[1], st[2] + vh)
                self.f_viewang.append(self.view_angles)
            self.f_vieworg.append(self.view_org)
            self.f_viewent.append(rec + 1)
            self.f_stats.append(stats[:])
            stats[_ST_PUNCH] = 0
        else:
            for slot, pst in self.pstats.items():
                self.ps_rows.append((fi, slot, tuple(pst)))
                pst[_ST_PUNCH] = 0
        self.psent = set()
        self.nails = []
        self.flashes = set()
        self.dirty = False

    # --- the block loops ------------------------------------------------------------------------------------------

    def run(self) -> DemoTimeline:
        error: FormatError | None = None
        blocks = 0
        try:
            blocks, error = self._run_mvd() if self.mvd else self._run_qwd()
        except FormatError as exc:
            error = exc
        if error is not None:
            self._drop_pending()
            if not self.f_time:
                raise error
            msg = f"{error}; decoding stopped there, the timeline ends at the previous frame"
            self.warnings.append(msg)
            warnings.warn(msg, stacklevel=3)
        if not self.f_time:
            raise TruncatedError(self.path, self.fmt, len(self.data), "at least one frame with entities or players",
                                 "none" if not self.warnings else "a cut before the first frame")
        return self._finish(blocks)

    def _message_error(self, exc: Exception, mpos: int, cmd: int, block: int) -> FormatError:
        if isinstance(exc, FormatError):
            return exc
        found = str(exc) if isinstance(exc, _Corrupt) else f"{type(exc).__name__}: {exc}"
        return FormatError(self.path, self.fmt, mpos, f"a valid {P.svc_name(cmd)} message (block {block})", found)

    def _parse_messages(self, data: bytes, p: int, end: int, block: int) -> None:
        table = self.table
        cmd = 0
        mpos = p
        try:
            while p < end:
                mpos = p
                cmd = data[p]
                fn = table[cmd]
                if fn is None:
                    raise _Corrupt(f"a known message type, found {cmd}")
                p = fn(data, p + 1, end)
                if p > end:
                    raise _Corrupt(f"the {P.svc_name(cmd)} message to end inside its block")
                if self.ended:
                    break
        except (_Corrupt, struct.error, IndexError, ValueError, KeyError, OverflowError, TypeError) as exc:
            raise self._message_error(exc, mpos, cmd, block) from None

    def _run_qwd(self) -> tuple[int, FormatError | None]:
        data = self.data
        n = len(data)
        pos = 0
        blocks = 0
        head = _QWD_HEAD.unpack_from
        while pos < n and not self.ended:
            if n - pos < 5:
                self._truncated(pos, "a 5-byte block header", n - pos)
                break
            t, typ = head(data, pos)
            if t != t or abs(t) > _TIME_LIMIT:
                return blocks, FormatError(self.path, self.fmt, pos, "a finite block time", repr(t))
            body = pos + 5
            if typ == P.dem_read:
                if n - body < 4:
                    self._truncated(pos, "a message length", n - body)
                    break
                length, = _S32.unpack_from(data, body)
                if not 0 <= length <= P.MAX_MSGLEN:
                    return blocks, BadIndexError(self.path, self.fmt, body, f"a message length 0..{P.MAX_MSGLEN}",
                                                 str(length))
                start = body + 4
                end = start + length
                if end > n:
                    self._truncated(pos, f"a {length}-byte server packet", n - start)
                    break
                self._qwd_packet(data, start, end, t, blocks)
                pos = end
            elif typ == P.dem_cmd:
                if n - body < 36:
                    self._truncated(pos, "a 36-byte usercmd block", n - body)
                    break
                (_msec, _a0, _a1, _a2, _fw, _sd, _up, _buttons, _impulse, v0, v1, v2) = _QWD_CMD.unpack_from(data, body)
                if not all(abs(v) < _TIME_LIMIT for v in (v0, v1, v2)):
                    return blocks, FormatError(self.path, self.fmt, body, "finite view angles", repr((v0, v1, v2)))
                self.view_angles = (v0, v1, v2)
                pos = body + 36
            elif typ == P.dem_set:
                if n - body < 8:
                    self._truncated(pos, "an 8-byte dem_set block", n - body)
                    break
                _outgoing, self.incoming_seq = _II.unpack_from(data, body)
                pos = body + 8
            else:
                return blocks, BadMagicError(self.path, self.fmt, pos + 4, "a block type 0, 1 or 2", str(typ))
            blocks += 1
        return blocks, None

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
        self._parse_messages(data, start + 8, end, block)
        if self.dirty:
            self._commit_frame(t)

    def _connectionless(self, data: bytes, p: int, end: int, block: int) -> None:
        if p >= end:
            return
        c = data[p]
        try:
            if c in (ord("n"), ord("B")):
                body = data[p + 1:end] + b"\0"        # the text may run to the end of the packet
                text, _ = self._string(body, 0, len(body))
                if c == ord("n"):
                    self._emit(ev.PrintEvent, text, None, None)
                else:
                    self._emit(ev.StuffTextEvent, text)
            elif c == 0x02:                               # end of demo ("EndOfDemo")
                self._emit(ev.DisconnectEvent)
                self.ended = True
        except _Corrupt as exc:
            raise self._message_error(exc, p, 0, block) from None

    def _run_mvd(self) -> tuple[int, FormatError | None]:
        data = self.data
        n = len(data)
        pos = 0
        blocks = 0
        ms_total = 0
        while pos < n and not self.ended:
            if n - pos < 2:
                self._truncated(pos, "a 2-byte block header", n - pos)
                break
            dt = data[pos]
            c = data[pos + 1]
            typ = c & 7
            if dt:
                if self.dirty:
                    self._commit_frame(ms_total * 0.001)
                ms_total += dt
            body = pos + 2
            if typ == P.dem_cmd:
                if n - body < 36:
                    self._truncated(pos, "a 36-byte usercmd block", n - body)
                    break
                pos = body + 36
                blocks += 1
                continue
            if typ == P.dem_set:
                if n - body < 8:
                    self._truncated(pos, "an 8-byte dem_set block", n - body)
                    break
                pos = body + 8
                blocks += 1
                continue
            if typ == P.dem_multiple:
                if n - body < 4:
                    self._truncated(pos, "a player mask", n - body)
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
                return blocks, BadMagicError(self.path, self.fmt, pos + 1, "a block type 0..6", str(typ))
            if n - body < 4:
                self._truncated(pos, "a message length", n - body)
                break
            length, = _S32.unpack_from(data, body)
            if not 0 <= length <= P.MAX_MSGLEN:
                return blocks, BadIndexError(self.path, self.fmt, body, f"a message length 0..{P.MAX_MSGLEN}",
                                             str(length))
            start = body + 4
            end = start + length
            if end > n:
                self._truncated(pos, f"a {length}-byte message block", n - start)
                break
            if typ == P.dem_multiple and not self.target:
                self._hidden(data, start, end)          # to nobody: MVD1 hidden data (or junk the engine skips)
            else:
                self._parse_messages(data, start, end, blocks)
            pos = end
            blocks += 1
        if self.dirty:
            self._commit_frame(ms_total * 0.001)
        return blocks, None

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

    def _truncated(self, pos: int, what: str, have: int) -> None:
        msg = (f"{self.path}: demo is truncated at offset {pos}: expected {what}, found {have} bytes; "
               f"the timeline ends at the previous block")
        self.warnings.append(msg)
        if self.f_time:
            warnings.warn(msg, stacklevel=5)

    def _drop_pending(self) -> None:
        """Forget what belongs to the frame that was being built when decoding failed."""
        f = len(self.f_time)
        self.events = [e for e in self.events if e[0] < f]
        self.ls_changes = [c for c in self.ls_changes if c[0] < f]
        self.score_changes = [c for c in self.score_changes if c[0] < f]
        self.score_resets = [c for c in self.score_resets if c[0] < f or c[0] == 0]

    # --- messages (one method per svc, named after the engine's message) ------------------------------------------

    def parse_svc_nop(self, data: bytes, p: int, end: int) -> int:
        return p

    def parse_svc_bad(self, data: bytes, p: int, end: int) -> int:
        raise _Corrupt("a message type other than svc_bad (0)")

    def parse_svc_disconnect(self, data: bytes, p: int, end: int) -> int:
        self._emit(ev.DisconnectEvent)
        if self.mvd:
            # mvdsv appends "EndOfDemo"; a multi-map MVD goes on with the next svc_serverdata.
            if p < end:
                _text, p = self._string(data, p, end)
            if end >= len(self.data):
                self.ended = True
            return p
        self.ended = True
        return p

    def parse_svc_nq_time(self, data: bytes, p: int, end: int) -> int:
        return p + 4

    def parse_svc_print(self, data: bytes, p: int, end: int) -> int:
        level = data[p]
        text, p = self._string(data, p + 1, end)
        if not text:
            self.counters["empty_prints"] = self.counters.get("empty_prints", 0) + 1
            return p
        to = self.target if self.mvd else None
        if to is not None and self._merge_print(text, level, to):
            return p
        first = len(self.events)
        self._emit(ev.PrintEvent, text, level, to)
        if level == P.PRINT_CHAT:
            chat = ev.parse_chat(text, [sc["name"] for sc in self.scores])
            if chat is not None:
                sender, team, message = chat
                slot = self._slot_of_name(sender)
                self._emit(ev.ChatEvent, sender, slot, team, message, to)
            if to is not None:
                self.last_print = ((len(self.f_time), text, level), first, len(self.events))
            return p
        obit = ev.parse_obituary(text)
        if obit is not None:
            self._emit(ev.ObituaryEvent, obit.victim, obit.killer, obit.weapon, obit.suicide, text)
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
        if last is None or last[0] != (len(self.f_time), text, level) or last[2] != len(self.events):
            return False
        merged = False
        for i in range(last[1], last[2]):
            frame, seg, cls, args = self.events[i]
            old = args[-1]
            if old is None or set(to) <= set(old):
                return False
            self.events[i] = (frame, seg, cls, args[:-1] + (tuple(sorted(set(old) | set(to))),))
            merged = True
        return merged

    def _slot_of_name(self, name: str) -> int:
        plain = ev.plain_text(name)
        for i, s in enumerate(self.scores):
            if s["name"] and (s["name"] == name or ev.plain_text(s["name"]) == plain):
                return i
        return -1

    def parse_svc_centerprint(self, data: bytes, p: int, end: int) -> int:
        text, p = self._string(data, p, end)
        self._emit(ev.CenterPrintEvent, text)
        return p

    def parse_svc_stufftext(self, data: bytes, p: int, end: int) -> int:
        text, p = self._string(data, p, end)
        self._emit(ev.StuffTextEvent, text)
        for line in text.split("\n"):
            if line.startswith("fullserverinfo "):
                arg = line[len("fullserverinfo "):].strip()
                if len(arg) >= 2 and arg[0] == '"' and arg[-1] == '"':
                    arg = arg[1:-1]
                self.serverinfo = dict(_parse_info(arg))
        return p

    def parse_svc_damage(self, data: bytes, p: int, end: int) -> int:
        armor, blood = data[p], data[p + 1]
        origin, p = self._coords(data, p + 2)
        self._emit(ev.DamageEvent, armor, blood, origin)
        return p

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
            raise _Corrupt(f"protocol {P.PROTOCOL_VERSION} (or 24..27, FTEX/FTE2/MVD1 prefixes), found {version}")
        else:
            raise _Corrupt("a protocol version after at most 7 extension prefixes")
        servercount, = _S32.unpack_from(data, p)
        gamedir, p = self._string(data, p + 4, end)
        if self.mvd:
            demotime, = _F32.unpack_from(data, p)
            p += 4
            playernum, spectator = P.MAX_CLIENTS - 1, True
        else:
            playernum = data[p]
            p += 1
            spectator = bool(playernum & 128)
            playernum &= 127
            demotime = 0.0
            if playernum >= P.MAX_CLIENTS:
                raise _Corrupt(f"a player number below {P.MAX_CLIENTS}, found {playernum}")
        level_name, p = self._string(data, p, end)
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
        if self.dirty and self.seg >= 0:
            self._commit_frame(self.last_time if self.f_time else 0.0)
        self._end_segment()
        self.protocol = version
        if self.first_protocol is None:
            self.first_protocol = version
        self.fte, self.fte2, self.mvd1 = fte, fte2, mvd1
        self.extensions.update(extensions)
        self._set_encodings()
        self.seg += 1
        self.models = [""]
        self.sounds = [""]
        self.player_model = 0
        self.spike_model = 0
        self.gamedir = gamedir
        self.movevars = movevars
        self.playernum = playernum
        self.spectator = spectator
        self.segments.append(dict(index=self.seg, level_name=level_name, protocol=version,
                                  start_frame=len(self.f_time), servercount=servercount, gamedir=gamedir,
                                  playernum=playernum, spectator=spectator, demotime=demotime))
        # CL_ClearState: baselines, statics, entities, players, stats, lightstyles start fresh.
        self.baselines = {}
        self.statics = []
        self.static_sounds = []
        self.ring = [None] * P.UPDATE_BACKUP
        self.current = []
        self.pstate = [None] * P.MAX_CLIENTS
        self.pframe = [-1] * P.MAX_CLIENTS
        self.psent = set()
        self.nails = []
        self.flashes = set()
        self.stats = self._fresh_stats()
        self.pstats = {}
        self.intermission_view = None
        frame = len(self.f_time)
        for style in sorted(self.lightstyles_set):
            self.ls_changes.append((frame, style, ""))
        self.lightstyles_set = set()
        self._reset_scores()
        self.score_resets.append((frame, P.MAX_CLIENTS))
        self._emit(ev.ServerInfoEvent, None, level_name, version, P.MAX_CLIENTS)

    def _end_segment(self) -> None:
        if self.seg < 0:
            return
        seg = self.segments[self.seg]
        seg["model_precache"] = tuple(self.models)
        seg["sound_precache"] = tuple(self.sounds)
        world = self.models[1] if len(self.models) > 1 else ""
        name = world.rsplit("/", 1)[-1]
        seg["map_name"] = name[:-4] if name.lower().endswith(".bsp") else name
        # Baselines without a model (recorders send one for every edict slot) are left out of the summary.
        seg["baselines"] = _states_from_rows(sorted((k, v) for k, v in self.baselines.items() if v[_MODEL]))
        seg["statics"] = _states_from_rows([(-1, s) for s in self.statics])
        seg["static_sounds"] = tuple(self.static_sounds)
        seg["serverinfo"] = dict(self.serverinfo)

    def _need_segment(self) -> None:
        if self.seg < 0:
            raise _Corrupt("svc_serverdata before this message")

    def parse_svc_modellist(self, data: bytes, p: int, end: int, extended: bool = False) -> int:
        self._need_segment()
        if self.protocol >= 26:
            if extended:
                count, = _U16.unpack_from(data, p)
                p += 2
            else:
                count = data[p]
                p += 1
            limit = P.MAX_MODELS if (self.fte & P.FTE_PEXT_MODELDBL) else 256
            while True:
                name, p = self._string(data, p, end)
                if not name:
                    break
                count += 1
                if count >= limit:
                    raise _Corrupt(f"at most {limit - 1} model precaches")
                self._set_precache(self.models, count, name.lstrip("/") if name.startswith("/") else name)
            p += 1  # the index to continue from: the lists arrive in order, so it adds nothing
        else:
            count = 0
            while True:
                name, p = self._string(data, p, end)
                if not name:
                    break
                count += 1
                if count > 255:
                    raise _Corrupt("at most 255 model precaches")
                self._set_precache(self.models, count, name)
        self.player_model = self._index_of(self.models, P.PLAYER_MODEL)
        self.spike_model = self._index_of(self.models, P.SPIKE_MODEL)
        return p

    def parse_svc_fte_modellistshort(self, data: bytes, p: int, end: int) -> int:
        if not self.fte & P.FTE_PEXT_MODELDBL:
            raise _Corrupt("svc_fte_modellistshort only with the FTE MODELDBL extension")
        return self.parse_svc_modellist(data, p, end, True)

    def parse_svc_soundlist(self, data: bytes, p: int, end: int) -> int:
        self._need_segment()
        if self.protocol >= 26:
            count = data[p]
            p += 1
            while True:
                name, p = self._string(data, p, end)
                if not name:
                    break
                count += 1
                if count >= P.MAX_SOUNDS:
                    raise _Corrupt(f"at most {P.MAX_SOUNDS - 1} sound precaches")
                self._set_precache(self.sounds, count, name[1:] if name.startswith("/") else name)
            p += 1  # the index to continue from: the lists arrive in order, so it adds nothing
        else:
            count = 0
            while True:
                name, p = self._string(data, p, end)
                if not name:
                    break
                count += 1
                if count > 255:
                    raise _Corrupt("at most 255 sound precaches")
                self._set_precache(self.sounds, count, name)
        return p

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
            raise _Corrupt(f"a stat index below {P.MAX_CL_STATS}, found {i}")
        if i < 16:
            col = i
        elif i == P.STAT_VIEWHEIGHT:
            col = _ST_VIEWHEIGHT
        else:
            return p                                   # STAT_TIME, match start time…: not timeline stats
        if self.mvd:
            slot = self._addressee()
            st = self.pstats.get(slot)
            if st is None:
                st = self.pstats[slot] = self._fresh_stats()
            st[col] = value
        else:
            self.stats[col] = value
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
        origin, p = self._coords(data, p + 1)
        ent = (channel >> 3) & 1023
        if ent > P.MAX_EDICTS:
            raise _Corrupt(f"a sound entity up to {P.MAX_EDICTS}, found {ent}")
        self._emit(ev.SoundEvent, ent, channel & 7, snd, self._sound_name(snd), volume / 255.0, atten, origin)
        return p

    def parse_svc_stopsound(self, data: bytes, p: int, end: int) -> int:
        v, = _U16.unpack_from(data, p)
        self._emit(ev.StopSoundEvent, v >> 3, v & 7)
        return p + 2

    def parse_svc_setangle(self, data: bytes, p: int, end: int) -> int:
        if self.mvd or self.mvd1 & P.MVD_PEXT1_HIGHLAGTELEPORT:
            p += 1  # the player slot the angles are for: only the recorder's view turns
        a0, p = self._angle(data, p)
        a1, p = self._angle(data, p)
        a2, p = self._angle(data, p)
        if not self.mvd:
            self.view_angles = (a0, a1, a2)
        self._emit(ev.SetAngleEvent, (a0, a1, a2))
        return p

    def parse_svc_lightstyle(self, data: bytes, p: int, end: int) -> int:
        style = data[p]
        if style >= P.MAX_LIGHTSTYLES:
            raise _Corrupt(f"a lightstyle below {P.MAX_LIGHTSTYLES}, found {style}")
        pattern, p = self._string(data, p + 1, end)
        self.lightstyles_set.add(style)
        self.ls_changes.append((len(self.f_time), style, pattern))
        self._emit(ev.LightStyleEvent, style, pattern)
        return p

    def parse_svc_updatefrags(self, data: bytes, p: int, end: int) -> int:
        slot = data[p]
        frags, = _S16.unpack_from(data, p + 1)
        self._slot(slot, "svc_updatefrags")["frags"] = frags
        self._score_changed(slot)
        return p + 3

    def parse_svc_updateping(self, data: bytes, p: int, end: int) -> int:
        slot = data[p]
        ping, = _S16.unpack_from(data, p + 1)
        s = self._slot(slot, "svc_updateping")
        if s["ping"] != ping:
            s["ping"] = ping
            self._score_changed(slot)
        return p + 3

    def parse_svc_updatepl(self, data: bytes, p: int, end: int) -> int:
        slot = data[p]
        pl = data[p + 1]
        s = self._slot(slot, "svc_updatepl")
        if s["pl"] != pl:
            s["pl"] = pl
            self._score_changed(slot)
        return p + 2

    def parse_svc_updateentertime(self, data: bytes, p: int, end: int) -> int:
        self._slot(data[p], "svc_updateentertime")
        _F32.unpack_from(data, p + 1)
        return p + 5

    def parse_svc_updateuserinfo(self, data: bytes, p: int, end: int) -> int:
        slot = data[p]
        userid, = _S32.unpack_from(data, p + 1)
        text, p = self._string(data, p + 5, end)
        s = self._slot(slot, "svc_updateuserinfo")
        s["userid"] = userid
        self._apply_userinfo(slot, _parse_info(text))
        return p

    def parse_svc_setinfo(self, data: bytes, p: int, end: int) -> int:
        slot = data[p]
        key, p = self._string(data, p + 1, end)
        value, p = self._string(data, p, end)
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
        s = self.scores[slot]
        info = dict(pairs)
        s["userinfo"] = tuple(pairs)
        s["name"] = info.get("name", "")
        s["team"] = info.get("team", "")
        s["spectator"] = info.get("*spectator", "") not in ("", "0")
        s["colors"] = ((_int(info.get("topcolor", "0")) & 15) << 4) | (_int(info.get("bottomcolor", "0")) & 15)
        self._score_changed(slot)

    def parse_svc_serverinfo(self, data: bytes, p: int, end: int) -> int:
        key, p = self._string(data, p, end)
        value, p = self._string(data, p, end)
        if value:
            self.serverinfo[key] = value
        else:
            self.serverinfo.pop(key, None)
        self._emit(ev.SetInfoEvent, -1, key, value)
        return p

    def _baseline(self, data: bytes, p: int) -> tuple[tuple, int]:
        model, frame, colormap, skin = data[p], data[p + 1], data[p + 2], data[p + 3]
        p += 4
        ox, p = self._coord1(data, p)
        ax, p = self._angle(data, p)
        oy, p = self._coord1(data, p)
        ay, p = self._angle(data, p)
        oz, p = self._coord1(data, p)
        az, p = self._angle(data, p)
        return (0, model, frame, colormap, skin, 0, ox, oy, oz, ax, ay, az, 0), p

    def _coord1(self, data: bytes, p: int) -> tuple[float, int]:
        if self.coord_float:
            return _F32.unpack_from(data, p)[0], p + 4
        return _S16.unpack_from(data, p)[0] * 0.125, p + 2

    def parse_svc_spawnbaseline(self, data: bytes, p: int, end: int) -> int:
        self._need_segment()
        num, = _U16.unpack_from(data, p)
        if num >= P.MAX_EDICTS:
            raise _Corrupt(f"an entity number below {P.MAX_EDICTS}, found {num}")
        state, p = self._baseline(data, p + 2)
        self.baselines[num] = (num,) + state[1:]
        return p

    def parse_svc_spawnstatic(self, data: bytes, p: int, end: int) -> int:
        self._need_segment()
        if len(self.statics) >= P.MAX_STATIC_ENTITIES:
            raise _Corrupt(f"at most {P.MAX_STATIC_ENTITIES} static entities")
        state, p = self._baseline(data, p)
        self.statics.append(state)
        return p

    def _null_delta(self, data: bytes, p: int) -> tuple[tuple, int]:
        word, = _U16.unpack_from(data, p)
        p += 2
        num, key, p = self._read_bits(data, p, word)
        state, _row, p = self._plan(key)(data, p, _NULL_STATE, num)
        return state, p

    def parse_svc_fte_spawnstatic2(self, data: bytes, p: int, end: int) -> int:
        self._need_segment()
        if not self.fte & P.FTE_PEXT_SPAWNSTATIC2:
            raise _Corrupt("svc_fte_spawnstatic2 only with the FTE SPAWNSTATIC2 extension")
        if len(self.statics) >= P.MAX_STATIC_ENTITIES:
            raise _Corrupt(f"at most {P.MAX_STATIC_ENTITIES} static entities")
        state, p = self._null_delta(data, p)
        self.statics.append(state)
        return p

    def parse_svc_fte_spawnbaseline2(self, data: bytes, p: int, end: int) -> int:
        self._need_segment()
        if not self.fte & P.FTE_PEXT_SPAWNSTATIC2:
            raise _Corrupt("svc_fte_spawnbaseline2 only with the FTE SPAWNSTATIC2 extension")
        state, p = self._null_delta(data, p)
        if state[_NUM] >= P.MAX_EDICTS:
            raise _Corrupt(f"an entity number below {P.MAX_EDICTS}, found {state[_NUM]}")
        self.baselines[state[_NUM]] = state
        return p

    def parse_svc_temp_entity(self, data: bytes, p: int, end: int) -> int:
        te = data[p]
        p += 1
        shape = P.TE_SHAPES.get(te)
        if shape is None:
            raise _Corrupt(f"a temp entity kind 0..13, found {te}")
        name = P.TE_NAMES[te]
        if shape == "beam":
            ent, = _S16.unpack_from(data, p)
            start, p = self._coords(data, p + 2)
            stop, p = self._coords(data, p)
            self._emit(ev.TempEntityEvent, te, name, start, stop, ent)
        elif shape == "count":
            count = data[p]
            origin, p = self._coords(data, p + 1)
            self._emit(ev.TempEntityEvent, te, name, origin, None, None, None, None, count)
        else:
            origin, p = self._coords(data, p)
            self._emit(ev.TempEntityEvent, te, name, origin)
        return p

    def parse_svc_setpause(self, data: bytes, p: int, end: int) -> int:
        self._emit(ev.PauseEvent, bool(data[p]))
        return p + 1

    def parse_svc_killedmonster(self, data: bytes, p: int, end: int) -> int:
        st = self.stats if not self.mvd else self.pstats.setdefault(self._addressee(), self._fresh_stats())
        st[_ST_MONSTERS] += 1
        self._emit(ev.KilledMonsterEvent, st[_ST_MONSTERS])
        return p

    def parse_svc_foundsecret(self, data: bytes, p: int, end: int) -> int:
        st = self.stats if not self.mvd else self.pstats.setdefault(self._addressee(), self._fresh_stats())
        st[_ST_SECRETS] += 1
        self._emit(ev.FoundSecretEvent, st[_ST_SECRETS])
        return p

    def parse_svc_spawnstaticsound(self, data: bytes, p: int, end: int) -> int:
        origin, p = self._coords(data, p)
        snd, vol, atten = data[p], data[p + 1], data[p + 2]
        self.static_sounds.append(StaticSound(origin, snd, self._sound_name(snd), vol / 255.0, atten / 64.0))
        return p + 3

    def parse_svc_intermission(self, data: bytes, p: int, end: int) -> int:
        origin, p = self._coords(data, p)
        a0, p = self._angle(data, p)
        a1, p = self._angle(data, p)
        a2, p = self._angle(data, p)
        self.intermission_view = (origin, (a0, a1, a2))
        self._set_intermission(1)
        self._emit(ev.IntermissionEvent)
        return p

    def _set_intermission(self, value: int) -> None:
        self.stats[_ST_INTERMISSION] = value
        for st in self.pstats.values():
            st[_ST_INTERMISSION] = value

    def parse_svc_finale(self, data: bytes, p: int, end: int) -> int:
        text, p = self._string(data, p, end)
        self._set_intermission(2)
        self._emit(ev.FinaleEvent, text)
        return p

    def parse_svc_cdtrack(self, data: bytes, p: int, end: int) -> int:
        self._emit(ev.CdTrackEvent, data[p], data[p])
        return p + 1

    def parse_svc_sellscreen(self, data: bytes, p: int, end: int) -> int:
        self._emit(ev.SellScreenEvent)
        return p

    def _kick(self, pitch: int) -> None:
        if self.mvd:
            st = self.pstats.setdefault(self._addressee(), self._fresh_stats())
        else:
            st = self.stats
        st[_ST_PUNCH] = pitch
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
            raise _Corrupt("a svc_download without FTE chunked downloads (not supported)")
        size, = _S16.unpack_from(data, p)
        p += 3  # size, then the percentage done
        self.counters["downloads"] += 1
        if size > 0:
            if p + size > end:
                raise _Corrupt(f"{size} download bytes inside the block")
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
            raise _Corrupt("34 bytes of Qizmo voice data")
        return p + 34

    # --- players ----------------------------------------------------------------------------------------------------

    def parse_svc_playerinfo(self, data: bytes, p: int, end: int) -> int:
        self._need_segment()
        num = data[p]
        if num >= P.MAX_CLIENTS:
            raise _Corrupt(f"a player number below {P.MAX_CLIENTS}, found {num}")
        if self.mvd:
            p = self._playerinfo_mvd(data, p + 1, num)
        else:
            p = self._playerinfo_qwd(data, p + 1, num)
        self.psent.add(num)
        self.pframe[num] = len(self.f_time)
        self.dirty = True
        return p

    def _playerinfo_mvd(self, data: bytes, p: int, num: int) -> int:
        prev = self.pstate[num]
        if prev is None or len(self.f_time) - self.pframe[num] >= P.UPDATE_BACKUP - 1:
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
        elif not st[6] and not self.scores[num]["spectator"]:
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

    def _playerinfo_qwd(self, data: bytes, p: int, num: int) -> int:
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

    # --- nails ------------------------------------------------------------------------------------------------------

    def parse_svc_nails(self, data: bytes, p: int, end: int, indexed: bool = False) -> int:
        count = data[p]
        p += 1
        size = 7 if indexed else 6
        if p + count * size > end:
            raise _Corrupt(f"{count} nails of {size} bytes inside the block")
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

    def _plan(self, key: int) -> Callable:
        try:
            return self.plans[key]
        except KeyError:
            plan = self.plans[key] = _delta_plan(key, self.ent_coord_float, self.angle16,
                                                 bool(self.fte & P.FTE_PEXT_MODELDBL))
            return plan

    def _read_bits(self, data: bytes, p: int, word: int) -> tuple[int, int, int]:
        """Number and plan key of an update word (MOREBITS and FTE EVENMORE bytes consumed)."""
        num = word & P.U_ENTITY_MASK
        key = word & ~P.U_ENTITY_MASK & 0xFFFF
        if word & P.U_MOREBITS:
            more = data[p]
            p += 1
            key |= more
            if more & P.U_FTE_EVENMORE and self.fte:
                even = data[p]
                p += 1
                if even & P.U_FTE_YETMORE:
                    even |= data[p] << 8
                    p += 1
                if even & P.U_FTE_ENTITYDBL:
                    num += 512
                if even & P.U_FTE_ENTITYDBL2:
                    num += 1024
                key |= (even & (P.U_FTE_MODELDBL | P.U_FTE_TRANS | P.U_FTE_COLOURMOD)) << 16
        return num, key, p

    def parse_svc_packetentities(self, data: bytes, p: int, end: int, delta: bool = False) -> int:
        self._need_segment()
        old: list[tuple] = []
        valid = True
        if delta:
            frm = data[p]
            p += 1
            if self.mvd:
                old = self.current
            else:
                slot = self.ring[frm & P.UPDATE_MASK]
                if slot is None or (slot[0] & 0xFF) != frm or self.incoming_seq - slot[0] >= P.UPDATE_BACKUP - 1:
                    valid = False                       # FlushEntityPacket: parse, then keep the old set
                    self.counters["delta_from_mismatch"] += 1
                else:
                    old = slot[1]
        new: list[tuple] = []
        append = new.append
        baselines = self.baselines
        plans = self.plans
        fte_dbl = bool(self.fte & (P.FTE_PEXT_ENTITYDBL | P.FTE_PEXT_ENTITYDBL2))
        u16 = _U16.unpack_from
        oi = 0
        nold = len(old)
        oldnum = old[0][0] if nold else 99999
        while True:
            if p + 2 > end:
                raise _Corrupt("a zero word ending the entity list inside the block")
            word, = u16(data, p)
            p += 2
            if not word:
                break
            if word & P.U_REMOVE:
                num = word & P.U_ENTITY_MASK
                if word & P.U_MOREBITS and fte_dbl:
                    more = data[p]
                    p += 1
                    if more & P.U_FTE_EVENMORE:
                        even = data[p]
                        p += 1
                        num += (512 if even & P.U_FTE_ENTITYDBL else 0) + (1024 if even & P.U_FTE_ENTITYDBL2 else 0)
                while oldnum < num:
                    append(old[oi])
                    oi += 1
                    oldnum = old[oi][0] if oi < nold else 99999
                if oldnum == num:
                    oi += 1
                    oldnum = old[oi][0] if oi < nold else 99999
                continue
            if word & P.U_MOREBITS:
                num, key, p = self._read_bits(data, p, word)
            else:
                num = word & P.U_ENTITY_MASK
                key = word & 0xFE00
            while oldnum < num:
                append(old[oi])
                oi += 1
                oldnum = old[oi][0] if oi < nold else 99999
            try:
                plan = plans[key]
            except KeyError:
                plan = self._plan(key)
            if oldnum == num:
                base = old[oi][1]
                oi += 1
                oldnum = old[oi][0] if oi < nold else 99999
            else:
                base = baselines.get(num, _NULL_STATE)
            state, row, p = plan(data, p, base, num)
            if len(new) >= P.MAX_PACKET_ENTITIES:
                raise _Corrupt(f"at most {P.MAX_PACKET_ENTITIES} packet entities")
            append((num, state, row))
        if p > end:
            raise _Corrupt("the entity list inside the block")
        if oi < nold:
            new.extend(old[oi:])
        if not valid:
            return p
        if new and any(new[i][0] >= new[i + 1][0] for i in range(len(new) - 1)):
            raise _Corrupt("entity numbers in increasing order")
        self.current = new
        if not self.mvd:
            self.ring[self.incoming_seq & P.UPDATE_MASK] = (self.incoming_seq, new)
        self.dirty = True
        return p

    def parse_svc_deltapacketentities(self, data: bytes, p: int, end: int) -> int:
        return self.parse_svc_packetentities(data, p, end, True)

    # --- assembling the timeline ----------------------------------------------------------------------------------

    def _finish(self, blocks: int) -> DemoTimeline:
        self._end_segment()
        # A level whose signon arrived but no frame (the demo ends or breaks right after svc_serverdata) is dropped
        # with what it announced, so the last real level keeps its scoreboard and lightstyles.
        nf = len(self.f_time)
        while len(self.segments) > 1 and not self.segments[-1].get("has_frames"):
            gone = len(self.segments) - 1
            self.segments.pop()
            self.events = [e for e in self.events if e[1] != gone]
            self.score_changes = [c for c in self.score_changes if c[1] != gone]
            self.score_resets = [c for c in self.score_resets if c[0] < nf]
            self.ls_changes = [c for c in self.ls_changes if c[0] < nf]
        times = np.asarray(self.f_time, np.float64)
        nframes = len(times)
        fseg = np.asarray(self.f_seg, np.int32)
        offsets = np.asarray(self.f_offsets + [self.nrows], np.int64)
        raw = np.frombuffer(b"".join(self.f_rows), _ROW_DTYPE)
        ints = raw["i"]
        flts = raw["f"]
        counts = np.diff(offsets)
        frame_of_row = np.repeat(np.arange(nframes), counts)
        nums = ints[:, 0]
        order = None
        unsorted = np.flatnonzero(nums[1:] <= nums[:-1]) + 1
        if np.any(np.isin(unsorted, offsets[1:-1], invert=True)):
            order = np.lexsort((nums, frame_of_row))
            ints, flts, trans = ints[order], flts[order], raw["t"][order]
        else:
            trans = raw["t"]
        cols = {
            "number": np.ascontiguousarray(ints[:, 0]),
            "model": np.ascontiguousarray(ints[:, 1]),
            "frame": np.ascontiguousarray(ints[:, 2]),
            "colormap": np.ascontiguousarray(ints[:, 3]),
            "skin": np.ascontiguousarray(ints[:, 4]),
            "effects": np.ascontiguousarray(ints[:, 5]),
            "origin": np.ascontiguousarray(flts[:, 0:3]),
            "angles": np.ascontiguousarray(flts[:, 3:6]),
            "alpha": np.where((trans == 0) | (trans == 255), 1.0, trans / 254.0).astype(np.float32),
            "scale": np.ones(len(ints), np.float32),
            "frame_interval": np.full(len(ints), 0.1, np.float32),
        }
        cols["prev_frame"], cols["frame_time"] = _pose_history(cols["number"], cols["model"], cols["frame"],
                                                               frame_of_row, times, fseg)
        players = self._players_table(nframes)
        # The default view.
        if self.mvd:
            pov = self._default_pov(players)
            view_entity = np.full(nframes, pov + 1 if pov >= 0 else 0, np.int32)
            if pov >= 0:
                vh = np.where(players.flags[:, pov] & PLAYER_GIB, 8.0,
                              np.where(players.flags[:, pov] & PLAYER_DEAD, -16.0, 0.0))
                stat_vh = players.stats[:, pov, _ST_VIEWHEIGHT] if players.has_stats[pov] else 0
                vh = np.where(vh != 0, vh, np.where(stat_vh != 0, stat_vh, P.DEFAULT_VIEWHEIGHT))
                view_origin = _hold_last(players.origin[:, pov], players.present[:, pov]).copy()
                view_origin[:, 2] += _hold_last(vh.astype(np.float64), players.present[:, pov])
                view_angles = _hold_last(players.angles[:, pov], players.present[:, pov])
                stat_rows = (players.stats[:, pov] if players.has_stats[pov]
                             else np.tile(np.asarray(self._fresh_stats(), np.int32), (nframes, 1)))
            else:
                view_origin = np.zeros((nframes, 3))
                view_angles = np.zeros((nframes, 3))
                stat_rows = np.tile(np.asarray(self._fresh_stats(), np.int32), (nframes, 1))
        else:
            pov = self.segments[0]["playernum"] if self.segments else 0
            view_entity = np.asarray(self.f_viewent, np.int32)
            view_origin = np.asarray(self.f_vieworg, np.float64).reshape(-1, 3)
            view_angles = np.asarray(self.f_viewang, np.float64).reshape(-1, 3)
            stat_rows = np.asarray(self.f_stats, np.int64).astype(np.int32).reshape(-1, _NSTAT)
        # Segments.
        segs: list[MapSegment] = []
        for i, s in enumerate(self.segments):
            start = s["start_frame"] if s.get("has_frames") else nframes
            stop = self.segments[i + 1]["start_frame"] if i + 1 < len(self.segments) else nframes
            stop = max(stop, start)
            info = s.get("serverinfo", {})
            segs.append(MapSegment(
                index=i, map_name=s.get("map_name", ""), level_name=s["level_name"], protocol=s["protocol"],
                protocol_flags=0, maxclients=P.MAX_CLIENTS, gametype=1 if _int(info.get("deathmatch", "1")) else 0,
                model_precache=s.get("model_precache", ("",)), sound_precache=s.get("sound_precache", ("",)),
                start_frame=start, end_frame=stop, start_time=float(times[start]) if start < stop else 0.0,
                end_time=float(times[stop - 1]) if start < stop else 0.0, time_offset=0.0,
                baselines=s.get("baselines", EntityStates.empty()), statics=s.get("statics", EntityStates.empty()),
                static_sounds=s.get("static_sounds", ())))

        def when(frame: int) -> tuple[int, float]:
            f = min(frame, nframes - 1)
            return f, float(times[f])

        events = []
        for frame, seg, cls, args in self.events:
            f, t = when(frame)
            if cls is ev.ServerInfoEvent:
                args = (segs[seg].map_name if seg < len(segs) else "",) + tuple(args[1:])
            events.append(cls(t, f, seg, *args))
        score_changes = []
        for frame, seg, slot, *rest in self.score_changes:
            f, t = when(frame)
            score_changes.append(ScoreChange(t, f, seg, slot, *rest))
        ls_changes = [(min(f, nframes - 1), style, pat) for f, style, pat in self.ls_changes]
        resets = [(min(f, nframes - 1), m) for f, m in self.score_resets]
        first = self.segments[0] if self.segments else {}
        meta = {
            "gamedir": first.get("gamedir", ""),
            "serverinfo": dict(first.get("serverinfo", {})),
            "extensions": dict(self.extensions),
            "recorder": -1 if self.mvd else int(first.get("playernum", 0)),
            "recorder_spectator": bool(first.get("spectator", False)) if not self.mvd else None,
            "servercount": first.get("servercount", 0),
            "movevars": dict(self.movevars),
            "hidden_messages": dict(self.hidden_counts),
            "delta_from_mismatch": self.counters["delta_from_mismatch"],
            "dropped_packets": self.counters["dropped_packets"],
            "empty_prints": self.counters.get("empty_prints", 0),
        }
        return DemoTimeline(
            game="quakeworld", format="mvd" if self.mvd else "qwd",
            protocol=self.first_protocol or P.PROTOCOL_VERSION, protocol_flags=0, path=self.path, segments=segs,
            events=events, warnings=self.warnings, block_count=blocks, cd_track=-1, times=times,
            server_times=times.copy(), frame_segment=fseg, view_entity=view_entity, view_origin=view_origin,
            view_angles=view_angles, stat_rows=stat_rows, entity_offsets=offsets, entity_columns=cols,
            lightstyle_changes=ls_changes, score_changes=score_changes, score_resets=resets, players=players,
            default_pov=pov, meta=meta)

    def _players_table(self, nframes: int) -> PlayerFrames:
        rows = self.p_rows
        nslots = 1 + max((r[1] for r in rows), default=-1)
        if not self.mvd:
            nslots = max(nslots, self.playernum + 1)
        nslots = max(nslots, 1 + max(self.pstats, default=-1))
        shape = (nframes, nslots)
        present = np.zeros(shape, bool)
        origin = np.zeros(shape + (3,))
        angles = np.zeros(shape + (3,))
        ints = np.zeros((6,) + shape, np.int32)
        if rows:
            a = np.asarray(rows, np.float64)
            f = a[:, 0].astype(np.int64)
            s = a[:, 1].astype(np.int64)
            present[f, s] = True
            origin[f, s] = a[:, 2:5]
            angles[f, s] = a[:, 5:8]
            ints[:, f, s] = a[:, 8:14].T.astype(np.int32)
        stats = np.zeros(shape + (_NSTAT,), np.int32)
        has_stats = np.zeros(nslots, bool)
        if self.mvd:
            if self.ps_rows:
                f = np.asarray([r[0] for r in self.ps_rows], np.int64)
                s = np.asarray([r[1] for r in self.ps_rows], np.int64)
                stats[f, s] = np.asarray([r[2] for r in self.ps_rows], np.int64).astype(np.int32)
                seen = np.zeros(shape, bool)
                seen[f, s] = True
                for slot in np.unique(s):
                    has_stats[slot] = True
                    stats[:, slot] = _hold_last(stats[:, slot], seen[:, slot])
        else:
            rec = self.playernum
            stats[:, rec] = np.asarray(self.f_stats, np.int64).astype(np.int32).reshape(-1, _NSTAT)
            has_stats[rec] = True
        return PlayerFrames(present=present, origin=origin, angles=angles, model=ints[0], frame=ints[1],
                            skin=ints[2], effects=ints[3], weaponframe=ints[4], flags=ints[5], stats=stats,
                            has_stats=has_stats, recorder=-1 if self.mvd else self.playernum)

    def _default_pov(self, players: PlayerFrames) -> int:
        """The slot an MVD view follows by default: the first named, non-spectator player that is ever present."""
        final = self.scores or []
        seen = players.present.any(axis=0)
        for slot in range(players.num_slots):
            if seen[slot] and slot < len(final) and final[slot]["name"] and not final[slot]["spectator"]:
                return slot
        hits = np.flatnonzero(seen)
        return int(hits[0]) if len(hits) else -1


def _hold_last(values: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """``values`` with rows where ``valid`` is false replaced by the last valid row (the first valid before it)."""
    n = len(valid)
    if n == 0 or valid.all():
        return values
    idx = np.where(valid, np.arange(n), -1)
    np.maximum.accumulate(idx, out=idx)
    first = int(np.argmax(valid)) if valid.any() else 0
    idx[idx < 0] = first
    return values[idx]


def _states_from_rows(items: list[tuple[int, tuple]]) -> EntityStates:
    if not items:
        return EntityStates.empty()
    nums = np.asarray([k for k, _ in items], np.int32)
    a = np.asarray([v for _, v in items], np.float64)
    frame = a[:, _FRAME].astype(np.int32)
    trans = a[:, _TRANS]
    return EntityStates(
        nums, a[:, _MODEL].astype(np.int32), frame, frame.copy(), np.ones(len(a), np.float32),
        a[:, _SKIN].astype(np.int32), a[:, _COLORMAP].astype(np.int32), a[:, _EFFECTS].astype(np.int32),
        np.ascontiguousarray(a[:, _OX:_OZ + 1], np.float32), np.ascontiguousarray(a[:, _AX:_AZ + 1], np.float32),
        np.where((trans == 0) | (trans == 255), 1.0, trans / 254.0).astype(np.float32),
        np.ones(len(a), np.float32))


def _decode(data: bytes, path: str, mvd: bool) -> DemoTimeline:
    data = bytes(data)
    fmt = "MVD" if mvd else "QWD"
    try:
        return _Decoder(data, path, mvd).run()
    except FormatError:
        raise
    except (struct.error, IndexError, ValueError, KeyError, OverflowError, TypeError, _Corrupt) as exc:
        # Anything outside a message block (assembly of a partial timeline) still surfaces as a FormatError.
        raise FormatError(path, fmt, None, f"a decodable QuakeWorld {fmt} demo",
                          f"{type(exc).__name__}: {exc}") from exc


def decode_qwd(data: bytes, path: str = "<bytes>") -> DemoTimeline:
    """Decode a whole QuakeWorld client demo (``.qwd``).  Raises only :class:`FormatError` (module docstring)."""
    return _decode(data, path, False)


def decode_mvd(data: bytes, path: str = "<bytes>") -> DemoTimeline:
    """Decode a whole QuakeWorld multi-view demo (``.mvd``).  Raises only :class:`FormatError` (module docstring)."""
    return _decode(data, path, True)
