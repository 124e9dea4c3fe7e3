"""The game filesystem: id1 + mod dir, pak order, loose files over paks, case-insensitive lookups."""

from __future__ import annotations

from pathlib import Path

import pytest

from assets_loader.errors import NotFoundError
from assets_loader.vfs import VirtualFS, game_dir_of
from tests.builders.pak import build_pak
from tests.conftest import LQ1, QUAKE1


@pytest.fixture()
def install(tmp_path: Path) -> Path:
    (tmp_path / "id1").mkdir()
    (tmp_path / "id1" / "pak0.pak").write_bytes(
        build_pak({"a.txt": b"id1-pak0", "b.txt": b"id1-pak0", "only_id1.txt": b"x"}))
    (tmp_path / "id1" / "pak1.pak").write_bytes(build_pak({"b.txt": b"id1-pak1"}))
    (tmp_path / "id1" / "pak3.pak").write_bytes(build_pak({"b.txt": b"after-a-gap"}))
    mod = tmp_path / "mymod"
    (mod / "maps").mkdir(parents=True)
    (mod / "pak0.pak").write_bytes(build_pak({"a.txt": b"mod-pak0", "c.txt": b"mod-pak0"}))
    (mod / "C.TXT").write_bytes(b"mod-loose")
    (mod / "maps" / "Start.bsp").write_bytes(b"BSP")
    return tmp_path


def test_later_pak_overrides_earlier(install: Path) -> None:
    assert VirtualFS(install).read("b.txt") == b"id1-pak1"


def test_pak_numbering_stops_at_the_first_gap(install: Path) -> None:
    assert VirtualFS(install).read("b.txt") != b"after-a-gap"


def test_mod_dir_overrides_id1(install: Path) -> None:
    fs = VirtualFS(install, "mymod")
    assert fs.game == "mymod"
    assert fs.read("a.txt") == b"mod-pak0"
    assert fs.read("only_id1.txt") == b"x"


def test_loose_file_overrides_pak_and_lookup_is_case_insensitive(install: Path) -> None:
    fs = VirtualFS(install, "MyMod")
    assert fs.read("c.txt") == b"mod-loose"
    assert fs.read("MAPS/start.BSP") == b"BSP"
    assert fs.find("c.txt").container.endswith("C.TXT")


def test_listing_and_globbing(install: Path) -> None:
    fs = VirtualFS(install, "mymod")
    assert fs.list("*.txt") == ["a.txt", "b.txt", "c.txt", "only_id1.txt"]
    assert fs.list("maps/*") == ["maps/start.bsp"]


def test_missing_file_and_missing_dirs(install: Path, tmp_path: Path) -> None:
    with pytest.raises(NotFoundError, match="nothing.txt"):
        VirtualFS(install).read("nothing.txt")
    with pytest.raises(NotFoundError):
        VirtualFS(tmp_path / "does-not-exist")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(NotFoundError, match="game dir"):
        VirtualFS(empty, "lq1")


def test_libreqake_game_dir_without_id1() -> None:
    fs = VirtualFS(QUAKE1, "lq1")
    assert fs.read("maps/lqdm3.bsp")[:4] == b"\x1d\x00\x00\x00"
    assert "maps/lq_e0m1.bsp" in fs.list("maps/*.bsp")
    assert fs.exists("demo3.dem") and fs.exists("gfx/palette.lmp")


def test_demo_inside_a_game_dir_finds_its_data() -> None:
    assert game_dir_of(LQ1 / "demo3.dem") == (QUAKE1, "lq1")
    basedir, game = game_dir_of(LQ1 / "demo3.dem")
    assert VirtualFS(basedir, game).exists("progs/player.mdl")


def test_demo_in_a_base_directory_uses_its_id1() -> None:
    from tests.conftest import QUAKEWORLD

    assert game_dir_of(QUAKEWORLD / "lq_lqdm2_ranger.qwd") == (QUAKEWORLD, "id1")
    assert VirtualFS(*game_dir_of(QUAKEWORLD / "lq_lqdm2_ranger.qwd")).exists("maps/lqdm2.bsp")
