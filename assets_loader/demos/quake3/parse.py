"""Decode a Quake III demo into a :class:`~.records.Quake3Demo`: the client's message loop over every framed
message, gamestates, snapshots resolved against the snapshot ring, and reliable server commands.

Message (``CL_ParseServerMessage``): the ``reliableAcknowledge`` long, then commands until ``svc_EOF``:
``svc_nop``, ``svc_gamestate`` (command sequence, ``svc_configstring`` index + big string and ``svc_baseline``
entity number + delta from the zero state until ``svc_EOF``, then client number and checksum feed),
``svc_serverCommand`` (command number + string; numbers already seen are dropped), ``svc_snapshot``
(server time, delta number as a byte back from this message's sequence, snapFlags, area mask length + bytes,
player-state delta, packet entities) and ioquake3's VoIP packets (skipped).  A gamestate clears the snapshot ring,
baselines and configstrings
(``CL_ClearState``).

Snapshot ring (``CL_ParseSnapshot``): snapshots are kept by ``sequence & 31``; a snapshot delta-coded from a
message that is no longer in the ring (or whose entities the 8192-entry parse ring has overwritten) is read to
its end but dropped, as the engine does, with a warning.  Packet entities (``CL_ParsePacketEntities``): entity
numbers in increasing order, each a delta from the delta snapshot's state of that entity, or from its baseline
if it was not there; old entities not named are copied; 1023 ends the list.  The entity states kept, all
snapshots together, are held to the demo's budget (:mod:`..kit.budget`): past it decoding stops with a
:class:`~..kit.budget.StateBudgetError`.

Bad input: a message that does not decode raises :class:`~.bitstream.MessageFormatError` (message index,
sequence, bit offset), or with ``keep_before_error`` ends the demo there like a cut file; a file cut short
returns what was decoded, ``truncated`` set and a warning; a protocol other than 66/67/68/71 or Quake Live's
73/90/91 raises :class:`~assets_loader.errors.BadMagicError`.

References: ioquake3 ``code/client/cl_parse.c`` (``CL_ParseServerMessage``, ``CL_ParseGamestate``,
``CL_ParseSnapshot``, ``CL_ParsePacketEntities``, ``CL_DeltaEntity``, ``CL_ParseCommandString``,
``CL_ParseVoip``), ``code/client/cl_cgame.c`` (``CL_GetServerCommand``); spec 004 sections 8–10.
"""

from __future__ import annotations

import contextlib
import gc
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

import numpy as np

from ...errors import BadMagicError, FormatError
from ..kit.budget import check_states, state_budget
from .bitstream import BIG_INFO_STRING, FMT, BitReader, FileBits, MessageFormatError
from .commands import (
    BigConfigstring,
    ConfigstringChange,
    ServerCommand,
    configstring_value,
    tokenize,
)
from .delta import State, null_player, null_state, read_delta_entity, read_delta_player, state_rows
from .framing import Framing, split_messages
from .huffman import decode_table, prefixed_table
from .protocol import (
    ENTITYNUM_NONE,
    GENTITYNUM_BITS,
    MAX_CONFIGSTRINGS,
    MAX_GAMESTATE_CHARS,
    MAX_GENTITIES,
    MAX_MAP_AREA_BYTES,
    MAX_PARSE_ENTITIES,
    MAX_SNAPSHOT_ENTITIES,
    PACKET_BACKUP,
    SVC_BASELINE,
    SVC_CONFIGSTRING,
    SVC_EOF,
    SVC_GAMESTATE,
    SVC_NOP,
    SVC_SERVERCOMMAND,
    SVC_SNAPSHOT,
    SVC_VOIP_OPUS,
    SVC_VOIP_SPEEX,
    UTF8_PROTOCOLS,
    VOIP_FLAGCNT,
    ProtocolTables,
    entity_records,
    player_records,
    tables_for,
)
from .records import CS_SERVERINFO, GameState, Quake3Demo, Snapshots

__all__ = ["parse_demo", "protocol_from_name", "protocol_from_serverinfo"]

_NO_ENTITY = 99999

#: An entity in a snapshot: its number and its state (field values in table order, shared while unchanged).
_Entity = tuple[int, State]


def protocol_from_name(name: str) -> int | None:
    """The protocol a demo's file name gives (``.dm_68`` → 68), like the engine's demo-extension check."""
    match = re.search(r"\.dm_(\d+)$", name, re.IGNORECASE)
    return int(match.group(1)) if match else None


class _Frame(NamedTuple):
    """A ring entry (``clSnapshot_t``): the sequence it was received in and its full states (a named tuple: one is
    made per snapshot, and a tuple is the quickest to make)."""

    sequence: int
    player: State
    entities: list[_Entity]
    first_parse_entity: int


@dataclass(slots=True)
class _Output:
    """Columns growing while the messages are decoded."""

    message: list[int] = field(default_factory=list)
    sequence: list[int] = field(default_factory=list)
    server_time: list[int] = field(default_factory=list)
    delta_num: list[int] = field(default_factory=list)
    flags: list[int] = field(default_factory=list)
    areamask: list[bytes] = field(default_factory=list)
    player: list[State] = field(default_factory=list)
    entity_counts: list[int] = field(default_factory=list)
    entities: list[_Entity] = field(default_factory=list)


class _Decoder:
    """The client state of ``cl_parse.c`` for one demo."""

    def __init__(self, path: str, protocol: int, tables: ProtocolTables) -> None:
        self.path = path
        self.protocol = protocol
        self.tables = tables
        self.table = decode_table()
        self.null_entity = null_state(len(tables.entity.bits))
        self.null_player = null_player(tables.player)
        self.out = _Output()
        self.gamestates: list[GameState] = []
        self.commands: list[ServerCommand] = []
        self.changes: list[ConfigstringChange] = []
        self.warnings: list[str] = []
        self.received_commands = 0
        self.voip_packets = 0
        self.max_states = state_budget()    # entity states kept, all snapshots together
        self._clear_state()
        self.command_sequence = 0
        self.big_configstring = BigConfigstring()

    def _clear_state(self) -> None:
        self.ring: list[_Frame | None] = [None] * PACKET_BACKUP
        self.baselines: dict[int, State] = {}
        self._base_entries: dict[int, _Entity] = {}
        self.configstrings: dict[int, str] = {}
        self.parse_entities = 0

    # -- keeping the messages before a corrupt one ------------------------------------------------------------------
    def _columns(self) -> tuple[list, ...]:
        out = self.out
        return (out.message, out.sequence, out.server_time, out.delta_num, out.flags, out.areamask, out.player,
                out.entity_counts, out.entities, self.gamestates, self.commands, self.changes, self.warnings)

    def mark(self) -> tuple[int, ...]:
        """Where every output column and count ends now (before a message)."""
        return (*map(len, self._columns()), self.received_commands, self.voip_packets)

    def rewind(self, mark: tuple[int, ...]) -> None:
        """Forget the output of a message that did not decode to its end."""
        *lengths, self.received_commands, self.voip_packets = mark
        for column, length in zip(self._columns(), lengths):
            del column[length:]

    # -- message loop ---------------------------------------------------------------------------------------------
    def message(self, r: BitReader) -> None:
        r.read_long()  # reliableAcknowledge
        end = r.size << 3
        while True:
            if r.pos >= end:  # r.overflowed(), inlined
                raise r.error("svc_EOF before the end of the message")
            cmd = r.read_byte()
            if cmd == SVC_EOF:
                return
            if cmd == SVC_SNAPSHOT:
                self.snapshot(r)
            elif cmd == SVC_SERVERCOMMAND:
                self.server_command(r)
            elif cmd == SVC_GAMESTATE:
                self.gamestate(r)
            elif cmd in (SVC_VOIP_SPEEX, SVC_VOIP_OPUS):
                self.voip(r)
            elif cmd != SVC_NOP:
                raise r.error("a server command byte (svc_nop, svc_gamestate, svc_serverCommand, svc_snapshot or "
                              "svc_EOF)", str(cmd))

    def gamestate(self, r: BitReader) -> None:
        self._clear_state()
        self.command_sequence = r.read_long()
        command_sequence = self.command_sequence
        data_count = 1  # gameState_t.dataCount: every configstring and its terminator
        while True:
            cmd = r.read_byte()
            if cmd == SVC_EOF:
                break
            if cmd == SVC_CONFIGSTRING:
                index = r.read_short()
                if not 0 <= index < MAX_CONFIGSTRINGS:
                    raise r.error(f"a configstring index in 0..{MAX_CONFIGSTRINGS - 1}", str(index))
                text = r.read_string(BIG_INFO_STRING)
                data_count += len(text) + 1
                if data_count > MAX_GAMESTATE_CHARS:
                    raise r.error(f"configstrings of at most {MAX_GAMESTATE_CHARS} characters in all")
                self.configstrings[index] = text
            elif cmd == SVC_BASELINE:
                number = r.read_bits(GENTITYNUM_BITS)
                if number >= MAX_GENTITIES:
                    raise r.error(f"a baseline entity number below {MAX_GENTITIES}", str(number))
                state = read_delta_entity(r, self.null_entity, self.tables.entity)
                if state is None:
                    self.baselines.pop(number, None)
                else:
                    self.baselines[number] = state
            else:
                raise r.error("svc_configstring, svc_baseline or svc_EOF in the gamestate", str(cmd))
        client_num = r.read_long()
        checksum_feed = r.read_long()
        numbers = sorted(self.baselines)
        raw = state_rows((self.baselines[n] for n in numbers), len(numbers), len(self.null_entity))
        self.gamestates.append(GameState(
            message=r.message, sequence=r.sequence, first_snapshot=len(self.out.server_time),
            command_sequence=command_sequence,
            configstrings=MappingProxyType(dict(self.configstrings)),
            baselines=_read_only(entity_records(np.array(numbers, np.int32), raw, self.tables.entity)),
            client_num=client_num, checksum_feed=checksum_feed))

    def voip(self, r: BitReader) -> None:
        """``CL_ParseVoip``: sender, generation, sequence, frames, size and flags, then ``size`` bytes of audio;
        a header cut by the end of the message ends it early, like the engine."""
        header = (r.read_short(), r.read_byte(), r.read_long(), r.read_byte(), r.read_short())
        r.read_bits(VOIP_FLAGCNT)
        self.voip_packets += 1
        if min(header) >= 0:
            r.read_data(header[-1])

    def server_command(self, r: BitReader) -> None:
        sequence = r.read_long()
        text = r.read_string()
        self.received_commands += 1
        if sequence <= self.command_sequence:
            return
        self.command_sequence = sequence
        args = tokenize(text)
        snapshot = len(self.out.server_time)
        self.commands.append(ServerCommand(r.message, sequence, snapshot, text, args))
        if args and args[0] in ("bcs0", "bcs1", "bcs2"):
            line = self.big_configstring.feed(args)
            if line is None:
                return
            args = tokenize(line)
        if args and args[0] == "cs":
            self._configstring(r, args, snapshot)

    def _configstring(self, r: BitReader, args: tuple[str, ...], snapshot: int) -> None:
        match = re.match(r"[+-]?\d+", args[1] if len(args) > 1 else "")
        index = int(match.group()) if match else 0
        if not 0 <= index < MAX_CONFIGSTRINGS:
            self.warnings.append(f"{self.path}: message {r.message}: configstring index {index} out of range; "
                                 "command ignored")
            return
        value = configstring_value(args)
        if self.configstrings.get(index, "") == value:
            return
        self.configstrings[index] = value
        self.changes.append(ConfigstringChange(r.message, snapshot, index, value))

    # -- snapshots --------------------------------------------------------------------------------------------------
    def snapshot(self, r: BitReader) -> None:
        server_time = r.read_long()
        delta = r.read_byte()
        sequence = r.sequence
        delta_num = sequence - delta if delta else -1
        flags = r.read_byte()
        old: _Frame | None = None
        valid, why = True, ""
        if delta_num > 0:
            old = self.ring[delta_num & (PACKET_BACKUP - 1)]
            if old is None:
                valid, why = False, "from a frame never received"
            elif old.sequence != delta_num:
                valid, why = False, "from a frame too old for the snapshot ring"
            elif self.parse_entities - old.first_parse_entity > MAX_PARSE_ENTITIES - MAX_SNAPSHOT_ENTITIES:
                valid, why = False, "from a frame whose entities the parse ring has overwritten"
        length = r.read_byte()
        if length > MAX_MAP_AREA_BYTES:
            raise r.error(f"an area mask of at most {MAX_MAP_AREA_BYTES} bytes", str(length))
        areamask = r.read_data(length)
        player = read_delta_player(r, old.player if old else self.null_player, self.tables.player)
        entities = self.packet_entities(r, old.entities if old else [])
        first = self.parse_entities
        self.parse_entities += len(entities)
        if not valid:
            self.warnings.append(f"{self.path}: message {r.message}: snapshot delta-coded {why} "
                                 f"(delta {delta_num}); dropped like the engine does")
            return
        self.ring[sequence & (PACKET_BACKUP - 1)] = _Frame(sequence, player, entities, first)
        out = self.out
        out.message.append(r.message)
        out.sequence.append(sequence)
        out.server_time.append(server_time)
        out.delta_num.append(delta_num)
        out.flags.append(flags)
        out.areamask.append(areamask)
        out.player.append(player)
        out.entity_counts.append(len(entities))
        out.entities.extend(entities)
        check_states(self.path, FMT, len(out.entities), self.max_states)

    def packet_entities(self, r: BitReader, old: list[_Entity]) -> list[_Entity]:
        table = self.tables.entity
        new: list[_Entity] = []
        old_index = 0
        old_count = len(old)
        old_num = old[0][0] if old_count else _NO_ENTITY
        end = r.size << 3  # r.overflowed(), inlined
        windows = r.windows
        ten = prefixed_table(GENTITYNUM_BITS - 8)
        while True:
            p = r.pos
            if p + 2 < end:  # r.read_bits(GENTITYNUM_BITS), inlined where it reads inside the message
                e = ten[(windows[p >> 3] >> (p & 7)) & 0x1FFF]
                number = e >> 5
                r.pos = p + (e & 31)
            else:
                number = r.read_bits(GENTITYNUM_BITS)
            if number == ENTITYNUM_NONE:
                break
            if r.pos >= end:
                raise r.error("the end (entity 1023) of the packet entities before the end of the message")
            if number >= MAX_GENTITIES:
                raise r.error(f"an entity number below {MAX_GENTITIES}", str(number))
            while old_num < number:
                new.append(old[old_index])
                old_index += 1
                old_num = old[old_index][0] if old_index < old_count else _NO_ENTITY
            if old_num == number:
                entry = old[old_index]
                state = read_delta_entity(r, entry[1], table)
                if state is entry[1]:
                    new.append(entry)
                elif state is not None:
                    new.append((number, state))
                old_index += 1
                old_num = old[old_index][0] if old_index < old_count else _NO_ENTITY
            else:
                base = self.baselines.get(number, self.null_entity)
                state = read_delta_entity(r, base, table)
                if state is base:
                    new.append(self._base_entry(number, base))
                elif state is not None:
                    new.append((number, state))
        new.extend(old[old_index:])
        return new

    def _base_entry(self, number: int, base: State) -> _Entity:
        """The one ``(number, base)`` entry of an entity delta-coded from its baseline unchanged, so that every row
        of one (number, state) pair is the same tuple object (:meth:`_distinct_states`)."""
        entry = self._base_entries.get(number)
        if entry is None or entry[1] is not base:
            entry = self._base_entries[number] = (number, base)
        return entry

    # -- result -----------------------------------------------------------------------------------------------------
    def snapshots(self) -> Snapshots:
        out = self.out
        count = len(out.server_time)
        states, index = self._distinct_states()
        width = len(self.tables.entity.bits)
        raw = state_rows((state for _, state in states), len(states), width)
        numbers = np.array([number for number, _ in states], np.int32)
        players = state_rows(out.player, count, len(self.null_player))
        areamask = np.zeros((count, MAX_MAP_AREA_BYTES), np.uint8)
        for i, mask in enumerate(out.areamask):
            areamask[i, :len(mask)] = np.frombuffer(mask, np.uint8)
        offsets = np.zeros(count + 1, np.int64)
        np.cumsum(out.entity_counts, out=offsets[1:])
        return Snapshots(
            message=_read_only(np.array(out.message, np.int32)), sequence=_read_only(np.array(out.sequence, np.int32)),
            server_time=_read_only(np.array(out.server_time, np.int32)),
            delta_num=_read_only(np.array(out.delta_num, np.int32)), flags=_read_only(np.array(out.flags, np.int32)),
            areamask=_read_only(areamask), player=_read_only(player_records(players, self.tables.player)),
            entity_offsets=_read_only(offsets), states=_read_only(entity_records(numbers, raw, self.tables.entity)),
            entity_index=_read_only(index))

    def _distinct_states(self) -> tuple[list[_Entity], np.ndarray]:
        """(each distinct (number, state) kept, in order of first appearance; i4 [rows] the one of each row).  A state
        copied forward is the same array object (:func:`.delta.read_delta_entity` returns its base unchanged), so
        rows are told apart by number and object: values are never compared.  Each (number, state) pair is one
        tuple object (a row copied forward is its entry, :meth:`_base_entry`), so the tuples' identities say it."""
        entities = self.out.entities
        keys = np.fromiter(map(id, entities), np.uint64, len(entities))
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")            # distinct entries in order of first appearance
        rank = np.empty(len(order), np.int32)
        rank[order] = np.arange(len(order), dtype=np.int32)
        return [entities[k] for k in first[order].tolist()], rank[inverse.reshape(-1)]


def _read_only(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def protocol_from_serverinfo(data: bytes, path: str = "<bytes>") -> int | None:
    """The protocol the first gamestate's serverinfo names (``protocol`` or ``com_protocol``), for a demo whose
    name has no ``.dm_NN`` extension; ``None`` if the first message decodes as no known protocol's gamestate.
    Each wire format is tried in turn (its baselines need its own entity table): the first whose gamestate
    decodes and whose serverinfo names a protocol of that format wins, else the first protocol named."""
    framing = split_messages(data, path)
    if not framing.blocks:
        return None
    block = framing.blocks[0]
    named: int | None = None
    for candidate in (68, 73, 90, 91):
        tables = tables_for(candidate)
        assert tables is not None
        decoder = _Decoder(path, candidate, tables)
        reader = BitReader(data[block.offset:block.offset + block.length], path=path, sequence=block.sequence,
                           file_offset=block.offset, table=decoder.table)
        try:
            reader.run(decoder.message)
        except FormatError:
            continue
        if not decoder.gamestates:
            continue
        fields = decoder.gamestates[0].configstrings.get(CS_SERVERINFO, "").split("\\")[1:]
        info = dict(zip(fields[::2], fields[1::2]))
        value = info.get("protocol", info.get("com_protocol", ""))
        if not (value.isascii() and value.isdigit()):
            continue
        if tables_for(int(value)) is tables:
            return int(value)
        named = int(value) if named is None else named
    return named


def parse_demo(data: bytes, path: str = "<bytes>", protocol: int | None = None, *,
               keep_before_error: bool = False) -> Quake3Demo:
    """Decode a whole Quake III demo.  ``protocol`` defaults to the one the ``.dm_NN`` extension of ``path``
    names, else to the one the serverinfo names; see the module docstring for what is decoded and how bad input
    is reported.  With ``keep_before_error`` a message that does not decode ends the demo instead of raising:
    the messages before it are returned, ``truncated`` set, the error text among the warnings."""
    if protocol is None:
        protocol = protocol_from_name(path)
    if protocol is None:
        protocol = protocol_from_serverinfo(data, path)
    tables = tables_for(protocol) if protocol is not None else None
    if protocol is None or tables is None:
        raise BadMagicError(path, FMT, None, "a demo of protocol 66, 67, 68, 71, 73, 90 or 91 (named by its "
                            ".dm_NN extension or its serverinfo)",
                            "no protocol" if protocol is None else f"protocol {protocol}")
    framing = split_messages(data, path)
    decoder = _Decoder(path, protocol, tables)
    with _no_cyclic_gc():
        decoded, cut = _decode_messages(data, framing, decoder, keep_before_error)
        snapshots = decoder.snapshots()
    if decoder.voip_packets:
        decoder.warnings.append(f"{path}: {decoder.voip_packets} VoIP packets skipped (audio not decoded)")
    if cut is not None:
        message = f"{path}: demo is truncated: {cut}; decoded the {decoded} messages before"
        decoder.warnings.insert(0, message)
        warnings.warn(message, stacklevel=2)
    return Quake3Demo(
        path=path, protocol=protocol, num_messages=decoded, gamestates=tuple(decoder.gamestates),
        snapshots=snapshots, commands=tuple(decoder.commands), received_commands=decoder.received_commands,
        configstring_changes=tuple(decoder.changes), truncated=cut is not None, warnings=tuple(decoder.warnings))


def _decode_messages(data: bytes, framing: Framing, decoder: _Decoder,
                     keep_before_error: bool) -> tuple[int, str | None]:
    """Every message of ``framing`` through ``decoder``: (how many decoded, why the demo ends early or ``None``)."""
    file_bits = FileBits(data)
    for index, block in enumerate(framing.blocks):
        reader = BitReader(data[block.offset:block.offset + block.length], path=decoder.path, message=index,
                           sequence=block.sequence, file_offset=block.offset, table=decoder.table,
                           utf8=decoder.protocol in UTF8_PROTOCOLS,
                           prepared=file_bits.message(block.offset, block.length))
        mark = decoder.mark() if keep_before_error else ()
        try:
            reader.run(decoder.message)
        except MessageFormatError as error:
            if not keep_before_error:
                raise
            decoder.rewind(mark)
            return index, f"message {index} does not decode ({error})"
    return len(framing.blocks), framing.cut


@contextlib.contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """No cyclic garbage collection while a demo decodes: it allocates hundreds of thousands of state lists and
    entries that hold no cycles, and every full collection would only walk them all again (about 7% of the decode
    time); the collector's earlier state comes back afterwards, also on an error."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
