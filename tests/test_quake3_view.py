"""The Quake III game package: maps of IBSP 46 load through :class:`Quake3View` with a shader per batch, the CLI's
filesystem accepts the corpus layout and ``qdv screenshot --map oa_dm1`` draws it (this module has no shared GL
context: the CLI makes its own)."""

from __future__ import annotations

import numpy as np

from assets_loader.bsp46 import LIGHTMAP_BY_VERTEX
from viewer.cameras import map_start_camera
from viewer.games.quake3.view import Quake3View
from viewer.games.registry import game_view
from viewer.render.q3.records import Quake3Segment
from viewer.session import game_filesystem, map_game_view

from .conftest import QUAKE3


def test_ibsp46_maps_use_the_quake3_view() -> None:
    fs = game_filesystem(None, str(QUAKE3), "baseoa")
    assert isinstance(map_game_view(fs, "maps/oa_dm1.bsp"), Quake3View)
    assert game_view("quake3") is map_game_view(fs, "maps/oa_dm1.bsp")


def test_oa_dm1_loads_with_a_shader_and_images_per_batch(q3_fs) -> None:
    assets = Quake3View().load_map_assets(q3_fs, "maps/oa_dm1.bsp")
    q3 = assets.q3_world
    assert isinstance(assets, Quake3Segment) and q3 is not None and assets.game_map is q3.world
    assert len(q3.shaders) == len(q3.world.batches)
    for shader, batch in zip(q3.shaders, q3.world.batches, strict=True):
        assert shader.name == q3.world.shader_names[int(batch["shader"])].lower()
        for name in shader.image_names():
            image = q3.images[name.lower()]
            assert image.ndim == 3 and image.shape[2] == 4 and image.dtype == np.uint8
    soups = [s for s, b in zip(q3.shaders, q3.world.batches, strict=True)
             if int(b["lightmap"]) == LIGHTMAP_BY_VERTEX and not s.explicit]
    assert all(s.stages[0].rgb_gen == "exactvertex" for s in soups)
    lavas = [s for s in q3.shaders if s.name == "textures/liquids/lavahell"]
    assert lavas and lavas[0].deforms[0].kind == "wave"


def test_the_map_camera_starts_at_a_player_spawn(q3_fs) -> None:
    """oa_dm1 has an ``info_player_start`` (the game spawns it as a deathmatch spot) besides seven
    ``info_player_deathmatch``; the camera stands at the start, never at the intermission spot."""
    world = Quake3View().load_map_assets(q3_fs, "maps/oa_dm1.bsp").game_map
    camera = map_start_camera(world)
    start = next(e for e in world.entities if e.get("classname") == "info_player_start")
    x, y, z = (float(v) for v in start["origin"].split())
    assert camera.origin == (x, y, z + 22.0) and camera.angles[1] == float(start["angle"])


def test_the_palette_is_a_grey_ramp_and_the_hud_font_comes_from_bigchars(q3_fs) -> None:
    view = Quake3View()
    pics = view.load_hud_pics(q3_fs)
    font = pics["conchars"]
    assert (font.width, font.height) == (128, 128)
    assert font.indices[16:24, 0:8].max() == 0             # glyph 32 (space) is blank: transparent
    assert font.indices[32:40, 8:16].max() > 100           # glyph 'A' (65) is drawn
    assert np.array_equal(view.load_palette(q3_fs).rgb[:, 0], np.arange(256))


def test_oa_dm1_screenshot_from_the_player_start(tmp_path) -> None:
    from viewer.cli import main

    out = tmp_path / "oa_dm1.png"
    assert main(["screenshot", "--map", "oa_dm1", "--basedir", str(QUAKE3), "--game", "baseoa",
                 "--size", "320x180", "--out", str(out)]) == 0
    from PIL import Image

    pixels = np.asarray(Image.open(out).convert("RGB")).astype(np.int32)
    assert pixels.shape == (180, 320, 3)
    assert (pixels.sum(axis=2) > 0).mean() > 0.95   # walls and floor nearly everywhere (a few are black)
    assert 15 < pixels.mean() < 120
    assert pixels[..., 0].mean() > pixels[..., 2].mean()  # the brown-red gothic textures, lit
