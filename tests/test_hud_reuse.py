"""What the HUD keeps from one drawing to the next (issue #38): a layout drawn again after others gives the picture
a fresh renderer gives, and the panes of a multiview that share a player's sample share one layout, on the real
2on2 MVD."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from assets_loader.demos import load_demo
from tests.conftest import QUAKEWORLD
from viewer.render.context import OffscreenTarget
from viewer.render.hud_overlay import HudRenderer
from viewer.session import DemoSession, game_filesystem

MVD = QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd"
SIZE = (640, 360)


@pytest.fixture(scope="module")
def session(ctx):
    timeline = load_demo(str(MVD))
    fs = game_filesystem(str(MVD), None, None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = DemoSession(timeline, fs, ctx)
        s.use_segment(0)
    yield s
    s.release()


def _hud(session: DemoSession) -> HudRenderer:
    game = session.game
    with session.quiet():
        return HudRenderer(session.ctx, game.load_palette(session.fs), game.load_hud_pics(session.fs))


def _pixels(target: OffscreenTarget, hud: HudRenderer, layout) -> np.ndarray:
    target.use()
    target.fbo.clear(0.3, 0.3, 0.3, 1.0)
    hud.draw(layout, SIZE)
    return target.read_rgb()


def test_a_layout_drawn_again_after_others_is_the_fresh_picture(session, ctx) -> None:
    timeline = session.timeline
    start = timeline.start_time + 20.0
    layouts = [session.hud_layout(timeline.sample(start + dt, pov=pov), SIZE, 2)
               for dt in (0.0, 3.0) for pov in timeline.pov_slots[:2]]
    assert len({layout.quads for layout in layouts}) > 1          # the players' HUDs differ
    target = OffscreenTarget(ctx, SIZE)
    kept, fresh = _hud(session), None
    try:
        for layout in layouts + layouts[::-1]:                     # every layout again, from the vertex cache
            _pixels(target, kept, layout)
        for layout in layouts:
            again = _pixels(target, kept, layout)
            fresh = _hud(session)
            assert np.array_equal(again, _pixels(target, fresh, layout))
            fresh.release()
            fresh = None
    finally:
        for obj in (kept, fresh, target):
            if obj is not None:
                obj.release()


def test_panes_sharing_a_sample_share_its_layout(session) -> None:
    timeline = session.timeline
    t = timeline.start_time + 20.0
    slot, other = timeline.pov_slots[:2]
    state = timeline.sample(t, pov=slot)
    layout = session.hud_layout(state, SIZE, 2)
    assert session.hud_layout(state, SIZE, 2) is layout                  # the chase pane of the same player
    assert session.hud_layout(state, SIZE, 1) is not layout              # another scale is built anew
    again = session.hud_layout(timeline.sample(t, pov=slot), SIZE, 2)    # a new sample: built anew, equal
    assert again is not layout and again == layout
    assert session.hud_layout(timeline.sample(t, pov=other), SIZE, 2).quads != layout.quads
