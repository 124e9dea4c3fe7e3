"""The corner readout and the missing-data notice, as pure layouts (no OpenGL, no window).

The readout sits in the top-right corner while the timeline bar is hidden (it auto-hides while playing): the time
and duration, the speed (``paused``), the camera mode and the player being watched (the POV slot of an MVD, or the
player an orbit camera follows); with the frame rate toggled on (:data:`viewer.input.KEY_HELP`) a ``fps`` line
is added, also while the bar shows.  The notice is a box near the top centre saying which game data is missing
(no game data, the map, models): the session's notice and the asset loaders' warnings.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from ..render.refdef import HudLayout, Rect, Text, UiLayout
from .timeline_bar import CHAR, DIM_TEXT_COLOR, TEXT_COLOR, TOOLTIP_COLOR, format_time

NOTICE_COLOR = (1.0, 0.8, 0.35, 1.0)
#: Characters per line of the notice.
NOTICE_WIDTH = 64


@dataclass(frozen=True, slots=True)
class Readout:
    """What the readout says: ``t`` seconds into a ``duration`` s demo, playback ``speed``, ``paused``, the
    ``camera`` mode name, the ``watching`` player's name (``""``: nobody in particular), ``fps`` (``None``: off),
    ``export``: the share of the background export done (``None``: none running), ``overlays``: the caster's overlays
    on (``"names,xray"``; ``""``: none), ``director``: the director's current shot (``""``: the director is off)."""

    t: float
    duration: float
    speed: float = 1.0
    paused: bool = False
    camera: str = "pov"
    watching: str = ""
    fps: float | None = None
    export: float | None = None
    overlays: str = ""
    director: str = ""


def readout_lines(r: Readout, *, with_clock: bool = True) -> tuple[str, ...]:
    """The readout's lines: ``0:12.3 / 2:05.0`` and ``1x pov`` (``paused``, ``rev``) and ``watching NAME`` (without
    ``with_clock`` only the fps line), ``export 42%`` while a background export runs (the bar shows it otherwise),
    ``60 fps`` when the frame rate is on, ``overlays names,xray`` while any caster's overlay is on (F5–F8); the
    director's shot (``director: NAME - why``) while it directs, also beside the bar."""
    lines: list[str] = []
    if with_clock:
        lines.append(f"{format_time(r.t)} / {format_time(r.duration)}")
        speed = ("rev " if r.speed < 0 else "") + f"{abs(r.speed):g}x"
        lines.append("  ".join(part for part in (speed, "paused" if r.paused else "", r.camera) if part))
        if r.watching:
            lines.append(f"watching {r.watching}")
        if r.export is not None:
            lines.append(f"export {int(min(max(r.export, 0.0), 1.0) * 100)}%")
    if r.director:
        lines.append(r.director)
    if r.fps is not None:
        lines.append(f"{r.fps:.0f} fps")
    if r.overlays:
        lines.append(f"overlays {r.overlays}")
    return tuple(lines)


def readout_layout(lines: Sequence[str], size: tuple[int, int], scale: int, *, top: float = 0.0,
                   hud: HudLayout | None = None) -> UiLayout:
    """``lines`` right-aligned in a translucent box in the top-right corner, ``top`` pixels down or lower: at the
    first height where the box covers nothing of ``hud`` (the game's HUD drawn this frame, see :func:`free_top`),
    if there is one on the screen."""
    if not lines:
        return UiLayout()
    s = max(1, scale)
    ch = CHAR * s
    pad = 3 * s
    w = max(len(line) for line in lines) * ch + 2 * pad
    h = len(lines) * (ch + s) + 2 * pad - s
    x = size[0] - w - 4 * s
    y = top + 4 * s
    if hud is not None:
        free = free_top(hud, x, x + w, top, h, 4 * s)
        y = free if free + h <= size[1] else y   # nowhere free on the screen: over the HUD rather than off it
    texts = tuple(Text(x + w - pad - len(line) * ch, y + pad + i * (ch + s), line, ch,
                       TEXT_COLOR if i == 0 else DIM_TEXT_COLOR) for i, line in enumerate(lines))
    return UiLayout((Rect(x, y, w, h, TOOLTIP_COLOR),), texts)


def free_top(hud: HudLayout, left: float, right: float, top: float, height: float, gap: float) -> float:
    """The highest y, at least ``gap`` below ``top``, where a box from ``left`` to ``right`` and ``height`` tall
    covers none of ``hud``'s pictures, characters and model boxes, with ``gap`` pixels below any it goes under:
    Quake III's cgame draws the follow prompt, the attacker's head and name in the top-right corner
    (``CG_DrawUpperRight``), its scoreboard the place line and the rows further down."""
    boxes = [(q.x, q.y, q.w, q.h) for q in hud.quads] + [(m.x, m.y, m.w, m.h) for m in hud.models]
    y = top + gap
    for box_top, box_bottom in sorted((by, by + bh) for bx, by, bw, bh in boxes if bx < right and left < bx + bw):
        if box_top >= y + height:
            break   # the rest start lower still: the box fits above them
        y = max(y, box_bottom + gap)
    return y


def missing_data_notice(notice: str, warnings: Sequence[str], width: int = NOTICE_WIDTH) -> tuple[str, ...]:
    """The notice's lines: the session's ``notice`` (the game data or map that is missing and how to point qdv at
    the game; ``""`` for none) wrapped to ``width`` characters, then one line for the models missing from the game
    data that is there (the asset loaders' ``warnings`` that say they draw a placeholder)."""
    lines = textwrap.wrap(notice, width)
    models = [w for w in warnings if "placeholder" in w]
    if models:
        lines.append(f"{len(models)} model{'s' if len(models) > 1 else ''} missing: drawn as placeholders "
                     "(see the terminal)")
    return tuple(lines)


#: The notice's top in virtual pixels: below the four notify lines and the corner readout.
NOTICE_TOP = 48


def notice_layout(lines: Sequence[str], size: tuple[int, int], scale: int) -> UiLayout:
    """The notice box centred near the top of the window, below the notify lines and the readout."""
    if not lines:
        return UiLayout()
    s = max(1, scale)
    ch = CHAR * s
    pad = 4 * s
    w = max(len(line) for line in lines) * ch + 2 * pad
    h = len(lines) * (ch + 2 * s) + 2 * pad - 2 * s
    x, y = (size[0] - w) / 2, NOTICE_TOP * s
    texts = tuple(Text(x + pad, y + pad + i * (ch + 2 * s), line, ch, NOTICE_COLOR) for i, line in enumerate(lines))
    return UiLayout((Rect(x, y, w, h, TOOLTIP_COLOR),), texts)
