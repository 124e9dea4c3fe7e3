"""Quake Live's numbers read as Quake III's where the viewer shares code: protocol 91's powerup slots renumbered
(UDT ``powerup_91_t``) and the ``persistant`` slots past 6 named in Quake III's order (``PERS_KILLED`` at 7, the
award counters at 8-13, ``PERS_ATTACKEE_ARMOR`` at 14), on public demos and tiny synthetic states."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from assets_loader.demos import events as ev
from assets_loader.demos import load_demo
from assets_loader.demos.quake3 import parse_demo
from assets_loader.demos.quake3.game import QL91_POWERUPS, QUAKE_LIVE_NUMBERS, info_pairs, powerups_as_quake3
from assets_loader.demos.quake3.timeline import _quake3_powerups
from tests.conftest import DATA

QL = DATA / "public" / "quakelive"
PW_QUAD, PW_REDFLAG, PW_BLUEFLAG, PW_INVULNERABILITY = 1, 7, 8, 14


def test_protocol_91_powerups_become_quake3_slots() -> None:
    quad, red, invulnerability, freeze = 1 << 5, 1 << 2, 1 << 11, 1 << 16
    bits = np.array([quad, red | quad, invulnerability | freeze, 0b11], np.int32)
    slots = np.zeros((2, 16), np.int32)
    slots[0, 5], slots[1, 3] = 30000, 123          # quad's end time; the blue flag held
    out_bits, out_slots = powerups_as_quake3(bits, slots)
    assert out_bits.tolist() == [1 << PW_QUAD, 1 << PW_REDFLAG | 1 << PW_QUAD, 1 << PW_INVULNERABILITY | freeze, 0]
    assert np.flatnonzero(out_slots[0]).tolist() == [PW_QUAD] and out_slots[0, PW_QUAD] == 30000
    assert np.flatnonzero(out_slots[1]).tolist() == [PW_BLUEFLAG] and out_slots[1, PW_BLUEFLAG] == 123
    assert sorted(q for q in QL91_POWERUPS if q >= 0) == [*range(1, 15), 16]     # one wire slot each


def test_protocol_91_demo_reads_renumbered_powerups() -> None:
    """The public 91 demos hold no powerup: planting protocol 91's quad in one entity and one player state, the
    timeline's demo shows Quake III's quad bit and slot."""
    name = "dm_91_duel_forfeit_disconnect.dm_91"
    demo = parse_demo((QL / name).read_bytes(), name)
    states, player = demo.snapshots.states.copy(), demo.snapshots.player.copy()
    states["powerups"][3] = 1 << 5
    player["powerups"][7, 5] = 99
    planted = dataclasses.replace(demo, snapshots=dataclasses.replace(demo.snapshots, states=states, player=player))
    seen = _quake3_powerups(planted).snapshots
    assert seen.states["powerups"][3] == 1 << PW_QUAD and seen.player["powerups"][7, PW_QUAD] == 99
    assert np.count_nonzero(seen.states["powerups"]) == 1 and np.count_nonzero(seen.player["powerups"]) == 1
    assert _quake3_powerups(parse_demo((QL / "dm_90_ft.dm_90").read_bytes(), "dm_90_ft.dm_90")).protocol == 90


@pytest.mark.parametrize("name", ["dm_90_ffa.dm_90", "dm_73_duel_scores.dm_73"])
def test_persistant_slots_are_named_like_quake3(name: str) -> None:
    """``killed`` at the end is how often the followed player died (its obituaries as victim); the award columns
    are the raw slots 8-13 and ``attackee_armor`` slot 14."""
    demo = parse_demo((QL / name).read_bytes(), name)
    timeline = load_demo(QL / name)
    raw = demo.snapshots.player["persistant"]
    assert np.array_equal(timeline.stats["killed"], raw[:, 7])
    assert np.array_equal(timeline.stats["impressive_count"], raw[:, 8])
    assert np.array_equal(timeline.stats["captures"], raw[:, 13])
    assert np.array_equal(timeline.stats["attackee_armor"], raw[:, 14])
    client = int(timeline.stats["clientNum"][-1])
    strings = demo.configstrings_at(len(demo.snapshots) - 1)
    followed = dict(info_pairs(strings[QUAKE_LIVE_NUMBERS.cs_players + client]))["n"]
    deaths = sum(1 for e in timeline.events if isinstance(e, ev.ObituaryEvent) and e.victim == followed)
    assert deaths > 0 and timeline.stats["killed"][-1] == deaths
