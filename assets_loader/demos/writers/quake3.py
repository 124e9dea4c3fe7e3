"""Cut a Quake III demo (``.dm_66`` … ``.dm_71``; Quake Live's ``.dm_73`` / ``.dm_90`` / ``.dm_91`` with its
tables) to a range of its snapshots: a demo ioquake3 (Quake Live) plays.

The cut is what ``CL_Record_f`` writes when a recording starts mid-game, followed by the original's messages:

1. a gamestate message: the configstrings as they are just before the range (the gamestate's, changed by the
   ``cs`` commands so far), the baselines, the client number and checksum feed, and the server command sequence
   reached (one less when the last ``scores`` command is sent again), so the range's commands follow on;
2. the range's first message with the last ``scores`` command before the range (numbered as the last command
   taken), its own server commands and a full (non-delta) snapshot of its player and entities, each entity
   delta-coded against its baseline (``MSG_WriteDeltaEntity`` with ``force``);
3. the following messages of the range byte for byte, except that one whose snapshot leans on a message before the
   range is written again like 2.; message numbers are moved down so the gamestate is message 1 (a snapshot's
   delta is relative: ``messageNum - deltaNum``), the gamestate taking the number of the message the client took a
   snapshot from last;
4. the ``(-1, -1)`` end marker of ``CL_StopRecord_f``.

Everything is written with the decoder's own field tables (:mod:`..quake3.protocol`) and Huffman code
(:data:`..quake3.huffman.CODES`), bit for bit the inverse of :mod:`..quake3.bitstream` and :mod:`..quake3.delta`.

References: ioquake3 ``code/qcommon/msg.c`` (``MSG_WriteBits``, ``MSG_WriteDeltaEntity``,
``MSG_WriteDeltaPlayerstate``), ``code/server/sv_snapshot.c`` (``SV_WriteSnapshotToClient``),
``code/client/cl_main.c`` (``CL_Record_f``, ``CL_StopRecord_f``); spec 004 sections 2-7.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

from ...errors import FormatError
from ..quake3 import protocol as Q
from ..quake3.bitstream import FMT, BitReader
from ..quake3.delta import FLOAT_INT_BIAS, FLOAT_INT_BITS
from ..quake3.framing import split_messages
from ..quake3.huffman import CODES
from ..quake3.ql_scores import SCORE_COMMANDS
from ..quake3.parse import _Decoder, protocol_from_name, protocol_from_serverinfo

__all__ = ["BitWriter", "cut_quake3"]

_F32 = struct.Struct("<f")
_I32 = struct.Struct("<i")


class BitWriter:
    """``MSG_WriteBits`` in Huffman mode: the low ``n & 7`` bits raw, then each byte as its Huffman code.  Strings
    are written as UTF-8 with ``utf8`` (Quake Live's protocol 91, as :meth:`BitReader.read_string` reads them)."""

    def __init__(self, utf8: bool = False) -> None:
        self.bits: list[int] = []
        self.utf8 = utf8

    def write_bits(self, value: int, count: int) -> None:
        n = abs(count)
        value &= (1 << n) - 1
        raw = n & 7
        self.bits.extend((value >> i) & 1 for i in range(raw))
        for shift in range(raw, n, 8):
            self.bits.extend(1 if c == "1" else 0 for c in CODES[(value >> shift) & 0xFF])

    def write_byte(self, value: int) -> None:
        self.write_bits(value, 8)

    def write_long(self, value: int) -> None:
        self.write_bits(value, 32)

    def write_string(self, text: str) -> None:
        for c in text.encode("utf-8") if self.utf8 else text.encode("latin-1", "replace"):
            self.write_byte(c)
        self.write_byte(0)

    def data(self) -> bytes:
        """The message bytes; the size is the engine's ``(bit >> 3) + 1``."""
        size = (len(self.bits) >> 3) + 1
        out = bytearray(size)
        for i, bit in enumerate(self.bits):
            if bit:
                out[i >> 3] |= 1 << (i & 7)
        return bytes(out)


def _write_float(w: BitWriter, value: int) -> None:
    """A float field (``bits`` 0) given as its IEEE pattern: 13-bit integral or 32 raw bits."""
    f = _F32.unpack(_I32.pack(value))[0]
    if f == int(f) and 0 <= int(f) + FLOAT_INT_BIAS < 1 << FLOAT_INT_BITS:
        w.write_bits(0, 1)
        w.write_bits(int(f) + FLOAT_INT_BIAS, FLOAT_INT_BITS)
    else:
        w.write_bits(1, 1)
        w.write_bits(value, 32)


def write_delta_entity(w: BitWriter, number: int, state: Sequence[int], base: Sequence[int], widths: tuple[int, ...]
                       ) -> None:
    """``MSG_WriteDeltaEntity(msg, base, state, force=qtrue)``."""
    changed = [i for i in range(len(widths)) if state[i] != base[i]]
    w.write_bits(number, Q.GENTITYNUM_BITS)
    w.write_bits(0, 1)                              # not removed
    if not changed:
        w.write_bits(0, 1)                          # no delta
        return
    w.write_bits(1, 1)
    count = changed[-1] + 1
    w.write_byte(count)
    for i in range(count):
        if state[i] == base[i]:
            w.write_bits(0, 1)
            continue
        w.write_bits(1, 1)
        if state[i] == 0:
            w.write_bits(0, 1)
            continue
        w.write_bits(1, 1)
        if widths[i]:
            w.write_bits(state[i], widths[i])
        else:
            _write_float(w, state[i])


def write_delta_player(w: BitWriter, state: Sequence[int], base: Sequence[int], widths: tuple[int, ...]) -> None:
    """``MSG_WriteDeltaPlayerstate(msg, base, state)``: the fields, then the four arrays."""
    nf = len(widths)
    changed = [i for i in range(nf) if state[i] != base[i]]
    count = changed[-1] + 1 if changed else 0
    w.write_byte(count)
    for i in range(count):
        if state[i] == base[i]:
            w.write_bits(0, 1)
            continue
        w.write_bits(1, 1)
        if widths[i]:
            w.write_bits(state[i], widths[i])
        else:
            _write_float(w, state[i])
    masks = []
    for a in range(len(Q.PLAYER_ARRAYS)):
        start = nf + a * Q.MAX_PS_ARRAY
        masks.append(sum(1 << k for k in range(Q.MAX_PS_ARRAY) if state[start + k] != base[start + k]))
    if not any(masks):
        w.write_bits(0, 1)
        return
    w.write_bits(1, 1)
    for a, (_name, element_bits) in enumerate(Q.PLAYER_ARRAYS):
        if not masks[a]:
            w.write_bits(0, 1)
            continue
        w.write_bits(1, 1)
        w.write_bits(masks[a], Q.MAX_PS_ARRAY)
        start = nf + a * Q.MAX_PS_ARRAY
        for k in range(Q.MAX_PS_ARRAY):
            if masks[a] >> k & 1:
                w.write_bits(state[start + k], element_bits)


class _Recorder(_Decoder):
    """The decoder, keeping per message its server commands and its snapshot (full states), and the client state
    just before message ``keep``."""

    def __init__(self, path: str, protocol: int, tables: Any, keep: int) -> None:
        super().__init__(path, protocol, tables)
        self.keep = keep
        self.before: dict[str, Any] | None = None
        self.message_commands: dict[int, list[tuple[int, str]]] = {}
        self.message_snapshot: dict[int, tuple] = {}     # message -> (server time, flags, areamask, player,
        #                                                  entities, delta message or -1, valid)
        self.current = 0
        self.baselines_at_cut: dict[int, Sequence[int]] = {}
        self.last_scores = ""                            # the last ``scores`` command taken

    def message(self, r: BitReader) -> None:
        self.current = r.message
        if r.message == self.keep:
            state = self.gamestates[-1] if self.gamestates else None
            self.before = {"configstrings": dict(self.configstrings), "baselines": dict(self.baselines),
                           "command_sequence": self.command_sequence, "scores": self.last_scores,
                           "client_num": state.client_num if state else 0,
                           "checksum_feed": state.checksum_feed if state else 0}
        super().message(r)

    def server_command(self, r: BitReader) -> None:
        start, taken = r.pos, self.command_sequence
        super().server_command(r)
        end = r.pos
        r.pos = start
        sequence = r.read_long()
        text = r.read_string()
        r.pos = end
        self.message_commands.setdefault(self.current, []).append((sequence, text))
        if sequence > taken and text.split(" ", 1)[0] in SCORE_COMMANDS:
            self.last_scores = text

    def snapshot(self, r: BitReader) -> None:
        count = len(self.out.server_time)
        super().snapshot(r)
        out = self.out
        if len(out.server_time) > count:
            n = out.entity_counts[-1]
            entities = out.entities[len(out.entities) - n:] if n else []
            self.message_snapshot[self.current] = (out.server_time[-1], out.flags[-1], out.areamask[-1],
                                                   out.player[-1], entities, out.delta_num[-1])


def _full_message(rec: _Recorder, message: int, commands: list[tuple[int, str]]) -> bytes:
    """A message of ``commands`` and the full snapshot of ``message``."""
    tables = rec.tables
    server_time, flags, areamask, player, entities, _delta = rec.message_snapshot[message]
    w = BitWriter(rec.protocol in Q.UTF8_PROTOCOLS)
    w.write_long(0)                                     # reliableAcknowledge
    for sequence, text in commands:
        w.write_byte(Q.SVC_SERVERCOMMAND)
        w.write_long(sequence)
        w.write_string(text)
    w.write_byte(Q.SVC_SNAPSHOT)
    w.write_long(server_time)
    w.write_byte(0)                                     # not delta-coded
    w.write_byte(flags)
    w.write_byte(len(areamask))
    for b in areamask:
        w.write_byte(b)
    write_delta_player(w, player, rec.null_player, tables.player.bits)
    for number, state in entities:
        write_delta_entity(w, number, state, rec.baselines_at_cut.get(number, rec.null_entity), tables.entity.bits)
    w.write_bits(Q.ENTITYNUM_NONE, Q.GENTITYNUM_BITS)
    w.write_byte(Q.SVC_EOF)
    return w.data()


def _gamestate(rec: _Recorder) -> bytes:
    before = rec.before
    assert before is not None
    w = BitWriter(rec.protocol in Q.UTF8_PROTOCOLS)
    w.write_long(0)
    w.write_byte(Q.SVC_GAMESTATE)
    w.write_long(before["command_sequence"] - (1 if before["scores"] else 0))
    for index, text in sorted(before["configstrings"].items()):
        if text:
            w.write_byte(Q.SVC_CONFIGSTRING)
            w.write_bits(index, 16)
            w.write_string(text)
    for number, state in sorted(before["baselines"].items()):
        w.write_byte(Q.SVC_BASELINE)
        write_delta_entity(w, number, state, rec.null_entity, rec.tables.entity.bits)
    w.write_byte(Q.SVC_EOF)
    w.write_long(before["client_num"])
    w.write_long(before["checksum_feed"])
    w.write_byte(Q.SVC_EOF)
    return w.data()


def cut_quake3(data: bytes, path: str, first_frame: int, last_frame: int) -> bytes:
    """A Quake III demo of snapshots ``first_frame..last_frame`` (timeline frames: one per valid snapshot) of the
    demo ``data`` (module docstring)."""
    protocol = protocol_from_name(path) or protocol_from_serverinfo(data, path)
    tables = Q.tables_for(protocol) if protocol is not None else None
    if protocol is None or tables is None:
        raise FormatError(path, FMT, None, "a Quake III demo of protocol 66, 67, 68, 71, 73, 90 or 91", "no protocol")
    framing = split_messages(data, path)
    probe = _Recorder(path, protocol, tables, -1)
    _run(probe, data, framing)
    messages = sorted(probe.message_snapshot)
    if not 0 <= first_frame <= last_frame < len(messages):
        raise FormatError(path, FMT, None, f"snapshots 0..{len(messages) - 1}",
                          f"a cut of snapshots {first_frame}..{last_frame}")
    first, last = messages[first_frame], messages[last_frame]
    rec = _Recorder(path, protocol, tables, first)
    _run(rec, data, framing)
    before = rec.before
    assert before is not None
    rec.baselines_at_cut = before["baselines"]
    blocks = framing.blocks
    # The gamestate takes the number of the message before the range that the client last took a snapshot or a
    # gamestate from, so the snapshots the range's first one follows on missing are counted as in the original.
    before_range = [blocks[messages[first_frame - 1]].sequence] if first_frame else []
    before_range += [g.sequence for g in probe.gamestates if g.message < first]
    shift = max(before_range, default=blocks[first].sequence - 1) - 1
    gamestate = _gamestate(rec)
    out = [struct.pack("<ii", 1, len(gamestate)) + gamestate]
    first_sequence = blocks[first].sequence
    for index in range(first, last + 1):
        block = blocks[index]
        snap = rec.message_snapshot.get(index)
        if index == first or snap is not None and 0 < snap[5] < first_sequence:
            commands = rec.message_commands.get(index, [])
            if index == first and before["scores"]:           # the scores as they are: the last command again
                commands = [(before["command_sequence"], before["scores"]), *commands]
            body = _full_message(rec, index, commands)
        else:
            body = data[block.offset:block.offset + block.length]
        out.append(struct.pack("<ii", block.sequence - shift, len(body)) + body)
    out.append(struct.pack("<ii", -1, -1))
    return b"".join(out)


def _run(rec: _Recorder, data: bytes, framing: Any) -> None:
    for index, block in enumerate(framing.blocks):
        reader = BitReader(data[block.offset:block.offset + block.length], path=rec.path, message=index,
                           sequence=block.sequence, file_offset=block.offset, table=rec.table,
                           utf8=rec.protocol in Q.UTF8_PROTOCOLS)
        reader.run(rec.message)
