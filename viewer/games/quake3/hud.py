"""The Quake III HUD as a pure :class:`~viewer.render.refdef.HudLayout`, after the cgame's 2D drawing: ammo,
health and armor of the followed client in big digits along the bottom (left, middle, right, as OpenArena has
them), its score and the leader's at the bottom right, "following NAME" at the top while a spectator follows, the
last frag messages and chat lines at the top left, the level timer at the top right and the crosshair in the middle.

Text uses the ``conchars`` font (:mod:`.hud_pics` makes it from ``gfx/2d/bigchars``); colours are the grey ramp
of the stand-in palette.  Sizes follow the cgame's 640×480 virtual screen (``BIGCHAR_WIDTH`` 16, numbers 32 wide,
``SMALLCHAR_WIDTH`` 8) scaled to the screen.

References: ioquake3 ``code/cgame/cg_draw.c`` (``CG_DrawStatusBar``, ``CG_DrawFollow``, ``CG_DrawTimer``,
``CG_DrawScores``, ``CG_DrawCrosshair``), ``cg_servercmds.c`` / ``cg_event.c`` (chat lines and obituaries kept a
few seconds), ``bg_public.h`` (``PMF_FOLLOW``).
"""

from __future__ import annotations

from assets_loader.demos import DemoTimeline, SceneState

from ...render.refdef import HudLayout, HudQuad
from ..base import PicSizes

__all__ = ["CROSSHAIR", "PMF_FOLLOW", "hud_layout"]

PMF_FOLLOW = 4096
CROSSHAIR = "gfx/2d/crosshairb"
#: Seconds a frag message or chat line stays up.
MESSAGE_TIME = 4.0


def _text(quads: list[HudQuad], text: str, x: float, y: float, size: float, alpha: float = 1.0) -> None:
    step = int(round(size))
    for i, ch in enumerate(text):
        code = ord(ch) if ord(ch) < 256 else ord("?")
        if code != 32:
            quads.append(HudQuad("char", code, int(round(x)) + i * step, int(round(y)), step, step, alpha))


def _centered(quads: list[HudQuad], text: str, cx: float, y: float, size: float) -> None:
    _text(quads, text, cx - len(text) * size / 2, y, size)


def hud_layout(state: SceneState, timeline: DemoTimeline, screen_size: tuple[int, int], scale: int, *,
               show_scores: bool = False, pic_sizes: PicSizes | None = None) -> HudLayout:
    """The HUD at ``state.time`` (rules: module docstring)."""
    sw, sh = screen_size
    u = sh / 480.0                                     # one virtual pixel of the cgame's 640×480 screen
    quads: list[HudQuad] = []
    stats = state.stats
    if not stats:
        return HudLayout(screen_size, scale, ())
    names = {p.slot: p.name for p in state.scoreboard}
    spectator = stats.get("pm_type", 0) == 2 and not stats.get("pm_flags", 0) & PMF_FOLLOW
    if not spectator:
        big, y = 32 * u, sh - 40 * u
        health, armor = stats.get("health", 0), stats.get("armor", 0)
        if stats.get("weapon", 0) > 1:
            _text(quads, f"{stats.get('ammo', 0):>3}", 8 * u, y, big)
        _text(quads, f"{health:>3}", sw / 2 - 48 * u, y, big)
        _text(quads, f"{armor:>3}" if armor else "", sw - 200 * u, y, big)
        mine = stats.get("score", 0)
        client = stats.get("clientNum", -1)
        best = max((p.frags for p in state.scoreboard if not p.spectator and p.name), default=mine)
        _text(quads, f"{mine:>3}", sw - 110 * u, sh - 60 * u, 16 * u)
        _text(quads, f"{best:>3}", sw - 56 * u, sh - 60 * u, 16 * u, 0.7)
        if stats.get("pm_flags", 0) & PMF_FOLLOW and client in names:
            _centered(quads, "following", sw / 2, 24 * u, 16 * u)
            _centered(quads, names[client], sw / 2, 44 * u, 32 * u)
        size = None
        if callable(pic_sizes):
            size = pic_sizes(CROSSHAIR)
        elif pic_sizes is not None:
            size = pic_sizes.get(CROSSHAIR)
        if size is not None:
            half = int(12 * u)
            quads.append(HudQuad("pic", CROSSHAIR, sw // 2 - half, sh // 2 - half, 2 * half, 2 * half))
        else:
            _centered(quads, "+", sw / 2, sh / 2 - 4 * u, 8 * u)
    recent = [e for kind in ("obituary", "chat") for e in timeline.events_of_kind(kind)
              if state.time - MESSAGE_TIME < e.time <= state.time]
    recent.sort(key=lambda e: e.time)
    for row, event in enumerate(recent[-4:]):
        sender = getattr(event, "sender", "")
        line = f"{sender}: {event.text}" if sender else str(getattr(event, "text", ""))
        _text(quads, line[:80], 4 * u, (4 + row * 10) * u, 8 * u)
    seconds = max(int(state.time - timeline.segments[max(state.segment, 0)].start_time), 0) if timeline.segments \
        else 0
    _text(quads, f"{seconds // 60}:{seconds % 60:02d}", sw - 64 * u, 4 * u, 16 * u)
    if show_scores:
        for row, p in enumerate(sorted((p for p in state.scoreboard if p.name), key=lambda p: -p.frags)):
            _text(quads, f"{p.frags:>4}  {p.name}", sw / 2 - 120 * u, (120 + row * 20) * u, 16 * u)
    return HudLayout(screen_size, scale, tuple(quads))
