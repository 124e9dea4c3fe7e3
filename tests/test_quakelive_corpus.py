"""The nine public Quake Live demos (protocols 73, 90, 91; UDT's test set) decode to the end: map, duration from the
snapshots' server times, players and teams, the scores at the end, obituaries against the demo's own obituary
entities, rounds of clan arena / freeze tag, Quake Live's means of death and items; the truncated file with a
warning."""

from __future__ import annotations

import warnings
from functools import cache
from types import SimpleNamespace

import numpy as np
import pytest

from assets_loader.demos import load_demo
from assets_loader.demos.detect import FORMAT_NAMES, detect_format
from assets_loader.demos.quake3 import Quake3Demo, parse_demo
from assets_loader.demos.quake3.parse import protocol_from_serverinfo
from assets_loader.demos.quake3.game import ET_EVENTS, QUAKE_LIVE_NUMBERS, info_pairs
from assets_loader.demos.quake3.ql_scores import parse_ql_scores
from assets_loader.demos.quake3.timeline import timeline_from_demo
from tests.conftest import DATA

QL = DATA / "public" / "quakelive"

#: file → (protocol, map, g_gametype, snapshots, first and last server time in ms, CS_SCORES1, CS_SCORES2).
FACTS = {
    "dm_73_ca_scores_ca.dm_73": (73, "almostlost", 4, 19558, 40000, 529625, "7", "1"),
    "dm_73_duel_scores.dm_73": (73, "hektik", 1, 24511, 994850, 1608825, "24", "19"),
    "truncated.dm_73": (73, "campgrounds", 3, 12963, 897175, 1222500, "38", "22"),
    "dm_90_ffa.dm_90": (90, "chemicalreaction", 0, 19680, 88700, 582625, "50", "27"),
    "dm_90_ft.dm_90": (90, "deepinside", 9, 4032, 29025, 130200, "0", "2"),
    "dm_90_gameplay_default_online.dm_90": (90, "useandabuse", 1, 389, 61400, 71100, "0", "-9999"),
    "dm_90_maps_in_q3_mejtissonPOV-vs-Anarki-aerowalk-2015_02_05-19_55_34.dm_90":
        (90, "aerowalk", 1, 2299, 30375, 88225, "4", "1"),
    "dm_91_duel.dm_91": (91, "sinister", 1, 24538, 695325, 1309500, "11", "5"),
    "dm_91_duel_forfeit_disconnect.dm_91": (91, "bloodrunintel", 1, 18559, 35625, 500075, "3", "-9999"),
}

#: file → {slot: (name without colours, team, score at the end)} of the players in the game (not spectators).
PLAYERS = {
    "dm_73_duel_scores.dm_73": {0: ("mejtisson", "0", 19), 1: ("Terifire", "0", 24)},
    "dm_73_ca_scores_ca.dm_73": {0: ("demex", "1", 28), 1: ("VIJU", "2", 15), 2: ("id_", "2", 26),
                                 3: ("gwc", "2", 25), 5: ("rapha", "1", 32), 7: ("cl0ck", "1", 32)},
    "dm_90_ft.dm_90": {0: ("mejtisson", "2", 4), 1: ("Crash", "1", 0), 2: ("Daemia", "2", 0), 3: ("Sarge", "1", 1)},
    "dm_90_ffa.dm_90": {0: ("HoboWarZ", "0", 18), 1: ("dzytaras", "0", 3), 2: ("lrKaldur", "0", 27),
                        3: ("WR40", "0", 1), 4: ("Cookies4Life", "0", 11), 5: ("skiteur", "0", 10),
                        6: ("mejtisson", "0", 50), 8: ("pinglove", "0", 0)},
    "dm_91_duel.dm_91": {0: ("[MD] toxjq", "0", 11), 1: ("MVPz Zorak", "0", 5)},
    "dm_90_maps_in_q3_mejtissonPOV-vs-Anarki-aerowalk-2015_02_05-19_55_34.dm_90":
        {0: ("Anarki", "0", 1), 1: ("mejtisson", "0", 0)},
}


@cache
def _timeline(name: str) -> SimpleNamespace:
    """What the tests read of one demo, kept small (a decoded Quake Live duel's entity rows take hundreds of MB):
    the timeline's facts, events, scoreboard and warm-up, the configstrings at the end and the demo's obituary
    entities."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        demo = parse_demo((QL / name).read_bytes(), name)
    tl = timeline_from_demo(demo)
    return SimpleNamespace(
        protocol=tl.protocol, format=tl.format, segments=tl.segments, times=tl.times, server_times=tl.server_times,
        duration=tl.duration, meta=tl.meta, events=tl.events, scoreboard_changes=tl.scoreboard_changes,
        stats={"warmup": np.array(tl.stats["warmup"])}, final_strings=demo.configstrings_at(len(demo.snapshots) - 1),
        obituary_entities=_obituary_entities(demo))


def _plain(name: str) -> str:
    from assets_loader.demos.quake3.colors import strip_colors
    return strip_colors(name)


def _final_players(tl: SimpleNamespace) -> dict[int, tuple[str, str, int, bool]]:
    last = {}
    for change in tl.scoreboard_changes:
        last[change.slot] = (_plain(change.name), change.team, change.frags, change.spectator)
    return last


def _obituary_entities(demo: Quake3Demo) -> int:
    """The demo's own obituaries: ``EV_OBITUARY`` temporary entities, each counted in the snapshot it appears."""
    snaps = demo.snapshots
    kind = ET_EVENTS + QUAKE_LIVE_NUMBERS.ev["OBITUARY"]
    count, before = 0, set()
    for i in range(len(snaps)):
        rows = snaps.entities_of(i)
        now = set(rows["number"][rows["eType"] == kind].tolist())
        count += len(now - before)
        before = now
    return count


@pytest.mark.parametrize("name", sorted(FACTS))
def test_each_demo_decodes_to_the_end(name):
    protocol, mapname, gametype, count, first, last, score1, score2 = FACTS[name]
    tl = _timeline(name)
    assert (tl.protocol, tl.format, tl.segments[0].map_name, tl.segments[0].gametype) == (
        protocol, f"dm_{protocol}", mapname, gametype)
    assert len(tl.times) == count
    assert (tl.server_times[0], tl.server_times[-1]) == (first, last)     # ms
    assert tl.duration == pytest.approx((last - first) / 1000)
    strings = tl.final_strings
    assert (strings.get(6), strings.get(7)) == (score1, score2)
    assert dict(info_pairs(strings[0]))["protocol"] == str(protocol)
    assert tl.meta["truncated"] == (name == "truncated.dm_73")


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_players_teams_and_scores_at_the_end(name):
    final = _final_players(_timeline(name))
    playing = {slot: (n, team, score) for slot, (n, team, score, spectator) in final.items() if not spectator}
    assert playing == PLAYERS[name]


@pytest.mark.parametrize("name", ["dm_73_duel_scores.dm_73", "dm_91_duel.dm_91", "dm_90_ffa.dm_90",
                                  "dm_90_maps_in_q3_mejtissonPOV-vs-Anarki-aerowalk-2015_02_05-19_55_34.dm_90"])
def test_scores_are_kills_minus_suicides(name):
    """In duel and free-for-all a score is the obituaries naming the player as killer, less its suicides: the two
    best are ``CS_SCORES1`` / ``CS_SCORES2``, and the scoreboard's where the last ``scores*`` command follows the
    last kill (the aerowalk demo's last one is from its start: the scoreboard shows what the server last sent)."""
    tl = _timeline(name)
    kills: dict[str, int] = {}
    for e in tl.events:
        if e.kind == "obituary":
            if e.suicide:
                kills[_plain(e.victim)] = kills.get(_plain(e.victim), 0) - 1
            else:
                kills[_plain(e.killer)] = kills.get(_plain(e.killer), 0) + 1
    strings = tl.final_strings
    assert sorted(kills.values(), reverse=True)[:2] == [int(strings[6]), int(strings[7])]
    final = {n: score for n, _, score, spectator in _final_players(tl).values() if not spectator}
    if "aerowalk" in name:
        assert final == {"Anarki": 1, "mejtisson": 0} and kills == {"Anarki": 1, "mejtisson": 4}
    else:
        assert {n: kills.get(n, 0) for n in final} == final


@pytest.mark.parametrize("name", sorted(FACTS))
def test_obituaries_match_the_demos_obituary_entities(name):
    tl = _timeline(name)
    obituaries = [e for e in tl.events if e.kind == "obituary"]
    assert len(obituaries) == tl.obituary_entities
    assert all(e.victim and not e.weapon.startswith("mod ") for e in obituaries)


def test_counts_of_obituaries():
    counts = {name: sum(e.kind == "obituary" for e in _timeline(name).events) for name in FACTS}
    assert counts == {"dm_73_ca_scores_ca.dm_73": 32, "dm_73_duel_scores.dm_73": 43, "truncated.dm_73": 65,
                      "dm_90_ffa.dm_90": 132, "dm_90_ft.dm_90": 5, "dm_90_gameplay_default_online.dm_90": 0,
                      "dm_90_maps_in_q3_mejtissonPOV-vs-Anarki-aerowalk-2015_02_05-19_55_34.dm_90": 5,
                      "dm_91_duel.dm_91": 16, "dm_91_duel_forfeit_disconnect.dm_91": 6}


def test_quake_live_means_of_death_and_items():
    ffa = _timeline("dm_90_ffa.dm_90").events
    hmg = [e for e in ffa if e.kind == "obituary" and e.weapon == "heavy machinegun"]
    assert len(hmg) == 11 and hmg[0].text.endswith("'s HMG")
    headshot = [e for e in _timeline("dm_91_duel.dm_91").events if e.kind == "obituary"
                and e.weapon == "railgun headshot"]
    assert len(headshot) == 1 and " was railed in the head by " in headshot[0].text
    aerowalk = _timeline("dm_90_maps_in_q3_mejtissonPOV-vs-Anarki-aerowalk-2015_02_05-19_55_34.dm_90")
    items = {e.item for e in aerowalk.events if e.kind == "pickup"}
    assert {"item_armor_jacket", "item_armor_body", "weapon_railgun", "item_health_mega"} <= items
    assert "ammo_pack" in {e.item for e in _timeline("dm_90_gameplay_default_online.dm_90").events
                           if e.kind == "pickup"}


def test_clan_arena_and_freeze_tag_rounds():
    ca = _timeline("dm_73_ca_scores_ca.dm_73")
    rounds = [(e.started, e.number) for e in ca.events if e.kind == "round"]
    assert rounds == [(started, n) for n in range(1, 9) for started in (True, False)]
    won = [e for e in ca.events if e.kind == "print" and "WINS the round" in e.text]
    assert len(won) == sum(not started for started, _ in rounds) == 8
    ft = _timeline("dm_90_ft.dm_90")
    assert [(e.started, e.number) for e in ft.events if e.kind == "round"] == [
        (True, 1), (False, 1), (True, 2), (False, 2)]
    duel = _timeline("dm_73_duel_scores.dm_73")
    assert not [e for e in duel.events if e.kind == "round"]
    assert [e.kind for e in duel.events].count("intermission") == 1


def test_truncated_file_ends_with_a_warning():
    with pytest.warns(UserWarning, match="truncated"):
        demo = parse_demo((QL / "truncated.dm_73").read_bytes(), "truncated.dm_73")
    assert demo.truncated and demo.num_messages == 12964 and len(demo.snapshots) == 12963
    assert "inside the 141-byte message 12964" in demo.warnings[0]


def test_detection_and_load_demo_name_quake_live():
    data = (QL / "dm_91_duel.dm_91").read_bytes()[:4096]
    assert detect_format(data, "dm_91_duel.dm_91") == "dm_91"
    tl = load_demo(QL / "dm_90_gameplay_default_online.dm_90")
    assert (tl.format, tl.protocol, len(tl.times), tl.warnings) == ("dm_90", 90, 389, ())
    assert FORMAT_NAMES["dm_73"] == "a Quake Live demo (.dm_73, protocol 73)"


def test_scoreboard_commands():
    assert parse_ql_scores(("scores", "2", "0", "0", *"0 19 30 7".split(), *["0"] * 14,
                            *"1 24 35 7".split(), *["0"] * 14), 73) == [(0, 19, 30, 7), (1, 24, 35, 7)]
    duel = ("scores_duel", "2", *"0 -3 3 7".split(), *["1"] * 87, *"1 3 2 7".split(), *["1"] * 87)
    assert parse_ql_scores(duel, 91) == [(0, -3, 3, 7), (1, 3, 2, 7)]
    ca = ("scores_ca", "2", "3", "1", *"5 1 1 32 4 7".split(), *["0"] * 11, *"6 2 1 9 5 7".split(), *["0"] * 11)
    assert parse_ql_scores(ca, 73) == [(5, 32, 4, 7), (6, 9, 5, 7)]
    assert parse_ql_scores(ca[:-1], 73) == []                 # records that do not divide evenly
    assert parse_ql_scores(("scores_race", "1", "0"), 91) == []
    assert parse_ql_scores(("scores", "x"), 91) == [] and parse_ql_scores((), 91) == []


def test_chat_names_its_sender_by_client_number_and_reads_utf8():
    duel = _timeline("dm_91_duel.dm_91")
    chat = [(_plain(e.sender), e.slot, e.team, _plain(e.text)) for e in duel.events if e.kind == "chat"]
    assert chat == [("[MD] toxjq", 0, False, "hf"), ("MVPz Zorak", 1, False, "glhf"),
                    ("MVPz Zorak", 1, False, "gg"), ("[MD] toxjq", 0, False, "gg")]
    team = [e for e in _timeline("truncated.dm_73").events if e.kind == "chat" and e.team]
    assert team and all((e.sender, e.slot) == ("oxo__", 4) for e in team)
    names = {_plain(c.name) for c in duel.scoreboard_changes}
    assert "[LIFT] t41TG ティム" in names                        # protocol 91 strings are UTF-8


def test_warmup_countdown_from_the_info_string():
    """Quake Live's ``CS_WARMUP`` is ``\\time\\N``: the countdown runs 10 … 1 before the match, -1 while waiting."""
    ft = np.asarray(_timeline("dm_90_ft.dm_90").stats["warmup"])
    assert set(np.unique(ft).tolist()) == set(range(11)) and ft[-1] == 0
    waiting = np.asarray(_timeline("dm_90_gameplay_default_online.dm_90").stats["warmup"])
    assert (waiting == -1).all()


def test_a_demo_without_its_extension_is_read_by_its_serverinfo():
    """The baselines of a Quake Live gamestate need its own entity table: each format is tried in turn."""
    data = (QL / "dm_90_gameplay_default_online.dm_90").read_bytes()
    assert protocol_from_serverinfo(data) == 90
    assert protocol_from_serverinfo((QL / "dm_91_duel.dm_91").read_bytes()[:65536]) == 91
    demo = parse_demo(data, "renamed.bin")
    assert demo.protocol == 90 and len(demo.snapshots) == 389
