"""Cut a Quake II client demo (``.dm2``) to a range of its server frames (checked in qdv; no Quake II engine here).

1. the level: the segment's ``svc_serverdata``, every configstring as it is at the cut, every baseline and the
   signon's ``svc_stufftext`` (``precache``), in blocks of at most 1400 bytes (``MAX_MSGLEN``);
2. the range's first block with its frame written in full: ``svc_frame`` with no delta frame, ``svc_playerinfo``
   of every non-zero field and stat, ``svc_packetentities`` of every entity against its baseline, encoded with the
   decoder's field tables (:func:`~..quake2.parse.entity_fields`, :func:`~..quake2.parse.player_fields`);
3. the following blocks of the range with their frame numbers moved down so the first frame is 1 (a frame that
   leans on a frame before the range written in full like 2.);
4. the ``-1`` block length that ends a recording (``CL_Stop_f``).

Client recordings only (a server recording's frames carry no delta).

References: Quake II 3.20 ``server/sv_ents.c`` ``SV_WriteFrameToClient`` / ``SV_WritePlayerstateToClient``,
``qcommon/common.c`` ``MSG_WriteDeltaEntity``, ``client/cl_main.c`` ``CL_Stop_f``.
"""

from __future__ import annotations

import struct
from typing import Any

from ...errors import FormatError, UnsupportedFormatError
from ..kit.deltas import Op
from ..kit.messages import DECODE_ERRORS, MessageError, message_error
from ..quake2 import protocol as P
from ..quake2.parse import _NULL_PS, _NULL_STATE, FMT, Quake2Parser, entity_fields, player_fields

__all__ = ["cut_dm2"]

_LEN = struct.Struct("<i")
_MAX_BLOCK = 1400
_ENTITY_FIELDS = entity_fields()
_PLAYER_FIELDS = player_fields()
_RANGES = {"b": (-128, 127), "B": (0, 255), "h": (-32768, 32767), "H": (0, 65535)}


def _fits(code: str, value: int) -> int:
    lo, hi = _RANGES.get(code, (-(1 << 31), (1 << 31) - 1))
    span = hi - lo + 1
    return (value - lo) % span + lo


def _encode(fields: tuple, state: tuple, reference: list, wire: bool) -> tuple[int, bytes]:
    """The bits and bytes of the fields of ``state`` that differ from ``reference`` (what the decoder would start
    from), in table order; ``wire``: the state holds wire integers (player state), else scaled values."""
    values = {}
    bits = 0
    for f in fields:
        if f.op == Op.COPY or not f.when:
            continue
        target = state[f.column]
        if target == reference[f.column] or f.column in values:
            continue
        raw = int(target) if wire else round((target - f.offset) / f.scale)
        values[f.column] = raw
        pair = [g for g in fields if g.column == f.column and g.op != Op.COPY and g.when]
        if len(pair) == 3:                          # 8 / 16 / 32-bit choice (skin, effects, renderfx)
            low, high = pair[1].when, pair[2].when
            bits |= low if 0 <= raw < 256 else high if 0 <= raw < 65536 else low | high
        elif len(pair) == 2 and pair[0].code != pair[1].code:     # frame: U_FRAME8 / U_FRAME16
            bits |= pair[0].when if 0 <= raw < 256 else pair[1].when
        else:
            bits |= f.when
    out = b""
    for f in fields:
        if f.op == Op.COPY or not f.when or bits & f.when != f.when or bits & f.unless:
            continue
        raw = values.get(f.column)
        if raw is None:
            target = state[f.column]
            raw = int(target) if wire else round((target - f.offset) / f.scale)
        out += struct.pack("<" + f.code, _fits(f.code, raw))
    return bits, out


def _entity(number: int, state: tuple, base: tuple) -> bytes:
    """``MSG_WriteDeltaEntity(base, state, force)``: the header (bits, number) and the changed fields; old_origin
    starts as the base origin (``CL_ParseDelta``)."""
    reference = list(base)
    reference[18:21] = base[12:15]
    bits, body = _encode(_ENTITY_FIELDS, state, reference, wire=False)
    if number >= 256:
        bits |= P.U_NUMBER16
    if bits & 0xFF000000:
        bits |= P.U_MOREBITS3
    if bits & 0xFFFF0000:
        bits |= P.U_MOREBITS2
    if bits & 0xFFFFFF00:
        bits |= P.U_MOREBITS1
    size = 4 if bits & P.U_MOREBITS3 else 3 if bits & P.U_MOREBITS2 else 2 if bits & P.U_MOREBITS1 else 1
    head = bits.to_bytes(4, "little")[:size]
    head += struct.pack("<H", number) if bits & P.U_NUMBER16 else bytes([number])
    return head + body


def _playerinfo(ps: tuple, stats: tuple) -> bytes:
    flags, body = _encode(_PLAYER_FIELDS, ps, list(_NULL_PS), wire=True)
    statbits = sum(1 << i for i, v in enumerate(stats) if v)
    return (bytes([P.svc_playerinfo]) + struct.pack("<H", flags) + body + struct.pack("<I", statbits)
            + b"".join(struct.pack("<h", v) for v in stats if v))


class _Walk(Quake2Parser):
    """The decoder over the blocks, noting each block's messages and the full state of chosen frames."""

    def __init__(self, path: str, snap: Any) -> None:
        super().__init__(path)
        self.snap = snap
        self.frame_block: list[int] = []          # per frame: its block
        self.frame_delta: list[int] = []          # per frame: its delta frame number
        self.frame_number: list[int] = []
        self.kept: dict[int, tuple] = {}          # frame -> (entities, player state, stats, configstrings, baselines)
        self.block = 0
        self.delta = -1

    def parse_svc_frame(self, data: bytes, p: int, end: int) -> int:
        q = super().parse_svc_frame(data, p, end)
        self.delta = _LEN.unpack_from(data, p + 4)[0]
        return q

    def parse_svc_packetentities(self, data: bytes, p: int, end: int) -> int:
        q = super().parse_svc_packetentities(data, p, end)
        frame = len(self.frame_block)
        self.frame_block.append(self.block)
        self.frame_delta.append(self.delta)
        self.frame_number.append(self.serverframe)
        if self.snap(self, frame):
            self.kept[frame] = (list(self.current), self.ps, self.stats, dict(self.configstrings),
                                dict(self.baselines))
        return q


def _walk(data: bytes, path: str, snap: Any) -> tuple[_Walk, list[tuple[int, int, list[tuple[int, int, int]]]]]:
    walk = _Walk(path, snap)
    blocks: list[tuple[int, int, list[tuple[int, int, int]]]] = []
    pos, n = 0, len(data)
    while pos + 4 <= n and not walk.ended:
        length = _LEN.unpack_from(data, pos)[0]
        if length < 0 or pos + 4 + length > n:
            break
        start, end = pos + 4, pos + 4 + length
        walk.block = len(blocks)
        messages = []
        p = start
        try:
            while p < end:
                cmd = data[p]
                fn = walk.table[cmd]
                if fn is None:
                    raise MessageError(ValueError(f"a known message type, found {cmd}"), p, cmd)
                try:
                    q = fn(data, p + 1, end)
                except DECODE_ERRORS as exc:
                    raise MessageError(exc, p, cmd) from None
                messages.append((cmd, p, min(q, end)))
                p = q
        except MessageError as exc:
            raise message_error(exc, path, FMT, P.svc_name, len(blocks)) from None
        blocks.append((start, end, messages))
        pos = end
    if walk.attractloop == P.RECORD_SERVER:
        raise UnsupportedFormatError(path, FMT, None, "a client recording", "a server recording")
    return walk, blocks


def _blocks_of(messages: list[bytes]) -> list[bytes]:
    out: list[bytes] = []
    body = b""
    for m in messages:
        if body and len(body) + len(m) > _MAX_BLOCK:
            out.append(_LEN.pack(len(body)) + body)
            body = b""
        body += m
    if body:
        out.append(_LEN.pack(len(body)) + body)
    return out


def cut_dm2(data: bytes, path: str, first_frame: int, last_frame: int) -> bytes:
    """A ``.dm2`` of frames ``first_frame..last_frame`` of the ``.dm2`` ``data`` (module docstring)."""
    probe, _blocks = _walk(data, path, lambda w, f: False)
    if not 0 <= first_frame <= last_frame < len(probe.frame_block):
        raise FormatError(path, FMT, None, f"frames 0..{len(probe.frame_block) - 1}",
                          f"a cut of frames {first_frame}..{last_frame}")
    first_number = probe.frame_number[first_frame]

    def snap(walk: _Walk, frame: int) -> bool:
        return frame == first_frame or first_frame < frame <= last_frame and 0 < walk.delta < first_number

    walk, blocks = _walk(data, path, snap)
    first, last = walk.frame_block[first_frame], walk.frame_block[last_frame]
    segment = max((i for i in range(first + 1) if any(c == P.svc_serverdata for c, _s, _e in blocks[i][2])),
                  default=0)
    entities, ps, stats, configstrings, baselines = walk.kept[first_frame]
    signon_end = min(b for b in walk.frame_block if b >= segment)      # the segment's first frame
    serverdata = [data[s:e] for cmd, s, e in blocks[segment][2] if cmd == P.svc_serverdata][-1:]
    stuff = [data[s:e] for i in range(segment, signon_end) for cmd, s, e in blocks[i][2] if cmd == P.svc_stufftext]
    level = list(serverdata)
    level += [bytes([P.svc_configstring]) + struct.pack("<h", i) + text.encode("latin-1", "replace") + b"\0"
              for i, text in sorted(configstrings.items()) if text]
    level += [bytes([P.svc_spawnbaseline]) + _entity(n, state, _NULL_STATE) for n, state in sorted(baselines.items())]
    out = _blocks_of(level + stuff)
    shift = first_number - 1
    frame_of_block = {walk.frame_block[f]: f for f in range(first_frame, last_frame + 1)}
    for i in range(first, last + 1):
        start, end, messages = blocks[i]
        f = frame_of_block.get(i)
        body = b""
        for cmd, s, e in messages:
            if cmd == P.svc_frame:
                number, delta = struct.unpack_from("<ii", data, s + 1)
                full = f in walk.kept
                body += struct.pack("<Bii", P.svc_frame, number - shift, -1 if full or delta <= 0 else delta - shift)
                body += data[s + 9:e]
            elif f in walk.kept and cmd == P.svc_playerinfo:
                body += _playerinfo(walk.kept[f][1], walk.kept[f][2])
            elif f in walk.kept and cmd == P.svc_packetentities:
                ents, _ps, _st, _cs, bases = walk.kept[f]
                body += bytes([P.svc_packetentities]) + b"".join(
                    _entity(n, state, bases.get(n, _NULL_STATE)) for n, state, _row in ents) + b"\0\0"
            else:
                body += data[s:e]
        out.append(_LEN.pack(len(body)) + body)
    out.append(_LEN.pack(-1))
    return b"".join(out)
