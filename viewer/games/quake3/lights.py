"""Quake III dynamic lights at a time, as cgame adds them to the scene (``trap_R_AddLightToScene``).

- Explosions (``CG_MissileHitWall`` → ``CG_MakeExplosion``): rockets light 300 units orange (1, 0.75, 0) for their
  1 s, grenades 300 units yellow (1, 1, 0) for their 0.6 s, at the sprite 16 units off the wall; the light keeps
  its full radius over the first half of the explosion's life and shrinks to nothing over the second
  (``CG_AddSpriteExplosion``).  Their start is skewed by the same 0‥63 ms as the sprite's.  Plasma, bullet and
  rail impacts make no light.
- Missiles in flight (``CG_Missile``, ``missileDlight``): rockets and the grappling hook, 200 units orange.
- Muzzle flashes (``CG_AddPlayerWeapon``): while a player's flash shows (``MUZZLE_FLASH_TIME`` after it fired; all
  the time the lightning gun, gauntlet or hook fires), 300 + 0‥31 units in its weapon's ``flashDlightColor``.
- Powerups (``CG_PlayerPowerups``): quad 200 + 0‥31 units blue (0.2, 0.2, 1); the red, blue and neutral flags the
  same in red, blue and white.
- ``constantLight`` of any entity (``CG_EntityEffects``): its low three bytes the colour, the high byte × 4 the
  radius.

Deviations: the engine's ``rand() & 31`` radius extras are fixed per entity (the same at every time); a muzzle
flash lights at the point the lightning beam starts from (26 units up, 14 forward of the player's origin), not at
the weapon model's ``tag_flash``, from the recorder's eyes too.

References: ioquake3 ``code/cgame/cg_weapons.c`` (``CG_RegisterWeapon``: ``missileDlight``, ``missileDlightColor``,
``flashDlightColor``; ``CG_AddPlayerWeapon``; ``CG_MissileHitWall``, ``CG_MissileHitPlayer``), ``cg_effects.c``
(``CG_MakeExplosion``), ``cg_localents.c`` (``CG_AddSpriteExplosion``, ``CG_AddExplosion``), ``cg_ents.c``
(``CG_Missile``, ``CG_EntityEffects``), ``cg_players.c`` (``CG_PlayerPowerups``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from assets_loader.demos import SceneState
from assets_loader.demos.quake3.game import (EF_FIRING, EF_NODRAW, ET_EVENTS, ET_MISSILE, ET_PLAYER, PW_BLUEFLAG,
                                             PW_NEUTRALFLAG, PW_QUAD, PW_REDFLAG, WP_BFG, WP_GAUNTLET,
                                             WP_GRAPPLING_HOOK, WP_GRENADE_LAUNCHER, WP_LIGHTNING, WP_MACHINEGUN,
                                             WP_PLASMAGUN, WP_RAILGUN, WP_ROCKET_LAUNCHER, WP_SHOTGUN)

from ...render.refdef import Lights
from ...render.view_math import angle_vectors

__all__ = ["EXPLOSION_LIGHTS", "FLASH_COLORS", "ExplosionLight", "LightSource", "explosion_light", "muzzle_point",
           "scene_lights"]

#: Where a player's weapon fires from, from its origin: up, forward.
MUZZLE_UP, MUZZLE_FORWARD = 26.0, 14.0
ORANGE = (1.0, 0.75, 0.0)
#: ``missileDlight`` and ``missileDlightColor`` by weapon.
MISSILE_LIGHTS: Mapping[int, tuple[float, tuple[float, float, float]]] = {
    WP_ROCKET_LAUNCHER: (200.0, ORANGE), WP_GRAPPLING_HOOK: (200.0, ORANGE)}
#: ``flashDlightColor`` by weapon; any other weapon white.
FLASH_COLORS: Mapping[int, tuple[float, float, float]] = {
    WP_GAUNTLET: (0.6, 0.6, 1.0), WP_MACHINEGUN: (1.0, 1.0, 0.0), WP_SHOTGUN: (1.0, 1.0, 0.0),
    WP_GRENADE_LAUNCHER: (1.0, 0.7, 0.0), WP_ROCKET_LAUNCHER: ORANGE, WP_LIGHTNING: (0.6, 0.6, 1.0),
    WP_RAILGUN: (1.0, 0.5, 0.0),
    WP_PLASMAGUN: (0.6, 0.6, 1.0), WP_BFG: (1.0, 0.7, 1.0), WP_GRAPPLING_HOOK: (0.6, 0.6, 1.0)}
#: Weapons whose flash (and its light) stays on while ``EF_FIRING``.
CONTINUOUS_FLASH = frozenset({WP_LIGHTNING, WP_GAUNTLET, WP_GRAPPLING_HOOK})
FLASH_RADIUS, POWERUP_RADIUS = 300.0, 200.0
#: powerup bit → light colour (``CG_PlayerPowerups``).
POWERUP_COLORS: Mapping[int, tuple[float, float, float]] = {
    PW_QUAD: (0.2, 0.2, 1.0), PW_REDFLAG: (1.0, 0.2, 0.2), PW_BLUEFLAG: (0.2, 0.2, 1.0),
    PW_NEUTRALFLAG: (1.0, 1.0, 1.0)}


@dataclass(frozen=True, slots=True)
class ExplosionLight:
    """An explosion's light: ``radius`` at full strength and ``color``."""

    radius: float
    color: tuple[float, float, float]


#: ``CG_MissileHitWall``'s ``light`` and ``lightColor`` by weapon (the others make none).
EXPLOSION_LIGHTS: Mapping[int, ExplosionLight] = {
    WP_ROCKET_LAUNCHER: ExplosionLight(300.0, ORANGE), WP_GRENADE_LAUNCHER: ExplosionLight(300.0, (1.0, 1.0, 0.0))}


@dataclass(frozen=True, slots=True)
class LightSource:
    """One light: ``origin``, ``radius`` and ``color`` (0‥1)."""

    origin: tuple[float, float, float]
    radius: float
    color: tuple[float, float, float]


def explosion_light(light: ExplosionLight, age: float, duration: float) -> float:
    """The radius of an explosion's light ``age`` s after its (skewed) start: full over the first half of
    ``duration``, then shrinking linearly to 0 at its end; 0 outside its life."""
    if not 0.0 <= age < duration:
        return 0.0
    frac = age / duration
    return light.radius * (1.0 if frac < 0.5 else 1.0 - (frac - 0.5) * 2.0)


def muzzle_point(origin, angles) -> np.ndarray:
    """Where a player at ``origin`` looking along ``angles`` fires from (the lightning beam's start)."""
    forward = np.asarray(angle_vectors(angles)[0], np.float64)
    return np.asarray(origin, np.float64) + np.array([0.0, 0.0, MUZZLE_UP]) + forward * MUZZLE_FORWARD


def scene_lights(state: SceneState, explosions: Sequence[LightSource], flashing: Callable[[int], bool],
                 extra: Callable[[int, int], float]) -> Lights:
    """Every light at ``state``'s time: ``explosions`` (already faded), then each drawn entity's missile, muzzle
    flash, powerup and constant lights; ``flashing(entity)``: whether its impulse flash shows; ``extra(entity,
    salt)``: the fixed 0‥31 radius extra."""
    sources = list(explosions)
    fields = state.entity_fields
    if fields and len(state.entities):
        sources.extend(_entity_lights(state, flashing, extra))
    if not sources:
        return Lights.empty()
    return Lights(np.array([s.origin for s in sources], np.float32), np.array([s.radius for s in sources], np.float32),
                  np.array([s.color for s in sources], np.float32))


def _entity_lights(state: SceneState, flashing: Callable[[int], bool],
                   extra: Callable[[int, int], float]) -> list[LightSource]:
    ents, fields = state.entities, state.entity_fields
    out: list[LightSource] = []
    kinds, all_flags, weapons = fields["eType"].tolist(), fields["eFlags"].tolist(), fields["weapon"].tolist()
    for row, number in enumerate(ents.number.tolist()):
        kind, flags = kinds[row], all_flags[row]
        if kind >= ET_EVENTS or flags & EF_NODRAW:
            continue
        x, y, z = ents.origin[row].tolist()
        origin = (x, y, z)
        weapon = weapons[row]
        constant = int(fields["constantLight"][row]) & 0xFFFFFFFF
        if constant:
            rgb = (float(constant & 0xFF) / 255.0, float((constant >> 8) & 0xFF) / 255.0,
                   float((constant >> 16) & 0xFF) / 255.0)
            if constant >> 24:
                out.append(LightSource(origin, float(constant >> 24) * 4.0, rgb))
        if kind == ET_MISSILE and weapon in MISSILE_LIGHTS:
            radius, color = MISSILE_LIGHTS[weapon]
            out.append(LightSource(origin, radius, color))
        elif kind == ET_PLAYER:
            powerups = int(fields["powerups"][row])
            for bit, color in POWERUP_COLORS.items():
                if powerups & (1 << bit):
                    out.append(LightSource(origin, POWERUP_RADIUS + extra(number, bit), color))
            firing = weapon in CONTINUOUS_FLASH and bool(flags & EF_FIRING)
            if weapon and (firing or flashing(number)):
                muzzle = muzzle_point(origin, ents.angles[row])
                out.append(LightSource((float(muzzle[0]), float(muzzle[1]), float(muzzle[2])),
                                       FLASH_RADIUS + extra(number, 0), FLASH_COLORS.get(weapon, (1.0, 1.0, 1.0))))
    return out
