"""The Quake III HUD as a pure :class:`~viewer.render.refdef.HudLayout`, laid out like the cgame's 2D drawing on its
640 × 480 virtual screen stretched over the whole target (x and y scaled apart, as ``CG_AdjustFrom640`` does).

- Status bar (``CG_DrawStatusBar``), unless a free spectator or dead: ammo of the held weapon at x 0 with its ammo
  icon (none for the gauntlet's -1), health at x 185 with the player's head icon, armor at x 370 with the armor
  icon, in the 32 × 48 number pictures (``CG_DrawField``: three digits, right-aligned) at y 432.  Colours: ammo
  yellow, dark grey while the weapon reloads (``WEAPON_FIRING`` with over 100 ms of ``weaponTime`` left); health
  white over 100, yellow over 25, flashing red / yellow below, red at 0; armor yellow.
- Weapon select (``CG_DrawWeaponSelect``) for 1.4 s after the weapon changes (the held one selected), after the
  viewed player picks up a weapon other than the machine gun (``CG_ItemPickup`` with ``cg_autoswitch 1``: that one
  selected) or after it spawns (``CG_Respawn``: the held one): the owned weapons' icons 32 units square, 40 apart,
  centred at y 380, the grappling hook first, the selected one framed in the gold of ``gfx/2d/select``, no name
  (OpenArena's ``cg_weaponBarStyle 0``, ``CG_DrawWeaponBar0``; its no-ammo cross is left out: the timeline keeps
  the held weapon's ammo only).
- Scores (``CG_DrawScores``, free-for-all): the first place's (``CS_SCORES1``) and the second box
  (``CS_SCORES2``, or the viewer's own score when not first) right-aligned at y 408, the viewer's box blue when it
  leads, red otherwise, framed in gold; grey for the other.
- The last item picked up, in the lower left for 3 s (:mod:`.pickup_item`).
- Crosshair (``CG_DrawCrosshair``): ``gfx/2d/crosshaire`` (``cg_drawCrosshair 4``) 24 units square in the middle,
  tinted by health and armor (``CG_ColorForHealth``); under it for a second the name of the player it last passed
  over (:mod:`.crosshair_names`).
- "following" and the followed player's name in giant letters (``CG_DrawFollow``), OpenArena's
  "USE_ITEM to stop following" in the top right corner; when not following, the warm-up (:mod:`.warmup`).
- Upper right: the level timer (``CG_DrawTimer``) only when asked for, as ``cg_drawTimer`` is 0 by default, then
  in Quake Live's round-based modes the round's number and how long it has run (``Round 3 0:42``), then
  the last attacker's head and name for 10 s after the view took damage (``CG_DrawAttacker``: from the damage
  feedback, :func:`.hud_icons.last_damage`).
- Centre prints (``CG_DrawCenterString``) at 30 % of the height for 3 s, the last 0.2 s fading; "1st" / "2nd" /
  "3rd" in their place colours (``CG_PlaceString``'s colour codes); not while the scoreboard is up.
- OpenArena's respawn line ("Respawn in: 1.66", :mod:`.respawn`) between a death and the respawn, before
- the scoreboard (:mod:`.scoreboard`) while the scores key is held or the viewed player is dead (not during a
  warm-up); in the intermission they are drawn alone (``CG_DrawIntermission``).
- Console notify lines in the top left (the engine's ``Con_DrawNotify``): the last 4 frag messages and chat lines
  of the last 3 s, 8 × 16 screen pixels per character at 1280 × 720 (the console's size, growing with the viewer's
  UI scale); chat after the sender's name in the colour ``G_Say`` gives it (``^2`` green, team chat ``^5``).
  A suicide says "herself" or "itself" when the victim's model is female or neuter (its ``animation.cfg``
  ``sex``; the demo's text assumes male).

- The lagometer in the lower right corner (``CG_DrawLagometer``, :mod:`.lagometer`), except in intermissions.

Text uses the ``bigchars`` glyphs of :mod:`.hud_pics`, shadowed in black where the cgame shadows it; Quake III
colour codes in names and messages colour what follows them and take no room (``CG_DrawStringExt``), except in
the followed player's name, drawn white (``CG_DrawFollow``'s ``forceColor``).  Given the
segment's models, the status bar's ammo, head, flag and armor icons and the attacker's head are 3D models in their
boxes (``cg_draw3dIcons 1``, :mod:`.hud_icons`), drawn before the pictures; without them, or for a model the game
data lacks, the 2D icons stand in (``cg_draw3dIcons 0``); an icon missing both ways is left out.

References: ioquake3 ``code/cgame/cg_draw.c`` (``CG_Draw2D``, ``CG_DrawStatusBar``, ``CG_DrawField``,
``CG_DrawScores``, ``CG_DrawCrosshair``, ``CG_DrawFollow``, ``CG_DrawTimer``, ``CG_DrawAttacker``,
``CG_DrawCenterString``), ``cg_weapons.c`` (``CG_DrawWeaponSelect``), ``cg_drawtools.c`` (``CG_ColorForHealth``,
``CG_FadeColor``, ``CG_DrawStringExt``), ``code/client/cl_console.c`` (``Con_DrawNotify``), ``bg_misc.c``
(``bg_itemlist`` pickup names and icons).
"""

from __future__ import annotations

import weakref
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from functools import lru_cache

import numpy as np

from assets_loader.demos import DemoTimeline, SceneState
from assets_loader.demos.events import Event, ObituaryEvent
from assets_loader.demos.quake3.game import (PM_INTERMISSION, PM_SPECTATOR, PMF_FOLLOW, SCORE_NOT_PRESENT,
                                             TEAM_SPECTATOR, WP_GRAPPLING_HOOK)
from assets_loader.demos.quake3.colors import colored_chars, visible_len
from assets_loader.game_map import GameMap
from assets_loader.demos.quake3.obituaries import S_COLOR_WHITE, gendered_obituary

from ...render.shaded.records import Quake3Models
from ...render.refdef import HudLayout, HudQuad
from ..base import PicSizes
from . import hud_icons, lagometer, scoreboard
from .crosshair_names import NAME_TIME, crosshair_client
from .hud_pics import char_pic
from .screen import WHITE, VirtualScreen
from .pickup_item import PICKUP_TIME, draw_pickup_item
from .respawn import draw_respawn
from .warmup import draw_warmup

__all__ = ["CROSSHAIR", "PMF_FOLLOW", "health_color", "hud_layout"]

CROSSHAIR = "gfx/2d/crosshaire"
ARMOR_ICON = "icons/iconr_yellow"
YELLOW, RED, GREY = (1.0, 0.69, 0.0), (1.0, 0.2, 0.2), (0.5, 0.5, 0.5)
#: ``weaponstate_t``'s ``WEAPON_FIRING``, and the ``weaponTime`` over which the ammo shows as reloading.
WEAPON_FIRING, RELOAD_SHOWN_MS = 3, 100
#: Seconds a console notify line stays (``con_notifytime``) and how many show.
NOTIFY_TIME, NOTIFY_LINES = 3.0, 4
#: Characters a notify line shows at most (counted without colour codes).
NOTIFY_CHARS = 150
CENTER_TIME, FADE_TIME = 3.0, 0.2
WEAPON_SELECT_TIME = 1.4
ATTACKER_HEAD_TIME = 10.0
FOLLOW_NOTICE = "USE_ITEM to stop following"
#: weapon_t → the suffix of its icons (``icons/iconw_…``, ``icons/icona_…``) from ``bg_itemlist``.
WEAPONS = {1: "gauntlet", 2: "machinegun", 3: "shotgun", 4: "grenade", 5: "rocket", 6: "lightning", 7: "railgun",
           8: "plasma", 9: "bfg", 10: "grapple"}
#: The weapons a pickup selects (``CG_ItemPickup``, ``cg_autoswitch 1``: any but the machine gun), by item class.
PICKUP_WEAPONS = {"weapon_gauntlet": 1, "weapon_shotgun": 3, "weapon_grenadelauncher": 4,
                  "weapon_rocketlauncher": 5, "weapon_lightning": 6, "weapon_railgun": 7, "weapon_plasmagun": 8,
                  "weapon_bfg": 9, "weapon_grapplinghook": 10}
def health_color(health: int, armor: int) -> tuple[float, float, float]:
    """``CG_ColorForHealth``: white at 100 or more of health counting the armor that would protect it, yellow to
    red below."""
    if health <= 0:
        return (0.0, 0.0, 0.0)
    protection = 0.66
    count = health + min(armor, health * protection / (1.0 - protection))
    blue = 1.0 if count >= 100 else 0.0 if count < 66 else (count - 66) / 33.0
    green = 1.0 if count > 60 else 0.0 if count < 30 else (count - 30) / 30.0
    return (1.0, green, blue)


def _fade(age: float, total: float) -> float:
    """``CG_FadeColor``: 1, then down to 0 over the last :data:`FADE_TIME`; 0 once ``total`` has passed."""
    if age < 0 or age >= total:
        return 0.0
    return min(1.0, (total - age) / FADE_TIME)


def _head_icon(state: SceneState, client: int) -> str:
    if not 0 <= client < len(state.scoreboard):
        return ""
    return hud_icons.head_pic(dict(state.scoreboard[client].userinfo))


def _last_changes(timeline: DemoTimeline, names: tuple[str, ...], frame: int) -> list[int | None]:
    """For each stat of ``names``, the last frame ≤ ``frame`` (and at most 400 back) where it changed while the view
    stayed on the same client, or ``None`` (one window of stats for all of them)."""
    lo = max(frame - 400, 1)
    window = timeline.stats_window(lo - 1, frame + 1)
    clients = window["clientNum"]
    same = clients[1:] == clients[:-1]
    changes = []
    for name in names:
        found = np.flatnonzero((np.diff(window[name].astype(np.int64)) != 0) & same)
        changes.append(lo + int(found[-1]) if len(found) else None)
    return changes


def _has(pic_sizes: PicSizes | None, name: str) -> bool:
    """Whether the game data has picture ``name`` (assumed so without sizes to ask)."""
    if pic_sizes is None:
        return True
    return (pic_sizes(name) if callable(pic_sizes) else pic_sizes.get(name)) is not None


def _status_bar(screen: VirtualScreen, state: SceneState, timeline: DemoTimeline, pic_sizes: PicSizes | None,
                models: Quake3Models | None) -> None:
    stats = state.stats
    t = state.time
    weapon = int(stats.get("weapon", 0))
    ammo_model = hud_icons.ammo_icon(models, weapon, t) if models is not None else None
    head_model = hud_icons.head_icon(models, state, timeline) if models is not None else None
    flag_model = hud_icons.flag_icon(models, int(stats.get("powerups", 0)), t) if models is not None else None
    armor = int(stats.get("armor", 0))
    armor_model = hud_icons.armor_icon(models, t) if models is not None and armor else None
    for model in (ammo_model, head_model, flag_model, armor_model):
        if model is not None:
            screen.model(model)
    if weapon in WEAPONS and int(stats.get("ammo", 0)) >= 0:   # -1: no ammo to count (the gauntlet)
        reloading = int(stats.get("weapon_state", 0)) == WEAPON_FIRING and int(stats.get("weapon_time", 0)) \
            > RELOAD_SHOWN_MS
        screen.field(0, 432, int(stats.get("ammo", 0)), GREY if reloading else YELLOW)
        icon = f"icons/icona_{WEAPONS[weapon]}"
        if ammo_model is None and _has(pic_sizes, icon):
            screen.pic(icon, 32 * 3 + 4, 432, 48, 48)
    health = int(stats.get("health", 0))
    if health > 100:
        color = WHITE
    elif health > 25:
        color = YELLOW
    elif health > 0:
        color = RED if int(t * 1000) >> 8 & 1 else YELLOW
    else:
        color = RED
    screen.field(185, 432, health, color)
    head = _head_icon(state, int(stats.get("clientNum", -1)))
    if head and head_model is None:
        screen.pic(head, 185 + 32 * 3 + 4, 432, 48, 48)
    if armor > 0:
        screen.field(370, 432, armor, YELLOW)
        if armor_model is None:
            screen.pic(ARMOR_ICON, 370 + 32 * 3 + 4, 432, 48, 48)


def _selection(state: SceneState, timeline: DemoTimeline) -> tuple[float, int] | None:
    """Since when the weapon select shows and which weapon it selects (rules: module docstring), or ``None``."""
    held = int(state.stats.get("weapon", 0))
    found = [(float(timeline.times[f]), held) for f in _last_changes(timeline, ("weapon", "spawn_count"), state.frame)
             if f is not None]
    client = int(state.stats.get("clientNum", -1))
    for event in _recent_pickups(timeline, state.time, WEAPON_SELECT_TIME):
        picked = PICKUP_WEAPONS.get(getattr(event, "item", ""))
        if picked is not None and getattr(event, "player", -1) == client and event.segment == state.segment and \
                state.time - event.time < WEAPON_SELECT_TIME:
            found.append((event.time, picked))
    return max(found, key=lambda since: since[0]) if found else None


def _pickup_item(screen: VirtualScreen, state: SceneState, timeline: DemoTimeline) -> None:
    """The viewed player's last pickup of the last 3 s (:mod:`.pickup_item`), unless the weapon select has shown
    since."""
    client = int(state.stats.get("clientNum", -1))
    last = None
    for event in _recent_pickups(timeline, state.time, PICKUP_TIME):
        if getattr(event, "player", -1) == client and event.segment == state.segment:
            last = event
    if last is None or state.time - last.time >= PICKUP_TIME or getattr(last, "item", "") in PICKUP_WEAPONS:
        return                                         # a weapon it selects brings up the weapon select instead
    selection = _selection(state, timeline)
    if selection is not None and selection[0] + WEAPON_SELECT_TIME > last.time:
        return
    draw_pickup_item(screen, getattr(last, "item", ""), _fade(state.time - last.time, PICKUP_TIME))


def _weapon_select(screen: VirtualScreen, state: SceneState, timeline: DemoTimeline) -> None:
    if not 0 <= state.frame < len(timeline.times):
        return
    selection = _selection(state, timeline)
    if selection is None:
        return
    since, selected = selection
    alpha = _fade(state.time - since, WEAPON_SELECT_TIME)
    owned = [w for w in sorted(WEAPONS, key=lambda w: (w != WP_GRAPPLING_HOOK, w))
             if int(state.stats.get("weapons", 0)) >> w & 1]
    if alpha <= 0 or not owned:
        return
    x = 320 - len(owned) * 20
    for w in owned:
        screen.pic(f"icons/iconw_{WEAPONS[w]}", x, 380, 32, 32, alpha=alpha)
        if w == selected:
            screen.frame(x - 4, 380 - 4, 40, 40, alpha)
        x += 40


def _scores(screen: VirtualScreen, state: SceneState) -> None:
    stats = state.stats
    score = int(stats.get("score", 0))
    spectator = int(stats.get("team", 0)) == TEAM_SPECTATOR
    first = int(stats.get("scores1", SCORE_NOT_PRESENT))
    second = int(stats.get("scores2", SCORE_NOT_PRESENT))
    if first != score:
        second = score                       # always show your score in the second box if not in first place
    y, x = 480 - 48 - 24, 640.0
    for value, leads in ((second, False), (first, True)):
        if value == SCORE_NOT_PRESENT:
            continue
        text = f"{value:2d}"
        w = len(text) * 16 + 8
        x -= w
        mine = not spectator and value == score and (leads or score != first)
        if mine:
            screen.fill(x, y - 4, w, 24, (0.0, 0.0, 1.0) if leads else (1.0, 0.0, 0.0), 0.33)
            screen.frame(x, y - 4, w, 24)
        else:
            screen.fill(x, y - 4, w, 24, (0.5, 0.5, 0.5), 0.33)
        screen.text(text, x + 4, y, 16, 16)


def _crosshair(screen: VirtualScreen, state: SceneState, pic_sizes: PicSizes | None) -> None:
    size = pic_sizes(CROSSHAIR) if callable(pic_sizes) else (pic_sizes or {}).get(CROSSHAIR)
    color = health_color(int(state.stats.get("health", 0)), int(state.stats.get("armor", 0)))
    if size is not None:
        screen.pic(CROSSHAIR, 320 - 12, 240 - 12, 24, 24, color)
    else:
        screen.text("+", 316, 232, 8, 16, color)


def _crosshair_name(screen: VirtualScreen, state: SceneState, timeline: DemoTimeline,
                    map_: GameMap | None) -> None:
    """``CG_DrawCrosshairNames``: the name of the player last under the crosshair (:mod:`.crosshair_names`)."""
    sighted = crosshair_client(state, timeline, map_)
    if sighted is None:
        return
    client, age = sighted
    name = {p.slot: p.name for p in state.scoreboard}.get(client)
    if name:
        screen.text(name, 320 - visible_len(name) * 16 / 2, 170, 16, 16, alpha=0.5 * _fade(age, NAME_TIME),
                    shadow=True)


#: The last lagometer drawn (a weak reference to its timeline, the time, the screen size) and its bars: the panes
#: of a multiview show the recorder's same lagometer.
_last_lagometer: list = [None, ()]


def _lagometer(screen: VirtualScreen, state: SceneState, timeline: DemoTimeline) -> None:
    screen.pic(lagometer.LAGOMETER_PIC, 640 - 48, 480 - 48, 48, 48)
    asked, bars = _last_lagometer
    key = (state.time, screen.size)
    if asked is None or asked[0]() is not timeline or asked[1:] != key:
        bars = tuple(lagometer.lagometer_quads(lagometer.lagometer_at(timeline, state.time), screen.size))
        _last_lagometer[:] = (weakref.ref(timeline), *key), bars
    screen.quads.extend(bars)


def _upper_right(screen: VirtualScreen, state: SceneState, timeline: DemoTimeline, following: bool,
                 models: Quake3Models | None, draw_timer: bool) -> None:
    y = 0.0
    if following:
        screen.text(FOLLOW_NOTICE, 635 - len(FOLLOW_NOTICE) * 8, 2, 8, 12)
        y = 16.0
    if draw_timer:
        start = timeline.segments[max(state.segment, 0)].start_time if timeline.segments else timeline.start_time
        seconds = max(int(state.time - start), 0)
        timer = f"{seconds // 60}:{seconds % 60:02d}"
        screen.text(timer, 635 - len(timer) * 16, y + 2, 16, 16)
        y += 16 + 4
    y = _round_timer(screen, state, timeline, y)
    _attacker(screen, state, timeline, y, models)


def round_timer_text(state: SceneState, timeline: DemoTimeline) -> str | None:
    """``Round N m:ss``: how long the round under way has run (from its start, Quake Live's ``CS_ROUND_TIME``, as
    the timeline's round events have it); ``None`` between rounds and in games without rounds."""
    last = None
    for event in timeline.events_of_kind("round"):
        if event.time > state.time:
            break
        last = event
    if last is None or not getattr(last, "started", False):
        return None
    seconds = max(int(state.time - last.time), 0)
    number = int(getattr(last, "number", 0))
    return f"{f'Round {number} ' if number else 'Round '}{seconds // 60}:{seconds % 60:02d}"


def _round_timer(screen: VirtualScreen, state: SceneState, timeline: DemoTimeline, y: float) -> float:
    """The round timer (:func:`round_timer_text`) right-aligned under the level timer; the next free ``y``."""
    text = round_timer_text(state, timeline)
    if text is None:
        return y
    screen.text(text, 635 - len(text) * 16, y + 2, 16, 16)
    return y + 16 + 4


def _attacker(screen: VirtualScreen, state: SceneState, timeline: DemoTimeline, y: float,
              models: Quake3Models | None) -> None:
    stats = state.stats
    attacker = int(stats.get("attacker", -1))
    if int(stats.get("health", 0)) <= 0:
        return
    if not 0 <= attacker < len(state.scoreboard) or attacker == int(stats.get("clientNum", -1)):
        return
    if hud_icons.last_damage(timeline, state.time, within=ATTACKER_HEAD_TIME) is None:
        return
    size = 48 * 1.25
    model = hud_icons.attacker_head_icon(models, state, attacker, y) if models is not None else None
    head = _head_icon(state, attacker)
    if model is not None:
        screen.model(model)
    elif head:
        screen.pic(head, 640 - size, y, size, size)
    name = state.scoreboard[attacker].name
    screen.text(name, 640 - visible_len(name) * 16, y + size, 16, 16, alpha=0.5)


def _follow(screen: VirtualScreen, state: SceneState) -> None:
    client = int(state.stats.get("clientNum", -1))
    names = {p.slot: p.name for p in state.scoreboard}
    if client in names:
        _following(screen, names[client])


def _following(screen: VirtualScreen, name: str) -> None:
    """``CG_DrawFollow``: "following" and ``name`` in giant letters at the top."""
    screen.text("following", 320 - 9 * 8, 24, 16, 16, shadow=True)
    screen.text(name, 0.5 * (640 - 32 * visible_len(name)), 40, 32, 48, shadow=True, force=True)


def name_tag(name: str, x: float, y: float, screen_size: tuple[int, int], scale: int) -> HudLayout:
    """A player's ``name`` in its colour codes (``CG_DrawStringExt`` with a shadow, the small 8 × 16 characters of
    ``CG_DrawCrosshairNames``' names, the screen's 640 × 480 units) centred on pixel ``x``, its bottom at pixel
    ``y``."""
    screen = VirtualScreen(screen_size)
    w, h = 8.0, 16.0
    screen.text(name, x / screen.sx - visible_len(name) * w / 2, y / screen.sy - h, w, h, shadow=True)
    return HudLayout(screen_size, scale, tuple(screen.quads))


def watching_hud(name: str, screen_size: tuple[int, int], scale: int) -> HudLayout:
    """Only whose eyes the view is, as the cgame says whom it follows (``CG_DrawFollow``)."""
    screen = VirtualScreen(screen_size)
    _following(screen, name)
    return HudLayout(screen_size, scale, tuple(screen.quads))


def _center_print(screen: VirtualScreen, state: SceneState, timeline: DemoTimeline) -> None:
    prints = [e for e in timeline.events_of_kind("centerprint") if 0 <= state.time - e.time < CENTER_TIME]
    if not prints:
        return
    last = prints[-1]
    alpha = _fade(state.time - last.time, CENTER_TIME)
    lines = str(getattr(last, "text", "")).split("\n")
    y = 480 * 0.30 - len(lines) * 16 / 2
    for line in lines:
        screen.text(line, (640 - visible_len(line) * 16) / 2, y, 16, 24, alpha=alpha, shadow=True)
        y += 24


def _obituary_line(event: ObituaryEvent, state: SceneState, sexes: Mapping[str, str]) -> str:
    """The event's line, worded for the sex of the victim's model (``CG_Obituary``)."""
    victim = event.victim or ""
    if not event.suicide or not victim or not event.weapon:
        return event.text
    models = [dict(p.userinfo).get("model", "") for p in state.scoreboard if p.name == victim]
    sex = sexes.get(models[0].split("/")[0].lower(), "m") if models else "m"
    return gendered_obituary(event.text, victim, event.weapon, sex)


def _sexes(models: Quake3Models | None) -> dict[str, str]:
    """The ``animation.cfg`` sex of each loaded player model, by model name (lower case, without the skin)."""
    if models is None:
        return {}
    return {name.split("/")[0].lower(): player.animations.sex for name, player in models.players.items()}


def _since(events: Sequence[Event], t: float) -> Sequence[Event]:
    """The ``events`` (in time order) from a second before ``t`` on, found by bisection."""
    return events[bisect_right(events, t - 1.0, key=_event_time):]


def _recent_pickups(timeline: DemoTimeline, t: float, within: float) -> Sequence[Event]:
    """The pickups (in time order) up to ``t`` from ``within`` seconds before it, and a second more (the callers
    test the age themselves), found by bisection."""
    events = timeline.events_of_kind("pickup")
    return events[bisect_right(events, t - within - 1.0, key=_event_time):bisect_right(events, t, key=_event_time)]


def _event_time(e: Event) -> float:
    return e.time


def _notify(quads: list[HudQuad], state: SceneState, timeline: DemoTimeline, scale: int,
            sexes: Mapping[str, str]) -> None:
    since = state.time - NOTIFY_TIME
    recent = [e for kind in ("obituary", "chat") for e in _since(timeline.events_of_kind(kind), since)
              if 0 <= state.time - e.time < NOTIFY_TIME]
    recent.sort(key=lambda e: e.time)
    w, h = 8 * max(1, scale // 2), 16 * max(1, scale // 2)
    for row, event in enumerate(recent[-NOTIFY_LINES:]):
        sender = str(getattr(event, "sender", "") or "")
        text = _obituary_line(event, state, sexes) if isinstance(event, ObituaryEvent) else \
            str(getattr(event, "text", ""))
        head = f"{sender}{S_COLOR_WHITE}: " if sender else ""
        quads.extend(_notify_line(head + text, row, w, h))


@lru_cache(maxsize=64)
def _notify_line(line: str, row: int, w: int, h: int) -> tuple[HudQuad, ...]:
    """The quads of notify line ``line`` in row ``row`` of ``w`` × ``h`` pixel letters (kept: a line shows for
    three seconds, redrawn every frame)."""
    return tuple(HudQuad("pic", char_pic(ord(ch), 32), w + i * w, row * h, w, h, 1.0, color)
                 for i, (ch, color) in enumerate(colored_chars(line, WHITE)[:NOTIFY_CHARS]) if ch != " ")


def hud_layout(state: SceneState, timeline: DemoTimeline, screen_size: tuple[int, int], scale: int, *,
               show_scores: bool = False, pic_sizes: PicSizes | None = None,
               models: Quake3Models | None = None, draw_timer: bool = False,
               game_map: GameMap | None = None) -> HudLayout:
    """The HUD at ``state.time`` (rules: module docstring); ``models``: the segment's, for the 3D icons and the
    players' sexes (their ``animation.cfg``) in death messages; ``draw_timer``: ``cg_drawTimer``; ``game_map``:
    the segment's map, which stops the view's scan for a name under the crosshair."""
    screen = VirtualScreen(screen_size)
    stats = state.stats
    if not stats:
        return HudLayout(screen_size, scale, ())
    following = bool(int(stats.get("pm_flags", 0)) & PMF_FOLLOW)
    free = (int(stats.get("pm_type", 0)) == PM_SPECTATOR or int(stats.get("team", 0)) == TEAM_SPECTATOR) \
        and not following
    if int(stats.get("pm_type", 0)) == PM_INTERMISSION:   # CG_DrawIntermission: the scoreboard alone
        draw_respawn(screen, state, timeline)
        scoreboard.scoreboard(screen, state, timeline, models)
    else:
        if not free and int(stats.get("health", 0)) > 0 and not show_scores:
            _status_bar(screen, state, timeline, pic_sizes, models)
            _crosshair(screen, state, pic_sizes)
            _crosshair_name(screen, state, timeline, game_map)
            _weapon_select(screen, state, timeline)
        elif free:
            _crosshair(screen, state, pic_sizes)
            _crosshair_name(screen, state, timeline, game_map)
        _lagometer(screen, state, timeline)
        _upper_right(screen, state, timeline, following, models, draw_timer)
        if int(stats.get("health", 0)) > 0:                  # CG_DrawLowerLeft
            _pickup_item(screen, state, timeline)
        _scores(screen, state)
        if following:
            _follow(screen, state)
        else:
            draw_warmup(screen, state, timeline)
        draw_respawn(screen, state, timeline)
        if scoreboard.is_showing(state, show_scores):   # the centre print waits while the scoreboard is up
            scoreboard.scoreboard(screen, state, timeline, models)
        else:
            _center_print(screen, state, timeline)
    _notify(screen.quads, state, timeline, max(1, scale), _sexes(models))
    return HudLayout(screen_size, scale, tuple(screen.quads), models=tuple(screen.models))



