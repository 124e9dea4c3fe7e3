"""HUD drawing on Mesa llvmpipe: the real gfx.wad status bar at the bottom of a 640×480 frame, conchars glyphs,
fills, tiles and the missing-picture placeholder."""

from __future__ import annotations

from types import MappingProxyType

import numpy as np
import pytest

from assets_loader.demos.schema import STAT_NAMES
from assets_loader.demos.timeline import EntityStates, SceneState
from assets_loader.palette import load_palette
from assets_loader.vfs import VirtualFS
from assets_loader.wad2 import load_wad
from tests.conftest import LQ1
from viewer.games.quake.hud import IT_ARMOR1, IT_AXE, IT_SHELLS, IT_SHOTGUN, build_hud
from viewer.games.quake.hud_pics import load_hud_pics
from viewer.render.context import OffscreenTarget
from viewer.render.hud_overlay import HudRenderer
from viewer.render.refdef import HudLayout, HudQuad

SIZE = (640, 480)
GREY = (128, 128, 128)


@pytest.fixture(scope="module")
def wad(lq1_pak):
    return load_wad(lq1_pak.read("gfx.wad"), "gfx.wad")


@pytest.fixture(scope="module")
def renderer(ctx, lq1_pak):
    r = HudRenderer(ctx, load_palette(lq1_pak.read("gfx/palette.lmp")), load_hud_pics(VirtualFS(LQ1.parent, "lq1")))
    yield r
    r.release()


@pytest.fixture()
def target(ctx):
    t = OffscreenTarget(ctx, SIZE)
    yield t
    t.release()


def _state() -> SceneState:
    stats = dict.fromkeys(STAT_NAMES, 0)
    stats.update(health=100, armor=50, shells=25, ammo=25, activeweapon=IT_SHOTGUN,
                 items=IT_SHOTGUN | IT_AXE | IT_SHELLS | IT_ARMOR1)
    empty = EntityStates.empty()
    return SceneState(10.0, 0, 0, 1.0, 1, np.zeros(3), np.zeros(3), empty, empty, MappingProxyType(stats),
                      ("",) * 64, ())


def _draw(ctx, target, renderer, layout: HudLayout) -> np.ndarray:
    target.use()
    ctx.clear(GREY[0] / 255, GREY[1] / 255, GREY[2] / 255, 1.0)
    renderer.draw(layout, SIZE)
    return target.read_rgb().astype(int)


def _changed(px: np.ndarray) -> np.ndarray:
    return np.abs(px - np.array(GREY)).sum(axis=-1) > 6


def test_status_bar_fills_the_bottom_and_leaves_the_top(ctx, target, renderer, wad) -> None:
    layout = build_hud(_state(), (), SIZE, 2, pic_sizes=renderer.pic_size)
    px = _draw(ctx, target, renderer, layout)
    changed = _changed(px)
    bar_rows = changed[SIZE[1] - 96:]
    assert bar_rows.mean() > 0.9                   # sbar + ibar cover the bottom 96 rows (48 virtual)
    assert not changed[:SIZE[1] - 96].any()        # nothing above: no events, no text
    # the sbar picture itself, pixel-exact at scale 2 (top-left texel of "sbar" at virtual (0, 24))
    sbar = wad.pic("sbar")
    expected = renderer.palette.rgb[sbar.indices[0, 0]]
    if sbar.indices[0, 0] != 255:
        assert np.abs(px[SIZE[1] - 48, 0] - expected).max() <= 1


def test_status_bar_matches_the_wad_pictures(ctx, target, renderer, wad) -> None:
    layout = build_hud(_state(), (), SIZE, 2)
    px = _draw(ctx, target, renderer, layout)
    # health "100": num_1 drawn at virtual (136, 24) → screen (272, 432), 2×2 pixels per texel
    num = wad.pic("num_1")
    region = px[432:432 + 48:2, 272:272 + 48:2]
    opaque = num.indices != 255
    colours = renderer.palette.rgb[num.indices].astype(int)
    assert np.abs(region[opaque] - colours[opaque]).max() <= 1


def test_text_draws_conchars_glyph_pixels(ctx, target, renderer, wad) -> None:
    scale = 4
    layout = HudLayout(SIZE, scale, (HudQuad("char", ord("A"), 40, 40, 8 * scale, 8 * scale),
                                     HudQuad("char", ord("A") | 128, 80, 40, 8 * scale, 8 * scale)))
    px = _draw(ctx, target, renderer, layout)
    font = wad.conchars().indices
    for code, x in ((ord("A"), 40), (ord("A") | 128, 80)):
        glyph = font[(code >> 4) * 8:(code >> 4) * 8 + 8, (code & 15) * 8:(code & 15) * 8 + 8]
        region = px[40:40 + 32:scale, x:x + 32:scale]
        ink = glyph != 0
        assert ink.any()
        assert np.abs(region[ink] - renderer.palette.rgb[glyph[ink]].astype(int)).max() <= 1
        assert (region[~ink] == GREY).all()        # index 0 is transparent
    assert not _changed(px)[:, 120:].any() and not _changed(px)[80:].any()


def test_fill_tile_and_placeholder(ctx, target, renderer, wad) -> None:
    layout = HudLayout(SIZE, 1, (HudQuad("fill", 4 * 16 + 8, 0, 0, 10, 10),
                                 HudQuad("tile", "backtile", 100, 100, 300, 300),
                                 HudQuad("pic", "no_such_pic", 500, 0, 20, 20)))
    px = _draw(ctx, target, renderer, layout)
    assert (np.abs(px[:10, :10] - renderer.palette.rgb[4 * 16 + 8]) <= 1).all()
    tile = wad.pic("backtile")
    th, tw = tile.indices.shape
    expected = renderer.palette.rgb[tile.indices[(np.arange(100, 400) % th)][:, np.arange(100, 400) % tw]]
    assert np.abs(px[100:400, 100:400] - expected).max() <= 1      # anchored at the screen origin, wrapped
    assert _changed(px[:20, 500:520]).all()                           # a visible placeholder
    assert renderer.pic_size("no_such_pic") is None
    assert renderer.pic_size("gfx/inter.lmp") == (160, 144)


def test_hud_pictures_come_from_the_wad_and_the_lmp_files() -> None:
    pics = load_hud_pics(VirtualFS(LQ1.parent, "lq1"))
    assert {"sbar", "num_1", "backtile", "conchars", "gfx/inter.lmp"} <= set(pics)
    assert (pics["conchars"].width, pics["conchars"].height) == (128, 128)
    assert "palette" not in pics and "colormap" not in pics          # only pictures


def test_a_broken_hud_picture_is_left_out_with_a_warning(tmp_path) -> None:
    from tests.builders.images import build_qpic, build_wad
    from tests.builders.pak import build_pak

    good = build_qpic(np.full((2, 3), 7, np.uint8))
    (tmp_path / "id1").mkdir()
    (tmp_path / "id1" / "pak0.pak").write_bytes(build_pak({
        "gfx.wad": build_wad([("sbar", "B", good), ("num_1", "B", good[:5])]),
        "gfx/inter.lmp": b"\x01"}))
    with pytest.warns(UserWarning) as caught:
        pics = load_hud_pics(VirtualFS(tmp_path))
    assert set(pics) == {"sbar"} and (pics["sbar"].width, pics["sbar"].height) == (3, 2)
    messages = " ".join(str(w.message) for w in caught)
    assert "num_1" in messages and "gfx/inter.lmp" in messages
