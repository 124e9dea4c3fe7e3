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


def test_a_renamed_quake2_demo_says_what_it_is(capsys, tmp_path) -> None:
    renamed = tmp_path / "duel.dem"
    shutil.copyfile(QUAKE2 / "demos" / "libq2-testduel.dm2", renamed)
    code, err = _run(capsys, "info", str(renamed))
    assert code == 1
    assert "Errno" not in err and "CD-track" not in err
    assert "Quake II demo" in err and str(renamed) in err
