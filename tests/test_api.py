"""The public Python API re-exported from ``assets_loader`` (README "Python API")."""

from __future__ import annotations

import assets_loader as qa
from tests.conftest import LQ1, QUAKE1


def test_readme_example_runs() -> None:
    timeline = qa.load_demo(LQ1 / "demo3.dem")
    state = timeline.sample(15.0 + timeline.start_time)
    assert state.view_origin.shape == (3,) and len(state.entities) > 0


def test_loaders_take_bytes_or_paths() -> None:
    fs = qa.VirtualFS(QUAKE1, "lq1")
    assert qa.load_mdl(fs.read("progs/player.mdl")).num_frames == qa.load_mdl(
        fs.read("progs/player.mdl"), name="player.mdl").num_frames
    assert qa.load_bsp(fs.read("maps/b_bh25.bsp")).num_models >= 1
    assert len(qa.load_wad(fs.read("gfx.wad")).lumps) == 149
    assert len(qa.load_pak(LQ1 / "pak0.pak").entries) == 299
