"""OpenArena's respawn line (``CG_DrawScoreboard``, outside Team Arena builds): after the server has told a player
who died when it may respawn (the ``respawn`` command, :class:`~assets_loader.demos.events.RespawnTimeEvent`),
"Respawn in: S.SS" in yellow small characters (8 × 16) centred at y 400 until then, "Click FIRE to respawn" in
green after; every frame the cgame draws the scoreboard step (dead or alive, scoreboard up or not), until the
``respawn 0`` sent when the player spawns again.  Not for a spectator's own view nor in the round-based game types
(elimination, CTF elimination, last man standing).

References: OpenArena gamecode ``code/cgame/cg_draw.c`` (``CG_DrawScoreboard``, ``CG_Draw2D``,
``CG_DrawIntermission``), ``cg_servercmds.c`` (``CG_ParseRespawnTime``), ``code/game/g_combat.c`` (``player_die``:
``RespawnTimeMessage``), ``cg_drawtools.c`` (``CG_DrawSmallStringColor``).
"""

from __future__ import annotations

from assets_loader.demos import DemoTimeline, SceneState
from assets_loader.demos.events import RespawnTimeEvent
from assets_loader.demos.quake3.game import TEAM_SPECTATOR

from .screen import VirtualScreen

__all__ = ["draw_respawn", "respawn_line"]

#: OpenArena's ``GT_ELIMINATION`` … ``GT_LMS``: round-based, no respawn line.
ROUND_GAME_TYPES = range(8, 11)
YELLOW = (1.0, 1.0, 0.0)
GREEN = (0.0, 1.0, 0.0)
SMALL_W, SMALL_H = 8, 16


def respawn_line(state: SceneState, timeline: DemoTimeline) -> tuple[str, tuple[float, float, float]] | None:
    """The line and its colour at ``state.time``, or ``None`` (rules: module docstring)."""
    segment = timeline.segments[state.segment] if 0 <= state.segment < len(timeline.segments) else None
    if segment is not None and segment.gametype in ROUND_GAME_TYPES:
        return None
    if int(state.stats.get("team", 0)) == TEAM_SPECTATOR:
        return None
    last = None
    for event in timeline.events_of_kind("respawn_time"):
        if event.time > state.time:
            break
        if event.segment == state.segment and isinstance(event, RespawnTimeEvent):
            last = event
    if last is None or last.wait is None:
        return None
    at = last.time + last.wait
    if at > state.time:
        return f"Respawn in: {at - state.time:2.2f}", YELLOW
    return "Click FIRE to respawn", GREEN


def draw_respawn(screen: VirtualScreen, state: SceneState, timeline: DemoTimeline) -> None:
    """Add the respawn line of ``state`` to ``screen`` (nothing when there is none)."""
    found = respawn_line(state, timeline)
    if found is not None:
        text, color = found
        width = len(text) * SMALL_W
        screen.text(text, 320 - width // 2, 400, SMALL_W, SMALL_H, color, force=True)
