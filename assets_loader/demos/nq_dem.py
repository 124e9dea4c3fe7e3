"""NetQuake ``.dem`` decoder (protocols 15, 666 FitzQuake, 999 RMQ) → :class:`~.timeline.DemoTimeline`.

File layout: a CD-track line (``"-1\\n"`` or ``"<track>\\n"``), then blocks of ``int32 length``,
``float32 viewangles[3]`` and ``length`` bytes of server messages.  Messages are a byte opcode and a payload;
an opcode with the high bit set is a fast entity update whose low bits (plus more bits bytes) say which fields
follow.  The protocol is a table: opcode → ``parse_svc_<name>`` method; entity updates run inline in the block
loop through a cache of precompiled :class:`struct.Struct` plans, one per distinct bit mask.

Timeline frames: each ``svc_time`` opens a frame; it collects the entities updated after it (until the next
``svc_time`` or the end of the block) and closes at the end of the block with the stats, view entity and view
origin of that moment.  Blocks without a ``svc_time`` (the signon) make no frame.  Entities updated outside a frame
only refresh the decoder's tracking.  ``svc_disconnect`` ends the demo, as in the engine.

Bad input: a file cut inside a block gives the timeline up to the cut with a warning; a corrupt message raises
:class:`~assets_loader.errors.FormatError` naming the file, offset and message, or — when at least one frame was
decoded — returns the timeline up to the previous block with a warning.  Counts and indices are checked before
use, so no corrupt count allocates memory.

References: Uwe Girlich, "The unofficial DEM format description" v1.0.9, sections 6 (file structure) and 7
(messages); QuakeSpasm ``cl_demo.c`` ``CL_GetDemoMessage``, ``cl_parse.c`` ``CL_ParseServerMessage``,
``CL_ParseServerInfo``, ``CL_ParseUpdate``, ``CL_ParseBaseline``, ``CL_ParseClientdata``, ``CL_ParseStatic``,
``CL_ParseStaticSound``, ``CL_ParseStartSoundPacket``; ``cl_tent.c`` ``CL_ParseTEnt``; ``gl_fog.c``
``Fog_ParseServerMessage``; ``common.c`` ``MSG_ReadCoord`` / ``MSG_ReadAngle`` (protocol flags).
"""

from __future__ import annotations

import struct
import warnings
from typing import Callable

import numpy as np

from ..errors import BadIndexError, BadMagicError, FormatError, TruncatedError
from . import events as ev
from . import nq_protocol as P
from .timeline import STAT_NAMES, DemoTimeline, EntityStates, MapSegment, ScoreChange, StaticSound

__all__ = ["decode_dem", "parse_cd_track"]

FMT = "DEM"

_BLOCK = struct.Struct("<i3f")
_S8 = struct.Struct("<b")
_S16 = struct.Struct("<h")
_U16 = struct.Struct("<H")
_S32 = struct.Struct("<i")
_F32 = struct.Struct("<f")
_FOG = struct.Struct("<BBBBh")
_PARTICLE_TAIL = struct.Struct("<bbbBB")

# Entity state layout of the hot loop (baselines, updates and the rows appended per frame).
(_NUM, _MODEL, _FRAME, _COLORMAP, _SKIN, _EFFECTS, _OX, _OY, _OZ, _AX, _AY, _AZ, _ALPHA, _SCALE,
 _INTERVAL) = range(15)
_NCOL = 15
_ROW = struct.Struct(f"<{_NCOL}d")
_DEFAULT_INTERVAL = 0.1
_DEFAULT_STATE = (0, 0, 0, 0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, P.ENTSCALE_DEFAULT, _DEFAULT_INTERVAL)
_RESET_ANIM_GAP = 0.2
_STAT_EXTRA = len(STAT_NAMES) - 15

_OP_SET, _OP_ADD, _OP_HI, _OP_LERP = 0, 1, 2, 3


class _Corrupt(Exception):
    """Internal: a message does not parse; converted to FormatError with file, offset and message name."""


# --- coordinate / angle encodings ---------------------------------------------------------------------------------

def _coord_parts(flags: int) -> list[tuple[str, float, int]]:
    """Struct codes for one coordinate: ``(code, scale, op)`` parts (24-bit coords are two parts)."""
    if flags & P.PRFL_FLOATCOORD:
        return [("f", 1.0, _OP_SET)]
    if flags & P.PRFL_INT32COORD:
        return [("i", 1.0 / 16.0, _OP_SET)]
    if flags & P.PRFL_24BITCOORD:
        return [("h", 1.0, _OP_SET), ("B", 1.0 / 255.0, _OP_ADD)]
    return [("h", 1.0 / 8.0, _OP_SET)]


def _angle_parts(flags: int) -> list[tuple[str, float, int]]:
    if flags & P.PRFL_FLOATANGLE:
        return [("f", 1.0, _OP_SET)]
    if flags & P.PRFL_SHORTANGLE:
        return [("h", 360.0 / 65536.0, _OP_SET)]
    return [("b", 360.0 / 256.0, _OP_SET)]


def _group_reader(spec: str, flags: int) -> Callable[[bytes, int], tuple[tuple[float, ...], int]]:
    """A reader for a fixed group of coords (``c``) and angles (``a``): ``read(data, pos) -> (values, pos)``."""
    fmt = "<"
    outs: list[list[tuple[int, float]]] = []
    vi = 0
    for ch in spec:
        parts = _coord_parts(flags) if ch == "c" else _angle_parts(flags)
        out = []
        for code, scale, _op in parts:
            fmt += code
            out.append((vi, scale))
            vi += 1
        outs.append(out)
    st = struct.Struct(fmt)
    size = st.size
    unpack = st.unpack_from
    if all(len(o) == 1 for o in outs):
        scales = [o[0][1] for o in outs]

        def read(data: bytes, pos: int) -> tuple[tuple[float, ...], int]:
            return tuple([v * s for v, s in zip(unpack(data, pos), scales)]), pos + size
    else:
        def read(data: bytes, pos: int) -> tuple[tuple[float, ...], int]:
            v = unpack(data, pos)
            return tuple(sum(v[i] * s for i, s in o) for o in outs), pos + size
    return read


def _update_plan(bits: int, protocol: int, flags: int) -> Callable:
    """Compile the fast update with ``bits`` into ``upd(data, pos, baseline_get, out) -> (entity, pos)``.

    The field list is data (read order of ``CL_ParseUpdate``); it is turned into one small specialised function
    per distinct bit mask, so the hot loop does one ``Struct.unpack_from`` and one ``Struct.pack`` of the full
    state row (fields not sent come from the baseline), handed to ``out``.  The generated source contains only our
    own constants (state indices, scales), never input bytes.
    """
    fmt = "<" + ("H" if bits & P.U_LONGENTITY else "B")
    ops: list[tuple[int, float, int]] = []

    def add(code: str, idx: int, scale: float, op: int = _OP_SET) -> None:
        nonlocal fmt
        fmt += code
        ops.append((idx, scale, op))

    if bits & P.U_MODEL:
        add("B", _MODEL, 1)
    if bits & P.U_FRAME:
        add("B", _FRAME, 1)
    if bits & P.U_COLORMAP:
        add("B", _COLORMAP, 1)
    if bits & P.U_SKIN:
        add("B", _SKIN, 1)
    if bits & P.U_EFFECTS:
        add("B", _EFFECTS, 1)
    coord, angle = _coord_parts(flags), _angle_parts(flags)
    for obit, abit, oidx, aidx in ((P.U_ORIGIN1, P.U_ANGLE1, _OX, _AX), (P.U_ORIGIN2, P.U_ANGLE2, _OY, _AY),
                                   (P.U_ORIGIN3, P.U_ANGLE3, _OZ, _AZ)):
        if bits & obit:
            for code, scale, op in coord:
                add(code, oidx, scale, op)
        if bits & abit:
            for code, scale, op in angle:
                add(code, aidx, scale, op)
    if protocol != P.PROTOCOL_NETQUAKE:
        if bits & P.U_ALPHA:
            add("B", _ALPHA, 1)
        if bits & P.U_SCALE:
            add("B", _SCALE, 1)
        if bits & P.U_FRAME2:
            add("B", _FRAME, 1, _OP_HI)
        if bits & P.U_MODEL2:
            add("B", _MODEL, 1, _OP_HI)
        if bits & P.U_LERPFINISH:
            add("B", _INTERVAL, 1.0 / 255.0, _OP_LERP)
    st = struct.Struct(fmt)
    expr = [f"b[{i}]" for i in range(_NCOL)]
    expr[_NUM] = "n"
    for i, (idx, scale, op) in enumerate(ops):
        v = f"v{i}" if scale == 1 else f"v{i} * {scale!r}"
        if op == _OP_SET:
            expr[idx] = v
        elif op == _OP_ADD:
            expr[idx] = f"({expr[idx]} + {v})"
        elif op == _OP_HI:
            expr[idx] = f"((int({expr[idx]}) & 255) | (v{i} << 8))"
        else:
            expr[idx] = f"max({v}, 0.001)"
    names = ", ".join(["n"] + [f"v{i}" for i in range(len(ops))])
    source = (f"def upd(data, p, bl_get, out):\n"
              f"    {names}, = unpack(data, p)\n"
              f"    b = bl_get(n) or default\n"
              f"    out(pack({', '.join(expr)}))\n"
              f"    return n, p + {st.size}\n")
    namespace = {"unpack": st.unpack_from, "pack": _ROW.pack, "default": _DEFAULT_STATE}
    exec(compile(source, f"<fast update 0x{bits:x}>", "exec"), namespace)  # noqa: S102
    return namespace["upd"]


def parse_cd_track(data: bytes, path: str = "<bytes>") -> tuple[int, int]:
    """Parse the CD-track line: ``(track, offset of the first block)``; ``BadMagicError`` if it is not one.

    Quake writes ``"%i\\n"`` (``-1`` = no forced track); older versions pad with spaces.
    """
    nl = data.find(b"\n", 0, 16)
    if nl < 0:
        raise BadMagicError(path, FMT, 0, "a CD-track line (digits and a newline in the first 16 bytes)",
                            repr(bytes(data[:16])))
    text = bytes(data[:nl]).strip(b" \t\r\0")
    body = text[1:] if text[:1] == b"-" else text
    if not body or not body.isdigit():
        raise BadMagicError(path, FMT, 0, "a CD-track number", repr(bytes(data[:nl])))
    return int(text), nl + 1


class _Decoder:
    """One pass over a demo.  Mutable only while decoding; produces an immutable DemoTimeline."""

    def __init__(self, data: bytes, path: str) -> None:
        self.data = data
        self.path = path
        self.warnings: list[str] = []
        self.protocol = P.PROTOCOL_NETQUAKE
        self.flags = 0
        self.first_protocol: int | None = None
        self.first_flags = 0
        self._set_encodings()
        # segments
        self.segments: list[dict] = []
        self.seg = -1
        self.model_precache: tuple[str, ...] = ("",)
        self.sound_precache: tuple[str, ...] = ("",)
        self.maxclients = 1
        # client state
        self.baselines: dict[int, list] = {}
        self.baseline_rows: dict[int, bytes] = {}   # packed state rows of baseline-only updates, by entity
        self.statics: list[list] = []
        self.static_sounds: list[StaticSound] = []
        self.stats = [0] * (15 + _STAT_EXTRA)
        self.viewentity = 0
        self.view_pose = (0.0,) * 6   # the view entity's origin and angles
        self.scores: list[list] = []
        self.lightstyles_set: set[int] = set()
        self.seg_has_time = False
        # frames (Python lists, converted to numpy once)
        self.f_time: list[float] = []
        self.f_server: list[float] = []
        self.f_seg: list[int] = []
        self.f_angles: list[tuple[float, float, float]] = []
        self.f_viewent: list[int] = []
        self.f_vieworg: list[tuple[float, float, float]] = []
        self.f_stats: list[list[int]] = []
        self.f_offsets: list[int] = []
        self.rows: list[bytes] = []       # one packed _ROW per entity state
        self.in_frame = False
        self.block_angles = (0.0, 0.0, 0.0)
        self.last_time = -np.inf
        self.time_offset = 0.0
        # events and histories: (frame, segment, cls, args) resolved to times at the end
        self.events: list[tuple] = []
        self.ls_changes: list[tuple[int, int, str]] = []
        self.score_changes: list[tuple] = []
        self.score_resets: list[tuple[int, int]] = []
        self.plans: dict[int, tuple] = {}
        self.ended = False
        self.table: list[Callable[[bytes, int, int], int] | None] = [None] * 128
        for cmd, name in P.SVC_NAMES.items():
            fn = getattr(self, f"parse_svc_{name}", None)
            if fn is not None and cmd < 128:
                self.table[cmd] = fn

    # --- helpers --------------------------------------------------------------------------------------------------

    def _set_encodings(self) -> None:
        f = self.flags
        self.rd_c3 = _group_reader("ccc", f)
        self.rd_a3 = _group_reader("aaa", f)
        self.rd_ca3 = _group_reader("cacaca", f)
        self.plans = {}

    @staticmethod
    def _string(data: bytes, pos: int, end: int) -> tuple[str, int]:
        z = data.find(b"\0", pos, end)
        if z < 0:
            raise _Corrupt("a NUL-terminated string inside the message block")
        return data[pos:z].decode("latin-1"), z + 1

    def _event_frame(self) -> int:
        # Messages before a segment's first svc_time belong to the frame that time will open.
        return len(self.f_time) - 1 if (self.seg_has_time and self.f_time) else len(self.f_time)

    def _emit(self, cls: type, *args: object) -> None:
        self.events.append((self._event_frame(), max(self.seg, 0), cls, args))

    def _sound_name(self, index: int) -> str:
        return self.sound_precache[index] if 0 <= index < len(self.sound_precache) else ""

    # --- frames ---------------------------------------------------------------------------------------------------

    def _open_frame(self, server_time: float) -> None:
        if self.in_frame:
            self._close_frame()
        if self.seg < 0:
            raise _Corrupt("svc_serverinfo before the first svc_time")
        seg = self.segments[self.seg]
        if not self.seg_has_time:
            # New segment: shift its clock so it starts where the previous one ended.
            self.time_offset = 0.0 if self.seg == 0 or not self.f_time else self.last_time - server_time
            seg["time_offset"] = self.time_offset
            seg["start_frame"] = len(self.f_time)
            self.seg_has_time = True
        t = server_time + self.time_offset
        if t < self.last_time:
            t = self.last_time
        self.last_time = t
        self.f_time.append(t)
        self.f_server.append(server_time)
        self.f_seg.append(self.seg)
        self.f_angles.append(self.block_angles)
        self.f_offsets.append(len(self.rows))
        self.in_frame = True

    def _close_frame(self) -> None:
        """Record the view: the eye at the view entity plus the view height, looking along the block's angles;
        during an intermission, finale or cutscene the eye is the view entity itself, origin and angles
        (``V_CalcIntermissionRefdef``)."""
        st = self.stats
        vo = self.view_pose
        self.f_viewent.append(self.viewentity)
        if st[15 + 9]:
            self.f_vieworg.append(vo[:3])
            self.f_angles[-1] = vo[3:]
        else:
            self.f_vieworg.append((vo[0], vo[1], vo[2] + st[15 + 1]))
        self.f_stats.append(st[:])
        self.in_frame = False

    # --- the block loop -------------------------------------------------------------------------------------------

    def run(self) -> DemoTimeline:
        data = self.data
        n = len(data)
        self.cd_track, pos = parse_cd_track(data, self.path)
        block_unpack = _BLOCK.unpack_from
        table = self.table
        rows = self.rows
        sink: list[bytes] = []          # rows of updates outside a frame (signon): parsed, then dropped
        plans = self.plans
        baseline_rows = self.baseline_rows
        blocks = 0
        error: FormatError | None = None
        while pos < n and not self.ended:
            if n - pos < 16:
                self._truncated(pos, "a 16-byte block header", n - pos)
                break
            length, a0, a1, a2 = block_unpack(data, pos)
            if length < 0 or length > 1 << 24:
                error = BadIndexError(self.path, FMT, pos, "a block length 0..16 MiB", str(length))
                break
            start = pos + 16
            end = start + length
            if end > n:
                self._truncated(pos, f"a {length}-byte message block", n - start)
                break
            self.block_angles = (a0, a1, a2)
            p = start
            cmd = 0
            mpos = p
            try:
                # Locals for the fast entity update path, refreshed after every other message.
                extended = self.protocol != P.PROTOCOL_NETQUAKE
                bl_get = self.baselines.get
                viewent = self.viewentity
                target = rows if self.in_frame else sink
                out = target.append
                while p < end:
                    mpos = p
                    cmd = data[p]
                    p += 1
                    if cmd & 0x80:
                        bits = cmd & 0x7F
                        if bits & 1:
                            bits |= data[p] << 8
                            p += 1
                        if extended:
                            if bits & 0x8000:
                                bits |= data[p] << 16
                                p += 1
                            if bits & 0x800000:
                                bits |= data[p] << 24
                                p += 1
                        elif bits & 0x8000:      # U_TRANS (Nehahra)
                            p = self._nehahra_update(data, p, bits, out)
                            if p > end:
                                raise _Corrupt("the entity update to end inside its block")
                            continue
                        if bits == 0 and p < end:  # only the entity number: the state is its baseline
                            num = data[p]
                            row = baseline_rows.get(num)
                            if row is not None:
                                out(row)
                                p += 1
                                if num == viewent:
                                    self.view_pose = _ROW.unpack(row)[_OX:_AZ + 1]
                                continue
                        try:
                            upd = plans[bits]
                        except KeyError:
                            upd = plans[bits] = _update_plan(bits, self.protocol, self.flags)
                        num, p = upd(data, p, bl_get, out)
                        if bits == 0:
                            baseline_rows[num] = target[-1]
                        if num == viewent:
                            self.view_pose = _ROW.unpack(target[-1])[_OX:_AZ + 1]
                        continue
                    fn = table[cmd]
                    if fn is None:
                        raise _Corrupt(f"a known message type, found {cmd}")
                    p = fn(data, p, end)
                    if p > end:
                        raise _Corrupt(f"the {P.svc_name(cmd)} message to end inside its block")
                    if self.ended:
                        break
                    extended = self.protocol != P.PROTOCOL_NETQUAKE
                    plans = self.plans
                    bl_get = self.baselines.get
                    viewent = self.viewentity
                    target = rows if self.in_frame else sink
                    out = target.append
            except FormatError as exc:
                error = exc
            except _Corrupt as exc:
                error = FormatError(self.path, FMT, mpos, f"a valid {P.svc_name(cmd)} message (block {blocks})",
                                    str(exc))
            except (struct.error, IndexError, ValueError, KeyError, OverflowError, TypeError) as exc:
                error = FormatError(self.path, FMT, mpos, f"a valid {P.svc_name(cmd)} message (block {blocks})",
                                    f"{type(exc).__name__}: {exc}")
            if error is not None:
                if self.in_frame:
                    # Drop the partial frame: its block did not parse.
                    self._drop_open_frame()
                break
            if self.in_frame:
                self._close_frame()
            sink.clear()
            blocks += 1
            pos = end
        if error is not None:
            if not self.f_time:
                raise error
            msg = f"{error}; decoding stopped there, the timeline ends at the previous block"
            self.warnings.append(msg)
            warnings.warn(msg, stacklevel=3)
        if not self.f_time:
            raise TruncatedError(self.path, FMT, pos, "at least one message block with svc_time",
                                 "none" if not self.warnings else "a cut before the first frame")
        return self._finish(blocks)

    def _truncated(self, pos: int, what: str, have: int) -> None:
        msg = (f"{self.path}: demo is truncated at offset {pos}: expected {what}, found {have} bytes; "
               f"the timeline ends at the previous block")
        self.warnings.append(msg)
        if self.f_time:
            warnings.warn(msg, stacklevel=4)

    def _drop_open_frame(self) -> None:
        start = self.f_offsets.pop()
        del self.rows[start:]
        for lst in (self.f_time, self.f_server, self.f_seg, self.f_angles):
            lst.pop()
        self.in_frame = False
        f = len(self.f_time)
        self.events = [e for e in self.events if e[0] < f]
        self.ls_changes = [c for c in self.ls_changes if c[0] < f]
        self.score_changes = [c for c in self.score_changes if c[0] < f]
        self.last_time = self.f_time[-1] if self.f_time else -np.inf

    def _nehahra_update(self, data: bytes, p: int, bits: int, out: Callable[[bytes], None]) -> int:
        """Protocol 15 with U_TRANS (bit 15, Nehahra): the usual fields, then 2 or 3 transparency floats."""
        row: list[bytes] = []
        num, p = _update_plan(bits & ~P.U_TRANS, self.protocol, self.flags)(data, p, self.baselines.get, row.append)
        a, b = struct.unpack_from("<ff", data, p)
        p += 12 if a == 2 else 8
        state = list(_ROW.unpack(row[0]))
        state[_ALPHA] = 0 if b == 0 else int(round(min(max(b * 254 + 1, 1), 255)))
        out(_ROW.pack(*state))
        if num == self.viewentity:
            self.view_pose = tuple(state[_OX:_AZ + 1])
        return p

    # --- messages (one method per svc, named after the engine's message) ------------------------------------------

    def parse_svc_nop(self, data: bytes, p: int, end: int) -> int:
        return p

    def parse_svc_disconnect(self, data: bytes, p: int, end: int) -> int:
        self._emit(ev.DisconnectEvent)
        self.ended = True
        return p

    def parse_svc_updatestat(self, data: bytes, p: int, end: int) -> int:
        i = data[p]
        value, = _S32.unpack_from(data, p + 1)
        if i >= P.MAX_CL_STATS:
            raise _Corrupt(f"a stat index below {P.MAX_CL_STATS}, found {i}")
        if i < 15:
            self.stats[i] = value
        return p + 5

    def parse_svc_version(self, data: bytes, p: int, end: int) -> int:
        version, = _S32.unpack_from(data, p)
        if version not in P.SUPPORTED_PROTOCOLS:
            raise _Corrupt(f"protocol 15, 666 or 999, found {version}")
        self.protocol = version
        self.plans = {}
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
            raise _Corrupt(f"a sound index below {P.MAX_SOUNDS}, found {snd}")
        origin, p = self.rd_c3(data, p)
        self._emit(ev.SoundEvent, ent, channel, snd, self._sound_name(snd), volume / 255.0, atten, origin)
        return p

    def parse_svc_time(self, data: bytes, p: int, end: int) -> int:
        t, = _F32.unpack_from(data, p)
        if t != t or abs(t) > 1e9:
            raise _Corrupt(f"a finite server time, found {t}")
        self._open_frame(t)
        return p + 4

    def parse_svc_print(self, data: bytes, p: int, end: int) -> int:
        text, p = self._string(data, p, end)
        self._emit(ev.PrintEvent, text)
        if not text.startswith("\x01"):      # \x01 marks chat: never an obituary
            obit = ev.parse_obituary(text)
            if obit is not None:
                self._emit(ev.ObituaryEvent, obit.victim, obit.killer, obit.weapon, obit.suicide, text)
        return p

    def parse_svc_stufftext(self, data: bytes, p: int, end: int) -> int:
        text, p = self._string(data, p, end)
        self._emit(ev.StuffTextEvent, text)
        return p

    def parse_svc_setangle(self, data: bytes, p: int, end: int) -> int:
        angles, p = self.rd_a3(data, p)
        self._emit(ev.SetAngleEvent, angles)
        return p

    def parse_svc_serverinfo(self, data: bytes, p: int, end: int) -> int:
        version, = _S32.unpack_from(data, p)
        p += 4
        if version not in P.SUPPORTED_PROTOCOLS:
            raise _Corrupt(f"protocol 15, 666 or 999, found {version}")
        flags = 0
        if version == P.PROTOCOL_RMQ:
            flags, = struct.unpack_from("<I", data, p)
            p += 4
        maxclients = data[p]
        gametype = data[p + 1]
        p += 2
        if not 1 <= maxclients <= P.MAX_SCOREBOARD:
            raise _Corrupt(f"maxclients 1..{P.MAX_SCOREBOARD}, found {maxclients}")
        level_name, p = self._string(data, p, end)
        models = [""]
        while True:
            name, p = self._string(data, p, end)
            if not name:
                break
            if len(models) >= P.MAX_MODELS:
                raise _Corrupt(f"at most {P.MAX_MODELS} model precaches")
            models.append(name)
        sounds = [""]
        while True:
            name, p = self._string(data, p, end)
            if not name:
                break
            if len(sounds) >= P.MAX_SOUNDS:
                raise _Corrupt(f"at most {P.MAX_SOUNDS} sound precaches")
            sounds.append(name)
        self._new_segment(version, flags, maxclients, gametype, level_name, models, sounds)
        return p

    def _new_segment(self, version: int, flags: int, maxclients: int, gametype: int, level_name: str,
                     models: list[str], sounds: list[str]) -> None:
        if self.in_frame:
            self._close_frame()
        self._end_segment()
        self.protocol, self.flags = version, flags
        if self.first_protocol is None:
            self.first_protocol, self.first_flags = version, flags
        self._set_encodings()
        self.seg += 1
        self.seg_has_time = False
        self.model_precache = tuple(models)
        self.sound_precache = tuple(sounds)
        self.maxclients = maxclients
        world = models[1] if len(models) > 1 else ""
        map_name = world.rsplit("/", 1)[-1]
        if map_name.lower().endswith(".bsp"):
            map_name = map_name[:-4]
        self.segments.append(dict(index=self.seg, map_name=map_name, level_name=level_name, protocol=version,
                                  protocol_flags=flags, maxclients=maxclients, gametype=gametype,
                                  model_precache=self.model_precache, sound_precache=self.sound_precache,
                                  start_frame=len(self.f_time), time_offset=0.0))
        # CL_ClearState: baselines, statics, scoreboard, lightstyles, stats start fresh.
        self.baselines = {}
        self.baseline_rows.clear()
        self.statics = []
        self.static_sounds = []
        self.stats = [0] * (15 + _STAT_EXTRA)
        self.stats[15 + 1] = P.DEFAULT_VIEWHEIGHT
        self.viewentity = 0
        self.view_pose = (0.0,) * 6   # the view entity's origin and angles
        self.scores = [["", 0, 0] for _ in range(maxclients)]
        frame = len(self.f_time)
        for style in sorted(self.lightstyles_set):
            self.ls_changes.append((frame, style, ""))
        self.lightstyles_set = set()
        self.score_resets.append((frame, maxclients))
        self._emit(ev.ServerInfoEvent, map_name, level_name, version, maxclients)

    def _end_segment(self) -> None:
        if self.seg < 0:
            return
        seg = self.segments[self.seg]
        seg["baselines"] = _states_from_lists(sorted(self.baselines.items()))
        seg["statics"] = _states_from_lists([(-1, s) for s in self.statics])
        seg["static_sounds"] = tuple(self.static_sounds)

    def parse_svc_lightstyle(self, data: bytes, p: int, end: int) -> int:
        style = data[p]
        if style >= P.MAX_LIGHTSTYLES:
            raise _Corrupt(f"a lightstyle below {P.MAX_LIGHTSTYLES}, found {style}")
        pattern, p = self._string(data, p + 1, end)
        self.lightstyles_set.add(style)
        self.ls_changes.append((self._event_frame(), style, pattern))
        self._emit(ev.LightStyleEvent, style, pattern)
        return p

    def _slot(self, slot: int, what: str) -> list:
        if slot >= len(self.scores):
            raise _Corrupt(f"a player slot below maxclients {len(self.scores)} in {what}, found {slot}")
        return self.scores[slot]

    def _score_changed(self, slot: int) -> None:
        name, frags, colors = self.scores[slot]
        self.score_changes.append((self._event_frame(), max(self.seg, 0), slot, name, frags, colors))

    def parse_svc_updatename(self, data: bytes, p: int, end: int) -> int:
        slot = data[p]
        name, p = self._string(data, p + 1, end)
        self._slot(slot, "svc_updatename")[0] = name
        self._score_changed(slot)
        return p

    def parse_svc_updatefrags(self, data: bytes, p: int, end: int) -> int:
        slot = data[p]
        frags, = _S16.unpack_from(data, p + 1)
        self._slot(slot, "svc_updatefrags")[1] = frags
        self._score_changed(slot)
        return p + 3

    def parse_svc_updatecolors(self, data: bytes, p: int, end: int) -> int:
        slot = data[p]
        colors = data[p + 1]
        self._slot(slot, "svc_updatecolors")[2] = colors
        self._score_changed(slot)
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
        x = 15
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

    def parse_svc_stopsound(self, data: bytes, p: int, end: int) -> int:
        v, = _U16.unpack_from(data, p)
        self._emit(ev.StopSoundEvent, v >> 3, v & 7)
        return p + 2

    def parse_svc_particle(self, data: bytes, p: int, end: int) -> int:
        origin, p = self.rd_c3(data, p)
        dx, dy, dz, count, color = _PARTICLE_TAIL.unpack_from(data, p)
        self._emit(ev.ParticleEvent, origin, (dx / 16.0, dy / 16.0, dz / 16.0), 1024 if count == 255 else count,
                   color)
        return p + 5

    def parse_svc_damage(self, data: bytes, p: int, end: int) -> int:
        armor, blood = data[p], data[p + 1]
        origin, p = self.rd_c3(data, p + 2)
        self._emit(ev.DamageEvent, armor, blood, origin)
        return p

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
                _DEFAULT_INTERVAL], p

    def parse_svc_spawnbaseline(self, data: bytes, p: int, end: int, version: int = 1) -> int:
        num, = _U16.unpack_from(data, p)
        if num >= P.MAX_EDICTS:
            raise _Corrupt(f"an entity number below {P.MAX_EDICTS}, found {num}")
        state, p = self._baseline(data, p + 2, version)
        state[_NUM] = num
        self.baselines[num] = state
        self.baseline_rows.pop(num, None)
        return p

    def parse_svc_spawnbaseline2(self, data: bytes, p: int, end: int) -> int:
        return self.parse_svc_spawnbaseline(data, p, end, 2)

    def parse_svc_spawnstatic(self, data: bytes, p: int, end: int, version: int = 1) -> int:
        if len(self.statics) >= P.MAX_STATIC_ENTITIES:
            raise _Corrupt(f"at most {P.MAX_STATIC_ENTITIES} static entities")
        state, p = self._baseline(data, p, version)
        self.statics.append(state)
        return p

    def parse_svc_spawnstatic2(self, data: bytes, p: int, end: int) -> int:
        return self.parse_svc_spawnstatic(data, p, end, 2)

    def parse_svc_temp_entity(self, data: bytes, p: int, end: int) -> int:
        te = data[p]
        p += 1
        shape = P.TE_SHAPES.get(te)
        if shape is None:
            raise _Corrupt(f"a temp entity kind 0..13, found {te}")
        name = P.TE_NAMES[te]
        if shape == "beam":
            ent, = _S16.unpack_from(data, p)
            start, p = self.rd_c3(data, p + 2)
            stop, p = self.rd_c3(data, p)
            self._emit(ev.TempEntityEvent, te, name, start, stop, ent)
        elif shape == "explosion2":
            origin, p = self.rd_c3(data, p)
            self._emit(ev.TempEntityEvent, te, name, origin, None, None, data[p], data[p + 1])
            p += 2
        else:
            origin, p = self.rd_c3(data, p)
            self._emit(ev.TempEntityEvent, te, name, origin)
        return p

    def parse_svc_setpause(self, data: bytes, p: int, end: int) -> int:
        self._emit(ev.PauseEvent, bool(data[p]))
        return p + 1

    def parse_svc_signonnum(self, data: bytes, p: int, end: int) -> int:
        data[p]  # noqa: B018 - bounds check; the signon stage has no effect on playback
        return p + 1

    def parse_svc_centerprint(self, data: bytes, p: int, end: int) -> int:
        text, p = self._string(data, p, end)
        self._emit(ev.CenterPrintEvent, text)
        return p

    def parse_svc_killedmonster(self, data: bytes, p: int, end: int) -> int:
        self.stats[P.STAT_MONSTERS] += 1
        self._emit(ev.KilledMonsterEvent, self.stats[P.STAT_MONSTERS])
        return p

    def parse_svc_foundsecret(self, data: bytes, p: int, end: int) -> int:
        self.stats[P.STAT_SECRETS] += 1
        self._emit(ev.FoundSecretEvent, self.stats[P.STAT_SECRETS])
        return p

    def parse_svc_spawnstaticsound(self, data: bytes, p: int, end: int, version: int = 1) -> int:
        origin, p = self.rd_c3(data, p)
        if version == 2:
            snd, = _U16.unpack_from(data, p)
            p += 2
        else:
            snd = data[p]
            p += 1
        vol, atten = data[p], data[p + 1]
        self.static_sounds.append(StaticSound(origin, snd, self._sound_name(snd), vol / 255.0, atten / 64.0))
        return p + 2

    def parse_svc_spawnstaticsound2(self, data: bytes, p: int, end: int) -> int:
        return self.parse_svc_spawnstaticsound(data, p, end, 2)

    def parse_svc_intermission(self, data: bytes, p: int, end: int) -> int:
        self.stats[15 + 9] = 1
        self._emit(ev.IntermissionEvent)
        return p

    def parse_svc_finale(self, data: bytes, p: int, end: int) -> int:
        text, p = self._string(data, p, end)
        self.stats[15 + 9] = 2
        self._emit(ev.FinaleEvent, text)
        return p

    def parse_svc_cdtrack(self, data: bytes, p: int, end: int) -> int:
        self._emit(ev.CdTrackEvent, data[p], data[p + 1])
        return p + 2

    def parse_svc_sellscreen(self, data: bytes, p: int, end: int) -> int:
        self._emit(ev.SellScreenEvent)
        return p

    def parse_svc_cutscene(self, data: bytes, p: int, end: int) -> int:
        text, p = self._string(data, p, end)
        self.stats[15 + 9] = 3
        self._emit(ev.CutsceneEvent, text)
        return p

    def parse_svc_skybox(self, data: bytes, p: int, end: int) -> int:
        name, p = self._string(data, p, end)
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
        name, p = self._string(data, p, end)
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

    # --- assembling the timeline ----------------------------------------------------------------------------------

    def _finish(self, blocks: int) -> DemoTimeline:
        if self.in_frame:
            self._close_frame()
        self._end_segment()
        times = np.asarray(self.f_time, np.float64)
        nframes = len(times)
        offsets = np.asarray(self.f_offsets + [len(self.rows)], np.int64)
        rows = np.frombuffer(b"".join(self.rows), np.float64).reshape(-1, _NCOL)
        # Sort each frame's rows by entity number (stable), so sample() can match frames with searchsorted.
        counts = np.diff(offsets)
        frame_of_row = np.repeat(np.arange(nframes), counts)
        nums = rows[:, _NUM]
        unsorted = np.flatnonzero(nums[1:] < nums[:-1]) + 1          # rows where the number goes down ...
        if np.any(np.isin(unsorted, offsets[1:-1], invert=True)):     # ... other than at a frame start
            rows = rows[np.lexsort((nums, frame_of_row))]
        cols = {
            "number": rows[:, _NUM].astype(np.int32),
            "model": rows[:, _MODEL].astype(np.int32),
            "frame": rows[:, _FRAME].astype(np.int32),
            "colormap": rows[:, _COLORMAP].astype(np.int32),
            "skin": rows[:, _SKIN].astype(np.int32),
            "effects": rows[:, _EFFECTS].astype(np.int32),
            "origin": np.ascontiguousarray(rows[:, _OX:_OZ + 1], np.float32),
            "angles": np.ascontiguousarray(rows[:, _AX:_AZ + 1], np.float32),
            "alpha": _decode_alpha(rows[:, _ALPHA]),
            "scale": (rows[:, _SCALE] / P.ENTSCALE_DEFAULT).astype(np.float32),
            "frame_interval": rows[:, _INTERVAL].astype(np.float32),
        }
        cols["prev_frame"], cols["frame_time"] = _pose_history(cols["number"], cols["model"], cols["frame"],
                                                               frame_of_row, times, np.asarray(self.f_seg))
        # Segments.
        segs: list[MapSegment] = []
        for i, s in enumerate(self.segments):
            start = s["start_frame"]
            stop = self.segments[i + 1]["start_frame"] if i + 1 < len(self.segments) else nframes
            segs.append(MapSegment(
                index=i, map_name=s["map_name"], level_name=s["level_name"], protocol=s["protocol"],
                protocol_flags=s["protocol_flags"], maxclients=s["maxclients"], gametype=s["gametype"],
                model_precache=s["model_precache"], sound_precache=s["sound_precache"], start_frame=start,
                end_frame=stop, start_time=float(times[start]) if start < stop else 0.0,
                end_time=float(times[stop - 1]) if start < stop else 0.0, time_offset=s["time_offset"],
                baselines=s.get("baselines", EntityStates.empty()), statics=s.get("statics", EntityStates.empty()),
                static_sounds=s.get("static_sounds", ())))

        def when(frame: int) -> tuple[int, float]:
            f = min(frame, nframes - 1)
            return f, float(times[f])

        events = []
        for frame, seg, cls, args in self.events:
            f, t = when(frame)
            events.append(cls(t, f, seg, *args))
        score_changes = []
        for frame, seg, slot, name, frags, colors in self.score_changes:
            f, t = when(frame)
            score_changes.append(ScoreChange(t, f, seg, slot, name, frags, colors))
        ls_changes = [(min(f, nframes - 1), style, pat) for f, style, pat in self.ls_changes]
        resets = [(min(f, nframes - 1), m) for f, m in self.score_resets]
        return DemoTimeline(
            game="quake", format="dem", protocol=self.first_protocol or P.PROTOCOL_NETQUAKE,
            protocol_flags=self.first_flags, path=self.path, segments=segs, events=events, warnings=self.warnings,
            block_count=blocks, cd_track=self.cd_track, times=times, server_times=np.asarray(self.f_server),
            frame_segment=np.asarray(self.f_seg, np.int32), view_entity=np.asarray(self.f_viewent, np.int32),
            view_origin=np.asarray(self.f_vieworg, np.float64).reshape(-1, 3),
            view_angles=np.asarray(self.f_angles, np.float64).reshape(-1, 3),
            stat_rows=np.asarray(self.f_stats, np.int64).astype(np.int32).reshape(-1, len(STAT_NAMES)),
            entity_offsets=offsets, entity_columns=cols, lightstyle_changes=ls_changes,
            score_changes=score_changes, score_resets=resets)


def _pose_history(number: np.ndarray, model: np.ndarray, frame: np.ndarray, frame_of_row: np.ndarray,
                  times: np.ndarray, frame_segment: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per entity state: the previous pose and when the current pose started (vectorised over all rows).

    Follows ``CL_ParseUpdate``: the pose history resets (prev = current) when the entity is new in its segment,
    its model changed, or it was not updated for more than 0.2 s; otherwise a changed ``frame`` makes the old
    value ``prev_frame`` and starts the blend at the previous message time (when the engine would parse it).
    """
    n = len(number)
    if n == 0:
        return np.zeros(0, np.int32), np.zeros(0, np.float64)
    key = number.astype(np.uint16) if number.max(initial=0) < 65536 else number
    order = np.argsort(key, kind="stable")            # group by entity, in frame order
    g_num, g_frame, g_model = number[order], frame[order], model[order]
    g_f = frame_of_row[order]
    g_seg = frame_segment[g_f]
    t = times[g_f]
    reset = np.ones(n, bool)
    reset[1:] = ((g_num[1:] != g_num[:-1]) | (g_seg[1:] != g_seg[:-1]) | (g_model[1:] != g_model[:-1])
                 | (t[1:] - t[:-1] > _RESET_ANIM_GAP))
    changed = np.zeros(n, bool)
    changed[1:] = g_frame[1:] != g_frame[:-1]
    start = reset | changed
    prev_at_start = g_frame.copy()
    prev_at_start[1:] = np.where(reset[1:], g_frame[1:], g_frame[:-1])
    before = np.maximum(g_f - 1, 0)
    same_seg = frame_segment[before] == g_seg
    time_at_start = np.where(same_seg, times[before], t)
    last = np.maximum.accumulate(np.where(start, np.arange(n), 0))
    prev_frame = np.empty(n, np.int32)
    frame_time = np.empty(n, np.float64)
    prev_frame[order] = prev_at_start[last]
    frame_time[order] = time_at_start[last]
    return prev_frame, frame_time


def _decode_alpha(a: np.ndarray) -> np.ndarray:
    """ENTALPHA byte column → opacity (0 = default = opaque)."""
    return np.where(a == 0, 1.0, (a - 1.0) / 254.0).astype(np.float32)


def _states_from_lists(items: list[tuple[int, list]]) -> EntityStates:
    if not items:
        return EntityStates.empty()
    nums = np.asarray([k for k, _ in items], np.int32)
    a = np.asarray([v for _, v in items], np.float64)
    frame = a[:, _FRAME].astype(np.int32)
    return EntityStates(
        nums, a[:, _MODEL].astype(np.int32), frame, frame.copy(), np.ones(len(a), np.float32),
        a[:, _SKIN].astype(np.int32), a[:, _COLORMAP].astype(np.int32), a[:, _EFFECTS].astype(np.int32),
        np.ascontiguousarray(a[:, _OX:_OZ + 1], np.float32), np.ascontiguousarray(a[:, _AX:_AZ + 1], np.float32),
        _decode_alpha(a[:, _ALPHA]), (a[:, _SCALE] / P.ENTSCALE_DEFAULT).astype(np.float32))


def decode_dem(data: bytes, path: str = "<bytes>") -> DemoTimeline:
    """Decode a whole NetQuake demo.  Raises only :class:`FormatError` (see the module docstring)."""
    data = bytes(data)
    try:
        return _Decoder(data, path).run()
    except FormatError:
        raise
    except (struct.error, IndexError, ValueError, KeyError, OverflowError, TypeError, _Corrupt) as exc:
        # Anything outside a message block (assembly of a partial timeline) still surfaces as a FormatError.
        raise FormatError(path, FMT, None, "a decodable NetQuake demo", f"{type(exc).__name__}: {exc}") from exc
