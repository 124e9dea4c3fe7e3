"""Quake Live demos play the Quake III cgame's sound rules with Quake Live's own numbers (its whole entity-event
table, items, ``CS_SOUNDS`` / ``CS_PLAYERS`` indices): on public freeze-tag and duel demos every kind of entity
event that always sounds has as many sounds as the demo has events of that kind."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

import pytest

from assets_loader.demos import events as ev
from assets_loader.demos import load_demo
from assets_loader.demos.quake3.game import EV, QUAKE_LIVE_NUMBERS
from tests.conftest import DATA

QL = DATA / "public" / "quakelive"
DEMOS = ("dm_90_ft.dm_90", "dm_90_maps_in_q3_mejtissonPOV-vs-Anarki-aerowalk-2015_02_05-19_55_34.dm_90")
_DEATH = re.compile(r"player/[^/]+/death[123]\.wav")


@cache
def _counts(name: str) -> tuple[Counter, Counter, Counter]:
    """(sounds by sample, temporary entities by name, item pickups by item) of one demo."""
    events = load_demo(QL / name).events
    return (Counter(_DEATH.sub("DEATH", e.sound) for e in events if isinstance(e, ev.SoundEvent)),
            Counter(e.name for e in events if isinstance(e, ev.TempEntityEvent)),
            Counter(e.item for e in events if isinstance(e, ev.ItemPickupEvent)))


def test_quake_live_event_table_keeps_the_known_numbers() -> None:
    table = QUAKE_LIVE_NUMBERS.ev
    assert len(table) == 100 and sorted(table.values()) == list(range(100))
    assert (table["JUMP_PAD"], table["ITEM_PICKUP"], table["FIRE_WEAPON"], table["OBITUARY"], table["GIB_PLAYER"],
            table["AWARD"]) == (9, 15, 20, 58, 63, 97)
    assert (table["DROP_WEAPON"], table["USE_ITEM14"], table["ITEM_RESPAWN"], table["GENERAL_SOUND"],
            table["TAUNT"], table["NEW_HIGH_SCORE"]) == (19, 35, 37, 42, 74, 99)
    shared = set(table) & set(EV)
    assert {"FOOTSTEP", "JUMP", "GRENADE_BOUNCE", "POWERUP_QUAD", "PROXIMITY_MINE_STICK"} <= shared


@pytest.mark.parametrize("name", DEMOS)
def test_each_event_kind_sounds_once_per_event(name: str) -> None:
    sounds, temps, pickups = _counts(name)
    assert temps["jumppad"] + temps["teleport"] + temps["death"] > 0       # the demo has such events
    assert sounds["world/jumppad.wav"] == temps["jumppad"]
    assert sounds["world/telein.wav"] == temps["teleport"]
    assert sounds["world/teleout.wav"] == temps["teleport_out"]
    assert sounds["DEATH"] == temps["death"]
    assert sounds["player/gibsplt1.wav"] == temps["gib"]
    weapons = sum(n for item, n in pickups.items() if item.startswith("weapon_"))
    assert weapons > 0 and sounds["misc/w_pkup.wav"] == weapons
    assert sounds["misc/ar1_pkup.wav"] == pickups["item_armor_shard"]
    assert sum(n for s, n in sounds.items() if s.startswith("player/footsteps/")) > 0
