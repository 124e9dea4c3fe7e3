"""``qdv cut --split maps|rounds|lives`` and ``qdv cut --results`` (issue 35 items 4-5): one demo per map of a
two-map CPMA demo, per round of Quake Live freeze tag, per life of the OpenArena recorder, each decoding as the
original's piece; a demo without rounds says so; nothing is overwritten; the hits of a real ``qdv find --json`` are
cut each into a demo named after the demo, the time and what matched."""

from __future__ import annotations

import json
import warnings
from functools import cache
from pathlib import Path

import pytest

from assets_loader.demos import load_demo
from tests.conftest import DATA, QUAKE1, QUAKE3
from tests.cut_check import assert_same_range
from viewer.cli import main
from viewer.cut import split_file
from viewer.cut_split import NoPiecesError, split_pieces
from viewer.export import ExportError

TWO_MAPS = DATA / "public" / "quake3" / "cpma_2_maps_1_match_per_map.dm_68"
FREEZE_TAG = DATA / "public" / "quakelive" / "dm_90_ft.dm_90"
OA_PLAYER = QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71"
DEMO1 = QUAKE1 / "lq1" / "demo1.dem"


@cache
def _timeline(path: Path):
    return load_demo(path)


def _check_pieces(path: Path, by: str, out: Path) -> list:
    """Split ``path`` and compare every piece's demo with the original's range."""
    original = _timeline(path)
    pieces = split_pieces(original, by)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cuts = split_file(str(path), by, out)
    assert len(cuts) == len(pieces) and sorted(p.name for p in out.iterdir()) == [c[0].name for c in cuts]
    for (file, frames, _seconds), piece in zip(cuts, pieces):
        assert file.name.startswith(path.name.split(".")[0] + "_") and file.suffix == path.suffix
        cut = load_demo(file)
        assert cut.num_frames == frames
        assert_same_range(original, cut, piece.start, piece.end, most=20)
    return pieces


def test_split_maps(tmp_path):
    pieces = _check_pieces(TWO_MAPS, "maps", tmp_path)
    assert [p.what for p in pieces] == ["q3dm6", "cpm22"]
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["cpma_2_maps_1_match_per_map_01_q3dm6_00m00s.dm_68",
                     "cpma_2_maps_1_match_per_map_02_cpm22_00m34s.dm_68"]
    assert [load_demo(tmp_path / n).maps for n in names] == [("q3dm6",), ("cpm22",)]


def test_split_rounds(tmp_path):
    """Freeze tag: round 1 from 48.975 s to its end at 98.75 s, round 2 from 106.25 s to 126.15 s."""
    pieces = _check_pieces(FREEZE_TAG, "rounds", tmp_path)
    assert [(p.what, round(p.start, 3), round(p.end, 3)) for p in pieces] == [
        ("round1", 48.975, 98.75), ("round2", 106.25, 126.15)]


def test_split_lives(tmp_path):
    """The OpenArena recorder dies three times: four lives, each (but the last) ending dead."""
    pieces = _check_pieces(OA_PLAYER, "lives", tmp_path)
    assert len(pieces) == 4
    for i, file in enumerate(sorted(tmp_path.iterdir())):
        health = load_demo(file).stats["health"]
        assert health[0] > 0
        assert (health[-1] <= 0) == (i < 3)


def test_no_rounds_is_said(tmp_path, capsys):
    with pytest.raises(NoPiecesError, match="no rounds"):
        split_pieces(_timeline(DEMO1), "rounds")
    assert main(["cut", str(DEMO1), "--split", "rounds", "--out", str(tmp_path)]) == 1
    assert "no rounds: the demo has no round events" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_split_never_overwrites(tmp_path, capsys):
    assert main(["cut", str(TWO_MAPS), "--split", "maps", "--out", str(tmp_path)]) == 0
    assert capsys.readouterr().out.count("wrote ") == 2
    first = sorted(tmp_path.iterdir())[0]
    first.write_bytes(b"mine")
    with pytest.raises(ExportError, match="already exist"):
        split_file(str(TWO_MAPS), "maps", tmp_path)
    assert first.read_bytes() == b"mine"
    split_file(str(TWO_MAPS), "maps", tmp_path, force=True)
    assert first.read_bytes() != b"mine"


def test_cut_find_results(tmp_path, capsys):
    """A real ``qdv find --json`` of rocket frags in the two OpenArena demos, cut in a batch."""
    db = tmp_path / "lib.sqlite"
    assert main(["find", str(QUAKE3 / "demos"), "--db", str(db), "--workers", "1", "--weapon", "rocket",
                 "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert len(hits) >= 2
    results = tmp_path / "results.json"
    results.write_text(json.dumps(hits))
    out = tmp_path / "clips"
    assert main(["cut", "--results", str(results), "--out", str(out), "--before", "3", "--after", "1"]) == 0
    files = sorted(out.iterdir())
    assert len(files) == len(hits)
    for i, (file, hit) in enumerate(zip(files, hits), 1):
        stem = Path(hit["path"]).name.split(".")[0]
        t = int(hit["time"])
        assert file.name.startswith(f"{i:03d}_{stem}_{t // 60:02d}m{t % 60:02d}s_")
        assert file.suffix == Path(hit["path"]).suffix
        original, cut = _timeline(Path(hit["path"])), load_demo(file)
        start = original.start_time + max(0.0, hit["time"] - 3)
        end = original.start_time + min(hit["end"] + 1, original.duration)
        assert_same_range(original, cut, start, end, most=10)
        assert any(e.kind == "obituary" and e.weapon == "rocket" for e in cut.events)
    # again: every name is taken, each hit is reported and nothing is overwritten
    before = [f.read_bytes() for f in files]
    assert main(["cut", "--results", str(results), "--out", str(out)]) == 1
    assert capsys.readouterr().err.count("already exists") == len(hits)
    assert [f.read_bytes() for f in files] == before


def test_cut_usage(tmp_path):
    assert main(["cut", "--out", str(tmp_path)]) == 2
    assert main(["cut", str(DEMO1), "--results", "r.json", "--out", str(tmp_path)]) == 2
    assert main(["cut", str(DEMO1), "--split", "maps", "--from", "5", "--out", str(tmp_path)]) == 2
    assert list(tmp_path.iterdir()) == []
