"""Quake III demo file framing: a sequence of ``(sequence, length, data)`` blocks ended by ``(-1, -1)``.

Each block is a little-endian int32 server message sequence number, an int32 length and that many bytes of one
server message.  The engine stops at a length of -1 (the end marker written by ``CL_StopRecord_f``) or at the
end of the file, and refuses lengths above ``MAX_MSGLEN``.

References: ioquake3 ``code/client/cl_main.c`` (``CL_ReadDemoMessage``, ``CL_StopRecord_f``),
``code/qcommon/qcommon.h`` (``MAX_MSGLEN``); spec 004 section 3.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ...errors import FormatError
from .bitstream import FMT

__all__ = ["MAX_MSGLEN", "Framing", "MessageBlock", "split_messages"]

MAX_MSGLEN = 16384
_HEADER = struct.Struct("<ii")


@dataclass(frozen=True, slots=True)
class MessageBlock:
    """One framed message: its server ``sequence``, and where its data sits in the file."""

    sequence: int
    offset: int
    length: int


@dataclass(frozen=True, slots=True)
class Framing:
    """All blocks of a file; ``cut`` describes where and how the file ends early (``None`` with an end marker)."""

    blocks: tuple[MessageBlock, ...]
    cut: str | None


def split_messages(data: bytes, path: str) -> Framing:
    """Frame a whole demo file.  A length outside ``0..MAX_MSGLEN`` raises :class:`FormatError`; a file that
    ends inside a block, or without the end marker, gives the complete blocks and a ``cut`` description."""
    blocks: list[MessageBlock] = []
    pos, n = 0, len(data)
    while True:
        if pos + _HEADER.size > n:
            if pos == n:
                return Framing(tuple(blocks), f"the file ends at offset {pos} without the (-1, -1) end marker")
            return Framing(tuple(blocks), f"the file ends at offset {n} inside a block header")
        sequence, length = _HEADER.unpack_from(data, pos)
        if length == -1:
            return Framing(tuple(blocks), None)
        if length < 0 or length > MAX_MSGLEN:
            raise FormatError(path, FMT, pos + 4, f"a message length in 0..{MAX_MSGLEN} or -1", str(length))
        start = pos + _HEADER.size
        if start + length > n:
            return Framing(tuple(blocks), f"the file ends at offset {n} inside the {length}-byte message "
                                          f"{len(blocks)} (sequence {sequence})")
        blocks.append(MessageBlock(sequence, start, length))
        pos = start + length
