"""One server-message loop and one error policy for every demo protocol.

A protocol is a table: message byte → handler ``fn(data, p, end) -> p`` (``p`` just after the message byte, the
returned position just after the message).  :func:`parse_messages` runs a message block through that table; a handler
that ends the demo returns ``end``.  Any slip inside a block (:class:`Corrupt` from a handler's own checks, or
``struct.error`` / ``IndexError`` … from reading past the data) becomes a :class:`MessageError` carrying the offset and
the message byte; :func:`message_error` turns it into the :class:`~assets_loader.errors.FormatError` every decoder
raises, naming file, offset, message and block.  What happens next — stop, and keep the timeline up to the previous
frame with a warning — is the builder's (:meth:`.builder.TimelineBuilder.stop`); a slip outside the blocks (assembling
the timeline) still surfaces as a :class:`~assets_loader.errors.FormatError` (:func:`decode_guarded`).

References: QuakeSpasm ``cl_parse.c`` ``CL_ParseServerMessage``; ezQuake ``cl_parse.c`` ``CL_ParseServerMessage``;
ioquake3 ``cl_parse.c`` ``CL_ParseServerMessage`` (the same loop in each engine).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from ...errors import FormatError

__all__ = ["Corrupt", "MessageError", "DECODE_ERRORS", "Handler", "handler_table", "parse_messages",
           "message_error", "read_string", "decode_guarded"]

Handler = Callable[[bytes, int, int], int]
_T = TypeVar("_T")


class Corrupt(Exception):
    """A message does not parse (a handler's own check); the text says what was expected."""


#: What reading a corrupt message can raise besides :class:`Corrupt`.
DECODE_ERRORS = (Corrupt, struct.error, IndexError, ValueError, KeyError, OverflowError, TypeError)


class MessageError(Exception):
    """A message of ``cmd`` at ``offset`` failed with ``cause``."""

    def __init__(self, cause: BaseException, offset: int, cmd: int) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.offset = offset
        self.cmd = cmd


def handler_table(obj: object, names: Mapping[int, str], size: int = 256) -> list[Handler | None]:
    """``table[cmd]`` = ``obj.parse_svc_<name>`` for every message ``names[cmd]`` the object handles, else ``None``."""
    table: list[Handler | None] = [None] * size
    for cmd, name in names.items():
        fn = getattr(obj, f"parse_svc_{name}", None)
        if fn is not None and cmd < size:
            table[cmd] = fn
    return table


def parse_messages(table: Sequence[Handler | None], data: bytes, p: int, end: int,
                   name_of: Callable[[int], str]) -> int:
    """Run the messages of ``data[p:end]`` through ``table``; raises :class:`MessageError` on a corrupt one."""
    cmd = 0
    mpos = p
    try:
        while p < end:
            mpos = p
            cmd = data[p]
            fn = table[cmd]
            if fn is None:
                raise Corrupt(f"a known message type, found {cmd}")
            p = fn(data, p + 1, end)
        if p > end:
            raise Corrupt(f"the {name_of(cmd)} message to end inside its block")
    except DECODE_ERRORS as exc:
        raise MessageError(exc, mpos, cmd) from None
    return p


def message_error(exc: MessageError, path: str, fmt: str, name_of: Callable[[int], str], block: int) -> FormatError:
    """The :class:`FormatError` for a failed message: file, offset, message name, block number and the cause."""
    cause = exc.cause
    found = str(cause) if isinstance(cause, Corrupt) else f"{type(cause).__name__}: {cause}"
    return FormatError(path, fmt, exc.offset, f"a valid {name_of(exc.cmd)} message (block {block})", found)


def decode_guarded(run: Callable[[bytes, str], _T], data: bytes, path: str, fmt: str, expected: str) -> _T:
    """``run(bytes(data), path)`` (a whole decode), raising only :class:`FormatError`: a slip outside a message block
    (assembling a partial timeline) surfaces as one too, expecting ``expected``."""
    try:
        return run(bytes(data), path)
    except FormatError:
        raise
    except DECODE_ERRORS as exc:
        raise FormatError(path, fmt, None, expected, f"{type(exc).__name__}: {exc}") from exc


def read_string(data: bytes, pos: int, end: int) -> tuple[str, int]:
    """A NUL-terminated Latin-1 string inside ``data[pos:end]`` and the position after its NUL (``MSG_ReadString``)."""
    z = data.find(b"\0", pos, end)
    if z < 0:
        raise Corrupt("a NUL-terminated string inside the message block")
    return data[pos:z].decode("latin-1"), z + 1
