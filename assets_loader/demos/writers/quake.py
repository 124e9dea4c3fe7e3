"""Cut a NetQuake ``.dem`` (protocols 15, 666, 999) to a range of its frames: a demo QuakeSpasm plays.

A NetQuake server sends every entity the client sees in every message, relative to its baseline, and the whole
client data (``SV_WriteEntitiesToClient``, ``SV_WriteClientdataToMessage``): each message block is already a full
frame.  So the cut is made of the original's own blocks:

1. the signon of the map segment holding the range — its blocks from ``svc_serverinfo`` to ``svc_signonnum 3``,
   verbatim except their ``svc_time`` (the spawn frame is not part of the range);
2. one block holding the state that later messages changed before the range: the last ``svc_lightstyle`` of each
   style, the last name / frags / colours of each slot, the last ``svc_updatestat`` of each stat (the monster and
   secret counts as stats, ``svc_killedmonster`` / ``svc_foundsecret`` counted in), the view entity, CD track, sky,
   fog, pause and intermission;
3. the blocks of the range as they are (their ``svc_time`` values unchanged: the cut keeps the original's clock);
4. a block with ``svc_disconnect``, as ``CL_Stop_f`` ends a recording.

Messages are walked with the decoder's own handler table (:class:`~..quake.parse.DemParser`).

References: Uwe Girlich, "The unofficial DEM format description" v1.0.9, sections 6-7; QuakeSpasm ``sv_main.c``
``SV_SendServerinfo`` / ``host_cmd.c`` ``Host_Spawn_f`` (the signon), ``cl_demo.c`` ``CL_Stop_f``.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from ...errors import FormatError
from ..kit.messages import DECODE_ERRORS, MessageError, message_error
from ..quake import protocol as P
from ..quake.framing import FMT, parse_cd_track
from ..quake.parse import DemParser

__all__ = ["Block", "walk_blocks", "cut_dem"]

_BLOCK = struct.Struct("<i3f")
_F32 = struct.Struct("<f")
_STAT = struct.Struct("<BBi")
#: The state blocks' size limit: the 8000-byte message of the original engine (``MAX_MSGLEN`` in id's quakedef.h).
_STATE_BLOCK = 8000

#: Messages whose latest copy is the state (keyed by the message and, where there is one, its first byte).
_KEYED_BY_BYTE = frozenset({P.svc_lightstyle, P.svc_updatename, P.svc_updatefrags, P.svc_updatecolors,
                            P.svc_updatestat})
_LATEST = frozenset({P.svc_setview, P.svc_cdtrack, P.svc_skybox, P.svc_fog, P.svc_setpause})
_INTERMISSIONS = frozenset({P.svc_intermission, P.svc_finale, P.svc_cutscene})
_COUNTED = {P.svc_killedmonster: P.STAT_MONSTERS, P.svc_foundsecret: P.STAT_SECRETS}
#: Entities and sounds a server may spawn after the signon: all of them stay.
_SPAWNS = frozenset({P.svc_spawnstatic, P.svc_spawnstatic2, P.svc_spawnstaticsound, P.svc_spawnstaticsound2,
                     P.svc_spawnbaseline, P.svc_spawnbaseline2})


@dataclass
class Block:
    """One message block: its view angles (raw bytes), its messages ``(cmd, start, end)`` in the file and the
    server times its ``svc_time`` messages carry."""

    angles: bytes
    messages: list[tuple[int, int, int]] = field(default_factory=list)
    times: list[float] = field(default_factory=list)

    def has(self, cmd: int, first_byte: int | None = None, data: bytes = b"") -> bool:
        return any(c == cmd and (first_byte is None or data[s + 1] == first_byte) for c, s, _e in self.messages)


def walk_blocks(data: bytes, path: str) -> tuple[bytes, list[Block]]:
    """The CD-track line and every block up to ``svc_disconnect``, its messages walked with the decoder's table (a
    run of fast entity updates is one message).  A corrupt block raises :class:`FormatError`; a block cut short
    ends the walk."""
    _track, pos = parse_cd_track(data, path)
    parser = DemParser(path, data)
    blocks: list[Block] = []
    n = len(data)
    while pos + 16 <= n and not parser.ended:
        length = _BLOCK.unpack_from(data, pos)[0]
        start, end = pos + 16, pos + 16 + length
        if length < 0 or end > n:
            break
        block = Block(data[pos + 4:start])
        parser.begin_block(_BLOCK.unpack_from(data, pos)[1:])
        p = start
        try:
            while p < end:
                cmd = data[p]
                fn = parser.table[cmd]
                if fn is None:
                    raise MessageError(ValueError(f"a known message type, found {cmd}"), p, cmd)
                try:
                    q = fn(data, p + 1, end)
                except DECODE_ERRORS as exc:
                    raise MessageError(exc, p, cmd) from None
                if cmd == P.svc_time:
                    block.times.append(_F32.unpack_from(data, p + 1)[0])
                block.messages.append((cmd, p, min(q, end)))
                p = q
        except MessageError as exc:
            raise message_error(exc, path, FMT, P.svc_name, len(blocks)) from None
        parser.end_block()
        blocks.append(block)
        pos = end
    return data[:parse_cd_track(data, path)[1]], blocks


def _block(angles: bytes, body: bytes) -> bytes:
    return struct.pack("<i", len(body)) + angles + body


def _state_before(data: bytes, blocks: list[Block], segment: int, spawned: int, first: int) -> list[bytes]:
    """The messages of blocks ``segment..first-1`` that still hold at block ``first`` (module docstring, step 2);
    spawns only from those after the signon (``spawned``), which the cut copies."""
    latest: dict[object, bytes] = {}
    counts: dict[int, int] = {}
    spawns: list[bytes] = []
    for i in range(segment, first):
        for cmd, s, e in blocks[i].messages:
            raw = data[s:e]
            if cmd in _KEYED_BY_BYTE:
                key: object = (cmd, data[s + 1])
                if cmd == P.svc_updatestat and data[s + 1] in (P.STAT_MONSTERS, P.STAT_SECRETS):
                    counts[data[s + 1]] = _STAT.unpack_from(raw)[2]
            elif cmd in _LATEST:
                key = cmd
            elif cmd in _INTERMISSIONS:
                key = "intermission"
            elif cmd in _COUNTED:
                stat = _COUNTED[cmd]
                counts[stat] = counts.get(stat, 0) + 1
                raw, key = _STAT.pack(P.svc_updatestat, stat, counts[stat]), (P.svc_updatestat, stat)
            elif cmd in _SPAWNS:
                if i > spawned:
                    spawns.append(raw)
                continue
            else:
                continue
            latest.pop(key, None)
            latest[key] = raw
    return spawns + list(latest.values())


def cut_dem(data: bytes, path: str, first_frame: int, last_frame: int) -> bytes:
    """A NetQuake demo of frames ``first_frame..last_frame`` (timeline frame numbers: one per ``svc_time``) of the
    demo ``data``.  ``FormatError`` when the demo does not walk or the frames are not in it."""
    cd_line, blocks = walk_blocks(data, path)
    frame_block = [i for i, block in enumerate(blocks) for _t in block.times]
    if not 0 <= first_frame <= last_frame < len(frame_block):
        raise FormatError(path, FMT, None, f"frames 0..{len(frame_block) - 1}",
                          f"a cut of frames {first_frame}..{last_frame}")
    first, last = frame_block[first_frame], frame_block[last_frame]
    segment = max((i for i in range(first + 1) if blocks[i].has(P.svc_serverinfo)), default=0)
    spawned = next((i for i in range(segment, first + 1) if blocks[i].has(P.svc_signonnum, 3, data)), None)
    out = [cd_line]
    if spawned is None or spawned >= first:
        out += [_copy(data, blocks[i]) for i in range(segment, last + 1)]
    else:
        out += [_copy(data, blocks[i], drop=P.svc_time) for i in range(segment, spawned + 1)]
        body = b""
        for message in _state_before(data, blocks, segment, spawned, first):
            if len(body) + len(message) > _STATE_BLOCK:
                out.append(_block(blocks[first].angles, body))
                body = b""
            body += message
        out.append(_block(blocks[first].angles, body))
        out += [_copy(data, blocks[i]) for i in range(first, last + 1)]
    if not blocks[last].has(P.svc_disconnect):
        out.append(_block(blocks[last].angles, bytes([P.svc_disconnect])))
    return b"".join(out)


def _copy(data: bytes, block: Block, drop: int = -1) -> bytes:
    return _block(block.angles, b"".join(data[s:e] for cmd, s, e in block.messages if cmd != drop))
