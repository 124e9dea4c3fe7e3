"""The Quake III HUD's round timer on a public Quake Live freeze-tag demo: ``Round N m:ss`` in the upper right while
a round runs (from its start, ``CS_ROUND_TIME``), nothing between rounds nor in a game without rounds."""

from __future__ import annotations

import pytest

from assets_loader.demos import load_demo
from viewer.games.quake3 import hud
from tests.conftest import DATA, QUAKE3


@pytest.fixture(scope="module")
def freeze():
    return load_demo(DATA / "public" / "quakelive" / "dm_90_ft.dm_90")


def test_round_timer_runs_during_rounds_only(freeze) -> None:
    rounds = freeze.events_of_kind("round")
    assert [(e.started, e.number) for e in rounds] == [(True, 1), (False, 1), (True, 2), (False, 2)]
    assert hud.round_timer_text(freeze.sample(rounds[0].time + 10.4), freeze) == "Round 1 0:10"
    assert hud.round_timer_text(freeze.sample(rounds[2].time + 15.6), freeze) == "Round 2 0:15"
    assert hud.round_timer_text(freeze.sample(rounds[1].time + 1.0), freeze) is None      # between rounds
    assert hud.round_timer_text(freeze.sample(rounds[0].time - 1.0), freeze) is None      # before the first


def test_round_timer_is_drawn_right_aligned_in_the_upper_right(freeze) -> None:
    state = freeze.sample(freeze.events_of_kind("round")[0].time + 10.4)
    letters = [q for q in hud.hud_layout(state, freeze, (640, 480), 1).quads if q.y == 2 and q.w == 16]
    assert len(letters) == len("Round10:10") and max(q.x for q in letters) + 16 == 635


def test_no_round_timer_without_rounds() -> None:
    quake3 = load_demo(QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68")
    assert hud.round_timer_text(quake3.sample(quake3.start_time + 12.0), quake3) is None
