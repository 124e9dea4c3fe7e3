"""Quake III player models: ``lower``/``upper``/``head`` MD3s with their ``.skin`` files and ``animation.cfg``,
joined on tags, plus pure functions for animation frames and tag transforms.

A player is drawn as three models: the legs (``lower.md3``) at the entity origin, the torso (``upper.md3``) on
the legs' ``tag_torso``, the head on the torso's ``tag_head``; the weapon hangs on the torso's ``tag_weapon``.
``animation.cfg`` lists optional keywords (``sex``, ``footsteps``, ``headoffset``, ``fixedlegs``,
``fixedtorso``) then ``first count looping fps`` per animation in ``animNumber_t`` order. The legs model leaves
out the torso-only frames, so legs animations are shifted down by ``LEGS_WALKCR.first - TORSO_GESTURE.first``
(the "legs/torso split"). A ``.skin`` maps surface names to shaders (``surface,shader`` lines; ``tag_`` lines
are skipped).

References: ioquake3 ``cgame/cg_players.c`` (``CG_ParseAnimationFile``, ``CG_RegisterClientSkin``,
``CG_RegisterClientModelname``, ``CG_RunLerpFrame``, ``CG_Player``, ``CG_PlayerAnimation``),
``cgame/cg_ents.c`` (``CG_PositionEntityOnTag``, ``CG_PositionRotatedEntityOnTag``), ``cgame/cg_weapons.c``
(``CG_AddPlayerWeapon``), ``game/bg_public.h`` (``animNumber_t``, ``ANIM_TOGGLEBIT``), ``game/bg_misc.c``
(weapon world models); ``renderergl1/tr_image.c`` (``RE_RegisterSkin``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import FormatError, NotFoundError
from ..q3shaders.tokens import TokenStream, tokenize
from ..vfs import VirtualFS
from .md3 import Md3Model, load_md3

#: ``animNumber_t`` names in file order; the last five are derived, not read.
ANIMATION_NAMES = (
    "BOTH_DEATH1", "BOTH_DEAD1", "BOTH_DEATH2", "BOTH_DEAD2", "BOTH_DEATH3", "BOTH_DEAD3",
    "TORSO_GESTURE", "TORSO_ATTACK", "TORSO_ATTACK2", "TORSO_DROP", "TORSO_RAISE", "TORSO_STAND", "TORSO_STAND2",
    "LEGS_WALKCR", "LEGS_WALK", "LEGS_RUN", "LEGS_BACK", "LEGS_SWIM", "LEGS_JUMP", "LEGS_LAND", "LEGS_JUMPB",
    "LEGS_LANDB", "LEGS_IDLE", "LEGS_IDLECR", "LEGS_TURN",
    "TORSO_GETFLAG", "TORSO_GUARDBASE", "TORSO_PATROL", "TORSO_FOLLOWME", "TORSO_AFFIRMATIVE", "TORSO_NEGATIVE",
    "LEGS_BACKCR", "LEGS_BACKWALK", "FLAG_RUN", "FLAG_STAND", "FLAG_STAND2RUN",
)
ANIM = {name: i for i, name in enumerate(ANIMATION_NAMES)}
MAX_ANIMATIONS = ANIM["LEGS_BACKCR"]
ANIM_TOGGLEBIT = 128
PLAYER_PARTS = ("lower", "upper", "head")
#: ``weapon_t`` number → world model (bg_misc.c ``itemlist``).
WEAPON_MODELS = {
    1: "models/weapons2/gauntlet/gauntlet.md3", 2: "models/weapons2/machinegun/machinegun.md3",
    3: "models/weapons2/shotgun/shotgun.md3", 4: "models/weapons2/grenadel/grenadel.md3",
    5: "models/weapons2/rocketl/rocketl.md3", 6: "models/weapons2/lightning/lightning.md3",
    7: "models/weapons2/railgun/railgun.md3", 8: "models/weapons2/plasma/plasma.md3",
    9: "models/weapons2/bfg/bfg.md3", 10: "models/weapons2/grapple/grapple.md3",
}

Transform = tuple[np.ndarray, np.ndarray]
"""``(origin[3], axis[3, 3])``: a position and three row axes (forward, left, up), like ``refEntity_t``."""


@dataclass(frozen=True, slots=True)
class Animation:
    """``animation_t``: frames ``first_frame ..`` (``num_frames``, the last ``loop_frames`` repeat), ``frame_lerp``
    milliseconds per frame (integer, as the engine truncates ``1000 / fps``), played backwards if
    ``reversed``."""

    first_frame: int
    num_frames: int
    loop_frames: int
    frame_lerp: int
    reversed: bool = False
    flipflop: bool = False


@dataclass(frozen=True, slots=True)
class AnimationConfig:
    """A parsed ``animation.cfg``: ``animations`` indexed by ``ANIM`` numbers and the optional keywords."""

    animations: tuple[Animation, ...]
    sex: str = "m"
    footsteps: str = "normal"
    head_offset: tuple[float, float, float] = (0.0, 0.0, 0.0)
    fixed_legs: bool = False
    fixed_torso: bool = False


def _float(tok: str, path: str, what: str) -> float:
    try:
        value = float(tok)
    except ValueError:
        raise FormatError(path, "animation.cfg", None, f"a number for {what}", repr(tok)) from None
    if not math.isfinite(value):
        raise FormatError(path, "animation.cfg", None, f"a finite number for {what}", repr(tok))
    return value


def _int(tok: str, path: str, what: str) -> int:
    return int(_float(tok, path, what))


def parse_animation_cfg(text: str | bytes, path: str = "animation.cfg") -> AnimationConfig:
    """``CG_ParseAnimationFile``: the keywords, then 4 numbers for each of the first ``MAX_ANIMATIONS``
    animations (the team-arena torso gestures may be missing; they copy ``TORSO_GESTURE``)."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("latin-1")
    ts = TokenStream(tokenize(text))
    opts: dict = {}
    while not ts.at_end():
        tok = ts.tokens[ts.pos].text
        if tok[:1].isdigit() or tok[:1] == "-":
            break
        ts.next()
        low = tok.lower()
        if low == "footsteps":
            opts["footsteps"] = ts.next().lower()
        elif low == "headoffset":
            opts["head_offset"] = tuple(_float(ts.next(), path, "headoffset") for _ in range(3))
        elif low == "sex":
            opts["sex"] = ts.next()[:1].lower() or "m"
        elif low == "fixedlegs":
            opts["fixed_legs"] = True
        elif low == "fixedtorso":
            opts["fixed_torso"] = True
    anims: list[Animation] = []
    skip = 0
    for i in range(MAX_ANIMATIONS):
        tok = ts.next()
        if not tok:
            if ANIM["TORSO_GETFLAG"] <= i <= ANIM["TORSO_NEGATIVE"]:
                anims.append(anims[ANIM["TORSO_GESTURE"]])
                continue
            raise FormatError(path, "animation.cfg", None, f"4 numbers for {ANIMATION_NAMES[i]}", "end of file")
        first = _int(tok, path, ANIMATION_NAMES[i])
        if i == ANIM["LEGS_WALKCR"]:
            skip = first - anims[ANIM["TORSO_GESTURE"]].first_frame
        if ANIM["LEGS_WALKCR"] <= i < ANIM["TORSO_GETFLAG"]:
            first -= skip
        count = _int(ts.next(), path, ANIMATION_NAMES[i])
        loop = _int(ts.next(), path, ANIMATION_NAMES[i])
        fps = _float(ts.next(), path, ANIMATION_NAMES[i]) or 1.0
        anims.append(Animation(first, abs(count), loop, int(1000 / fps), reversed=count < 0))
    walkcr, walk = anims[ANIM["LEGS_WALKCR"]], anims[ANIM["LEGS_WALK"]]
    anims.append(Animation(walkcr.first_frame, walkcr.num_frames, walkcr.loop_frames, walkcr.frame_lerp, True))
    anims.append(Animation(walk.first_frame, walk.num_frames, walk.loop_frames, walk.frame_lerp, True))
    anims.append(Animation(0, 16, 16, 1000 // 15))
    anims.append(Animation(16, 5, 0, 1000 // 20))
    anims.append(Animation(0, 5, 0, 1000 // 15))
    return AnimationConfig(tuple(anims), **opts)


def _step_frame(anim: Animation, step: int) -> int:
    """The model frame shown ``step`` frame times into ``anim`` (``CG_RunLerpFrame``'s frame choice)."""
    frames = anim.num_frames * (2 if anim.flipflop else 1)
    f = step
    if f >= frames:
        f -= frames
        if anim.loop_frames:
            f = f % anim.loop_frames + anim.num_frames - anim.loop_frames
        else:
            f = frames - 1
    if anim.reversed:
        return anim.first_frame + anim.num_frames - 1 - f
    if anim.flipflop and f >= anim.num_frames:
        return anim.first_frame + anim.num_frames - 1 - f % anim.num_frames
    return anim.first_frame + f


def animation_frame(anim: Animation, time_ms: float) -> tuple[int, int, float]:
    """``(old_frame, frame, frac)`` ``time_ms`` after ``anim`` started: draw ``frac`` of the way from
    ``old_frame`` to ``frame``. A finished non-looping animation holds its last frame."""
    if anim.frame_lerp <= 0 or anim.num_frames <= 0:
        return anim.first_frame, anim.first_frame, 0.0
    t = max(float(time_ms), 0.0) / anim.frame_lerp
    step = math.floor(t)
    old, new = _step_frame(anim, step), _step_frame(anim, step + 1)
    return old, new, (t - step) if old != new else 0.0


def animation_number(value: int) -> int:
    """An entity's ``legsAnim``/``torsoAnim`` without the restart toggle bit."""
    return value & ~ANIM_TOGGLEBIT


def parse_skin(text: str | bytes) -> dict[str, str]:
    """``RE_RegisterSkin``: surface name (lower case) → shader name, from ``surface,shader`` lines."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("latin-1")
    out: dict[str, str] = {}
    for line in text.splitlines():
        surface, comma, shader = line.strip().partition(",")
        surface = surface.strip().lower()
        if not comma or not surface or "tag_" in surface:
            continue
        out.setdefault(surface, shader.strip().strip('"'))
    return out


def attach(parent: Transform, tag: Transform, local_axis: np.ndarray | None = None) -> Transform:
    """``CG_PositionRotatedEntityOnTag`` (``CG_PositionEntityOnTag`` without ``local_axis``): a child placed on
    ``tag`` (in the parent model's space) of a parent at ``parent``."""
    p_origin, p_axis = parent
    t_origin, t_axis = tag
    origin = p_origin + t_origin @ p_axis
    axis = t_axis @ p_axis if local_axis is None else local_axis @ t_axis @ p_axis
    return origin.astype(np.float32), axis.astype(np.float32)


@dataclass(frozen=True, slots=True)
class PlayerModel:
    """A player model ready to pose: the three parts, their skins (surface → shader) and animations."""

    model: str
    skin: str
    lower: Md3Model
    upper: Md3Model
    head: Md3Model
    skins: dict[str, dict[str, str]]
    animations: AnimationConfig

    def surface_shader(self, part: str, surface: str, default: str) -> str:
        """The shader for ``surface`` of ``part`` from the skin, else the MD3's own ``default``."""
        return self.skins.get(part, {}).get(surface.lower(), default)


@dataclass(frozen=True, slots=True)
class PlayerPose:
    """Where each part of a posed player is drawn, and with which frames: ``transforms[part]`` and
    ``frames[part] = (old_frame, frame, frac)``; ``weapon`` is the weapon model's transform (or ``None``)."""

    transforms: dict[str, Transform]
    frames: dict[str, tuple[int, int, float]]
    weapon: Transform | None


def pose_player(player: PlayerModel, origin, legs_axis: np.ndarray, legs_frames: tuple[int, int, float],
                torso_frames: tuple[int, int, float], torso_axis: np.ndarray | None = None,
                head_axis: np.ndarray | None = None, with_weapon: bool = True) -> PlayerPose:
    """``CG_Player``'s assembly: legs at ``origin``, torso on ``tag_torso`` (rotated by ``torso_axis``), head on
    ``tag_head`` (rotated by ``head_axis``, lerped with the torso frames), weapon on ``tag_weapon``."""
    identity = np.eye(3, dtype=np.float32)
    legs: Transform = (np.asarray(origin, np.float32), np.asarray(legs_axis, np.float32))
    torso_tag = player.lower.lerp_tag("tag_torso", *legs_frames)
    head_tag = player.upper.lerp_tag("tag_head", *torso_frames)
    if torso_tag is None or head_tag is None:
        missing = "lower.md3 tag_torso" if torso_tag is None else "upper.md3 tag_head"
        raise NotFoundError(player.model, "player model", None, f"a {missing}")
    torso = attach(legs, torso_tag, identity if torso_axis is None else torso_axis)
    head = attach(torso, head_tag, identity if head_axis is None else head_axis)
    weapon_tag = player.upper.lerp_tag("tag_weapon", *torso_frames) if with_weapon else None
    weapon = attach(torso, weapon_tag) if weapon_tag is not None else None
    return PlayerPose({"lower": legs, "upper": torso, "head": head},
                      {"lower": legs_frames, "upper": torso_frames, "head": (0, 0, 0.0)}, weapon)


def split_model_name(name: str) -> tuple[str, str]:
    """``"sarge/classic"`` → ``("sarge", "classic")``; a bare model name uses the ``default`` skin."""
    model, _, skin = name.partition("/")
    return model.lower(), (skin or "default").lower()


def load_player(fs: VirtualFS, name: str) -> PlayerModel:
    """``CG_RegisterClientModelname`` for ``model[/skin]`` from ``models/players/<model>/``; a skin the model
    lacks falls back to ``default``."""
    model, skin = split_model_name(name)
    base = f"models/players/{model}"
    if not fs.exists(f"{base}/lower_{skin}.skin"):
        skin = "default"
    parts = {part: load_md3(fs.read(f"{base}/{part}.md3"), f"{base}/{part}.md3") for part in PLAYER_PARTS}
    skins = {}
    for part in PLAYER_PARTS:
        skin_file = f"{base}/{part}_{skin}.skin"
        skins[part] = parse_skin(fs.read(skin_file)) if fs.exists(skin_file) else {}
    cfg = parse_animation_cfg(fs.read(f"{base}/animation.cfg"), f"{base}/animation.cfg")
    return PlayerModel(model, skin, parts["lower"], parts["upper"], parts["head"], skins, cfg)
