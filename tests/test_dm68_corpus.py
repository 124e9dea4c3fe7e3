"""Quake III corpus demos (OpenArena, recorded with ioquake3) decode to their ends with the facts of
``../shared/data/quake3/SOURCES.md``, and their delta-resolved states are physically consistent."""

from __future__ import annotations

import collections
import struct

import numpy as np
import pytest

from assets_loader.demos.quake3 import MessageFormatError, parse_demo
from assets_loader.demos.quake3.framing import split_messages
from assets_loader.demos.quake3.protocol import PLAYER_ARRAYS, tables_for
from tests.builders.dm68 import SVC_EOF, Q3Message, demo_file
from tests.conftest import QUAKE3

FOLLOW = QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"
PLAYER = QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71"

ET_PLAYER, ET_MISSILE = 1, 3
TR_INTERPOLATE, TR_LINEAR = 1, 2
CS_PLAYERS = 544  # baseq3 bg_public.h: CS_SOUNDS + MAX_SOUNDS


@pytest.fixture(scope="module")
def follow():
    return parse_demo(FOLLOW.read_bytes(), FOLLOW.name)


@pytest.fixture(scope="module")
def player():
    return parse_demo(PLAYER.read_bytes(), PLAYER.name)


def info(text: str) -> dict[str, str]:
    parts = text.split("\\")[1:] if text.startswith("\\") else text.split("\\")
    return dict(zip(parts[::2], parts[1::2]))


def test_follow_demo_facts(follow):
    s = follow.snapshots
    assert (follow.protocol, follow.num_messages, len(s), len(follow.gamestates)) == (68, 2251, 2250, 1)
    assert not follow.truncated and not follow.warnings
    assert (int(s.server_time[0]), int(s.server_time[-1])) == (32800, 147750)
    intervals = collections.Counter(np.diff(s.server_time).tolist())
    assert (intervals[50], intervals[100], intervals[150], intervals[300]) == (2226, 11, 5, 3)
    assert follow.received_commands == 42
    names = collections.Counter(c.name for c in follow.commands)
    assert set(names) == {"chat", "cs", "scores"}
    blocks = split_messages(FOLLOW.read_bytes(), FOLLOW.name).blocks
    assert (blocks[0].sequence, blocks[-1].sequence, max(b.length for b in blocks)) == (284, 2535, 2815)
    assert s.sequence.tolist() == [b.sequence for b in blocks[1:]]
    server = info(follow.gamestates[0].configstrings[0])
    assert (server["mapname"], server["g_gametype"]) == ("oa_dm1", "0")


def test_follow_switches_sarge_grunt_angelyss(follow):
    s = follow.snapshots
    gs = follow.gamestates[0]
    assert gs.client_num == 4
    players = {i: info(gs.configstrings[CS_PLAYERS + i]) for i in range(5)}
    assert [players[i]["n"] for i in range(5)] == ["Sarge", "Grunt", "Major", "Angelyss", "DemoCam"]
    assert players[4]["t"] == "3"
    followed = s.player["clientNum"]
    switches = np.flatnonzero(np.diff(followed)) + 1
    assert followed[0] == 0 and followed[switches].tolist() == [1, 3]
    seconds = (s.server_time[switches] - s.server_time[0]) / 1000
    assert 40 < seconds[0] < 50 and 90 < seconds[1] < 100
    # the server never sends the followed client's own entity: it is the player state
    for i in range(len(s)):
        assert followed[i] not in s.entities_of(i)["number"]


def test_player_demo_facts(player):
    s = player.snapshots
    assert (player.protocol, player.num_messages, len(s)) == (71, 2013, 2012)
    assert not player.truncated and not player.warnings
    assert int(s.server_time[-1] - s.server_time[0]) == 102650
    intervals = collections.Counter(np.diff(s.server_time).tolist())
    assert (intervals[50], intervals[100]) == (1989, 12)
    blocks = split_messages(PLAYER.read_bytes(), PLAYER.name).blocks
    assert (blocks[0].sequence, blocks[-1].sequence, max(b.length for b in blocks)) == (107, 2120, 2854)
    gs = player.gamestates[0]
    democam = info(gs.configstrings[CS_PLAYERS + 4])
    assert gs.client_num == 4 and (democam["n"], democam["t"], democam["model"]) == ("DemoCam", "0", "sarge")
    assert set(s.player["clientNum"].tolist()) == {4}


def test_dm71_is_the_dm68_wire_format(player):
    as68 = parse_demo(PLAYER.read_bytes(), "renamed.dm_68")
    assert as68.protocol == 68
    assert np.array_equal(as68.snapshots.entities, player.snapshots.entities)
    assert np.array_equal(as68.snapshots.player, player.snapshots.player)


@pytest.mark.parametrize("name", ["follow", "player"])
def test_delta_resolved_states_are_consistent(name, request):
    demo = request.getfixturevalue(name)
    s = demo.snapshots
    assert s.delta_num[0] == -1  # the first snapshot is coded against the baselines only
    assert (s.delta_num[1:] > 0).all() and (s.sequence - s.delta_num)[1:].max() > 1  # the ring is used
    assert s.entity_offsets[-1] == len(s.entities) > 10 * len(s)
    for i in range(len(s)):
        numbers = s.entities_of(i)["number"]
        assert (np.diff(numbers) > 0).all() and (numbers < 1023).all()
    # a linear missile keeps its trajectory for its whole flight: fields not sent come from the right base
    missiles: dict[tuple[int, int], set[bytes]] = collections.defaultdict(set)
    moves = []
    last: dict[int, np.ndarray] = {}
    for i in range(len(s)):
        ents = s.entities_of(i)
        for e in ents[(ents["eType"] == ET_MISSILE) & (ents["pos_trType"] == TR_LINEAR)]:
            missiles[int(e["number"]), int(e["pos_trTime"])].add(e["pos_trBase"].tobytes() + e["pos_trDelta"].tobytes())
        players = ents[(ents["eType"] == ET_PLAYER) & (ents["pos_trType"] == TR_INTERPOLATE)]
        seen = {}
        for e in players:
            number = int(e["number"])
            if number in last:
                moves.append(float(np.abs(e["pos_trBase"] - last[number]).max()))
            seen[number] = e["pos_trBase"].copy()
        last = seen
    assert len(missiles) > 10
    assert all(len(v) == 1 for v in missiles.values())
    assert len(moves) > 1000 and np.percentile(moves, 99) < 60  # 320 ups is 16 units per 50 ms


def test_player_state_follows_its_velocity(player):
    ps = player.snapshots.player
    dt = np.diff(ps["commandTime"]) / 1000
    step = np.diff(ps["origin"], axis=0)
    predicted = ps["velocity"][1:, :2] * dt[:, None]
    moving = (dt > 0) & (ps["pm_type"][1:] == 0)  # PM_NORMAL
    error = np.abs(step[:, :2] - predicted).max(axis=1)[moving]
    assert moving.sum() > 1000
    assert np.median(error) < 0.05 and np.percentile(error, 90) < 2  # units, over steps of ~16
    assert (np.diff(ps["commandTime"]) >= 0).all()
    assert (ps["commandTime"] <= player.snapshots.server_time).all()


def test_truncated_corpus_demo_plays_to_the_cut():
    data = FOLLOW.read_bytes()
    with pytest.warns(UserWarning, match="truncated"):
        demo = parse_demo(data[: len(data) // 2], FOLLOW.name)
    assert demo.truncated and 0 < len(demo.snapshots) < 2250
    assert demo.num_messages == len(demo.snapshots) + 1
    assert struct.unpack_from("<i", data, len(data) - 8)[0] == -1


def test_protocol_from_serverinfo_when_the_name_has_no_extension():
    assert parse_demo(PLAYER.read_bytes(), "no-extension").protocol == 71
    with pytest.warns(UserWarning, match="truncated"):
        assert parse_demo(FOLLOW.read_bytes()[:40000], "cut").protocol == 68


def test_players_and_configstrings_over_time(follow):
    s = follow.snapshots
    ents = s.entities
    players = ents[(ents["eType"] == ET_PLAYER) & (ents["number"] < 64)]  # 64+: the body queue (corpses)
    assert len(players) > 1000 and (players["clientNum"] == players["number"]).all()
    first, last = follow.configstrings_at(0), follow.configstrings_at(len(s) - 1)
    assert info(first[CS_PLAYERS])["n"] == "Sarge"
    scores = [c for c in follow.configstring_changes if c.index in (6, 7)]  # CS_SCORES1 / CS_SCORES2
    assert scores and last[scores[-1].index] == scores[-1].value
    assert follow.configstrings_at(scores[0].snapshot - 1).get(scores[0].index) != scores[0].value


def _as_state(row: np.void, table) -> dict:
    state = {}
    for name in table.names:
        field, _, rest = name.replace(".", "_").partition("[")
        value = row[field][int(rest[:-1])] if rest else row[field]
        state[name] = float(value) if isinstance(value, np.floating) else int(value)
    return state


def test_corpus_states_survive_a_re_encoding_without_deltas(player):
    """Every decoded state of the first 100 snapshots, written again by the test encoder against the baselines
    only (no snapshot deltas), decodes to the same records: the corpus values (negative shorts, raw 32-bit
    floats, 32-bit times) take the same paths in both directions."""
    tables = tables_for(71)
    assert tables is not None
    s = player.snapshots
    gs = player.gamestates[0]
    baselines = {int(b["number"]): _as_state(b, tables.entity) for b in gs.baselines}
    head = Q3Message()
    head.long(0)
    head.gamestate(tables.entity, configstrings={0: gs.configstrings[0]}, baselines=baselines)
    head.byte(SVC_EOF)
    blocks = [(1, head.data())]
    for i in range(100):
        ps = _as_state(s.player[i], tables.player)
        for array, _ in PLAYER_ARRAYS:
            ps[array] = s.player[i][array].tolist()
        m = Q3Message()
        m.long(0)
        m.snapshot(tables.entity, tables.player, server_time=int(s.server_time[i]), delta=0, old_player={},
                   player=ps, old_entities={}, baselines=baselines,
                   entities={int(e["number"]): _as_state(e, tables.entity) for e in s.entities_of(i)})
        m.byte(SVC_EOF)
        blocks.append((2 + i, m.data()))
    again = parse_demo(demo_file(blocks), "again.dm_68").snapshots
    assert np.array_equal(again.player.view(np.int32), s.player[:100].view(np.int32))
    assert np.array_equal(again.entities, s.entities[: s.entity_offsets[100]])


def test_corrupt_message_raises_or_ends_the_demo_there():
    data = bytearray(FOLLOW.read_bytes())
    block = split_messages(bytes(data), FOLLOW.name).blocks[1000]
    data[block.offset + 3: block.offset + block.length] = bytes(block.length - 3)  # zeros: svc_bad
    with pytest.raises(MessageFormatError) as info:
        parse_demo(bytes(data), FOLLOW.name)
    assert info.value.message == 1000 and info.value.sequence == block.sequence
    with pytest.warns(UserWarning, match="message 1000 does not decode"):
        demo = parse_demo(bytes(data), FOLLOW.name, keep_before_error=True)
    assert demo.truncated and demo.num_messages == 1000 and len(demo.snapshots) == 999
    assert demo.snapshots.message[-1] == 999
