"""The Quake III first-person weapon (``CG_AddViewWeapon``): the held weapon's hand model at the eye, turned with
the view and swayed by the walk bob and the idle drift (``CG_CalculateWeaponPosition``), the weapon on the hand's
``tag_weapon``, the flash on the weapon's ``tag_flash`` while it fires.

Bob: ``xyspeed`` is the horizontal speed of the followed player; ``bobfracsin`` = |sin((bobCycle & 127) / 127 · π)|;
on odd steps (bit 7 of ``bobCycle``) roll and yaw swing the other way: roll += ±xyspeed · bobfracsin · 0.005,
yaw += ±xyspeed · bobfracsin · 0.01, pitch += xyspeed · bobfracsin · 0.005.  Drift: each angle += (xyspeed + 40) ·
sin(time) · 0.01.  ``cg_gun_x/y/z`` are 0 and ``cg_fov`` 90, so the hand sits at the eye.  No weapon for a free
spectator, in the intermission, or while dead (the engine then looks from behind the body).

References: ioquake3 ``code/cgame/cg_weapons.c`` (``CG_AddViewWeapon``, ``CG_CalculateWeaponPosition``,
``CG_RegisterWeapon``: ``<weapon>_hand.md3``, the shotgun's hand for weapons without one), ``cg_view.c``
(``cg.bobcycle``, ``cg.bobfracsin``, ``cg.xyspeed``).
"""

from __future__ import annotations

import math

import numpy as np

from assets_loader.demos import SceneState
from assets_loader.demos.quake3.game import PM_INTERMISSION, PM_SPECTATOR, PMF_FOLLOW, TEAM_SPECTATOR
from assets_loader.models.q3player import animation_number

from ...render.view_math import angles_axis
from .players import WeaponDraw
from .items import WEAPON_MODELS

__all__ = ["bob_angles", "hand_model", "view_weapon"]

SHOTGUN_HAND = "models/weapons2/shotgun/shotgun_hand.md3"


def hand_model(weapon_model: str) -> str:
    """``<weapon>_hand.md3`` beside a weapon model."""
    return weapon_model[:-4] + "_hand.md3" if weapon_model.endswith(".md3") else SHOTGUN_HAND


def bob_angles(view_angles, xyspeed: float, bob_cycle: int, time: float) -> tuple[float, float, float]:
    """The weapon's (pitch, yaw, roll) for a view at ``view_angles`` (rules: module docstring)."""
    pitch, yaw, roll = (float(a) for a in view_angles[:3])
    fracsin = abs(math.sin((bob_cycle & 127) / 127.0 * math.pi))
    scale = -xyspeed if (bob_cycle & 128) >> 7 & 1 else xyspeed
    roll += scale * fracsin * 0.005
    yaw += scale * fracsin * 0.01
    pitch += xyspeed * fracsin * 0.005
    drift = (xyspeed + 40.0) * math.sin(time) * 0.01
    return (pitch + drift, yaw + drift, roll + drift)


def view_weapon(state: SceneState, flashing: bool) -> WeaponDraw | None:
    """The first-person weapon of ``state``'s view, ``None`` when the view has none; ``flashing``: the player fired
    within the flash time."""
    stats = state.stats
    weapon = WEAPON_MODELS.get(int(stats.get("weapon", 0)))
    if weapon is None or stats.get("health", 0) <= 0 or stats.get("pm_type", 0) == PM_INTERMISSION:
        return None
    if stats.get("team", 0) == TEAM_SPECTATOR and not stats.get("pm_flags", 0) & PMF_FOLLOW:
        return None
    if stats.get("pm_type", 0) == PM_SPECTATOR and not stats.get("pm_flags", 0) & PMF_FOLLOW:
        return None
    row = state.entities.index_of(state.view_entity)
    fields = state.entity_fields
    xyspeed, player, torso_anim, torso_ms, firing = 0.0, "", -1, 0.0, False
    if row is not None and fields:
        velocity = np.asarray(fields["pos_trDelta"][row], np.float64)
        xyspeed = float(math.hypot(velocity[0], velocity[1]))
        client = int(fields["clientNum"][row])
        if 0 <= client < len(state.scoreboard):
            player = dict(state.scoreboard[client].userinfo).get("model", "").lower()
            if player and "/" not in player:
                player = f"{player}/default"
        torso_anim = animation_number(int(fields["torsoAnim"][row]))
        torso_ms = (state.time - float(fields["torsoAnimTime"][row])) * 1000.0
        firing = bool(fields["eFlags"][row] & 0x100) and int(stats.get("weapon", 0)) in (1, 6)
    angles = bob_angles(state.view_angles, xyspeed, int(stats.get("bob_cycle", 0)), state.time)
    flash = weapon[:-4] + "_flash.md3" if flashing or firing else ""
    return WeaponDraw(hand_model(weapon), np.asarray(state.view_origin, np.float32), angles_axis(angles), weapon,
                      flash, player, torso_anim, torso_ms, SHOTGUN_HAND)
