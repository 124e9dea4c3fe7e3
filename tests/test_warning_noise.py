"""Issue 29, item 7: no warnings about what a game does not have, one warning per missing file, and a chat line
counted once in the event totals."""

from __future__ import annotations

import warnings

import pytest

from assets_loader.demos import load_demo
from viewer.audio.mixer import Mixer
from viewer.audio.sounds import SoundBank
from viewer.cli import main
from viewer.demo_report import info_dict

from .conftest import DATA, LQ1, QUAKE2, QUAKE3


def _asked_sounds(path) -> set[str]:
    """The sounds a mixer of demo ``path`` looks for, with a map known for every segment (from an empty sound set,
    where each sound looked for warns once)."""
    timeline = load_demo(str(path))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Mixer(timeline, SoundBank({}), maps=lambda segment: None)
    return {str(w.message).split(" ")[1] for w in caught if str(w.message).startswith("sound ")}


@pytest.mark.parametrize("path", [QUAKE2 / "demos" / "libq2-testduel.dm2",
                                  QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"], ids=lambda p: p.name)
def test_quake2_and_quake3_mix_no_quake_ambient_sounds(path) -> None:
    assert not any(name.startswith("ambience/") for name in _asked_sounds(path))


def test_quake_still_mixes_its_ambient_sounds() -> None:
    assert {"ambience/water1.wav", "ambience/wind2.wav"} <= _asked_sounds(LQ1 / "demo1.dem")


def test_a_missing_quake_model_is_warned_once(tmp_path, capsys) -> None:
    """vektar_demo1 with LibreQuake's data: progs/statue.mdl is not there (it was named by the loader and again
    by the renderer when drawn)."""
    (tmp_path / "lq1").mkdir()
    (tmp_path / "lq1" / "pak0.pak").symlink_to(LQ1 / "pak0.pak")
    assert main(["screenshot", str(DATA / "public" / "quake1" / "vektar_demo1.dem"), "--time", "50%", "--size",
                 "160x90", "--out", str(tmp_path / "v.png"), "--basedir", str(tmp_path), "--game", "lq1"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert len([line for line in lines if "progs/statue.mdl" in line]) == 1


def test_quake2_chat_counts_once_in_the_totals() -> None:
    """Quake II chat arrives as a print the decoder also reads as a chat (or an obituary): one line, one count."""
    guide = info_dict(load_demo(str(QUAKE2 / "demos" / "AQtion-demo-guide.dm2")), "guide")
    assert guide["events"]["chat"] == 13 and "print" not in guide["events"]      # all 13 prints are chat
    duel = load_demo(str(QUAKE2 / "demos" / "libq2-testduel.dm2"))
    counts = info_dict(duel, "duel")["events"]
    prints = len(duel.events_of_kind("print"))
    assert (counts["chat"], counts["obituary"]) == (6, 6)
    assert counts["print"] == prints - 12 == 17
