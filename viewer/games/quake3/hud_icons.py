"""Quake III's 3D HUD icons (``cg_draw3dIcons 1``, the default): which model each icon shows, where it stands in
front of the icon's camera and how it turns, as ``CG_DrawStatusBar`` and ``CG_DrawAttacker`` set them up.  Boxes are
in the cgame's virtual 640 × 480 units; :mod:`.hud` places them on the screen and
:mod:`viewer.render.hud_models` draws them (camera at the origin looking down +X, 30° × 30° over the box).

- Ammo: the held weapon's ammo item model (``CG_RegisterWeapon``'s ``ammoModel``: the ``IT_AMMO`` item tagged with
  the weapon; the gauntlet and the grappling hook have none) 70 units ahead in the 48 × 48 box at (100, 432),
  turning ``90 + 20 sin(t)`` degrees of yaw (``t`` in seconds).
- Head (``CG_DrawStatusBarHead`` → ``CG_DrawHead``): the followed player's head model (``hmodel``, else
  ``model``) with its skin, centred on its frame-0 bounds and set back so 0.7 of its height fills the half-fov
  (``len / tan 15°``), moved by the model's ``headoffset``, in the 60 × 60 box at (285, 420).  It looks about on
  its own: from one pose to the next (yaw ``180 + 20 cos(πr)``, pitch ``5 cos(πr)``, ``r`` in −1..1) eased by a
  smoothstep, a new pose every 0.1–2.1 s.  For 0.5 s after the view is hurt (``CG_DamageFeedback``: the
  playerState's ``damageEvent`` changed with a ``damageCount``) the box swells to 1.5 × and shrinks back, kicked
  sideways towards the hit by ``damageX`` (the hit's direction across the view, −1..1), the face turned
  ``45 damageX`` degrees towards it; then it eases back to its wandering.
- Flag (``CG_DrawStatusBarFlag`` → ``CG_DrawFlagModel``): while a flag powerup is held, its model 48 × 48 right of
  the head box, placed by the red flag's bounds (half its height over tan 15°), swinging ``60 sin(t / 2)``.
- Armor: ``models/powerups/armor/armor_yel.md3`` (``cgs.media.armorModel``) 90 ahead and 10 down in the box at
  (470, 432), one turn every 2.048 s, while the armor stat is not 0.
- Attacker (``CG_DrawAttacker``): that player's head facing the view (yaw 180), 60 × 60 in the upper right.

The engine draws the head's poses with ``random()`` from frame to frame; here pose ``k`` starts at
``1.1 k + u_k`` seconds (``u_k`` uniform in 0..1) and its angles come from a hash of ``k`` too, so the look is a
function of the time (the same at every replay and seek) with the engine's spacing of 0.1–2.1 s.

References: ioquake3 ``code/cgame/cg_draw.c`` (``CG_DrawStatusBar``, ``CG_DrawStatusBarHead``, ``CG_DrawHead``,
``CG_DrawFlagModel``, ``CG_DrawAttacker``, ``CG_Draw3DModel``), ``cg_playerstate.c`` (``CG_DamageFeedback``,
``CG_TransitionPlayerState``), ``cg_weapons.c`` (``CG_RegisterWeapon``: ``ammoModel``), ``cg_main.c``
(``CG_RegisterGraphics``: armor and flag models), ``cg_players.c`` (``headoffset``), ``bg_misc.c``
(``bg_itemlist``).
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass

import numpy as np

from assets_loader.demos import DemoTimeline, SceneState
from assets_loader.demos.quake3.game import PW_BLUEFLAG, PW_NEUTRALFLAG, PW_REDFLAG
from assets_loader.models.q3player import PlayerModel

from ...render.view_math import angles_axis
from ...render.shaded.records import Md3Draw, Quake3Models
from .items import ITEM_MODELS
from .players import part_path

__all__ = ["DAMAGE_TIME", "Damage", "Icon", "ammo_icon", "armor_icon", "attacker_head_icon", "damage_x",
           "facing_head_icon", "flag_icon", "head_icon", "head_look", "head_pic", "last_damage", "wander_angles"]

ICON_SIZE = 48.0
CHAR_WIDTH = 32.0
TEXT_ICON_SPACE = 4.0
#: Seconds the damage look lasts (``DAMAGE_TIME``).
DAMAGE_TIME = 0.5
#: ``tan(fov / 2)`` of the icons' 30° camera, as the cgame rounds it.
TAN_HALF_FOV = 0.268
#: Seconds between the head's poses on average, and how far each start may move from its slot.
POSE_SLOT, POSE_JITTER = 1.1, 1.0
ARMOR_MODEL = "models/powerups/armor/armor_yel.md3"
#: weapon_t → its ammo item's world model (``bg_itemlist`` ``IT_AMMO`` entries by ``giTag``).
AMMO_MODELS = {3: ITEM_MODELS[18], 2: ITEM_MODELS[19], 4: ITEM_MODELS[20], 8: ITEM_MODELS[21], 6: ITEM_MODELS[22],
               5: ITEM_MODELS[23], 7: ITEM_MODELS[24], 9: ITEM_MODELS[25]}
#: powerup bit → flag model, in the order the status bar tries them.
FLAG_MODELS = ((PW_REDFLAG, "models/flags/r_flag.md3"), (PW_BLUEFLAG, "models/flags/b_flag.md3"),
               (PW_NEUTRALFLAG, "models/flags/n_flag.md3"))
_MASK64 = (1 << 64) - 1
#: Frames of stats :func:`_hurt_frames` reads at a time.
_HURT_CHUNK = 4096
#: The frames each timeline's view was hurt at (:func:`_hurt_frames`), and the last hurt looked up: (timeline,
#: frame, damage).
_HURTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_last_hurt: list = [None, None, None]


@dataclass(frozen=True, slots=True)
class Icon:
    """A model in a HUD box: ``x, y, w, h`` in virtual 640 × 480 units, the model as its icon scene draws it."""

    x: float
    y: float
    w: float
    h: float
    draw: Md3Draw


@dataclass(frozen=True, slots=True)
class Damage:
    """The view's last hurt (``cg.damageTime`` in seconds, ``cg.damageX``)."""

    time: float
    x: float


def _model(name: str, origin, angles, shaders=None) -> Md3Draw:
    return Md3Draw(name, np.asarray(origin, np.float32), angles_axis(angles), shaders=shaders or {})


def ammo_icon(models: Quake3Models, weapon: int, t: float) -> Icon | None:
    """The ammo box of ``weapon`` turning at ``t``; ``None`` when the weapon has no ammo model loaded."""
    name = AMMO_MODELS.get(weapon, "")
    if name not in models.md3:
        return None
    yaw = 90.0 + 20.0 * math.sin(t)
    return Icon(CHAR_WIDTH * 3 + TEXT_ICON_SPACE, 432.0, ICON_SIZE, ICON_SIZE,
                _model(name, (70.0, 0.0, 0.0), (0.0, yaw, 0.0)))


def armor_icon(models: Quake3Models, t: float) -> Icon | None:
    """The armor model turning at ``t`` (``None`` when it is not loaded)."""
    if ARMOR_MODEL not in models.md3:
        return None
    yaw = (int(round(t * 1000.0)) & 2047) * 360.0 / 2048.0
    return Icon(370 + CHAR_WIDTH * 3 + TEXT_ICON_SPACE, 432.0, ICON_SIZE, ICON_SIZE,
                _model(ARMOR_MODEL, (90.0, 0.0, -10.0), (0.0, yaw, 0.0)))


def flag_icon(models: Quake3Models, powerups: int, t: float) -> Icon | None:
    """The flag held (by the ``powerups`` bits) swinging at ``t``; ``None`` when none is held or loaded."""
    name = next((m for bit, m in FLAG_MODELS if powerups >> bit & 1), "")
    model = models.md3.get(name)
    if model is None or not model.frames:
        return None
    sizing = models.md3.get(FLAG_MODELS[0][1], model)
    mins, maxs = np.asarray(sizing.frames[0].mins), np.asarray(sizing.frames[0].maxs)
    origin = (0.5 * (maxs[2] - mins[2]) / TAN_HALF_FOV, 0.5 * (mins[1] + maxs[1]), -0.5 * (mins[2] + maxs[2]))
    x = 185 + CHAR_WIDTH * 3 + TEXT_ICON_SPACE + ICON_SIZE
    return Icon(x, 480.0 - ICON_SIZE, ICON_SIZE, ICON_SIZE,
                _model(name, origin, (0.0, 60.0 * math.sin(t / 2.0), 0.0)))


def _head_player(models: Quake3Models, userinfo: dict[str, str]) -> PlayerModel | None:
    for key in ("hmodel", "model"):
        name = userinfo.get(key, "")
        if name:
            full = name if "/" in name else f"{name}/default"
            player = models.players.get(full) or models.players.get(full.lower())
            if player is not None:
                return player
    return None


def _head(models: Quake3Models, userinfo: dict[str, str], box: tuple[float, float, float, float],
          angles: tuple[float, float, float]) -> Icon | None:
    """``CG_DrawHead``: the head of the player with ``userinfo`` in ``box`` turned by ``angles``."""
    player = _head_player(models, userinfo)
    if player is None or not player.head.frames:
        return None
    frame = player.head.frames[0]
    mins, maxs = np.asarray(frame.mins), np.asarray(frame.maxs)
    origin = np.array([0.7 * (maxs[2] - mins[2]) / TAN_HALF_FOV, 0.5 * (mins[1] + maxs[1]),
                       -0.5 * (mins[2] + maxs[2])]) + np.asarray(player.animations.head_offset)
    name = part_path(player, "head")
    if name not in models.md3:
        return None
    return Icon(*box, _model(name, origin, angles, player.skins.get("head", {})))


def facing_head_icon(models: Quake3Models, userinfo: dict[str, str],
                     box: tuple[float, float, float, float]) -> Icon | None:
    """The head of the player with ``userinfo`` facing the view (yaw 180) in ``box``: the attacker's
    (``CG_DrawAttacker``) and each scoreboard row's (``CG_DrawClientScore``)."""
    return _head(models, userinfo, box, (0.0, 180.0, 0.0))


def head_pic(userinfo: dict[str, str]) -> str:
    """The 2D head icon of a player's ``model`` (``models/players/<model>/icon_<skin>``; "" without a model), drawn
    where the 3D head cannot be (``cg_draw3dIcons 0``)."""
    model = userinfo.get("model", "").lower()
    if not model:
        return ""
    name, _, skin = model.partition("/")
    return f"models/players/{name}/icon_{skin or 'default'}"


def _unit(k: int, salt: int) -> float:
    """A number in 0..1 from ``k`` and ``salt`` (a splitmix64 hash): the same every time."""
    x = (k * 0x9E3779B97F4A7C15 + salt * 0xD1B54A32D192ED03 + 0x94D049BB133111EB) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return (x ^ (x >> 31)) / float(1 << 64)


def _pose_start(k: int) -> float:
    return POSE_SLOT * k + POSE_JITTER * _unit(k, 0)


def _pose(k: int) -> tuple[float, float]:
    """Pose ``k``'s (pitch, yaw): ``cos`` of a random angle, as the cgame's ``cos(crandom() * M_PI)``."""
    return (5.0 * math.cos((2.0 * _unit(k, 2) - 1.0) * math.pi), 180.0 + 20.0 * math.cos((2.0 * _unit(k, 1) - 1.0)
                                                                                          * math.pi))


def _pose_at(t: float) -> int:
    """The pose ``k`` whose span holds ``t``."""
    k = math.floor(t / POSE_SLOT)
    return k if _pose_start(k) <= t else k - 1


def _ease(frac: float) -> float:
    frac = min(max(frac, 0.0), 1.0)
    return frac * frac * (3.0 - 2.0 * frac)


def _between(a: tuple[float, float], b: tuple[float, float], frac: float) -> tuple[float, float, float]:
    return (a[0] + (b[0] - a[0]) * frac, a[1] + (b[1] - a[1]) * frac, 0.0)


def wander_angles(t: float) -> tuple[float, float, float]:
    """The head's own looking about at ``t`` (pitch, yaw, roll), with no damage to react to."""
    k = _pose_at(t)
    start, end = _pose_start(k), _pose_start(k + 1)
    return _between(_pose(k), _pose(k + 1), _ease((t - start) / (end - start)))


def head_look(t: float, damage: Damage | None) -> tuple[tuple[float, float, float], float, float]:
    """(angles, size, x shift) of the status bar head at ``t``: the angles, the box side in virtual units and how
    far the box moves right (negative: left) of its place."""
    size = ICON_SIZE * 1.25
    if damage is None or t < damage.time:
        return wander_angles(t), size, 0.0
    since = t - damage.time
    hit = (_pose(_pose_at(damage.time))[0], 180.0 + damage.x * 45.0)
    if since < DAMAGE_TIME:
        grown = size * (1.5 - since / DAMAGE_TIME * 0.5)
        stretch = grown - size
        return (hit[0], hit[1], 0.0), grown, -(stretch * 0.5 + damage.x * stretch * 0.5)
    back = damage.time + DAMAGE_TIME
    k = _pose_at(back + 0.1) + 1           # the first pose starting at least 0.1 s after the kick
    if t < _pose_start(k):
        return _between(hit, _pose(k), _ease((t - back) / (_pose_start(k) - back))), size, 0.0
    return wander_angles(t), size, 0.0


def damage_x(yaw_byte: int, pitch_byte: int, view_angles) -> float:
    """``CG_DamageFeedback``'s ``damageX``: where the hit came from across the view, −1 (right) … 1 (left); 0 for
    the undirected (both bytes 255)."""
    if yaw_byte == 255 and pitch_byte == 255:
        return 0.0
    pitch, yaw = math.radians(pitch_byte / 255.0 * 360.0), math.radians(yaw_byte / 255.0 * 360.0)
    back = -np.array([math.cos(pitch) * math.cos(yaw), math.cos(pitch) * math.sin(yaw), -math.sin(pitch)])
    axis = angles_axis(view_angles)
    front, left = float(back @ axis[0]), float(back @ axis[1])
    return min(max(-left / max(front, 0.1), -1.0), 1.0)


def last_damage(timeline: DemoTimeline, t: float, within: float = 3.0) -> Damage | None:
    """The last hurt of the view at or before ``t`` and not more than ``within`` seconds back (a change of
    ``damage_event`` with a ``damage_count``, the followed client unchanged), or ``None``: a bisection of the
    timeline's hurts (:func:`_hurt_frames`), the last one's :class:`Damage` kept for the status bar's head, the
    attacker's and the view's blood at one moment."""
    times = timeline.times
    last = int(np.searchsorted(times, t, side="right"))
    first = max(int(np.searchsorted(times, t - within, side="left")) - 1, 0)
    hurts = _hurt_frames(timeline)
    k = int(np.searchsorted(hurts, last - 1, side="right")) - 1     # the last hurt of frames first + 1 … last - 1
    if k < 0 or hurts[k] <= first:
        return None
    frame = int(hurts[k])
    seen, at, found = _last_hurt
    if seen is None or seen() is not timeline or at != frame:
        row = timeline.stats_window(frame, frame + 1)
        x = damage_x(int(row["damage_yaw"][0]), int(row["damage_pitch"][0]), timeline.view_angles_at(frame))
        found = Damage(float(times[frame]), x)
        _last_hurt[:] = weakref.ref(timeline), frame, found
    return found


def _hurt_frames(timeline: DemoTimeline) -> np.ndarray:
    """``i8 [H]``: the frames whose ``damage_event`` differs from the frame before's with a ``damage_count``, the
    followed client unchanged (``CG_DamageFeedback`` fires there), found once per timeline, a window of stats at
    a time."""
    found = _HURTS.get(timeline)
    if found is None:
        parts = [np.zeros(0, np.int64)]
        for first in range(0, len(timeline.times), _HURT_CHUNK):
            window = timeline.stats_window(first, first + _HURT_CHUNK + 1)     # one frame over: the next pair
            event, count, client = window["damage_event"], window["damage_count"], window["clientNum"]
            hits = (event[1:] != event[:-1]) & (count[1:] != 0) & (client[1:] == client[:-1])
            parts.append(first + 1 + np.flatnonzero(hits))
        found = _HURTS[timeline] = np.concatenate(parts)
    return found


def head_icon(models: Quake3Models, state: SceneState, timeline: DemoTimeline) -> Icon | None:
    """The followed player's head on the status bar at ``state.time`` (``None`` when its model is not loaded)."""
    client = int(state.stats.get("clientNum", -1))
    if not 0 <= client < len(state.scoreboard):
        return None
    angles, size, shift = head_look(state.time, last_damage(timeline, state.time))
    x = 185 + CHAR_WIDTH * 3 + TEXT_ICON_SPACE + shift
    return _head(models, dict(state.scoreboard[client].userinfo), (x, 480.0 - size, size, size), angles)


def attacker_head_icon(models: Quake3Models, state: SceneState, attacker: int, y: float) -> Icon | None:
    """The attacker's head facing the view in the upper right from ``y`` (``None`` when not loaded)."""
    size = ICON_SIZE * 1.25
    return facing_head_icon(models, dict(state.scoreboard[attacker].userinfo), (640.0 - size, y, size, size))
