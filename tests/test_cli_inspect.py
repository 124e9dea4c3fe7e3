"""``qdv inspect``: JSON keys per file type, game-dir names, and one-line errors with exit code 1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import LQ1, QUAKE1, QUAKE2
from viewer.cli import main


def run_json(capsys, *args: str) -> dict:
    assert main(["inspect", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def in_lq1(name: str) -> tuple[str, ...]:
    return ("--basedir", str(QUAKE1), "--game", "lq1", name)


def test_pak_lists_entries(capsys) -> None:
    report = run_json(capsys, str(LQ1 / "pak0.pak"))
    assert report["format"] == "pak"
    assert {"name": "gfx/palette.lmp", "size": 768} in report["entries"]


def test_mdl_counts(capsys) -> None:
    report = run_json(capsys, *in_lq1("progs/player.mdl"))
    assert report["format"] == "mdl"
    assert report["frames"] == 143 and report["vertices"] > 0 and report["triangles"] > 0 and report["skins"] >= 1


def test_spr_type_and_frames(capsys) -> None:
    report = run_json(capsys, *in_lq1("progs/s_explod.spr"))
    assert (report["format"], report["type"], report["type_name"], report["frames"]) == ("spr", 2, "vp_parallel", 6)


def test_wad_lumps(capsys) -> None:
    report = run_json(capsys, *in_lq1("gfx.wad"))
    assert len(report["lumps"]) == 149
    conchars = [lump for lump in report["lumps"] if lump["name"] == "conchars"]
    assert len(conchars) == 1 and conchars[0]["size"] == 128 * 128


def test_lmp_palette_colormap(capsys) -> None:
    conback = run_json(capsys, *in_lq1("gfx/conback.lmp"))
    assert (conback["width"], conback["height"]) == (320, 200)
    assert run_json(capsys, *in_lq1("gfx/palette.lmp"))["colors"] == 256
    assert run_json(capsys, *in_lq1("gfx/colormap.lmp"))["rows"] == 64


def test_text_output_names_the_format(capsys) -> None:
    assert main(["inspect", *in_lq1("progs/armor.mdl")]) == 0
    assert "format: mdl" in capsys.readouterr().out


@pytest.mark.parametrize(("name", "content", "needle"), [
    ("bad.mdl", b"garbage-garbage", "expected magic 'IDPO'"),
    ("bad.pak", b"PACK\xff\xff\xff\x7f\x00\x00\x00\x00", "directory inside the file"),
    ("bad.wad", b"WAD2", "offset"),
    ("bad.xyz", b"????", "expected a .pak"),
])
def test_bad_file_prints_one_line_and_exits_1(tmp_path: Path, capsys, name: str, content: bytes, needle: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    assert main(["inspect", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and needle in err


def test_missing_file_exits_1(capsys) -> None:
    assert main(["inspect", "/nonexistent/file.bsp"]) == 1
    assert "/nonexistent/file.bsp" in capsys.readouterr().err
    assert main(["inspect", *in_lq1("maps/nothing.bsp")]) == 1


def test_no_command_is_usage(capsys) -> None:
    assert main([]) == 2


def test_bsp_counts_bounds_and_worldspawn(capsys) -> None:
    report = run_json(capsys, *in_lq1("maps/lqdm3.bsp"))
    assert report["format"] == "bsp" and report["version"] == "BSP29"
    assert report["models"] == 8 and report["lit"] is True
    assert report["faces"] > 0 and report["textures"] > 0 and report["entities"] > 0 and report["leafs"] > 0
    mins, maxs = report["bounds"]
    assert all(lo < hi for lo, hi in zip(mins, maxs))
    assert report["worldspawn"]["message"] == "Hyperborea"


def test_bsp_on_disk_finds_its_lit_beside_it(tmp_path: Path, capsys, lq1_pak) -> None:
    (tmp_path / "e0.bsp").write_bytes(lq1_pak.read("maps/lq_e0m1.bsp"))
    assert run_json(capsys, str(tmp_path / "e0.bsp"))["lit"] is False
    (tmp_path / "e0.lit").write_bytes(lq1_pak.read("maps/lq_e0m1.lit"))
    report = run_json(capsys, str(tmp_path / "e0.bsp"))
    assert report["lit"] is True and report["models"] == 24


@pytest.mark.parametrize("name", ["lq_lqdm2_ranger.qwd", "lq_lqdm2_mvd.mvd"])
def test_quakeworld_demos(capsys, name: str) -> None:
    from tests.conftest import QUAKEWORLD

    report = run_json(capsys, str(QUAKEWORLD / name))
    assert report["format"] == name.rsplit(".", 1)[1] and report["maps"] == ["lqdm2"]


def test_dem_by_content_without_extension(tmp_path: Path, capsys) -> None:
    demo = tmp_path / "recording"
    demo.write_bytes((LQ1 / "demo3.dem").read_bytes())
    assert run_json(capsys, str(demo))["protocol"] == 999


def in_action(name: str) -> tuple[str, ...]:
    return ("--basedir", str(QUAKE2), "--game", "action", name)


def test_quake2_bsp(capsys) -> None:
    report = run_json(capsys, *in_action("maps/terminal.bsp"))
    assert (report["format"], report["version"], report["models"]) == ("bsp38", "IBSP38", 1)
    assert report["textures"] == 60 and report["missing_textures"] == []
    assert report["clusters"] > 0 and report["areas"] >= 1 and report["brushes"] > 0 and report["triangles"] > 0
    assert report["worldspawn"]["sky"] == "wnight" and report["surface_flags"]["sky"] > 0
    assert set(report["surface_flags"]) == {"light", "slick", "sky", "warp", "trans33", "trans66", "flowing",
                                            "nodraw"}


def test_quake2_pictures_and_models(capsys) -> None:
    wal = run_json(capsys, *in_action("textures/lundvall/light4.wal"))
    assert (wal["format"], wal["width"], wal["height"], wal["flag_names"], wal["value"]) == (
        "wal", 64, 64, ["light"], 6000)
    pcx = run_json(capsys, *in_action("pics/colormap.pcx"))
    assert (pcx["format"], pcx["width"], pcx["height"]) == ("pcx", 256, 320)
    md2 = run_json(capsys, *in_action("players/sydney/tris.md2"))
    assert (md2["format"], md2["frames"], md2["skins"]) == ("md2", 198, [])
    sp2 = run_json(capsys, *in_action("sprites/lsight.sp2"))
    assert sp2["format"] == "sp2" and sp2["frames"][0]["name"] == "sprites/lsight.pcx"


def test_quake2_files_by_path_and_magic(tmp_path: Path, capsys) -> None:
    from tests.builders.bsp38 import build_bsp38
    from tests.builders.quake2_models import build_md2

    (tmp_path / "unit.bsp").write_bytes(build_bsp38())
    report = run_json(capsys, str(tmp_path / "unit.bsp"))
    assert report["format"] == "bsp38" and report["missing_textures"] == ["test/wall", "test/anim1", "test/anim2",
                                                                          "test/water"]
    (tmp_path / "model.bin").write_bytes(build_md2())
    assert run_json(capsys, str(tmp_path / "model.bin"))["format"] == "md2"


def test_md3_named_md2_is_described_as_md3(capsys) -> None:
    """AQtion ships some Quake III models as ``tris.md2``; inspect goes by the magic, as Q2PRO loads them."""
    report = run_json(capsys, *in_action("models/items/band/tris.md2"))
    assert report["format"] == "md3" and report["frames"] >= 1 and report["surfaces"]
