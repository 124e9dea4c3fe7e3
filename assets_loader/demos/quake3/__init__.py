"""Quake III Arena demos (``.dm_66``, ``.dm_67``, ``.dm_68``, and OpenArena's ``.dm_71``): the protocol layer.

:func:`parse_demo` decodes a whole file into a :class:`Quake3Demo`::

    demo = parse_demo(data, "oa_dm1_follow_p68.dm_68")
    snaps = demo.snapshots                       # one row per valid snapshot, file order
    t = snaps.server_time / 1000                 # seconds
    ps = snaps.player[i]                         # playerState_t of the followed / recording client
    ents = snaps.entities_of(i)                  # entityState_t rows, sorted by number (not the ps client)
    names = demo.configstrings_at(i)             # configstrings in force at snapshot i
    [c for c in demo.commands if c.snapshot == i]  # server commands a cgame sees with snapshot i

What a timeline builder reads from it: frames are snapshots (``server_time``); the point of view is
``player`` (``origin``, ``viewangles``, ``viewheight``; ``clientNum`` changes when a spectator's followed
player changes); entities carry their trajectories (``pos_trType``/``pos_trTime``/``pos_trDuration``/
``pos_trBase``/``pos_trDelta``, the same for ``apos``) for ``BG_EvaluateTrajectory``-style sampling; entity
events are ``eType`` ≥ ``ET_EVENTS`` entities and the ``event``/``eventParm`` fields, player-state events are
``events``/``eventParms``/``externalEvent``; player names, models and scores are configstrings (``cs`` changes
in ``configstring_changes``) and ``scores``/``tinfo`` commands.  Those meanings are the game module's (baseq3 /
OpenArena ``bg_public.h``), not this package's.

Modules: :mod:`.huffman` (the static code and its look-up table) and :mod:`.bitstream` (``MSG_ReadBits``) are the
whole bit-level implementation, swappable as a pair; :mod:`.protocol` has the per-protocol field tables and the
record dtypes; :mod:`.delta` the entity and player-state deltas; :mod:`.framing` the file blocks;
:mod:`.commands` the server-command tokens; :mod:`.parse` the message loop; :mod:`.records` the results.
"""

from .bitstream import MessageFormatError
from .commands import ConfigstringChange, ServerCommand
from .parse import parse_demo, protocol_from_name
from .protocol import ENTITY_STATE, PLAYER_STATE
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
