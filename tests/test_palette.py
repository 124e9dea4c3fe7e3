"""Palette, colormap and player colour translation."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.errors import FormatError, TruncatedError
from assets_loader.palette import (BOTTOM_RANGE, TOP_RANGE, TRANSPARENT_INDEX, Colormap, Palette, load_colormap,
                                   load_palette, split_player_colors, translation_table)


def _palette_bytes() -> bytes:
    return bytes((i * 3 + c) % 256 for i in range(256) for c in range(3))


def test_palette_round_trip_and_rgba():
    pal = load_palette(_palette_bytes())
    assert pal.rgb.shape == (256, 3) and pal.rgb.dtype == np.uint8
    img = np.array([[0, 1], [255, 7]], np.uint8)
    rgba = pal.to_rgba(img)
    assert rgba.shape == (2, 2, 4)
    assert (rgba[..., 3] == 255).all()
    assert rgba[1, 1, :3].tolist() == [21, 22, 23]
    sprite = pal.to_rgba(img, alpha_index=TRANSPARENT_INDEX)
    assert sprite[1, 0, 3] == 0 and sprite[0, 0, 3] == 255


def test_fullbright_mask():
    mask = load_palette(_palette_bytes()).fullbright
    assert mask.sum() == 32 and mask[224] and not mask[223]


@pytest.mark.parametrize("size", [0, 767, 769, 1000])
def test_palette_bad_size(size):
    with pytest.raises(TruncatedError) as e:
        load_palette(bytes(size), name="pal.lmp")
    assert "pal.lmp" in str(e.value)


@pytest.mark.parametrize("extra", [0, 1])
def test_colormap_sizes(extra):
    data = bytes(range(256)) * 64 + bytes(extra)
    cm = load_colormap(data)
    assert cm.rows.shape == (64, 256)
    assert cm.shade(np.array([3, 4], np.uint8), 10).tolist() == [3, 4]


@pytest.mark.parametrize("size", [0, 16383, 16386])
def test_colormap_bad_size(size):
    with pytest.raises(FormatError):
        load_colormap(bytes(size))


def test_translation_forward_and_reversed():
    t = translation_table(2, 9)
    assert t.dtype == np.uint8 and t.shape == (256,)
    assert t[TOP_RANGE:TOP_RANGE + 16].tolist() == list(range(32, 48))           # colour 2 < 8: forward
    assert t[BOTTOM_RANGE:BOTTOM_RANGE + 16].tolist() == list(range(159, 143, -1))  # colour 9 >= 8: reversed
    untouched = np.ones(256, bool)
    untouched[TOP_RANGE:TOP_RANGE + 16] = untouched[BOTTOM_RANGE:BOTTOM_RANGE + 16] = False
    assert (t[untouched] == np.arange(256)[untouched]).all()


def test_translation_identity_for_default_colours():
    # top 1 (shirt range is row 1 = 16..31) and bottom 6 (pants row 6 = 96..111) are the skin's own colours
    assert (translation_table(1, 6) == np.arange(256)).all()
    assert split_player_colors(0x4D) == (4, 13)


def test_translation_made_once_per_masked_pair_and_read_only():
    table = translation_table(2, 9)
    assert translation_table(2 + 16, 9 + 32) is table   # colours masked to 0..15 first, as the engine does
    with pytest.raises(ValueError):
        table[0] = 1   # shared between every caller: nobody may change it


def test_real_palette_and_colormap(lq1_pak):
    pal = load_palette(lq1_pak.read("gfx/palette.lmp"), "gfx/palette.lmp")
    assert isinstance(pal, Palette)
    assert pal.rgb[0].max() < 16                     # index 0 is black-ish
    assert pal.rgb[15].min() > 200                   # end of the grey ramp is near white
    cm = load_colormap(lq1_pak.read("gfx/colormap.lmp"), "gfx/colormap.lmp")
    assert isinstance(cm, Colormap)
    assert (cm.rows[:, 224:] == np.arange(224, 256)).all()   # fullbrights ignore light
    # a darker row is never brighter than a lighter one (sum of RGB of the mapped colour, grey ramp)
    lum = pal.rgb.astype(int).sum(axis=1)
    assert lum[cm.rows[0, 15]] >= lum[cm.rows[63, 15]]
