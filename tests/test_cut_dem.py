"""``qdv cut`` for NetQuake ``.dem`` (issue 35): the cut of a range decodes in qdv as the original's range, from its
first frame; every message of the cut parses, it ends with ``svc_disconnect``; the command never overwrites."""

from __future__ import annotations

import warnings
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assets_loader.demos import load_demo
from assets_loader.demos.quake import protocol as P
from assets_loader.demos.timeline import sample
from assets_loader.demos.writers.quake import walk_blocks
from tests.builders.dem import DemWriter
from tests.conftest import DATA, LQ1
from tests.cut_check import assert_same_range, cut_and_load
from viewer.cli import main

DEMOS = {"demo1": LQ1 / "demo1.dem", "demo3": LQ1 / "demo3.dem", "demo1_lite": LQ1 / "demo1_lite.dem",
         "vektar": DATA / "public" / "quake1" / "vektar_demo1.dem"}
#: Ranges as fractions of the demo's length: the start, a middle piece, the end.
RANGES = {"start": (0.0, 0.1), "middle": (0.45, 0.55), "end": (0.9, 1.0)}


@pytest.fixture(scope="module", params=sorted(DEMOS))
def demo(request):
    path = DEMOS[request.param]
    return path.read_bytes(), load_demo(path)


def _seconds(tl, a: float, b: float) -> tuple[float, float]:
    return tl.start_time + a * tl.duration, tl.start_time + b * tl.duration


def _check_structure(cut: bytes, protocol: int) -> None:
    _line, blocks = walk_blocks(cut, "cut.dem")          # every message parses with the decoder's table
    assert blocks[0].has(P.svc_serverinfo)
    assert blocks[-1].messages[-1][0] == P.svc_disconnect
    assert load_demo(cut, name="cut.dem").protocol == protocol


@pytest.mark.parametrize("where", sorted(RANGES))
def test_cut_equals_the_original_range(demo, where):
    data, tl = demo
    start, end = _seconds(tl, *RANGES[where])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cut, ct = cut_and_load(data, tl, start, end, ".dem")
    assert ct.warnings == ()
    assert ct.events[-1].kind == "disconnect"
    _check_structure(cut, tl.protocol)
    assert_same_range(tl, ct, start, end)
    assert len(cut) < len(data)


@settings(max_examples=8, deadline=None)
@given(st.floats(0.0, 1.0), st.floats(0.0, 0.3))
def test_random_ranges_of_demo3(a, length):
    data = (LQ1 / "demo3.dem").read_bytes()
    tl = _demo3()
    start, end = _seconds(tl, a, min(a + length, 1.0))
    if not ((tl.times >= start - 1e-6) & (tl.times <= end + 1e-6)).any():
        return
    cut, ct = cut_and_load(data, tl, start, end, ".dem")
    _check_structure(cut, tl.protocol)
    assert_same_range(tl, ct, start, end, most=20)


@cache
def _demo3():
    return load_demo(LQ1 / "demo3.dem")


def _fitzquake_demo() -> bytes:
    """A protocol 666 demo whose state changes between the signon and the cut: a lightstyle, a name and frags, a
    killed monster and a found secret, a static entity."""
    w = DemWriter(P.PROTOCOL_FITZQUAKE)
    w.block(w.serverinfo(models=["progs/player.mdl", "progs/box.mdl"], sounds=["a.wav"]), w.signonnum(1))
    w.block(w.spawnbaseline(1, 2, origin=(0, 0, 0)), w.spawnbaseline(2, 3), w.signonnum(2))
    w.block(w.time(1.0), w.updatename(0, "ranger"), w.lightstyle(0, "m"), w.updatestat(P.STAT_TOTALMONSTERS, 5),
            w.updatestat(P.STAT_MONSTERS, 1), w.setview(1), w.clientdata(), w.signonnum(3))
    for i in range(40):
        t = 1.1 + i * 0.1
        extra = []
        if i == 5:
            extra = [w.lightstyle(0, "az"), w.updatefrags(0, 3), w.killedmonster(), w.foundsecret(),
                     w.spawnstatic(3, origin=(64, 0, 0))]
        if i == 12:
            extra = [w.updatename(0, "wolf"), w.killedmonster()]
        w.block(w.time(t), *extra, w.clientdata(health=100 - i),
                w.update(1, origin=(i * 8.0, 0.0, 24.0), angles=(0.0, i * 3.0, 0.0), frame=i % 6),
                w.update(2, model=3, origin=(100.0, i * 4.0, 0.0)), angles=(0.0, i * 3.0, 0.0))
    w.block(w.disconnect())
    return w.build()


def test_state_before_the_cut_is_carried():
    data = _fitzquake_demo()
    tl = load_demo(data, name="fitz.dem")
    assert tl.protocol == P.PROTOCOL_FITZQUAKE
    start, end = tl.start_time + 2.0, tl.start_time + 3.0
    cut, ct = cut_and_load(data, tl, start, end, ".dem")
    _check_structure(cut, P.PROTOCOL_FITZQUAKE)
    assert_same_range(tl, ct, start, end)
    first = ct.segments[0]
    assert len(first.statics) == 1
    scene = sample(ct, ct.start_time)
    assert scene.lightstyles[0] == "az" and scene.scoreboard[0].name == "wolf" and scene.scoreboard[0].frags == 3
    assert scene.stats["monsters"] == 3 and scene.stats["secrets"] == 1


def test_cli_cut_never_overwrites(tmp_path: Path, capsys):
    out = tmp_path / "cut.dem"
    demo = str(LQ1 / "demo3.dem")
    assert main(["cut", demo, "--from", "5", "--to", "+3", "--out", str(out)]) == 0
    assert "frames" in capsys.readouterr().out
    written = out.read_bytes()
    assert main(["cut", demo, "--from", "10", "--to", "+3", "--out", str(out)]) == 1
    assert "already exists" in capsys.readouterr().err and out.read_bytes() == written
    assert main(["cut", demo, "--from", "10", "--to", "+3", "--out", str(out), "--force"]) == 0
    assert out.read_bytes() != written
    assert main(["cut", demo, "--from", "1:00:00", "--to", "+3", "--out", str(tmp_path / "x.dem")]) == 2
    assert main(["cut", demo, "--from", "soon", "--out", str(tmp_path / "y.dem")]) == 2
    assert not (tmp_path / "x.dem").exists() and not (tmp_path / "y.dem").exists()
