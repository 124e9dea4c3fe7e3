"""The players an overlay marks at one time: who (slot, name), where their entity is drawn, in which colour.

Colours are the ones the game gives the player: Quake's shirt colour (``Sbar_ColorForMap``: the middle of the
colour's palette row), Quake III's team (red, blue) or the last colour of the name's colour codes; players the game
gives no colour (Quake II, a white Quake III name) get one of :data:`SLOT_COLOURS` by slot so they stay apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from assets_loader.demos import PlayerScore, SceneState
from assets_loader.demos.quake3.colors import colored_chars
from assets_loader.demos.schema import GameSchema

RGB = tuple[float, float, float]
WHITE: RGB = (1.0, 1.0, 1.0)
#: Quake III's team colours (``TEAM_RED`` "1", ``TEAM_BLUE`` "2" in a player's ``t`` info).
TEAM_COLOURS: dict[str, RGB] = {"1": (1.0, 0.25, 0.2), "2": (0.25, 0.45, 1.0)}
#: Distinct colours for players the game colours no other way, by slot.
SLOT_COLOURS: tuple[RGB, ...] = ((1.0, 0.85, 0.2), (0.3, 0.9, 1.0), (1.0, 0.45, 0.9), (0.5, 1.0, 0.35),
                                 (1.0, 0.55, 0.2), (0.7, 0.6, 1.0), (0.3, 1.0, 0.75), (1.0, 0.35, 0.4))


@dataclass(frozen=True, slots=True)
class PlayerMark:
    """A player drawn in the picture: its ``entity`` number, scoreboard ``slot``, ``name`` (with the game's colour
    codes or Quake's coloured characters), ``origin`` ``f8 [3]`` as drawn, ``yaw`` (degrees) and ``colour``."""

    entity: int
    slot: int
    name: str
    origin: np.ndarray
    yaw: float
    colour: RGB


def player_colour(score: PlayerScore, schema: GameSchema, palette_rgb: np.ndarray | None) -> RGB:
    """The colour the game shows player ``score`` in (see the module docstring)."""
    if schema.color_codes:
        if score.team in TEAM_COLOURS:
            return TEAM_COLOURS[score.team]
        chars = colored_chars(score.name, WHITE)
        last = chars[-1][1] if chars else WHITE
        if tuple(last) != WHITE:
            return (float(last[0]), float(last[1]), float(last[2]))
    elif score.colors and palette_rgb is not None and len(palette_rgb) >= 256:
        top = palette_rgb[(score.top & 15) * 16 + 8] / 255.0
        return (float(top[0]), float(top[1]), float(top[2]))
    return SLOT_COLOURS[score.slot % len(SLOT_COLOURS)]


def player_marks(state: SceneState, schema: GameSchema, players: Sequence[int],
                 palette_rgb: np.ndarray | None = None) -> tuple[PlayerMark, ...]:
    """The players of ``state`` among entity numbers ``players`` (the game's
    :meth:`~viewer.games.base.GameView.player_entities`) that are client slots with a name on the scoreboard (bodies
    left behind by respawned players are not)."""
    board = state.scoreboard
    ents = state.entities
    marks = []
    for number in players:
        slot = schema.entity_slot(int(number))
        row = ents.index_of(int(number))
        if row is None or not 0 <= slot < len(board) or not board[slot].name or board[slot].spectator:
            continue
        marks.append(PlayerMark(int(number), slot, board[slot].name, np.asarray(ents.origin[row], np.float64),
                                float(ents.angles[row][1]), player_colour(board[slot], schema, palette_rgb)))
    return tuple(marks)
