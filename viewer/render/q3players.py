"""Quake III players posed for drawing: a :class:`~.q3refdef.PlayerDraw` (which model, where, which animations
since when) becomes the :class:`~.q3refdef.Md3Draw` of its legs, torso, head and weapon.

The legs stand at the origin turned by ``legs_angles``; the torso hangs on ``tag_torso`` and the head on
``tag_head``, each turned by its angles relative to its parent (``CG_Player``'s ``AnglesSubtract``); frames come
from ``animation.cfg`` timing (``CG_RunLerpFrame``); every part is lit at the legs' origin.

References: ioquake3 ``cgame/cg_players.c`` (``CG_Player``, ``CG_PlayerAngles``, ``CG_RunLerpFrame``),
``qcommon/q_math.c`` (``AnglesToAxis``).
"""

from __future__ import annotations

import numpy as np

from assets_loader.errors import FormatError
from assets_loader.models.q3player import PLAYER_PARTS, animation_frame, pose_player

from .q3refdef import Md3Draw, PlayerDraw, Quake3Models
from .view_math import angle_vectors

__all__ = ["angles_axis", "player_md3_draws"]


def angles_axis(angles) -> np.ndarray:
    """``AnglesToAxis``: ``[3, 3]`` rows forward, left, up for (pitch, yaw, roll) degrees."""
    forward, right, up = angle_vectors(angles)
    return np.array([forward, -right, up], np.float32)


def _relative(child: tuple[float, float, float], parent: tuple[float, float, float]) -> tuple[float, ...]:
    return tuple(((c - p + 180.0) % 360.0) - 180.0 for c, p in zip(child, parent))


def player_md3_draws(models: Quake3Models, draw: PlayerDraw) -> tuple[Md3Draw, ...]:
    """The parts of ``draw`` (nothing when its model is not loaded or lacks its tags)."""
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
    if draw.weapon and pose.weapon is not None and draw.weapon in models.md3:
        out.append(Md3Draw(draw.weapon, pose.weapon[0], pose.weapon[1], light_origin=legs_origin))
    return tuple(out)
