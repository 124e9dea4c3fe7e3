"""Quake III's warm-up (``CS_WARMUP``, ``CG_DrawWarmup``): the timeline's ``warmup`` column on a real demo given
warm-up configstrings (no corpus recording has a warm-up), and the HUD lines and scoreboard rule it drives."""

from __future__ import annotations

import dataclasses
import types

import numpy as np
import pytest

from assets_loader.demos import load_demo
from assets_loader.demos.quake3 import game as g
from assets_loader.demos.quake3.commands import ConfigstringChange
from assets_loader.demos.quake3.parse import parse_demo
from assets_loader.demos.quake3.timeline import timeline_from_demo
from viewer.games.quake3 import hud, scoreboard
from viewer.games.quake3.screen import VirtualScreen
from viewer.games.quake3.warmup import draw_warmup

from .conftest import QUAKE3

PLAYER = QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71"
FOLLOW = QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"
#: Sarge, the followed player of FOLLOW, lies dead at 32.5 s.
DEAD = 32.5


@pytest.fixture(scope="module")
def player():
    return load_demo(str(PLAYER))


def _lines(quads) -> dict[tuple[float, float], str]:
    """Text lines by (y, letter width), black shadows left out."""
    lines: dict[tuple[float, float], list[tuple[float, str]]] = {}
    for q in quads:
        if q.kind == "pic" and str(q.ref).startswith("q3char") and q.tint != (0.0, 0.0, 0.0):
            lines.setdefault((q.y, q.w), []).append((q.x, chr(int(str(q.ref).split("/")[1]))))
    return {key: "".join(c for _, c in sorted(chars)) for key, chars in sorted(lines.items())}


def test_the_warmup_column_counts_the_seconds_the_cgame_shows() -> None:
    demo = parse_demo(PLAYER.read_bytes(), str(PLAYER))
    server = demo.snapshots.server_time.astype(np.int64)
    after = demo.gamestates[0].message + 1
    start, cleared, waiting = 100, 300, 400
    changes = (ConfigstringChange(after, start, g.CS_WARMUP, str(server[start] + 2500)),
               ConfigstringChange(after, cleared, g.CS_WARMUP, ""),
               ConfigstringChange(after, waiting, g.CS_WARMUP, "-1"))
    timeline = timeline_from_demo(dataclasses.replace(demo, configstring_changes=demo.configstring_changes + changes))
    warmup = timeline.stats["warmup"]
    assert len(warmup) == len(server)
    left = server[start] + 2500 - server
    assert (warmup[:start] == 0).all() and warmup[start] == 3
    in_countdown = np.arange(start, cleared)
    expected = np.where(np.trunc(left / 1000.0) >= 0, np.trunc(left / 1000.0) + 1, 0)[in_countdown]
    assert (warmup[in_countdown] == expected).all()
    assert set(warmup[in_countdown]) == {3, 2, 1, 0}     # 1 still a second past the end (C's truncation), then 0
    assert (warmup[cleared:waiting] == 0).all() and (warmup[waiting:] == -1).all()
    assert not load_demo(str(PLAYER)).stats["warmup"].any()   # the recording itself has no warm-up


def test_waiting_for_players_and_the_countdown_on_the_hud(player) -> None:
    state = player.sample(player.start_time + 20.0)
    waiting = hud.hud_layout(dataclasses.replace(state, stats={**state.stats, "warmup": -1}), player, (640, 480), 1)
    assert _lines(waiting.quads)[(24, 16)] == "Waitingforplayers"
    counting = hud.hud_layout(dataclasses.replace(state, stats={**state.stats, "warmup": 3}), player, (640, 480), 1)
    lines = _lines(counting.quads)
    assert lines[(25, 32)] == "FreeForAll" and lines[(70, 20)] == "Startsin:3"
    starts = [q for q in counting.quads if q.y == 70 and q.tint != (0.0, 0.0, 0.0)]
    assert min(q.x for q in starts) == 320 - len("Starts in: 3") * 20 // 2 and starts[0].h == 30
    last = hud.hud_layout(dataclasses.replace(state, stats={**state.stats, "warmup": 1}), player, (640, 480), 1)
    assert _lines(last.quads)[(70, 28)] == "Startsin:1"
    assert not [k for k in _lines(hud.hud_layout(state, player, (640, 480), 1).quads) if k[0] in (24, 25, 70)]


def test_a_duel_names_its_two_players_in_letters_that_fit(player) -> None:
    state = player.sample(player.start_time + 20.0)
    state = dataclasses.replace(state, stats={**state.stats, "warmup": 5})
    duel = types.SimpleNamespace(segments=[dataclasses.replace(player.segments[0], gametype=g.GT_TOURNAMENT)])
    screen = VirtualScreen((640, 480))
    draw_warmup(screen, state, duel)
    names = [p.name for p in sorted(state.scoreboard, key=lambda p: p.slot) if p.name]
    line = f"{names[0]} vs {names[-1]}"
    width = 32 if len(line) <= 20 else 640 // len(line)
    assert _lines(screen.quads)[(20, width)] == line.replace(" ", "")
    assert _lines(screen.quads)[(70, 16)] == "Startsin:5"


def test_no_scoreboard_on_death_during_a_warmup_and_no_warmup_while_following() -> None:
    follow = load_demo(str(FOLLOW))
    dead = follow.sample(follow.start_time + DEAD)
    assert scoreboard.is_showing(dead, False)
    warming = dataclasses.replace(dead, stats={**dead.stats, "warmup": 2})
    assert not scoreboard.is_showing(warming, False) and scoreboard.is_showing(warming, True)
    layout = hud.hud_layout(warming, follow, (640, 480), 1)
    assert not [q for q in layout.quads if str(q.ref).startswith("menu/tab/")]
    lines = _lines(layout.quads)
    assert lines[(24, 16)] == "following" and (70, 24) not in lines    # CG_DrawFollow instead of the warm-up


def test_a_configstring_number_past_32_bits_is_clamped_not_a_crash() -> None:
    """A crafted ``CS_WARMUP`` or ``CS_SCORES1`` once stopped the decoder with numpy's OverflowError."""
    demo = parse_demo(PLAYER.read_bytes(), str(PLAYER))
    after = demo.gamestates[0].message + 1
    changes = (ConfigstringChange(after, 10, g.CS_WARMUP, "9" * 40),
               ConfigstringChange(after, 10, g.CS_SCORES1, "-" + "9" * 40))
    timeline = timeline_from_demo(dataclasses.replace(demo, configstring_changes=demo.configstring_changes + changes))
    assert timeline.stats["warmup"][10] > 1000 and timeline.stats["scores1"][10] == -2**31


def test_a_quake_live_game_type_is_named_by_its_own_numbers(player) -> None:
    """Quake Live's 4 is clan arena (Quake III's CTF number), 9 freeze tag."""
    state = dataclasses.replace(player.sample(player.start_time + 20.0), stats={"warmup": 4})
    for protocol, gametype, title in ((73, 4, "ClanArena"), (90, 9, "FreezeTag"), (68, 4, "CapturetheFlag")):
        segment = dataclasses.replace(player.segments[0], protocol=protocol, gametype=gametype)
        screen = VirtualScreen((640, 480))
        draw_warmup(screen, state, types.SimpleNamespace(segments=[segment]))
        assert _lines(screen.quads)[(25, 32)] == title
