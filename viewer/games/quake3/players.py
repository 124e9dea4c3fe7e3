"""Quake III players posed for drawing, as the cgame does before it hands ``refEntity_t`` s to the renderer: a
:class:`PlayerDraw` (which model, where, which animations since when) becomes the
:class:`~viewer.render.shaded.records.Md3Draw` of its legs, torso, head, weapon and muzzle flash; the first-person
:class:`WeaponDraw` becomes its hand, weapon and flash; a player whose model the data lacks becomes its box.

The legs stand at the origin turned by ``legs_angles``; the torso hangs on ``tag_torso`` and the head on
``tag_head``, each turned by its angles relative to its parent (``CG_Player``'s ``AnglesSubtract``); frames come
from ``animation.cfg`` timing (``CG_RunLerpFrame``), an animation's first frame reached ``initialLerp`` (one frame,
``1000 / fps``) after the cgame sees it change (``CG_SetLerpFrameAnimation``; the engine blends from the old
animation's pose meanwhile, here the first frame holds); every part is lit at the legs' origin.  The flash hangs on the
weapon's ``tag_flash`` and the weapon's barrel (``<weapon>_barrel.md3``: the machine gun's and the gauntlet's), when
the data has one, on its ``tag_barrel`` (not spun: the cgame turns it by a firing history kept frame to frame,
``CG_MachinegunSpinAngle``, which a picture of any moment cannot replay; its roll stays 0).  The view weapon's
hand shows the weapon frame of the torso frame (``CG_MapTorsoToWeaponFrame``: the first 9 frames of ``TORSO_DROP``
as frames 6‥14, the first 6 of ``TORSO_ATTACK`` / ``TORSO_ATTACK2`` as 1‥6, else 0), the weapon on its
``tag_weapon``.

References: ioquake3 ``cgame/cg_players.c`` (``CG_Player``, ``CG_PlayerAngles``, ``CG_RunLerpFrame``),
``cgame/cg_weapons.c`` (``CG_AddPlayerWeapon``, ``CG_AddViewWeapon``, ``CG_MapTorsoToWeaponFrame``),
``game/g_client.c`` (``playerMins``, ``playerMaxs``), ``game/bg_pmove.c`` (``PM_CheckDuck``: ``CROUCH_MAXS_2``),
``game/bg_public.h`` (``animNumber_t``: the ``BOTH_DEATH*``/``BOTH_DEAD*`` animations come first).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from assets_loader.demos.quake3.game import DEFAULT_MODEL
from assets_loader.errors import FormatError
from assets_loader.models.q3player import ANIM, PLAYER_PARTS, PlayerModel, animation_frame, attach, pose_player

from ...render.placeholders import WEAPON_BOX, Box, lying_down
from ...render.shaded.md3 import model_matrix
from ...render.shaded.records import Md3Draw, Quake3Models
from ...render.view_math import angles_axis

#: Quake III's standing player, and its crouched height.
QUAKE3_PLAYER_BOX: Box = ((-15.0, -15.0, -24.0), (15.0, 15.0, 32.0))
QUAKE3_CROUCH_MAXS_Z = 16.0
#: ``animNumber_t``: ``BOTH_DEATH1`` … ``BOTH_DEAD3`` (0‥5) are the dying and dead poses; the crouched legs.
_DEATH_ANIMS = range(6)
_CROUCH_ANIMS = (13, 23, 31)   # LEGS_WALKCR, LEGS_IDLECR, LEGS_BACKCR


@dataclass(frozen=True, slots=True, eq=False)
class PlayerDraw:
    """A Quake III player to pose and draw (``CG_Player``): ``player`` names an entry of
    :attr:`~viewer.render.shaded.records.Quake3Models.players` (``model/skin``); ``origin`` ``[3]``;
    ``legs_angles`` / ``torso_angles`` / ``head_angles`` (pitch, yaw, roll degrees, in the world); ``legs_anim`` /
    ``torso_anim`` are animation numbers (toggle bit cleared) that started ``legs_ms`` / ``torso_ms`` ago;
    ``weapon`` the weapon model on ``tag_weapon`` (``""`` for none), ``flash`` the muzzle flash model on the
    weapon's ``tag_flash`` (``""``: none this frame); ``entity``: the entity number it was made from (-1: none)."""

    player: str
    origin: np.ndarray
    legs_angles: tuple[float, float, float]
    torso_angles: tuple[float, float, float]
    head_angles: tuple[float, float, float]
    legs_anim: int
    legs_ms: float
    torso_anim: int
    torso_ms: float
    weapon: str = ""
    flash: str = ""
    entity: int = -1


@dataclass(frozen=True, slots=True, eq=False)
class WeaponDraw:
    """The first-person weapon (``CG_AddViewWeapon``): the ``hand`` model at ``origin`` ``[3]`` with ``axis``
    ``[3, 3]``, posed like the torso of ``player`` playing ``torso_anim`` since ``torso_ms``
    (``CG_MapTorsoToWeaponFrame``); ``weapon`` hangs on the hand's ``tag_weapon`` and ``flash`` (``""``: none) on
    the weapon's ``tag_flash``; all drawn in front of the world (``RF_DEPTHHACK``) and lit at ``origin``;
    ``hand_fallback`` is the hand used when ``hand`` is not loaded."""

    hand: str
    origin: np.ndarray
    axis: np.ndarray
    weapon: str
    flash: str = ""
    player: str = ""
    torso_anim: int = -1
    torso_ms: float = 0.0
    hand_fallback: str = ""


def posed_md3(models: Quake3Models | None, players: tuple[PlayerDraw, ...],
               weapons: tuple[WeaponDraw, ...]) -> tuple[Md3Draw, ...]:
    """Every model ``players`` and the first-person ``weapons`` are drawn as: each player's parts, weapon and flash
    (its box when the data has no model for it), then the view weapon's hand, weapon and flash."""
    out: list[Md3Draw] = []
    for player in players:
        if models is not None and player.player in models.players:
            out.extend(player_md3_draws(models, player))
        else:
            out.append(player_box(player))
    if models is not None:
        for weapon in weapons:
            out.extend(weapon_md3_draws(models, weapon))
    return tuple(out)


def player_box(player: PlayerDraw) -> Md3Draw:
    """A player without any model as its box turned to its legs' yaw, crouched or lying dead as its legs animation
    says (a draw of a model that is not loaded, so only the box shows)."""
    box, dead = quake3_player_box(player.legs_anim)
    matrix = model_matrix(player.origin, angles_axis((0.0, player.legs_angles[1], 0.0)))
    if dead:
        matrix = lying_down(matrix, box)
    return Md3Draw(f"models/players/{player.player}", matrix[:3, 3].copy(), matrix[:3, :3].T.copy(),
                   placeholder=box)


def ghost_box(origin, yaw: float, color: tuple[float, float, float], alpha: float) -> Md3Draw:
    """Another demo's player as the standing player box turned to ``yaw``, drawn flat in ``color`` at ``alpha``
    (a box whose ``shader_rgba`` is not white is tinted: :mod:`viewer.render.boxes`)."""
    r, g, b = (int(c * 255) for c in color)
    return Md3Draw("models/players/ghost", np.asarray(origin, np.float32), angles_axis((0.0, yaw, 0.0)),
                   shader_rgba=(r, g, b, int(alpha * 255)), placeholder=QUAKE3_PLAYER_BOX)


#: The shader ghosts are drawn with (registered by every segment, as the cgame registers its own media): flat in
#: the entity colour at its alpha, blended over the world.
GHOST_SHADER = "qdv/ghost"
GHOST_SHADER_TEXT = """qdv/ghost
{
    {
        map $whiteimage
        blendFunc GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA
        rgbGen entity
        alphaGen entity
    }
}
"""


def ghost_player(models: Quake3Models | None, draw: PlayerDraw | None, origin, yaw: float,
                 color: tuple[float, float, float], alpha: float) -> tuple[Md3Draw, ...]:
    """Another demo's player posed as its own demo shows it (``draw``: its model, angles and animations) at
    ``origin``, every part drawn with :data:`GHOST_SHADER` in ``color`` at ``alpha``; its model is the cgame's
    ``DEFAULT_MODEL`` (or the segment's first loaded player model) when the segment did not load its own, and
    without ``draw`` or any player model loaded it is :func:`ghost_box`. No weapon: the run is what it races."""
    if draw is None or models is None or not models.players or models.library is None \
            or models.library.get(GHOST_SHADER) is None:
        return (ghost_box(origin, yaw, color, alpha),)
    fallback = f"{DEFAULT_MODEL}/default"
    player = next(n for n in (draw.player, fallback, *sorted(models.players)) if n in models.players)
    posed = replace(draw, player=player, origin=np.asarray(origin, np.float32), weapon="", flash="")
    r, g, b = (int(c * 255) for c in color)
    rgba = (r, g, b, int(alpha * 255))
    parts = tuple(replace(part, custom_shader=GHOST_SHADER, shader_rgba=rgba)
                  for part in player_md3_draws(models, posed))
    return parts or (ghost_box(origin, yaw, color, alpha),)


def part_path(player: PlayerModel, part: str) -> str:
    """Where ``part`` (lower, upper, head) of ``player`` comes from: the name its MD3 is registered under."""
    return f"models/players/{player.model}/{part}.md3"


def quake3_player_box(legs_anim: int) -> tuple[Box, bool]:
    """The box of a Quake III player playing legs animation ``legs_anim`` and whether it lies flat (dying or
    dead): crouching lowers its top to ``CROUCH_MAXS_2``."""
    mins, maxs = QUAKE3_PLAYER_BOX
    if legs_anim in _CROUCH_ANIMS:
        maxs = (maxs[0], maxs[1], QUAKE3_CROUCH_MAXS_Z)
    return (mins, maxs), legs_anim in _DEATH_ANIMS


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
    legs = _lerp_frame(anims, draw.legs_anim, draw.legs_ms) if 0 <= draw.legs_anim < len(anims) else none
    torso = _lerp_frame(anims, draw.torso_anim, draw.torso_ms) if 0 <= draw.torso_anim < len(anims) else none
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
        out.append(Md3Draw(part_path(player, part), origin, axis, new, old, frac,
                           player.skins.get(part, {}), legs_origin))
    if draw.weapon and pose.weapon is not None:
        out.append(Md3Draw(draw.weapon, pose.weapon[0], pose.weapon[1], light_origin=legs_origin,
                           placeholder=WEAPON_BOX))
        out.extend(_barrel(models, draw.weapon, pose.weapon, legs_origin, False))
        out.extend(_flash(models, draw.weapon, draw.flash, pose.weapon, legs_origin, False))
    return tuple(out)


#: ``AnglesToAxis`` of no turn: the barrel's axis on its tag (not spun, see the module docstring).
_UNTURNED = angles_axis((0.0, 0.0, 0.0))
_UNTURNED.flags.writeable = False


def barrel_model(weapon: str) -> str:
    """``CG_RegisterWeapon``'s ``<weapon>_barrel.md3`` beside a weapon model."""
    return weapon[:-4] + "_barrel.md3" if weapon.endswith(".md3") else weapon + "_barrel.md3"


def _barrel(models: Quake3Models, weapon: str, at: tuple[np.ndarray, np.ndarray], light_origin,
            view_model: bool) -> tuple[Md3Draw, ...]:
    """``CG_AddPlayerWeapon``'s barrel on the ``tag_barrel`` of ``weapon`` placed at ``at`` (nothing when the data
    has no barrel for it)."""
    name = barrel_model(weapon)
    gun = models.md3.get(weapon)
    if name not in models.md3 or gun is None:
        return ()
    tag = gun.lerp_tag("tag_barrel", 0, 0, 0.0)
    if tag is None:
        return ()
    origin, axis = attach(at, tag, _UNTURNED)
    return (Md3Draw(name, origin, axis, light_origin=light_origin, view_model=view_model),)


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


def _lerp_frame(anims, number: int, ms: float) -> tuple[int, int, float]:
    """``CG_RunLerpFrame``'s frames of animation ``number`` ``ms`` after its value changed: its frames start
    ``initialLerp`` later, which ``CG_ParseAnimationFile`` makes one frame (``1000 / fps``, the ``frame_lerp``)."""
    anim = anims[number]
    return animation_frame(anim, ms - anim.frame_lerp)


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
        a, b, frac = _lerp_frame(player.animations.animations, draw.torso_anim, draw.torso_ms)
        old, new = torso_weapon_frame(player, a), torso_weapon_frame(player, b)
    out: list[Md3Draw] = []
    at: tuple[np.ndarray, np.ndarray] = (origin, axis)
    if hand is not None:
        out.append(Md3Draw(hand_name, origin, axis, new, old, frac, light_origin=origin, view_model=True))
        tag = hand.lerp_tag("tag_weapon", old, new, frac)
        if tag is not None:
            at = attach((origin, axis), tag)
    out.append(Md3Draw(draw.weapon, at[0], at[1], light_origin=origin, view_model=True))
    out.extend(_barrel(models, draw.weapon, at, origin, True))
    out.extend(_flash(models, draw.weapon, draw.flash, at, origin, True))
    return tuple(out)
