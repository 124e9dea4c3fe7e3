"""Which Quake entities are drawn and how: the sampled entity states become :class:`EntityDraw` records.

Dynamic entities (not ``EF_NODRAW``, not fully transparent, with a model; the recorder's own body hidden in first
person), static entities, and the view weapon at the eye (``cl.viewent``: the ``weaponmodel`` stat, hidden during
intermissions and when dead). Players wear their scoreboard colours (an entity's ``colormap`` is its player slot
+ 1).

Bonus items whose model has ``EF_ROTATE`` spin 100° a second (:func:`spun`).

References: QuakeSpasm ``cl_main.c`` ``CL_RelinkEntities`` (who is drawn, ``EF_ROTATE``), ``view.c``
``V_CalcRefdef`` (the view weapon), ``r_main.c`` ``R_RotateForEntity`` (its pitch is negated), FitzQuake ``EF_NODRAW``.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from assets_loader.demos import SceneState
from assets_loader.models.mdl import EF_ROTATE

from ...render.refdef import EntityDraw

EF_NODRAW = 16  # FitzQuake: entity sent but not drawn


def entity_colors(state: SceneState, colormap: int) -> tuple[int, int] | None:
    """(top, bottom) colours of the player in scoreboard slot ``colormap - 1``, or ``None`` (no translation)."""
    slot = colormap - 1
    if 0 <= slot < len(state.scoreboard):
        score = state.scoreboard[slot]
        return score.top, score.bottom
    return None


def entity_draws(state: SceneState, first_person: bool) -> list[EntityDraw]:
    """Dynamic entities, static entities and (in first person) the view weapon of ``state``."""
    ents = state.entities
    draws: list[EntityDraw] = []
    hidden = (ents.model <= 0) | ((ents.effects & EF_NODRAW) != 0) | (ents.alpha <= 0)
    if first_person:
        hidden |= ents.number == state.view_entity
    for i in np.flatnonzero(~hidden).tolist():
        draws.append(EntityDraw(
            int(ents.model[i]), ents.origin[i], ents.angles[i], int(ents.frame[i]), int(ents.prev_frame[i]),
            float(ents.frame_blend[i]), int(ents.skin[i]), entity_colors(state, int(ents.colormap[i])),
            float(ents.alpha[i]), int(ents.effects[i]), int(ents.number[i])))
    statics = state.statics
    for i in range(len(statics)):
        if statics.model[i] > 0:
            draws.append(EntityDraw(int(statics.model[i]), statics.origin[i], statics.angles[i],
                                    int(statics.frame[i]), int(statics.frame[i]), 1.0, int(statics.skin[i]),
                                    alpha=float(statics.alpha[i])))
    weapon = view_weapon(state) if first_person else None
    if weapon is not None:
        draws.append(weapon)
    return draws


def view_weapon(state: SceneState) -> EntityDraw | None:
    """The view weapon (``cl.viewent``): drawn at the eye, pitch negated for ``R_RotateForEntity``."""
    stats = state.stats
    model = int(stats.get("weaponmodel", 0))
    if model <= 0 or stats.get("intermission", 0) or stats.get("health", 1) <= 0:
        return None
    pitch, yaw, roll = (float(a) for a in state.view_angles)
    frame = int(stats.get("weaponframe", 0))
    alpha = stats.get("weaponalpha", 0)
    return EntityDraw(model, np.asarray(state.view_origin, np.float32), np.array([-pitch, yaw, roll], np.float32),
                      frame, frame, 1.0, alpha=alpha / 255 if alpha else 1.0, view_model=True)


def spun(draws: list[EntityDraw], model_flags: np.ndarray | None, t: float) -> list[EntityDraw]:
    """``draws`` with every model that has ``EF_ROTATE`` in ``model_flags`` (MDL flags by model index) turned to
    the yaw of time ``t`` (``CL_RelinkEntities``: ``bobjrotate``, 100° a second, the entity's own angles
    dropped)."""
    spinning = set(np.flatnonzero(model_flags & EF_ROTATE).tolist()) if model_flags is not None else set()
    if not spinning:
        return draws
    yaw = np.array([0.0, (100.0 * t) % 360.0, 0.0])
    return [replace(d, angles=yaw) if d.model in spinning else d for d in draws]
