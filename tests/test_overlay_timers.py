"""Item respawn timers on real demos (issue #33 item 5): a real pickup starts a countdown to the game's respawn time,
"unknown" before the first pickup, and the items the demos show coming back do so after the game's time."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.demos import load_demo
from viewer.overlays.item_timers import ItemTimers
from viewer.overlays.timers_panel import timers_lines, timer_text

from .conftest import DATA, QUAKE2, QUAKE3, QUAKEWORLD

CPMA = DATA / "public" / "quake3" / "cpma_duel.dm_68"
TWO_ON_TWO = QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd"
MVD = QUAKEWORLD / "lq_lqdm2_mvd.mvd"
Q2_DUEL = QUAKE2 / "demos" / "libq2-testduel.dm2"
OA = QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71"


def spots_of(path, short):
    return [s for s in ItemTimers(load_demo(path)).spots(0) if s.rule.short == short]


def test_quake3_pickups_are_the_item_pickup_events_and_count_down_25_seconds_for_armour():
    timeline = load_demo(CPMA)
    red = [s for s in ItemTimers(timeline).spots(0) if s.key == "item_armor_body"]
    assert len(red) == 1
    spot = red[0]
    events = [e.time for e in timeline.events_of_kind("pickup") if e.item == "item_armor_body"]
    assert len(spot.pickups) >= 15
    assert set(np.round(spot.pickups, 3)) <= set(np.round(events, 3))
    first = float(spot.pickups[0])
    assert spot.seconds_left(first - 0.5) is None                       # unknown before the first pickup
    assert spot.seconds_left(first) == pytest.approx(25.0)              # g_items.c RESPAWN_ARMOR
    assert spot.seconds_left(first + 10.0) == pytest.approx(15.0)
    waits = spot.returns - spot.pickups
    seen = waits[~np.isnan(waits)]
    # where the recorder saw the armour come back, it came back 25 s after (within a snapshot): never sooner
    assert np.median(seen) == pytest.approx(25.0, abs=0.1)
    assert seen.min() >= 25.0 - 0.1


@pytest.mark.parametrize("path, short, respawn", [(TWO_ON_TWO, "RA", 20.0), (TWO_ON_TWO, "YA", 20.0),
                                                   (TWO_ON_TWO, "Quad", 60.0), (Q2_DUEL, "CA", 20.0)])
def test_items_come_back_after_the_games_respawn_time(path, short, respawn):
    """An MVD shows every entity and a Quake II duel the recorder's view: each armour or quad taken comes back after
    items.qc's / g_items.c's time (the first return seen, within the frames' spacing)."""
    spots = spots_of(path, short)
    assert spots
    waits = np.concatenate([s.returns - s.pickups for s in spots])
    seen = waits[~np.isnan(waits)]
    assert len(seen) >= 2
    assert np.median(seen) == pytest.approx(respawn, abs=0.11)
    assert seen.min() >= respawn - 0.11
    for spot in spots:
        assert spot.rule.respawn == respawn


def test_a_countdown_runs_from_a_real_pickup_and_then_reads_up():
    quad = spots_of(TWO_ON_TWO, "Quad")[0]
    taken = float(quad.pickups[0])
    assert timer_text(quad, taken - 1.0) == ("unknown", timer_text(quad, taken - 1.0)[1])
    assert timer_text(quad, taken + 20.0)[0] == "40s"
    later = np.r_[quad.pickups[1:], np.inf]
    back = [r for r, nxt in zip(quad.returns, later) if nxt - r > 1.0]    # back, and left there a while
    assert back and timer_text(quad, back[0] + 0.5)[0] == "up"


def test_the_panel_lists_armour_mega_and_powerups_not_ammo():
    timeline = load_demo(MVD)
    lines = [text.split()[0] for text, _ in timers_lines(ItemTimers(timeline).spots(0), float(timeline.times[-1]))]
    assert {"RA", "YA", "MH", "Quad"} <= set(lines)
    assert not any(name.startswith(("RL", "shell", "nail", "+")) for name in lines)


def test_item_spots_are_placed_items_not_dropped_ones():
    """Quake III's dropped weapons (entity flags set) and Quake's backpacks are not spots; OpenArena's quad is."""
    spots = ItemTimers(load_demo(CPMA)).spots(0)
    assert all(len({s.entity for s in spots if s.entity == e}) == 1 for e in {s.entity for s in spots})
    assert max(s.entity for s in spots) < 150     # the map's items come first; dropped ones are higher
    assert [s.rule.short for s in ItemTimers(load_demo(OA)).spots(0) if s.key == "item_quad"] == ["Quad"]


class _Places:
    """A map whose entity lump names two places (``target_location``), for the panel."""

    entities = ({"classname": "worldspawn"},
                {"classname": "target_location", "origin": "0 0 0", "message": "^1Red ^7Armor Room"},
                {"classname": "target_location", "origin": "1000 0 0", "message": "Quad Bridge"},
                {"classname": "target_location", "origin": "bad", "message": "ignored"})


def test_panel_lines_name_the_nearest_place_the_map_gives():
    from viewer.overlays.locations import map_locations

    places = map_locations(_Places())
    assert [name for _, name in places] == ["Red Armor Room", "Quad Bridge"]
    timeline = load_demo(MVD)
    lines = [text for text, _ in timers_lines(ItemTimers(timeline).spots(0), float(timeline.times[0]), places)]
    quad = next(line for line in lines if line.startswith("Quad"))
    assert quad.endswith("Red Armor Room")         # the lqdm2 quad at (-256, 44) is nearer the first place
    assert map_locations(None) == ()


def test_a_quake_mega_health_counts_at_least_its_time():
    """items.qc's mega health respawns 20 s after its taker's health rotted back to 100 (first looked at 5 s after
    the pickup): the panel says 25 s at least, and the 2on2 MVD saw it back no sooner."""
    megas = spots_of(TWO_ON_TWO, "MH")
    taken = next(s for s in megas if len(s.pickups))
    assert timer_text(taken, float(taken.pickups[0]) + 5.0)[0] == "20s+"
    waits = np.concatenate([s.returns - s.pickups for s in megas])
    assert np.nanmin(waits) >= 25.0 - 0.11
