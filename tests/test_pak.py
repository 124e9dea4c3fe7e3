"""PAK reader: synthetic round trips, bad input, and the real Quake and Quake II paks."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings, strategies as st

from assets_loader.errors import BadMagicError, FormatError, NotFoundError, TruncatedError
from assets_loader.pak import load_pak
from tests.builders.pak import build_pak
from tests.conftest import LQ1, QUAKE2, QUAKEWORLD


def test_round_trip_reads_each_entry() -> None:
    pak = load_pak(build_pak({"a.txt": b"hello", "maps/B.bsp": b"\x01\x02"}), name="t.pak")
    assert [(e.name, e.size) for e in pak.entries] == [("a.txt", 5), ("maps/B.bsp", 2)]
    assert pak.read("a.txt") == b"hello"
    assert pak.read("MAPS/b.BSP") == b"\x01\x02"


def test_missing_entry_names_it() -> None:
    pak = load_pak(build_pak({"a": b""}), name="t.pak")
    with pytest.raises(NotFoundError, match="nope"):
        pak.read("nope")


def test_wrong_magic() -> None:
    with pytest.raises(BadMagicError, match=r"t\.pak.*offset 0.*PACK"):
        load_pak(b"PAKX" + bytes(8), name="t.pak")


def test_directory_outside_file() -> None:
    data = struct.pack("<4sii", b"PACK", 12, 64)
    with pytest.raises(TruncatedError, match="directory inside the file"):
        load_pak(data, name="t.pak")


def test_directory_length_not_a_multiple_of_entry_size() -> None:
    data = struct.pack("<4sii", b"PACK", 12, 10) + bytes(10)
    with pytest.raises(TruncatedError, match="multiple of 64"):
        load_pak(data, name="t.pak")


def test_entry_outside_file() -> None:
    good = bytearray(build_pak({"a": b"xyz"}))
    struct.pack_into("<i", good, len(good) - 4, 1000)
    with pytest.raises(TruncatedError, match="entry 0"):
        load_pak(bytes(good), name="t.pak")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_raise_only_format_errors(data: bytes) -> None:
    try:
        load_pak(data)
    except FormatError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(0, 2**31 - 1))
def test_corrupt_header_counts_never_allocate(dir_offset: int, dir_length: int) -> None:
    data = struct.pack("<4sii", b"PACK", dir_offset, dir_length) + bytes(64)
    try:
        load_pak(data)
    except FormatError:
        pass


def test_libreqake_pak_lists_every_file() -> None:
    pak = load_pak(LQ1 / "pak0.pak")
    names = {e.name for e in pak.entries}
    assert len(pak.entries) == 299
    assert {"gfx.wad", "gfx/palette.lmp", "maps/lqdm3.bsp", "progs/player.mdl"} <= names
    assert len(pak.read("gfx/palette.lmp")) == 768


def test_quakeworld_pak_opens() -> None:
    pak = load_pak(QUAKEWORLD / "id1" / "pak0.pak")
    assert "maps/lqdm2.bsp" in pak


def test_quake2_pak_container_reads() -> None:
    pak = load_pak(QUAKE2 / "action" / "aq_terminal.pak")
    assert len(pak.entries) > 0
    bsps = [e for e in pak.entries if e.name.lower().endswith(".bsp")]
    assert bsps, "the Action pak holds a map"
    assert pak.read(bsps[0].name)[:4] == b"IBSP"
