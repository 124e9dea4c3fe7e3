"""The timeline bar as a pure layout: rectangles, marker ticks and text in window pixels, plus hit-testing.

Nothing here touches OpenGL or the window: :func:`timeline_layout` turns (the demo's time range and markers, the
current time, the window size) into a :class:`UiLayout` that :class:`viewer.render.ui_overlay.UiRenderer` draws, and the
same :class:`BarGeometry` converts mouse positions back to times, so what is drawn and what is clicked always agree.
Coordinates are pixels from the window's top-left corner (pyglet's mouse ``y`` counts from the bottom: flip it
with ``height - y`` first).

Markers come from the demo's events (:func:`markers_from_events`): frags and deaths (``obituary``), centerprints,
map changes (``serverinfo`` after the first), intermissions (``intermission``, ``finale``, ``cutscene``) and round
starts (``round``).

The bar sits at the bottom of the window, just above Quake's status bar (``bottom`` = window height − the HUD's
``sbar_lines``), so it never hides the health and ammo numbers.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from assets_loader.demos.events import Event
from assets_loader.demos.quake3.colors import strip_colors

from ..render.refdef import Rect, Text, UiLayout

#: RGBA colours (0..1) of each marker kind; ``kill`` is an obituary naming neither side as the recorder.
MARKER_COLORS: dict[str, tuple[float, float, float, float]] = {
    "frag": (0.35, 0.95, 0.35, 1.0),
    "death": (1.0, 0.25, 0.2, 1.0),
    "kill": (0.95, 0.6, 0.25, 1.0),
    "centerprint": (1.0, 0.9, 0.3, 1.0),
    "map": (0.35, 0.65, 1.0, 1.0),
    "intermission": (0.85, 0.45, 1.0, 1.0),
    "round": (0.3, 0.9, 0.9, 1.0),
}
PANEL_COLOR = (0.0, 0.0, 0.0, 0.6)
PLAYED_COLOR = (0.85, 0.45, 0.1, 1.0)
REMAINING_COLOR = (0.35, 0.35, 0.35, 1.0)
HEAD_COLOR = (1.0, 1.0, 1.0, 1.0)
TEXT_COLOR = (1.0, 1.0, 1.0, 1.0)
DIM_TEXT_COLOR = (0.8, 0.8, 0.8, 1.0)
HOVER_COLOR = (1.0, 1.0, 1.0, 0.5)
TOOLTIP_COLOR = (0.05, 0.05, 0.05, 0.85)
#: The marked export range (I / O): a translucent band over the track with solid edges at the marks.
RANGE_COLOR = (0.3, 0.65, 1.0, 0.45)
RANGE_EDGE_COLOR = (0.45, 0.8, 1.0, 1.0)
#: The running export's progress: a thin line along the top of the panel.
PROGRESS_COLOR = (0.3, 0.9, 0.5, 1.0)

#: Heights and margins in virtual pixels (multiplied by the UI scale).
BAR_HEIGHT = 30
MARGIN = 8
TRACK_Y, TRACK_H = 7, 6
TEXT_Y = 18
CHAR = 8
#: A marker counts as "under the mouse" within this many virtual pixels.
HOVER_RADIUS = 6
#: Marker jumps land this many seconds before the event, so the moment itself is seen.
MARKER_LEAD = 1.0


@dataclass(frozen=True, slots=True)
class Marker:
    """A moment worth jumping to: ``time`` (timeline seconds), ``kind`` (a :data:`MARKER_COLORS` key), a label."""

    time: float
    kind: str
    label: str


@dataclass(frozen=True, slots=True)
class BarGeometry:
    """Where the bar is in a ``width`` × ``height`` window: the panel spans rows ``top..bottom``, the track
    columns ``x0..x1``; times ``start..end`` map linearly onto the track."""

    width: int
    height: int
    bottom: int
    scale: int
    start: float
    end: float

    @property
    def top(self) -> int:
        return self.bottom - BAR_HEIGHT * self.scale

    @property
    def x0(self) -> float:
        return float(MARGIN * self.scale)

    @property
    def x1(self) -> float:
        return float(max(self.width - MARGIN * self.scale, self.x0 + 1))

    def contains(self, x: float, y: float) -> bool:
        """Is the (top-left based) point on the bar's panel?"""
        return 0 <= x < self.width and self.top <= y < self.bottom

    def time_at(self, x: float) -> float:
        """The time under column ``x`` (clamped to the demo)."""
        f = (x - self.x0) / (self.x1 - self.x0)
        f = min(max(f, 0.0), 1.0)
        return self.start + f * (self.end - self.start)

    def x_of(self, t: float) -> float:
        span = self.end - self.start
        f = (t - self.start) / span if span > 0 else 0.0
        return self.x0 + min(max(f, 0.0), 1.0) * (self.x1 - self.x0)


def ui_scale(size: tuple[int, int]) -> int:
    """Integer scale for the 2D layers, ezQuake's text size: 2 at 1280×720 and a few pixels narrower (1277×720),
    3 at 1920×1080, 1 below about 960×720 (the width rounds, the height steps at 360 rows)."""
    w, h = size
    return max(1, min(int(w / 640 + 0.5), h // 360))


def bar_geometry(size: tuple[int, int], start: float, end: float, bottom_margin: int = 0,
                 scale: int | None = None) -> BarGeometry:
    """The bar of a ``size`` window whose bottom ``bottom_margin`` rows belong to the status bar."""
    w, h = int(size[0]), int(size[1])
    s = ui_scale(size) if scale is None else max(1, int(scale))
    bottom = max(h - int(bottom_margin), BAR_HEIGHT * s)
    return BarGeometry(w, h, bottom, s, float(start), float(end))


def format_time(seconds: float) -> str:
    """``M:SS.s`` (``H:MM:SS.s`` past an hour); negative values get a ``-``."""
    sign = "-" if seconds < 0 else ""
    tenths = int(round(abs(seconds) * 10))
    h, rest = divmod(tenths, 36000)
    m, rest = divmod(rest, 600)
    s, d = divmod(rest, 10)
    return f"{sign}{h}:{m:02d}:{s:02d}.{d}" if h else f"{sign}{m}:{s:02d}.{d}"


def _plain(text: str, color_codes: bool) -> str:
    """First line of a Quake message, bronze characters folded to white, control characters dropped; Quake III
    colour codes dropped too when the game has them (``color_codes``)."""
    if color_codes:
        text = strip_colors(text)
    out = []
    for ch in text.strip("\n").split("\n", 1)[0]:
        c = ord(ch) & 127
        if c >= 32:
            out.append(chr(c))
    return "".join(out).strip()


def markers_from_events(events: Sequence[Event], recorder: str | None = None,
                        color_codes: bool = False) -> tuple[Marker, ...]:
    """Frags/deaths (``obituary``: ``frag`` when ``recorder`` killed, ``death`` when the recorder died, else
    ``kill``), centerprints, map changes (every ``serverinfo`` after the first), intermissions and round starts
    (Quake Live's clan arena, freeze tag…), in time order; ``color_codes``: the texts have Quake III colour codes
    (the tooltips leave them out)."""
    markers: list[Marker] = []
    seen_serverinfo = False
    for e in events:
        kind = e.kind
        if kind == "obituary":
            victim, killer = getattr(e, "victim", None), getattr(e, "killer", None)
            if recorder and victim == recorder:
                mk = "death"
            elif recorder and killer == recorder and not getattr(e, "suicide", False):
                mk = "frag"
            else:
                mk = "kill"
            markers.append(Marker(e.time, mk, _plain(getattr(e, "text", ""), color_codes) or "obituary"))
        elif kind == "centerprint":
            markers.append(Marker(e.time, "centerprint", _plain(getattr(e, "text", ""), color_codes) or "centerprint"))
        elif kind == "serverinfo":
            if seen_serverinfo:
                level = _plain(getattr(e, "level_name", ""), color_codes)
                name = getattr(e, "map", "")
                markers.append(Marker(e.time, "map", f"map {name}" + (f" ({level})" if level else "")))
            seen_serverinfo = True
        elif kind in ("intermission", "finale", "cutscene"):
            markers.append(Marker(e.time, "intermission", kind))
        elif kind == "round" and getattr(e, "started", False):
            number = getattr(e, "number", 0)
            markers.append(Marker(e.time, "round", f"round {number}" if number else "round"))
    markers.sort(key=lambda m: m.time)
    return tuple(markers)


def next_marker_time(markers: Sequence[Marker], t: float, direction: int, lead: float = MARKER_LEAD) -> float | None:
    """Where a jump to the next (``+1``) or previous (``-1``) marker lands (``lead`` seconds before it), or ``None``.

    Landing times are ``marker.time - lead``; "next" is the first landing time after ``t``, "previous" the last
    one before it (with a 0.05 s tolerance, so pressing the key twice moves on instead of landing again)."""
    lands = [m.time - lead for m in markers]
    if direction > 0:
        i = bisect_right(lands, t + 0.05)
        return lands[i] if i < len(lands) else None
    i = bisect_left(lands, t - 0.05) - 1
    return lands[i] if i >= 0 else None


def nearest_marker(geometry: BarGeometry, markers: Sequence[Marker], x: float) -> Marker | None:
    """The marker drawn closest to column ``x`` within :data:`HOVER_RADIUS` virtual pixels, or ``None``."""
    best, best_d = None, HOVER_RADIUS * geometry.scale + 0.5
    for m in markers:
        d = abs(geometry.x_of(m.time) - x)
        if d <= best_d:
            best, best_d = m, d
    return best


@dataclass(frozen=True, slots=True)
class BarStatus:
    """What the bar's text row says besides the time: speed (signed), paused, camera mode name."""

    speed: float = 1.0
    paused: bool = False
    camera: str = "pov"


def _speed_text(speed: float) -> str:
    a = abs(speed)
    s = f"{a:g}x"
    return ("rev " if speed < 0 else "") + s


def timeline_layout(geometry: BarGeometry, markers: Sequence[Marker], t: float, status: BarStatus = BarStatus(),
                    hover: tuple[float, float] | None = None, show_markers: bool = True, *,
                    marked: tuple[float | None, float | None] | None = None,
                    export_progress: float | None = None) -> UiLayout:
    """The bar at time ``t``: panel, played/remaining track, marker ticks, play head, ``time / total`` and status
    text; with ``hover`` (a top-left based mouse position over the bar) a tooltip with the time under the mouse and
    the nearest marker's label.

    ``marked`` (in, out) draws the export range as a band over the track, an unset side reaching the demo's end
    (an edge is drawn only at a set mark); ``export_progress`` (0..1) a line along the panel's top and
    ``export NN%`` in the status text."""
    g = geometry
    s = g.scale
    rects: list[Rect] = []
    texts: list[Text] = []
    top = g.top
    rects.append(Rect(0, top, g.width, g.bottom - top, PANEL_COLOR))
    ty = top + TRACK_Y * s
    th = TRACK_H * s
    head = g.x_of(t)
    rects.append(Rect(g.x0, ty, head - g.x0, th, PLAYED_COLOR))
    rects.append(Rect(head, ty, g.x1 - head, th, REMAINING_COLOR))
    if marked is not None and (marked[0] is not None or marked[1] is not None):
        rects.extend(_range_band(g, marked, ty, th))
    if export_progress is not None:
        done = min(max(export_progress, 0.0), 1.0)
        rects.append(Rect(0, top, g.width * done, 2 * s, PROGRESS_COLOR))
    if show_markers:
        for m in markers:
            x = g.x_of(m.time)
            rects.append(Rect(x - s, ty - 3 * s, 2 * s, th + 6 * s, MARKER_COLORS.get(m.kind, TEXT_COLOR)))
    rects.append(Rect(head - 2 * s, ty - 4 * s, 4 * s, th + 8 * s, HEAD_COLOR))

    size = CHAR * s
    duration = g.end - g.start
    left = f"{format_time(t - g.start)} / {format_time(duration)}"
    texts.append(Text(g.x0, top + TEXT_Y * s, left, size))
    parts = [] if export_progress is None else [f"export {int(min(max(export_progress, 0.0), 1.0) * 100)}%"]
    parts.append(_speed_text(status.speed))
    if status.paused:
        parts.append("paused")
    if status.camera != "pov":
        parts.append(status.camera)
    right = "  ".join(parts)
    texts.append(Text(g.x1 - len(right) * size, top + TEXT_Y * s, right, size, DIM_TEXT_COLOR))

    if hover is not None and g.contains(*hover):
        hx = min(max(hover[0], g.x0), g.x1)
        rects.append(Rect(hx - s / 2, ty - 2 * s, max(1, s), th + 4 * s, HOVER_COLOR))
        label = format_time(g.time_at(hx) - g.start)
        marker = nearest_marker(g, markers, hover[0]) if show_markers else None
        if marker is not None:
            label = f"{format_time(marker.time - g.start)}  {marker.label}"
        width = len(label) * size + 2 * s * 2
        box_x = min(max(hx - width / 2, 0), max(g.width - width, 0))
        box_y = top - size - 6 * s
        rects.append(Rect(box_x, box_y, width, size + 4 * s, TOOLTIP_COLOR))
        colour = MARKER_COLORS.get(marker.kind, TEXT_COLOR) if marker is not None else TEXT_COLOR
        texts.append(Text(box_x + 2 * s, box_y + 2 * s, label, size, colour))
    return UiLayout(tuple(rects), tuple(texts))


def _range_band(g: BarGeometry, marked: tuple[float | None, float | None], ty: float, th: float) -> list[Rect]:
    """The export range over the track from ``ty`` (``th`` high): the band, and an edge at each set mark."""
    s = g.scale
    start, end = marked
    a = g.x_of(g.start if start is None else start)
    b = g.x_of(g.end if end is None else end)
    rects = [Rect(a, ty - 2 * s, max(b - a, 1.0), th + 4 * s, RANGE_COLOR)]
    for mark, x in ((start, a), (end, b - s)):
        if mark is not None:
            rects.append(Rect(x, ty - 5 * s, s, th + 10 * s, RANGE_EDGE_COLOR))
    return rects


def text_box_layout(lines: Sequence[str], size: tuple[int, int], scale: int, *, anchor: str = "center",
                    color: tuple[float, float, float, float] = TEXT_COLOR) -> UiLayout:
    """A translucent box of text lines: centred (``anchor="center"``) or at the top-right (``"topright"``), at
    ``scale`` or the largest smaller scale whose box fits the window."""
    if not lines:
        return UiLayout()
    longest = max(len(line) for line in lines)
    s = max(1, scale)
    while s > 1 and (longest * CHAR * s + 12 * s > size[0] or len(lines) * (CHAR + 2) * s + 12 * s > size[1]):
        s -= 1
    ch = CHAR * s
    pad = 6 * s
    w = longest * ch + 2 * pad
    h = len(lines) * (ch + 2 * s) + 2 * pad
    if anchor == "center":
        x, y = (size[0] - w) / 2, (size[1] - h) / 2
    else:
        x, y = size[0] - w - 4 * s, 4 * s
    texts = tuple(Text(x + pad, y + pad + i * (ch + 2 * s), line, ch, color) for i, line in enumerate(lines))
    return UiLayout((Rect(x, y, w, h, TOOLTIP_COLOR),), texts)
