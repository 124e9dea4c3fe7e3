"""The splits table in the window (key Y, and by itself at each map's end): ``qdv splits``' lines in a translucent
box centred across the window's lower part, under the game's own intermission overlay (Quake's
``Sbar_IntermissionOverlay`` and Quake II's / Quake III's scoreboards start near the top).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..render.refdef import Rect, Text, UiLayout
from .timeline_bar import text_box_layout

#: Where the box's top may start, as a share of the window's height (higher when the table is taller).
TOP_SHARE = 0.68
#: The headline's colour; the table's lines are the UI's text colour.
HEAD_COLOR = (1.0, 0.8, 0.35, 1.0)


def splits_layout(lines: Sequence[str], size: tuple[int, int], scale: int) -> UiLayout:
    """``lines`` (a headline, then the table) in a box centred across, its top at :data:`TOP_SHARE` of the height
    or as high as it must be to fit."""
    box = text_box_layout(lines, size, scale)
    if not box.rects:
        return box
    rect = box.rects[0]
    dy = max(min(size[1] * TOP_SHARE, size[1] - rect.h - 4) - rect.y, -rect.y)
    texts = tuple(Text(t.x, t.y + dy, t.text, t.size, HEAD_COLOR if i == 0 else t.color)
                  for i, t in enumerate(box.texts))
    return UiLayout((Rect(rect.x, rect.y + dy, rect.w, rect.h, rect.color),), texts)
