"""Quake II's HUD: the status bar layout program and the scoreboard layout run against the stats, plus the
centerprint, the notify lines and the crosshair, as :class:`HudQuad` records.

The layout language (``SCR_ExecuteLayoutString``): ``xl``/``xr``/``xv`` and ``yt``/``yb``/``yv`` place the cursor
from the left / right / centred 320×240 area and top / bottom / centred area; ``pic S`` draws the image whose index
is stat ``S``, ``picn NAME`` a named picture, ``num W S`` stat ``S`` in big digits ``W`` wide, ``hnum`` / ``anum`` /
``rnum`` health, ammo and armor (red digits when low, ``field_3`` behind when flashing), ``stat_string S`` the
configstring stat ``S`` names, ``string`` / ``string2`` / ``cstring`` / ``cstring2`` text (``2``: the alternate,
high-bit characters), ``if S`` … ``endif`` a block drawn only when stat ``S`` is set, ``client`` / ``ctf`` a
scoreboard line.  Coordinates are virtual pixels, each ``scale`` screen pixels; :func:`auto_scale` is Q2PRO's
``scr_scale 0`` (1 below 1080 rows: a 1280×720 screen is 1280×720 virtual pixels).  The centerprint is drawn as
Q2PRO's ``SCR_DrawCenterString``: its lines centred, the block's middle a quarter of the way down.

References: Quake II 3.20 ``client/cl_scrn.c`` ``SCR_ExecuteLayoutString``, ``SCR_DrawField`` (digits 16 pixels
apart), ``DrawHUDString``, ``SCR_DrawCrosshair`` (``ch1``); Q2PRO ``src/client/screen.c``
``SCR_DrawCenterString`` (``scr_centertime`` 2.5 s), ``src/refresh/draw.c`` ``get_auto_scale``; ``client/console.c``
``Con_Print`` (word wrap, marker 1/2 for the alternate characters), ``Con_DrawNotify`` (4 lines,
``con_notifytime`` 3 s); ``client/cl_parse.c`` ``CL_ParseServerMessage`` (chat prints in the alternate characters).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from assets_loader.demos import DemoTimeline, SceneState
from assets_loader.demos.events import CenterPrintEvent, Event, LayoutEvent, PrintEvent
from assets_loader.demos.quake2 import ConfigStrings, PlayerSkin
from assets_loader.demos.quake2 import protocol as P

from ...render.refdef import HudLayout, HudQuad

CHAR = 8
#: ``SCR_DrawField``'s advance between big digits (``CHAR_WIDTH``); the pictures themselves are 24 wide.
DIGIT_WIDTH = 16
DEFAULT_PIC = (24, 24)
CENTER_TIME = 2.5
NOTIFY_TIME = 3.0
NOTIFY_LINES = 4
CROSSHAIR = "ch1"
#: Big digits: ``num_0`` … ``num_9``, ``num_minus`` (colour 0) and the ``anum_`` set (colour 1).
DIGITS = tuple(f"num_{d}" for d in range(10)) + ("num_minus",)

Sizes = Mapping[str, tuple[int, int]] | Callable[[str], tuple[int, int] | None] | None


def digit_pics(color: int) -> tuple[str, ...]:
    return tuple(("a" if color else "") + name for name in DIGITS)


class _Builder:
    """Collects quads in virtual pixels; ``scale`` screen pixels each."""

    def __init__(self, scale: int, sizes: Sizes) -> None:
        self.s = scale
        self.sizes = sizes
        self.quads: list[HudQuad] = []

    def known(self, name: str) -> tuple[int, int] | None:
        """The size of picture ``name``, ``None`` when the game dirs lack it."""
        return self.sizes.get(name) if isinstance(self.sizes, Mapping) else (self.sizes(name) if self.sizes else None)

    def size(self, name: str) -> tuple[int, int]:
        return self.known(name) or DEFAULT_PIC

    def pic(self, x: int, y: int, name: str) -> None:
        w, h = self.size(name)
        s = self.s
        self.quads.append(HudQuad("pic", name, x * s, y * s, w * s, h * s))

    def text(self, x: int, y: int, text: str, alt: bool = False) -> None:
        s = self.s
        for i, ch in enumerate(text):
            code = ord(ch) & 0xFF
            if alt:
                code |= 0x80
            if code & 0x7F != 32:
                self.quads.append(HudQuad("char", code, (x + i * CHAR) * s, y * s, CHAR * s, CHAR * s))

    def centred(self, x: int, y: int, width: int, text: str, alt: bool = False) -> None:
        """``DrawHUDString``: each line centred in ``width`` pixels from ``x``."""
        for i, line in enumerate(text.split("\n")):
            self.text(x + (width - len(line) * CHAR) // 2, y + i * CHAR, line, alt)

    def field(self, x: int, y: int, color: int, width: int, value: int) -> None:
        """``SCR_DrawField``: ``value`` right-aligned in ``width`` big digits."""
        if width < 1:
            return
        width = min(width, 5)
        text = str(value)[:width]
        x += 2 + DIGIT_WIDTH * (width - len(text))
        pics = digit_pics(color)
        for ch in text:
            self.pic(x, y, pics[10] if ch == "-" else pics[int(ch)])
            x += DIGIT_WIDTH


@lru_cache(maxsize=64)
def _tokens(program: str) -> tuple[str, ...]:
    """``COM_Parse`` tokens: whitespace-separated words, quoted strings as one token (the status bar's program,
    the same every frame, read once)."""
    out: list[str] = []
    i, n = 0, len(program)
    while i < n:
        if program[i].isspace():
            i += 1
            continue
        if program[i] == '"':
            j = program.find('"', i + 1)
            j = n if j < 0 else j
            out.append(program[i + 1:j])
            i = j + 1
            continue
        j = i
        while j < n and not program[j].isspace():
            j += 1
        out.append(program[i:j])
        i = j
    return tuple(out)


def _int(token: str) -> int:
    """A layout number as the client's ``atoi`` reads it into an ``int``: clamped to 32 bits (a 400-digit
    coordinate drew nothing in the engine and overflowed here), ``0`` for a word that is not a number."""
    try:
        value = int(token)
    except ValueError:
        return 0
    return min(max(value, -2**31), 2**31 - 1)


def run_layout(b: _Builder, program: str, stats: Sequence[int], strings: Mapping[int, str],
               size: tuple[int, int], serverframe: int, playernum: int) -> None:
    """Execute one layout program into ``b`` (``SCR_ExecuteLayoutString``) on a ``size`` virtual screen."""
    width, height = size
    tokens = _tokens(program)
    x = y = 0
    i = 0

    def stat(index: int) -> int:
        return stats[index] if 0 <= index < len(stats) else 0

    def take() -> str:
        nonlocal i
        token = tokens[i] if i < len(tokens) else ""
        i += 1
        return token

    skins: dict[int, PlayerSkin] | None = None
    while i < len(tokens):
        cmd = take()
        if cmd == "xl":
            x = _int(take())
        elif cmd == "xr":
            x = width + _int(take())
        elif cmd == "xv":
            x = width // 2 - 160 + _int(take())
        elif cmd == "yt":
            y = _int(take())
        elif cmd == "yb":
            y = height + _int(take())
        elif cmd == "yv":
            y = height // 2 - 120 + _int(take())
        elif cmd == "pic":
            value = stat(_int(take()))
            name = strings.get(P.CS_IMAGES + value, "") if 0 <= value < P.MAX_IMAGES else ""
            if name:
                b.pic(x, y, name.lower())
        elif cmd == "picn":
            b.pic(x, y, take().lower())
        elif cmd in ("client", "ctf"):
            x = width // 2 - 160 + _int(take())
            y = height // 2 - 120 + _int(take())
            client, score, ping = _int(take()), _int(take()), _int(take())
            if skins is None:
                skins = ConfigStrings.player_skins(dict(strings))
            skin = skins.get(client)
            name = skin.name if skin else ""
            if cmd == "client":
                minutes = _int(take())
                if skin is not None:
                    b.pic(x, y, f"/players/{skin.model}/{skin.skin}_i.pcx")
                b.text(x + 32, y, name, alt=True)
                b.text(x + 32, y + 8, "Score: ")
                b.text(x + 32 + 7 * CHAR, y + 8, str(score), alt=True)
                b.text(x + 32, y + 16, f"Ping:  {ping}")
                b.text(x + 32, y + 24, f"Time:  {minutes}")
            else:
                b.text(x, y, f"{score:3d} {min(ping, 999):3d} {name[:12]:<12}", alt=client == playernum)
        elif cmd == "num":
            w = _int(take())
            b.field(x, y, 0, w, stat(_int(take())))
        elif cmd in ("hnum", "anum", "rnum"):
            index, flash = {"hnum": (P.STAT_NAMES.index("health"), 1), "anum": (P.STAT_NAMES.index("ammo"), 4),
                            "rnum": (P.STAT_NAMES.index("armor"), 2)}[cmd]
            value = stat(index)
            blink = (serverframe >> 2) & 1
            if cmd == "hnum":
                color = 0 if value > 25 else (blink if value > 0 else 1)
            elif cmd == "anum":
                if value < 0:
                    continue
                color = 0 if value > 5 else blink
            else:
                if value < 1:
                    continue
                color = 0
            if stat(P.STAT_NAMES.index("flashes")) & flash:
                b.pic(x, y, "field_3")
            b.field(x, y, color, 3, value)
        elif cmd == "stat_string":
            index = stat(_int(take()))
            if 0 <= index < P.MAX_CONFIGSTRINGS:
                b.text(x, y, strings.get(index, ""))
        elif cmd in ("cstring", "cstring2"):
            b.centred(x, y, 320, take(), alt=cmd == "cstring2")
        elif cmd in ("string", "string2"):
            b.text(x, y, take(), alt=cmd == "string2")
        elif cmd == "if":
            if not stat(_int(take())):
                while i < len(tokens) and tokens[i] != "endif":
                    i += 1
                i += 1


def _last_before(events: Sequence, t: float) -> object | None:
    """The last of ``events`` (in time order) at or before ``t``."""
    end = bisect_right(events, t, key=_event_time)
    return events[end - 1] if end else None


def _event_time(e: Event) -> float:
    return e.time


#: The last configstring history asked (its changes) and :meth:`ConfigStrings.of` them; then the last strings
#: asked (that history, how many of its changes apply) and the strings with their status bar program: they change
#: a few times a demo, the HUD asks every frame.
_last_history: list = [None, None]
_last_strings: list = [None, None]


def _strings_at(changes: Sequence[tuple[int, int, str]], frame: int) -> tuple[dict[int, str], str]:
    """Every configstring at timeline ``frame`` and the status bar program they hold."""
    if _last_history[0] is not changes:
        _last_history[:] = changes, ConfigStrings.of(changes)
    history = _last_history[1]
    applied = bisect_right(history.changes, frame, key=lambda c: c[0])
    asked = _last_strings[0]
    if asked is None or asked[0] is not history or asked[1] != applied:
        strings = history.at(frame)
        _last_strings[:] = (history, applied), (strings, ConfigStrings.status_bar(strings))
    return _last_strings[1]


def name_tag(name: str, x: float, y: float, screen_size: tuple[int, int], scale: int = 1) -> HudLayout:
    """A player's ``name`` as Quake II writes names (``DrawString``: ``conchars`` cells of 8 × ``scale`` pixels)
    centred on pixel ``x`` with its bottom at pixel ``y``."""
    scale = max(1, int(scale))
    cell = CHAR * scale
    left, top = round(x - len(name) * cell / 2), round(y - cell)
    quads = tuple(HudQuad("char", ord(ch) & 0xFF, left + i * cell, top, cell, cell) for i, ch in enumerate(name)
                  if ord(ch) & 0x7F != 32)
    return HudLayout(screen_size, scale, quads, 0)


def auto_scale(screen_size: tuple[int, int]) -> int:
    """Q2PRO's ``get_auto_scale`` (``scr_scale 0``): 2 from 1080 rows (1920 columns on a portrait screen), 4 from
    2160 (3840), else 1."""
    w, h = screen_size
    side, steps = (h, (1080, 2160)) if h < w else (w, (1920, 3840))
    return 4 if side >= steps[1] else 2 if side >= steps[0] else 1


def watching_hud(name: str, screen_size: tuple[int, int], scale: int = 1, pic_sizes: Sizes = None) -> HudLayout:
    """Only whose eyes the view is: "Chasing NAME" centred near the bottom (the chase-camera label of Quake II
    mods, drawn like ``DrawHUDString``)."""
    scale = max(1, int(scale))
    sw, sh = screen_size
    b = _Builder(scale, pic_sizes)
    b.centred(0, sh // scale - 6 * CHAR, sw // scale, f"Chasing {name}")
    return HudLayout((sw, sh), scale, tuple(b.quads), 0)


def build_hud(state: SceneState, timeline: DemoTimeline, screen_size: tuple[int, int], scale: int = 1, *,
              show_scores: bool = False, pic_sizes: Sizes = None) -> HudLayout:
    """The HUD at ``state.time`` for a ``screen_size`` screen of virtual pixels ``scale`` wide."""
    scale = max(1, int(scale))
    sw, sh = screen_size
    width, height = sw // scale, sh // scale
    b = _Builder(scale, pic_sizes)
    strings, status_bar = _strings_at(timeline.meta.get("configstring_changes", ()), max(state.frame, 0))  # type: ignore[arg-type]
    stats = [int(state.stats.get(name, 0)) for name in P.STAT_NAMES]
    serverframe = round(float(timeline.server_times[state.frame]) * 10) if state.frame >= 0 else 0
    playernum = int(timeline.meta.get("playernum", 0))  # type: ignore[call-overload]
    intermission = bool(state.stats.get("intermission", 0))
    cross = b.known(CROSSHAIR)
    if cross and not intermission:                   # SCR_DrawCrosshair, when the game has the picture
        b.pic((width - cross[0]) // 2, (height - cross[1]) // 2, CROSSHAIR)
    run_layout(b, status_bar, stats, strings, (width, height), serverframe, playernum)
    if stats[P.STAT_LAYOUTS] & 1 or show_scores:
        layout = _last_before(timeline.events_of_kind("layout"), state.time)
        if isinstance(layout, LayoutEvent):
            run_layout(b, layout.text, stats, strings, (width, height), serverframe, playernum)
    centre = _last_before(timeline.events_of_kind("centerprint"), state.time)
    if isinstance(centre, CenterPrintEvent) and state.time - centre.time < CENTER_TIME:
        rows = centre.text.split("\n")
        y = height // 4 - len(rows) * CHAR // 2
        for k, row in enumerate(rows):
            b.text((width - len(row) * CHAR) // 2, y + k * CHAR, row)
    prints = timeline.events_of_kind("print")
    recent = prints[bisect_right(prints, state.time - NOTIFY_TIME - 1.0, key=_event_time):]
    notify = [e for e in recent if isinstance(e, PrintEvent) and 0 <= state.time - e.time < NOTIFY_TIME]
    lines = [line for e in notify for line in console_lines(e.text, width // CHAR - 2, e.level == P.PRINT_CHAT)]
    for k, (text, alt) in enumerate(lines[-NOTIFY_LINES:]):
        b.text(CHAR, k * CHAR, text, alt)
    return HudLayout((sw, sh), scale, tuple(b.quads), 0)


def console_lines(text: str, width: int, chat: bool = False) -> list[tuple[str, bool]]:
    """``Con_Print``: ``text`` as console lines of at most ``width`` characters, a word that would cross the edge
    moved to the next line (one longer than a line is cut at the edge), each with whether it is drawn in the
    alternate characters (a chat print, or text starting with marker 1 or 2)."""
    alt = chat
    if text[:1] in ("\x01", "\x02"):
        alt, text = True, text[1:]
    width = max(width, 1)
    lines: list[tuple[str, bool]] = []
    for paragraph in text.rstrip("\n").split("\n"):
        line = ""
        for word in re.findall(r"\S+|\s", paragraph):
            if len(word) < width and len(line) + len(word) > width:
                lines.append((line, alt))
                line = ""
            for ch in word:
                if len(line) == width:
                    lines.append((line, alt))
                    line = ""
                line += ch
        lines.append((line, alt))
    return lines
