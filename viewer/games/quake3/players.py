"""A posed Quake III player as model draws: legs, torso, head and the weapon, each with its skin's shaders and
all lit at the legs' origin, ready for the entity drawing the demo decoder will bring.

References: ioquake3 ``cgame/cg_players.c`` (``CG_Player``: ``lightingOrigin`` of every part is the legs'
origin; ``renderfx`` of the parts), ``cgame/cg_weapons.c`` (``CG_AddPlayerWeapon``).
"""

from __future__ import annotations

import numpy as np

from assets_loader.models.q3player import PLAYER_PARTS, PlayerModel, PlayerPose

from ...render.shaded.records import Md3Draw


def part_path(player: PlayerModel, part: str) -> str:
    """Where ``part`` (lower, upper, head) of ``player`` comes from: the name its MD3 is registered under."""
    return f"models/players/{player.model}/{part}.md3"


def player_draws(player: PlayerModel, pose: PlayerPose, weapon_model: str | None = None) -> tuple[Md3Draw, ...]:
    """The three parts of ``player`` at ``pose`` (from :func:`~assets_loader.models.q3player.pose_player`), plus
    ``weapon_model`` on ``tag_weapon`` when the pose has one."""
    legs_origin = np.asarray(pose.transforms["lower"][0], np.float32)
    draws = []
    for part in PLAYER_PARTS:
        origin, axis = pose.transforms[part]
        old, new, frac = pose.frames[part]
        draws.append(Md3Draw(part_path(player, part), origin, axis, new, old, frac, player.skins.get(part, {}),
                             legs_origin))
    if weapon_model is not None and pose.weapon is not None:
        draws.append(Md3Draw(weapon_model, pose.weapon[0], pose.weapon[1], light_origin=legs_origin))
    return tuple(draws)
