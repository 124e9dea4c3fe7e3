"""Quake II HUD pictures (viewer/games/quake2/hud_pics.py, fallback_pics.py): AQtion's pak has no font and no big
digits, so the LibreQuake sample's stand in, in the Quake II palette, with one warning; a game dir's own win."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from PIL import Image as PilImage

from assets_loader.errors import FormatError
from assets_loader.images import Image
from assets_loader.vfs import VirtualFS
from tests.builders.quake2_images import build_pcx, ramp_palette
from tests.conftest import QUAKE2
from viewer.cli import main
from viewer.games.quake2 import assets, fallback_pics, hud, hud_pics
from viewer.session import game_filesystem


def _aqtion_pics() -> tuple[dict[str, Image], list[str]]:
    fs = game_filesystem(None, str(QUAKE2), "action")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pics = hud_pics.load_hud_pics(fs)
    return pics, [str(w.message) for w in caught]


def test_aqtion_gets_the_sample_font_and_digits_with_one_warning() -> None:
    pics, said = _aqtion_pics()
    assert [m for m in said if "LibreQuake" in m] == [
        "the game dirs lack pics/conchars.pcx and 22 digit pictures; the HUD uses the LibreQuake sample's font and "
        "digits"]
    font = pics["conchars"]
    assert isinstance(font, Image) and (font.width, font.height) == (128, 128)
    for name in hud.digit_pics(0) + hud.digit_pics(1):
        digit = pics[name]
        assert (digit.width, digit.height) == (hud.DIGIT_WIDTH, 24), name
        assert (digit.indices == 255).any() and (digit.indices != 255).any(), name
    # the pak's own pictures are there: the health icon as its 48×48 PNG replacement at the PCX's 24×24, with
    # its own alpha (Q2PRO's r_override_textures: no grey box around the cross)
    health = pics["i_health"]
    assert isinstance(health, np.ndarray) and health.shape == (24, 24, 4)
    assert health[0, 0, 3] == 0 and health[12, 12, 3] == 255 and health[12, 12, 0] > 150 > health[12, 12, 1]


def test_the_stand_in_font_keeps_its_glyphs_transparent_around_them_and_the_alternate_half_green() -> None:
    pics, _ = _aqtion_pics()
    palette = assets.load_palette(game_filesystem(None, str(QUAKE2), "action"))
    font = pics["conchars"].indices

    def glyph(code: int) -> np.ndarray:
        return font[(code >> 4) * 8:(code >> 4) * 8 + 8, (code & 15) * 8:(code & 15) * 8 + 8]

    a, alt_a = glyph(ord("A")), glyph(ord("A") | 0x80)
    assert np.array_equal(a == 0, alt_a == 0)                 # same shape, index 0 around it (Draw_Init)
    assert 8 < int((a != 0).sum()) < 64
    assert (glyph(ord(" ")) == 0).all()
    plain = palette.rgb[a[a != 0]].astype(int)
    green = palette.rgb[alt_a[alt_a != 0]].astype(int)
    assert (np.abs(plain[:, 0] - plain[:, 1]) < 40).all()   # grey-white text
    assert (green[:, 1] > green[:, 0]).all() and (green[:, 1] > green[:, 2]).all()


def test_a_game_dirs_own_font_and_digits_win_without_a_warning(tmp_path) -> None:
    pics_dir = tmp_path / "baseq2" / "pics"
    pics_dir.mkdir(parents=True)
    (pics_dir / "colormap.pcx").write_bytes(build_pcx(np.zeros((4, 4), np.uint8), ramp_palette()))
    font = np.full((128, 128), 255, np.uint8)
    font[0:8, 8:16] = 7
    (pics_dir / "conchars.pcx").write_bytes(build_pcx(font, ramp_palette()))
    for name in hud.digit_pics(0) + hud.digit_pics(1):
        (pics_dir / f"{name}.pcx").write_bytes(build_pcx(np.full((24, 24), 3, np.uint8), ramp_palette()))
    fs = VirtualFS(str(tmp_path), None, base="baseq2")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pics = hud_pics.load_hud_pics(fs)
    assert pics["conchars"].indices[0, 8] == 7 and pics["conchars"].indices[0, 0] == 0   # 255 → 0
    assert (pics["num_3"].width, int(pics["num_3"].indices[0, 0])) == (24, 3)


def test_a_truecolour_replacement_wins_over_the_pcx_at_its_size(tmp_path) -> None:
    """Q2PRO tries .png, .jpg, .tga before a .pcx and draws the replacement at the .pcx's size; a replacement with
    no .pcx keeps its own size; the font stays the .pcx."""
    pics_dir = tmp_path / "baseq2" / "pics"
    pics_dir.mkdir(parents=True)
    (pics_dir / "colormap.pcx").write_bytes(build_pcx(np.zeros((4, 4), np.uint8), ramp_palette()))
    (pics_dir / "conchars.pcx").write_bytes(build_pcx(np.full((128, 128), 255, np.uint8), ramp_palette()))
    (pics_dir / "conchars.png").write_bytes(b"not read")
    for name in hud.digit_pics(0) + hud.digit_pics(1):
        (pics_dir / f"{name}.pcx").write_bytes(build_pcx(np.full((24, 24), 3, np.uint8), ramp_palette()))
    (pics_dir / "w_gun.pcx").write_bytes(build_pcx(np.full((24, 24), 3, np.uint8), ramp_palette()))
    big = np.zeros((96, 96, 4), np.uint8)
    big[:48, :, :] = (200, 100, 0, 255)
    PilImage.fromarray(big).save(pics_dir / "w_gun.png")
    PilImage.fromarray(big[:10, :20]).save(pics_dir / "w_gun.tga")            # .png is tried first
    PilImage.fromarray(big[:32, :16]).save(pics_dir / "only_png.png")
    fs = VirtualFS(str(tmp_path), None, base="baseq2")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pics = hud_pics.load_hud_pics(fs)
    gun = pics["w_gun"]
    assert isinstance(gun, np.ndarray) and gun.shape == (24, 24, 4)
    assert gun[0, 0].tolist() == [200, 100, 0, 255] and gun[23, 0, 3] == 0
    assert pics["only_png"].shape == (32, 16, 4)
    assert isinstance(pics["conchars"], Image)


def test_only_the_missing_pictures_are_stood_in(tmp_path) -> None:
    pics_dir = tmp_path / "baseq2" / "pics"
    pics_dir.mkdir(parents=True)
    (pics_dir / "colormap.pcx").write_bytes(build_pcx(np.zeros((4, 4), np.uint8), ramp_palette()))
    (pics_dir / "num_0.pcx").write_bytes(build_pcx(np.full((24, 24), 3, np.uint8), ramp_palette()))
    fs = VirtualFS(str(tmp_path), None, base="baseq2")
    with pytest.warns(UserWarning, match="lack pics/conchars.pcx and 21 digit pictures"):
        pics = hud_pics.load_hud_pics(fs)
    assert pics["num_0"].width == 24 and pics["num_1"].width == hud.DIGIT_WIDTH
    assert set(fallback_pics.FALLBACK_NAMES) <= set(pics)


def test_an_unreadable_sample_pak_is_an_error_the_loader_can_catch(tmp_path) -> None:
    palette = assets.load_palette(game_filesystem(None, str(QUAKE2), "action"))
    (tmp_path / "bad.pak").write_bytes(b"PACK" + bytes(4))
    with pytest.raises(FormatError):
        fallback_pics.fallback_pics(["conchars"], palette, str(tmp_path / "bad.pak"))
    with pytest.raises(OSError):
        fallback_pics.fallback_pics(["conchars"], palette, str(tmp_path / "none.pak"))
    assert fallback_pics.fallback_pics(["i_health"], palette, str(tmp_path / "none.pak")) == {}


def test_aqtion_screenshots_draw_the_status_bar_numbers_and_the_chat_line(tmp_path) -> None:
    """At 25.0 s the guide's chat line (24.2 s) is on the notify lines; health 100 and ammo 12 on the status bar.
    Nothing of the HUD is the magenta/black placeholder any more."""
    out = tmp_path / "guide.png"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # the pak lacks some models on purpose (SOURCES.md)
        code = main(["screenshot", str(QUAKE2 / "demos" / "AQtion-demo-guide.dm2"), "--basedir", str(QUAKE2),
                     "--time", "25", "--size", "640x480", "--out", str(out)])
    assert code == 0
    rgb = np.asarray(PilImage.open(out).convert("RGB")).astype(int)
    magenta = (rgb[..., 0] > 200) & (rgb[..., 1] < 40) & (rgb[..., 2] > 200)
    assert not magenta[-48:].any() and not magenta[:16].any()
    # the notify line: light text across most of the top row of characters
    top = rgb[:8].max(axis=2) > 150
    assert top[:, 8:600].any(axis=0).sum() > 200
    # the status bar: gold digits left of the health icon (xv 0 hnum, 3 digits 16 apart from x + 2)
    x0 = 640 // 2 - 160
    digits = rgb[480 - 24:, x0 + 2:x0 + 2 + 48]
    gold = (digits[..., 0] > 120) & (digits[..., 0] > digits[..., 2] + 60)
    assert gold[:, :16].any() and gold[:, 16:32].any() and gold[:, 32:48].any()
