"""Drawing a multiview frame: each pane's picture (:func:`~viewer.picture.draw_picture`, its HUD at the pane's
scale) into an offscreen target of the pane's own size, then copied into its rectangle of the frame.

A target per pane rather than a viewport into the frame's target: the renderer, the HUD's 3D models and the
shader painter all draw over the whole bound framebuffer (clears, depth, ``ctx.fbo.size``), and the copy of four
panes into a 1280×720 frame costs llvmpipe about 2.5 ms of CPU (4.8 ms with linear filtering, hence
:meth:`PaneCanvas._target`), some 6 % of the frame (``benchmarks/bench_multiview.py``). The projection is the
pane's: the renderer takes its aspect ratio from the target it draws into.

The frame's background (seen in the gaps between split panes and around insets) is :data:`BORDER`; the selected
pane (in the window) is framed in :data:`HIGHLIGHT`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import moderngl

from assets_loader.demos import SceneState

from ..picture import Overrides, Picture, draw_picture
from ..render.blit import ScreenBlit
from ..render.context import OffscreenTarget
from ..render.hud_overlay import HudRenderer
from ..render.refdef import Camera
from ..session import DemoSession
from .layout import GAP, Rect, pane_ui_scale

#: The frame's colour between and around panes (r, g, b).
BORDER = (0.08, 0.08, 0.08)
#: The selected pane's frame in the window, and its width in pixels.
HIGHLIGHT = (0.95, 0.75, 0.2)
HIGHLIGHT_WIDTH = 3
#: What is drawn over a pane right after its picture (the overlays: names, x-ray, timers, minimap), given the
#: picture and the pane's target.
PaneHook = Callable[[Picture, OffscreenTarget], None]
#: The game's own picture (no viewer override).
NO_OVERRIDES = Overrides()


@dataclass(frozen=True, slots=True)
class PaneView:
    """What one pane shows at a time: from ``camera`` (``None``: the eyes of player slot ``pov``, or the recorder's)
    with ``fov``; ``state``: ``timeline.sample(t, pov=pov)`` when the caller has it."""

    camera: Camera | None
    fov: float = 90.0
    pov: int | None = None
    state: SceneState | None = None


class PaneCanvas:
    """The panes' offscreen targets (made again when a pane's size changes) and the copy into the frame."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self.targets: list[OffscreenTarget] = []
        self._blit = ScreenBlit(ctx)

    def targets_for(self, rects: Sequence[Rect]) -> list[OffscreenTarget]:
        """One target per rectangle, of its size (the ones already of that size kept)."""
        for i, rect in enumerate(rects):
            if i < len(self.targets) and self.targets[i].size != rect.size:
                self.targets[i].release()
                self.targets[i] = self._target(rect.size)
            elif i >= len(self.targets):
                self.targets.append(self._target(rect.size))
        for extra in self.targets[len(rects):]:
            extra.release()
        del self.targets[len(rects):]
        return self.targets

    def _target(self, size: tuple[int, int]) -> OffscreenTarget:
        """A pane's target: copied pixel for pixel, so sampled without filtering (cheaper on llvmpipe)."""
        target = OffscreenTarget(self.ctx, size)
        target.color.filter = (moderngl.NEAREST, moderngl.NEAREST)
        return target

    def compose(self, frame: OffscreenTarget, rects: Sequence[Rect], selected: int | None = None) -> None:
        """Copy each pane into its rectangle of ``frame`` over the :data:`BORDER` background, an inset (a pane over
        another) framed in it, the ``selected`` pane in :data:`HIGHLIGHT`."""
        frame.use()
        fbo, height = frame.fbo, frame.size[1]
        fbo.clear(*BORDER, 1.0, depth=1.0)
        for i, (rect, pane) in enumerate(zip(rects, self.targets)):
            if i > 0 and rects[0].contains(rect.x, rect.y):     # an inset over the first pane
                _outline(fbo, height, rect, BORDER, GAP)
            self._blit.draw(pane.color, (rect.x, height - rect.y - rect.h, rect.w, rect.h))
        if selected is not None and 0 <= selected < len(rects):
            _outline(fbo, height, rects[selected], HIGHLIGHT, HIGHLIGHT_WIDTH)

    def release(self) -> None:
        for target in self.targets:
            target.release()
        self.targets = []
        self._blit.release()


def _outline(fbo: moderngl.Framebuffer, height: int, rect: Rect, color: tuple[float, float, float], width: int) -> None:
    """A ``width`` pixels frame in ``color`` along the edges of ``rect`` (half outside, in the gap or around an
    inset; half over the pane), drawn as four scissored clears of ``fbo`` (``height`` rows)."""
    out = GAP // 2
    x, y, w, h = rect.x - out, rect.y - out, rect.w + 2 * out, rect.h + 2 * out
    for sx, sy, sw, sh in ((x, y, w, width), (x, y + h - width, w, width), (x, y, width, h),
                           (x + w - width, y, width, h)):
        fbo.clear(*color, 1.0, viewport=(sx, height - sy - sh, sw, sh))


def draw_panes(session: DemoSession, canvas: PaneCanvas, frame: OffscreenTarget, t: float, views: Sequence[PaneView],
               rects: Sequence[Rect], *, overrides: Overrides = NO_OVERRIDES, hud: HudRenderer | None = None,
               selected: int | None = None, after_picture: PaneHook | None = None) -> list[Picture]:
    """Draw the picture at ``t`` of each pane (``views[i]`` into ``rects[i]``) and compose them into ``frame``;
    ``hud``: each pane's HUD at its :func:`~.layout.pane_ui_scale`; ``selected``: the pane framed as chosen;
    ``after_picture``: drawn over each pane right after its picture (the per-pane overlays). The pictures, in pane
    order."""
    pictures = []
    for view, rect, pane in zip(views, rects, canvas.targets_for(rects)):
        picture = draw_picture(session, pane, t, view.camera, view.fov, view.pov, overrides=overrides, hud=hud,
                               state=view.state, ui=pane_ui_scale(rect.size, frame.size))
        if after_picture is not None:
            after_picture(picture, pane)
        pictures.append(picture)
    canvas.compose(frame, rects, selected)
    return pictures
