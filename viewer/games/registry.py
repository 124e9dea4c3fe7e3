"""Which :class:`~viewer.games.base.GameView` draws a demo: looked up by ``DemoTimeline.game``.

The one place that names the games the viewer knows; a new game package adds one entry here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .base import GameView
from .quake.view import QuakeView

#: ``DemoTimeline.game`` → its view. QuakeWorld shares Quake's models, effects and status bar.
GAME_VIEWS: Mapping[str, GameView] = MappingProxyType({"quake": QuakeView(), "quakeworld": QuakeView()})
#: The game of a map opened without a demo (``qdv map``): the only map format qdv reads is Quake's BSP.
MAP_GAME = "quake"


def game_view(game: str) -> GameView:
    """The view of ``game`` (a ``DemoTimeline.game`` value); ``ValueError`` naming the known games otherwise."""
    view = GAME_VIEWS.get(game)
    if view is None:
        raise ValueError(f"qdv cannot show {game!r} demos yet (it knows {', '.join(sorted(GAME_VIEWS))})")
    return view
