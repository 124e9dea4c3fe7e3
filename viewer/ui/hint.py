"""The first-run hint: "F1: keys" in a box near the top of the window, shown for :data:`HINT_TIME` seconds or until
the first key press or click, on the runs until one has saved its settings (``hint_seen`` in
:mod:`viewer.settings`)."""

from __future__ import annotations

from ..render.refdef import Rect, Text, UiLayout
from .timeline_bar import CHAR, TEXT_COLOR, TOOLTIP_COLOR

#: Seconds the hint stays when nothing is pressed.
HINT_TIME = 8.0
HINT_TEXT = "F1: keys   mouse: controls"


def hint_layout(size: tuple[int, int], scale: int, text: str = HINT_TEXT) -> UiLayout:
    """``text`` in a translucent box, centred a sixth of the way down the window (narrower windows: a smaller
    scale, so it fits)."""
    s = max(1, scale)
    while s > 1 and len(text) * CHAR * s + 12 * s > size[0]:
        s -= 1
    ch = CHAR * s
    pad = 4 * s
    w, h = len(text) * ch + 2 * pad, ch + 2 * pad
    x, y = (size[0] - w) / 2, size[1] / 6
    return UiLayout((Rect(x, y, w, h, TOOLTIP_COLOR),), (Text(x + pad, y + pad, text, ch, TEXT_COLOR),))
