""".dm2 framing: blocks of ``int32 length`` and ``length`` bytes of server messages, ended by a block of length
-1; each block runs through :class:`~.parse.Quake2Parser`'s handler table.

Bad input: a file cut inside a block (or without the -1 block) gives the timeline up to the cut with a warning; a
corrupt message raises :class:`~assets_loader.errors.FormatError` naming the file, offset and message, or — when at
least one frame was decoded — returns the timeline up to the previous block with a warning.  A protocol outside
26..34 is an :class:`~assets_loader.errors.UnsupportedFormatError` naming the file and the offset of the number
("unsupported protocol 25 (Quake II 3.00 test release) at offset 5"), protocol 25 recognised by its own
serverdata byte as well (its message numbers are documented nowhere, so it is not decoded).

References: Uwe Girlich, "The unofficial DM2 format description" v1.0.1, section 2.2 (block of messages); Quake II
3.20 ``client/cl_main.c`` ``CL_ReadDemoMessage``.
"""

from __future__ import annotations

import struct

from ...errors import BadIndexError, FormatError, UnsupportedFormatError
from ..kit.messages import DECODE_ERRORS, MessageError, message_error, parse_messages
from ..timeline import DemoTimeline
from . import protocol as P
from .parse import FMT, Quake2Parser

__all__ = ["decode_dm2", "MAX_BLOCK"]

#: Largest block accepted (client recordings stay under 1400 bytes, server-side ones under 64 KiB).
MAX_BLOCK = 0x10000
_LEN = struct.Struct("<i")


def _run(data: bytes, path: str) -> DemoTimeline:
    n = len(data)
    if n >= 9 and data[4] == P.SVC_SERVERDATA_TEST and _LEN.unpack_from(data, 5)[0] == P.PROTOCOL_TEST:
        raise UnsupportedFormatError(path, FMT, 5, "Quake II protocol 26..34",
                                     f"{P.unsupported_protocol(P.PROTOCOL_TEST)} at offset 5")
    parser = Quake2Parser(path)
    b = parser.b
    table = parser.table
    pos = 0
    blocks = 0
    error: FormatError | None = None
    ended = False
    while pos < n and not parser.ended:
        if n - pos < 4:
            b.truncated(pos, "a 4-byte block length", n - pos)
            break
        length = _LEN.unpack_from(data, pos)[0]
        if length == -1:
            ended = True
            pos += 4
            break
        if not 0 <= length <= MAX_BLOCK:
            error = BadIndexError(path, FMT, pos, f"a block length 0..{MAX_BLOCK} or -1", str(length))
            break
        start = pos + 4
        end = start + length
        if end > n:
            b.truncated(pos, f"a {length}-byte message block", n - start)
            break
        try:
            parse_messages(table, data, start, end, P.svc_name)
        except FormatError as exc:
            error = exc
        except MessageError as exc:
            error = message_error(exc, path, FMT, P.svc_name, blocks)
        if error is not None:
            parser.drop_open_frame()
            break
        blocks += 1
        pos = end
    if error is not None:
        b.stop(error, "the previous block")
    elif not ended and not parser.ended and pos >= n and not b.warnings:
        b.truncated(pos, "the end-of-demo block (length -1)", 0)
    b.require_frames(pos, "at least one message block with svc_frame")
    return parser.finish(blocks)


def decode_dm2(data: bytes, path: str = "<bytes>") -> DemoTimeline:
    """Decode a whole Quake II demo.  Raises only :class:`FormatError` (see the module docstring)."""
    data = bytes(data)
    try:
        return _run(data, path)
    except FormatError:
        raise
    except DECODE_ERRORS as exc:
        raise FormatError(path, FMT, None, "a decodable Quake II demo", f"{type(exc).__name__}: {exc}") from exc
