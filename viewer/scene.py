"""From the timeline's state at ``t`` to a :class:`SceneFrame`: what to draw and from where.

Pure functions of the timeline and ``t`` (docs/DESIGN.md, "Key types"): the camera (the recorder's eyes, or a given
position), the entity draw list (asked of the game's :class:`~viewer.games.base.GameView`), the models, particles
and lights of its effects, light style values and fog. The game poses what its rules pose (Quake III's players,
given the segment's loaded models); the renderer samples the light under each model and picks alias-model frames.

References: QuakeSpasm ``view.c`` ``V_CalcRefdef`` (the eye), ``r_light.c`` ``R_AnimateLight`` (styles at 10 Hz),
``gl_fog.c`` (fog from ``svc_fog``).
"""

from __future__ import annotations

import numpy as np

from assets_loader.demos import DemoTimeline, SceneState
from assets_loader.demos.events import FogEvent
from assets_loader.demos.entity_eyes import derived_eye

from .games.base import GameEffects, GameView, ShadedDraws
from .games.registry import game_view
from .render.refdef import Camera, EntityDraw, SceneFrame, SegmentAssets

#: Light styles animate at 10 Hz; 'a' is dark, 'm' normal, 'z' double bright (``R_AnimateLight``).
STYLE_RATE = 10.0


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
    fogs = [e for e in timeline.events_of_kind("fog") if e.time <= t and isinstance(e, FogEvent)]
    if not fogs:
        return None
    last = fogs[-1]
    r, g, b = last.color
    return (float(r), float(g), float(b), float(last.density))


def pov_camera(state: SceneState, fov: float = 90.0) -> Camera:
    """The recorder's eye at the sampled time."""
    (x, y, z), (pitch, yaw, roll) = state.view_origin, state.view_angles
    return Camera((float(x), float(y), float(z)), (float(pitch), float(yaw), float(roll)), fov)


def build_scene(timeline: DemoTimeline, t: float, camera: Camera | None = None, fov: float = 90.0,
                pov: int | None = None, effects: GameEffects | None = None,
                model_flags: list[np.ndarray] | None = None, state: SceneState | None = None,
                game: GameView | None = None, assets: SegmentAssets | None = None) -> SceneFrame:
    """The scene at ``t``: from the recorder's eyes (with the view weapon), or from ``camera`` when given.

    The game's view (``game``, by default the one registered for ``timeline.game``) decides which entities are
    drawn. ``pov`` picks a player slot's eyes in multi-view demos (MVD). With ``effects`` (prepared once per timeline)
    the frame also carries particles, dynamic lights, beams, explosion sprites and what the game draws through
    shader scripts; ``model_flags[segment]`` (MDL flags by model index) adds trails and rocket lights; ``assets``
    (the segment's, once loaded) lets beams, sprites and explosion meshes find their models, Quake III pose its
    players and stop its beams at walls. ``state``: ``timeline.sample(t, pov=pov)`` when the caller already has it.
    Through the recorder's eyes the frame carries the game's screen blend (from the liquid the eye is in in the
    map), and the game's lens sets the field of view (``fov`` is the viewer's setting), underwater warp and where
    the eye is (Quake III looks at a dead player from behind: its body is drawn, its view weapon not); a free camera
    sees none of them.
    """
    game_map = assets.game_map if assets is not None else None
    if state is None:
        state = timeline.sample(t, pov=pov)
    view = game or game_view(timeline.game)
    derived = derived_eye(timeline, state)      # a player's eye from their entity: the stats are not theirs
    lens = view.pov_lens(state, t, fov, game_map) if camera is None and not derived else None
    if camera is not None:
        cam = camera
    elif lens is not None and lens.eye is not None:
        cam = Camera(*lens.eye, lens.fov)
    else:
        cam = pov_camera(state, lens.fov if lens is not None else fov)
    first_person = (lens is not None and lens.eye is None) or (camera is None and derived)
    segment_flags = model_flags[state.segment] if model_flags and 0 <= state.segment < len(model_flags) else None
    draws = view.entity_draws(state, first_person, segment_flags)
    particles = lights = None
    shaded = ShadedDraws()
    if effects is not None:
        shaded = effects.shaded(state, t, cam, first_person, assets)
        pieces = effects.models(state, t)
        model_names = tuple(ref.name for ref in assets.models) if pieces and assets is not None else ()
        for piece in pieces:
            if piece.model in model_names:
                prev = piece.frame if piece.prev_frame < 0 else piece.prev_frame
                draws.append(EntityDraw(model_names.index(piece.model), piece.origin, piece.angles, piece.frame,
                                        prev, piece.blend, piece.skin, alpha=piece.alpha,
                                        fullbright=piece.fullbright))
        particles = effects.particles(timeline, t, model_flags)
        lights = effects.lights(state, t, segment_flags)
    if derived:                                 # the view weapon would be the recorder's
        draws = [d for d in draws if not d.view_model]
        shaded = ShadedDraws(tuple(d for d in shaded.md3 if not d.view_model), shaded.polys)
    blend = view.screen_blend(state, timeline, t, game_map) if lens is not None else None
    return SceneFrame(float(t), state.segment, cam, tuple(draws), style_values(state.lightstyles, t),
                      fog=fog_at(timeline, t), particles=particles, lights=lights, md3=shaded.md3,
                      blend=blend, polys=shaded.polys,
                      view_warp=lens.warp if lens is not None else 0.0)

