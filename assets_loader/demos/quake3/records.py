"""What :func:`~.parse.parse_demo` returns: the gamestates, every snapshot with its full (delta-resolved) player
and entity states as numpy records, and the server commands with their message numbers.

The layout is made for a timeline builder: snapshot columns are arrays of one row per snapshot; the entities of
snapshot ``i`` are ``snapshots.states[snapshots.entity_index[snapshots.entity_offsets[i]:snapshots.entity_offsets[i +
1]]]`` (``snapshots.entities_of(i)``), sorted by entity number (what the cgame's ``snapshot_t.entities`` holds).  Each
distinct entity state is kept once: an entity copied forward unchanged from the snapshot it was delta-coded from
(``CL_ParsePacketEntities``) is the same row of ``states``, so a demo of tiny snapshots that each keep a thousand
entities costs an index per entity, not a record.  The player state of the recording client (or of
the client it follows) is ``snapshots.player[i]``; that client has no row among the entities.

References: ioquake3 ``code/client/client.h`` (``clSnapshot_t``), ``code/qcommon/q_shared.h``
(``gameState_t``, ``entityState_t``, ``playerState_t``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .commands import ConfigstringChange, ServerCommand

__all__ = ["CS_SERVERINFO", "CS_SYSTEMINFO", "GameState", "Quake3Demo", "Snapshots"]

CS_SERVERINFO = 0
CS_SYSTEMINFO = 1


@dataclass(frozen=True, slots=True)
class GameState:
    """One ``svc_gamestate``: the configstrings and entity baselines a map starts with.

    ``message`` is the index of the demo message that carried it, ``sequence`` that message's server message
    number (the snapshot number the cgame starts counting from), ``first_snapshot`` the index of the first
    snapshot decoded after it; ``command_sequence`` the server command number it starts from; ``client_num`` the
    recording client's slot; ``checksum_feed`` the pure-server checksum seed.  ``baselines`` holds one
    :data:`~.protocol.ENTITY_STATE` row per baseline, sorted by number.
    """

    message: int
    sequence: int
    first_snapshot: int
    command_sequence: int
    configstrings: Mapping[int, str]
    baselines: np.ndarray
    client_num: int
    checksum_feed: int


@dataclass(frozen=True, slots=True)
class Snapshots:
    """Every valid snapshot in file order (columns of one row per snapshot).

    ``message``: index of the demo message; ``sequence``: its server message number (``clSnapshot_t.messageNum``);
    ``server_time`` in ms; ``delta_num``: the message number it was delta-coded from (-1 = not delta-coded);
    ``flags``: ``snapFlags``; ``areamask``: 32 bytes of portal-area visibility bits; ``player``:
    :data:`~.protocol.PLAYER_STATE` rows; ``states``: the distinct :data:`~.protocol.ENTITY_STATE` rows (number
    and fields) in order of first appearance; ``entity_index``: i4, the ``states`` row of each entity of all
    snapshots, sliced by ``entity_offsets`` (length ``len + 1``).
    """

    message: np.ndarray
    sequence: np.ndarray
    server_time: np.ndarray
    delta_num: np.ndarray
    flags: np.ndarray
    areamask: np.ndarray
    player: np.ndarray
    entity_offsets: np.ndarray
    states: np.ndarray
    entity_index: np.ndarray

    def __len__(self) -> int:
        return len(self.server_time)

    @property
    def entities(self) -> np.ndarray:
        """The entity states of all snapshots, one record each (built on each access: for reports and tests)."""
        return self.states[self.entity_index]

    def entities_of(self, index: int) -> np.ndarray:
        """The entity states of snapshot ``index`` (a copy, sorted by entity number)."""
        return self.states[self.entity_index[self.entity_offsets[index]:self.entity_offsets[index + 1]]]


@dataclass(frozen=True, slots=True)
class Quake3Demo:
    """A decoded ``.dm_66`` / ``.dm_67`` / ``.dm_68`` / ``.dm_71`` file.

    ``num_messages`` counts the framed messages decoded; ``commands`` are the reliable server commands in order
    (duplicates dropped like the engine does), ``received_commands`` counts every ``svc_serverCommand`` including
    the server's resends of commands not yet acknowledged; ``configstring_changes`` the ``cs`` / ``bcs*`` updates
    after each
    gamestate, already split into index and value.  ``truncated`` is set when the file ends early, with a line in
    ``warnings`` (which also lists snapshots the engine would drop, e.g. delta-coded from a lost frame).
    """

    path: str
    protocol: int
    num_messages: int
    gamestates: tuple[GameState, ...]
    snapshots: Snapshots
    commands: tuple[ServerCommand, ...]
    received_commands: int
    configstring_changes: tuple[ConfigstringChange, ...]
    truncated: bool
    warnings: tuple[str, ...]

    def configstrings_at(self, snapshot: int) -> dict[int, str]:
        """The configstrings in force when snapshot ``snapshot`` is shown: its gamestate's, with every change
        received before it applied (player names, models, scores, warmup … over time)."""
        starts = [g for g in self.gamestates if g.first_snapshot <= snapshot]
        if not starts:
            return {}
        gamestate = starts[-1]
        strings = dict(gamestate.configstrings)
        for change in self.configstring_changes:
            if change.message > gamestate.message and change.snapshot <= snapshot:
                strings[change.index] = change.value
        return strings
