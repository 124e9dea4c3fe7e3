"""Sprites: synthetic round trips, groups, typed errors, and the real corpus."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from assets_loader.errors import BadIndexError, BadMagicError, TruncatedError
from assets_loader.models import SPR_ORIENTED, SPR_VP_PARALLEL, SpriteModel, load_spr
from assets_loader.pak import load_pak
from tests.builders.images import pattern
from tests.builders.models import build_spr
from tests.conftest import QUAKEWORLD


def _frames():
    return [(pattern(4, 2), (-2, 1)),
            ([0.1, 0.3], [(pattern(3, 3, 1), (0, 0)), (pattern(2, 5, 2), (-1, 5))])]


def test_round_trip():
    s = load_spr(build_spr(_frames(), sprtype=SPR_ORIENTED, radius=7.5, synctype=1, beamlength=2.0), name="t.spr")
    assert isinstance(s, SpriteModel) and s.path == "t.spr" and s.version == 1
    assert (s.type, s.bounding_radius, s.synctype, s.beam_length) == (SPR_ORIENTED, 7.5, 1, 2.0)
    assert (s.max_width, s.max_height, s.num_frames) == (4, 5, 2)
    first = s.frames[0]
    assert not first.is_group and len(first.images) == 1
    img = first.images[0]
    assert (img.width, img.height, img.origin_x, img.origin_y) == (4, 2, -2, 1)
    assert (img.indices == pattern(4, 2)).all() and img.indices.shape == (2, 4)
    assert (img.left, img.right, img.up, img.down) == (-2.0, 2.0, 1.0, -1.0)
    group = s.frames[1]
    assert group.is_group and group.intervals.tolist() == pytest.approx([0.1, 0.3])
    assert group.images[1].indices.shape == (5, 2)


def test_group_timing():
    s = load_spr(build_spr(_frames()))
    assert s.image_at(1, 0.05) is s.frames[1].images[0]
    assert s.image_at(1, 0.2) is s.frames[1].images[1]
    assert s.image_at(1, 0.35) is s.frames[1].images[0]      # loops over 0.3 s
    assert s.image_at(0, 5.0) is s.frames[0].images[0]
    assert s.image_at(42, 0.0) is s.frames[0].images[0]      # out of range → frame 0


def test_bad_magic_and_version():
    with pytest.raises(BadMagicError):
        load_spr(b"IDS2" + bytes(64))
    with pytest.raises(BadMagicError) as e:
        load_spr(build_spr(_frames(), version=2), name="hl.spr")
    assert e.value.offset == 4 and "hl.spr" in str(e.value)


def test_bad_type_and_counts():
    with pytest.raises(BadIndexError):
        load_spr(build_spr(_frames(), sprtype=7))
    data = bytearray(build_spr(_frames()))
    struct.pack_into("<i", data, 24, 0)
    with pytest.raises(BadIndexError):
        load_spr(bytes(data))
    struct.pack_into("<i", data, 24, 1 << 28)
    with pytest.raises(TruncatedError):
        load_spr(bytes(data))


@pytest.mark.parametrize("w,h", [(-2, -2), (1 << 20, 1), (5000, 5000)])
def test_bad_frame_sizes(w, h):
    data = bytearray(build_spr([(pattern(4, 2), (0, 0))]))
    struct.pack_into("<ii", data, 36 + 4 + 8, w, h)
    with pytest.raises((BadIndexError, TruncatedError)):
        load_spr(bytes(data))


def test_bad_group_count_and_interval():
    data = bytearray(build_spr(_frames()))
    group_at = 36 + 4 + 16 + 8
    struct.pack_into("<i", data, group_at + 4, 1 << 30)
    with pytest.raises(TruncatedError):
        load_spr(bytes(data))
    with pytest.raises(BadIndexError):
        load_spr(build_spr([([0.2, -1.0], [(pattern(1, 1), (0, 0)), (pattern(1, 1), (0, 0))])]))


def test_truncated_everywhere():
    data = build_spr(_frames())
    for cut in range(len(data)):
        with pytest.raises((TruncatedError, BadMagicError)):
            load_spr(data[:cut])


def _check(s: SpriteModel, name: str) -> None:
    assert s.type in range(5) and s.num_frames >= 1, name
    for f in s.frames:
        for img in f.images:
            assert img.indices.shape == (img.height, img.width), name
            assert img.width <= s.max_width and img.height <= s.max_height, name


def test_every_real_sprite_loads(lq1_pak):
    names = [e.name for e in lq1_pak.entries if e.name.endswith(".spr")]
    assert len(names) >= 3
    for n in names:
        _check(load_spr(lq1_pak.read(n), n), n)
    explod = load_spr(lq1_pak.read("progs/s_explod.spr"))
    assert explod.type == SPR_VP_PARALLEL and explod.num_frames == 6
    img = explod.frames[0].images[0]
    assert img.left == -img.width / 2 and img.up == img.height / 2      # centred on the origin
    assert (np.asarray(img.indices) == 255).any()                       # has transparent pixels


def test_every_quakeworld_sprite_loads():
    pak = load_pak(QUAKEWORLD / "id1" / "pak0.pak")
    for n in [e.name for e in pak.entries if e.name.endswith(".spr")]:
        _check(load_spr(pak.read(n), n), n)
