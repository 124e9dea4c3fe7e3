"""One loop over the length-prefixed message blocks of a ``.dem`` (``int32 length``, ``float32 viewangles[3]``) and a
``.dm2`` (``int32 length``; a length of -1 ends the demo): read a header, check the length, run the block's messages
through the parser's handler table, stop at the first bad block.

Bad input: a file cut inside a header or a block ends the timeline there with a warning (the builder's
:meth:`~.builder.TimelineBuilder.truncated`); a bad length or a corrupt message becomes the run's ``error``, the frame
the block opened is dropped and the builder keeps the timeline up to the previous block
(:meth:`~.builder.TimelineBuilder.stop`).

References: QuakeSpasm ``cl_demo.c`` ``CL_GetDemoMessage``; Quake II 3.20 ``client/cl_main.c``
``CL_ReadDemoMessage`` (the same read in each engine).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from ...errors import BadIndexError, FormatError
from .builder import TimelineBuilder
from .messages import Handler, MessageError, message_error, parse_messages

__all__ = ["BlockFraming", "BlockParser", "BlockRun", "run_blocks"]


@dataclass(frozen=True)
class BlockFraming:
    """One file layout: ``header`` starts with the ``int32`` length, the rest goes to the parser's ``begin_block``."""

    fmt: str
    header: struct.Struct
    header_text: str                # what a cut header is called in the warning
    max_length: int
    length_text: str                # the lengths a bad one is compared with
    name_of: Callable[[int], str]   # a message byte's name
    end_length: int | None = None   # a length that ends the demo (.dm2: -1)


class BlockParser(Protocol):
    """What the loop uses of a parser: its builder, handler table, end-of-demo flag, and the undo of a bad block."""

    @property
    def b(self) -> TimelineBuilder: ...
    @property
    def table(self) -> Sequence[Handler | None]: ...
    @property
    def ended(self) -> bool: ...

    def drop_open_frame(self) -> None: ...


class BlockRun(NamedTuple):
    pos: int                        # just after the last block read
    blocks: int                     # blocks whose messages all parsed
    error: FormatError | None       # what stopped the run (the builder has it already)
    at_end_length: bool             # stopped at the end-of-demo length


def run_blocks(parser: BlockParser, framing: BlockFraming, data: bytes, pos: int, path: str,
               begin: Callable[[tuple], None] | None = None, end_block: Callable[[], None] | None = None) -> BlockRun:
    """Run the blocks of ``data`` from ``pos`` until the end, the parser's end of demo or a bad block.  ``begin``
    gets each header's fields after the length before the block's messages, ``end_block`` is called after them."""
    n = len(data)
    header = framing.header
    size = header.size
    table = parser.table
    name_of = framing.name_of
    end_length, max_length = framing.end_length, framing.max_length
    blocks = 0
    error: FormatError | None = None
    at_end_length = False
    while pos < n and not parser.ended:
        if n - pos < size:
            parser.b.truncated(pos, framing.header_text, n - pos)
            break
        fields = header.unpack_from(data, pos)
        length = fields[0]
        if length == end_length:
            at_end_length = True
            pos += size
            break
        if not 0 <= length <= max_length:
            error = BadIndexError(path, framing.fmt, pos, framing.length_text, str(length))
            break
        start = pos + size
        end = start + length
        if end > n:
            parser.b.truncated(pos, f"a {length}-byte message block", n - start)
            break
        if begin is not None:
            begin(fields[1:])
        try:
            parse_messages(table, data, start, end, name_of)
        except FormatError as exc:
            error = exc
        except MessageError as exc:
            error = message_error(exc, path, framing.fmt, name_of, blocks)
        if error is not None:
            parser.drop_open_frame()
            break
        if end_block is not None:
            end_block()
        blocks += 1
        pos = end
    if error is not None:
        parser.b.stop(error, "the previous block")
    return BlockRun(pos, blocks, error, at_end_length)
