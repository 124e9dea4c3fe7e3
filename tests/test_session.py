"""The open-demo session: each map segment's assets are loaded when a frame of it is first drawn, the previous
segment's are released, and switching back loads them again; the window and headless rendering share it."""

from __future__ import annotations

import pytest

from assets_loader.demos import load_demo
from assets_loader.pak import load_pak
from assets_loader.vfs import VirtualFS
from tests.builders.dem import DemWriter
from tests.builders.pak import build_pak
from tests.conftest import LQ1
from viewer.games.quake.assets import load_map_assets
from viewer.cameras import map_start_camera
from viewer.render.context import OffscreenTarget
from viewer.session import DemoSession

MODELS = ["progs/player.mdl"]


def _two_maps():
    w = DemWriter()
    w.block(w.serverinfo("maps/lqdm3.bsp", MODELS), w.setview(1))
    w.block(w.time(1.0), w.update(entity=2, model=2, origin=(0, 0, 0)))
    w.block(w.time(2.0), w.update(entity=2, model=2, origin=(0, 0, 0)))
    w.block(w.serverinfo("maps/gone.bsp", MODELS), w.setview(1))
    w.block(w.time(0.5), w.update(entity=2, model=2, origin=(0, 0, 0)))
    w.block(w.time(1.5), w.update(entity=2, model=2, origin=(0, 0, 0)))
    return load_demo(w.build())


def test_segments_load_on_first_use_and_release_the_previous(ctx) -> None:
    timeline = _two_maps()
    session = DemoSession(timeline, VirtualFS(LQ1.parent, "lq1"), ctx)
    target = OffscreenTarget(ctx, (32, 18))
    try:
        assert session.segment == -1 and session.world is None
        first = session.scene(timeline.times[1])
        assert first.segment == 0 and session.segment == 0 and session.world is not None
        renderer = session.renderer
        session.draw(session.scene(timeline.times[0]), target)
        assert session.renderer is renderer                   # same segment: nothing reloaded
        with pytest.warns(UserWarning, match="maps/gone.bsp"):
            second = session.scene(timeline.times[-1])
        assert second.segment == 1 and session.segment == 1 and session.world is None
        assert session.renderer is not renderer
        session.draw(first, target)                           # drawing a frame of segment 0 switches back
        assert session.segment == 0 and session.world is not None
        assert first.models and {d.model for d in first.models} <= {2}
    finally:
        session.release()
        target.release()


def test_map_start_camera_stands_at_the_player_start() -> None:
    fs = VirtualFS(LQ1.parent, "lq1")
    assets = load_map_assets(fs, "maps/lqdm3.bsp")
    assert assets.models == () and assets.palette.rgb.shape == (256, 3)
    camera = map_start_camera(assets.world, fov=100.0)
    starts = [e for e in assets.world.entities if e.get("classname", "").startswith("info_player")]
    origins = [tuple(float(v) for v in e["origin"].split()) for e in starts]
    assert (camera.origin[0], camera.origin[1], camera.origin[2] - 22.0) in origins
    assert camera.fov == 100.0 and camera.angles[0] == 0.0


def test_a_map_with_a_malformed_player_start_is_seen_from_its_middle(tmp_path) -> None:
    real = load_pak(LQ1 / "pak0.pak")
    (tmp_path / "id1").mkdir()
    (tmp_path / "id1" / "pak0.pak").write_bytes(build_pak({"gfx/palette.lmp": real.read("gfx/palette.lmp")}))
    from tests.builders.bsp import build_bsp

    (tmp_path / "id1" / "maps").mkdir()
    (tmp_path / "id1" / "maps" / "box.bsp").write_bytes(
        build_bsp(entities='{\n"classname" "worldspawn"\n}\n{\n"classname" "info_player_start"\n"origin" "1 2"\n}\n'))
    world = load_map_assets(VirtualFS(tmp_path), "maps/box.bsp").world
    mins, maxs = world.bounds
    camera = map_start_camera(world)
    assert camera.origin == pytest.approx(tuple((mins + maxs) / 2)) and camera.angles == (0.0, 0.0, 0.0)
