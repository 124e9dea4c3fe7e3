"""Entities outside the view frustum are skipped before any GL work, without changing the picture."""

from __future__ import annotations

import numpy as np

from assets_loader.demos import load_demo
from tests.conftest import LQ1, QUAKEWORLD
from viewer.headless import DemoRenderer
from viewer.render.bsp import renderer as bsp_renderer
from viewer.render.bsp.alias import AliasRenderer
from viewer.render.bsp.world import WorldRenderer
from viewer.session import game_filesystem


def _frames_and_draw_counts(monkeypatch, path, basedir, cull: bool) -> tuple[list[np.ndarray], int, int]:
    """Pictures of the demo at a few times, how many alias models and how many whole-BSP models (Quake's b_*.bsp
    item boxes, drawn as submodel 0) were drawn, with culling on or off (off: no frustum planes)."""
    if not cull:
        monkeypatch.setattr(bsp_renderer, "frustum_planes", lambda view_proj: np.zeros((0, 4)) + 1.0)
    drawn = [0]
    original = AliasRenderer.draw

    def counting(self, *args, **kwargs):
        drawn[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(AliasRenderer, "draw", counting)
    brushes = [0]
    original_brushes = WorldRenderer.draw_brushes

    def counting_brushes(self, view, draws):
        brushes[0] += sum(1 for d in draws if d.submodel == 0)
        return original_brushes(self, view, draws)

    monkeypatch.setattr(WorldRenderer, "draw_brushes", counting_brushes)
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
    return pictures, drawn[0], brushes[0]


def test_culling_skips_models_behind_the_camera_and_keeps_every_picture(monkeypatch) -> None:
    for path, basedir, skips in ((QUAKEWORLD / "lq_lqdm2_mvd.mvd", QUAKEWORLD, True), (LQ1 / "demo3.dem", None, False)):
        culled, culled_draws, culled_boxes = _frames_and_draw_counts(monkeypatch, path, basedir, cull=True)
        full, full_draws, full_boxes = _frames_and_draw_counts(monkeypatch, path, basedir, cull=False)
        assert culled_draws < full_draws if skips else culled_draws <= full_draws, path.name
        assert culled_boxes < full_boxes if skips else culled_boxes <= full_boxes, path.name
        for a, b in zip(culled, full):
            assert np.array_equal(a, b), path.name
