"""The game filesystem: id1 + mod dir, pak order, loose files over paks, case-insensitive lookups."""

from __future__ import annotations

from pathlib import Path

import pytest

from assets_loader.errors import NotFoundError
from assets_loader.vfs import (
    BASE_GAME,
    QUAKE2_BASE_GAME,
    VirtualFS,
    detect_base_game,
    game_dir_of,
)
from tests.builders.pak import build_pak
from tests.conftest import LQ1, QUAKE1, QUAKE3
from tests.conftest import QUAKE2 as QUAKE2_DATA


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


@pytest.fixture()
def q2_install(tmp_path: Path) -> Path:
    base = tmp_path / "baseq2"
    base.mkdir()
    (base / "pak0.pak").write_bytes(build_pak({"a.txt": b"baseq2-pak0", "pics/colormap.pcx": b"pal"}))
    (base / "pak1.pak").write_bytes(build_pak({"a.txt": b"baseq2-pak1", "b.txt": b"baseq2-pak1"}))
    (base / "zzz_extra.pak").write_bytes(build_pak({"b.txt": b"baseq2-extra"}))
    mod = tmp_path / "action"
    mod.mkdir()
    (mod / "aq_b.pak").write_bytes(build_pak({"c.txt": b"aq_b", "d.txt": b"aq_b"}))
    (mod / "AQ_A.pak").write_bytes(build_pak({"c.txt": b"aq_a"}))
    (mod / "pak0.pak").write_bytes(build_pak({"c.txt": b"mod-pak0", "d.txt": b"mod-pak0", "e.txt": b"mod-pak0"}))
    return tmp_path


def test_quake2_layout_mounts_baseq2_and_every_pak(q2_install: Path) -> None:
    fs = VirtualFS(q2_install, "action", base=QUAKE2_BASE_GAME)
    assert fs.game == "action" and fs.game_dirs[0].name == "baseq2"
    assert fs.read("a.txt") == b"baseq2-pak1"        # numbered paks in order
    assert fs.read("b.txt") == b"baseq2-extra"       # other paks after them, so they win
    assert fs.read("c.txt") == b"aq_b"               # alphabetically (case-insensitive) later wins
    assert fs.read("d.txt") == b"aq_b" and fs.read("e.txt") == b"mod-pak0"
    assert fs.exists("pics/colormap.pcx")


def test_quake_layout_ignores_paks_not_named_pakN(q2_install: Path) -> None:
    (q2_install / "id1").mkdir()
    fs = VirtualFS(q2_install, "action")
    assert fs.read("c.txt") == b"mod-pak0" and not fs.exists("b.txt")


def test_detect_base_game(q2_install: Path, tmp_path: Path) -> None:
    assert detect_base_game(q2_install, "action") == QUAKE2_BASE_GAME
    assert detect_base_game(QUAKE1, "lq1") == BASE_GAME
    assert detect_base_game(QUAKE2_DATA, "action") == QUAKE2_BASE_GAME  # a mod dir alone whose pak is not pakN.pak
    assert detect_base_game(tmp_path / "nowhere") == BASE_GAME


def test_real_quake2_mod_dir() -> None:
    fs = VirtualFS(QUAKE2_DATA, "action", base=detect_base_game(QUAKE2_DATA, "action"))
    assert fs.read("maps/terminal.bsp")[:4] == b"IBSP"
    in_pak = set(fs.list("*")) - {"aq_terminal.pak", "aq_terminal.pak.txt"}  # the dir's own loose files
    assert len(in_pak) == 209 and fs.find("pics/colormap.pcx").container.endswith("aq_terminal.pak")


def test_quake3_base_games_are_detected(q3_basedir: Path, tmp_path: Path) -> None:
    assert detect_base_game(q3_basedir, None) == "baseoa"
    assert detect_base_game(QUAKE3, "baseoa") == "baseoa"  # the corpus: the pk3 sits in the basedir itself
    (tmp_path / "baseq3").mkdir()
    assert detect_base_game(tmp_path, "mymod") == "baseq3"


def test_a_basedir_holding_pk3s_is_mounted_as_its_game_dir() -> None:
    fs = VirtualFS(QUAKE3, "baseoa", base=detect_base_game(QUAKE3, "baseoa"))
    assert fs.game_dirs == [QUAKE3]
    assert fs.read("maps/OA_DM1.bsp")[:8] == b"IBSP\x2e\0\0\0"
    assert fs.find("maps/oa_dm1.bsp").container.endswith("oa_dm1_assets.pk3")


def test_read_head_reads_only_the_start_of_a_file(install: Path) -> None:
    fs = VirtualFS(install, "mymod")
    assert fs.read_head("b.txt", 3) == b"id1"  # from a pak
    assert fs.read_head("c.txt", 100) == b"mod-loose"  # a loose file shorter than asked
    with pytest.raises(NotFoundError):
        fs.read_head("nothing.txt", 4)


def test_read_head_of_real_maps_in_a_pak_and_a_pk3() -> None:
    q2 = VirtualFS(QUAKE2_DATA, "action", base=detect_base_game(QUAKE2_DATA, "action"))
    q3 = VirtualFS(QUAKE3, "baseoa", base=detect_base_game(QUAKE3, "baseoa"))
    assert q2.read_head("maps/terminal.bsp", 8) == q2.read("maps/terminal.bsp")[:8] == b"IBSP\x26\0\0\0"
    assert q3.read_head("maps/oa_dm1.bsp", 8) == b"IBSP\x2e\0\0\0"


def test_demo_in_a_quake3_game_dir_finds_its_pk3s(tmp_path: Path) -> None:
    """``baseoa/demos/x.dm_71`` (where ioquake3 records) mounts ``baseoa``'s pk3s; a folder of pk3s by another name
    (the corpus's ``quake3/``) is not taken for a game dir."""
    import zipfile

    for folder in ("baseoa", "other"):
        (tmp_path / folder / "demos").mkdir(parents=True)
        with zipfile.ZipFile(tmp_path / folder / "pak0.pk3", "w") as z:
            z.writestr("maps/m.bsp", b"IBSP")
    assert game_dir_of(tmp_path / "baseoa" / "demos" / "x.dm_71") == (tmp_path, "baseoa")
    assert VirtualFS(*game_dir_of(tmp_path / "baseoa" / "demos" / "x.dm_71"), base="baseoa").exists("maps/m.bsp")
    assert game_dir_of(tmp_path / "other" / "demos" / "x.dm_71") is None
