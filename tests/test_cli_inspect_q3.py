"""``qdv inspect`` on Quake III data: pk3 listing, BSP46, MD3 and a shader by name (README keys)."""

from __future__ import annotations

import json

from tests.conftest import QUAKE3
from viewer.cli import main


def run_json(capsys, *args: str) -> dict:
    assert main(["inspect", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def in_baseoa(basedir, name: str) -> tuple[str, ...]:
    return ("--basedir", str(basedir), "--game", "baseoa", name)


def test_pk3_listing(capsys) -> None:
    report = run_json(capsys, str(QUAKE3 / "oa_dm1_assets.pk3"))
    assert report["format"] == "pk3" and len(report["entries"]) == 593
    bsp = next(e for e in report["entries"] if e["name"] == "maps/oa_dm1.bsp")
    assert bsp["size"] == 1404976 and 0 < bsp["compressed"] < bsp["size"]


def test_bsp46(capsys, q3_basedir) -> None:
    report = run_json(capsys, *in_baseoa(q3_basedir, "maps/oa_dm1.bsp"))
    assert report["format"] == "bsp46" and report["version"] == 46
    assert report["surfaces"] == 902 and report["surface_kinds"] == {"planar": 882, "patch": 0,
                                                                      "triangle_soup": 10, "flare": 10}
    assert report["lightmaps"] == 14 and report["fogs"] == ["textures/liquids/lavahell"]
    assert report["worldspawn"]["message"].startswith("Place of Two Deaths")


def test_md3(capsys, q3_basedir) -> None:
    report = run_json(capsys, *in_baseoa(q3_basedir, "models/players/sarge/upper.md3"))
    assert report["format"] == "md3" and report["frames"] == 155
    assert report["tags"] == ["tag_weapon", "tag_head"]
    assert report["surfaces"][0]["name"] == "u_torso" and report["surfaces"][0]["triangles"] > 0


def test_shader_by_name(capsys, q3_basedir) -> None:
    report = run_json(capsys, *in_baseoa(q3_basedir, "textures/liquids/lavahell"))
    assert report["format"] == "shader" and report["source"] == "scripts/liquid_lavas.shader"
    assert len(report["stages"]) == 3 and report["stages"][1]["blend"] == ["GL_ONE", "GL_ONE"]
    assert report["stages"][0]["tc_mods"][0] == {"kind": "turb", "params": [0.0, 0.1, 0.0, 0.1], "wave": None}
    assert "fog" in report["surface_parms"] and report["cull"] == "none"


def test_unknown_shader_is_a_one_line_error(capsys, q3_basedir) -> None:
    assert main(["inspect", *in_baseoa(q3_basedir, "textures/no/such")]) == 1
    err = capsys.readouterr().err
    assert "textures/no/such: game file or shader not found" in err
    # the scripts are only indexed: the one OpenArena shader with an unknown blend factor is not parsed, so
    # nothing warns
    assert err.count("warning:") == 0
