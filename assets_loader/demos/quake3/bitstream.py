"""Reading one Quake III message: raw bits interleaved with Huffman-coded bytes, exactly as ``MSG_ReadBits``.

A demo message is a bit stream read least-significant bit first, in Huffman mode from its first bit
(``CL_ParseServerMessage`` calls ``MSG_Bitstream`` before reading anything): a read of ``n`` bits takes the low
``n & 7`` bits raw and the remaining ``n >> 3`` bytes as Huffman codes (:mod:`.huffman`), low byte first.  A
negative ``n`` reads ``-n`` bits and sign-extends them.  The engine's end-of-message test is
``readcount > cursize`` with ``readcount = (bit >> 3) + 1``, i.e. the bit position has reached the last byte's
end (:meth:`BitReader.overflowed`).

:class:`BitReader` keeps two precomputed views of the message so that every read is a few list indexings:
``bits`` (one 0/1 byte per bit, for the one-bit flags that make up most of a delta) and 30-bit ``windows`` (the
four bytes starting at each byte offset, cut to the 30 bits of a one-digit Python int: at least 23 bits from
any bit, for multi-bit raw reads and the Huffman table look-ups).  A read that runs
past the data raises :class:`MessageFormatError` (the views end with the message, and an index past them is
turned into that error by :meth:`BitReader.run`).

References: ioquake3 ``code/qcommon/msg.c`` (``MSG_ReadBits``, ``MSG_ReadByte``/``Short``/``Long``,
``MSG_ReadString``/``BigString``, ``MSG_ReadData``); spec 004 sections 2, 4 and 5.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import numpy as np

from ...errors import FormatError
from .huffman import MAX_CODE_BITS, decode_table

__all__ = ["BIG_INFO_STRING", "FMT", "MAX_STRING_CHARS", "BitReader", "FileBits", "MessageFormatError"]

FMT = "Quake III demo"

#: ``MSG_ReadString`` / ``MSG_ReadBigString`` buffer sizes (the terminating zero included).
MAX_STRING_CHARS = 1024
BIG_INFO_STRING = 8192

_CODE_MASK = (1 << MAX_CODE_BITS) - 1
_WINDOW_MASK = (1 << 30) - 1
#: For a read of n bits, the bit positions of its Huffman-coded bytes (after the n & 7 raw bits).
_BYTE_SHIFTS: tuple[tuple[int, ...], ...] = tuple(tuple(range(n & 7, n, 8)) for n in range(33))
_T = TypeVar("_T")


class MessageFormatError(FormatError):
    """A demo message does not decode.

    ``message`` is the 0-based index of the message in the file, ``sequence`` its server message number,
    ``bit`` the bit offset inside the message data where the problem was found; ``offset`` is the byte offset
    of that bit in the file.
    """

    def __init__(self, path: str, message: int, sequence: int, bit: int, file_offset: int, expected: str,
                 found: str | None = None) -> None:
        super().__init__(path, FMT, file_offset, f"{expected} (message {message}, sequence {sequence}, bit {bit})",
                         found)
        self.message = message
        self.sequence = sequence
        self.bit = bit


class FileBits:
    """The bits and byte windows of a whole file, computed once (numpy), from which each message's reader takes its
    own (:meth:`message`) instead of unpacking its bytes again."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        raw = np.frombuffer(data, np.uint8)
        self._bits = np.unpackbits(raw, bitorder="little")
        wide = np.zeros(len(data) + 3, np.uint32)
        wide[: len(data)] = raw
        self._windows = (wide[:-3] | wide[1:-2] << 8 | wide[2:-1] << 16 | wide[3:] << 24) & _WINDOW_MASK

    def message(self, offset: int, length: int) -> tuple[bytes, list[int]]:
        """(one bit a byte, LSB first; for each byte, it and the next three as one 30-bit number) of the
        ``length`` bytes at ``offset``: bytes past the message read as zeros, as if it were alone."""
        end = min(offset + length, len(self.data))
        length = end - offset
        bits = self._bits[offset << 3:end << 3].tobytes()
        windows: list[int] = self._windows[offset:end].tolist()
        if length >= 3:
            windows[-3] &= 0xFFFFFF
            windows[-2] &= 0xFFFF
            windows[-1] &= 0xFF
        else:
            for k in range(1, length + 1):
                windows[-k] = int.from_bytes(self.data[end - k:end], "little")
        return bits, windows


class BitReader:
    """Reads one message's bits like the engine's ``msg_t`` in Huffman mode.

    ``pos`` is the engine's ``msg->bit``.  Hot loops may read one-bit flags straight from ``bits[pos]``, and
    Huffman bytes through ``table`` (:func:`.huffman.decode_table`) from ``windows``, and advance ``pos``
    themselves (:mod:`.delta` does); everything else goes through the methods.
    """

    __slots__ = ("bits", "file_offset", "message", "path", "pos", "sequence", "size", "table", "utf8",
                 "windows")

    def __init__(self, data: bytes, *, path: str = "<bytes>", message: int = 0, sequence: int = 0,
                 file_offset: int = 0, table: list[int] | None = None, utf8: bool = False,
                 prepared: tuple[bytes, list[int]] | None = None) -> None:
        self.path = path
        self.utf8 = utf8
        self.message = message
        self.sequence = sequence
        self.file_offset = file_offset
        self.size = len(data)
        self.bits, self.windows = prepared if prepared is not None else FileBits(data).message(0, len(data))
        self.pos = 0
        self.table = table if table is not None else decode_table()

    # -- errors -------------------------------------------------------------------------------------------------
    def error(self, expected: str, found: str | None = None) -> MessageFormatError:
        """A :class:`MessageFormatError` at the current bit position (to be raised by the caller)."""
        return MessageFormatError(self.path, self.message, self.sequence, self.pos,
                                  self.file_offset + min(self.pos >> 3, self.size), expected, found)

    def run(self, parse: Callable[[BitReader], _T]) -> _T:
        """Call ``parse(self)``; a read past the end of the message becomes a :class:`MessageFormatError`."""
        try:
            return parse(self)
        except IndexError:
            raise self.error("more data: a read ran past the end of the message",
                             f"{self.size} bytes") from None

    def overflowed(self) -> bool:
        """The engine's ``msg->readcount > msg->cursize``: the last byte of the message has been consumed."""
        return self.pos >= self.size << 3

    # -- MSG_ReadBits and its wrappers --------------------------------------------------------------------------
    def read_bits(self, count: int) -> int:
        """``MSG_ReadBits(msg, count)``: ``count`` in 1..32 unsigned (32 bits give a signed int32), -31..-1
        signed."""
        signed = count < 0
        n = -count if signed else count
        windows = self.windows
        p = self.pos
        raw = n & 7
        if raw:
            value = (windows[p >> 3] >> (p & 7)) & ((1 << raw) - 1)
            p += raw
        else:
            value = 0
        table = self.table
        for shift in _BYTE_SHIFTS[n]:
            entry = table[(windows[p >> 3] >> (p & 7)) & _CODE_MASK]
            value |= (entry >> 4) << shift
            p += entry & 15
        self.pos = p
        if n == 32:
            value &= 0xFFFFFFFF
            return value - (1 << 32) if value & 0x80000000 else value
        if signed and value & (1 << (n - 1)):
            value |= -(1 << n)
        return value

    def read_bit(self) -> int:
        """One raw bit (``MSG_ReadBits(msg, 1)``)."""
        p = self.pos
        self.pos = p + 1
        return self.bits[p]

    def read_byte(self) -> int:
        """``MSG_ReadByte``: 0..255, or -1 once the message is exhausted (one Huffman code: 8 bits have no raw
        part)."""
        p = self.pos
        entry = self.table[(self.windows[p >> 3] >> (p & 7)) & _CODE_MASK]
        p += entry & 15
        self.pos = p
        return -1 if p >= self.size << 3 else (entry >> 4) & 0xFF

    def read_short(self) -> int:
        """``MSG_ReadShort``: a signed 16-bit value, or -1 once the message is exhausted."""
        c = self.read_bits(-16)
        return -1 if self.overflowed() else c

    def read_long(self) -> int:
        """``MSG_ReadLong``: a signed 32-bit value, or -1 once the message is exhausted (:meth:`read_bits` of 32
        bits, inlined: four Huffman bytes)."""
        windows = self.windows
        table = self.table
        p = self.pos
        value = 0
        for shift in (0, 8, 16, 24):
            entry = table[(windows[p >> 3] >> (p & 7)) & _CODE_MASK]
            value |= (entry >> 4) << shift
            p += entry & 15
        self.pos = p
        if p >= self.size << 3:
            return -1
        value &= 0xFFFFFFFF
        return value - (1 << 32) if value & 0x80000000 else value

    def read_string(self, size: int = MAX_STRING_CHARS) -> str:
        """``MSG_ReadString`` (``size`` = :data:`BIG_INFO_STRING` for ``MSG_ReadBigString``): bytes up to a zero
        or the end of the message, at most ``size - 1`` of them; '%' and bytes above 127 become '.', except
        that a reader made with ``utf8`` (Quake Live's protocol 91, UDT ``QL_Unicode``) keeps those bytes and
        reads the string as UTF-8 (a bad sequence as U+FFFD)."""
        out = bytearray()
        high = 256 if self.utf8 else 128
        windows = self.windows
        table = self.table
        end = self.size << 3
        p = self.pos
        try:
            while len(out) < size - 1:  # self.read_byte(), inlined
                entry = table[(windows[p >> 3] >> (p & 7)) & _CODE_MASK]
                p += entry & 15
                c = (entry >> 4) & 0xFF
                if p >= end or not c:
                    break
                out.append(46 if c == 37 or c >= high else c)
        finally:
            self.pos = p
        return out.decode("utf-8", "replace") if self.utf8 else out.decode("latin-1")

    def read_data(self, length: int) -> bytes:
        """``MSG_ReadData``: ``length`` bytes (stops early, like the engine, once the message is exhausted)."""
        out = bytearray()
        for _ in range(length):
            c = self.read_byte()
            if c == -1:
                break
            out.append(c)
        return bytes(out)
