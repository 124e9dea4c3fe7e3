"""Every corpus .dm2 decodes to its end with the facts in ../shared/data/quake2/SOURCES.md, and the delta chains
agree with each other."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from assets_loader.demos import load_demo
from assets_loader.demos.quake2 import ConfigStrings
from assets_loader.demos.quake2 import protocol as P
from tests.conftest import QUAKE2

DEMOS = QUAKE2 / "demos"

# SOURCES.md, "Facts you can test against".
FACTS = {
    "AQtion-demo-guide.dm2": dict(
        blocks=1239, frames=1233, configstrings=308, configstring_msgs=308, baselines=0, print=13, stufftext=16,
        sound=8, temp_entity={}, muzzleflash=0, layout=0, playernum=0, gamedir="action", map="maps/terminal.bsp",
        players=["AQtion Guide"]),
    "AQtion-bandaging-guide.dm2": dict(
        blocks=1471, frames=1465, configstrings=320, configstring_msgs=320, baselines=1, print=27, stufftext=27,
        sound=22, temp_entity={"blood": 4, "rocket_explosion": 1}, muzzleflash=2, layout=0, playernum=1,
        gamedir="action", map="maps/terminal.bsp", players=["Player", "AQtion Guide"]),
    "libq2-testduel.dm2": dict(
        blocks=3204, frames=3199, configstrings=241, configstring_msgs=613, baselines=70, print=29, stufftext=4,
        sound=614, temp_entity={"gunshot": 698, "blood": 138, "blaster": 1, "railtrail": 21, "rocket_explosion": 59,
                                "grenade_explosion": 3, "sparks": 22, "splash": 36, "bubbletrail": 36,
                                "bullet_sparks": 57},
        muzzleflash=400, layout=2, playernum=2, gamedir="opentdm", map="maps/q2rdm2.bsp", players=None),
}


def _load(name: str):
    with warnings.catch_warnings():
        warnings.simplefilter("error")               # a complete demo decodes without a warning
        return load_demo(str(DEMOS / name))


@pytest.mark.parametrize("name", sorted(FACTS))
def test_corpus_demo_facts(name: str) -> None:
    f = FACTS[name]
    tl = _load(name)
    counts = tl.meta["message_counts"]
    assert tl.game == "quake2" and tl.protocol == 34 and tl.meta["attractloop"] == 1
    assert tl.block_count == f["blocks"] and tl.num_frames == f["frames"] and not tl.warnings
    assert counts["frame"] == counts["playerinfo"] == counts["packetentities"] == f["frames"]
    assert tl.server_times[0] == pytest.approx(0.1) and tl.duration == pytest.approx((f["frames"] - 1) / 10)
    cs = ConfigStrings.of(tl.meta["configstring_changes"])
    assert cs.distinct() == f["configstrings"] and counts["configstring"] == f["configstring_msgs"]
    assert counts.get("spawnbaseline", 0) == f["baselines"] == len(tl.segments[0].baselines)
    for kind in ("print", "stufftext", "sound", "muzzleflash", "layout"):
        assert counts.get(kind, 0) == f[kind], kind
        assert len(tl.events_of_kind(kind)) == f[kind], kind
    assert tl.meta["temp_entity_counts"] == f["temp_entity"]
    assert counts.get("temp_entity", 0) == len(tl.events_of_kind("temp_entity")) == sum(f["temp_entity"].values())
    assert tl.meta["playernum"] == f["playernum"] and tl.meta["gamedir"] == f["gamedir"]
    assert tl.segments[0].map_path == f["map"]
    final = cs.at(tl.num_frames - 1)
    skins = ConfigStrings.player_skins(final)
    if f["players"] is not None:
        assert sorted(s.name for s in skins.values()) == sorted(f["players"])
    else:
        assert len(skins) == 6                       # "6 player names in CS 1312+"
    assert tl.meta["invalid_deltas"] == 0


def test_aqtion_guide_serverdata_and_configstrings() -> None:
    tl = _load("AQtion-demo-guide.dm2")
    cs = ConfigStrings.of(tl.meta["configstring_changes"]).at(0)
    assert tl.meta["level_name"] == "Terminal\nby WizardExt" and cs[P.CS_SKY] == "wnight"
    assert cs[P.CS_MODELS + 1] == "maps/terminal.bsp"
    assert tl.segments[0].sky == ("wnight", "0.000000", "0.000000 0.000000 0.000000")   # name, rotate, axis
    (skin,) = ConfigStrings.player_skins(cs).values()
    assert (skin.name, skin.model, skin.skin) == ("AQtion Guide", "sydney", "sydney")
    assert "stat_string" in ConfigStrings.status_bar(cs) or "pic" in ConfigStrings.status_bar(cs)


@pytest.mark.parametrize("name", sorted(FACTS))
def test_the_entity_and_player_state_delta_chains_agree(name: str) -> None:
    """The recorder's entity (delta chain of svc_packetentities) stands where its pmove origin (the separate delta
    chain of svc_playerinfo) says, in every frame after the first."""
    tl = _load(name)
    me = tl.meta["playernum"] + 1
    offset = np.stack([tl.stats[k] for k in ("viewoffset_x4", "viewoffset_y4", "viewoffset_z4")], 1) / 4
    pmove = tl.view_origin - offset
    checked = 0
    for i in range(1, tl.num_frames):
        e = tl.frame_entities(i)
        j = e.index_of(me)
        if j is None:
            continue
        np.testing.assert_allclose(e.origin[j], pmove[i], atol=0.125 + 1e-3)
        checked += 1
    assert checked > 0.9 * tl.num_frames


def test_duel_events_name_players_and_weapons() -> None:
    tl = _load("libq2-testduel.dm2")
    obits = tl.events_of_kind("obituary")
    assert [(o.victim, o.killer, o.weapon) for o in obits[:2]] == [("shloo", "claire", "railgun"),
                                                                   ("shloo", "claire", "rocket_launcher")]
    assert {c.sender for c in tl.events_of_kind("chat")} >= {"shloo", "claire"}
    flashes = tl.events_of_kind("muzzleflash")
    assert all(not m.monster for m in flashes) and {"railgun", "rocket"} <= {m.name for m in flashes}
    assert len(tl.events_of_kind("intermission")) == 1
    assert tl.stats["fov"][-1] == 105


@pytest.mark.parametrize("cut", [0.3, 0.77])
def test_a_truncated_corpus_demo_plays_to_the_cut_with_a_warning(cut: float) -> None:
    data = (DEMOS / "libq2-testduel.dm2").read_bytes()
    with pytest.warns(UserWarning, match="truncated"):
        tl = load_demo(data[:int(len(data) * cut)], "cut.dm2")
    assert 0 < tl.num_frames < 3199 and tl.warnings
    full = _load("libq2-testduel.dm2")
    n = tl.num_frames
    np.testing.assert_array_equal(tl.view_origin, full.view_origin[:n])
    np.testing.assert_array_equal(tl.frame_entities(n - 1).origin, full.frame_entities(n - 1).origin)


def test_delta_decoded_origins_agree_with_the_absolute_positions_the_demo_resends() -> None:
    """The duel resends no full frame after its first, but every rail shot carries absolute coordinates: the trail
    starts at the shooter's eye (``P_ProjectSource``: 14 units above the origin, a few to the side).  The shooters'
    origins come through 200+ delta-compressed frames from the baselines, the other player's only through
    svc_packetentities; a wrong delta would put them hundreds of units away."""
    tl = _load("libq2-testduel.dm2")
    flashes = {(m.frame, m.entity) for m in tl.events_of_kind("muzzleflash") if m.name == "railgun"}
    gaps = []
    for trail in (e for e in tl.events_of_kind("temp_entity") if e.name == "railtrail"):
        (shooter,) = [n for f, n in flashes if f == trail.frame]
        ents = tl.frame_entities(trail.frame)
        j = ents.index_of(shooter)
        assert j is not None
        eye = ents.origin[j] + (0.0, 0.0, 14.0)
        gaps.append((shooter, float(np.linalg.norm(np.asarray(trail.origin) - eye))))
    assert len(gaps) == 21 and {s for s, _ in gaps} == {2, 3}          # both players, the recorder is entity 3
    assert max(g for _, g in gaps) < 32                                 # within one frame's run of the shooter
    assert sum(g <= 0.125 for _, g in gaps) >= 10                       # exact to the coordinate step when still
