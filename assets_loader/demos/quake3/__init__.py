"""Quake III Arena demos (``.dm_66``, ``.dm_67``, ``.dm_68``, and OpenArena's ``.dm_71``): the protocol layer.

:func:`parse_demo` decodes a file into a :class:`Quake3Demo` (gamestates, delta-resolved snapshots as numpy
records, server commands); :mod:`.bitstream` and :mod:`.huffman` hold the bit reader and the static Huffman
code, :mod:`.fields` the per-protocol field tables and record dtypes, :mod:`.delta` the state deltas,
:mod:`.framing` the file blocks, :mod:`.commands` the server-command tokens, :mod:`.parser` the message loop.
"""

from .bitstream import MessageFormatError
from .commands import ConfigstringChange, ServerCommand
from .fields import ENTITY_STATE, PLAYER_STATE
from .parser import parse_demo, protocol_from_name
from .records import GameState, Quake3Demo, Snapshots

__all__ = [
           "ENTITY_STATE",
           "PLAYER_STATE",
           "ConfigstringChange",
           "GameState",
           "MessageFormatError",
           "Quake3Demo",
           "ServerCommand",
           "Snapshots",
           "parse_demo",
           "protocol_from_name",
]
