"""Quake II pictures: PCX (8-bit + palette), WAL mip textures, TGA/JPG/PNG through Pillow; synthetic round trips,
bad input, and every picture of the real pak."""

from __future__ import annotations

import io
import struct

import numpy as np
import pytest
from PIL import Image as PilImage

from assets_loader.errors import BadIndexError, BadMagicError, TruncatedError
from assets_loader.pcx import load_pcx
from assets_loader.truecolor import load_rgba
from assets_loader.vfs import QUAKE2_BASE_GAME, VirtualFS
from assets_loader.wal import load_wal
from tests.builders.images import pattern
from tests.builders.quake2_images import build_pcx, build_wal, ramp_palette
from tests.conftest import QUAKE2 as QUAKE2_DATA


@pytest.fixture(scope="module")
def fs() -> VirtualFS:
    return VirtualFS(QUAKE2_DATA, "action", base=QUAKE2_BASE_GAME)


# --- PCX -------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("width", "height"), [(1, 1), (7, 3), (64, 5), (130, 2)])
def test_pcx_round_trip(width: int, height: int) -> None:
    pic = pattern(width, height, seed=width)
    pic[0, :] = 0xC7  # values >= 0xC0 must be run-coded, long runs split at 63
    out = load_pcx(build_pcx(pic), "t.pcx")
    assert (out.width, out.height) == (width, height)
    assert np.array_equal(out.indices, pic)
    assert np.array_equal(out.palette.rgb, ramp_palette())
    assert out.to_rgba(alpha_index=255)[0, 0].tolist() == [0xC7, 255 - 0xC7, 0xC7 // 2, 255]


def test_pcx_palette_comes_from_the_last_768_bytes_even_without_the_marker() -> None:
    grey = np.repeat(np.arange(256, dtype=np.uint8)[:, None], 3, axis=1)
    out = load_pcx(build_pcx(pattern(4, 4), palette=grey, marker=0), "t.pcx")
    assert np.array_equal(out.palette.rgb, grey) and np.array_equal(out.indices, pattern(4, 4))


@pytest.mark.parametrize(("kwargs", "needle"), [
    ({"version": 3}, "version 5"), ({"bits": 4}, "bits per pixel 8"), ({"planes": 3}, "colour planes 1")])
def test_pcx_kinds_quake2_refuses(kwargs: dict, needle: str) -> None:
    with pytest.raises(BadMagicError, match=needle):
        load_pcx(build_pcx(pattern(4, 4), **kwargs), "t.pcx")


def test_pcx_truncated_and_not_pcx() -> None:
    data = build_pcx(pattern(64, 64))
    with pytest.raises(TruncatedError, match="palette"):
        load_pcx(data[:500], "t.pcx")
    with pytest.raises(TruncatedError, match="run-length"):
        load_pcx(data[:128] + data[-800:], "t.pcx")  # rows cut short: the palette is not enough pixels
    with pytest.raises(BadMagicError, match="manufacturer 10"):
        load_pcx(b"\0" * 1000, "t.pcx")
    huge = bytearray(data)
    struct.pack_into("<H", huge, 8, 60000)
    with pytest.raises(BadIndexError, match="width"):
        load_pcx(bytes(huge), "t.pcx")


# --- WAL -------------------------------------------------------------------------------------------------------------

def test_wal_round_trip() -> None:
    wal = load_wal(build_wal("e1u1/water1_8", 32, 16, seed=9, next_name="e1u1/water2_8", flags=0x8, contents=32,
                             value=120), "w.wal")
    assert (wal.name, wal.width, wal.height, wal.next_name) == ("e1u1/water1_8", 32, 16, "e1u1/water2_8")
    assert (wal.flags, wal.contents, wal.value) == (0x8, 32, 120)
    assert [m.shape for m in wal.mips] == [(16, 32), (8, 16), (4, 8), (2, 4)]
    assert [int(m[0, 0]) for m in wal.mips] == [9, 10, 11, 12]


def test_wal_bad_input() -> None:
    data = build_wal("a", 16, 16)
    with pytest.raises(TruncatedError):
        load_wal(data[:60], "w.wal")
    with pytest.raises(BadIndexError, match="mip level 3"):
        load_wal(data[:-1], "w.wal")
    zero = bytearray(data)
    struct.pack_into("<I", zero, 32, 0)
    with pytest.raises(BadIndexError, match="non-zero"):
        load_wal(bytes(zero), "w.wal")
    low = bytearray(data)
    struct.pack_into("<I", low, 40, 20)  # mip 0 inside the header
    with pytest.raises(BadIndexError, match="mip level 0"):
        load_wal(bytes(low), "w.wal")
    garbage = bytearray(data)
    garbage[0] = 7
    with pytest.raises(BadMagicError, match="printable"):
        load_wal(bytes(garbage), "w.wal")


# --- TGA / JPG / PNG -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("fmt", "ext"), [("TGA", ".tga"), ("PNG", ".png")])
def test_truecolor_round_trip(fmt: str, ext: str) -> None:
    rgba = np.zeros((3, 5, 4), np.uint8)
    rgba[..., 0] = np.arange(5) * 50
    rgba[..., 3] = 255
    rgba[1, 2] = (1, 2, 3, 128)
    buf = io.BytesIO()
    PilImage.fromarray(rgba, "RGBA").save(buf, fmt)
    out = load_rgba(buf.getvalue(), "sky" + ext)
    assert out.shape == (3, 5, 4) and np.array_equal(out, rgba)


def test_tga_keeps_its_alpha_whatever_its_version_2_footer_says() -> None:
    """The engines read a TGA's header and pixels only: an extension area saying "no alpha" (attributes type 0,
    as OpenArena's ``gfx/damage/blood_stain.tga`` has) must not make the picture opaque."""
    rgba = np.zeros((2, 3, 4), np.uint8)
    rgba[..., 0] = 90
    rgba[..., 3] = [[0, 40, 255], [7, 128, 200]]
    header = struct.pack("<BBB5xHHHHBB", 0, 0, 2, 0, 0, 3, 2, 32, 0x28)
    pixels = rgba[..., [2, 1, 0, 3]].tobytes()
    extension = bytearray(495)
    struct.pack_into("<H", extension, 0, 495)          # extension size; byte 494 (attributes type) stays 0
    body = header + pixels
    footer = struct.pack("<II", len(body), 0) + b"TRUEVISION-XFILE.\x00"
    out = load_rgba(body + bytes(extension) + footer, "stain.tga")
    assert np.array_equal(out, rgba)


def test_jpeg_decodes_to_opaque_rgba() -> None:
    buf = io.BytesIO()
    PilImage.new("RGB", (8, 4), (200, 100, 50)).save(buf, "JPEG", quality=95)
    out = load_rgba(buf.getvalue(), "x.jpg")
    assert out.shape == (4, 8, 4) and (out[..., 3] == 255).all()
    assert np.abs(out[..., :3].astype(int) - (200, 100, 50)).max() < 8


def test_truecolor_bad_input() -> None:
    with pytest.raises(BadMagicError):
        load_rgba(b"not a picture at all", "x.png")
    buf = io.BytesIO()
    PilImage.new("RGB", (64, 64)).save(buf, "PNG")
    with pytest.raises((TruncatedError, BadMagicError)):
        load_rgba(buf.getvalue()[:60], "x.png")


# --- the real pak ----------------------------------------------------------------------------------------------------

def test_every_pcx_of_the_pak_loads(fs: VirtualFS) -> None:
    names = fs.list("*.pcx")
    assert len(names) >= 60
    for name in names:
        pic = load_pcx(fs.read(name), name)
        assert pic.indices.shape == (pic.height, pic.width) and pic.width > 0 and pic.height > 0


def test_colormap_pcx_gives_the_game_palette(fs: VirtualFS) -> None:
    cmap = load_pcx(fs.read("pics/colormap.pcx"), "pics/colormap.pcx")
    rgb = cmap.palette.rgb
    assert rgb.shape == (256, 3) and len(np.unique(rgb, axis=0)) > 200
    assert rgb[0].tolist() == [0, 0, 0]  # Quake II's palette starts with black


def test_every_wal_of_the_pak_loads(fs: VirtualFS) -> None:
    names = fs.list("textures/*.wal")
    assert len(names) == 60
    lights = 0
    for name in names:
        wal = load_wal(fs.read(name), name)
        assert wal.width % 16 == 0 and wal.height % 16 == 0 and wal.mips[3].shape == (wal.height // 8, wal.width // 8)
        lights += bool(wal.flags & 0x1) and wal.value > 0
    assert lights >= 5


def test_sky_faces_in_pcx_and_tga(fs: VirtualFS) -> None:
    for side in ("rt", "bk", "lf", "ft", "up", "dn"):
        tga = load_rgba(fs.read(f"env/wnight{side}.tga"), f"env/wnight{side}.tga")
        pcx = load_pcx(fs.read(f"env/wnight{side}.pcx"), f"env/wnight{side}.pcx")
        assert tga.shape[2] == 4 and tga.shape[0] == tga.shape[1] >= 64
        assert pcx.width == pcx.height >= 64


def test_truecolor_reads_pcx_and_content_not_matching_the_extension() -> None:
    pic = pattern(6, 3)
    rgba = load_rgba(build_pcx(pic), "skin.pcx")
    assert np.array_equal(rgba[..., :3], ramp_palette()[pic]) and (rgba[..., 3] == 255).all()
    buf = io.BytesIO()
    PilImage.new("RGB", (4, 4), (9, 8, 7)).save(buf, "PNG")
    assert load_rgba(buf.getvalue(), "mislabelled.jpg")[0, 0].tolist() == [9, 8, 7, 255]
