"""Cut a QuakeWorld demo to a range of its frames: a demo ezQuake plays.  A ``.qwd`` is cut as :func:`cut_qwd`
says; a multi-view demo (``.mvd``) as follows.

An MVD sends entities as a delta against the previous frame's set and players as deltas against their previous
state, so the first frame of the cut is synthesised from the decoded state; the rest is the original's blocks:

1. the level: every ``svc_serverdata``, model and sound list, baseline, static entity and sound, server info,
   ``setinfo``, CD track, max speed and gravity message of the map segment before the range, and the signon's
   ``svc_stufftext`` (the blocks before the first frame), each in a block addressed as the original's;
2. the state later messages changed: the last lightstyle of each style, the last frags, ping, packet loss, enter
   time and user info of each slot, the last value of each stat of each player (``dem_stats``), pause and
   intermission;
3. the blocks of the range's first frame without their entity and player deltas, then one block with a full
   ``svc_playerinfo`` of every player of that frame and a full ``svc_packetentities`` (against the baselines),
   encoded with the decoder's own delta field table (:func:`~..quakeworld.parse.delta_fields`);
4. the blocks of the following frames of the range, byte for byte (their deltas now apply to the synthesised frame);
5. a ``svc_disconnect`` block, as mvdsv ends a recording (``"EndOfDemo"``).

Only demos without FTE / MVD1 coordinate extensions are cut (the common mvdsv recordings).

References: mvdsv ``sv_demo.c`` ``MVDWrite_Begin`` / ``SV_MVDWritePackets`` / ``SV_MVDStop``; ezQuake ``cl_ents.c``
``CL_ParsePacketEntities``, ``CL_ParsePlayerinfo`` (MVD branch), ``cl_demo.c`` ``CL_GetDemoMessage``.
"""

from __future__ import annotations

import struct
from typing import Any

from ...errors import FormatError, UnsupportedFormatError
from ..kit.deltas import Op
from ..quakeworld import protocol as P
from ..quakeworld.framing import MvdParser, QwdParser
from ..quakeworld.parse import _NULL_STATE, QuakeWorldParser, delta_fields
from ..schema import PLAYER_DEAD, PLAYER_GIB

__all__ = ["cut_mvd", "cut_qwd"]

_FMT = "MVD"
_ANGLE8 = 360.0 / 256.0
_ANGLE16 = 360.0 / 65536.0
_ENTITY_MESSAGES = frozenset({P.svc_packetentities, P.svc_deltapacketentities, P.svc_playerinfo})
_LEVEL = frozenset({P.svc_serverdata, P.svc_modellist, P.svc_soundlist, P.svc_spawnbaseline, P.svc_spawnstatic,
                    P.svc_spawnstaticsound, P.svc_serverinfo, P.svc_setinfo, P.svc_cdtrack, P.svc_maxspeed,
                    P.svc_entgravity})
_BY_SLOT = frozenset({P.svc_lightstyle, P.svc_updatefrags, P.svc_updateping, P.svc_updatepl,
                      P.svc_updateentertime, P.svc_updateuserinfo})
_STATS = frozenset({P.svc_updatestat, P.svc_updatestatlong})
_LATEST = frozenset({P.svc_setpause})
_INTERMISSIONS = frozenset({P.svc_intermission, P.svc_finale})


class _Noting(QuakeWorldParser):
    """Mixed into a decoder: notes each message with its block and frame, and snapshots the state when a frame of
    ``keep`` closes (``snap(frame, block)`` says which)."""

    def setup(self, keep: int, snap: Any) -> None:
        self.keep = keep
        self.snap = snap
        # (frame being built, block header offset, block end, [(cmd, start, end)], incoming sequence)
        self.walked: list[tuple[int, int, int, list[tuple[int, int, int]], int]] = []
        self.kept: tuple[list, list, set[int]] | None = None
        self.sets: dict[int, list] = {}            # block header offset -> the entity set after it

    def header_size(self, start: int) -> int:
        raise NotImplementedError

    def run_messages(self, data: bytes, start: int, end: int, block: int) -> None:
        messages: list[tuple[int, int, int]] = []
        saved = self.table

        def note(cmd: int, fn: Any) -> Any:
            def run(data: bytes, q: int, end: int) -> int:
                after = fn(data, q, end)
                messages.append((cmd, q - 1, min(after, end)))
                return after
            return run

        self.table = [None if fn is None else note(cmd, fn) for cmd, fn in enumerate(saved)]
        try:
            super().run_messages(data, start, end, block)
        finally:
            self.table = saved
        self.walked.append((self.b.num_frames, start - self.header_size(start), end, messages,
                            self.incoming_seq))

    def commit_frame(self, t: float) -> None:
        sent = set(self.psent)
        super().commit_frame(t)
        frame = self.b.num_frames - 1
        if frame == self.keep:
            self.kept = (list(self.current), [None if s is None else list(s) for s in self.pstate],
                         sent)
        if self.walked and self.snap(self, frame, self.walked[-1]):
            self.sets[self.walked[-1][1]] = list(self.current)


class _MvdWalk(_Noting, MvdParser):
    def header_size(self, start: int) -> int:
        return 10 if self.target_type == P.dem_multiple else 6


class _QwdWalk(_Noting, QwdParser):
    def header_size(self, start: int) -> int:
        return 17                    # float time, byte type, int length, the netchan header


def _walk(cls: type[_Noting], data: bytes, path: str, keep: int, snap: Any = lambda *a: False) -> Any:
    walk = cls(data, path)
    walk.setup(keep, snap)
    error = walk.read_blocks()
    if error is not None:
        raise error
    if walk.fte or walk.mvd1 & P.MVD_PEXT1_FLOATCOORDS:
        raise UnsupportedFormatError(path, cls.FMT, None, "a demo without FTE or float-coordinate extensions",
                                     "a demo with protocol extensions")
    return walk


def _wrap(value: float, bits: int) -> int:
    half = 1 << (bits - 1)
    return (round(value) + half) % (1 << bits) - half


def _entity(num: int, state: tuple, base: tuple, fields: tuple) -> bytes:
    """One ``svc_packetentities`` update of ``state`` against ``base``: the word, the MOREBITS byte, the fields
    that differ, in the table's order."""
    bits = 0
    present = []
    for f in fields:
        if f.op == Op.SKIP or f.when >> 16 or f.unless:
            continue
        if state[f.column] != base[f.column]:
            bits |= f.when
            present.append(f)
    if bits & 0xFF:
        bits |= P.U_MOREBITS
    out = struct.pack("<H", num | (bits & 0xFE00))
    if bits & P.U_MOREBITS:
        out += bytes([bits & 0xFF])
    for f in present:
        value = (state[f.column] - f.offset) / f.scale
        out += struct.pack("<" + f.code, _wrap(value, 8 * struct.calcsize(f.code)) if f.code in "bhi"
                           else int(round(value)) & 0xFF if f.code == "B" else value)
    return out


def _playerinfo(num: int, st: list) -> bytes:
    """A full MVD ``svc_playerinfo`` (every DF_ field) of a decoded player state."""
    ox, oy, oz, pitch, yaw, roll, model, frame, skin, effects, wframe, flags = st
    bits = P.DF_ORIGIN * 7 | P.DF_ANGLES * 7 | P.DF_MODEL | P.DF_SKINNUM | P.DF_EFFECTS | P.DF_WEAPONFRAME
    bits |= (P.DF_DEAD if flags & PLAYER_DEAD else 0) | (P.DF_GIB if flags & PLAYER_GIB else 0)
    return (struct.pack("<BBHB3h3h", P.svc_playerinfo, num, bits, frame, *(_wrap(v * 8, 16) for v in (ox, oy, oz)),
                        *(_wrap(v / _ANGLE16, 16) for v in (pitch, yaw, roll)))
            + bytes([model & 0xFF, skin & 0xFF, effects & 0xFF, wframe & 0xFF]))


def _block(header: bytes, body: bytes, dt: int = 0) -> bytes:
    return bytes([dt]) + header[1:] + struct.pack("<i", len(body)) + body


def cut_mvd(data: bytes, path: str, first_frame: int, last_frame: int) -> bytes:
    """An MVD of frames ``first_frame..last_frame`` of the MVD ``data`` (module docstring)."""
    walk = _walk(_MvdWalk, data, path, first_frame)
    if walk.kept is None or last_frame >= walk.b.num_frames:
        raise FormatError(path, _FMT, None, f"frames 0..{walk.b.num_frames - 1}",
                          f"a cut of frames {first_frame}..{last_frame}")
    current, pstate, sent = walk.kept
    walked = walk.walked

    def header_of(h: int) -> bytes:
        return data[h:h + (6 if data[h + 1] & 7 == P.dem_multiple else 2)]

    def addressed(h: int, raw: bytes) -> bytes:
        return _block(header_of(h), raw)

    segment = max((i for i, (f, _h, _e, ms, _q) in enumerate(walked)
                   if f <= first_frame and any(c == P.svc_serverdata for c, _s, _e2 in ms)), default=0)
    level: list[bytes] = []
    latest: dict[object, bytes] = {}
    for f, h, _e, messages, _q in walked[segment:]:
        if f >= first_frame:
            break
        for cmd, s, e in messages:
            raw = data[s:e]
            if cmd in _LEVEL or cmd == P.svc_stufftext and f == 0:
                level.append(addressed(h, raw))
                continue
            if cmd in _BY_SLOT:
                key: object = (cmd, data[s + 1])
            elif cmd in _STATS:
                key = (P.svc_updatestat, data[h + 1] >> 3, data[s + 1])
            elif cmd in _LATEST:
                key = cmd
            elif cmd in _INTERMISSIONS:
                key = "intermission"
            else:
                continue
            latest.pop(key, None)
            latest[key] = addressed(h, raw)
    out = level + list(latest.values())
    frame_blocks = [w for w in walked if w[0] == first_frame]
    for i, (_f, h, _e, messages, _q) in enumerate(frame_blocks):
        body = b"".join(data[s:e] for cmd, s, e in messages if cmd not in _ENTITY_MESSAGES)
        out.append(_block(header_of(h), body, data[h] if i else 1))
    synth = b"".join(_playerinfo(num, pstate[num]) for num in sorted(sent) if pstate[num] is not None)
    synth += _packet_entities(walk, current)
    out.append(_block(bytes([0, P.dem_all]), synth))
    rest = [w for w in walked if first_frame < w[0] <= last_frame]
    if rest:
        out.append(data[rest[0][1]:rest[-1][2]])
    out.append(_block(bytes([0, P.dem_all]), bytes([P.svc_disconnect]) + b"EndOfDemo\0"))
    return b"".join(out)


def _packet_entities(walk: Any, entities: list) -> bytes:
    """A full ``svc_packetentities`` of ``entities`` (against the baselines), ended by the zero word."""
    fields = delta_fields(False, False, False)
    return (bytes([P.svc_packetentities])
            + b"".join(_entity(num, state, walk.baselines.get(num, _NULL_STATE), fields) for num, state, _r in entities)
            + b"\0\0")


def _sequence_of(from_byte: int, current: int) -> int:
    """The newest sequence at or before ``current`` whose low byte is ``from_byte``."""
    return current - ((current - from_byte) & 0xFF)


_QWD_BLOCK = struct.Struct("<fB")
_QWD_PACKET = struct.Struct("<fBiII")
#: The size of the packets carrying the level and state into a cut: a QuakeWorld packet (``MAX_MSGLEN`` 1450).
_QWD_PACKET_BODY = 1400


def _qwd_blocks(data: bytes, start: int, end: int) -> list[tuple[int, int, int]]:
    """``(offset, end, type)`` of the ``.qwd`` blocks in ``data[start:end]`` (the decoder has walked them)."""
    out = []
    pos = start
    while pos < end:
        _t, typ = _QWD_BLOCK.unpack_from(data, pos)
        if typ == P.dem_read:
            size = 9 + struct.unpack_from("<i", data, pos + 5)[0]
        else:
            size = 5 + (36 if typ == P.dem_cmd else 8)
        out.append((pos, pos + size, typ))
        pos += size
    return out


def cut_qwd(data: bytes, path: str, first_frame: int, last_frame: int) -> bytes:
    """A ``.qwd`` of frames ``first_frame..last_frame`` of the ``.qwd`` ``data``: the level and the state before
    the range in packets numbered 1, 2 …, then the range's blocks with their netchan sequence numbers moved down
    by a multiple of 256 (so every ``from`` byte still names the same packet) and each entity delta that leans on
    a packet before the range replaced by the full set, then the end-of-demo packet."""
    first_seq: list[int] = []

    def snap(walk: Any, frame: int, block: tuple) -> bool:
        if frame == first_frame:
            first_seq.append(block[4])
            return True
        if not first_frame < frame <= last_frame:
            return False
        return any(cmd == P.svc_deltapacketentities and _sequence_of(data[s + 1], block[4]) < first_seq[0]
                   for cmd, s, _e in block[3])

    walk = _walk(_QwdWalk, data, path, first_frame, snap)
    if walk.kept is None or last_frame >= walk.b.num_frames:
        raise FormatError(path, "QWD", None, f"frames 0..{walk.b.num_frames - 1}",
                          f"a cut of frames {first_frame}..{last_frame}")
    walked = walk.walked
    committed = {}                                   # frame -> the block that closed it
    for i, w in enumerate(walked):
        if i + 1 == len(walked) or walked[i + 1][0] != w[0]:
            committed[w[0]] = w
    begin = committed[first_frame - 1][2] if first_frame else 0
    stop = committed[last_frame][2]
    # the level and the state before the range
    level: list[bytes] = []
    latest: dict[object, bytes] = {}
    for f, _h, _e, messages, _q in walked:
        if f >= first_frame or _h >= begin:
            break
        for cmd, s, e in messages:
            raw = data[s:e]
            if cmd in _LEVEL or cmd == P.svc_stufftext and f == 0:
                level.append(raw)
                continue
            if cmd in _BY_SLOT or cmd in _STATS:
                key: object = (cmd if cmd not in _STATS else P.svc_updatestat, data[s + 1])
            elif cmd in _LATEST:
                key = cmd
            elif cmd in _INTERMISSIONS:
                key = "intermission"
            else:
                continue
            latest.pop(key, None)
            latest[key] = raw
    blocks = _qwd_blocks(data, begin, stop)
    if not blocks:
        raise FormatError(path, "QWD", begin, "a block in the range", "none")
    t0 = _QWD_BLOCK.unpack_from(data, blocks[0][0])[0]
    bodies: list[bytes] = []
    for raw in level + list(latest.values()):
        if bodies and len(bodies[-1]) + len(raw) <= _QWD_PACKET_BODY:
            bodies[-1] += raw
        else:
            bodies.append(raw)
    seq0 = first_seq[0] if first_frame else 1
    shift = (seq0 - len(bodies) - 1) // 256 * 256 if first_frame else 0
    out = [_QWD_PACKET.pack(t0, P.dem_read, len(body) + 8, n, n) + body for n, body in enumerate(bodies, 1)]
    by_block = {w[1]: w for w in walked}
    for pos, end, typ in blocks:
        if typ != P.dem_read or pos not in by_block or shift == 0 and pos not in walk.sets:
            out.append(data[pos:end])
            continue
        t, _typ, _n, seq, ack = _QWD_PACKET.unpack_from(data, pos)
        reliable = seq & 0x80000000
        body = data[pos + 17:end]
        if pos in walk.sets:
            body = b"".join(_packet_entities(walk, walk.sets[pos]) if cmd == P.svc_deltapacketentities
                            else data[s:e] for cmd, s, e in by_block[pos][3])
        out.append(_QWD_PACKET.pack(t, P.dem_read, len(body) + 8, ((seq & 0x7FFFFFFF) - shift) | reliable,
                                    max((ack & 0x7FFFFFFF) - shift, 0) | ack & 0x80000000) + body)
    last_t = _QWD_BLOCK.unpack_from(data, blocks[-1][0])[0]
    out.append(_QWD_BLOCK.pack(last_t, P.dem_read) + struct.pack("<i", 15) + b"\xff\xff\xff\xff\x02EndOfDemo\0")
    return b"".join(out)
