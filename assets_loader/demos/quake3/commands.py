"""Reliable server commands: tokenising like the engine and reassembling big configstrings.

The server sends text commands (``svc_serverCommand``) that the client tokenises with ``Cmd_TokenizeString``
and hands to the cgame.  The client itself handles ``cs`` (a configstring changes: index, then the rest of the
line) and the big-configstring pieces ``bcs0``/``bcs1``/``bcs2`` (begin, continue, end of one ``cs`` too long
for a single command); ``disconnect`` and ``map_restart`` reach the cgame like ``print``, ``cp``
(centerprint), ``chat``, ``tchat``, ``scores``, ``tinfo`` and mod-specific commands, which are kept as they are.

References: ioquake3 ``code/qcommon/cmd.c`` (``Cmd_TokenizeString2``: whitespace ≤ ' ', ``//`` and ``/* */``
comments, quoted strings without escapes), ``code/client/cl_cgame.c`` (``CL_GetServerCommand``,
``CL_ConfigstringModified``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MAX_STRING_TOKENS", "BigConfigstring", "ConfigstringChange", "ServerCommand", "tokenize"]

MAX_STRING_TOKENS = 1024


@dataclass(frozen=True, slots=True)
class ServerCommand:
    """One reliable command as received: ``message`` is the index of the demo message that carried it,
    ``sequence`` the server's command number, ``snapshot`` the index of the first snapshot decoded after it
    (the one whose cgame frame sees it), ``args`` the engine's tokens (``args[0]`` is the command name)."""

    message: int
    sequence: int
    snapshot: int
    text: str
    args: tuple[str, ...]

    @property
    def name(self) -> str:
        """The command word (``cs``, ``print``, ``chat``, …; empty for a blank command)."""
        return self.args[0] if self.args else ""


@dataclass(frozen=True, slots=True)
class ConfigstringChange:
    """A configstring set by a ``cs`` command (or a completed ``bcs0``…``bcs2`` sequence) after the gamestate."""

    message: int
    snapshot: int
    index: int
    value: str


def tokenize(text: str) -> tuple[str, ...]:
    """``Cmd_TokenizeString``: the tokens of one command line."""
    args: list[str] = []
    i, n = 0, len(text)
    while len(args) < MAX_STRING_TOKENS:
        while True:
            while i < n and text[i] <= " ":
                i += 1
            if i >= n or text.startswith("//", i):
                return tuple(args)
            if text.startswith("/*", i):
                end = text.find("*/", i + 2)
                if end < 0:
                    return tuple(args)
                i = end + 2
            else:
                break
        if text[i] == '"':
            end = text.find('"', i + 1)
            if end < 0:
                args.append(text[i + 1:])
                return tuple(args)
            args.append(text[i + 1:end])
            i = end + 1
            continue
        start = i
        while i < n and text[i] > " " and text[i] != '"' and not text.startswith("//", i) \
                and not text.startswith("/*", i):
            i += 1
        args.append(text[start:i])
    return tuple(args)


def configstring_value(args: tuple[str, ...]) -> str:
    """``Cmd_ArgsFrom(2)``: the tokens after ``cs <index>`` joined by single spaces."""
    return " ".join(args[2:])


class BigConfigstring:
    """Joins ``bcs0`` / ``bcs1`` / ``bcs2`` pieces into the ``cs`` command line they stand for."""

    __slots__ = ("_parts",)

    def __init__(self) -> None:
        self._parts: list[str] | None = None

    def feed(self, args: tuple[str, ...]) -> str | None:
        """Take one ``bcs*`` command's tokens; return the completed ``cs`` line after ``bcs2``, else ``None``."""
        name = args[0]
        piece = args[2] if len(args) > 2 else ""
        if name == "bcs0":
            self._parts = [f'cs {args[1] if len(args) > 1 else ""} "', piece]
            return None
        if self._parts is None:
            return None
        self._parts.append(piece)
        if name == "bcs1":
            return None
        line = "".join(self._parts) + '"'
        self._parts = None
        return line
