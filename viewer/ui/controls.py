"""The clickable controls shown with the timeline bar, as a pure layout plus hit-testing (no OpenGL, no window).

A row of buttons just above the bar (above its camera key row when the path has keys), as in a media player:
transport (frame back, play/pause, frame forward, slower, the speed, faster, reverse), the cameras (POV, free,
chase, orbit, path when the path has keys), then at the right the HUD and bar toggles, mute and volume, screenshot,
export and help; above the row's right end the players that can be watched, with their colours and scores.

Every button names the key it stands for (:attr:`Control.key`, a ``pyglet.window.key.symbol_string`` and modifier
bits): the window presses that key, so a click and a key press take the same path. A player line carries
the player to watch (:attr:`Control.watch`: a POV slot in an MVD, else an entity number), what Tab cycles through.
Each control's tooltip names its key. Coordinates are pixels from the window's top-left corner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..render.refdef import Rect, Text, UiLayout
from .key_row import KEY_ROW_HEIGHT
from .timeline_bar import CHAR, DIM_TEXT_COLOR, PANEL_COLOR, TEXT_COLOR, BarGeometry

#: The row's height and the padding around a label, in virtual pixels (multiplied by the row's scale).
ROW_HEIGHT = 12
PAD = 2
GAP = 1
GROUP_GAP = 6
#: Players listed at most (the rest are reached with Tab).
MAX_PLAYERS = 8
BUTTON_COLOR = (0.22, 0.22, 0.22, 0.9)
LIT_COLOR = (0.85, 0.45, 0.1, 0.95)
HOVER_BUTTON_COLOR = (0.45, 0.45, 0.45, 0.95)
#: Opaque, so the labels drawn before it (the controls are drawn under the rest of the UI) do not show through.
TIP_COLOR = (0.05, 0.05, 0.05, 1.0)
#: pyglet's Ctrl modifier bit (:data:`viewer.input.CTRL`).
CTRL = 2

RGBA = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    """A player that can be watched: ``watch`` (POV slot or entity number), plain ``name``, ``score``, shirt and
    pants colours."""

    watch: int
    name: str
    score: int
    top: RGBA = TEXT_COLOR
    bottom: RGBA = TEXT_COLOR


@dataclass(frozen=True, slots=True)
class ControlsStatus:
    """What the controls show: the clock's ``speed`` (signed) and ``paused``, the camera ``mode``, whether the path
    has keys, the HUD shown, the sound's ``volume`` (``None``: no sound device) and ``muted``, the players and the
    one watched (``None``: none)."""

    speed: float = 1.0
    paused: bool = False
    mode: str = "pov"
    has_path: bool = False
    show_hud: bool = True
    volume: float | None = None
    muted: bool = False
    players: tuple[PlayerEntry, ...] = ()
    watched: int | None = None


@dataclass(frozen=True, slots=True)
class Control:
    """One clickable item at ``x, y`` (``w`` × ``h``): its ``label``, ``tooltip``, the key it presses (``key`` with
    ``modifiers``; ``""`` for a label that does nothing) or the player it watches (``watch``), ``lit`` when its state
    is on, ``swatch`` colours drawn before the label (players)."""

    name: str
    label: str
    tooltip: str
    x: float
    y: float
    w: float
    h: float
    key: str = ""
    modifiers: int = 0
    watch: int | None = None
    lit: bool = False
    swatch: tuple[RGBA, ...] = ()

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h

    @property
    def clickable(self) -> bool:
        return bool(self.key) or self.watch is not None


@dataclass(frozen=True, slots=True)
class _Item:
    name: str
    label: str
    tooltip: str
    key: str = ""
    modifiers: int = 0
    lit: bool = False


def speed_text(speed: float) -> str:
    return f"{abs(speed):g}x"


def _transport(st: ControlsStatus) -> list[_Item]:
    return [
        _Item("step_back", "[<", "one frame back (,)", "COMMA"),
        _Item("pause", ">" if st.paused else "II", "play (Space)" if st.paused else "pause (Space)", "SPACE",
              lit=st.paused),
        _Item("step_forward", ">]", "one frame forward (.)", "PERIOD"),
        _Item("slower", "-", "slower (Down / [)", "DOWN"),
        _Item("speed", speed_text(st.speed), "speed (Up / Down)"),
        _Item("faster", "+", "faster (Up / ])", "UP"),
        _Item("reverse", "rev", "play in reverse / forwards (Backspace)", "BACKSPACE", lit=st.speed < 0),
    ]


def _cameras(st: ControlsStatus) -> list[_Item]:
    items = [
        _Item("pov", "pov", "the player's eyes (V)", "V", lit=st.mode == "pov"),
        _Item("free", "free", "free camera (F)", "F", lit=st.mode == "free"),
        _Item("chase", "chase", "chase camera (C)", "C", lit=st.mode == "chase"),
        _Item("orbit", "orbit", "orbit the next player or monster (R)", "R", lit=st.mode == "orbit"),
    ]
    if st.has_path:
        items.append(_Item("path", "path", "camera path (P)", "P", lit=st.mode == "path"))
    return items


def _tools(st: ControlsStatus) -> list[_Item]:
    volume = "" if st.volume is None else ("off" if st.muted else f"{round(st.volume * 100)}%")
    items = [
        _Item("hud", "hud", "hide / show the HUD (H)", "H", lit=st.show_hud),
        _Item("bar", "bar", "hide the bar and these controls (B)", "B", lit=True),
        _Item("mute", "mute", "sound off / on (M)", "M", lit=st.muted),
        _Item("volume_down", "-", "volume down (-)", "MINUS"),
    ]
    if volume:
        items.append(_Item("volume", volume, "volume (- / =)"))
    items += [
        _Item("volume_up", "+", "volume up (=)", "EQUAL"),
        _Item("screenshot", "shot", "screenshot (F12)", "F12"),
        _Item("export", "export", "export the range as .mp4 (Ctrl+E)", "E", CTRL),
        _Item("help", "?", "keys (F1)", "F1"),
    ]
    return items


def _width(label: str, s: int) -> float:
    return float((len(label) * CHAR + 2 * PAD) * s)


def _groups_width(groups: Sequence[Sequence[_Item]], s: int) -> float:
    items = [i for g in groups for i in g]
    return sum(_width(i.label, s) for i in items) + GAP * s * (len(items) - len(groups)) + \
        GROUP_GAP * s * (len(groups) - 1)


def row_scale(g: BarGeometry, st: ControlsStatus) -> int:
    """The bar's scale, or the largest smaller one at which the whole row fits the window's width."""
    groups = (_transport(st), _cameras(st), _tools(st))
    s = g.scale
    while s > 1 and _groups_width(groups, s) + 2 * g.x0 > g.width:
        s -= 1
    return s


def row_top(g: BarGeometry, has_keys: bool, s: int) -> float:
    """The top of the row: above the bar, and above its key row when the camera path has keys."""
    return g.top - (KEY_ROW_HEIGHT * g.scale if has_keys else 0) - ROW_HEIGHT * s


def controls(g: BarGeometry, st: ControlsStatus, has_keys: bool = False) -> tuple[Control, ...]:
    """Every control of a window with bar ``g``: the row (transport and cameras from the left, the tools
    right-aligned), then the player lines above the row's right end, the watched one lit."""
    s = row_scale(g, st)
    top = row_top(g, has_keys, s)
    h = float(ROW_HEIGHT * s)
    out: list[Control] = []

    def place(items: Sequence[_Item], x: float) -> float:
        for i in items:
            w = _width(i.label, s)
            out.append(Control(i.name, i.label, i.tooltip, x, top, w, h, i.key, i.modifiers, None, i.lit))
            x += w + GAP * s
        return x - GAP * s

    x = place(_transport(st), g.x0) + GROUP_GAP * s
    place(_cameras(st), x)
    tools = _tools(st)
    place(tools, g.x1 - _groups_width([tools], s))
    players = st.players[:MAX_PLAYERS]
    if players:
        names = [f"{p.name[:15]:<15} {p.score:>4}" for p in players]
        w = _width(names[0], s) + 2 * CHAR * s      # room for the two colour halves
        y = top - s - h * len(players)
        for p, label in zip(players, names):
            out.append(Control(f"player {p.watch}", label, f"watch {p.name} (Tab: next)",
                               g.x1 - w, y, w, h, watch=p.watch, lit=p.watch == st.watched, swatch=(p.top, p.bottom)))
            y += h
    return tuple(out)


def control_at(items: Sequence[Control], x: float, y: float) -> Control | None:
    """The clickable control under the (top-left based) point, or ``None``."""
    for c in items:
        if c.clickable and c.contains(x, y):
            return c
    return None


def on_controls(items: Sequence[Control], x: float, y: float) -> bool:
    """Is the point on any control (clickable or not)? The view must not take a click there."""
    return any(c.contains(x, y) for c in items)


def controls_layout(items: Sequence[Control], hover: tuple[float, float] | None = None) -> UiLayout:
    """The controls: a panel behind the row, each button's box (lit, or lighter under the mouse) and label, each
    player's colour halves."""
    if not items:
        return UiLayout()
    row = [c for c in items if c.watch is None]
    rects: list[Rect] = []
    texts: list[Text] = []
    if row:
        top, bottom = min(c.y for c in row), max(c.y + c.h for c in row)
        rects.append(Rect(0, top, max(c.x + c.w for c in row) + row[0].x, bottom - top, PANEL_COLOR))
    under = control_at(items, *hover) if hover is not None else None
    for c in items:
        s = c.h / ROW_HEIGHT
        colour = LIT_COLOR if c.lit else HOVER_BUTTON_COLOR if c is under else BUTTON_COLOR
        if c.clickable or c.lit:
            rects.append(Rect(c.x, c.y + s / 2, c.w, c.h - s, colour))
        x = c.x + PAD * s
        if c.swatch:
            half = (c.h - 4 * s) / 2
            for i, sw in enumerate(c.swatch[:2]):
                rects.append(Rect(x, c.y + 2 * s + i * half, CHAR * s, half, sw))
            x += 2 * CHAR * s
        texts.append(Text(x, c.y + (c.h - CHAR * s) / 2, c.label, CHAR * s,
                          TEXT_COLOR if c.clickable else DIM_TEXT_COLOR))
    return UiLayout(tuple(rects), tuple(texts))


def tooltip_layout(items: Sequence[Control], hover: tuple[float, float] | None,
                   size: tuple[int, int]) -> UiLayout:
    """The tooltip of the control under ``hover``, in a box just above it (below it when there is no room; left of
    a player's line)."""
    if hover is None:
        return UiLayout()
    c = next((c for c in items if c.contains(*hover)), None)
    if c is None:
        return UiLayout()
    s = c.h / ROW_HEIGHT
    ch = CHAR * s
    w = len(c.tooltip) * ch + 4 * s
    h = ch + 4 * s
    if c.watch is not None:      # a player line: beside it, so the other lines stay readable
        x, y = max(c.x - w - s, 0.0), c.y + (c.h - h) / 2
    else:
        x = min(max(c.x + c.w / 2 - w / 2, 0.0), max(size[0] - w, 0.0))
        y = c.y - h - s if c.y - h - s >= 0 else c.y + c.h + s
    return UiLayout((Rect(x, y, w, h, TIP_COLOR),), (Text(x + 2 * s, y + 2 * s, c.tooltip, ch, TEXT_COLOR),))
