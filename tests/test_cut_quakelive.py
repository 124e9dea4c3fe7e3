"""``qdv cut`` for Quake Live ``.dm_73`` / ``.dm_90`` / ``.dm_91`` (issue 35): written with Quake Live's entity and
player tables (and protocol 91's UTF-8 strings), each public demo's start, middle and end cut decodes in qdv as the
original's range (entities, view, stats, names and scores), from a gamestate and a non-delta snapshot to the
``(-1, -1)`` marker."""

from __future__ import annotations

import struct
import warnings
from functools import cache
from pathlib import Path

import pytest

from assets_loader.demos import load_demo
from assets_loader.demos.quake3.framing import split_messages
from assets_loader.demos.quake3.parse import parse_demo
from assets_loader.demos.writers import CUT_FORMATS
from tests.conftest import DATA
from tests.cut_check import assert_same_range, cut_and_load

QL = DATA / "public" / "quakelive"
DEMOS = sorted(p.name for p in QL.glob("*.dm_*"))
RANGES = {"start": 0.0, "middle": 0.5, "end": 1.0}
SECONDS = 6.0


@cache
def _demo(name: str):
    path = QL / name
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")         # truncated.dm_73 warns that it ends early
        return path.read_bytes(), load_demo(path)


def test_quake_live_formats_are_cut():
    assert {"dm_73", "dm_90", "dm_91"} <= set(CUT_FORMATS)
    assert len(DEMOS) == 9


@pytest.mark.parametrize("where", sorted(RANGES))
@pytest.mark.parametrize("name", DEMOS)
def test_cut_equals_the_original_range(name, where):
    data, tl = _demo(name)
    length = min(SECONDS, tl.duration)
    start = tl.start_time + RANGES[where] * (tl.duration - length)
    end = start + length
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cut, ct = cut_and_load(data, tl, start, end, Path(name).suffix)
    assert ct.warnings == () and ct.protocol == tl.protocol
    framing = split_messages(cut, "cut")
    assert framing.cut is None and cut.endswith(struct.pack("<ii", -1, -1))
    sequences = [block.sequence for block in framing.blocks]
    assert sequences[0] == 1 and all(q > p for p, q in zip(sequences, sequences[1:]))
    demo = parse_demo(cut, "cut" + Path(name).suffix)
    assert demo.gamestates[0].message == 0 and demo.snapshots.delta_num[0] == -1
    assert_same_range(tl, ct, start, end, most=30)


def test_utf8_names_survive_the_cut():
    """Protocol 91 strings are UTF-8: a name in Japanese is written back as it was read, not as dots."""
    data, tl = _demo("dm_91_duel.dm_91")
    _cut, ct = cut_and_load(data, tl, tl.start_time, tl.start_time + 2.0, ".dm_91")
    names = {s.name for s in ct.scoreboard_changes}
    assert "[LIFT] t41TG ティム" in names


def test_a_client_that_left_has_an_empty_slot():
    """truncated.dm_73: Adhur (slot 7) leaves at frame 10978; his scores are his own until then and the empty
    slot has none after (the decoder reads names and scores in message order)."""
    _data, tl = _demo("truncated.dm_73")
    slot7 = [(c.frame, c.name, c.frags) for c in tl.scoreboard_changes if c.slot == 7]
    assert all(name == "Adhur" for frame, name, _f in slot7 if frame < 10978)
    assert slot7[-1] == (10978, "", 0)
