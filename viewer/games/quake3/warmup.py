"""Quake III's warm-up on the HUD (``CG_DrawWarmup``), from the timeline's ``warmup`` stat (``CS_WARMUP``).

While the server waits for players: "Waiting for players" in big letters centred at y 24.  While it counts down:
the duel's two players ("A vs B", the first and last named free-team client, in giant letters at y 20, narrower when
the line is wider than the screen) or the game type's name ("Free For All", "Team Deathmatch", "Capture the Flag",
at y 25, 1.1 times as high as wide), then "Starts in: N" centred at y 70, its letters 16, 20, 24 and 28 units wide
as N comes down to 1 and 1.5 times as high; everything shadowed.  Not drawn while following a player (the cgame
draws the follow title instead), and the scoreboard does not come up on death during a warm-up
(``CG_DrawScoreboard``).

References: ioquake3 ``code/cgame/cg_draw.c`` (``CG_DrawWarmup``, ``CG_Draw2D``), ``cg_servercmds.c``
(``CG_ParseWarmup``), ``cg_drawtools.c`` (``CG_DrawBigString``).
"""

from __future__ import annotations

from assets_loader.demos import DemoTimeline, SceneState
from assets_loader.demos.quake3.colors import visible_len
from assets_loader.demos.quake3.game import (GT_CTF, GT_FFA, GT_TEAM, GT_TOURNAMENT, QL_GAME_TYPES, QL_PROTOCOLS,
                                             TEAM_FREE, team_number)

from .screen import VirtualScreen

__all__ = ["draw_warmup", "in_warmup"]

GAME_TYPE_TITLES = {GT_FFA: "Free For All", GT_TEAM: "Team Deathmatch", GT_CTF: "Capture the Flag"}
GIANT_WIDTH = 32
#: Letter width of "Starts in: N" by N (the cgame's ``cg.warmupCount`` is N - 1); 16 from 4 on.
COUNT_WIDTHS = {1: 28, 2: 24, 3: 20}


def in_warmup(state: SceneState) -> bool:
    """Whether the server is in its warm-up (``cg.warmup`` set)."""
    return int(state.stats.get("warmup", 0)) != 0


def draw_warmup(screen: VirtualScreen, state: SceneState, timeline: DemoTimeline) -> None:
    """The warm-up lines for ``state`` (rules: module docstring); nothing outside a warm-up."""
    count = int(state.stats.get("warmup", 0))
    if count == 0:
        return
    if count < 0:
        _centred(screen, "Waiting for players", 24, 16, 16)
        return
    segment = timeline.segments[state.segment] if 0 <= state.segment < len(timeline.segments) else None
    gametype = segment.gametype if segment is not None else GT_FFA
    if gametype == GT_TOURNAMENT:
        duelists = [p.name for p in sorted(state.scoreboard, key=lambda p: p.slot)
                    if p.name and team_number(p.team) == TEAM_FREE]
        if len(duelists) >= 2:
            line = f"{duelists[0]} vs {duelists[-1]}"
            width = _fitted(line)
            _centred(screen, line, 20, width, int(width * 1.5))
    else:
        if segment is not None and segment.protocol in QL_PROTOCOLS:     # Quake Live numbers its own game types
            title = QL_GAME_TYPES.get(gametype, "").title()
        else:
            title = GAME_TYPE_TITLES.get(gametype, "")
        width = _fitted(title)
        _centred(screen, title, 25, width, int(width * 1.1))
    width = COUNT_WIDTHS.get(count, 16)
    _centred(screen, f"Starts in: {count}", 70, width, int(width * 1.5))


def _fitted(line: str) -> int:
    """``GIANT_WIDTH``, or the width that fits ``line`` into the 640 units (integer division, as the cgame)."""
    chars = visible_len(line)
    return 640 // chars if chars > 640 // GIANT_WIDTH else GIANT_WIDTH


def _centred(screen: VirtualScreen, line: str, y: float, w: int, h: int) -> None:
    screen.text(line, 320 - visible_len(line) * w // 2, y, w, h, shadow=True)
