"""The screen blend of Quake and QuakeWorld (``V_CalcBlend``): colour shifts for the camera's contents, damage,
the item-pickup flash and powerups, mixed into one ``(r, g, b, a)`` drawn over the 3D view.

Each shift is a colour and a percent (0..255 = share of the screen). Damage adds ``3 × max(10, (armor + blood) / 2)``
percent per ``svc_damage`` (at most 150) and fades 150 percent a second; the bonus flash (``bf``) sets 50 percent
and fades 100 a second; contents and powerups hold while they last. The mixing goes in the engine's order
(contents, damage, bonus, powerup), each over the ones before.

A pure function of the demo time, so seeking shows the same blend as playing through.

References: QuakeSpasm ``view.c`` (``V_ParseDamage``, ``V_BonusFlash_f``, ``V_SetContentsColor``,
``V_CalcPowerupCshift``, ``V_CalcBlend``, ``V_UpdateBlend``: the fade rates); QuakeWorld ``view.c`` (``V_cshift_f``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from assets_loader.demos import DemoTimeline, SceneState
from assets_loader.demos.events import BonusFlashEvent, ColorShiftEvent, DamageEvent
from assets_loader.game_map import Contents, GameMap

from .hud import IT_INVISIBILITY, IT_INVULNERABILITY, IT_QUAD, IT_SUIT

#: Damage: percent fade per second, most percent (``V_UpdateBlend``, ``V_ParseDamage``).
DAMAGE_FADE, DAMAGE_MAX = 150.0, 150.0
#: The bonus flash: its colour, starting percent and fade per second (``V_BonusFlash_f``).
BONUS_COLOR, BONUS_PERCENT, BONUS_FADE = (215, 186, 69), 50.0, 100.0


@dataclass(frozen=True, slots=True)
class ColorShift:
    """One ``cshift_t``: ``color`` 0..255 RGB, ``percent`` 0..255 (share of the screen × 255)."""

    color: tuple[int, int, int]
    percent: float


#: ``cshift_water``, ``cshift_slime``, ``cshift_lava`` by leaf contents.
CONTENTS_SHIFTS = {
    Contents.WATER: ColorShift((130, 80, 50), 128.0),
    Contents.SLIME: ColorShift((0, 25, 5), 150.0),
    Contents.LAVA: ColorShift((255, 80, 0), 150.0),
}
#: Powerup shifts in the engine's order of precedence (``V_CalcPowerupCshift``).
POWERUP_SHIFTS = (
    (IT_QUAD, ColorShift((0, 0, 255), 30.0)),
    (IT_SUIT, ColorShift((0, 255, 0), 20.0)),
    (IT_INVISIBILITY, ColorShift((100, 100, 100), 100.0)),
    (IT_INVULNERABILITY, ColorShift((255, 255, 0), 30.0)),
)


def damage_color(armor: int, blood: int) -> tuple[int, int, int]:
    """The damage flash colour: pinkish when armour took most, red-orange when some, pure red when none."""
    if armor > blood:
        return (200, 100, 100)
    if armor:
        return (220, 50, 50)
    return (255, 0, 0)


def damage_shift(events: Sequence[DamageEvent], t: float) -> ColorShift | None:
    """The damage shift at ``t`` from the ``svc_damage`` events so far (each adds, all fade together)."""
    percent, last, color = 0.0, None, (255, 0, 0)
    for e in events:
        if e.time > t:
            break
        if last is not None:
            percent = max(0.0, percent - DAMAGE_FADE * (e.time - last))
        count = max(10.0, e.blood * 0.5 + e.armor * 0.5)
        percent = min(max(percent + 3.0 * count, 0.0), DAMAGE_MAX)
        last, color = e.time, damage_color(e.armor, e.blood)
    if last is None:
        return None
    percent = max(0.0, percent - DAMAGE_FADE * (t - last))
    return ColorShift(color, percent) if percent > 0 else None


def bonus_shift(events: Sequence[BonusFlashEvent], t: float) -> ColorShift | None:
    """The item-pickup flash at ``t``: the last ``bf`` at or before ``t``, faded since."""
    last = None
    for e in events:
        if e.time > t:
            break
        last = e.time
    if last is None:
        return None
    percent = BONUS_PERCENT - BONUS_FADE * (t - last)
    return ColorShift(BONUS_COLOR, percent) if percent > 0 else None


def contents_shift(map_: GameMap | None, origin, events: Sequence[ColorShiftEvent], t: float) -> ColorShift | None:
    """The shift of the liquid the camera is in; in the open, the last ``v_cshift`` the server sent (QuakeWorld's
    ``cshift_empty``), if any."""
    if map_ is not None:
        shift = CONTENTS_SHIFTS.get(map_.contents(origin))
        if shift is not None:
            return shift
    last = None
    for e in events:
        if e.time > t:
            break
        last = e
    if last is None or last.percent <= 0:
        return None
    return ColorShift(last.color, float(last.percent))


def powerup_shift(items: int) -> ColorShift | None:
    """The shift of the first powerup held, in the engine's order."""
    for bit, shift in POWERUP_SHIFTS:
        if items & bit:
            return shift
    return None


def mix_shifts(shifts: Sequence[ColorShift | None]) -> tuple[float, float, float, float] | None:
    """``V_CalcBlend``: each shift blended over the ones before; ``None`` when nothing shows."""
    r = g = b = a = 0.0
    for shift in shifts:
        if shift is None:
            continue
        a2 = min(shift.percent, 255.0) / 255.0
        if a2 <= 0:
            continue
        a = a + a2 * (1 - a)
        w = a2 / a
        r = r * (1 - w) + shift.color[0] * w
        g = g * (1 - w) + shift.color[1] * w
        b = b * (1 - w) + shift.color[2] * w
    if a <= 0:
        return None
    return (r / 255.0, g / 255.0, b / 255.0, min(a, 1.0))


def screen_blend(state: SceneState, timeline: DemoTimeline, t: float,
                 map_: GameMap | None) -> tuple[float, float, float, float] | None:
    """The recorder's screen blend at ``t`` (contents at the eye, damage, bonus flash, powerups).

    A multi-view demo (MVD) records every player's damage and flashes without saying whose they were, so there only
    the contents and the viewed player's powerups tint the view."""
    single_view = timeline.players is None or timeline.players.recorder >= 0
    shifts = (
        contents_shift(map_, state.view_origin, _of(timeline, ColorShiftEvent, single_view), t),
        damage_shift(_of(timeline, DamageEvent, single_view), t),
        bonus_shift(_of(timeline, BonusFlashEvent, single_view), t),
        powerup_shift(int(state.stats.get("items", 0))),
    )
    return mix_shifts(shifts)


def _of(timeline: DemoTimeline, cls, single_view: bool) -> tuple:
    return timeline.events_of_kind(cls.kind) if single_view else ()
