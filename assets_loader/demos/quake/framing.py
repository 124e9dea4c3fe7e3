"""NetQuake ``.dem`` framing: the CD-track line, then blocks of ``int32 length``, ``float32 viewangles[3]`` and
``length`` bytes of server messages, each run through :class:`~.parse.DemParser`'s handler table.

Bad input: a file cut inside a block gives the timeline up to the cut with a warning; a corrupt message raises
:class:`~assets_loader.errors.FormatError` naming the file, offset and message, or — when at least one frame was
decoded — returns the timeline up to the previous block with a warning.

References: Uwe Girlich, "The unofficial DEM format description" v1.0.9, section 6 (file structure); QuakeSpasm
``cl_demo.c`` ``CL_GetDemoMessage``.
"""

from __future__ import annotations

import struct

from ...errors import BadIndexError, BadMagicError, FormatError
from ..kit.messages import DECODE_ERRORS, MessageError, message_error, parse_messages
from ..timeline import DemoTimeline
from . import protocol as P
from .parse import DemParser

__all__ = ["decode_dem", "parse_cd_track", "FMT"]

FMT = "DEM"
_BLOCK = struct.Struct("<i3f")


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


def _run(data: bytes, path: str) -> DemoTimeline:
    n = len(data)
    cd_track, pos = parse_cd_track(data, path)
    parser = DemParser(path, data)
    b = parser.b
    table = parser.table
    blocks = 0
    error: FormatError | None = None
    while pos < n and not parser.ended:
        if n - pos < 16:
            b.truncated(pos, "a 16-byte block header", n - pos)
            break
        length, a0, a1, a2 = _BLOCK.unpack_from(data, pos)
        if length < 0 or length > 1 << 24:
            error = BadIndexError(path, FMT, pos, "a block length 0..16 MiB", str(length))
            break
        start = pos + 16
        end = start + length
        if end > n:
            b.truncated(pos, f"a {length}-byte message block", n - start)
            break
        parser.begin_block((a0, a1, a2))
        try:
            parse_messages(table, data, start, end, P.svc_name)
        except FormatError as exc:
            error = exc
        except MessageError as exc:
            error = message_error(exc, path, FMT, P.svc_name, blocks)
        if error is not None:
            parser.drop_open_frame()
            break
        parser.end_block()
        blocks += 1
        pos = end
    if error is not None:
        b.stop(error, "the previous block")
    b.require_frames(pos, "at least one message block with svc_time")
    return parser.finish(blocks, cd_track)


def decode_dem(data: bytes, path: str = "<bytes>") -> DemoTimeline:
    """Decode a whole NetQuake demo.  Raises only :class:`FormatError` (see the module docstring)."""
    data = bytes(data)
    try:
        return _run(data, path)
    except FormatError:
        raise
    except DECODE_ERRORS as exc:
        # Anything outside a message block (assembly of a partial timeline) still surfaces as a FormatError.
        raise FormatError(path, FMT, None, "a decodable NetQuake demo", f"{type(exc).__name__}: {exc}") from exc
