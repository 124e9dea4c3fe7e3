"""Writers for tiny synthetic Quake III demos: the engine's static Huffman code rebuilt from its byte
frequencies, a ``MSG_WriteBits`` encoder, entity / player-state delta writers and demo framing.

Usage::

    w = Q3Message()                                    # one server message, Huffman mode
    w.long(0)                                          # reliableAcknowledge
    w.gamestate(configstrings={0: "\\mapname\\test"}, baselines={5: {"eType": 2}}, client_num=0)
    w.byte(SVC_EOF)
    data = demo_file([(1, w.data())])                  # (sequence, message) blocks + the (-1, -1) end marker

States are dicts of engine field names (``"pos.trBase[0]"``, ``"eType"``, ``"stats"`` …) to values; floats are
Python floats.  The tree is built here like ``Huff_addRef`` does (an adaptive Huffman tree fed the frequency
table in byte order), independently of the decoder's stored code table, so the round trips test both.
"""

from __future__ import annotations

import functools
import struct

from assets_loader.demos.quake3.protocol import (
    MAX_PS_ARRAY,
    PLAYER_ARRAYS,
    SVC_BASELINE,
    SVC_CONFIGSTRING,
    SVC_EOF,
    SVC_GAMESTATE,
    SVC_SERVERCOMMAND,
    SVC_SNAPSHOT,
    FieldTable,
)

__all__ = ["SVC_EOF", "SVC_SNAPSHOT", "BitWriter", "Q3Message", "demo_file", "engine_codes", "float_bits"]

#: ``msg_hData``: how often each byte value was seen when the engine's code was designed (spec 004 section 7).
BYTE_COUNTS: tuple[int, ...] = (
    0x3D1CB, 0x0A0E9, 0x01894, 0x01BC2, 0x00E92, 0x00EA6, 0x017DE, 0x05AF3, 0x08225, 0x01B26, 0x01E9E, 0x025F2,
    0x02429, 0x0436B, 0x00F6D, 0x006F2, 0x02060, 0x00644, 0x00636, 0x0067F, 0x0044C, 0x004BD, 0x004D6, 0x0046E,
    0x006D5, 0x00423, 0x004DE, 0x0047D, 0x004F9, 0x01186, 0x00AF5, 0x00D90, 0x0553B, 0x00487, 0x00686, 0x0042A,
    0x00413, 0x003F4, 0x0041D, 0x0042E, 0x006BE, 0x00378, 0x0049C, 0x00352, 0x003C0, 0x0030C, 0x006D8, 0x00CE0,
    0x02986, 0x011A2, 0x016F9, 0x00A7D, 0x0122A, 0x00EFD, 0x0082D, 0x0074B, 0x00A18, 0x0079D, 0x007B4, 0x003AC,
    0x0046E, 0x006FC, 0x00686, 0x004B6, 0x01657, 0x017F0, 0x01C36, 0x019FE, 0x00E7E, 0x00ED3, 0x005D4, 0x005F4,
    0x008A7, 0x00474, 0x0054B, 0x003CB, 0x00884, 0x004E0, 0x00530, 0x004AB, 0x006EA, 0x00436, 0x004F0, 0x004F2,
    0x00490, 0x003C5, 0x00483, 0x004A2, 0x00543, 0x004CC, 0x005F9, 0x00640, 0x00A39, 0x00800, 0x009F2, 0x00CCB,
    0x0096A, 0x00E01, 0x009C8, 0x00AF0, 0x00A73, 0x01802, 0x00E4F, 0x00B18, 0x037AD, 0x00C5C, 0x008AD, 0x00697,
    0x00C88, 0x00AB3, 0x00DB8, 0x012BC, 0x00FFB, 0x00DBB, 0x014A8, 0x00FB0, 0x01F01, 0x0178F, 0x014F0, 0x00F54,
    0x0131C, 0x00E9F, 0x011D6, 0x012C7, 0x016DC, 0x01900, 0x01851, 0x02063, 0x05ACB, 0x01E9E, 0x01BA1, 0x022E7,
    0x0153D, 0x01183, 0x00E39, 0x01488, 0x014C0, 0x014D0, 0x014FA, 0x00DA4, 0x0099A, 0x0069E, 0x0071D, 0x00849,
    0x0077C, 0x0047D, 0x005EC, 0x00557, 0x004D4, 0x00405, 0x004EA, 0x00450, 0x004DD, 0x003EE, 0x0047D, 0x00401,
    0x004D9, 0x003B8, 0x00507, 0x003E5, 0x006B1, 0x003F1, 0x004A3, 0x0036F, 0x0044B, 0x003A1, 0x00436, 0x003B7,
    0x00678, 0x003A2, 0x00481, 0x00406, 0x004EE, 0x00426, 0x004BE, 0x00424, 0x00655, 0x003A2, 0x00452, 0x00390,
    0x0040A, 0x0037C, 0x00486, 0x003DE, 0x00497, 0x00352, 0x00461, 0x00387, 0x0043F, 0x00398, 0x00478, 0x00420,
    0x00D86, 0x008C0, 0x0112D, 0x02F68, 0x01E4E, 0x00541, 0x0051B, 0x00CCE, 0x0079E, 0x00376, 0x003FF, 0x00458,
    0x00435, 0x00412, 0x00425, 0x0042F, 0x005CC, 0x003E9, 0x00448, 0x00393, 0x0041C, 0x003E3, 0x0042E, 0x0036C,
    0x00457, 0x00353, 0x00423, 0x00325, 0x00458, 0x0039B, 0x0044F, 0x00331, 0x0076B, 0x00750, 0x003D0, 0x00349,
    0x00467, 0x003BC, 0x00487, 0x003B6, 0x01E6F, 0x003BA, 0x00509, 0x003A5, 0x00467, 0x00C87, 0x003FC, 0x0039F,
    0x0054B, 0x00300, 0x00410, 0x002E9, 0x003B8, 0x00325, 0x00431, 0x002E4, 0x003F5, 0x00325, 0x003F0, 0x0031C,
    0x003E4, 0x00421, 0x02CC1, 0x034C0,
)


class _Node:
    __slots__ = ("block", "left", "next", "parent", "prev", "right", "symbol", "weight")

    def __init__(self, symbol: int, weight: int) -> None:
        self.left: _Node | None = None
        self.right: _Node | None = None
        self.parent: _Node | None = None
        self.next: _Node | None = None
        self.prev: _Node | None = None
        self.block: list[_Node | None] = [None]  # shared by the nodes of one weight: its highest-ranked node
        self.symbol = symbol
        self.weight = weight


class _AdaptiveTree:
    """The FGK adaptive Huffman tree of ``huffman.c``: a sibling list ordered by weight (``next`` = heavier),
    the "not yet transmitted" leaf at its light end, and blocks of equal weight led by their highest node."""

    def __init__(self) -> None:
        self.nyt = _Node(256, 0)
        self.root = self.nyt
        self.leaves: dict[int, _Node] = {}

    def _swap(self, a: _Node, b: _Node) -> None:
        pa, pb = a.parent, b.parent
        for parent, old, new in ((pa, a, b), (pb, b, a)):
            if parent is None:
                self.root = new
            elif parent.left is old:
                parent.left = new
            else:
                parent.right = new
        a.parent, b.parent = pb, pa

    @staticmethod
    def _swap_list(a: _Node, b: _Node) -> None:
        a.next, b.next = b.next, a.next
        a.prev, b.prev = b.prev, a.prev
        if a.next is a:
            a.next = b
        if b.next is b:
            b.next = a
        for node in (a, b):
            if node.next is not None:
                node.next.prev = node
            if node.prev is not None:
                node.prev.next = node

    def _increment(self, node: _Node | None) -> None:
        if node is None:
            return
        if node.next is not None and node.next.weight == node.weight:
            leader = node.block[0]
            assert leader is not None
            if leader is not node.parent:
                self._swap(leader, node)
            self._swap_list(leader, node)
        node.block[0] = node.prev if node.prev is not None and node.prev.weight == node.weight else None
        node.weight += 1
        if node.next is not None and node.next.weight == node.weight:
            node.block = node.next.block
        else:
            node.block = [node]
        parent = node.parent
        if parent is not None:
            self._increment(parent)
            if node.prev is parent:
                self._swap_list(node, parent)
                if node.block[0] is node:
                    node.block[0] = parent

    def add(self, symbol: int) -> None:
        """``Huff_addRef``: one more occurrence of ``symbol``."""
        leaf = self.leaves.get(symbol)
        if leaf is not None:
            self._increment(leaf)
            return
        nyt = self.nyt
        inner = _Node(-1, 1)
        leaf = _Node(symbol, 1)
        first = nyt.next
        inner.next, inner.prev = first, nyt
        if first is not None:
            first.prev = inner
            inner.block = first.block if first.weight == 1 else [inner]
        else:
            inner.block = [inner]
        leaf.next, leaf.prev, inner.prev = inner, nyt, leaf
        leaf.block = inner.block
        nyt.next = leaf
        parent = nyt.parent
        if parent is None:
            self.root = inner
        elif parent.left is nyt:
            parent.left = inner
        else:
            parent.right = inner
        inner.left, inner.right, inner.parent = nyt, leaf, parent
        nyt.parent = leaf.parent = inner
        self.leaves[symbol] = leaf
        self._increment(parent)

    def path(self, node: _Node) -> str:
        bits = []
        while node.parent is not None:
            bits.append("1" if node.parent.right is node else "0")
            node = node.parent
        return "".join(reversed(bits))


@functools.cache
def engine_codes() -> tuple[tuple[str, ...], str]:
    """The paths of bytes 0..255 and of the NYT leaf in the tree ``Huff_Init`` builds (takes about 2 s)."""
    tree = _AdaptiveTree()
    for symbol, count in enumerate(BYTE_COUNTS):
        for _ in range(count):
            tree.add(symbol)
    return tuple(tree.path(tree.leaves[s]) for s in range(256)), tree.path(tree.nyt)


def float_bits(value: float) -> int:
    """IEEE bit pattern of a float32 as a signed int32 (what the engine's ``FIELD_INTEGER`` sees)."""
    return struct.unpack("<i", struct.pack("<f", value))[0]


class BitWriter:
    """``MSG_WriteBits`` in Huffman mode: low ``n & 7`` bits raw, then whole bytes Huffman coded."""

    def __init__(self, codes: tuple[str, ...] | None = None) -> None:
        self.codes = codes if codes is not None else engine_codes()[0]
        self.bits: list[int] = []

    def raw(self, value: int, count: int) -> None:
        self.bits.extend((value >> i) & 1 for i in range(count))

    def write_bits(self, value: int, count: int) -> None:
        n = abs(count)
        value &= (1 << n) - 1
        low = n & 7
        self.raw(value, low)
        value >>= low
        for _ in range((n - low) // 8):
            self.bits.extend(int(c) for c in self.codes[value & 0xFF])
            value >>= 8

    def data(self) -> bytes:
        """The message bytes: ``cursize = (bit >> 3) + 1`` like the engine, so the last byte always has room."""
        out = bytearray((len(self.bits) >> 3) + 1)
        for i, b in enumerate(self.bits):
            out[i >> 3] |= b << (i & 7)
        return bytes(out)


class Q3Message(BitWriter):
    """A server message: primitive writes plus gamestate, server command and snapshot writers."""

    def byte(self, v: int) -> None:
        self.write_bits(v, 8)

    def short(self, v: int) -> None:
        self.write_bits(v, 16)

    def long(self, v: int) -> None:
        self.write_bits(v, 32)

    def string(self, text: str) -> None:
        for c in text.encode("latin-1"):
            self.byte(c)
        self.byte(0)

    def server_command(self, sequence: int, text: str) -> None:
        self.byte(SVC_SERVERCOMMAND)
        self.long(sequence)
        self.string(text)

    def gamestate(self, table: FieldTable, *, command_sequence: int = 0, configstrings: dict[int, str],
                  baselines: dict[int, dict[str, float]], client_num: int = 0, checksum_feed: int = 0) -> None:
        self.byte(SVC_GAMESTATE)
        self.long(command_sequence)
        for index, text in configstrings.items():
            self.byte(SVC_CONFIGSTRING)
            self.short(index)
            self.string(text)
        for number, state in baselines.items():
            self.byte(SVC_BASELINE)
            self.write_bits(number, 10)
            self.delta_entity(table, {}, state, force=True)
        self.byte(SVC_EOF)
        self.long(client_num)
        self.long(checksum_feed)

    def delta_entity(self, table: FieldTable, old: dict[str, float] | None, new: dict[str, float] | None,
                     *, force: bool) -> bool:
        """``MSG_WriteDeltaEntity`` after the entity number (``new`` None = removed).  Returns False (and writes
        nothing) for an unchanged entity when not ``force``d."""
        if new is None:
            self.raw(1, 1)
            return True
        base = old or {}
        changed = [i for i, name in enumerate(table.names) if _value(base, name) != _value(new, name)]
        if not changed:
            if not force:
                return False
            self.raw(0, 2)
            return True
        self.raw(0, 1)
        self.raw(1, 1)
        self.byte(changed[-1] + 1)
        for i in range(changed[-1] + 1):
            name, width = table.names[i], table.bits[i]
            value = _value(new, name)
            if value == _value(base, name):
                self.raw(0, 1)
                continue
            self.raw(1, 1)
            if value == 0:
                self.raw(0, 1)
                continue
            self.raw(1, 1)
            self._field(value, width)
        return True

    def _field(self, value: float, width: int) -> None:
        if width:
            self.write_bits(int(value), width)
        elif float(value).is_integer() and -4096 <= value < 4096:
            self.raw(0, 1)
            self.write_bits(int(value) + 4096, 13)
        else:
            self.raw(1, 1)
            self.write_bits(float_bits(value), 32)

    def delta_player(self, table: FieldTable, old: dict[str, float], new: dict[str, float]) -> None:
        """``MSG_WriteDeltaPlayerstate``."""
        changed = [i for i, name in enumerate(table.names) if _value(old, name) != _value(new, name)]
        count = changed[-1] + 1 if changed else 0
        self.byte(count)
        for i in range(count):
            name = table.names[i]
            if _value(old, name) == _value(new, name):
                self.raw(0, 1)
                continue
            self.raw(1, 1)
            self._field(_value(new, name), table.bits[i])
        masks = []
        for array, _ in PLAYER_ARRAYS:
            a, b = _array(old, array), _array(new, array)
            masks.append(sum(1 << k for k in range(MAX_PS_ARRAY) if a[k] != b[k]))
        if not any(masks):
            self.raw(0, 1)
            return
        self.raw(1, 1)
        for (array, width), mask in zip(PLAYER_ARRAYS, masks):
            if not mask:
                self.raw(0, 1)
                continue
            self.raw(1, 1)
            self.write_bits(mask, 16)
            values = _array(new, array)
            for k in range(MAX_PS_ARRAY):
                if mask >> k & 1:
                    self.write_bits(values[k], width)

    def snapshot(self, table_entity: FieldTable, table_player: FieldTable, *, server_time: int, delta: int,
                 old_player: dict[str, float], player: dict[str, float],
                 old_entities: dict[int, dict[str, float]], entities: dict[int, dict[str, float]],
                 baselines: dict[int, dict[str, float]], flags: int = 0, areamask: bytes = b"\xff") -> None:
        """``SV_WriteSnapshotToClient`` + ``SV_EmitPacketEntities`` (``delta`` 0 = not delta-coded)."""
        self.byte(SVC_SNAPSHOT)
        self.long(server_time)
        self.byte(delta)
        self.byte(flags)
        self.byte(len(areamask))
        for b in areamask:
            self.byte(b)
        self.delta_player(table_player, old_player, player)
        for number in sorted(set(old_entities) | set(entities)):
            if number in entities and number in old_entities:
                delta = Q3Message(self.codes)
                if delta.delta_entity(table_entity, old_entities[number], entities[number], force=False):
                    self.write_bits(number, 10)
                    self.bits.extend(delta.bits)
            elif number in entities:
                self.write_bits(number, 10)
                self.delta_entity(table_entity, baselines.get(number), entities[number], force=True)
            else:
                self.write_bits(number, 10)
                self.raw(1, 1)
        self.write_bits(1023, 10)


def _value(state: dict[str, float], name: str) -> float:
    return state.get(name, 0)


def _array(state: dict[str, float], name: str) -> list[int]:
    values = state.get(name)
    return list(values) if isinstance(values, (list, tuple)) else [0] * MAX_PS_ARRAY  # type: ignore[arg-type]


def demo_file(blocks: list[tuple[int, bytes]], *, end_marker: bool = True) -> bytes:
    """Frame ``(sequence, message)`` blocks as a ``.dm_68`` file."""
    out = bytearray()
    for sequence, data in blocks:
        out += struct.pack("<ii", sequence, len(data)) + data
    if end_marker:
        out += struct.pack("<ii", -1, -1)
    return bytes(out)
