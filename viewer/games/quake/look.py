"""The look of each reference engine: Quake as QuakeSpasm draws it, QuakeWorld as ezQuake does.

QuakeSpasm lights with overbright (``gl_overbright 1``: a lightmap value of 255 draws a texture twice as bright)
and covers the sky with half the fog colour (``r_skyfog 0.5``); ezQuake's default ``gl_lightmode 1`` lights like
GLQuake, never brighter than the texture as painted. The status bar: QuakeSpasm draws it over the whole view at
``scr_sbaralpha 0.75``; ezQuake's classic bar is opaque.

References: QuakeSpasm ``gl_rmisc.c``/``r_world.c`` (``gl_overbright``), ``gl_sky.c`` (``r_skyfog``),
``gl_screen.c`` (``scr_sbaralpha``); ezQuake ``r_lightmaps.c`` (``gl_lightmode``).
"""

from __future__ import annotations

from ...render.refdef import Look

#: Quake (``.dem``) as QuakeSpasm 0.95 draws it by default.
QUAKESPASM = Look(light_max=2.0, sky_fog=0.5)
#: QuakeWorld (``.qwd``/``.mvd``) as ezQuake 3.6 draws it by default.
EZQUAKE = Look(light_max=1.0, sky_fog=0.5)

#: ``scr_sbaralpha``: QuakeSpasm's status bar opacity over the view; ezQuake's bar is opaque.
SBAR_ALPHA = {"quake": 0.75, "quakeworld": 1.0}
