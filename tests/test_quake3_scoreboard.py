"""Quake III's scoreboard (``CG_DrawOldScoreboard``) on the real OpenArena demos: when it comes up, its rows, the
viewed player's bar, the heads and the interleaved layout for many players."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from assets_loader.demos import PlayerScore, load_demo
from assets_loader.demos.quake3.game import PM_INTERMISSION
from viewer.games.quake3 import hud, scoreboard

from .conftest import QUAKE3

FOLLOW = QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"
#: Sarge, the followed player, lies dead from 31.6 to 33.75 s (fragged by Grunt) in second place.
DEAD = 32.5


@pytest.fixture(scope="module")
def follow():
    return load_demo(str(FOLLOW))


def _rows(layout) -> dict[float, str]:
    """The 16-unit text lines of a 640 × 480 layout by y (black shadows and spaces left out)."""
    lines: dict[float, list[tuple[float, str]]] = {}
    for q in layout.quads:
        if q.kind == "pic" and str(q.ref).startswith("q3char") and q.w == 16 and q.tint != (0.0, 0.0, 0.0):
            lines.setdefault(q.y, []).append((q.x, chr(int(str(q.ref).split("/")[1]))))
    return {y: "".join(c for _, c in sorted(chars)) for y, chars in sorted(lines.items())}


def _titles(layout) -> list[tuple[str, float, float]]:
    return [(str(q.ref), q.x, q.y) for q in layout.quads if str(q.ref).startswith("menu/tab/")]


def test_the_scoreboard_comes_up_while_the_viewed_player_is_dead(follow) -> None:
    layout = hud.hud_layout(follow.sample(follow.start_time + DEAD), follow, (640, 480), 1)
    assert _titles(layout) == [(name, x, 86) for name, x in scoreboard.COLUMN_TITLES]
    rows = _rows(layout)
    assert rows[40] == "FraggedbyGrunt"
    assert rows[60] == "2ndplacewith3"
    assert [rows[y] for y in (118, 158, 198, 238)] == ["500Grunt", "300Sarge", "200Major", "100Angelyss"]
    assert rows[118 + 4 * 40 + 16] == "SPECT00DemoCam"             # the spectators after a 16-unit gap
    bars = [q for q in layout.quads if q.ref == "<white>" and q.x == 176]
    assert [(q.y, q.tint, q.alpha) for q in bars] == [(158, (0.7, 0.0, 0.0), 0.7)]   # Sarge's row, 2nd: red
    skills = [q for q in layout.quads if str(q.ref).startswith("menu/art/skill")]
    assert [(str(q.ref), q.x, q.y, q.w) for q in skills][:1] == [("menu/art/skill3", 80, 118 - 8, 32)]
    assert len(skills) == 4                                          # the bots; DemoCam has no skill
    alive = hud.hud_layout(follow.sample(follow.start_time + 30.0), follow, (640, 480), 1)
    assert not _titles(alive)


def test_the_scores_key_shows_it_alive_with_minutes_and_no_centre_print(follow) -> None:
    state = follow.sample(follow.start_time + 24.3)                 # a frag's centre print is up
    plain = hud.hud_layout(state, follow, (640, 480), 1)
    shown = hud.hud_layout(state, follow, (640, 480), 1, show_scores=True)
    assert not _titles(plain) and _titles(shown)
    assert "1stplacewith3" in _rows(shown).values()                  # the playerState's score (the table lags)
    assert not [q for q in shown.quads if str(q.ref).startswith("q3char") and q.h == 24]   # the centre print waits
    assert [q for q in plain.quads if str(q.ref).startswith("q3char") and q.h == 24]
    end = hud.hud_layout(follow.sample(follow.end_time - 1.0), follow, (640, 480), 1, show_scores=True)
    assert "702Grunt" in _rows(end).values()                          # 7 frags, ping 0, 2 minutes on the server


def test_each_row_shows_the_players_head_model_facing_the_view(follow, q3_fs) -> None:
    from viewer.games.quake3.view import Quake3View

    models = Quake3View().load_segment_assets(q3_fs, follow.segments[0]).md3
    layout = hud.hud_layout(follow.sample(follow.start_time + DEAD), follow, (640, 480), 1, models=models)
    heads = [m for m in layout.models if m.x == 112]
    assert [(m.y, m.w, m.h) for m in heads] == [(y - 16, 48, 48) for y in (118, 158, 198, 238, 294)]
    assert [m.model.model for m in heads][:2] == ["models/players/smarine/head.md3",   # Grunt plays smarine
                                                  "models/players/sarge/head.md3"]
    assert all(np.allclose(m.model.axis[0], (-1.0, 0.0, 0.0), atol=1e-6) for m in heads)   # yaw 180: facing us
    assert not [q for q in layout.quads if str(q.ref).startswith("models/players/")]   # no 2D icons needed


def test_more_than_seven_players_use_the_interleaved_rows(follow) -> None:
    state = follow.sample(follow.start_time + DEAD)
    crowd = tuple(PlayerScore(slot, f"P{slot}", 20 - slot, 0, "0", userinfo=(("model", "sarge"),))
                  for slot in range(9))
    layout = hud.hud_layout(dataclasses.replace(state, scoreboard=crowd), follow, (640, 480), 1)
    rows = _rows(layout)
    assert [rows[118 + 16 * k] for k in range(9)] == [f"{20 - k}00P{k}" for k in range(9)]
    icons = [q for q in layout.quads if str(q.ref) == "models/players/sarge/icon_default"]
    assert {(q.w, q.h) for q in icons} == {(16, 16)} and len(icons) == 9   # 2D heads without models


def test_team_games_list_the_leading_team_first_on_its_band(follow) -> None:
    state = follow.sample(follow.start_time + DEAD)
    teams = tuple(PlayerScore(slot, f"P{slot}", slot, 0, team) for slot, team in enumerate("1221"))
    stats = {**state.stats, "scores1": 3, "scores2": 5}
    layout = hud.hud_layout(dataclasses.replace(state, scoreboard=teams, stats=stats), follow, (640, 480), 1)
    rows = _rows(layout)
    assert rows[60] == "Blueleads5to3"
    first = 118 + 20                                                   # half a row down
    assert [rows[first], rows[first + 40]] == ["200P2", "100P1"]      # blue first, by score
    assert [rows[first + 80 + 16], rows[first + 120 + 16]] == ["300P3", "000P0"]
    bands = [(q.y, q.tint) for q in layout.quads if q.ref == "<white>" and q.x == 0 and q.w == 640]
    assert bands == [(first - 16, (0.0, 0.0, 1.0)), (first + 96 - 16, (1.0, 0.0, 0.0))]


def test_the_intermission_shows_the_scoreboard_alone(follow) -> None:
    """``CG_DrawIntermission``: no status bar, lagometer, score boxes or follow prompt, only the scoreboard."""
    state = follow.sample(follow.start_time + 12.3)
    over = dataclasses.replace(state, stats={**state.stats, "pm_type": PM_INTERMISSION})
    layout = hud.hud_layout(over, follow, (640, 480), 1)
    assert _titles(layout)
    refs = {str(q.ref) for q in layout.quads}
    assert not [r for r in refs if r.startswith(("gfx/2d/numbers/", "gfx/2d/lag", "icons/"))]
    assert "following" not in _rows(layout).values()
