"""The 2D overlay — status bar, notify lines, centerprint, scoreboard, intermission — as a list of screen quads.

Pure and GL-free: :func:`build_hud` turns the recorder's stats at ``t`` (a :class:`SceneState`) and the demo's
events into a :class:`HudLayout`, a tuple of :class:`HudQuad` in screen pixels (top-left origin) drawn in order by
:class:`viewer.render.hud_overlay.HudRenderer`.  Everything is a function of ``t`` and the timeline only (no frame
counters, no wall clock), so scrubbing backwards gives exactly what forward playback gave.

Layout follows the engine's 320-pixel virtual screens, each scaled by the integer ``scale``:

* the *status bar canvas* (``CANVAS_SBAR``): 320×48 at the bottom, centred (left-aligned in deathmatch, where it
  spans the whole width for the mini scoreboard); its top 24 rows hold the inventory bar (``ibar``: weapons, ammo
  counts, keys, powerups, sigils, frags in multiplayer), the bottom 24 the status bar (``sbar``: armour, face,
  health, ammo) — or the ``scorebar`` with kills/secrets/time/level name when dead.  The sides beside it are tiled
  with ``backtile`` (``Draw_TileClear``);
* the *menu canvas* (``CANVAS_MENU``): 320×200 centred on the screen — centerprint, the deathmatch ranking, the
  intermission (``gfx/complete.lmp``, ``gfx/inter.lmp`` + time, secrets, kills in big digits) and the finale
  picture;
* the *console canvas*: notify lines at the top-left, one 8-pixel row each.

Engine rules mirrored: big numbers are 3 digits of ``num_*`` (``anum_*``, red, when armour/health ≤ 25 or ammo ≤
10; values capped at 999; invulnerability shows red 666 and the disc); the face is ``face1..5`` by health / 20
(``face_p*`` for 0.2 s after damage), replaced by the quad/invisibility/invulnerability faces; the owned weapons
are ``inv_*`` and the selected one ``inv2_*`` (pickup flashing ``inva*`` is not reproduced); ammo counts use the
small digits 18..27 of ``conchars``; keys and powerups ``sb_*`` and sigils follow the IT_* bits.
Centerprints stay ``CENTER_TIME`` = 2 s (``scr_centertime``), lines of ≤ 40 characters centred at y = 70 (y = 48
for more than 4 lines); during an intermission, finale or cutscene they stay and appear ``PRINT_SPEED`` = 8
characters a second (``scr_printspeed``).  Notify lines are console lines (word-wrapped at the console width,
``\\x01``/``\\x02``-prefixed messages in the bronze half of the font) started less than ``NOTIFY_TIME`` = 3 s ago,
at most ``NUM_NOTIFY`` = 4.  ``intermission`` 1 shows only the intermission overlay (the ranking in deathmatch),
2 the finale picture and the centerprint, 3 (cutscene) hides the status bar.

References: QuakeSpasm ``sbar.c`` (``Sbar_Draw``, ``Sbar_DrawInventory``, ``Sbar_DrawFace``, ``Sbar_DrawNum``,
``Sbar_DrawFrags``, ``Sbar_SoloScoreboard``, ``Sbar_DeathmatchOverlay``, ``Sbar_MiniDeathmatchOverlay``,
``Sbar_IntermissionOverlay``, ``Sbar_FinaleOverlay``), ``gl_screen.c`` (``SCR_CenterPrint``,
``SCR_DrawCenterString``, ``SCR_UpdateScreen``, ``SCR_CalcRefdef``), ``console.c`` (``Con_Print``,
``Con_DrawNotify``), ``gl_draw.c`` (``GL_SetCanvas``, ``Draw_Character``, ``Draw_TileClear``), ``view.c``
(``V_ParseDamage``: ``faceanimtime``); ``quakedef.h`` IT_* bits.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from assets_loader.demos.events import Event
from assets_loader.demos.quakeworld.protocol import PRINT_CHAT
from assets_loader.demos.timeline import MapSegment, PlayerScore, SceneState

from ...render.refdef import HudLayout, HudQuad
from . import qw_scoreboard
from .chat_markup import ColouredText, Colour, chat_text, colour_runs

__all__ = [
    "CenterPrint", "build_hud", "notify_lines", "notify_rows", "coloured_console_lines", "centerprint_at",
    "console_lines",
    "sorted_scores", "face_pic", "number_pics", "quake_chars", "DEFAULT_LMP_SIZES",
    "IT_SHOTGUN", "IT_SUPER_SHOTGUN", "IT_NAILGUN", "IT_SUPER_NAILGUN", "IT_GRENADE_LAUNCHER",
    "IT_ROCKET_LAUNCHER", "IT_LIGHTNING", "IT_SHELLS", "IT_NAILS", "IT_ROCKETS", "IT_CELLS", "IT_AXE",
    "IT_ARMOR1", "IT_ARMOR2", "IT_ARMOR3", "IT_SUPERHEALTH", "IT_KEY1", "IT_KEY2", "IT_INVISIBILITY",
    "IT_INVULNERABILITY", "IT_SUIT", "IT_QUAD", "IT_SIGIL1", "GAME_DEATHMATCH",
    "CENTER_TIME", "PRINT_SPEED", "NOTIFY_TIME", "NUM_NOTIFY", "FACE_ANIM_TIME", "SBAR_WIDTH", "SBAR_HEIGHT",
    "SbarStyle",
]

# --- engine constants (quakedef.h, cvars' defaults) ------------------------------------------------------------

IT_SHOTGUN = 1
IT_SUPER_SHOTGUN = 2
IT_NAILGUN = 4
IT_SUPER_NAILGUN = 8
IT_GRENADE_LAUNCHER = 16
IT_ROCKET_LAUNCHER = 32
IT_LIGHTNING = 64
IT_SHELLS = 256
IT_NAILS = 512
IT_ROCKETS = 1024
IT_CELLS = 2048
IT_AXE = 4096
IT_ARMOR1 = 8192
IT_ARMOR2 = 16384
IT_ARMOR3 = 32768
IT_SUPERHEALTH = 65536
IT_KEY1 = 1 << 17
IT_KEY2 = 1 << 18
IT_INVISIBILITY = 1 << 19
IT_INVULNERABILITY = 1 << 20
IT_SUIT = 1 << 21
IT_QUAD = 1 << 22
IT_SIGIL1 = 1 << 28

GAME_DEATHMATCH = 1

CENTER_TIME = 2.0       # scr_centertime
PRINT_SPEED = 8.0       # scr_printspeed (characters a second during intermissions)
NOTIFY_TIME = 3.0       # con_notifytime
NUM_NOTIFY = 4          # NUM_CON_TIMES
FACE_ANIM_TIME = 0.2    # cl.faceanimtime = cl.time + 0.2 on svc_damage
SBAR_WIDTH = 320
SBAR_HEIGHT = 24        # each of sbar / ibar; the status bar area is 2 × 24 lines
MENU_WIDTH, MENU_HEIGHT = 320, 200
CHAR = 8

_WEAPONS = ("shotgun", "sshotgun", "nailgun", "snailgun", "rlaunch", "srlaunch", "lightng")
_ITEMS = ("key1", "key2", "invis", "invuln", "suit", "quad")
_AMMO_ICONS = ((IT_SHELLS, "sb_shells"), (IT_NAILS, "sb_nails"), (IT_ROCKETS, "sb_rocket"), (IT_CELLS, "sb_cells"))
_AMMO_STATS = ("shells", "nails", "rockets", "cells")
_TEXT_KINDS = frozenset({"centerprint", "finale", "cutscene"})


# --- layout records --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CenterPrint:
    """The centerprint shown at some time: its ``text`` and when it arrived (``time``, timeline seconds)."""

    time: float
    text: str

    @property
    def lines(self) -> tuple[str, ...]:
        """The text cut at newlines, each line at most 40 characters (``SCR_DrawCenterString``)."""
        return tuple(line[:40] for line in self.text.split("\n"))


# --- events ----------------------------------------------------------------------------------------------------


def _event_time(e: Event) -> float:
    return e.time


def _upto(events: Sequence[Event], t: float, frame: int | None) -> int:
    """Number of leading ``events`` that have happened at ``t`` (or, given ``frame``, by timeline frame ``frame``:
    the messages of the frame ``sample`` shows are already parsed, as in the engine)."""
    if frame is not None:
        return bisect_right(events, frame, key=lambda e: e.frame)
    return bisect_right(events, t, key=_event_time)


def quake_chars(text: str) -> tuple[int, ...]:
    """Quake text (a latin-1 decoded string) → character codes 0..255."""
    return tuple(ord(c) & 255 for c in text)


def console_lines(prints: Sequence[tuple[float, str]], width: int = 38) -> list[tuple[float, str]]:
    """Run ``(time, text)`` prints through ``Con_Print`` → console lines ``(time the line started, text)``.

    A message starting with ``\\x01`` or ``\\x02`` is printed in the bronze half (each code | 128); words wrap at
    ``width`` columns (a word longer than the line is cut); ``\\n`` ends a line, ``\\r`` restarts it; a line's time is
    when its first character arrived (a trailing ``\\n`` opens no line until the next character)."""
    lines = coloured_console_lines([(when, ColouredText.plain(text)) for when, text in prints], width)
    return [(when, line.text) for when, line in lines]


def coloured_console_lines(prints: Sequence[tuple[float, ColouredText]],
                           width: int = 38) -> list[tuple[float, ColouredText]]:
    """:func:`console_lines` for text whose characters carry a colour each (QuakeWorld chat markup)."""
    lines: list[list] = []   # [time, list of codes, list of colours]
    x = 0
    cr = False
    for when, message in prints:
        codes = quake_chars(message.text)
        mask = 0
        i = 0
        if codes and codes[0] in (1, 2):
            mask, i = 128, 1
        n = len(codes)
        while i < n:
            c = codes[i]
            # word length: up to the first control/space/high character (C's signed char ≤ ' ')
            word = 0
            while word < width and i + word < n and 32 < codes[i + word] < 128:
                word += 1
            if word != width and x + word > width:
                x = 0
            i += 1
            if cr:
                if lines:
                    lines.pop()
                cr = False
            if x == 0:
                lines.append([when, [], []])
            if c == 10:
                x = 0
            elif c == 13:
                x = 0
                cr = True
            else:
                lines[-1][1].append(c | mask)
                lines[-1][2].append(message.colours[i - 1])
                x += 1
                if x >= width:
                    x = 0
    return [(t0, ColouredText("".join(chr(c) for c in codes), tuple(colours))) for t0, codes, colours in lines]


def _console_text(e: Event) -> ColouredText:
    """A print as the console gets it: chat (QuakeWorld level 3) in the bronze half with ezQuake's markup."""
    text = getattr(e, "text", "")
    if getattr(e, "level", None) == PRINT_CHAT:
        return chat_text(text)
    return ColouredText.plain(text)


def notify_lines(events: Sequence[Event], t: float, *, width: int = 38, frame: int | None = None,
                 notify_time: float = NOTIFY_TIME, max_lines: int = NUM_NOTIFY) -> tuple[str, ...]:
    """The text of :func:`notify_rows` (the colours left out)."""
    return tuple(line.text for line in notify_rows(events, t, width=width, frame=frame, notify_time=notify_time,
                                                   max_lines=max_lines))


#: The last :func:`notify_rows` asked (the events themselves, then the other arguments) and its answer: the panes
#: of a multiview ask the same at the same time.
_last_notify: list = [None, ()]


def notify_rows(events: Sequence[Event], t: float, *, width: int = 38, frame: int | None = None,
                notify_time: float = NOTIFY_TIME, max_lines: int = NUM_NOTIFY) -> tuple[ColouredText, ...]:
    """The console notify lines shown at ``t`` (``Con_DrawNotify``): of the last ``max_lines`` console lines, those
    started at most ``notify_time`` seconds before ``t``, oldest first.

    Text is Quake text: characters ≥ 128 (``chr(code)``) are the bronze half (the ``\\x01``/``\\x02`` colour bit is
    applied; QuakeWorld chat goes through :func:`~viewer.games.quake.chat_markup.chat_text`, which also gives the
    ``&cRGB`` colours).  ``events`` are the timeline's events sorted by time (all of them is fine: only prints near
    ``t`` are read); ``frame`` optionally says which events have arrived (``event.frame <= frame``) instead of
    ``event.time <= t``.  Empty lines count (they are drawn as blank rows, as in the engine)."""
    asked, answer = _last_notify
    key = (t, width, frame, notify_time, max_lines)
    if asked is None or asked[0] is not events or asked[1:] != key:
        answer = _notify_rows(events, t, width, frame, notify_time, max_lines)
        _last_notify[:] = (events, *key), answer
    return answer


def _notify_rows(events: Sequence[Event], t: float, width: int, frame: int | None, notify_time: float,
                 max_lines: int) -> tuple[ColouredText, ...]:
    end = _upto(events, t, frame)
    # Walk back to the first print of the window, then further back to a line start (a print ending in "\n"),
    # so that wrapping and continued lines come out as the console had them.
    first = None
    i = end - 1
    cutoff = t - notify_time
    in_window = True
    while i >= 0:
        e = events[i]
        i -= 1
        if e.kind != "print":
            if first is None and e.time < cutoff:
                return ()      # nothing printed within the window: every line has expired
            continue
        if not in_window and getattr(e, "text", "").endswith("\n"):
            break
        first = i + 1
        if e.time < cutoff:
            in_window = False
    if first is None:
        return ()
    lines = _console_lines_of(events, first, end, width)[-max_lines:]
    return tuple(line for when, line in lines if t - when <= notify_time)


#: The last :func:`_console_lines_of` asked (the events themselves, then the other arguments) and its answer: the
#: frames that follow show the same prints, only fewer of their lines.
_last_console: list = [None, []]


def _console_lines_of(events: Sequence[Event], first: int, end: int, width: int) -> list[tuple[float, ColouredText]]:
    """:func:`coloured_console_lines` of the prints among ``events[first:end]``."""
    asked, answer = _last_console
    if asked is None or asked[0] is not events or asked[1:] != (first, end, width):
        prints = [(e.time, _console_text(e)) for e in events[first:end] if e.kind == "print"]
        answer = coloured_console_lines(prints, width)
        _last_console[:] = (events, first, end, width), answer
    return answer


def centerprint_at(events: Sequence[Event], t: float, *, intermission: int = 0, frame: int | None = None,
                   center_time: float = CENTER_TIME) -> CenterPrint | None:
    """The centerprint on screen at ``t``, or ``None``.

    The newest ``centerprint`` (or ``finale``/``cutscene``, which centerprint their text) that has arrived wins; it
    shows from its time for ``center_time`` seconds — indefinitely while ``intermission`` is non-zero (the
    caller still decides what an intermission draws).  An empty text clears the centre of the screen."""
    end = _upto(events, t, frame)
    for i in range(end - 1, -1, -1):
        e = events[i]
        if not intermission and e.time < t - center_time - 1.0:
            return None        # anything older has expired
        if e.kind in _TEXT_KINDS:
            text = getattr(e, "text", "")
            if not text:
                return None
            if intermission or t - e.time < center_time:
                return CenterPrint(e.time, text)
            return None
    return None


def _last_of_kind(events: Sequence[Event], end: int, kinds: frozenset[str] | set[str],
                  since: float | None = None) -> Event | None:
    for i in range(end - 1, -1, -1):
        e = events[i]
        if since is not None and e.time < since:
            return None
        if e.kind in kinds:
            return e
    return None


# --- pieces ----------------------------------------------------------------------------------------------------


def _itoa(num: int) -> str:
    return str(int(num))


def number_pics(num: int, digits: int = 3, red: bool = False) -> tuple[tuple[int, str], ...]:
    """``Sbar_DrawNum``: ``((x offset, pic name), …)`` for ``num`` right-aligned in ``digits`` 24-pixel cells
    (capped at 999; longer strings keep their last digits; ``-`` is ``num_minus``)."""
    s = _itoa(min(999, int(num)))
    if len(s) > digits:
        s = s[len(s) - digits:]
    x = (digits - len(s)) * 24
    prefix = "anum_" if red else "num_"
    out = []
    for ch in s:
        out.append((x, prefix + ("minus" if ch == "-" else ch)))
        x += 24
    return tuple(out)


def face_pic(health: int, items: int, pain: bool = False) -> str:
    """``Sbar_DrawFace``: the face lump for ``health`` and the IT_* ``items`` (``pain``: the 0.2 s hurt frame)."""
    if items & IT_INVISIBILITY and items & IT_INVULNERABILITY:
        return "face_inv2"
    if items & IT_QUAD:
        return "face_quad"
    if items & IT_INVISIBILITY:
        return "face_invis"
    if items & IT_INVULNERABILITY:
        return "face_invul2"
    f = 4 if health >= 100 else int(health / 20)   # C division truncates toward zero
    f = max(f, 0)
    return f"face_p{5 - f}" if pain else f"face{5 - f}"


def sorted_scores(scoreboard: Sequence[PlayerScore]) -> list[PlayerScore]:
    """``Sbar_SortFrags``: named players, most frags first (stable for ties, like the engine's bubble sort)."""
    return sorted((s for s in scoreboard if s.name), key=lambda s: -s.frags)


def _color_for_map(colour: int) -> int:
    """``Sbar_ColorForMap``: a player colour 0..15 → the palette index of its row's middle."""
    return (colour & 15) * 16 + 8


#: The status bar's background pictures, drawn at ``scr_sbaralpha`` (the icons and numbers stay opaque).
_BAR_BACKGROUNDS = frozenset({"sbar", "ibar", "scorebar"})


@dataclass(frozen=True, slots=True)
class SbarStyle:
    """How the engine draws the status bar: ``scale`` (virtual pixel size; ``None``: the HUD's scale), ``alpha``
    of its background pictures, ``backtile``: the screen beside the bar is tiled (the view is shortened above
    it) rather than showing the 3D view through."""

    scale: int | None = None
    alpha: float = 1.0
    backtile: bool = True


def watching_hud(name: str, screen_size: tuple[int, int], scale: int = 1) -> HudLayout:
    """Only whose eyes the view is: "Tracking NAME" centred above the status bar's place (ezQuake's MVD and
    ``cl_chasecam`` label, ``Sbar_Draw``)."""
    scale = max(1, int(scale))
    sw, sh = screen_size
    b = _Builder(scale)
    text = quake_chars(f"Tracking {name}")
    b.canvas(0, 0)
    x = (sw // scale - len(text) * CHAR) // 2
    for i, code in enumerate(text):
        b.char(x + i * CHAR, sh // scale - SBAR_HEIGHT - 2 * CHAR, code)
    return HudLayout((sw, sh), scale, tuple(b.quads), 0)


def name_tag(name: str, x: float, y: float, screen_size: tuple[int, int], scale: int = 1) -> HudLayout:
    """A player's ``name`` in Quake's characters (its high half bronze, as the player typed it) centred on pixel
    ``x`` with its bottom at pixel ``y`` (``Draw_Character`` cells of 8 × ``scale`` pixels)."""
    scale = max(1, int(scale))
    codes = quake_chars(name)
    cell = CHAR * scale
    left, top = round(x - len(codes) * cell / 2), round(y - cell)
    quads = tuple(HudQuad("char", code, left + i * cell, top, cell, cell) for i, code in enumerate(codes)
                  if code & 127 != 32)
    return HudLayout(screen_size, scale, quads, 0)


class _Builder:
    """Collects quads; ``canvas`` sets the origin and scale used by the drawing helpers."""

    def __init__(self, scale: int) -> None:
        self.quads: list[HudQuad] = []
        self.s = scale
        self.ox = 0
        self.oy = 0
        self.bar_alpha = 1.0   # opacity of the status bar's background pictures (scr_sbaralpha)

    def canvas(self, ox: int, oy: int) -> None:
        self.ox, self.oy = ox, oy

    def pic(self, x: int, y: int, name: str, w: int, h: int, alpha: float = 1.0) -> None:
        s = self.s
        if name in _BAR_BACKGROUNDS:
            alpha *= self.bar_alpha
        self.quads.append(HudQuad("pic", name, self.ox + x * s, self.oy + y * s, w * s, h * s, alpha))

    def char(self, x: int, y: int, code: int, tint: Colour = None) -> None:
        code &= 255
        if code == 32 or y <= -8:
            return
        s = self.s
        self.quads.append(HudQuad("char", code, self.ox + x * s, self.oy + y * s, CHAR * s, CHAR * s,
                                  tint=tint or (1.0, 1.0, 1.0)))

    def string(self, x: int, y: int, text: str, add: int = 0) -> None:
        for i, code in enumerate(quake_chars(text)):
            self.char(x + i * CHAR, y, code + add)

    def fill(self, x: int, y: int, w: int, h: int, colour: int) -> None:
        s = self.s
        self.quads.append(HudQuad("fill", colour, self.ox + x * s, self.oy + y * s, w * s, h * s))

    def tile(self, x: int, y: int, w: int, h: int, name: str = "backtile") -> None:
        """Screen-pixel rectangle tiled with ``name`` (not relative to the canvas)."""
        if w > 0 and h > 0:
            self.quads.append(HudQuad("tile", name, x, y, w, h))


_NUM = 24
#: Fallback sizes of the ``gfx/*.lmp`` pictures the overlays centre (those of the LibreQuake data); the real size
#: comes from ``build_hud(pic_sizes=…)``.
DEFAULT_LMP_SIZES: Mapping[str, tuple[int, int]] = {
    "gfx/ranking.lmp": (86, 28), "gfx/complete.lmp": (142, 28), "gfx/inter.lmp": (160, 144),
    "gfx/finale.lmp": (112, 28)}


class _Sizes:
    """``get(name, default)`` over a mapping or a ``name → (w, h) | None`` callable."""

    def __init__(self, source) -> None:
        self.source = source

    def get(self, name: str, default: tuple[int, int]) -> tuple[int, int]:
        found = None
        if callable(self.source):
            found = self.source(name)
        elif self.source is not None:
            found = self.source.get(name)
        if found is None:
            found = DEFAULT_LMP_SIZES.get(name, default)
        return int(found[0]), int(found[1])


def _draw_num(b: _Builder, x: int, y: int, num: int, red: bool) -> None:
    for dx, name in number_pics(num, 3, red):
        b.pic(x + dx, y, name, _NUM, _NUM)


def _inventory(b: _Builder, stats: Mapping[str, int], items: int, scores: Sequence[PlayerScore], maxclients: int,
               view_slot: int) -> None:
    """``Sbar_DrawInventory`` (+ ``Sbar_DrawFrags``): the top 24 rows of the status bar canvas."""
    b.pic(0, 0, "ibar", SBAR_WIDTH, SBAR_HEIGHT)
    active = stats.get("activeweapon", 0)
    for i, weapon in enumerate(_WEAPONS):
        bit = IT_SHOTGUN << i
        if items & bit:
            prefix = "inv2_" if active == bit else "inv_"
            b.pic(i * 24, 8, prefix + weapon, 48 if weapon == "lightng" else 24, 16)
    for i, name in enumerate(_AMMO_STATS):
        val = max(0, min(999, int(stats.get(name, 0))))
        for j, ch in enumerate(f"{val:3d}"):
            if ch != " ":
                b.char((6 * i + 1 + j) * 8 + 2, 0, 18 + ord(ch) - 48)
    for i, name in enumerate(_ITEMS):
        if items & (1 << (17 + i)):
            b.pic(192 + i * 16, 8, "sb_" + name, 16, 16)
    for i in range(4):
        if items & (1 << (28 + i)):
            b.pic(320 - 32 + i * 8, 8, f"sb_sigil{i + 1}", 8, 16)
    if maxclients != 1:
        for i, sc in enumerate(sorted_scores(scores)[:4]):
            x = 184 + 32 * i
            b.fill(x + 10, 1, 28, 4, _color_for_map(sc.top))
            b.fill(x + 10, 5, 28, 3, _color_for_map(sc.bottom))
            for j, ch in enumerate(f"{sc.frags:3d}"[:3]):
                b.char(x + 12 + 8 * j, 0, ord(ch))
            if sc.slot == view_slot:
                b.char(x + 6, 0, 16)
                b.char(x + 32, 0, 17)


def _status(b: _Builder, stats: Mapping[str, int], items: int, pain: bool) -> None:
    """The ``sbar`` row (``Sbar_Draw``): armour, face, health, ammo icon and count; canvas y 24..47."""
    y = SBAR_HEIGHT
    b.pic(0, y, "sbar", SBAR_WIDTH, SBAR_HEIGHT)
    armor = int(stats.get("armor", 0))
    if items & IT_INVULNERABILITY:
        _draw_num(b, 24, y, 666, True)
        b.pic(0, y, "disc", 24, 24)
    else:
        _draw_num(b, 24, y, armor, armor <= 25)
        for bit, name in ((IT_ARMOR3, "sb_armor3"), (IT_ARMOR2, "sb_armor2"), (IT_ARMOR1, "sb_armor1")):
            if items & bit:
                b.pic(0, y, name, 24, 24)
                break
    health = int(stats.get("health", 0))
    b.pic(112, y, face_pic(health, items, pain), 24, 24)
    _draw_num(b, 136, y, health, health <= 25)
    for bit, name in _AMMO_ICONS:
        if items & bit:
            b.pic(224, y, name, 24, 24)
            break
    ammo = int(stats.get("ammo", 0))
    _draw_num(b, 248, y, ammo, ammo <= 10)


def _solo_scoreboard(b: _Builder, stats: Mapping[str, int], server_time: float, level_name: str) -> None:
    """``scorebar`` + ``Sbar_SoloScoreboard`` (the classic layout: kills, secrets, level time, level name)."""
    y = SBAR_HEIGHT
    b.pic(0, y, "scorebar", SBAR_WIDTH, SBAR_HEIGHT)
    b.string(8, y + 12, f"Kills: {stats.get('monsters', 0)}/{stats.get('totalmonsters', 0)}")
    text = f"Secrets: {stats.get('secrets', 0)}/{stats.get('totalsecrets', 0)}"
    b.string(312 - len(text) * 8, y + 12, text)
    secs = max(0, int(server_time))
    text = f"{secs // 60}:{secs % 60 // 10}{secs % 10}"
    b.string(160 - len(text) * 4, y + 12, text)
    name = level_name[:40]
    b.string(160 - len(name) * 4, y + 4, name)


def _deathmatch_overlay(b: _Builder, scores: Sequence[PlayerScore], view_slot: int,
                        sizes: _Sizes) -> None:
    """``Sbar_DeathmatchOverlay`` on the menu canvas: ``gfx/ranking.lmp`` and one row per player."""
    w, h = sizes.get("gfx/ranking.lmp", (86, 28))
    b.pic((MENU_WIDTH - w) // 2, 8, "gfx/ranking.lmp", w, h)
    x, y = 80, 40
    for sc in sorted_scores(scores):
        b.fill(x, y, 40, 4, _color_for_map(sc.top))
        b.fill(x, y + 4, 40, 4, _color_for_map(sc.bottom))
        for j, ch in enumerate(f"{sc.frags:3d}"[:3]):
            b.char(x + 8 + 8 * j, y, ord(ch))
        if sc.slot == view_slot:
            b.char(x - 8, y, 12)
        b.string(x + 64, y, sc.name, add=128)      # M_Print: bronze
        y += 10


def _mini_deathmatch_overlay(b: _Builder, scores: Sequence[PlayerScore], view_slot: int) -> None:
    """``Sbar_MiniDeathmatchOverlay``: frags beside the status bar when the screen is ≥ 512 virtual pixels wide."""
    ranked = sorted_scores(scores)
    numlines = 6
    i = next((k for k, sc in enumerate(ranked) if sc.slot == view_slot), None)
    i = 0 if i is None else i - numlines // 2
    i = max(0, min(i, len(ranked) - numlines))
    x, y = 324, 0
    while i < len(ranked) and y <= 48:
        sc = ranked[i]
        b.fill(x, y + 1, 40, 4, _color_for_map(sc.top))
        b.fill(x, y + 5, 40, 3, _color_for_map(sc.bottom))
        for j, ch in enumerate(f"{sc.frags:3d}"[:3]):
            b.char(x + 8 + 8 * j, y, ord(ch))
        if sc.slot == view_slot:
            b.char(x, y, 16)
            b.char(x + 32, y, 17)
        b.string(x + 48, y, sc.name)
        i += 1
        y += 8


def _intermission_number(b: _Builder, x: int, y: int, num: int) -> None:
    s = _itoa(num)
    if len(s) > 3:
        s = s[len(s) - 3:]
    x += (3 - len(s)) * 24
    for ch in s:
        b.pic(x, y, "num_" + ("minus" if ch == "-" else ch), _NUM, _NUM)
        x += 24


def _intermission_overlay(b: _Builder, stats: Mapping[str, int], completed: float,
                          sizes: _Sizes) -> None:
    """``Sbar_IntermissionOverlay`` (single player / coop) on the menu canvas."""
    w, h = sizes.get("gfx/complete.lmp", (192, 24))
    b.pic(64, 24, "gfx/complete.lmp", w, h)
    w, h = sizes.get("gfx/inter.lmp", (160, 144))
    b.pic(0, 56, "gfx/inter.lmp", w, h)
    total = max(0, int(completed))
    minutes, secs = total // 60, total % 60
    _intermission_number(b, 152, 64, minutes)
    b.pic(224, 64, "num_colon", _NUM, _NUM)
    b.pic(240, 64, f"num_{secs // 10}", _NUM, _NUM)
    b.pic(264, 64, f"num_{secs % 10}", _NUM, _NUM)
    _intermission_number(b, 152, 104, int(stats.get("secrets", 0)))
    b.pic(224, 104, "num_slash", _NUM, _NUM)
    _intermission_number(b, 240, 104, int(stats.get("totalsecrets", 0)))
    _intermission_number(b, 152, 144, int(stats.get("monsters", 0)))
    b.pic(224, 144, "num_slash", _NUM, _NUM)
    _intermission_number(b, 240, 144, int(stats.get("totalmonsters", 0)))


def _center_string(b: _Builder, cp: CenterPrint, reveal: int | None) -> None:
    """``SCR_DrawCenterString`` on the menu canvas; ``reveal`` limits the characters drawn (finale printing)."""
    lines = cp.lines
    y = 70 if len(lines) <= 4 else 48
    remaining = reveal
    for line in lines:
        x = (MENU_WIDTH - len(line) * CHAR) // 2
        for code in quake_chars(line):
            b.char(x, y, code)
            x += CHAR
            if remaining is not None:
                if remaining <= 0:
                    return
                remaining -= 1
        y += CHAR


#: The last :func:`_qw_mini_overlay` answers by their arguments (the panes of a multiview each watch their player).
_mini_overlays: dict[tuple, tuple[HudQuad, ...]] = {}


def _qw_mini_overlay(scores: Sequence[PlayerScore], view_slot: int, width: int, scale: int,
                     top: int) -> tuple[HudQuad, ...]:
    """QuakeWorld's frags beside the status bar (:func:`~.qw_scoreboard.mini_overlay`) on the status bar canvas at
    screen row ``top``; the last 8 kept by what they show of the players (names, frags, colours, teams), which
    changes a few times a minute."""
    shown = tuple((s.slot, s.name, s.frags, s.colors, s.team, s.spectator) for s in scores)
    key = (shown, view_slot, width, scale, top)
    found = _mini_overlays.get(key)
    if found is None:
        b = _Builder(scale)
        b.canvas(0, top)
        qw_scoreboard.mini_overlay(b, scores, view_slot, width)
        found = tuple(b.quads)
        if len(_mini_overlays) >= 8:
            del _mini_overlays[next(iter(_mini_overlays))]
        _mini_overlays[key] = found
    return found


#: The last :func:`_notify_quads` asked and its answer: the notify lines stay for seconds, the same every frame.
_last_notify_quads: list = [None, ()]


def _notify_quads(rows: tuple[ColouredText, ...], scale: int) -> tuple[HudQuad, ...]:
    """``Con_DrawNotify``: the notify ``rows`` at the top-left, one row per line, from the second column."""
    asked, answer = _last_notify_quads
    if asked != (rows, scale):
        b = _Builder(scale)
        for row, line in enumerate(rows):
            for first, text, colour in colour_runs(line):
                for col, code in enumerate(quake_chars(text), first):
                    b.char((col + 1) * CHAR, row * CHAR, code, colour)
        answer = tuple(b.quads)
        _last_notify_quads[:] = (rows, scale), answer
    return answer


# --- the whole overlay -----------------------------------------------------------------------------------------


def build_hud(state: SceneState, recent_events: Sequence[Event], screen_size: tuple[int, int], scale: int = 1, *,
              segment: MapSegment | None = None, show_scores: bool = False,
              pic_sizes: Mapping[str, tuple[int, int]] | Callable[[str], tuple[int, int] | None] | None = None,
              quakeworld: bool = False, sbar: SbarStyle = SbarStyle()) -> HudLayout:
    """The overlay at ``state.time`` for a ``screen_size`` (width, height) screen with virtual pixels ``scale``
    screen pixels wide (an integer ≥ 1).

    ``recent_events``: the timeline's events sorted by time (``timeline.events``; only the few before ``t`` are
    read, by bisection) — prints, centerprints, damage (pain face) and the intermission (completed time).  Events
    count as arrived when their ``frame`` is ≤ ``state.frame`` (the frame ``sample`` shows).  ``segment``: the
    map segment of ``state`` (``timeline.segments[state.segment]``) — gives ``maxclients`` (frags in the bar),
    ``gametype`` (deathmatch layout), the level name and the server clock; without it, single player is assumed.
    ``show_scores``: the scoreboard key (``+showscores``) is held.  ``pic_sizes``: ``name → (width, height)`` (a
    mapping or a callable such as ``HudRenderer.pic_size``) of the ``gfx/*.lmp`` pictures the overlays centre; their
    size depends on the game data (fallback: :data:`DEFAULT_LMP_SIZES`).  ``quakeworld``: QuakeWorld's score
    bar and scoreboards (:mod:`~viewer.games.quake.qw_scoreboard`: ping/pl/time/team columns, team totals).
    ``sbar``: the engine's status bar style.
    """
    scale = max(1, int(scale))
    bar_scale = scale if sbar.scale is None else max(1, int(sbar.scale))
    sw, sh = int(screen_size[0]), int(screen_size[1])
    t = float(state.time)
    stats = state.stats
    items = int(stats.get("items", 0))
    intermission = int(stats.get("intermission", 0))
    frame = state.frame if state.frame >= 0 else None
    events = recent_events
    end = _upto(events, t, frame)
    sizes = _Sizes(pic_sizes)
    maxclients = segment.maxclients if segment is not None else 1
    deathmatch = segment is not None and segment.gametype == GAME_DEATHMATCH
    level_name = segment.level_name if segment is not None else ""
    time_offset = segment.time_offset if segment is not None else 0.0
    view_slot = state.view_entity - 1
    scores = state.scoreboard

    b = _Builder(scale)
    menu_ox = (sw - MENU_WIDTH * scale) // 2
    menu_oy = (sh - MENU_HEIGHT * scale) // 2
    sbar_lines = 0

    qw_minutes = int(max(0.0, t - segment.start_time) // 60) if segment is not None else 0
    ranking = sizes.get("gfx/ranking.lmp", (86, 28))
    team_game = quakeworld and qw_scoreboard.is_team_game(scores)

    if intermission == 1 and quakeworld:
        b.canvas(menu_ox, 0)      # QuakeWorld's overlays start at the top of the screen
        if team_game:
            qw_scoreboard.team_overlay(b, scores, view_slot, qw_minutes, ranking, bottom=sh // scale)
        else:
            qw_scoreboard.deathmatch_overlay(b, scores, view_slot, qw_minutes, ranking, bottom=sh // scale)
        return HudLayout((sw, sh), scale, tuple(b.quads), 0)
    if intermission == 1:
        b.canvas(menu_ox, menu_oy)
        if deathmatch:
            _deathmatch_overlay(b, scores, view_slot, sizes)
        else:
            ev = _last_of_kind(events, end, {"intermission"})
            completed = (ev.time if ev is not None else t) - time_offset
            _intermission_overlay(b, stats, completed, sizes)
        return HudLayout((sw, sh), scale, tuple(b.quads), 0)

    if intermission == 2:
        b.canvas(menu_ox, menu_oy)
        w, h = sizes.get("gfx/finale.lmp", (288, 24))
        b.pic((MENU_WIDTH - w) // 2, 16, "gfx/finale.lmp", w, h)

    cp = centerprint_at(events, t, intermission=intermission, frame=frame)
    if cp is not None:
        b.canvas(menu_ox, menu_oy)
        reveal = int(PRINT_SPEED * max(0.0, t - cp.time)) if intermission else None
        _center_string(b, cp, reveal)

    if intermission == 0:
        # Sbar_Draw: backtile beside the bar (or the view showing through), the inventory row, then the status (or
        # score) row, in the bar's own scale.
        b.s, b.bar_alpha = bar_scale, sbar.alpha
        sbar_lines = 2 * SBAR_HEIGHT * bar_scale
        bar_w = SBAR_WIDTH * bar_scale
        top = sh - sbar_lines
        if deathmatch:
            if sbar.backtile:
                b.tile(bar_w, top, sw - bar_w, sbar_lines)
            ox = 0
        else:
            side = (sw - bar_w) // 2
            if sbar.backtile:
                b.tile(0, top, side, sbar_lines)
                b.tile(side + bar_w, top, sw - side - bar_w, sbar_lines)
            ox = side
        b.canvas(ox, top)
        _inventory(b, stats, items, scores, maxclients, view_slot)
        health = int(stats.get("health", 0))
        if quakeworld and (show_scores or health <= 0):
            qw_scoreboard.solo_scoreboard(b, t - time_offset, SBAR_HEIGHT)
            b.s, b.bar_alpha = scale, 1.0
            b.canvas(menu_ox, 0)
            if team_game:
                qw_scoreboard.team_overlay(b, scores, view_slot, qw_minutes, ranking, bottom=sh // scale)
            else:
                qw_scoreboard.deathmatch_overlay(b, scores, view_slot, qw_minutes, ranking, bottom=sh // scale)
            b.s, b.bar_alpha = bar_scale, sbar.alpha
        elif show_scores or health <= 0:
            _solo_scoreboard(b, stats, t - time_offset, level_name)
            if deathmatch:
                b.s, b.bar_alpha = scale, 1.0
                b.canvas(menu_ox, menu_oy)
                _deathmatch_overlay(b, scores, view_slot, sizes)
                b.s, b.bar_alpha = bar_scale, sbar.alpha
        else:
            dmg = _last_of_kind(events, end, {"damage"}, since=t - FACE_ANIM_TIME - 1.0)
            pain = dmg is not None and t <= dmg.time + FACE_ANIM_TIME
            _status(b, stats, items, pain)
        if quakeworld:
            b.quads.extend(_qw_mini_overlay(scores, view_slot, sw // bar_scale, bar_scale, top))
        elif deathmatch and sw // bar_scale >= 512:
            b.canvas(0, top)
            _mini_deathmatch_overlay(b, scores, view_slot)
        b.s, b.bar_alpha = scale, 1.0

    if intermission != 2:
        # Con_DrawNotify: top-left, one row per line.
        width = max(1, sw // scale // CHAR - 2)
        b.quads.extend(_notify_quads(notify_rows(events, t, width=width, frame=frame), scale))

    return HudLayout((sw, sh), scale, tuple(b.quads), sbar_lines)
