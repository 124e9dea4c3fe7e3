"""Where the panes of a multiview frame are: pure rectangles in pixels, top-left based (the UI's convention).

Two layouts: ``split`` tiles the frame (1: whole, 2: side by side, 3: one tall pane and two stacked, 4: a 2×2
grid) with a :data:`GAP` between panes; ``inset`` shows pane 0 over the whole frame and up to three small insets
a quarter of the frame's size in a column at its top right. The window's G key steps through
:data:`LAYOUT_CYCLE`.
"""

from __future__ import annotations

from typing import NamedTuple

from ..ui.timeline_bar import ui_scale

LAYOUTS = ("split", "inset")
MAX_PANES = 4
#: Pixels between split panes (the border shows there).
GAP = 2
#: What G steps through: (panes, layout).
LAYOUT_CYCLE: tuple[tuple[int, str], ...] = ((1, "split"), (2, "split"), (4, "split"), (4, "inset"))
#: Virtual pixels a step of HUD scale needs in a pane (Quake's status bar is 320 wide; 180 rows keep 16:9).
HUD_STEP = (320, 180)


class Rect(NamedTuple):
    """A pane's rectangle: left, top, width, height in pixels."""

    x: int
    y: int
    w: int
    h: int

    @property
    def size(self) -> tuple[int, int]:
        return self.w, self.h

    def contains(self, px: float, py: float) -> bool:
        return self.x <= px < self.x + self.w and self.y <= py < self.y + self.h


def _halves(length: int, from_start: bool) -> tuple[tuple[int, int], tuple[int, int]]:
    """``length`` cut in two with :data:`GAP` between: ((start, length), (start, length)), each half an even number
    of pixels from the frame's left (``from_start``) or bottom edge (:func:`_even_origin`)."""
    first = max((length - GAP) // 2, 1)
    if (first if from_start else length - first) % 2 and first > 1:
        first -= 1
    second = first + GAP
    return (0, first), (second, max(length - second, 1))


def _even_origin(rect: Rect, height: int) -> Rect:
    """``rect`` moved by at most a pixel left and down so that it starts an even number of pixels from the frame's
    left and bottom edges: a pane is drawn straight into the frame (:mod:`.draw`), and llvmpipe shades pixels in
    2×2 quads from the framebuffer's corner, whose differences choose the mipmap level; aligned so, a pane's picture
    is its camera's own but for rounding."""
    x = rect.x - rect.x % 2
    y = rect.y + (height - rect.y - rect.h) % 2
    return Rect(x, min(y, max(height - rect.h, 0)), rect.w, rect.h)


def pane_rects(count: int, size: tuple[int, int], layout: str = "split") -> tuple[Rect, ...]:
    """The rectangles of ``count`` panes (clamped to 1..:data:`MAX_PANES`) in a ``size`` frame."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout {layout!r}: expected one of {', '.join(LAYOUTS)}")
    w, h = max(int(size[0]), 1), max(int(size[1]), 1)
    n = min(max(int(count), 1), MAX_PANES)
    whole = Rect(0, 0, w, h)
    if n == 1:
        return (whole,)
    if layout == "inset":
        iw, ih = max(w // 4, 1), max(h // 4, 1)
        margin = max(h // 48, GAP)
        return (whole, *(_even_origin(Rect(w - margin - iw, margin + i * (ih + margin), iw, ih), h)
                         for i in range(n - 1)))
    (x0, w0), (x1, w1) = _halves(w, from_start=True)
    (y0, h0), (y1, h1) = _halves(h, from_start=False)
    if n == 2:
        return Rect(x0, 0, w0, h), Rect(x1, 0, w1, h)
    if n == 3:
        return Rect(x0, 0, w0, h), Rect(x1, y0, w1, h0), Rect(x1, y1, w1, h1)
    return Rect(x0, y0, w0, h0), Rect(x1, y0, w1, h0), Rect(x0, y1, w0, h1), Rect(x1, y1, w1, h1)


def pane_at(rects: tuple[Rect, ...], x: float, y: float) -> int | None:
    """The pane under the (top-left based) point: the one drawn last when panes overlap (insets); ``None`` in a
    gap or outside."""
    for i in range(len(rects) - 1, -1, -1):
        if rects[i].contains(x, y):
            return i
    return None


def next_layout(count: int, layout: str) -> tuple[int, str]:
    """The step of :data:`LAYOUT_CYCLE` after (``count``, ``layout``); from a step not in the cycle (``--multiview
    3``), the first step with more panes."""
    steps = LAYOUT_CYCLE
    here = (count, "split" if count == 1 else layout)
    if here in steps:
        return steps[(steps.index(here) + 1) % len(steps)]
    return next((s for s in steps if s[0] > count), steps[0])


def pane_ui_scale(pane: tuple[int, int], frame: tuple[int, int]) -> int:
    """The HUD scale of a pane: the frame's own (:func:`~viewer.ui.timeline_bar.ui_scale`) for a pane that is the
    whole frame, else one step below it, so a quarter pane keeps numbers that can be read; at most what fits
    (:data:`HUD_STEP` pixels a step) and at least 1."""
    if tuple(pane) == tuple(frame):
        return ui_scale(frame)
    fits = min(pane[0] // HUD_STEP[0], pane[1] // HUD_STEP[1])
    return max(1, min(ui_scale(frame) - 1, fits))
