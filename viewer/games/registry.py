"""Which :class:`~viewer.games.base.GameView` draws a demo: looked up by ``DemoTimeline.game``.

The one place that names the games the viewer knows; a new game package adds one entry here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType


from .base import GameView
from .quake2.view import Quake2View
from .quake.look import EZQUAKE, EZQUAKE_SBAR, QUAKESPASM, QUAKESPASM_SBAR
from .quake.view import QuakeView
from .quake3.view import Quake3View

#: ``DemoTimeline.game`` → its view. QuakeWorld shares Quake's models, effects and status bar; it looks like ezQuake.
GAME_VIEWS: Mapping[str, GameView] = MappingProxyType({"quake": QuakeView(QUAKESPASM, QUAKESPASM_SBAR),
                                                       "quakeworld": QuakeView(EZQUAKE, EZQUAKE_SBAR),
                                                       "quake2": Quake2View(), "quake3": Quake3View()})
#: The game whose pictures the window shows before it knows what it plays (the loading screen).
DEFAULT_GAME = "quake"


def map_game(header: bytes) -> str:
    """The game a map belongs to, from its first 8 bytes: BSP29 / BSP2 / 2PSB are Quake's, IBSP version 38
    Quake II's, IBSP 46 Quake III's (``ValueError`` for anything else)."""
    if header[:4] in (b"BSP2", b"2PSB") or header[:4] == (29).to_bytes(4, "little"):
        return "quake"
    if header[:4] == b"IBSP" and len(header) >= 8:
        version = int.from_bytes(header[4:8], "little")
        if version in (38, 46):
            return {38: "quake2", 46: "quake3"}[version]
    raise ValueError(f"not a Quake, Quake II or Quake III map (header {header[:8]!r})")


def game_view(game: str) -> GameView:
    """The view of ``game`` (a ``DemoTimeline.game`` value); ``ValueError`` naming the known games otherwise."""
    view = GAME_VIEWS.get(game)
    if view is None:
        raise ValueError(f"qdv cannot show {game!r} demos yet (it knows {', '.join(sorted(GAME_VIEWS))})")
    return view

