"""NetQuake ``.dem`` framing: the CD-track line, then blocks of ``int32 length``, ``float32 viewangles[3]`` and
``length`` bytes of server messages, each run through :class:`~.parse.DemParser`'s handler table by the kit's block
loop (:func:`~..kit.blocks.run_blocks`).

Bad input: a file cut inside a block gives the timeline up to the cut with a warning; a corrupt message raises
:class:`~assets_loader.errors.FormatError` naming the file, offset and message, or — when at least one frame was
decoded — returns the timeline up to the previous block with a warning.

References: Uwe Girlich, "The unofficial DEM format description" v1.0.9, section 6 (file structure); QuakeSpasm
``cl_demo.c`` ``CL_GetDemoMessage``.
"""

from __future__ import annotations

import struct

from ...errors import BadMagicError
from ..kit.blocks import BlockFraming, run_blocks
from ..kit.messages import decode_guarded
from ..timeline import DemoTimeline
from . import protocol as P
from .parse import DemParser

__all__ = ["decode_dem", "parse_cd_track", "FMT"]

FMT = "DEM"
_FRAMING = BlockFraming(FMT, struct.Struct("<i3f"), "a 16-byte block header", 1 << 24, "a block length 0..16 MiB",
                        P.svc_name)


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
    cd_track, pos = parse_cd_track(data, path)
    parser = DemParser(path, data)
    run = run_blocks(parser, _FRAMING, data, pos, path, parser.begin_block, parser.end_block)
    parser.b.require_frames(run.pos, "at least one message block with svc_time")
    return parser.finish(run.blocks, cd_track)


def decode_dem(data: bytes, path: str = "<bytes>") -> DemoTimeline:
    """Decode a whole NetQuake demo.  Raises only :class:`FormatError` (see the module docstring)."""
    return decode_guarded(_run, data, path, FMT, "a decodable NetQuake demo")
