"""OpenArena's respawn line on the player demo: the ``respawn`` server commands become events on the timeline's
clock, and the HUD says "Respawn in: S.SS" (the reference frames at 30 s and 70.2 s show "Respawn in: 1.66"), then
"Click FIRE to respawn" until the player spawns."""

from __future__ import annotations

import pytest

from assets_loader.demos import load_demo
from viewer.games.quake3 import hud, respawn

from .conftest import QUAKE3

PLAYER = QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71"
FOLLOW = QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"


@pytest.fixture(scope="module")
def player():
    return load_demo(str(PLAYER))


def _small_line(layout, y: float) -> tuple[str, set]:
    """The 8 × 16 characters at virtual y ``y`` of a 640 × 480 layout and their tints."""
    chars = sorted((q.x, chr(int(str(q.ref).split("/")[1])), q.tint) for q in layout.quads
                   if q.kind == "pic" and str(q.ref).startswith("q3char") and q.w == 8 and q.h == 16 and q.y == y)
    return "".join(c for _, c, _ in chars), {t for _, _, t in chars}


def test_respawn_commands_are_events_on_the_timeline_clock(player) -> None:
    """Three deaths: ``respawn 55358`` etc. (server ms; the demo's first snapshot is at 23700 ms), each cleared by
    ``respawn 0`` when the player spawns."""
    events = player.events_of_kind("respawn_time")
    start = player.start_time
    assert [round(e.time + e.wait - start, 3) if e.wait is not None else None for e in events] == \
        [31.658, None, 48.908, None, 71.858, None]
    assert [e.wait for e in events][::2] == [1.708] * 3        # player_die: 1.7 s (+ the snapshot's 8 ms)


@pytest.mark.parametrize("seconds, line", [(30.0, "Respawn in: 1.66"), (70.2, "Respawn in: 1.66"),
                                           (31.7, "Click FIRE to respawn"), (29.0, None), (33.0, None)])
def test_the_respawn_line_counts_down_then_asks_for_fire(player, seconds, line) -> None:
    state = player.sample(player.start_time + seconds)
    found = respawn.respawn_line(state, player)
    assert (found[0] if found else None) == line
    layout = hud.hud_layout(state, player, (640, 480), 1)
    text, tints = _small_line(layout, 400)
    assert text == (line or "").replace(" ", "")
    if line:
        assert tints == {respawn.YELLOW if line.startswith("Respawn") else respawn.GREEN}
        xs = [q.x for q in layout.quads if q.kind == "pic" and q.y == 400 and q.w == 8]
        assert min(xs) == 320 - len(line) * 8 // 2


def test_a_spectator_following_players_gets_no_respawn_line() -> None:
    follow = load_demo(str(FOLLOW))
    assert not follow.events_of_kind("respawn_time")
    assert respawn.respawn_line(follow.sample(follow.start_time + 32.5), follow) is None
