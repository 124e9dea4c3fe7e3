"""Quake III players posed for drawing: a :class:`~.q3refdef.PlayerDraw` (which model, where, which animations
since when) becomes the :class:`~.q3refdef.Md3Draw` of its legs, torso, head, weapon and muzzle flash; the
first-person :class:`~.q3refdef.WeaponDraw` becomes its hand, weapon and flash.

The legs stand at the origin turned by ``legs_angles``; the torso hangs on ``tag_torso`` and the head on
``tag_head``, each turned by its angles relative to its parent (``CG_Player``'s ``AnglesSubtract``); frames come
from ``animation.cfg`` timing (``CG_RunLerpFrame``); every part is lit at the legs' origin.  The flash hangs on the
weapon's ``tag_flash``.  The view weapon's hand shows the weapon frame of the torso frame
(``CG_MapTorsoToWeaponFrame``: the first 9 frames of ``TORSO_DROP`` as frames 6‥14, the first 6 of
``TORSO_ATTACK`` / ``TORSO_ATTACK2`` as 1‥6, else 0), the weapon on its ``tag_weapon``.

References: ioquake3 ``cgame/cg_players.c`` (``CG_Player``, ``CG_PlayerAngles``, ``CG_RunLerpFrame``),
``cgame/cg_weapons.c`` (``CG_AddPlayerWeapon``, ``CG_AddViewWeapon``, ``CG_MapTorsoToWeaponFrame``),
``qcommon/q_math.c`` (``AnglesToAxis``).
"""

from __future__ import annotations

import numpy as np

from assets_loader.errors import FormatError
from assets_loader.models.q3player import ANIM, PLAYER_PARTS, PlayerModel, animation_frame, attach, pose_player

from .placeholders import WEAPON_BOX
from .shaded.records import Md3Draw, PlayerDraw, Quake3Models, WeaponDraw
from .view_math import angle_vectors

__all__ = ["angles_axis", "player_md3_draws", "torso_weapon_frame", "weapon_md3_draws"]


def angles_axis(angles) -> np.ndarray:
    """``AnglesToAxis``: ``[3, 3]`` rows forward, left, up for (pitch, yaw, roll) degrees."""
    forward, right, up = angle_vectors(angles)
    return np.array([forward, -right, up], np.float32)


def _relative(child: tuple[float, float, float], parent: tuple[float, float, float]) -> tuple[float, ...]:
    return tuple(((c - p + 180.0) % 360.0) - 180.0 for c, p in zip(child, parent))


def player_md3_draws(models: Quake3Models, draw: PlayerDraw) -> tuple[Md3Draw, ...]:
    """The parts of ``draw`` (nothing when its model is not loaded or lacks its tags) and its weapon (with a
    placeholder box for when the weapon model is not loaded)."""
    player = models.players.get(draw.player)
    if player is None:
        return ()
    anims = player.animations.animations
    none = (0, 0, 0.0)
    legs = animation_frame(anims[draw.legs_anim], draw.legs_ms) if 0 <= draw.legs_anim < len(anims) else none
    torso = animation_frame(anims[draw.torso_anim], draw.torso_ms) if 0 <= draw.torso_anim < len(anims) else none
    try:
        pose = pose_player(player, draw.origin, angles_axis(draw.legs_angles), legs, torso,
                           angles_axis(_relative(draw.torso_angles, draw.legs_angles)),
                           angles_axis(_relative(draw.head_angles, draw.torso_angles)), with_weapon=bool(draw.weapon))
    except FormatError:
        return ()
    legs_origin = np.asarray(pose.transforms["lower"][0], np.float32)
    out = []
    for part in PLAYER_PARTS:
        origin, axis = pose.transforms[part]
        old, new, frac = pose.frames[part]
        out.append(Md3Draw(f"models/players/{player.model}/{part}.md3", origin, axis, new, old, frac,
                           player.skins.get(part, {}), legs_origin))
    if draw.weapon and pose.weapon is not None:
        out.append(Md3Draw(draw.weapon, pose.weapon[0], pose.weapon[1], light_origin=legs_origin,
                           placeholder=WEAPON_BOX))
        out.extend(_flash(models, draw.weapon, draw.flash, pose.weapon, legs_origin, False))
    return tuple(out)


def _flash(models: Quake3Models, weapon: str, flash: str, at: tuple[np.ndarray, np.ndarray], light_origin,
           view_model: bool) -> tuple[Md3Draw, ...]:
    """The flash model ``flash`` on the ``tag_flash`` of ``weapon`` placed at ``at`` (nothing without either)."""
    gun = models.md3.get(weapon)
    if not flash or flash not in models.md3 or gun is None:
        return ()
    tag = gun.lerp_tag("tag_flash", 0, 0, 0.0)
    if tag is None:
        return ()
    origin, axis = attach(at, tag)
    return (Md3Draw(flash, origin, axis, light_origin=light_origin, view_model=view_model),)


def torso_weapon_frame(player: PlayerModel | None, torso_frame: int) -> int:
    """``CG_MapTorsoToWeaponFrame``: the hand model's frame for a torso frame (0 without a player)."""
    if player is None:
        return 0
    anims = player.animations.animations
    for name, count, base in (("TORSO_DROP", 9, 6), ("TORSO_ATTACK", 6, 1), ("TORSO_ATTACK2", 6, 1)):
        index = ANIM[name]
        if index < len(anims):
            first = anims[index].first_frame
            if first <= torso_frame < first + count:
                return torso_frame - first + base
    return 0


def weapon_md3_draws(models: Quake3Models, draw: WeaponDraw) -> tuple[Md3Draw, ...]:
    """The hand, weapon and flash of the first-person ``draw`` (the weapon alone when the hand is missing)."""
    origin = np.asarray(draw.origin, np.float32)
    axis = np.asarray(draw.axis, np.float32)
    hand_name = draw.hand if draw.hand in models.md3 else draw.hand_fallback
    hand = models.md3.get(hand_name)
    if draw.weapon not in models.md3:
        return ()
    player = models.players.get(draw.player)
    old = new = 0
    frac = 0.0
    if player is not None and 0 <= draw.torso_anim < len(player.animations.animations):
        a, b, frac = animation_frame(player.animations.animations[draw.torso_anim], draw.torso_ms)
        old, new = torso_weapon_frame(player, a), torso_weapon_frame(player, b)
    out: list[Md3Draw] = []
    at: tuple[np.ndarray, np.ndarray] = (origin, axis)
    if hand is not None:
        out.append(Md3Draw(hand_name, origin, axis, new, old, frac, light_origin=origin, view_model=True))
        tag = hand.lerp_tag("tag_weapon", old, new, frac)
        if tag is not None:
            at = attach((origin, axis), tag)
    out.append(Md3Draw(draw.weapon, at[0], at[1], light_origin=origin, view_model=True))
    out.extend(_flash(models, draw.weapon, draw.flash, at, origin, True))
    return tuple(out)
