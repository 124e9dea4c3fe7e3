"""PK3 packs and their place in the game filesystem: round trips, search order, image fallback, zip bombs."""

from __future__ import annotations

import struct
import zipfile

import pytest

from assets_loader.errors import FormatError, NotFoundError
from assets_loader.pk3 import Pk3File, ZipBombError, load_pk3
from assets_loader.vfs import VirtualFS
from tests.builders.q3text import build_pk3
from tests.conftest import QUAKE3


def test_round_trip_case_insensitive() -> None:
    data = build_pk3({"maps/Test.bsp": b"IBSP" + bytes(100), "scripts/a.shader": b"x {\n}\n"})
    pk3 = load_pk3(data, "t.pk3")
    assert [(e.name, e.size) for e in pk3.entries] == [("maps/Test.bsp", 104), ("scripts/a.shader", 6)]
    assert "MAPS/test.BSP" in pk3 and "maps/other.bsp" not in pk3
    assert pk3.read("maps/test.bsp") == b"IBSP" + bytes(100)
    with pytest.raises(NotFoundError):
        pk3.read("nope")


def test_not_a_zip_is_a_format_error() -> None:
    with pytest.raises(FormatError):
        load_pk3(b"PK\x03\x04 not really a zip")


def test_zip_bomb_ratio_is_refused() -> None:
    bomb = build_pk3({"zeros.tga": bytes(20 << 20)}, zipfile.ZIP_BZIP2)
    assert len(bomb) < 1000
    with pytest.raises(ZipBombError, match="inflating at most"):
        load_pk3(bomb, "bomb.pk3")


def test_total_size_bound() -> None:
    data = build_pk3({f"f{i}.bin": bytes(range(256)) * 40 for i in range(4)})
    with pytest.raises(ZipBombError, match="uncompressed bytes in all"):
        Pk3File(data, "big.pk3", max_total_bytes=30_000)
    assert len(Pk3File(data, "ok.pk3", max_total_bytes=50_000).entries) == 4


def test_member_that_lies_about_its_size_is_a_format_error() -> None:
    data = bytearray(build_pk3({"a.txt": b"A" * 1000}, zipfile.ZIP_DEFLATED))
    local, central = data.index(b"PK\x03\x04"), data.index(b"PK\x01\x02")
    data[local + 22:local + 26] = struct.pack("<I", 10)  # uncompressed size: 10 instead of 1000
    data[central + 24:central + 28] = struct.pack("<I", 10)
    pk3 = load_pk3(bytes(data))
    assert pk3.entry("a.txt").size == 10
    with pytest.raises(FormatError):
        pk3.read("a.txt")


def _game(tmp_path, layout: dict[str, dict[str, bytes] | bytes]) -> None:
    for rel, content in layout.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(build_pk3(content) if isinstance(content, dict) else content)


def test_search_order_like_ioquake3(tmp_path) -> None:
    _game(tmp_path, {
        "baseq3/pak0.pk3": {"a.txt": b"base pak0", "b.txt": b"base pak0", "c.txt": b"base pak0",
                            "d.txt": b"base pak0"},
        "baseq3/pak1.pk3": {"b.txt": b"base pak1", "c.txt": b"base pak1"},
        "baseq3/zz_extra.pk3": {"c.txt": b"base zz"},
        "baseq3/D.TXT": b"base loose",
        "mymod/mod.pk3": {"A.txt": b"mod pak"},
    })
    fs = VirtualFS(tmp_path, "mymod", base="baseq3")
    assert fs.read("a.txt") == b"mod pak"            # mod dir before base
    assert fs.read("b.txt") == b"base pak1"          # later pack name overrides
    assert fs.read("c.txt") == b"base zz"
    assert fs.read("d.txt") == b"base loose"         # loose files over packs
    assert fs.find("b.txt").container.endswith("pak1.pk3")
    assert fs.list("*.txt") == ["a.txt", "b.txt", "c.txt", "d.txt"]


def test_image_extension_fallback(tmp_path) -> None:
    _game(tmp_path, {"baseoa/p.pk3": {"textures/x/wall.jpg": b"jpg", "textures/x/floor.tga": b"tga"}})
    fs = VirtualFS(tmp_path, "baseoa")
    assert fs.find_image("textures/x/wall.tga") == "textures/x/wall.jpg"
    assert fs.find_image("textures/x/wall") == "textures/x/wall.jpg"
    assert fs.find_image("textures/x/floor.jpg") == "textures/x/floor.tga"
    assert fs.find_image("textures/x/none") is None


def test_real_pk3_listing(q3_fs) -> None:
    pk3 = load_pk3(QUAKE3 / "oa_dm1_assets.pk3")
    names = [e.name for e in pk3.entries]
    # SOURCES.md's per-type counts (126 md3, 24 skin, 104 shader, 67 jpg, 1 bsp; 260 tga plus two ".TGA");
    # its totals (592 files, "17 other") do not add up: the zip holds 593 files, 11 of other types.
    lower = [n.lower() for n in names]
    counts = {ext: sum(n.endswith(ext) for n in lower) for ext in (".md3", ".skin", ".shader", ".jpg", ".tga", ".bsp")}
    assert counts == {".md3": 126, ".skin": 24, ".shader": 104, ".jpg": 67, ".tga": 262, ".bsp": 1}
    assert len(names) == 593
    assert sum(e.size for e in pk3.entries) == pytest.approx(65.6e6, rel=0.01)
    assert q3_fs.read("maps/OA_DM1.BSP")[:4] == b"IBSP"


def test_a_member_with_an_empty_name_is_a_format_error() -> None:
    """A fuzz find (``python -m tests.fuzz --minutes 6 --seed 100``): a central-directory entry with no name."""
    import io

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("a", b"x")
    data = out.getvalue()
    c = data.index(b"PK\x01\x02")  # drop the 1-byte name: name length 0, the directory one byte shorter
    data = data[:c + 28] + b"\0\0" + data[c + 30:c + 46] + data[c + 47:]
    end = data.index(b"PK\x05\x06")
    size = int.from_bytes(data[end + 12:end + 16], "little") - 1
    data = data[:end + 12] + size.to_bytes(4, "little") + data[end + 16:]
    with pytest.raises(FormatError, match=r"t\.pk3: bad PK3 file at offset 0: expected a member name, found an empty"):
        load_pk3(data, "t.pk3")


def test_a_zip_version_zipfile_cannot_read_is_a_format_error() -> None:
    """A fuzz find: a central-directory "version needed" above what :mod:`zipfile` reads (NotImplementedError)."""
    data = bytearray(build_pk3({"a.txt": "x"}))
    c = data.index(b"PK\x01\x02")
    data[c + 6:c + 8] = (64).to_bytes(2, "little")  # version needed to extract: 6.4
    with pytest.raises(FormatError, match=r"t\.pk3: bad PK3 file: expected a zip archive, found zip file version 6\.4"):
        load_pk3(bytes(data), "t.pk3")


def test_an_encrypted_member_is_a_format_error() -> None:
    """A fuzz find: the encryption flag set on a member (zipfile raised RuntimeError when reading it)."""
    data = bytearray(build_pk3({"a.txt": "x"}))
    c = data.index(b"PK\x01\x02")
    data[c + 8] |= 1  # general purpose flag bit 0
    with pytest.raises(FormatError, match=r"expected member 'a\.txt' not encrypted, found the encryption flag"):
        load_pk3(bytes(data), "t.pk3")
