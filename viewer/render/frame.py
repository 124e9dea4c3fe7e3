"""Draw a :class:`~viewer.render.refdef.SceneFrame` into an offscreen target: what every game shares around the
backend that draws the segment's world and models (:mod:`.backend`).

The target is cleared (black, or the placeholder's sky when the map is missing), the placeholder floor drawn under
everything when the map is missing (:mod:`.grid_floor`), the view's projection worked out with the game's fov rule
and underwater warp, the backend draws the 3D view, the frame's lines (trails, :mod:`.lines`) go into it and the
screen blend (``V_CalcBlend``) over it.

References: QuakeSpasm ``gl_rmain.c`` ``R_RenderView``, ``R_PolyBlend``; Quake II ``ref.h`` (``refexport_t``).
"""

from __future__ import annotations

from collections.abc import Sequence

import moderngl

from .backend import Backend, FrameView, SharedDrawing
from .bsp.records import BspSegment
from .bsp.renderer import BspBackend
from .context import OffscreenTarget
from .gl_state import GlState, forget, use_state
from .grid_floor import SKY as FLOOR_SKY, GridFloor
from .lines import LineRenderer
from .polyblend import PolyBlend
from .q3.records import Quake3Segment
from .q3.renderer import Quake3Backend
from .refdef import HudModel, SceneFrame, SegmentAssets
from .view_math import frame_view_projection

#: Quake clears to black; anything outside the map shows through as this.
CLEAR_COLOR = (0.0, 0.0, 0.0)


def backend_for(ctx: moderngl.Context, assets: SegmentAssets, shared: SharedDrawing,
                owns_assets: bool = False) -> Backend:
    """The backend that registers ``assets``: the one whose segment kind they are (a game registers its own);
    ``owns_assets``: nothing else will draw ``assets``, so their decoded images may be given up once uploaded."""
    if isinstance(assets, Quake3Segment):
        return Quake3Backend(ctx, assets, shared, owns_assets)
    if isinstance(assets, BspSegment):
        return BspBackend(ctx, assets, shared)
    raise TypeError(f"no backend draws {type(assets).__name__}")


class FrameRenderer:
    """GPU resources of one map segment and the drawing of whole frames (``owns_assets``: the renderer is the
    only one to draw ``assets``, :func:`backend_for`)."""

    def __init__(self, ctx: moderngl.Context, assets: SegmentAssets, owns_assets: bool = False) -> None:
        self.ctx = ctx
        self.assets = assets
        self.shared = SharedDrawing(ctx, assets.palette)
        self.backend = backend_for(ctx, assets, self.shared, owns_assets)
        self.floor = GridFloor(ctx, assets.floor) if assets.floor is not None else None
        self._polyblend: PolyBlend | None = None   # made on the first screen blend
        self._lines: LineRenderer | None = None     # made on the first frame with lines (trails)

    def release(self) -> None:
        self.backend.release()
        self.shared.release()
        if self.floor is not None:
            self.floor.release()
        if self._polyblend is not None:
            self._polyblend.release()
        if self._lines is not None:
            self._lines.release()

    def draw(self, frame: SceneFrame, target: OffscreenTarget) -> None:
        """Render ``frame`` into ``target`` (cleared first)."""
        target.use()
        forget(self.ctx)   # whatever drew before this frame (the window's own GL) starts from a known state
        use_state(self.ctx, GlState())   # the depth buffer is cleared only where depth writes are on
        self.ctx.clear(*(CLEAR_COLOR if self.floor is None else FLOOR_SKY), depth=1.0, viewport=target.viewport)
        view_proj = frame_view_projection(frame, self.assets.look, target.size)
        if self.floor is not None:
            self.floor.draw(view_proj, frame.camera.origin)
        self.backend.draw(frame, FrameView(view_proj, target.size))
        if frame.lines is not None:
            if self._lines is None:
                self._lines = LineRenderer(self.ctx)
            self._lines.draw(frame.lines, view_proj)
        if frame.blend is not None:
            if self._polyblend is None:
                self._polyblend = PolyBlend(self.ctx)
            self._polyblend.draw(frame.blend)

    def draw_hud_models(self, models: Sequence[HudModel], size: tuple[int, int], time: float) -> None:
        """The HUD's 3D models (:mod:`.shaded.hud_models`) over the bound framebuffer of ``size`` pixels, at shader
        time ``time``."""
        self.backend.draw_hud_models(models, size, time)
