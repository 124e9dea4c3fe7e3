"""One clear line for a wrong input: missing files, folders, and demos whose name says another format than their
content (formats are detected by content first)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from assets_loader.demos.detect import detect_format, sniff_format
from viewer.cli import main

from .conftest import LQ1, QUAKE2, QUAKE3, QUAKEWORLD

CORPUS_FORMATS = [
    (LQ1 / "demo3.dem", "dem"),
    (QUAKEWORLD / "lq_lqdm2_ranger.qwd", "qwd"),
    (QUAKEWORLD / "lq_lqdm2_mvd.mvd", "mvd"),
    (QUAKE2 / "demos" / "AQtion-demo-guide.dm2", "dm2"),
    (QUAKE2 / "demos" / "libq2-testduel.dm2", "dm2"),
    (QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68", "dm_NN"),
    (QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71", "dm_NN"),
]


@pytest.mark.parametrize(("path", "fmt"), CORPUS_FORMATS, ids=lambda v: getattr(v, "name", v))
def test_every_corpus_demo_is_recognised_by_its_content(path: Path, fmt: str) -> None:
    assert sniff_format(path.read_bytes()[:65536]) == fmt


def test_the_content_wins_over_a_wrong_extension() -> None:
    data = (QUAKE2 / "demos" / "AQtion-demo-guide.dm2").read_bytes()
    with pytest.warns(UserWarning, match="name says a Quake demo .* content is a Quake II demo"):
        assert detect_format(data, "renamed.dem") == "dm2"
    assert detect_format((QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71").read_bytes(), "x.dm_71") == "dm_71"


def _run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


def test_missing_file_and_directory_are_one_line_each(capsys, tmp_path) -> None:
    code, err = _run(capsys, "info", str(tmp_path / "nothing.dem"))
    assert code == 1 and err.strip() == f"qdv info: {tmp_path / 'nothing.dem'}: no such file"
    code, err = _run(capsys, "events", str(tmp_path))
    assert code == 1 and err.strip() == f"qdv events: {tmp_path}: is a directory, expected a file"


def test_a_renamed_quake2_demo_decodes_as_quake2_with_a_warning(capsys, tmp_path) -> None:
    renamed = tmp_path / "duel.dem"
    shutil.copyfile(QUAKE2 / "demos" / "libq2-testduel.dm2", renamed)
    code = main(["info", str(renamed)])
    captured = capsys.readouterr()
    out = captured.out
    assert code == 0
    assert "the name says a Quake demo (.dem) but the content is a Quake II demo (.dm2)" in captured.err
    assert "dm2 (quake2), protocol 34" in out and "q2rdm2" in out and "3199 frames" in out


def test_events_count_from_the_demo_start_with_the_server_time_beside(capsys) -> None:
    import json

    from assets_loader.demos import load_demo

    demo = LQ1 / "demo1_lite.dem"
    timeline = load_demo(str(demo))
    code = main(["events", str(demo), "--json"])
    events = json.loads(capsys.readouterr().out)
    assert code == 0
    assert events[0]["time"] == 0.0 and events[0]["server_time"] == pytest.approx(timeline.start_time, abs=1e-5)
    assert max(e["time"] for e in events) <= timeline.duration + 1e-6
    for e in events:
        assert e["server_time"] - e["time"] == pytest.approx(timeline.start_time, abs=1e-5)   # one map: one offset
    code = main(["info", str(demo), "--json"])
    info = json.loads(capsys.readouterr().out)
    assert info["segments"][0]["start"] == 0.0
    assert info["segments"][0]["end"] == pytest.approx(info["duration"])
    assert info["server_start_time"] == pytest.approx(timeline.start_time)


def test_a_screenshot_time_outside_the_demo_is_a_warning(capsys, tmp_path) -> None:
    code = main(["screenshot", str(LQ1 / "demo3.dem"), "--time", "91.2", "--size", "32x32",
                 "--out", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert code == 0 and (tmp_path / "x.png").is_file()
    assert "91.200 s is outside the demo (0 .. 30.228 s" in err and "showing its end" in err


def test_version(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("qdv ")


def test_timedemo_shows_progress_on_stderr(capsys) -> None:
    code = main(["timedemo", str(LQ1 / "demo3.dem"), "--size", "32x18"])
    out, err = capsys.readouterr()
    assert code == 0 and out.startswith("1233 frames ")
    assert "timedemo" in err and "/1233" in err


def test_a_fifo_and_a_bad_size_limit_are_one_line_each(capsys, tmp_path, monkeypatch) -> None:
    import os

    fifo = tmp_path / "stream.dem"
    os.mkfifo(fifo)
    for command in ("info", "play", "timedemo"):
        code, err = _run(capsys, command, str(fifo))
        assert code == 1 and err.strip() == f"qdv {command}: {fifo}: a FIFO (named pipe); expected a regular demo file"
    monkeypatch.setenv("QDV_MAX_DEMO_SIZE", "lots")
    code, err = _run(capsys, "info", str(LQ1 / "demo3.dem"))
    assert code == 2 and err.strip() == "qdv info: QDV_MAX_DEMO_SIZE: 'lots': expected a size such as 600M or 2G"
    monkeypatch.setenv("QDV_MAX_DEMO_SIZE", "1K")
    code, err = _run(capsys, "info", str(LQ1 / "demo3.dem"))
    assert code == 1 and "demo3.dem: a file of 79763 bytes; expected a demo file of at most 1024 bytes" in err


@pytest.mark.parametrize(("path", "game"), [
    (LQ1 / "demo3.dem", "quake"), (QUAKEWORLD / "lq_lqdm2_mvd.mvd", "quakeworld"),
    (QUAKE2 / "demos" / "libq2-testduel.dm2", "quake2"),
    (QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68", "quake3"), (QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71", "quake3"),
], ids=lambda v: getattr(v, "name", v))
def test_the_game_of_a_demo_is_known_from_its_first_bytes(path: Path, game: str) -> None:
    from assets_loader.demos.detect import demo_game

    assert demo_game(path.read_bytes()[:65536], path.name) == game


def test_quake3_demos_are_decoded_not_refused(capsys) -> None:
    code = main(["info", str(QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71")])
    assert code == 0 and "cannot decode" not in capsys.readouterr().err


@pytest.mark.parametrize("path", [LQ1 / "demo3.dem", QUAKEWORLD / "lq_lqdm2_mvd.mvd"], ids=lambda p: p.name)
def test_a_demo_cut_on_a_block_boundary_is_reported(path: Path, tmp_path) -> None:
    import warnings

    from assets_loader.demos import load_demo

    full = load_demo(path)
    assert full.warnings == ()                                   # the whole file ends with svc_disconnect
    data = path.read_bytes()
    cut_at = _block_boundary_before(data, path.suffix, len(data) // 2)
    cut = tmp_path / path.name
    cut.write_bytes(data[:cut_at])
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        timeline = load_demo(cut)
    assert any("ends without its end-of-demo message" in w for w in timeline.warnings)
    assert timeline.num_frames < full.num_frames


def _block_boundary_before(data: bytes, suffix: str, limit: int) -> int:
    """The offset of the last block boundary at or before ``limit`` (NetQuake: after the CD-track line, blocks of
    int32 length + 12 bytes of angles + message; MVD: 1-byte time + type bits (+4-byte mask) + int32 length)."""
    import struct

    if suffix == ".dem":
        pos = data.index(b"\n") + 1
        while True:
            length = struct.unpack_from("<i", data, pos)[0]
            nxt = pos + 16 + length
            if nxt > limit:
                return pos
            pos = nxt
    pos = 0
    while True:
        kind = data[pos + 1] & 7
        head = 2 + (4 if kind == 3 else 0)
        if kind == 0:                                             # dem_cmd: a usercmd, no length
            nxt = pos + 2 + 36
        else:
            length = struct.unpack_from("<i", data, pos + head)[0]
            nxt = pos + head + 4 + length
        if nxt > limit:
            return pos
        pos = nxt


def test_an_empty_folder_names_every_kind_of_demo_played(capsys, tmp_path) -> None:
    from assets_loader.demos import DEMO_SUFFIXES
    from viewer.cli import DEMO_KINDS

    assert DEMO_KINDS.startswith(", ".join(DEMO_SUFFIXES))   # the help and messages say what the picker lists
    code, err = _run(capsys, "play", str(tmp_path))
    assert code == 1 and err.strip() == f"qdv play: {tmp_path}: a folder without demos ({DEMO_KINDS})"
