"""Quake III message decoding on synthetic demos: gamestate, server commands, configstrings and snapshots whose
entity and player deltas are checked against the states they were written from (tests/builders/dm68.py)."""

from __future__ import annotations

import random
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assets_loader.demos.quake3 import MessageFormatError, parse_demo
from assets_loader.demos.quake3.commands import tokenize
from assets_loader.demos.quake3.protocol import PLAYER_ARRAYS, tables_for
from assets_loader.errors import BadMagicError, FormatError
from tests.builders.dm68 import SVC_EOF, SVC_SNAPSHOT, Q3Message, demo_file

TABLES = tables_for(68)
assert TABLES is not None
ES, PS = TABLES.entity, TABLES.player


def record_value(row: np.void, name: str) -> float:
    field, _, rest = name.replace(".", "_").partition("[")
    value = row[field]
    return float(value[int(rest[:-1])]) if rest else float(value)


def random_value(rng: random.Random, width: int) -> float:
    if width == 0:
        kind = rng.random()
        if kind < 0.5:
            return float(rng.randint(-4096, 4095))
        return float(np.float32(rng.uniform(-9000, 9000)))
    bits = abs(width)
    if width < 0:
        return rng.randint(-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    return rng.randint(0, min((1 << bits) - 1, 2**31 - 1))


def random_entity(rng: random.Random, base: dict[str, float] | None) -> dict[str, float]:
    state = dict(base or {})
    for name, width in zip(ES.names, ES.bits):
        if rng.random() < 0.15:
            state[name] = 0 if rng.random() < 0.2 else random_value(rng, width)
    return state


def random_player(rng: random.Random, base: dict) -> dict:
    state = dict(base)
    for name, width in zip(PS.names, PS.bits):
        if rng.random() < 0.2:
            state[name] = random_value(rng, width)
    for array, width in PLAYER_ARRAYS:
        values = list(state.get(array, [0] * 16))
        for k in range(16):
            if rng.random() < 0.1:
                values[k] = random_value(rng, width)
        state[array] = values
    return state


def gamestate_message(baselines, configstrings=None, client_num=2) -> bytes:
    m = Q3Message()
    m.long(0)
    m.gamestate(ES, configstrings=configstrings or {0: "\\mapname\\test", 5: "hello"}, baselines=baselines,
                client_num=client_num, checksum_feed=1234, command_sequence=4)
    m.byte(SVC_EOF)
    return m.data()


@pytest.mark.parametrize("seed", range(4))
def test_snapshot_deltas_reproduce_the_written_states(seed):
    rng = random.Random(seed)
    baselines = {n: random_entity(rng, None) for n in (3, 8, 64, 65, 500)}
    blocks = [(10, gamestate_message(baselines))]
    truth: list[tuple[dict, dict[int, dict]]] = []
    sent: dict[int, tuple[dict, dict[int, dict]]] = {}
    player: dict = {}
    entities: dict[int, dict] = {}
    for k in range(60):
        sequence = 11 + k
        candidates = [s for s in sent if 0 < sequence - s < 32]
        delta_from = rng.choice(candidates) if candidates and rng.random() < 0.85 else None
        old_player, old_entities = sent[delta_from] if delta_from is not None else ({}, {})
        player = random_player(rng, player)
        entities = {n: random_entity(rng, entities.get(n, baselines.get(n))) for n in entities
                    if rng.random() > 0.1}
        for n in rng.sample([3, 8, 64, 65, 500, 700, 1022], 2):
            entities.setdefault(n, random_entity(rng, baselines.get(n)))
        m = Q3Message()
        m.long(0)
        m.snapshot(ES, PS, server_time=1000 + 50 * k, delta=sequence - delta_from if delta_from else 0,
                   old_player=old_player, player=player, old_entities=old_entities, entities=entities,
                   baselines=baselines, flags=k & 3, areamask=bytes([k & 255, 1]))
        m.byte(SVC_EOF)
        blocks.append((sequence, m.data()))
        sent[sequence] = (player, entities)
        truth.append((player, dict(entities)))
    demo = parse_demo(demo_file(blocks), "synthetic.dm_68")
    snaps = demo.snapshots
    assert len(snaps) == 60 and demo.num_messages == 61 and not demo.warnings
    assert snaps.server_time.tolist() == [1000 + 50 * k for k in range(60)]
    assert snaps.flags.tolist() == [k & 3 for k in range(60)]
    assert snaps.areamask[7, :3].tolist() == [7, 1, 0]
    for i, (player, entities) in enumerate(truth):
        row = snaps.player[i]
        for name in PS.names:
            assert record_value(row, name) == pytest.approx(player.get(name, 0), abs=0), (i, name)
        for array, _ in PLAYER_ARRAYS:
            assert row[array].tolist() == list(player.get(array, [0] * 16))
        decoded = snaps.entities_of(i)
        assert decoded["number"].tolist() == sorted(entities)
        for rec in decoded:
            state = entities[int(rec["number"])]
            for name in ES.names:
                assert record_value(rec, name) == state.get(name, 0), (i, int(rec["number"]), name)


def test_gamestate_configstrings_baselines_and_commands():
    baselines = {7: {"eType": 2, "origin[0]": 12.0, "pos.trBase[2]": -3.5, "modelindex": 9}}
    m = Q3Message()
    m.long(0)
    m.server_command(5, 'cs 5 "changed value"')
    m.server_command(5, 'cs 5 "changed value"')  # a resend: dropped
    m.server_command(6, 'bcs0 20 "abc')
    m.server_command(7, 'bcs1 20 "def')
    m.server_command(8, 'bcs2 20 "ghi')
    m.server_command(9, 'chat "Sarge^7\x19: ^2hi"')
    m.byte(SVC_EOF)
    demo = parse_demo(demo_file([(1, gamestate_message(baselines)), (2, m.data())]), "g.dm_67")
    gs = demo.gamestates[0]
    assert demo.protocol == 67
    assert (gs.client_num, gs.checksum_feed, gs.command_sequence, gs.message) == (2, 1234, 4, 0)
    assert dict(gs.configstrings) == {0: "\\mapname\\test", 5: "hello"}
    assert gs.baselines["number"].tolist() == [7]
    b = gs.baselines[0]
    assert (b["eType"], b["modelindex"], b["origin"][0], b["pos_trBase"][2]) == (2, 9, 12.0, -3.5)
    assert [c.sequence for c in demo.commands] == [5, 6, 7, 8, 9]
    assert demo.received_commands == 6
    assert demo.commands[-1].args == ("chat", "Sarge^7\x19: ^2hi")
    assert [(c.index, c.value, c.message) for c in demo.configstring_changes] == [(5, "changed value", 1),
                                                                               (20, "abcdefghi", 1)]


def test_snapshot_delta_from_a_lost_frame_is_dropped_with_a_warning():
    m = Q3Message()
    m.long(0)
    m.snapshot(ES, PS, server_time=5, delta=3, old_player={}, player={"commandTime": 4}, old_entities={},
               entities={}, baselines={})
    m.byte(SVC_EOF)
    demo = parse_demo(demo_file([(1, gamestate_message({})), (9, m.data())]), "d.dm_68")
    assert len(demo.snapshots) == 0
    assert "dropped" in demo.warnings[0]


def test_truncated_file_gives_the_complete_messages_and_a_warning():
    m = Q3Message()
    m.long(0)
    m.snapshot(ES, PS, server_time=5, delta=0, old_player={}, player={}, old_entities={}, entities={},
               baselines={})
    m.byte(SVC_EOF)
    whole = demo_file([(1, gamestate_message({})), (2, m.data()), (3, m.data())])
    with pytest.warns(UserWarning, match="truncated"):
        demo = parse_demo(whole[:-20], "t.dm_68")
    assert demo.truncated and demo.num_messages == 2 and len(demo.snapshots) == 1
    with pytest.warns(UserWarning, match="end marker"):
        assert parse_demo(whole[:-8], "t.dm_68").num_messages == 3


def test_unknown_protocol_and_bad_length_are_reported():
    with pytest.raises(BadMagicError, match="protocol 48"):
        parse_demo(b"", "old.dm_48")
    with pytest.warns(UserWarning, match="end marker"):      # Quake Live's 73 is read (an empty file is cut)
        assert parse_demo(b"", "ql.dm_73").protocol == 73
    with pytest.raises(BadMagicError, match="no protocol"):
        parse_demo(b"", "demo.bin")
    with pytest.warns(UserWarning, match="end marker"):
        assert len(parse_demo(b"", "x.dem", protocol=68).snapshots) == 0
    with pytest.raises(FormatError, match="message length"):
        parse_demo(struct.pack("<ii", 1, 20000), "x.dm_68")


def test_corrupt_message_names_message_and_bit():
    m = Q3Message()
    m.long(0)
    m.byte(SVC_SNAPSHOT)
    m.long(5)
    m.byte(0)
    m.byte(0)
    m.byte(40)  # area mask longer than MAX_MAP_AREA_BYTES
    with pytest.raises(MessageFormatError, match="area mask") as info:
        parse_demo(demo_file([(1, gamestate_message({})), (2, m.data())]), "c.dm_68")
    assert info.value.message == 1 and info.value.sequence == 2 and info.value.bit > 0


def test_voip_packets_are_skipped_with_a_warning():
    m = Q3Message()
    m.long(0)
    m.byte(10)  # svc_voipOpus
    for value, bits in ((3, 16), (1, 8), (77, 32), (2, 8), (5, 16), (1, 2)):
        m.write_bits(value, bits)
    for b in b"\x01\x02\x03\x04\x05":
        m.byte(b)
    m.snapshot(ES, PS, server_time=9, delta=0, old_player={}, player={"commandTime": 8}, old_entities={},
               entities={}, baselines={})
    m.byte(SVC_EOF)
    demo = parse_demo(demo_file([(1, gamestate_message({})), (2, m.data())]), "v.dm_71")
    assert demo.snapshots.server_time.tolist() == [9]
    assert demo.snapshots.player["commandTime"].tolist() == [8]
    assert "1 VoIP packets skipped" in demo.warnings[-1]


def test_gamestate_larger_than_max_gamestate_chars_is_an_error():
    big = {i: "h" * 4100 for i in range(10, 14)}  # 6-bit codes: 16400 characters in 12.3 kB
    with pytest.raises(MessageFormatError, match="16000"):
        parse_demo(demo_file([(1, gamestate_message({}, configstrings=big))]), "big.dm_68")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_tokenize_never_fails(text):
    args = tokenize(text)
    assert len(args) <= 1024 and all(isinstance(a, str) for a in args)


def test_tokenize_like_cmd_tokenize_string():
    assert tokenize('cs 529 "n\\Sarge\\t\\0" // comment') == ("cs", "529", "n\\Sarge\\t\\0")
    assert tokenize('print "a b"c /* skip */ d') == ("print", "a b", "c", "d")
    assert tokenize("  ") == ()
    assert tokenize('chat "unterminated') == ("chat", "unterminated")


@pytest.mark.parametrize("protocol", [66, 67, 68, 71])
def test_every_supported_protocol_reads_the_same_wire(protocol):
    demo = parse_demo(demo_file([(1, gamestate_message({4: {"eType": 3}}))]), f"p.dm_{protocol}")
    assert demo.protocol == protocol and demo.gamestates[0].baselines["eType"].tolist() == [3]
