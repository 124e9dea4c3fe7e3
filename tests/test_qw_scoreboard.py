"""QuakeWorld scoreboards (``sbar.c``): the player table with ping/pl/time/frags(/team)/name columns, the team
totals in team games, the mini table beside the status bar, and the time-only score bar — on synthetic
scoreboards and on the real 2on2 MVD."""

from __future__ import annotations

from types import MappingProxyType

import numpy as np

from assets_loader.demos.schema import STAT_NAMES
from assets_loader.demos.timeline import EntityStates, MapSegment, PlayerScore, SceneState
from tests.conftest import QUAKEWORLD
from tests.test_hud import _text_rows
from viewer.games.quake.hud import build_hud
from viewer.games.quake.qw_scoreboard import is_team_game, ranked, team_scores
from viewer.render.refdef import HudLayout

SCREEN = (1280, 720)


def _players(teams: bool) -> tuple[PlayerScore, ...]:
    t = (lambda name: name) if teams else (lambda name: "")
    return (PlayerScore(0, "Alice", 5, 0x44, team=t("red"), ping=12, pl=0),
            PlayerScore(1, "Bob", 9, 0xdd, team=t("blue"), ping=40, pl=30),
            PlayerScore(2, "Carol", -1, 0x44, team=t("red"), ping=1200),
            PlayerScore(3, "Spec", 0, 0, spectator=True, ping=50),
            PlayerScore(4, "", 0, 0))


def _state(scores, health: int = 100, view_entity: int = 1, t: float = 130.0, intermission: int = 0) -> SceneState:
    values = dict.fromkeys(STAT_NAMES, 0)
    values.update(health=health, intermission=intermission)
    empty = EntityStates.empty()
    return SceneState(t, -1, 0, 1.0, view_entity, np.zeros(3), np.zeros(3), empty, empty, MappingProxyType(values),
                      ("",) * 64, tuple(scores))


def _segment() -> MapSegment:
    empty = EntityStates.empty()
    return MapSegment(0, "dm2", "Claustrophobopolis", 28, 0, 32, 1, ("", "maps/dm2.bsp"), ("",), 0, 10,
                      0.0, 600.0, 0.0, empty, empty, ())


def _layout(scores, *, show: bool, **kw):
    return build_hud(_state(scores, **kw), [], SCREEN, 1, segment=_segment(), quakeworld=True, show_scores=show)


def test_ranking_and_team_totals() -> None:
    players = _players(True)
    assert [s.name for s in ranked(players, spectators=True)] == ["Bob", "Alice", "Spec", "Carol"]
    assert [s.name for s in ranked(players, spectators=False)] == ["Bob", "Alice", "Carol"]
    assert is_team_game(players) and not is_team_game(_players(False))
    red, blue = sorted(team_scores(players), key=lambda ts: ts.team)[1], sorted(team_scores(players),
                                                                            key=lambda ts: ts.team)[0]
    assert (red.team, red.frags, red.players, red.ping_low, red.ping_avg, red.ping_high) == ("red", 4, 2, 12, 505,
                                                                                         999)
    assert (blue.team, blue.frags, blue.players) == ("blue", 9, 1)


def test_showscores_draws_the_player_table_not_kills_and_secrets() -> None:
    rows = _rows_of(_layout(_players(False), show=True))
    text = "\n".join(rows)
    assert "Kills" not in text and "Secrets" not in text
    assert "ping pl time frags name" in text
    table = [r for r in rows if r.strip().startswith(("12", "40", "999", "50"))]
    assert [r.split()[-1] for r in table] == ["Bob", "Alice", "Spec", "Carol"]
    bob = next(r for r in rows if r.endswith("Bob"))
    assert bob.split()[:4] == ["40", chr(ord("3") | 128) + chr(ord("0") | 128), "2", "9"]  # pl > 25: bronze
    assert "(spectator)" in next(r for r in rows if r.endswith("Spec"))
    assert any("Time :  2:10" in r for r in rows)                                          # the score bar row


def test_dead_in_a_team_game_shows_team_totals_then_players() -> None:
    rows = _rows_of(_layout(_players(True), show=False, health=0))
    assert rows[0] == "low/avg/high team total players"
    assert rows[2] == "40/ 40/ 40  blue     9     1"
    assert rows[3] == "12/505/999 \x10red \x11    4     2"          # the watched player's team in brackets
    assert rows[4] == "ping pl time frags team name"
    assert rows[7] == "12  0    2 \x10  5\x11 red  Alice"


def test_mini_overlay_beside_the_status_bar_with_team_totals() -> None:
    layout = _layout(_players(True), show=False)
    mini = _rows_of(layout, top=SCREEN[1] - 48, left=324)
    assert mini == ["9  blue Bob               blue    9",              # rows start at their first character
                    "\x10  5\x11 red  Alice            \x10red     4\x11",   # the watched player and team
                    "-1  red  Carol"]
    assert not any("ping" in r for r in _rows_of(layout))


def _rows_of(layout, top: int = 0, left: int = 0) -> list[str]:
    """Text rows (right-stripped of spaces only: the line-drawing characters count as whitespace in Python)."""
    kept = HudLayout(layout.screen_size, layout.scale, tuple(q for q in layout.quads if q.x >= left),
                     layout.sbar_lines)
    return [r.rstrip(" ") for r in _text_rows(kept, top=top).values()]


def test_real_2on2_mvd_scoreboard() -> None:
    from assets_loader.demos import load_demo
    timeline = load_demo(QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd")
    state = timeline.sample(timeline.end_time - 30.0, pov=timeline.default_pov)
    segment = timeline.segments[max(state.segment, 0)]
    layout = build_hud(state, [], SCREEN, 2, segment=segment, show_scores=True, quakeworld=True)  # no notify rows
    text = "\n".join(_rows_of(layout))
    assert "ping pl time frags team name" in text
    for name in ("Timber", "Sujoy", "MrJustice"):
        assert name in text
    assert "Kills" not in text


def test_scoreboard_key_in_a_team_game_shows_team_totals() -> None:
    rows = _rows_of(_layout(_players(True), show=True))
    assert rows[0] == "low/avg/high team total players"
    assert any(r.endswith("red  Carol") for r in rows)
