"""One picture of a demo, composed the same way in the window and headless (screenshots, timedemo, video frames):
the scene at a time seen by a camera, the viewer's overrides applied to it, drawn into a target, then the game's HUD
over it.

References: QuakeSpasm ``gl_screen.c`` ``SCR_UpdateScreen`` (the 3D view, then ``Sbar_Draw`` over it), Quake III
``cl_scrn.c`` ``SCR_DrawScreenField`` (``CG_DrawActiveFrame``: the scene, then the 2D HUD).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from assets_loader.demos import SceneState
from assets_loader.demos.entity_eyes import derived_eye

from .render.context import OffscreenTarget
from .render.hud_overlay import HudRenderer
from .render.refdef import Camera, HudLayout, SceneFrame
from .session import DemoSession
from .ui.timeline_bar import ui_scale


@dataclass(frozen=True, slots=True)
class Overrides:
    """What the viewer changes in the game's picture: ``water_alpha`` (``None``: each map's own liquid opacity,
    ``--wateralpha``), ``show_scores`` (the scoreboard over the HUD, Tab/F1 in the window)."""

    water_alpha: float | None = None
    show_scores: bool = False

    def apply(self, frame: SceneFrame) -> SceneFrame:
        """``frame`` with the overrides of the 3D view."""
        return frame if self.water_alpha is None else replace(frame, water_alpha=self.water_alpha)


@dataclass(frozen=True, slots=True)
class Picture:
    """What was drawn: the ``frame`` (the 3D view's description), the timeline ``state`` it came from, and the HUD
    ``layout`` drawn over it (``None`` without a HUD)."""

    frame: SceneFrame
    state: SceneState
    layout: HudLayout | None


def draw_picture(session: DemoSession, target: OffscreenTarget, t: float, camera: Camera | None = None,
                 fov: float = 90.0, pov: int | None = None, *, overrides: Overrides = Overrides(),
                 hud: HudRenderer | None = None, state: SceneState | None = None, ui: int | None = None) -> Picture:
    """Draw the picture at ``t`` into ``target``: from the recorder's eyes, or ``camera``; ``pov`` a player slot's eyes;
    ``hud``: the renderer of the game's HUD (``None``: none; for an eye derived from a player's entity,
    :func:`~assets_loader.demos.entity_eyes.derived_eye`, only their name: the recorder's numbers are not theirs);
    ``state``: ``session.timeline.sample(t, pov=pov)`` when the caller already has it; ``ui``: the HUD's scale
    (``None``: :func:`~viewer.ui.timeline_bar.ui_scale` of the target; a multiview pane's is its own)."""
    if state is None:
        state = session.timeline.sample(t, pov=pov)
    frame = overrides.apply(session.scene(t, camera, fov, pov=pov, state=state))
    session.draw(frame, target)
    if hud is None:
        layout = None
    elif derived_eye(session.timeline, state):
        layout = draw_watching(session, target, state, hud, ui)
    else:
        layout = draw_hud(session, target, state, hud, overrides.show_scores, ui)
    return Picture(frame, state, layout)


def draw_watching(session: DemoSession, target: OffscreenTarget, state: SceneState, hud: HudRenderer,
                  ui: int | None = None) -> HudLayout:
    """The HUD of an eye derived from a player's entity over ``target``: only that player's name (the game's
    :meth:`~viewer.games.base.GameView.watching_layout`), none of the recorder's numbers; ``ui``: its scale."""
    size = target.size
    board = state.scoreboard
    name = board[state.pov].name if 0 <= state.pov < len(board) else ""
    layout = session.game.watching_layout(name, size, ui_scale(size) if ui is None else ui, pic_sizes=hud.pic_size)
    target.use()
    hud.draw(layout, size)
    return layout


def draw_hud(session: DemoSession, target: OffscreenTarget, state: SceneState, hud: HudRenderer,
             show_scores: bool = False, ui: int | None = None) -> HudLayout:
    """Draw the game's HUD for ``state`` over ``target`` (its 3D models, then its pictures and text) and return
    its layout; ``show_scores``: with the scoreboard; ``ui``: its scale (``None``: the target's ``ui_scale``)."""
    size = target.size
    renderer = session.renderer
    scale = ui_scale(size) if ui is None else ui
    layout = session.hud_layout(state, size, scale, show_scores, hud.pic_size)
    target.use()
    if renderer is not None:
        renderer.draw_hud_models(layout.models, size, state.time)
    hud.draw(layout, size)
    return layout
