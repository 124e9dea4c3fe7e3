"""The camera keys' row of the timeline bar, as a pure layout plus hit-testing (no OpenGL, no window).

A strip just above the bar's panel, drawn while the bar shows and the camera path has keys: one mark per key at its
time on the same scale as the bar's track (:class:`~viewer.ui.timeline_bar.BarGeometry`), a faint line from the
first key to the last (where the path moves), the selected key taller and white, keys aiming at an entity
(``look_at``) pink. Event markers stay on the bar's own track, so the two never mix. Hovering a mark shows its
time, fov and aim; the same geometry answers which mark is under the mouse, so what is drawn and what is clicked
agree. Coordinates are pixels from the window's top-left corner.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..camera_path import CameraKey
from ..render.refdef import Rect, Text, UiLayout
from .timeline_bar import CHAR, HOVER_RADIUS, PANEL_COLOR, TEXT_COLOR, TOOLTIP_COLOR, BarGeometry, format_time

#: The row's height in virtual pixels (multiplied by the UI scale).
KEY_ROW_HEIGHT = 12
KEY_COLOR = (0.3, 0.85, 1.0, 1.0)
LOOK_AT_COLOR = (1.0, 0.5, 0.85, 1.0)
SELECTED_COLOR = (1.0, 1.0, 1.0, 1.0)
SPAN_COLOR = (0.3, 0.85, 1.0, 0.45)


def key_row_top(g: BarGeometry) -> float:
    return float(g.top - KEY_ROW_HEIGHT * g.scale)


def on_key_row(g: BarGeometry, x: float, y: float) -> bool:
    """Is the (top-left based) point on the key row?"""
    return 0 <= x < g.width and key_row_top(g) <= y < g.top


def key_mark_x(g: BarGeometry, key: CameraKey) -> float:
    """The column of ``key``'s mark (key times count from the demo's start; keys outside it sit at the ends)."""
    return g.x_of(g.start + key.time)


def key_mark_at(g: BarGeometry, keys: Sequence[CameraKey], x: float, y: float) -> int | None:
    """The index of the key whose mark is nearest ``(x, y)`` on the row, within :data:`HOVER_RADIUS` virtual pixels,
    or ``None``."""
    if not on_key_row(g, x, y):
        return None
    best, best_d = None, HOVER_RADIUS * g.scale + 0.5
    for i, k in enumerate(keys):
        d = abs(key_mark_x(g, k) - x)
        if d <= best_d:
            best, best_d = i, d
    return best


def key_row_layout(g: BarGeometry, keys: Sequence[CameraKey], selected: int | None,
                   hover: tuple[float, float] | None = None) -> UiLayout:
    """The row: its strip, the span line, one mark per key (the selected one last, on top) and, with the mouse over a
    mark, a tooltip ``key N  M:SS.s  fov F  look at E``."""
    if not keys:
        return UiLayout()
    s = g.scale
    top = key_row_top(g)
    h = KEY_ROW_HEIGHT * s
    rects = [Rect(0, top, g.width, h, PANEL_COLOR)]
    first, last = key_mark_x(g, keys[0]), key_mark_x(g, keys[-1])
    rects.append(Rect(first, top + h / 2 - s / 2, max(last - first, 1), max(s, 1), SPAN_COLOR))
    order = [i for i in range(len(keys)) if i != selected] + ([selected] if selected is not None else [])
    for i in order:
        x = key_mark_x(g, keys[i])
        if i == selected:
            rects.append(Rect(x - 3 * s, top + s, 6 * s, h - 2 * s, SELECTED_COLOR))
        colour = LOOK_AT_COLOR if keys[i].look_at is not None else KEY_COLOR
        rects.append(Rect(x - 2 * s, top + 2 * s, 4 * s, h - 4 * s, colour))
    texts: list[Text] = []
    under = key_mark_at(g, keys, *hover) if hover is not None else None
    if under is not None:
        k = keys[under]
        label = f"key {under + 1}  {format_time(k.time)}  fov {k.fov:g}"
        if k.look_at is not None:
            label += f"  look at {k.look_at}"
        size = CHAR * s
        width = len(label) * size + 4 * s
        box_x = min(max(key_mark_x(g, k) - width / 2, 0), max(g.width - width, 0))
        box_y = top - size - 6 * s
        rects.append(Rect(box_x, box_y, width, size + 4 * s, TOOLTIP_COLOR))
        texts.append(Text(box_x + 2 * s, box_y + 2 * s, label, size, TEXT_COLOR))
    return UiLayout(tuple(rects), tuple(texts))
