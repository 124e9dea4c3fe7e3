"""WAD2 archives, qpic ``.lmp`` pictures and mip textures."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from assets_loader.errors import BadIndexError, BadMagicError, FormatError, NotFoundError, TruncatedError
from assets_loader.images import Image, load_lmp
from assets_loader.wad2 import TYP_MIPTEX, TYP_PALETTE, TYP_QPIC, load_wad
from tests.builders.images import build_miptex, build_qpic, build_wad, pattern

NOT_QPICS = {"gfx/palette.lmp", "gfx/colormap.lmp", "gfx/pop.lmp"}


def _sample_wad() -> bytes:
    return build_wad([
        ("PALETTE", TYP_PALETTE, bytes(range(256)) * 3),
        ("FACE1", TYP_QPIC, build_qpic(pattern(3, 2))),
        ("CONCHARS", TYP_MIPTEX, pattern(128, 128, 9).tobytes()),
        ("BRICK", TYP_MIPTEX, build_miptex("BRICK1", 16, 8)),
        ("face1", TYP_QPIC, build_qpic(pattern(1, 1))),   # duplicate: the first one wins
    ])


def test_lmp_round_trip():
    img = load_lmp(build_qpic(pattern(5, 3)))
    assert isinstance(img, Image) and (img.width, img.height) == (5, 3)
    assert img.indices.shape == (3, 5) and (img.indices == pattern(5, 3)).all()


def test_lmp_truncated():
    with pytest.raises(TruncatedError) as e:
        load_lmp(build_qpic(pattern(5, 3))[:-1], name="x.lmp")
    assert e.value.path == "x.lmp" and e.value.offset == 8


@pytest.mark.parametrize("w,h", [(-1, -1), (-4, 2), (100000, 1)])
def test_lmp_absurd_sizes(w, h):
    with pytest.raises(BadIndexError):
        load_lmp(struct.pack("<ii", w, h) + bytes(16))


def test_wad_round_trip():
    wad = load_wad(_sample_wad())
    assert wad.names() == ("palette", "face1", "conchars", "brick", "face1")
    assert "FACE1" in wad and "nope" not in wad
    lump = wad.lump("Face1")
    assert (lump.type, lump.disksize, lump.compression) == ("B", 14, 0)
    pic = wad.pic("face1")
    assert (pic.width, pic.height) == (3, 2) and (pic.indices == pattern(3, 2)).all()
    chars = wad.conchars()
    assert chars.indices.shape == (128, 128) and (chars.indices == pattern(128, 128, 9)).all()
    tex = wad.miptex("brick")
    assert (tex.name, tex.width, tex.height) == ("brick1", 16, 8)
    assert [m.indices.shape for m in tex.mips] == [(8, 16), (4, 8), (2, 4), (1, 2)]
    assert (tex.mips[2].indices == pattern(4, 2, 2)).all()
    assert wad.palette().rgb.shape == (256, 3)
    assert wad.read("face1") == build_qpic(pattern(3, 2))


def test_wad_missing_lump():
    with pytest.raises(NotFoundError):
        load_wad(_sample_wad()).pic("nothing")


def test_wad_bad_magic():
    with pytest.raises(BadMagicError) as e:
        load_wad(b"WAD3" + bytes(8), name="gfx.wad")
    assert e.value.offset == 0 and "gfx.wad" in str(e.value)


def test_wad_directory_outside_file():
    data = bytearray(_sample_wad())
    struct.pack_into("<i", data, 4, 1000)          # numlumps too large for the directory
    with pytest.raises(TruncatedError):
        load_wad(bytes(data))
    struct.pack_into("<ii", data, 4, 1, len(data) + 5)
    with pytest.raises(TruncatedError):
        load_wad(bytes(data))


def test_wad_lump_outside_file():
    data = bytearray(_sample_wad())
    dirofs = struct.unpack_from("<i", data, 8)[0]
    struct.pack_into("<i", data, dirofs + 32, len(data) - 4)    # lump 1 starts near the end
    with pytest.raises(TruncatedError) as e:
        load_wad(bytes(data))
    assert e.value.offset == dirofs + 32


def test_wad_qpic_larger_than_lump():
    wad = load_wad(build_wad([("BIG", TYP_QPIC, struct.pack("<ii", 64, 64) + bytes(10))]))
    with pytest.raises(TruncatedError):
        wad.pic("big")


def test_wad_bad_miptex():
    wad = load_wad(build_wad([("T", TYP_MIPTEX, build_miptex("t", 16, 16)[:-5]),
                              ("U", TYP_MIPTEX, build_miptex("u", 0, 16))]))
    with pytest.raises(BadIndexError):
        wad.miptex("t")
    with pytest.raises(BadIndexError):
        wad.miptex("u")


def test_wad_compressed_lump_is_refused():
    wad = load_wad(build_wad([("A", TYP_QPIC, build_qpic(pattern(2, 2)))], compression=1))
    with pytest.raises(FormatError):
        wad.pic("a")


def test_real_gfx_wad(lq1_pak):
    wad = load_wad(lq1_pak.read("gfx.wad"), "gfx.wad")
    assert len(wad.lumps) == 149
    assert "ibar.bak" in wad and all(lump.name == lump.name.lower() for lump in wad.lumps)
    for lump in wad.lumps:
        if lump.name == "conchars":
            img = wad.conchars()
            assert img.indices.shape == (128, 128)
        elif lump.type == TYP_QPIC:
            img = wad.pic(lump.name)
            assert img.width * img.height + 8 == lump.disksize, lump.name
        elif lump.type == TYP_PALETTE:
            wad.palette(lump.name)
        else:
            pytest.fail(f"unexpected lump {lump}")
    assert (wad.pic("sbar").width, wad.pic("sbar").height) == (320, 24)
    assert (wad.pic("num_0").width, wad.pic("num_0").height) == (24, 24)


def test_real_quakeworld_gfx_wad():
    from assets_loader.pak import load_pak
    from tests.conftest import QUAKEWORLD

    wad = load_wad(load_pak(QUAKEWORLD / "id1" / "pak0.pak").read("gfx.wad"))
    assert len(wad.lumps) > 100
    sizes = {lump.name: (pic.width, pic.height) for lump in wad.lumps for pic in [wad.pic(lump.name)]}
    assert sizes["sbar"] == (320, 24) and sizes["conchars"] == (128, 128)


def test_real_lmp_qpics(lq1_pak):
    names = [e for e in lq1_pak.entries if e.name.startswith("gfx/") and e.name.endswith(".lmp")]
    qpics = [e for e in names if e.name not in NOT_QPICS]
    assert len(qpics) > 50
    for e in qpics:
        img = load_lmp(lq1_pak.read(e.name), e.name)
        assert img.width * img.height + 8 == e.size, e.name
    conback = load_lmp(lq1_pak.read("gfx/conback.lmp"))
    assert (conback.width, conback.height) == (320, 200)
    assert np.asarray(conback.indices).dtype == np.uint8
