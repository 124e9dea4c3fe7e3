"""From the timeline's state at ``t`` to a :class:`SceneFrame`: what to draw and from where.

Pure functions of the timeline and ``t`` (docs/DESIGN.md, "Key types"): the camera (the recorder's eyes, or a given
position), the entity draw list (dynamic entities, static entities, the view weapon), light style values and
fog. Model-specific work that needs loaded assets (poses, lighting, colours) is done by the renderer.

References: QuakeSpasm ``cl_main.c`` ``CL_RelinkEntities`` (who is drawn), ``view.c`` ``V_CalcRefdef`` (eye and
view weapon), ``r_light.c`` ``R_AnimateLight`` (styles at 10 Hz), ``gl_fog.c`` (fog from ``svc_fog`` and the
worldspawn ``fog`` key).
"""

from __future__ import annotations

import numpy as np

from assets_loader.demos import DemoTimeline, SceneState

from .games.quake.tents import SceneEffects
from .render.refdef import Camera, EntityDraw, SceneFrame

#: Light styles animate at 10 Hz; 'a' is dark, 'm' normal, 'z' double bright (``R_AnimateLight``).
STYLE_RATE = 10.0
EF_NODRAW = 16  # FitzQuake: entity sent but not drawn



def style_values(patterns: tuple[str, ...], t: float) -> np.ndarray:
    """Light style values ``f4[64]`` at time ``t`` (1.0 = 'm'); an empty pattern is 1.0."""
    out = np.ones(64, np.float32)
    step = int(t * STYLE_RATE)
    for i, pattern in enumerate(patterns[:64]):
        if pattern:
            out[i] = (ord(pattern[step % len(pattern)]) - ord("a")) * 22 / 256
    return out


def fog_at(timeline: DemoTimeline, t: float) -> tuple[float, float, float, float] | None:
    """The last ``svc_fog`` at or before ``t`` as (r, g, b, density), or ``None`` if none was sent."""
    fogs = [e for e in timeline.events_of_kind("fog") if e.time <= t]
    if not fogs:
        return None
    last = fogs[-1]
    return (*(float(c) for c in last.color), float(last.density))


def pov_camera(state: SceneState, fov: float = 90.0) -> Camera:
    """The recorder's eye at the sampled time."""
    return Camera(tuple(float(v) for v in state.view_origin), tuple(float(v) for v in state.view_angles), fov)


def _entity_colors(state: SceneState, colormap: int) -> tuple[int, int] | None:
    slot = colormap - 1
    if 0 <= slot < len(state.scoreboard):
        score = state.scoreboard[slot]
        return score.top, score.bottom
    return None


def build_scene(timeline: DemoTimeline, t: float, camera: Camera | None = None, fov: float = 90.0,
                pov: int | None = None, effects: SceneEffects | None = None,
                model_flags: list[np.ndarray] | None = None, model_names: tuple[str, ...] = (),
                state: SceneState | None = None) -> SceneFrame:
    """The scene at ``t``: from the recorder's eyes (with the view weapon), or from ``camera`` when given.

    ``pov`` picks a player slot's eyes in multi-view demos (MVD). With ``effects`` (prepared once per timeline)
    the frame also carries particles, dynamic lights, beams and explosion sprites; ``model_flags[segment]`` (MDL
    flags by model index) adds trails and rocket lights, and ``model_names`` (the segment's model precache) lets
    beams and sprites find their models. ``state``: ``timeline.sample(t, pov=pov)`` when the caller already has it.
    """
    if state is None:
        state = timeline.sample(t, pov=pov)
    first_person = camera is None
    cam = pov_camera(state, fov) if first_person else camera
    ents = state.entities
    draws: list[EntityDraw] = []
    hidden = (ents.model <= 0) | ((ents.effects & EF_NODRAW) != 0) | (ents.alpha <= 0)
    if first_person:
        hidden |= ents.number == state.view_entity
    for i in np.flatnonzero(~hidden):
        draws.append(EntityDraw(
            int(ents.model[i]), ents.origin[i], ents.angles[i], int(ents.frame[i]), int(ents.prev_frame[i]),
            float(ents.frame_blend[i]), int(ents.skin[i]), _entity_colors(state, int(ents.colormap[i])),
            float(ents.alpha[i]), int(ents.effects[i]), int(ents.number[i])))
    statics = state.statics
    for i in range(len(statics)):
        if statics.model[i] > 0:
            draws.append(EntityDraw(int(statics.model[i]), statics.origin[i], statics.angles[i],
                                   int(statics.frame[i]), int(statics.frame[i]), 1.0, int(statics.skin[i]),
                                   alpha=float(statics.alpha[i])))
    weapon = _view_model(state) if first_person else None
    if weapon is not None:
        draws.append(weapon)
    particles = lights = None
    if effects is not None:
        for piece in effects.models(state, t):
            if piece.model in model_names:
                draws.append(EntityDraw(model_names.index(piece.model), piece.origin, piece.angles, piece.frame,
                                       piece.frame))
        particles = effects.particles(timeline, t, model_flags)
        segment_flags = model_flags[state.segment] if model_flags and 0 <= state.segment < len(model_flags) else None
        lights = effects.lights(state, t, segment_flags)
    return SceneFrame(float(t), state.segment, cam, tuple(draws),
                      style_values(state.lightstyles, t), fog_at(timeline, t), particles, lights)


def _view_model(state: SceneState) -> EntityDraw | None:
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
