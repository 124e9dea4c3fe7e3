"""Draw the HUD's 3D models (:class:`~.refdef.HudModel`): each one a scene of its own in its box of the screen, as
Quake III's ``CG_Draw3DModel`` renders its icons (``RDF_NOWORLDMODEL``).

Per model: the viewport and scissor are set to its box, the box's depth is cleared (``RB_BeginDrawingView``), and
the model is drawn through the segment's :class:`~.md3.Md3Renderer` (all of them uploaded at once:
:meth:`~.md3.Md3Renderer.draw_apart`) seen from the origin looking down +X with
the box's own projection (``fov_x`` × ``fov_y`` over the box whatever its shape; near plane 4, far plane 2048 as
``R_SetFarClip`` sets it without a world), lit by the renderer's fixed light, unfogged.  The viewport is the whole
target again afterwards.

References: ioquake3 ``code/cgame/cg_draw.c`` (``CG_Draw3DModel``), ``code/renderergl1/tr_main.c``
(``R_SetupProjection``, ``R_SetFarClip``), ``tr_backend.c`` (``RB_BeginDrawingView``), ``tr_light.c``
(``R_SetupEntityLighting``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import moderngl
import numpy as np

from .md3 import Md3Renderer
from .painter import Q3View
from ..gl_state import rebind
from ..refdef import HudModel
from ..view_math import NEAR_CLIP, view_matrix

__all__ = ["draw_hud_models", "icon_projection"]

#: ``R_SetFarClip`` without a world.
ICON_FAR_CLIP = 2048.0


@lru_cache(maxsize=32)
def icon_projection(fov_x: float, fov_y: float, near: float = NEAR_CLIP, far: float = ICON_FAR_CLIP) -> np.ndarray:
    """``P @ V`` of a HUD model's scene: the camera at the origin with the identity view axis (forward +X), a
    frustum ``fov_x`` wide and ``fov_y`` high, ``float32 [4, 4]`` (read-only: made once per field of view, the
    same few every frame, and the painter converts a matrix it saw last only once)."""
    projection = np.zeros((4, 4))
    projection[0, 0] = 1.0 / math.tan(math.radians(fov_x) / 2)
    projection[1, 1] = 1.0 / math.tan(math.radians(fov_y) / 2)
    projection[2, 2] = (far + near) / (near - far)
    projection[2, 3] = 2 * far * near / (near - far)
    projection[3, 2] = -1.0
    matrix = (projection @ view_matrix((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))).astype(np.float32)
    matrix.flags.writeable = False
    return matrix


def _box(model: HudModel, size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The model's box as a GL rectangle ``(x, y from the bottom, w, h)`` clipped to the target, ``None`` if
    nothing of it is on screen."""
    w, h = size
    x0, x1 = max(model.x, 0), min(model.x + model.w, w)
    top, bottom = max(model.y, 0), min(model.y + model.h, h)
    if x1 <= x0 or bottom <= top:
        return None
    return (x0, h - bottom, x1 - x0, bottom - top)


def draw_hud_models(ctx: moderngl.Context, renderer: Md3Renderer, models: Sequence[HudModel],
                    size: tuple[int, int], time: float) -> None:
    """Draw ``models`` into the bound framebuffer of ``size`` pixels at shader time ``time`` (seconds)."""
    shown = [(model, box) for model in models
             if (box := _box(model, size)) is not None and model.model.model in renderer.models.md3]
    if not shown:
        return
    fbo = ctx.fbo
    target = ctx.viewport   # the target's pixels in the framebuffer (a multiview pane's are a part of it)
    left, bottom = target[0], target[1]

    def bind(i: int) -> None:
        model, (x, y, w, h) = shown[i]
        box = (left + x, bottom + y, w, h)
        mask = fbo.color_mask
        fbo.color_mask = (False, False, False, False)
        fbo.depth_mask = True
        fbo.clear(depth=1.0, viewport=box)
        fbo.color_mask = mask
        rebind(ctx)
        # the projection spans the whole box: a box cut by the screen's edge keeps its picture where it was
        ctx.viewport = (left + model.x, bottom + size[1] - model.y - model.h, model.w, model.h)
        ctx.scissor = box

    views = [Q3View(icon_projection(model.fov_x, model.fov_y), (0.0, 0.0, 0.0), time) for model, _ in shown]
    renderer.draw_apart([model.model for model, _ in shown], views, bind)
    ctx.scissor = None
    ctx.viewport = target
