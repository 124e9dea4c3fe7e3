""".dm2 framing: blocks of ``int32 length`` and ``length`` bytes of server messages, ended by a block of length
-1; each block runs through :class:`~.parse.Quake2Parser`'s handler table in the kit's block loop
(:func:`~..kit.blocks.run_blocks`).

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

from ...errors import UnsupportedFormatError
from ..kit.blocks import BlockFraming, run_blocks
from ..kit.messages import decode_guarded
from ..timeline import DemoTimeline
from . import protocol as P
from .parse import FMT, Quake2Parser

__all__ = ["decode_dm2", "MAX_BLOCK"]

#: Largest block accepted (client recordings stay under 1400 bytes, server-side ones under 64 KiB).
MAX_BLOCK = 0x10000
_LEN = struct.Struct("<i")
_FRAMING = BlockFraming(FMT, _LEN, "a 4-byte block length", MAX_BLOCK, f"a block length 0..{MAX_BLOCK} or -1",
                        P.svc_name, end_length=-1)


def _run(data: bytes, path: str) -> DemoTimeline:
    n = len(data)
    if n >= 9 and data[4] == P.SVC_SERVERDATA_TEST and _LEN.unpack_from(data, 5)[0] == P.PROTOCOL_TEST:
        raise UnsupportedFormatError(path, FMT, 5, "Quake II protocol 26..34",
                                     f"{P.unsupported_protocol(P.PROTOCOL_TEST)} at offset 5")
    parser = Quake2Parser(path)
    run = run_blocks(parser, _FRAMING, data, 0, path)
    if run.error is None and not run.at_end_length and not parser.ended and run.pos >= len(data) \
            and not parser.b.warnings:
        parser.b.truncated(run.pos, "the end-of-demo block (length -1)", 0)
    parser.b.require_frames(run.pos, "at least one message block with svc_frame")
    return parser.finish(run.blocks)


def decode_dm2(data: bytes, path: str = "<bytes>") -> DemoTimeline:
    """Decode a whole Quake II demo.  Raises only :class:`FormatError` (see the module docstring)."""
    return decode_guarded(_run, data, path, FMT, "a decodable Quake II demo")
