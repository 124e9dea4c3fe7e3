"""The seam between the frame and the two ways of drawing a world: what every backend is given and must do.

In the spirit of Quake II's ``refexport_t``: a backend registers one segment's assets when it is made (models by
index, the map, images), draws the 3D view of one frame into the bound target, draws the HUD's models, and
releases what it uploaded. The frame (:mod:`.frame`) does what every game shares around it: clearing, the
placeholder floor, the projection, the screen blend. Quake, QuakeWorld and Quake II draw through
:class:`~.bsp.renderer.BspBackend` (lightmapped BSP, alias models, sprites), Quake III through
:class:`~.q3.renderer.Quake3Backend` (shader scripts).

References: Quake II ``ref.h`` (``refexport_t``: ``BeginRegistration``, ``RenderFrame``, ``EndRegistration``),
ioquake3 ``tr_public.h`` (``refexport_t``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import moderngl
import numpy as np

from assets_loader.palette import Palette

from .alias_program import AliasPrograms
from .boxes import BoxRenderer
from .particles import ParticleRenderer
from .refdef import HudModel, SceneFrame

#: The view weapon's depth is squeezed into [0, 0.3] so it never pokes through walls (``glDepthRange``).
VIEW_MODEL_DEPTH = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0.3, -0.7], [0, 0, 0, 1]], np.float32)


@dataclass(frozen=True, slots=True, eq=False)
class FrameView:
    """What the frame worked out for this picture: ``view_proj`` ``f4[4, 4]`` (the camera's, with the game's
    fov rule and underwater warp) and the target's ``size`` in pixels."""

    view_proj: np.ndarray
    size: tuple[int, int]


class SharedDrawing:
    """The drawing both backends use: the ``alias.glsl`` programs, the boxes of missing models and particles."""

    def __init__(self, ctx: moderngl.Context, palette: Palette) -> None:
        self.programs = AliasPrograms(ctx)
        self.boxes = BoxRenderer(self.programs)
        self.particles = ParticleRenderer(ctx, palette)

    def release(self) -> None:
        self.boxes.release()
        self.particles.release()
        self.programs.release()


class Backend(Protocol):
    """One segment's world and models on the GPU, drawn a frame at a time."""

    def draw(self, frame: SceneFrame, view: FrameView) -> None:
        """The 3D view of ``frame`` into the bound target (cleared already; the screen blend is the frame's)."""
        ...

    def draw_hud_models(self, models: Sequence[HudModel], size: tuple[int, int], time: float) -> None:
        """The HUD's 3D models over the bound framebuffer of ``size`` pixels at shader time ``time``."""
        ...

    def release(self) -> None:
        """Free everything the backend uploaded."""
        ...
