"""Drawing a multiview frame: each pane's picture (:func:`~viewer.picture.draw_picture`, its HUD at the pane's
scale) drawn straight into its rectangle of the frame's target (:meth:`~viewer.render.context.OffscreenTarget.region`:
the pane's own viewport, so the projection is the pane's, the renderer taking its aspect ratio from the target it
draws into).

Into the frame rather than into a texture per pane copied over afterwards: on Mesa's llvmpipe, sampling a texture
that was drawn into makes the driver first finish everything queued, so the copies kept the next frame's Python
from running beside the rasterizer (four panes at 1280×720: Quake III 29 frames a second with the copies, 35–37
without them; Quake II 48–49 and 57–60).

The frame's background (seen in the gaps between split panes and around insets) is :data:`BORDER`; the selected
pane (in the window) is framed in :data:`HIGHLIGHT`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from assets_loader.demos import SceneState

from ..picture import Overrides, Picture, draw_picture
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


def _outline(frame: OffscreenTarget, rect: Rect, color: tuple[float, float, float], width: int) -> None:
    """A ``width`` pixels frame in ``color`` along the edges of ``rect`` of ``frame`` (half outside, in the gap or
    around an inset; half over the pane), drawn as four scissored clears."""
    out = GAP // 2
    x, y, w, h = rect.x - out, rect.y - out, rect.w + 2 * out, rect.h + 2 * out
    left, bottom, _, height = frame.viewport
    for sx, sy, sw, sh in ((x, y, w, width), (x, y + h - width, w, width), (x, y, width, h),
                           (x + w - width, y, width, h)):
        frame.fbo.clear(*color, 1.0, viewport=(left + sx, bottom + height - sy - sh, sw, sh))


def draw_panes(session: DemoSession, frame: OffscreenTarget, t: float, views: Sequence[PaneView],
               rects: Sequence[Rect], *, overrides: Overrides = NO_OVERRIDES, hud: HudRenderer | None = None,
               selected: int | None = None, after_picture: PaneHook | None = None) -> list[Picture]:
    """Draw the picture at ``t`` of each pane (``views[i]`` into ``rects[i]`` of ``frame``, over the :data:`BORDER`
    background; an inset, a pane over the first one, framed in it); ``hud``: each pane's HUD at its
    :func:`~.layout.pane_ui_scale`; ``selected``: the pane framed as chosen; ``after_picture``: drawn over each pane
    right after its picture (the per-pane overlays). The pictures, in pane order."""
    frame.use()
    frame.fbo.clear(*BORDER, 1.0, depth=1.0, viewport=frame.viewport)
    pictures = []
    for i, (view, rect) in enumerate(zip(views, rects)):
        if i > 0 and rects[0].contains(rect.x, rect.y):     # an inset over the first pane
            _outline(frame, rect, BORDER, GAP)
        pane = frame.region(rect.x, rect.y, rect.w, rect.h)
        picture = draw_picture(session, pane, t, view.camera, view.fov, view.pov, overrides=overrides, hud=hud,
                               state=view.state, ui=pane_ui_scale(rect.size, frame.size))
        if after_picture is not None:
            after_picture(picture, pane)
        pictures.append(picture)
    if selected is not None and 0 <= selected < len(rects):
        _outline(frame, rects[selected], HIGHLIGHT, HIGHLIGHT_WIDTH)
    return pictures
