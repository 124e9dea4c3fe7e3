"""The players the controls list for watching (:mod:`viewer.ui.controls`): the ones Tab cycles through, with
names, scores and colours, and which one is watched now.

In an MVD every player's eyes can be shown (:attr:`~viewer.viewer_state.TimelineInfo.pov_slots`): the list holds
POV slots. Otherwise it holds the players' entity numbers, which the orbit camera follows. Colours are Quake's
shirt and pants (``Sbar_ColorForMap``: the middle of the colour's palette row), or for games whose names carry
colour codes (Quake III) the colours of the name's first and last characters.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from assets_loader.demos import PlayerScore, SceneState
from assets_loader.demos.quake3.colors import colored_chars

from .viewer_state import ViewerState
from .ui.controls import RGBA, PlayerEntry

WHITE = (1.0, 1.0, 1.0)


def _colours(p: PlayerScore, palette_rgb: np.ndarray, color_codes: bool) -> tuple[RGBA, RGBA]:
    if color_codes:
        chars = colored_chars(p.name, WHITE) or [(" ", WHITE)]
        first, last = chars[0][1], chars[-1][1]
        return (*first, 1.0), (*last, 1.0)
    top, bottom = (palette_rgb[(c & 15) * 16 + 8] / 255.0 for c in (p.top, p.bottom))
    return (float(top[0]), float(top[1]), float(top[2]), 1.0), (float(bottom[0]), float(bottom[1]),
                                                                 float(bottom[2]), 1.0)


def watch_list(st: ViewerState, scene: SceneState, players: Sequence[int],
               palette_rgb: np.ndarray) -> tuple[tuple[PlayerEntry, ...], int | None]:
    """The players of ``scene`` to pick from (``players``: the entity numbers of the players present, the game's
    :meth:`~viewer.games.base.GameView.player_entities`) and the one watched (``None``: the camera watches no one)."""
    info, board = st.info, scene.scoreboard
    codes = info.schema.color_codes

    def entry(watch: int, slot: int) -> PlayerEntry | None:
        if not 0 <= slot < len(board):
            return None
        return PlayerEntry(watch, info.slot_name(board, slot), board[slot].frags,
                           *_colours(board[slot], palette_rgb, codes))

    if len(info.pov_slots) > 1:
        entries = [entry(slot, slot) for slot in info.pov_slots]
        recorder = info.schema.entity_slot(int(scene.view_entity))
        watched = (recorder if st.pov_slot is None else st.pov_slot) if st.mode == "pov" else None
    else:
        entries = [entry(e, info.schema.entity_slot(e)) for e in players]
        watched = st.follow if st.mode == "orbit" else int(scene.view_entity) if st.mode == "pov" else None
    return tuple(e for e in entries if e is not None), watched
