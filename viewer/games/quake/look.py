"""The look of each reference engine: Quake as QuakeSpasm draws it, QuakeWorld as ezQuake does.

QuakeSpasm lights with overbright (``gl_overbright 1``: a lightmap value of 255 draws a texture twice as bright),
covers the sky with half the fog colour (``r_skyfog 0.5``) and lights models brighter (``gl_overbright_models``);
ezQuake's default ``gl_lightmode 1`` lights like GLQuake, never brighter than the texture as painted. The status
bar: QuakeSpasm draws it at 1× over the whole view at ``scr_sbaralpha 0.75``; ezQuake's classic bar is opaque.

References: QuakeSpasm ``gl_rmisc.c``/``r_world.c`` (``gl_overbright``), ``r_alias.c`` (``R_SetupAliasLighting``),
``gl_sky.c`` (``r_skyfog``), ``gl_screen.c`` (``scr_sbaralpha``, ``scr_sbarscale``); ezQuake ``r_lightmaps.c``
(``gl_lightmode``).
"""

from __future__ import annotations

from ...render.refdef import Look
from .hud import SbarStyle

#: Quake (``.dem``) as QuakeSpasm 0.95 draws it by default.
QUAKESPASM = Look(light_max=2.0, sky_fog=0.5, model_light="quakespasm")
#: QuakeWorld (``.qwd``/``.mvd``) as ezQuake 3.6 draws it by default.
EZQUAKE = Look(light_max=1.0, sky_fog=0.5, model_light="glquake")

#: QuakeSpasm's status bar: 1× (``scr_sbarscale 1``), ``scr_sbaralpha 0.75``, over the full-height view.
QUAKESPASM_SBAR = SbarStyle(scale=1, alpha=0.75, backtile=False)
#: ezQuake's classic status bar: opaque, the HUD's scale, backtile beside it.
EZQUAKE_SBAR = SbarStyle()
