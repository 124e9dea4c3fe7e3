"""The recorder's view in Quake II: the full-screen blend, the field of view and the underwater warp, all read from
the demo's ``player_state_t`` (the server computes them; the client only draws them).

``blend`` (r, g, b, a bytes of ``svc_playerinfo``) is drawn over the 3D view when its alpha is above zero
(``R_PolyBlend``); ``fov`` is the player state's horizontal field of view, scaled by the viewer's own setting over
Quake II's default 90 so that zooms (a sniper scope's 20°) show as recorded, lerped from the previous server frame's
like ``CL_CalcViewValues``; with ``RDF_UNDERWATER`` the view frustum wobbles like ref_gl's ``R_SetPerspective``:
``sin(time × 1.5) × 0.03``.  The blend and flags are the newer frame's, as the engine takes them.

References: Quake II 3.20 ``client/cl_ents.c`` ``CL_CalcViewValues`` (fov, blend, rdflags into the refdef),
``game/p_view.c`` ``SV_CalcBlend`` (what the blend holds), ``game/q_shared.h`` ``RDF_UNDERWATER``; Yamagi Quake II
``gl1_main.c`` ``R_SetPerspective`` (the underwater frustum warp), ``R_PolyBlend``.
"""

from __future__ import annotations

import math

from assets_loader.demos import SceneState

from ..base import PovLens

RDF_UNDERWATER = 1
#: Quake II's default ``fov`` cvar: the player state's fov relative to it scales the viewer's.
DEFAULT_FOV = 90.0
#: ``R_SetPerspective``: the frustum's half-width grows and its half-height shrinks by ``sin(t × RATE) × AMOUNT``.
WARP_RATE, WARP_AMOUNT = 1.5, 0.03


def screen_blend(state: SceneState) -> tuple[float, float, float, float] | None:
    """The player state's blend as (r, g, b, a) in 0..1, ``None`` when its alpha is 0."""
    stats = state.stats
    alpha = int(stats.get("blend_a", 0))
    if alpha <= 0:
        return None
    return (stats.get("blend_r", 0) / 255.0, stats.get("blend_g", 0) / 255.0, stats.get("blend_b", 0) / 255.0,
            min(alpha, 255) / 255.0)


def pov_lens(state: SceneState, t: float, fov: float) -> PovLens:
    """The recorder's field of view (``fov`` × player-state fov / 90, lerped from the previous frame's; a zero fov
    counts as 90) and underwater warp at ``t``."""
    now = float(state.stats.get("fov", 0)) or DEFAULT_FOV
    before = float(state.stats.get("fov_prev", 0)) or now
    recorded = before + float(state.lerp) * (now - before)
    lens_fov = min(max(fov * recorded / DEFAULT_FOV, 1.0), 179.0)
    underwater = int(state.stats.get("rdflags", 0)) & RDF_UNDERWATER
    warp = math.sin(t * WARP_RATE) * WARP_AMOUNT if underwater else 0.0
    return PovLens(lens_fov, warp)
