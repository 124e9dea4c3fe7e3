"""Entities outside the view frustum are skipped before any GL work, without changing the picture."""

from __future__ import annotations

import numpy as np

from assets_loader.demos import load_demo
from tests.conftest import LQ1, QUAKEWORLD
from viewer.headless import DemoRenderer
from viewer.render import frame as frame_module
from viewer.render.alias import AliasRenderer
from viewer.session import game_filesystem


def _frames_and_draw_counts(monkeypatch, path, basedir, cull: bool) -> tuple[list[np.ndarray], int]:
    """Pictures of the demo at a few times and how many alias models were drawn, with culling on or off (off:
    no frustum planes)."""
    if not cull:
        monkeypatch.setattr(frame_module, "frustum_planes", lambda view_proj: np.zeros((0, 4)) + 1.0)
    drawn = [0]
    original = AliasRenderer.draw

    def counting(self, *args, **kwargs):
        drawn[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(AliasRenderer, "draw", counting)
    timeline = load_demo(path)
    renderer = DemoRenderer(timeline, game_filesystem(str(path), str(basedir) if basedir else None, None), (160, 90))
    pictures = []
    try:
        for fraction in np.linspace(0.1, 0.9, 9):
            renderer.render(renderer.scene(timeline.start_time + float(fraction) * timeline.duration))
            pictures.append(renderer.target.read_rgb())
    finally:
        renderer.release()
        monkeypatch.undo()
    return pictures, drawn[0]


def test_culling_skips_models_behind_the_camera_and_keeps_every_picture(monkeypatch) -> None:
    for path, basedir, skips in ((QUAKEWORLD / "lq_lqdm2_mvd.mvd", QUAKEWORLD, True), (LQ1 / "demo3.dem", None, False)):
        culled, culled_draws = _frames_and_draw_counts(monkeypatch, path, basedir, cull=True)
        full, full_draws = _frames_and_draw_counts(monkeypatch, path, basedir, cull=False)
        assert culled_draws < full_draws if skips else culled_draws <= full_draws, path.name
        for a, b in zip(culled, full):
            assert np.array_equal(a, b), path.name
