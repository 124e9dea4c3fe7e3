"""The timers panel: the listed items' respawn countdowns (:mod:`.item_timers`) as lines of the viewer's UI text on
a dark box at the left of the picture, a third of the way down (under the game's notify lines).

A line is the item's short name (numbered when the map has several), then the seconds left (at least, ``+``, for a
mega health that first waits for its taker's health to rot), ``up`` when it is back, or ``unknown`` before its
first pickup in the demo, then the name of its place when the map names its places (:mod:`.locations`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..render.refdef import Rect, Text, UiLayout
from .item_timers import ItemSpot
from .locations import nearest_location

Places = Sequence[tuple[tuple[float, float, float], str]]
#: Characters of a place's name the panel keeps.
PLACE_CHARS = 16

#: The colours of a line: counting down, back, not known.
COUNTING = (1.0, 0.85, 0.3, 1.0)
BACK = (0.5, 1.0, 0.5, 1.0)
UNKNOWN = (0.65, 0.65, 0.65, 1.0)


def timer_text(spot: ItemSpot, t: float) -> tuple[str, tuple[float, float, float, float]]:
    """The state of ``spot`` at ``t`` as the panel writes it, and its colour: ``12s`` (``12s+`` for a mega health
    that waits for its taker's health to rot first: at least that), ``up`` or ``unknown``."""
    left = spot.seconds_left(t)
    if left is None:
        return "unknown", UNKNOWN
    if left <= 0.0:
        return "up", BACK
    return f"{left:.0f}s" + ("+" if spot.rule.rot else ""), COUNTING


def timers_lines(spots: Sequence[ItemSpot], t: float,
                 places: Places = ()) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The panel's lines for the listed (``major``) spots, in the order of their kinds, then of place; ``places``:
    the map's named places (:func:`~.locations.map_locations`)."""
    listed = sorted((s for s in spots if s.rule.major), key=lambda s: (s.rule.short, s.origin))
    counts: dict[str, int] = {}
    for s in listed:
        counts[s.rule.short] = counts.get(s.rule.short, 0) + 1
    seen: dict[str, int] = {}
    lines = []
    for s in listed:
        seen[s.rule.short] = seen.get(s.rule.short, 0) + 1
        name = s.rule.short if counts[s.rule.short] == 1 else f"{s.rule.short}{seen[s.rule.short]}"
        state, colour = timer_text(s, t)
        place = nearest_location(s.origin, places)[:PLACE_CHARS]
        lines.append((f"{name:<7}{state:>7}" + (f"  {place}" if place else ""), colour))
    return lines


def timers_layout(spots: Sequence[ItemSpot], t: float, size: tuple[int, int], scale: int,
                  places: Places = ()) -> UiLayout:
    """The panel over a ``size`` picture with ``scale``-wide text (nothing when no item is listed)."""
    lines = timers_lines(spots, t, places)
    if not lines:
        return UiLayout()
    glyph = 8 * max(1, scale)
    pad = glyph // 2
    width = max(len(text) for text, _ in lines) * glyph + 2 * pad
    height = len(lines) * glyph + 2 * pad
    x, y = pad, size[1] // 3
    rect = Rect(x, y, width, height, (0.0, 0.0, 0.0, 0.55))
    texts = tuple(Text(x + pad, y + pad + i * glyph, text, glyph, colour) for i, (text, colour) in enumerate(lines))
    return UiLayout((rect,), texts)
