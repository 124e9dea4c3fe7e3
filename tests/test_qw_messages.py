"""One test per QuakeWorld message type / framing rule, from synthetic .qwd and .mvd demos written by builders."""

from __future__ import annotations

import struct
import warnings

import numpy as np
import pytest

from assets_loader.demos import DemoTimeline, load_demo
from assets_loader.demos.quakeworld import protocol as P
from assets_loader.demos.events import parse_chat, parse_obituary, parse_pickup
from assets_loader.demos.quakeworld import NAIL_NUMBER_BASE, decode_mvd, decode_qwd
from assets_loader.demos.schema import PLAYER_DEAD, PLAYER_GIB
from assets_loader.errors import BadMagicError, FormatError, TruncatedError
from tests.builders.qw import MODELS, MVDWriter, QWDWriter, QWMessages, mvd_signon, qwd_signon
from viewer.demo_report import events_list, info_dict

m = QWMessages()
PLAYER = MODELS.index(P.PLAYER_MODEL) + 1
SPIKE = MODELS.index(P.SPIKE_MODEL) + 1
ARMOR = MODELS.index("progs/armor.mdl") + 1


def qwd(*messages: bytes, signon: tuple[bytes, ...] = (), names=("Alice", "Bob"), more: tuple = ()) -> DemoTimeline:
    """Signon, then one game packet at t=2.0 with the recorder's playerinfo + a full entity set + ``messages``,
    then one more packet at t=2.1 (plus ``more`` packets after that)."""
    w = QWDWriter()
    qwd_signon(m, w, names=names)
    if signon:
        w.packet(1.5, *signon)
    w.cmd(1.9, viewangles=(10.0, 90.0, 0.0))
    w.packet(2.0, m.playerinfo_qwd(0, (0, 0, 24)), m.packetentities([m.entity(40, model=ARMOR, origin=(8, 0, 0))]),
             *messages)
    seq = w.seq
    w.packet(2.1, m.playerinfo_qwd(0, (10, 0, 24)), m.packetentities([], delta_from=seq))
    for pk in more:
        w.packet(*pk)
    return load_demo(w.build(), "test.qwd")


def mvd(*blocks: tuple, names=("Alice", "Bob")) -> DemoTimeline:
    """Signon + ``blocks`` = (msec, messages tuple, to)."""
    w = MVDWriter()
    mvd_signon(m, w, names=names)
    for msec, messages, to in blocks:
        w.block(msec, *messages, to=to)
    return load_demo(w.build(), "test.mvd")


def only(tl, kind):
    evs = [e for e in tl.events if e.kind == kind]
    assert len(evs) == 1, evs
    return evs[0]


# --- framing ----------------------------------------------------------------------------------------------------


def test_qwd_frames_times_and_recorder_view():
    tl = qwd()
    assert (tl.format, tl.game, tl.protocol) == ("qwd", "quakeworld", 28)
    assert tl.times.tolist() == pytest.approx([2.0, 2.1])
    assert tl.block_count == 4 and tl.num_frames == 2
    assert tl.view_entity.tolist() == [1, 1]
    assert tl.view_origin[1].tolist() == pytest.approx([10, 0, 24 + 22])
    assert tl.view_angles[0].tolist() == pytest.approx([10, 90, 0])
    seg = tl.segments[0]
    assert (seg.map_name, seg.level_name, seg.protocol, seg.maxclients) == ("test", "Test Level", 28, 32)
    assert seg.model_precache[PLAYER] == P.PLAYER_MODEL and seg.sound_precache[1] == "weapons/r_exp3.wav"


def test_qwd_player_is_entity_slot_plus_one():
    tl = qwd()
    ents = tl.frame_entities(0)
    assert ents.number.tolist() == [1, 40]
    assert ents.model.tolist() == [PLAYER, ARMOR]
    assert ents.colormap.tolist()[0] == 1
    # the drawn model pitch is -view pitch / 3 (CL_LinkPlayers)
    assert ents.angles[0].tolist() == pytest.approx([-10 / 3, 90, 0], abs=1e-4)


def test_qwd_cmd_angles_update_view():
    w = QWDWriter()
    qwd_signon(m, w)
    w.cmd(1.9, viewangles=(5.0, 45.0, 0.0))
    w.packet(2.0, m.playerinfo_qwd(0, (0, 0, 0)), m.packetentities([]))
    w.cmd(2.05, viewangles=(-5.0, 50.0, 0.0))
    w.packet(2.1, m.playerinfo_qwd(0, (0, 0, 0)), m.packetentities([], delta_from=w.seq))
    tl = load_demo(w.build(), "a.qwd")
    assert tl.view_angles[:, :2].tolist() == [[5, 45], [-5, 50]]


def test_qwd_dem_set_and_duplicate_packets_dropped():
    w = QWDWriter()
    qwd_signon(m, w)
    w.set(1.5, 100, 100)
    w.packet(2.0, m.playerinfo_qwd(0, (0, 0, 0)), m.packetentities([]), seq=101)
    w.packet(2.05, m.playerinfo_qwd(0, (50, 0, 0)), m.packetentities([]), seq=101)   # duplicate: dropped
    w.packet(2.1, m.playerinfo_qwd(0, (8, 0, 0)), m.packetentities([], delta_from=101), seq=102)
    tl = load_demo(w.build(), "a.qwd")
    assert tl.num_frames == 2 and tl.meta["dropped_packets"] == 1
    assert tl.players.origin[:, 0, 0].tolist() == [0, 8]


def test_qwd_connectionless_print_and_end_of_demo():
    w = QWDWriter()
    qwd_signon(m, w)
    w.packet(2.0, m.playerinfo_qwd(0, (0, 0, 0)), m.packetentities([]))
    w.connectionless(2.05, b"nhello\n\0")
    w.connectionless(2.1, b"\x02EndOfDemo")
    w.packet(3.0, m.playerinfo_qwd(0, (0, 0, 0)), m.packetentities([]))
    tl = load_demo(w.build(), "a.qwd")
    assert tl.num_frames == 1 and tl.events[-1].kind == "disconnect"
    assert any(e.kind == "print" and e.text == "hello\n" for e in tl.events)


def test_mvd_time_deltas_group_blocks_into_frames():
    tl = mvd((0, (m.playerinfo_mvd(0, origin=(1, 2, 3)), m.packetentities([])), "all"),
             (13, (m.playerinfo_mvd(0, origin=(2, 2, 3)),), "all"),
             (0, (m.packetentities([], delta_from=0),), "all"),
             (20, (m.playerinfo_mvd(0, origin=(3, 2, 3)),), "all"))
    assert (tl.format, tl.game) == ("mvd", "quakeworld")
    assert tl.times.tolist() == pytest.approx([0.0, 0.013, 0.033])
    assert tl.players.origin[:, 0, 0].tolist() == [1, 2, 3]


def test_mvd_playerinfo_is_a_delta_per_player():
    tl = mvd((0, (m.playerinfo_mvd(0, 5, origin=(1, 2, 3), angles=(10, 20, 0), model=PLAYER, skin=1, effects=8,
                                   weaponframe=2), m.packetentities([])), "all"),
             (13, (m.playerinfo_mvd(0, 6, origin=(None, 7, None)),), "all"))
    pl = tl.players
    assert pl.origin[1, 0].tolist() == [1, 7, 3]
    assert pl.angles[1, 0].tolist() == pytest.approx([10, 20, 0], abs=0.01)
    assert (pl.model[1, 0], pl.skin[1, 0], pl.effects[1, 0], pl.weaponframe[1, 0], pl.frame[1, 0]) == (PLAYER, 1, 8,
                                                                                                       2, 6)


def test_mvd_default_pov_and_pov_switch():
    tl = mvd((0, (m.playerinfo_mvd(0, origin=(0, 0, 0), angles=(0, 90, 0)),
                  m.playerinfo_mvd(1, origin=(100, 0, 0), angles=(0, 180, 0)), m.packetentities([])), "all"),
             (100, (m.playerinfo_mvd(0, origin=(10, 0, 0)), m.playerinfo_mvd(1, origin=(100, 20, 0))), "all"))
    assert tl.default_pov == 0 and tl.pov_slots == (0, 1)
    s0 = tl.sample(0.05)
    assert s0.view_entity == 1 and s0.view_origin.tolist() == pytest.approx([5, 0, 22])
    s1 = tl.sample(0.05, pov=1)
    assert s1.pov == 1 and s1.view_entity == 2
    assert s1.view_origin.tolist() == pytest.approx([100, 10, 22])
    assert (s1.view_angles[1] - 180 + 180) % 360 - 180 == pytest.approx(0, abs=0.01)
    # the players are entities 1 and 2, drawn with the player model (cl_fix_mvd) and their colormap
    ents = s1.entities
    assert ents.number.tolist() == [1, 2] and ents.model.tolist() == [PLAYER, PLAYER]
    assert ents.colormap.tolist() == [1, 2]
    with pytest.raises(ValueError):
        tl.sample(0.05, pov=7)


def test_mvd_stats_per_player():
    tl = mvd((0, (m.playerinfo_mvd(0, origin=(0, 0, 0)), m.playerinfo_mvd(1, origin=(0, 0, 0)),
                  m.packetentities([])), "all"),
             (0, (m.updatestat(P.STAT_HEALTH, 77), m.updatestatlong(P.STAT_ITEMS, 4096)), ("stats", 1)),
             (0, (m.updatestat(P.STAT_HEALTH, 55),), ("stats", 0)),
             (13, (m.playerinfo_mvd(0), m.playerinfo_mvd(1)), "all"))
    assert tl.players.has_stats.tolist() == [True, True]
    assert tl.sample(1.0, pov=1).stats["health"] == 77 and tl.sample(1.0, pov=1).stats["items"] == 4096
    assert tl.sample(1.0, pov=0).stats["health"] == 55
    assert tl.stats["health"].tolist() == [55, 55]          # the default POV (slot 0)


def test_mvd_dead_and_gib_view_heights():
    tl = mvd((0, (m.playerinfo_mvd(0, origin=(0, 0, 100), dead=True), m.packetentities([])), "all"),
             (13, (m.playerinfo_mvd(0, gib=True),), "all"))
    assert tl.players.flags[:, 0].tolist() == [PLAYER_DEAD, PLAYER_GIB]
    assert tl.view_origin[:, 2].tolist() == [100 - 16, 100 + 8]


def test_mvd_hidden_messages_are_counted_and_skipped():
    hidden = struct.pack("<ih", 3, 7) + b"abc" + struct.pack("<i", -1)
    w = MVDWriter()
    w.block(0, m.serverdata(mvd=True, extensions=[(P.PROTOCOL_VERSION_MVD1, P.MVD_PEXT1_HIDDEN_MESSAGES)]),
            m.modellist(MODELS))
    w.block(0, hidden, to=("multiple", 0))
    w.block(0, m.playerinfo_mvd(0, origin=(0, 0, 0)), m.packetentities([]))
    tl = load_demo(w.build(), "a.mvd")
    assert tl.meta["extensions"] == {"mvd1": P.MVD_PEXT1_HIDDEN_MESSAGES}
    assert tl.meta["hidden_messages"] == {"dmgdone": 1}


def test_mvd_prints_to_several_players_merge():
    chat = m.print("Alice: hi\n", P.PRINT_CHAT)
    tl = mvd((0, (m.playerinfo_mvd(0, origin=(0, 0, 0)), m.packetentities([])), "all"),
             (0, (chat,), ("single", 0)), (0, (chat,), ("single", 1)),
             (0, (m.print("You got the Shotgun\n", P.PRINT_LOW),), ("single", 1)))
    c = only(tl, "chat")
    assert (c.sender, c.slot, c.team, c.text, c.to) == ("Alice", 0, False, "hi", (0, 1))
    pick = only(tl, "pickup")
    assert (pick.player, pick.item) == (1, "the Shotgun")
    assert [e.to for e in tl.events if e.kind == "print"] == [(0, 1), (1,)]


def test_mvd_setangle_has_a_player_byte():
    tl = mvd((0, (m.playerinfo_mvd(0, origin=(0, 0, 0)), m.packetentities([]), m.setangle((0, 90, 0), slot=0)),
              "all"))
    assert only(tl, "setangle").angles == pytest.approx((0, 90, 0))


def test_mvd_disconnect_with_end_of_demo_text():
    tl = mvd((0, (m.playerinfo_mvd(0, origin=(0, 0, 0)), m.packetentities([])), "all"),
             (13, (m.disconnect("EndOfDemo"),), "all"))
    assert tl.events[-1].kind == "disconnect"


# --- entities -----------------------------------------------------------------------------------------------------


def test_packetentities_from_baseline_and_delta_ring():
    w = QWDWriter()
    qwd_signon(m, w)
    w.packet(1.5, m.spawnbaseline(40, model=ARMOR, skin=1, origin=(8, 16, 24), angles=(0, 90, 0)))
    w.packet(2.0, m.playerinfo_qwd(0, (0, 0, 0)), m.packetentities([m.entity(40, frame=3), m.entity(41, model=2)]))
    full = w.seq
    # sequence full+1: delta against the full set; moves 40 and removes 41
    w.packet(2.1, m.playerinfo_qwd(0, (0, 0, 0)),
             m.packetentities([m.entity(40, origin=(100, None, None)), m.entity(41, remove=True)], delta_from=full))
    # sequence full+2: delta against the FULL set again (the ack was lost): 41 is back unchanged, 40 at baseline
    w.packet(2.2, m.playerinfo_qwd(0, (0, 0, 0)), m.packetentities([m.entity(42, model=ARMOR)], delta_from=full))
    tl = load_demo(w.build(), "a.qwd")
    f0, f1, f2 = (tl.frame_entities(i) for i in range(3))
    assert f0.number.tolist() == [1, 40, 41]
    i40 = f0.index_of(40)
    assert (f0.model[i40], f0.frame[i40], f0.skin[i40]) == (ARMOR, 3, 1)
    assert f0.origin[i40].tolist() == [8, 16, 24] and f0.angles[i40][1] == pytest.approx(90, abs=1.5)
    assert f1.number.tolist() == [1, 40] and f1.origin[f1.index_of(40)].tolist() == [100, 16, 24]
    assert f2.number.tolist() == [1, 40, 41, 42] and f2.origin[f2.index_of(40)].tolist() == [8, 16, 24]
    assert tl.meta["delta_from_mismatch"] == 0


def test_delta_from_a_lost_sequence_keeps_the_old_set():
    w = QWDWriter()
    qwd_signon(m, w)
    w.packet(2.0, m.playerinfo_qwd(0, (0, 0, 0)), m.packetentities([m.entity(40, model=ARMOR)]))
    w.packet(2.1, m.playerinfo_qwd(0, (0, 0, 0)), m.packetentities([m.entity(41, model=2)], delta_from=200))
    tl = load_demo(w.build(), "a.qwd")
    assert tl.meta["delta_from_mismatch"] == 1
    assert tl.frame_entities(1).number.tolist() == [1, 40]


def test_all_entity_fields():
    tl = qwd(signon=(m.spawnbaseline(50, model=ARMOR),),
             more=((2.2, m.playerinfo_qwd(0, (0, 0, 0)),
                    m.packetentities([m.entity(50, model=ARMOR, frame=2, colormap=3, skin=4, effects=8,
                                                origin=(1, 2, 3), angles=(45, 90, 180))])),))
    e = tl.frame_entities(2)
    i = e.index_of(50)
    assert (e.model[i], e.frame[i], e.colormap[i], e.skin[i], e.effects[i]) == (ARMOR, 2, 3, 4, 8)
    assert e.origin[i].tolist() == [1, 2, 3]
    assert e.angles[i].tolist() == pytest.approx([45, 90, -180], abs=1.5)


def test_players_absent_from_a_packet_are_not_drawn():
    tl = qwd(m.playerinfo_qwd(1, (64, 0, 24), command=m.usercmd(angles=(30, 180, 0))))
    assert tl.frame_entities(0).number.tolist() == [1, 2, 40]
    assert tl.frame_entities(1).number.tolist() == [1, 40]
    assert tl.players.present[:, 1].tolist() == [True, False]
    assert tl.players.angles[0, 1].tolist() == pytest.approx([30, -180, 0], abs=0.01)
    # sampled as a POV when absent: the last known state
    assert tl.sample(2.1, pov=1).view_origin.tolist() == pytest.approx([64, 0, 46])


def test_playerinfo_all_fields():
    tl = qwd(m.playerinfo_qwd(1, (64, 0, 24), 7, msec=12, command=m.usercmd(angles=(1, 2, 3), buttons=1, impulse=5,
                                                                            moves=(100, 0, 0)),
                              velocity=(10, 20, 30), model=ARMOR, skin=2, effects=P.EF_DIMLIGHT, weaponframe=4,
                              dead=True))
    pl = tl.players
    assert (pl.model[0, 1], pl.skin[0, 1], pl.effects[0, 1], pl.weaponframe[0, 1], pl.frame[0, 1]) == (
        ARMOR, 2, P.EF_DIMLIGHT, 4, 7)
    assert pl.flags[0, 1] == PLAYER_DEAD
    assert tl.frame_entities(0).effects.tolist()[1] == P.EF_DIMLIGHT


def test_nails_become_spike_entities():
    tl = qwd(m.nails([((100, 200, -300), 45, 90), ((2, 4, 6), -90, 0)]))
    e = tl.frame_entities(0)
    nails = e.number >= NAIL_NUMBER_BASE
    assert nails.sum() == 2 and set(e.model[nails]) == {SPIKE}
    assert sorted(e.origin[nails].tolist()) == [[2, 4, 6], [100, 200, -300]]
    assert sorted(e.angles[nails][:, 1].tolist()) == pytest.approx([0, 90])
    assert (tl.frame_entities(1).number >= NAIL_NUMBER_BASE).sum() == 0       # nails live for one packet


def test_nails2_keep_their_id():
    tl = mvd((0, (m.playerinfo_mvd(0, origin=(0, 0, 0)), m.packetentities([]), m.nails2([(7, (10, 0, 0), 0, 0)])),
              "all"),
             (13, (m.playerinfo_mvd(0), m.nails2([(7, (30, 0, 0), 0, 0)])), "all"))
    assert tl.frame_entities(0).number.tolist()[-1] == NAIL_NUMBER_BASE + 7
    assert tl.sample(0.0065).entities.origin[-1][0] == pytest.approx(20, abs=0.5)


def test_muzzleflash_sets_effect_for_one_frame():
    tl = qwd(m.muzzleflash(1), m.muzzleflash(40))
    e0, e1 = tl.frame_entities(0), tl.frame_entities(1)
    assert (e0.effects & P.EF_MUZZLEFLASH).tolist() == [P.EF_MUZZLEFLASH, P.EF_MUZZLEFLASH]
    assert (e1.effects & P.EF_MUZZLEFLASH).tolist() == [0, 0]
    assert [e.entity for e in tl.events if e.kind == "muzzleflash"] == [1, 40]


def test_statics_and_static_sounds():
    tl = qwd(signon=(m.spawnstatic(ARMOR, 1, 0, 2, (8, 8, 8), (0, 90, 0)), m.spawnstaticsound((1, 2, 3), 2, 200, 128)))
    seg = tl.segments[0]
    assert seg.statics.model.tolist() == [ARMOR] and seg.statics.origin[0].tolist() == [8, 8, 8]
    ss = seg.static_sounds[0]
    assert (ss.sound, ss.volume, ss.attenuation) == ("items/armor1.wav", 200 / 255, 2.0)


# --- scoreboard / info --------------------------------------------------------------------------------------------


def test_userinfo_frags_ping_pl_setinfo():
    tl = qwd(m.updatefrags(1, 5), m.updateping(1, 42), m.updatepl(1, 3), m.updateentertime(1, 10.0),
             m.setinfo(1, "team", "red"), m.setinfo(1, "*spectator", "1"))
    b = tl.final_scoreboard()[1]
    assert (b.name, b.frags, b.ping, b.pl, b.team, b.spectator, b.top, b.bottom) == ("Bob", 5, 42, 3, "red", True,
                                                                                      4, 12)
    assert b.info["name"] == "Bob" and b.userid == 1
    assert [e.key for e in tl.events if e.kind == "setinfo"] == ["team", "*spectator"]


def test_serverinfo_and_fullserverinfo():
    tl = qwd(m.serverinfo("timelimit", "20"),
             signon=(m.stufftext('fullserverinfo "\\hostname\\Test Server\\deathmatch\\3"\n'),))
    assert tl.meta["serverinfo"] == {"hostname": "Test Server", "deathmatch": "3", "timelimit": "20"}
    e = [e for e in tl.events if e.kind == "setinfo"][0]
    assert (e.slot, e.key, e.value) == (-1, "timelimit", "20")


def test_stats_byte_and_long():
    tl = qwd(m.updatestat(P.STAT_HEALTH, 90), m.updatestatlong(P.STAT_ITEMS, 1 << 22), m.updatestat(P.STAT_AMMO, 7),
             m.updatestatlong(P.STAT_TIME, 123456))
    assert tl.stats["health"][0] == 90 and tl.stats["items"][0] == 1 << 22 and tl.stats["ammo"][0] == 7


def test_bad_stat_index():
    with pytest.raises(FormatError):
        qwd(m.updatestat(40, 1))


# --- events -------------------------------------------------------------------------------------------------------


def test_print_levels_chat_obituary_pickup():
    tl = qwd(m.print("You got the Rocket Launcher\n", P.PRINT_LOW), m.print("Bob: hello there\n", P.PRINT_CHAT),
             m.print("(Alice): team msg\n", P.PRINT_CHAT), m.print("Bob rides Alice's rocket\n", P.PRINT_MEDIUM),
             m.print("", P.PRINT_HIGH))
    prints = [e for e in tl.events if e.kind == "print"]
    assert [p.level for p in prints] == [0, 3, 3, 1]
    assert only(tl, "pickup").item == "the Rocket Launcher" and only(tl, "pickup").player == 0
    chats = [e for e in tl.events if e.kind == "chat"]
    assert [(c.sender, c.slot, c.team, c.text) for c in chats] == [("Bob", 1, False, "hello there"),
                                                                   ("Alice", 0, True, "team msg")]
    o = only(tl, "obituary")
    assert (o.victim, o.killer, o.weapon) == ("Bob", "Alice", "rocket")


def test_centerprint_stufftext_never_executed():
    tl = qwd(m.centerprint("Fight!"), m.stufftext("quit\n"))
    assert only(tl, "centerprint").text == "Fight!" and only(tl, "stufftext").text == "quit\n"


def test_sound_qw_layout():
    tl = qwd(m.sound(5, 2, 1, (8, 16, 24), volume=128, attenuation=2.0), m.sound(1, 1, 2, (0, 0, 0)),
             m.stopsound(5, 2))
    s0, s1 = [e for e in tl.events if e.kind == "sound"]
    assert (s0.entity, s0.channel, s0.sound, s0.volume, s0.attenuation, s0.origin) == (
        5, 2, "weapons/r_exp3.wav", 128 / 255, 2.0, (8, 16, 24))
    assert (s1.volume, s1.attenuation, s1.sound) == (1.0, 1.0, "items/armor1.wav")
    st = only(tl, "stopsound")
    assert (st.entity, st.channel) == (5, 2)


def test_temp_entities_qw_variants():
    tl = qwd(m.temp_entity(P.TE_GUNSHOT, (1, 2, 3), count=20), m.temp_entity(P.TE_BLOOD, (4, 5, 6), count=3),
             m.temp_entity(P.TE_LIGHTNINGBLOOD, (7, 8, 9)), m.temp_entity(P.TE_EXPLOSION, (0, 0, 8)),
             m.temp_entity(P.TE_LIGHTNING2, (0, 0, 0), entity=1, end=(100, 0, 0)))
    te = [e for e in tl.events if e.kind == "temp_entity"]
    assert [e.name for e in te] == ["gunshot", "blood", "lightningblood", "explosion", "lightning2"]
    assert (te[0].count, te[0].origin) == (20, (1, 2, 3)) and te[1].count == 3
    assert (te[4].entity, te[4].end) == (1, (100, 0, 0))


def test_unknown_temp_entity():
    with pytest.raises(FormatError):
        qwd(bytes([P.svc_temp_entity, 99]) + m.coords((0, 0, 0)))


def test_lightstyle_setangle_damage_kicks_pause():
    tl = qwd(m.lightstyle(3, "abc"), m.setangle((0, 45, 0)), m.damage(3, 10, (1, 1, 1)), m.smallkick(), m.bigkick(),
             m.setpause(True))
    assert tl.lightstyles[3][0][1] == "abc"
    assert only(tl, "setangle").angles == pytest.approx((0, 45, 0), abs=1.5)
    assert tl.view_angles[0][1] == pytest.approx(45, abs=1.5)
    d = only(tl, "damage")
    assert (d.armor, d.blood) == (3, 10)
    assert [e.pitch for e in tl.events if e.kind == "kick"] == [-2, -4]
    assert tl.stats["punch_pitch"].tolist() == [-4, 0]
    assert only(tl, "pause").paused is True


def test_intermission_finale_sellscreen_monsters_secrets():
    tl = qwd(m.killedmonster(), m.foundsecret(), m.intermission((1, 2, 3), (0, 90, 0)), m.finale("The End"),
             m.sellscreen(), m.cdtrack(4))
    assert only(tl, "killedmonster").count == 1 and only(tl, "foundsecret").count == 1
    assert tl.view_origin[0].tolist() == [1, 2, 3] and tl.view_angles[1][1] == pytest.approx(90, abs=1.5)
    assert tl.stats["intermission"].tolist() == [2, 2]
    assert only(tl, "finale").text == "The End" and only(tl, "sellscreen")
    assert only(tl, "cdtrack").track == 4


def test_ignored_messages_parse():
    tl = qwd(m.chokecount(3), m.maxspeed(300), m.entgravity(0.5), m.download(b"abcd", 50), m.nop(), m.qizmovoice(),
             bytes([P.svc_nq_time]) + struct.pack("<f", 1.0))
    assert tl.num_frames == 2 and tl.meta["movevars"]["maxspeed"] == 300


def test_modellist_and_soundlist_continuations():
    w = QWDWriter()
    w.packet(1.0, m.serverdata(), m.soundlist(["a.wav"], 0, 1), m.soundlist(["b.wav"], 1, 0),
             m.modellist(["maps/x.bsp", "progs/a.mdl"], 0, 2), m.modellist([P.PLAYER_MODEL], 2, 0))
    w.packet(2.0, m.playerinfo_qwd(0, (0, 0, 0)), m.packetentities([]))
    tl = load_demo(w.build(), "a.qwd")
    seg = tl.segments[0]
    assert seg.model_precache == ("", "maps/x.bsp", "progs/a.mdl", P.PLAYER_MODEL)
    assert seg.sound_precache == ("", "a.wav", "b.wav")
    assert tl.frame_entities(0).model.tolist() == [3]        # the default player model index follows the list


def test_serverdata_extensions_and_old_protocol_rejected():
    w = QWDWriter()
    w.packet(1.0, m.serverdata(extensions=[(P.PROTOCOL_VERSION_FTE, 0)]), m.modellist(MODELS))
    w.packet(2.0, m.playerinfo_qwd(0, (0, 0, 0)), m.packetentities([]))
    assert load_demo(w.build(), "a.qwd").meta["extensions"] == {"fte": 0}
    bad = QWMessages(protocol=99)
    w = QWDWriter()
    w.packet(1.0, bad.serverdata())
    with pytest.raises(FormatError):
        load_demo(w.build(), "a.qwd")


def test_fte_float_coords():
    f = QWMessages(float_coords=True)
    w = QWDWriter()
    w.packet(1.0, f.serverdata(extensions=[(P.PROTOCOL_VERSION_FTE, P.FTE_PEXT_FLOATCOORDS)]), f.modellist(MODELS))
    w.packet(2.0, f.playerinfo_qwd(0, (0.5, 0, 0)), f.packetentities([f.entity(40, model=2, origin=(1.25, 0, 0))]),
             f.temp_entity(P.TE_EXPLOSION, (0.75, 0, 0)))
    tl = load_demo(w.build(), "a.qwd")
    assert tl.frame_entities(0).origin[:, 0].tolist() == [0.5, 1.25]
    assert only(tl, "temp_entity").origin[0] == 0.75


# --- reports, detection, bad input ------------------------------------------------------------------------------


def test_report_keys():
    tl = qwd(m.print("Bob: hi\n", P.PRINT_CHAT))
    info = info_dict(tl, "test.qwd")
    assert (info["format"], info["game"], info["maps"], info["recorder"]) == ("qwd", "quakeworld", ["test"], 0)
    assert info["pov_slots"] == [0] and info["players"][1]["name"] == "Bob"
    assert {"team", "spectator", "ping", "pl", "userinfo"} <= set(info["players"][0])
    evs = events_list(tl, ["chat"])
    assert tl.start_time == 2.0
    assert evs == [{"time": 0.0, "server_time": 2.0, "frame": 0, "segment": 0, "kind": "chat", "sender": "Bob",
                    "slot": 1, "team": False, "text": "hi", "to": None}]


def test_content_sniffing_without_extension():
    w = QWDWriter()
    qwd_signon(m, w)
    w.packet(2.0, m.playerinfo_qwd(0, (0, 0, 0)), m.packetentities([]))
    assert load_demo(w.build()).format == "qwd"
    v = MVDWriter()
    mvd_signon(m, v)
    v.block(0, m.playerinfo_mvd(0, origin=(0, 0, 0)), m.packetentities([]))
    assert load_demo(v.build()).format == "mvd"


def test_truncated_keeps_frames_with_warning():
    w = QWDWriter()
    qwd_signon(m, w)
    w.packet(2.0, m.playerinfo_qwd(0, (0, 0, 0)), m.packetentities([]))
    w.packet(2.1, m.playerinfo_qwd(0, (1, 0, 0)), m.packetentities([], delta_from=w.seq))
    data = w.build()
    with pytest.warns(UserWarning, match="truncated"):
        tl = load_demo(data[:-5], "a.qwd")
    assert tl.num_frames == 1 and tl.warnings


def test_corrupt_message_after_frames_is_a_warning():
    w = QWDWriter()
    qwd_signon(m, w)
    w.packet(2.0, m.playerinfo_qwd(0, (0, 0, 0)), m.packetentities([]))
    w.packet(2.1, m.print("lost"), bytes([200]))
    with pytest.warns(UserWarning, match="svc_200"):
        tl = load_demo(w.build(), "a.qwd")
    assert tl.num_frames == 1 and not any(e.kind == "print" for e in tl.events)


def test_errors_are_format_errors():
    with pytest.raises(BadMagicError):
        decode_qwd(struct.pack("<fB", 1.0, 9) + bytes(10), "x.qwd")
    with pytest.raises(TruncatedError):
        decode_qwd(b"", "x.qwd")
    with pytest.raises(FormatError):
        decode_mvd(bytes([0, P.dem_all]) + struct.pack("<i", 1 << 30), "x.mvd")
    w = QWDWriter()
    w.packet(1.0, m.playerinfo_qwd(0, (0, 0, 0)))          # no serverdata first
    with pytest.raises(FormatError):
        decode_qwd(w.build(), "x.qwd")


def test_nail_count_beyond_block():
    with pytest.raises(FormatError):
        qwd(bytes([P.svc_nails, 200]) + bytes(6))


# --- pure helpers -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [
    ("A was telefragged by his teammate\n", ("A", None, "telefrag")),
    ("A squished a teammate\n", (None, "A", "teamkill")),
    ("A checks his glasses\n", (None, "A", "teamkill")),
    ("A suicides\n", ("A", None, "suicide")),
    ("A discovers blast radius\n", ("A", None, "rocket")),
    ("B was ventilated by A\n", ("B", "A", "super_nailgun")),
    ("A rips B a new one\n", ("B", "A", "rocket")),
    ("B was lead poisoned by A\n", ("B", "A", "shotgun")),
])
def test_qw_obituaries(text, expected):
    o = parse_obituary(text)
    assert (o.victim, o.killer, o.weapon) == expected


def test_parse_chat_names_with_colons():
    assert parse_chat(": Bob: hi\n", [": Bob", "Al"]) == (": Bob", False, "hi")
    assert parse_chat("(: Bob): hi\n", [": Bob"]) == (": Bob", True, "hi")
    assert parse_chat("no sender here\n") is None
    assert parse_pickup("You receive 25 health\n") == "25 health" and parse_pickup("You get \n") is None


def test_no_warnings_on_clean_demo():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tl = qwd(more=((2.2, m.disconnect()),))
    assert tl.warnings == ()
    assert np.all(np.diff(tl.times) >= 0)


def test_second_level_without_frames_is_dropped():
    w = QWDWriter()
    qwd_signon(m, w)
    w.packet(2.0, m.playerinfo_qwd(0, (0, 0, 0)), m.packetentities([]), m.updatefrags(1, 3))
    w.packet(2.1, m.serverdata(level_name="Next"), m.modellist(["maps/next.bsp"]))
    tl = load_demo(w.build(), "a.qwd")
    assert tl.maps == ("test",) and tl.final_scoreboard()[1].frags == 3


def test_two_levels():
    w = QWDWriter()
    qwd_signon(m, w)
    w.packet(2.0, m.playerinfo_qwd(0, (0, 0, 0)), m.packetentities([m.entity(40, model=ARMOR)]))
    w.packet(3.0, m.serverdata(level_name="Next"), m.modellist(["maps/next.bsp", P.PLAYER_MODEL]))
    w.packet(3.1, m.playerinfo_qwd(0, (5, 0, 0)), m.packetentities([]))
    tl = load_demo(w.build(), "a.qwd")
    assert tl.maps == ("test", "next") and tl.frame_segment.tolist() == [0, 1]
    assert tl.frame_entities(1).model.tolist() == [2]
    assert [e.map for e in tl.events if e.kind == "serverinfo"] == ["test", "next"]
