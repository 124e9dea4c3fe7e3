"""Keys and mouse → viewer actions: a pure table, no pyglet import (the window converts pyglet's key symbols to
names with ``pyglet.window.key.symbol_string`` and passes its modifier bits, which equal :data:`SHIFT`, :data:`CTRL`
and :data:`ALT`).

:func:`key_action` maps one key press to an :class:`Action`; :func:`movement` reads the keys held down for the free
camera (WASD, Q/E, Shift); :func:`mouse_press` / :func:`mouse_drag` / :func:`mouse_scroll` say what a mouse event
means given where it happened (on the timeline bar or over the 3D view). :data:`KEY_HELP` lists every binding for
the in-window help (F1) and the README.
"""

from __future__ import annotations

from dataclasses import dataclass

#: pyglet's modifier bits (``pyglet.window.key.MOD_SHIFT`` …).
SHIFT, CTRL, ALT = 1, 2, 4
#: pyglet's mouse buttons (``pyglet.window.mouse.LEFT`` …).
MOUSE_LEFT, MOUSE_MIDDLE, MOUSE_RIGHT = 1, 2, 4

SEEK_STEP, SEEK_BIG_STEP = 5.0, 30.0
#: Playback speeds ↑/↓ (and ] / [) step through.
SPEEDS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 10.0)


@dataclass(frozen=True, slots=True)
class Action:
    """Something the user asked for: ``name`` plus up to two numbers (seek seconds, mouse x/y, …)."""

    name: str
    a: float = 0.0
    b: float = 0.0


@dataclass(frozen=True, slots=True)
class Movement:
    """Free-camera movement from the held keys: each axis −1, 0 or +1; ``fast`` while Shift is held."""

    forward: float = 0.0
    right: float = 0.0
    up: float = 0.0
    fast: bool = False

    @property
    def moving(self) -> bool:
        return bool(self.forward or self.right or self.up)


_DIGITS = {f"_{d}": d for d in range(10)} | {f"NUM_{d}": d for d in range(10)} | {str(d): d for d in range(10)}

#: (keys, what they do) — the in-window help and README "Keys" section.
KEY_HELP: tuple[tuple[str, str], ...] = (
    ("Space", "pause / play"),
    ("Left / Right", "seek -5 s / +5 s (Shift: 30 s)"),
    ("Up / Down, ] / [", "faster / slower (0.1x - 10x)"),
    ("Backspace", "play in reverse / forwards"),
    (", / .", "one frame back / forward (pauses)"),
    ("Home / End", "start / end of the demo"),
    ("0 - 9", "jump to 0% - 90%"),
    ("PgDn / PgUp, N / Shift+N", "next / previous marker"),
    ("B", "hide / show the timeline bar and markers"),
    ("mouse on the bar", "click or drag to scrub; hover: time and event"),
    ("buttons over the bar", "click: the key in the tooltip; a player: watch"),
    ("F", "free camera (again: back to POV)"),
    ("W A S D, Q / E", "free camera: move, down / up (Shift: fast)"),
    ("drag in the view", "free camera / orbit: look (left button)"),
    ("right click, L", "mouse look: the captured mouse turns the camera"),
    ("", "(Esc or right click / L again releases the mouse)"),
    ("C", "chase camera (again: back to POV)"),
    ("R / Shift+R", "orbit the next / previous player, monster, ghost"),
    ("drag / wheel", "orbit: turn around / zoom"),
    ("Tab / Shift+Tab", "next / previous player's (or ghost's) eyes"),
    ("V", "back to the recorder's eyes (POV)"),
    ("Ctrl+D", "director: picks whom to watch and how (on / off)"),
    ("G", "multiview: 1, 2, 4 panes, 4 as insets (cycles)"),
    ("click a pane", "multiview: select it (Tab R F C V then act on it)"),
    ("T", "trails: the recorder's and the ghosts' routes on / off"),
    ("Y", "splits table (time, kills, secrets, ghosts) on / off"),
    ("K / Shift+K, Delete", "camera key: add here / replace pose / delete selected"),
    ("P, Ctrl+K, Ctrl+S", "path camera; key looks at watched player; save path"),
    ("key row (above bar)", "click a camera key: select, jump there; drag: move it"),
    ("` (backquote)", "scoreboard on / off"),
    ("H", "hide / show the HUD"),
    ("F3", "frame rate (fps) in the corner readout on / off"),
    ("F5 / F6 / F7 / F8", "overlays: names over heads / x-ray / item timers / minimap"),
    ("Ctrl+O", "demo library: the last folder's demos, search"),
    ("drop a file / folder", "open the demo / list the folder's demos"),
    ("M, - / =", "sound off / on; volume down / up"),
    ("I / O, Shift+I", "export range: in / out point (again: clear); clear both"),
    ("F12 / Ctrl+E", "screenshot / export the range (.mp4), into screenshots/"),
    ("Ctrl+X", "cut the range as a demo, beside the demo (a new name)"),
    ("Alt+Enter, F11", "fullscreen on / off"),
    ("F1, ?", "this help"),
    ("Esc, Ctrl+Q", "release the mouse / close a list, leave fullscreen, else quit"),
)


def key_action(name: str, modifiers: int = 0, *, free_camera: bool = False) -> Action | None:
    """The action of pressing key ``name`` (a ``pyglet.window.key.symbol_string``) with ``modifiers`` held, or
    ``None``. With ``free_camera`` the movement keys (W A S D Q E) are taken by the camera and do nothing here."""
    shift, ctrl, alt = bool(modifiers & SHIFT), bool(modifiers & CTRL), bool(modifiers & ALT)
    if name in ("RETURN", "ENTER", "NUM_ENTER") and alt:
        return Action("fullscreen")
    if name == "Q" and ctrl:
        return Action("quit")
    if name == "O" and ctrl:
        return Action("open")
    if name == "E" and ctrl:
        return Action("export")
    if name == "X" and ctrl:
        return Action("cut_demo")
    if name == "D" and ctrl:
        return Action("director")
    if name in ("I", "O") and not ctrl and not alt:
        return Action("clear_marks") if shift else Action("mark_in" if name == "I" else "mark_out")
    if name == "S" and ctrl:
        return Action("path_save")
    if name == "K":
        return Action("key_look_at" if ctrl else "key_replace" if shift else "key_add")
    if free_camera and name in ("W", "A", "S", "D", "Q", "E"):
        return None
    if name in _DIGITS and not ctrl and not alt:
        return Action("jump_fraction", _DIGITS[name] / 10)
    if name == "SLASH" and shift or name == "QUESTION":
        return Action("help")
    simple = {
        "SPACE": Action("toggle_pause"),
        "UP": Action("speed", +1), "BRACKETRIGHT": Action("speed", +1),
        "DOWN": Action("speed", -1), "BRACKETLEFT": Action("speed", -1),
        "BACKSPACE": Action("reverse"),
        "LEFT": Action("seek_by", -(SEEK_BIG_STEP if shift else SEEK_STEP)),
        "RIGHT": Action("seek_by", SEEK_BIG_STEP if shift else SEEK_STEP),
        "HOME": Action("seek_start"), "END": Action("seek_end"),
        "PERIOD": Action("step", +1), "COMMA": Action("step", -1),
        "PAGEDOWN": Action("marker", +1), "N": Action("marker", -1 if shift else +1),
        "PAGEUP": Action("marker", -1),
        "B": Action("toggle_bar"),
        "P": Action("path_camera"), "DELETE": Action("key_delete"),
        "F": Action("camera", 1), "C": Action("camera", 2), "V": Action("camera", 0),
        "R": Action("orbit_next", -1 if shift else +1),
        "TAB": Action("player", -1 if shift else +1),
        "GRAVE": Action("toggle_scores"), "QUOTELEFT": Action("toggle_scores"),
        "H": Action("toggle_hud"),
        "G": Action("layout"),
        "T": Action("toggle_trails"),
        "Y": Action("toggle_splits"),
        "F3": Action("toggle_fps"),
        "F5": Action("toggle_overlay", 0), "F6": Action("toggle_overlay", 1),
        "F7": Action("toggle_overlay", 2), "F8": Action("toggle_overlay", 3),
        "L": Action("mouse_look"),
        "F12": Action("screenshot"),
        "F11": Action("fullscreen"),
        "F1": Action("help"),
        "ESCAPE": Action("escape"),
    }
    return simple.get(name)


#: Camera modes by the number :func:`key_action` puts in ``Action("camera", n)``.
CAMERA_MODES = ("pov", "free", "chase", "orbit")


def movement(held: frozenset[str] | set[str]) -> Movement:
    """Free-camera movement from the key names held down (W/S forward/back, D/A right/left, E/Q up/down)."""
    def axis(plus: str, minus: str) -> float:
        return float((plus in held) - (minus in held))

    return Movement(axis("W", "S"), axis("D", "A"), axis("E", "Q"), "LSHIFT" in held or "RSHIFT" in held)


def mouse_press(x: float, y: float, button: int, *, on_bar: bool, key_mark: int | None = None) -> Action | None:
    """A button pressed at top-left based ``(x, y)``: on a camera key's mark (``key_mark``, its index) the left button
    grabs that key; on the bar the left button starts scrubbing; elsewhere the left button starts a look/orbit drag
    and the right button toggles the captured mouse look."""
    if key_mark is not None and button == MOUSE_LEFT:
        return Action("key_grab", key_mark, x)
    if on_bar and button == MOUSE_LEFT:
        return Action("scrub_begin", x)
    if not on_bar and button == MOUSE_LEFT:
        return Action("drag_begin")
    if not on_bar and button == MOUSE_RIGHT:
        return Action("mouse_look")
    return None


def pane_press(pane: int | None, selected: int, button: int) -> Action | None:
    """A button pressed over the panes of a multiview: the left button on a pane other than the ``selected`` one
    selects it (``None``: one pane, or a gap between panes)."""
    if pane is not None and pane != selected and button == MOUSE_LEFT:
        return Action("select_pane", pane)
    return None


def captured_motion(dx: float, dy: float) -> Action:
    """The mouse moved while captured (mouse look): turn by ``dx, dy`` (pyglet's ``dy`` is positive upwards)."""
    return Action("mouse_look_move", dx, dy)


def mouse_drag(x: float, y: float, dx: float, dy: float, *, scrubbing: bool, moving_key: bool = False) -> Action:
    """Mouse moved with a button down: move the grabbed camera key to ``x`` (``moving_key``), scrub to ``x`` while
    scrubbing, else turn the camera by ``dx, dy`` pixels (pyglet's ``dy`` is positive upwards: moving the mouse up
    looks up; the cameras apply their sensitivity)."""
    if moving_key:
        return Action("key_drag", x)
    if scrubbing:
        return Action("scrub_move", x)
    return Action("look", dx, dy)


def mouse_release(button: int, *, scrubbing: bool, moving_key: bool = False) -> Action | None:
    if moving_key and button == MOUSE_LEFT:
        return Action("key_drop")
    if scrubbing and button == MOUSE_LEFT:
        return Action("scrub_end")
    return Action("drag_end")


def mouse_scroll(scroll_y: float) -> Action:
    """Wheel up zooms in (orbit and chase distance)."""
    return Action("zoom", scroll_y)


def next_speed(speed: float, direction: int) -> float:
    """The next step of :data:`SPEEDS` above (``+1``) or below (``-1``) ``|speed|``, keeping its sign."""
    sign = -1.0 if speed < 0 else 1.0
    a = abs(speed)
    if direction > 0:
        bigger = [s for s in SPEEDS if s > a + 1e-9]
        return sign * (bigger[0] if bigger else SPEEDS[-1])
    smaller = [s for s in SPEEDS if s < a - 1e-9]
    return sign * (smaller[-1] if smaller else SPEEDS[0])


def mouse_motion(x: float, y: float) -> Action:
    """The mouse moved (no button): wakes the auto-hidden bar and updates the hover tooltip."""
    return Action("hover", x, y)
