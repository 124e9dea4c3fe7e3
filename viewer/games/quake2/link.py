"""Which Quake II entities are drawn and how: the sampled entity states become :class:`EntityDraw` records.

Like ``CL_AddPacketEntities``: every entity with a model (index 255 is a player, drawn with its client's model —
model ``256 + client`` of the segment, see :mod:`assets_loader.demos.quake2.parse` — the client being the low byte
of its skin), its extra models 2–4 at the same place without its render flags (a 255 as model 2 is the player's
visible weapon: weapon number ``skin >> 8`` of its client, see :mod:`.segment_models`), ``EF_ROTATE`` items spinning
at 100°/s with the shared bob-free yaw, the ``EF_ANIM*`` frame cycles, ``RF_TRANSLUCENT`` at 70 %,
``RF_FULLBRIGHT`` drawn at the full light level.  Powerups and ``EF_COLOR_SHELL`` add a colour shell over the main
model (``EF_PENT`` red, ``EF_QUAD`` blue, ``EF_DOUBLE`` yellow, ``EF_HALF_DAMAGE`` grey-green, or the entity's own
``RF_SHELL_*``; 30 % opaque), the render flags then going to the shell, not the model.  ``RF_BEAM`` lasers are not
models (:mod:`.fx` draws them).  In first person the recorder's own entity is hidden and the view weapon
(``gunindex`` / ``gunframe``, offset by the gun offset and angles) is drawn at the eye.

References: Quake II 3.20 ``client/cl_ents.c`` ``CL_AddPacketEntities`` (autorotate, autoanim, skins, shells,
beams), ``CL_AddViewWeapon`` / ``CL_CalcViewValues`` (gun position); ``ref_gl/gl_mesh.c`` ``R_DrawAliasModel``
(shell colours).
"""

from __future__ import annotations

import numpy as np

from assets_loader.demos import SceneState
from assets_loader.demos.quake2.protocol import (EF_ANIM01, EF_ANIM23, EF_ANIM_ALL, EF_ANIM_ALLFAST, EF_COLOR_SHELL,
                                                 EF_DOUBLE, EF_HALF_DAMAGE, EF_PENT, EF_QUAD, EF_ROTATE, RF_BEAM,
                                                 RF_FULLBRIGHT, RF_SHELL_BLUE, RF_SHELL_DOUBLE, RF_SHELL_GREEN,
                                                 RF_SHELL_HALF_DAM, RF_SHELL_RED, RF_TRANSLUCENT, RF_VIEWERMODEL)

from ...render.refdef import EntityDraw
from .segment_models import CLIENT_MODEL_BASE, weapon_model_index

#: Powerup effects → the shell they turn on (``CL_AddPacketEntities``).
POWERUP_SHELLS = ((EF_PENT, RF_SHELL_RED), (EF_QUAD, RF_SHELL_BLUE), (EF_DOUBLE, RF_SHELL_DOUBLE),
                  (EF_HALF_DAMAGE, RF_SHELL_HALF_DAM))
SHELL_ALPHA = 0.3
PLAYER_MODEL = 255
TRANSLUCENT_ALPHA = 0.7


def _frame(effects: int, frame: int, t: float) -> int:
    """``CL_AddPacketEntities``' frame rules: the EF_ANIM* cycles (2 and 10 Hz) override the entity's frame."""
    autoanim = int(t * 2)
    if effects & EF_ANIM_ALL:
        return autoanim
    if effects & EF_ANIM_ALLFAST:
        return int(t * 10)
    if effects & EF_ANIM01:
        return autoanim & 1
    if effects & EF_ANIM23:
        return 2 + (autoanim & 1)
    return frame


def shell_flags(effects: int, renderfx: int) -> int:
    """The ``RF_SHELL_*`` bits of an entity's colour shell (0: none): its powerups' and, with ``EF_COLOR_SHELL``,
    its own."""
    shells = 0
    for effect, shell in POWERUP_SHELLS:
        if effects & effect:
            shells |= shell
    if shells or effects & EF_COLOR_SHELL:
        shells |= renderfx & (RF_SHELL_RED | RF_SHELL_GREEN | RF_SHELL_BLUE | RF_SHELL_DOUBLE | RF_SHELL_HALF_DAM)
    return shells


def shell_color(shells: int) -> tuple[float, float, float]:
    """``R_DrawAliasModel``'s shell colour: half damage grey-green, double damage yellow, then red, green and blue
    each turning its channel full on."""
    r = g = b = 0.0
    if shells & RF_SHELL_HALF_DAM:
        r, g, b = 0.56, 0.59, 0.45
    if shells & RF_SHELL_DOUBLE:
        r, g = 0.9, 0.7
    if shells & RF_SHELL_RED:
        r = 1.0
    if shells & RF_SHELL_GREEN:
        g = 1.0
    if shells & RF_SHELL_BLUE:
        b = 1.0
    return (r, g, b)


def entity_draws(state: SceneState, first_person: bool) -> list[EntityDraw]:
    """The packet entities of ``state`` and (in first person) the view weapon."""
    ents = state.entities
    extra = ents.extra
    renderfx = extra.get("renderfx", np.zeros(len(ents), np.int32))
    hidden = (ents.model <= 0) | ((renderfx & RF_BEAM) != 0)
    if first_person:
        hidden |= (ents.number == state.view_entity) | ((renderfx & RF_VIEWERMODEL) != 0)
    autorotate = (state.time * 100.0) % 360.0
    draws: list[EntityDraw] = []
    for i in np.flatnonzero(~hidden):
        effects, rfx = int(ents.effects[i]), int(renderfx[i])
        model, skin = int(ents.model[i]), int(ents.skin[i])
        if model == PLAYER_MODEL:
            model, skin = CLIENT_MODEL_BASE + (skin & 0xFF), 0
        angles = ents.angles[i]
        if effects & EF_ROTATE:
            angles = np.array([0.0, autorotate, 0.0], np.float32)
        frame = _frame(effects, int(ents.frame[i]), state.time)
        prev = frame if frame != int(ents.frame[i]) else int(ents.prev_frame[i])
        blend = 1.0 if frame != int(ents.frame[i]) else float(ents.frame_blend[i])
        number = int(ents.number[i])
        shells = shell_flags(effects, rfx)
        flags = 0 if shells else rfx                            # with a shell the render flags go to the shell
        alpha = TRANSLUCENT_ALPHA if flags & RF_TRANSLUCENT else 1.0
        bright = bool(flags & RF_FULLBRIGHT)
        draws.append(EntityDraw(model, ents.origin[i], angles, frame, prev, blend, skin, None, alpha, effects, number,
                                fullbright=bright))
        if shells:
            draws.append(EntityDraw(model, ents.origin[i], angles, frame, prev, blend, skin, None, SHELL_ALPHA,
                                    effects, number, shell=shell_color(shells)))
        for key in ("model2", "model3", "model4"):
            column = extra.get(key)
            if column is None:
                continue
            more = int(column[i])
            if key == "model2" and more == PLAYER_MODEL:        # the player's visible weapon
                more = weapon_model_index(int(ents.skin[i]) & 0xFF, int(ents.skin[i]) >> 8)
            elif not 0 < more < PLAYER_MODEL:
                continue
            draws.append(EntityDraw(more, ents.origin[i], angles, frame, prev, blend, 0, None, 1.0, 0, number))
    weapon = view_weapon(state) if first_person else None
    if weapon is not None:
        draws.append(weapon)
    return draws


def view_weapon(state: SceneState) -> EntityDraw | None:
    """The view weapon (``CL_AddViewWeapon``): model ``gunindex`` at the eye plus the gun offset, turned by the gun
    angles, its pose blended from the previous server frame's gun frame; none at intermission or with the view model
    hidden (``gunindex`` 0)."""
    stats = state.stats
    model = int(stats.get("gunindex", 0))
    if model <= 0 or stats.get("intermission", 0):
        return None
    frame = int(stats.get("gunframe", 0))
    prev = int(stats.get("gunframe_prev", frame))
    pitch, yaw, roll = (float(a) for a in state.view_angles)
    gun_angles = [stats.get(f"gunangles_{k}4", 0) / 4 for k in ("pitch", "yaw", "roll")]
    offset = np.array([stats.get(f"gunoffset_{k}4", 0) / 4 for k in "xyz"], np.float32)
    origin = np.asarray(state.view_origin, np.float32) + offset
    angles = np.array([-(pitch + gun_angles[0]), yaw + gun_angles[1], roll + gun_angles[2]], np.float32)
    return EntityDraw(model, origin, angles, frame, prev, float(state.lerp), view_model=True)


def player_entities(state: SceneState) -> tuple[int, ...]:
    """Entity numbers of the players present (model index 255), by number."""
    ents = state.entities
    return tuple(int(n) for n in ents.number[ents.model == PLAYER_MODEL])


def follow_candidates(state: SceneState) -> tuple[int, ...]:
    """The recorder first, then the other players."""
    players = player_entities(state)
    first = tuple(n for n in players if n == state.view_entity)
    return first + tuple(n for n in players if n != state.view_entity)
