"""Every Quake II server message, one tiny synthetic demo each (tests/builders/dm2.py)."""

from __future__ import annotations

import struct
import warnings

import numpy as np
import pytest

from assets_loader.demos import load_demo
from assets_loader.demos.quake2 import ConfigStrings, decode_dm2, parse_player_skin
from assets_loader.demos.quake2 import protocol as P
from assets_loader.demos.quake2.obituaries import parse_quake2_obituary
from assets_loader.errors import FormatError, UnsupportedFormatError
from assets_loader.models.anorms import ANORMS
from tests.builders.dm2 import DM2Messages, dm2, pos

M = DM2Messages()


def signon(m: DM2Messages = M, *extra: bytes) -> list[bytes]:
    return [m.serverdata(gamedir="action", playernum=0), m.configstring(P.CS_MODELS + 1, "maps/test.bsp"),
            m.configstring(P.CS_MODELS + 2, "models/items/armor/tris.md2"),
            m.configstring(P.CS_SOUNDS + 1, "weapons/railgf1a.wav"),
            m.configstring(P.CS_PLAYERSKINS, "Alice\\female/athena"), m.configstring(P.CS_MAXCLIENTS, "4"),
            *extra]


def frame(n: int, delta: int, *msgs: bytes, ents: tuple[bytes, ...] = (), **player: object) -> list[bytes]:
    return [M.frame(n, delta), M.playerinfo(**player), M.packetentities(ents), *msgs]  # type: ignore[arg-type]


def decode(data: bytes):
    return decode_dm2(data, "t.dm2")


def test_serverdata_configstrings_and_a_frame_make_a_level() -> None:
    tl = decode(dm2(signon(), frame(10, -1, origin=(8, 16, 24), viewoffset=(0, 0, 22), viewangles=(10, 90, 0))))
    assert tl.game == "quake2" and tl.protocol == 34 and tl.num_frames == 1
    assert tl.meta["gamedir"] == "action" and tl.meta["playernum"] == 0
    seg = tl.segments[0]
    assert seg.map_name == "test" and seg.map_path == "maps/test.bsp"
    assert seg.model_precache[2] == "models/items/armor/tris.md2" and seg.sound_precache[1] == "weapons/railgf1a.wav"
    assert seg.maxclients == 4 and tl.final_scoreboard()[0].name == "Alice"
    assert tl.times[0] == pytest.approx(1.0)                      # frame 10 at 10 Hz
    np.testing.assert_allclose(tl.view_origin[0], (8, 16, 46))     # pmove origin + view offset
    np.testing.assert_allclose(tl.view_angles[0], (10, 90, 0), atol=0.01)
    assert tl.view_entity[0] == 1


def test_kick_angles_add_to_the_view_and_stats_are_kept_between_frames() -> None:
    tl = decode(dm2(signon(), frame(1, -1, viewangles=(0, 45, 0), kick=(-2, 0, 1), stats={1: 100, 14: 3}),
                    frame(2, 1, stats={1: 75})))
    np.testing.assert_allclose(tl.view_angles[0], (-2, 45, 1), atol=0.01)
    assert tl.stats["health"].tolist() == [100, 75]
    assert tl.stats["frags"].tolist() == [3, 3]                    # carried from the delta frame
    assert tl.stats["kick_pitch4"].tolist() == [-8, -8]


def test_packet_entities_delta_from_the_delta_frame_with_removals() -> None:
    f1 = frame(1, -1, ents=(M.entity(5, model=2, origin=(100, 0, 0)), M.entity(300, model=2, origin=(0, 50, 0))))
    f2 = frame(2, 1, ents=(M.entity(5, origin=(110, 0, 0)),))
    f3 = frame(3, 2, ents=(M.entity(300, remove=True),))
    tl = decode(dm2(signon(), f1, f2, f3))
    assert tl.frame_entities(0).number.tolist() == [5, 300]
    e1 = tl.frame_entities(1)
    assert e1.number.tolist() == [5, 300] and e1.origin[0, 0] == 110 and e1.model.tolist() == [2, 2]
    assert e1.extra["old_origin"][0].tolist() == [100, 0, 0]     # CL_ParseDelta: old_origin = old origin
    assert tl.frame_entities(2).number.tolist() == [5]


def test_baselines_seed_new_entities_and_deltas_from_frame_zero_use_them() -> None:
    tl = decode(dm2(signon(M, M.spawnbaseline(7, model=2, origin=(1, 2, 3), skin=300, effects=0x10000)),
                    frame(1, -1, ents=(M.entity(7, frame=4),))))
    e = tl.frame_entities(0)
    assert e.model.tolist() == [2] and e.frame.tolist() == [4] and e.skin.tolist() == [300]
    assert e.effects.tolist() == [0x10000] and e.origin[0].tolist() == [1, 2, 3]
    assert len(tl.segments[0].baselines) == 1


def test_events_last_one_frame_and_extras_are_columns() -> None:
    f1 = frame(1, -1, ents=(M.entity(5, model=2, model2=3, renderfx=P.RF_BEAM, event=1, sound=4, solid=31,
                                     old_origin=(9, 9, 9), origin=(0, 0, 0)),))
    tl = decode(dm2(signon(), f1, frame(2, 1)))
    x0, x1 = tl.frame_entities(0).extra, tl.frame_entities(1).extra
    assert x0["event"].tolist() == [1] and x1["event"].tolist() == [0]
    assert x0["model2"].tolist() == [3] and x0["renderfx"].tolist() == [P.RF_BEAM]
    assert x0["sound"].tolist() == [4] and x0["solid"].tolist() == [31]
    assert x0["old_origin"][0].tolist() == [9, 9, 9] and x1["old_origin"][0].tolist() == [0, 0, 0]


def test_a_new_entity_lerps_from_its_old_origin() -> None:
    f2 = frame(2, 1, ents=(M.entity(5, model=2, origin=(100, 0, 0), old_origin=(0, 0, 0)),))
    tl = decode(dm2(signon(), frame(1, -1), f2))
    s = tl.sample(0.15)
    assert s.entities.origin[0, 0] == pytest.approx(50)


def test_a_teleport_event_snaps_to_the_new_place() -> None:
    f1 = frame(1, -1, ents=(M.entity(5, model=2, origin=(0, 0, 0)),))
    f2 = frame(2, 1, ents=(M.entity(5, origin=(200, 0, 0), old_origin=(200, 0, 0), event=P.EV_PLAYER_TELEPORT),))
    f3 = frame(3, 2, ents=(M.entity(5, origin=(300, 0, 0)),))
    tl = decode(dm2(signon(), f1, f2, f3))
    assert tl.sample(0.15).entities.origin[0, 0] == pytest.approx(200)     # snapped, not lerped from 0
    assert tl.sample(0.25).entities.origin[0, 0] == pytest.approx(250)     # the next move lerps again


def test_muzzle_flashes_player_and_monster() -> None:
    tl = decode(dm2(signon(), frame(1, -1, M.muzzleflash(1, 6 | P.MZ_SILENCED), M.muzzleflash(9, 1, monster=True))))
    a, b = tl.events_of_kind("muzzleflash")
    assert (a.entity, a.name, a.silenced, a.monster) == (1, "railgun", True, False)
    assert (b.entity, b.name, b.monster) == (9, "tank_blaster_1", True)


@pytest.mark.parametrize("kind", [i for i in range(len(P.TE_KINDS)) if i not in P.TE_UNPARSED])
def test_every_temp_entity_kind_reads_its_payload(kind: int) -> None:
    name, shape = P.TE_KINDS[kind]
    o, e = pos((8, 16, 24)), pos((80, 160, 240))
    payload = {
        "point": o, "impact": o + b"\x05", "line": o + e, "blue_hyper": o + e,
        "splash": b"\x08" + o + b"\x05" + b"\x02", "beam": struct.pack("<h", 3) + o + e,
        "beam_offset": struct.pack("<h", 3) + o + e + pos((1, 2, 3)),
        "lightning": struct.pack("<hh", 3, 4) + o + e, "flashlight": o + struct.pack("<h", 3),
        "forcewall": o + e + b"\x07", "steam": struct.pack("<h", 2) + b"\x08" + o + b"\x05\x02"
        + struct.pack("<hi", 50, 1000), "widow": struct.pack("<h", 3) + o,
    }[shape]
    tl = decode(dm2(signon(), frame(1, -1, M.temp_entity(kind, payload), M.print(2, "after\n"))))
    (te,) = tl.events_of_kind("temp_entity")
    assert te.name == name and te.origin == (8, 16, 24)
    assert [p.text for p in tl.events_of_kind("print")] == ["after\n"]     # the payload was read exactly
    if shape in ("impact", "splash", "steam"):
        assert te.direction == pytest.approx(tuple(ANORMS[5].tolist()))
    if shape in ("line", "beam", "beam_offset", "lightning", "forcewall"):
        assert te.end == (80, 160, 240)
    if shape == "splash":
        assert (te.count, te.color) == (8, 2)
    if shape == "steam":
        assert te.extra == (2.0, 50.0, 1000.0)


def test_an_unparsed_temp_entity_kind_is_a_format_error() -> None:
    with pytest.raises(FormatError, match="temp entity kind"):
        decode(dm2(signon(), [M.frame(1, -1), M.temp_entity(min(P.TE_UNPARSED), b"")]))


def test_sound_optional_fields() -> None:
    f1 = frame(1, -1, M.sound(1, volume=128, attenuation=128, entity=5, channel=2, offset=10),
               M.sound(1, origin=(4, 5, 6)), ents=(M.entity(5, model=2, origin=(1, 2, 3)),))
    tl = decode(dm2(signon(), f1))
    a, b = tl.events_of_kind("sound")
    assert (a.entity, a.channel, a.sound, a.origin) == (5, 2, "weapons/railgf1a.wav", (1, 2, 3))
    assert a.volume == pytest.approx(128 / 255) and a.attenuation == 2.0
    assert (b.entity, b.volume, b.attenuation, b.origin) == (0, 1.0, 1.0, (4, 5, 6))


def test_prints_chat_obituaries_centerprint_stufftext_layout_inventory() -> None:
    msgs = (M.print(3, "Alice: hello\n"), M.print(1, "Bob was railed by Alice\n"),
            M.text(P.svc_centerprint, "Fight!"), M.text(P.svc_stufftext, "quit\n"),
            M.text(P.svc_layout, "xv 0 yv 0 string hi"), M.inventory({7: 1, 18: 25}), M.simple(P.svc_nop))
    tl = decode(dm2(signon(), frame(1, -1, *msgs)))
    (chat,) = tl.events_of_kind("chat")
    assert (chat.sender, chat.slot, chat.text) == ("Alice", 0, "hello")
    (ob,) = tl.events_of_kind("obituary")
    assert (ob.victim, ob.killer, ob.weapon) == ("Bob", "Alice", "railgun")
    assert tl.events_of_kind("centerprint")[0].text == "Fight!"
    assert tl.events_of_kind("stufftext")[0].text == "quit\n"
    assert tl.events_of_kind("layout")[0].text == "xv 0 yv 0 string hi"
    inv = tl.events_of_kind("inventory")[0].counts
    assert len(inv) == 256 and inv[7] == 1 and inv[18] == 25
    assert [e.level for e in tl.events_of_kind("print")] == [3, 1]


def test_download_reconnect_and_disconnect() -> None:
    tl = decode(dm2(signon(), frame(1, -1, M.download(b"abc", 50), M.simple(P.svc_reconnect)),
                    [M.simple(P.svc_disconnect)], frame(2, 1)))
    assert tl.num_frames == 1                                           # disconnect ends the demo
    assert len(tl.events_of_kind("reconnect")) == 1 and len(tl.events_of_kind("disconnect")) == 1


def test_pickup_from_the_pickup_string_stat_and_intermission_from_pm_freeze() -> None:
    tl = decode(dm2(signon(M, M.configstring(P.CS_ITEMS + 3, "Railgun")),
                    frame(1, -1, stats={P.STAT_PICKUP_STRING: P.CS_ITEMS + 3}), frame(2, 1, pm_type=P.PM_FREEZE)))
    (pickup,) = tl.events_of_kind("pickup")
    assert pickup.item == "Railgun" and pickup.frame == 0
    (inter,) = tl.events_of_kind("intermission")
    assert inter.frame == 1 and tl.stats["intermission"].tolist() == [0, 1]


def test_configstrings_change_over_time() -> None:
    tl = decode(dm2(signon(), frame(1, -1, M.configstring(P.CS_PLAYERSKINS + 1, "Bob\\male/grunt")),
                    frame(2, 1), frame(3, 2, M.configstring(P.CS_STATUSBAR, "yb -24 xv 0 hnum"))))
    cs = ConfigStrings.of(tl.meta["configstring_changes"])
    assert P.CS_PLAYERSKINS + 1 not in cs.at(-1) or cs.at(0)[P.CS_PLAYERSKINS + 1] == "Bob\\male/grunt"
    assert ConfigStrings.player_skins(cs.at(2))[1] == parse_player_skin("Bob\\male/grunt")
    assert ConfigStrings.status_bar(cs.at(1)) == "" and ConfigStrings.status_bar(cs.at(2)) == "yb -24 xv 0 hnum"
    assert [s.name for s in tl.final_scoreboard()[:2]] == ["Alice", "Bob"]


def _three_frames(m: DM2Messages) -> bytes:
    """The same play in protocol ``m.protocol``: a baseline, three delta-compressed frames with player state, moving,
    added and removed entities and area bits."""
    return dm2(signon(m, m.spawnbaseline(4, model=2, origin=(0, 0, 0))),
               [m.frame(1, -1, b"\x0f"), m.playerinfo(origin=(8, 0, 0), viewangles=(0, 90, 0), fov=90,
                                                      stats={1: 100, 14: 2}),
                m.packetentities([m.entity(3, model=2, origin=(64, 0, 0)), m.entity(4, origin=(0, 32, 0))])],
               [m.frame(2, 1, b"\x03"), m.playerinfo(origin=(16, 0, 0), stats={1: 90}),
                m.packetentities([m.entity(3, origin=(72, 0, 0)), m.entity(5, model=2, origin=(0, 0, 8))])],
               [m.frame(3, 2), m.playerinfo(gunindex=2, gunframe=5),
                m.packetentities([m.entity(4, remove=True)])])


def test_protocol_26_frames_have_no_suppress_count_and_decode_like_34() -> None:
    old, new = (decode(_three_frames(DM2Messages(p))) for p in (P.PROTOCOL_OLD, P.PROTOCOL_VERSION))
    assert len(_three_frames(DM2Messages(P.PROTOCOL_OLD))) == len(_three_frames(M)) - 3   # one byte per svc_frame
    assert (old.protocol, new.protocol) == (26, 34) and old.num_frames == new.num_frames == 3
    for name in ("health", "frags", "fov", "gunindex", "gunframe"):
        assert old.stats[name].tolist() == new.stats[name].tolist(), name
    assert old.stats["health"].tolist() == [100, 90, 90] and old.stats["gunframe"].tolist() == [0, 0, 5]
    np.testing.assert_allclose(old.view_origin, new.view_origin)
    for i in range(3):
        a, b = old.frame_entities(i), new.frame_entities(i)
        assert a.number.tolist() == b.number.tolist()
        np.testing.assert_allclose(a.origin, b.origin)
    assert [old.frame_entities(i).number.tolist() for i in range(3)] == [[3, 4], [3, 4, 5], [3, 5]]
    np.testing.assert_allclose(old.frame_entities(1).origin[0], (72, 0, 0))     # delta from frame 1
    assert old.frame_entities(1).model.tolist() == [2, 2, 2]                   # entity 4 from its baseline


@pytest.mark.parametrize("protocol", [27, 31, 32, 33])
def test_protocols_between_26_and_34_decode_like_34(protocol: int) -> None:
    """3.07 .. 3.19 (protocols 27..33) send 34's messages, svc_frame with its suppress count."""
    m = DM2Messages(protocol)
    tl = decode(dm2(signon(m), [m.frame(1, -1), m.playerinfo(fov=90), m.packetentities([m.entity(3, model=2)])]))
    assert tl.protocol == protocol and tl.stats["fov"].tolist() == [90]
    assert tl.frame_entities(0).number.tolist() == [3]


@pytest.mark.parametrize("protocol", [35, 36, 2023, 24, 25])
def test_other_protocols_are_unsupported_by_number(protocol: int) -> None:
    with pytest.raises(UnsupportedFormatError, match=f"t.dm2: unsupported protocol {protocol}.* at offset 5"):
        decode(dm2([M.serverdata(protocol=protocol)], frame(1, -1)))


def test_a_protocol_25_demo_is_recognised_by_its_own_serverdata_byte() -> None:
    data = dm2([bytes([P.SVC_SERVERDATA_TEST]) + M.serverdata(protocol=25)[1:]], frame(1, -1))
    with pytest.raises(UnsupportedFormatError) as raised:
        decode(data)
    assert str(raised.value) == ("t.dm2: unsupported protocol 25 (Quake II 3.00 test release) at offset 5; "
                                 "expected Quake II protocol 26..34")
    assert raised.value.offset == 5
    with pytest.raises(UnsupportedFormatError, match=r"unsupported protocol 2023 \(the Quake II re-release\)"):
        decode(dm2([M.serverdata(protocol=2023)], frame(1, -1)))


def test_a_file_cut_inside_a_block_plays_to_the_cut_with_a_warning() -> None:
    data = dm2(signon(), frame(1, -1), frame(2, 1), frame(3, 2))
    with pytest.warns(UserWarning, match="truncated"):
        tl = decode(data[:-8])
    assert tl.num_frames == 2 and tl.warnings


def test_a_missing_end_block_is_a_warning() -> None:
    with pytest.warns(UserWarning, match="end-of-demo block"):
        tl = decode(dm2(signon(), frame(1, -1), frame(2, 1), end=False))
    assert tl.num_frames == 2


def test_a_corrupt_message_after_frames_keeps_them_and_before_raises_with_the_offset() -> None:
    with pytest.warns(UserWarning, match="decoding stopped"):
        tl = decode(dm2(signon(), frame(1, -1), [M.frame(2, 1), b"\x7f"]))
    assert tl.num_frames == 1
    with pytest.raises(FormatError, match="offset"):
        decode(dm2(signon(), [b"\x7f"]))
    with pytest.raises(FormatError, match="block length"):
        decode(struct.pack("<i", -5) + b"\0" * 8)


def test_a_bad_entity_number_and_frame_data_out_of_place_are_format_errors() -> None:
    with pytest.raises(FormatError, match="entity number below 1024"):
        decode(dm2(signon(), frame(1, -1, ents=(M.entity(1023, model=1)[:-2] + struct.pack("<H", 2000),))))
    with pytest.raises(FormatError, match="svc_playerinfo right after svc_frame"):
        decode(dm2(signon(), [M.playerinfo()]))


def test_load_demo_reads_dm2_by_content() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tl = load_demo(dm2(signon(), frame(1, -1)), "x.dm2")
    assert tl.format == "dm2"


@pytest.mark.parametrize(("text", "victim", "killer", "weapon", "own"), [
    ("shloo almost dodged claire's rocket\n", "shloo", "claire", "rocket_launcher", False),
    ("claire was cut in half by shloo's chaingun\n", "claire", "shloo", "chaingun", False),
    ("Bob tripped on his own grenade\n", "Bob", None, "grenade", True),
    ("Bob cratered\n", "Bob", None, "fall", False),
    ("Bob died.\n", "Bob", None, None, False),
    # AQtion (ClientObituary of AQ2:TNG): by weapon and body part, gendered, pushes, world deaths
    ("Bob has a hole in her head from Al's Mark 23 pistol\n", "Bob", "Al", "mk23", False),
    ("Bob's brains are on the wall thanks to Al's 10mm MP5/10 round\n", "Bob", "Al", "mp5", False),
    ("Bob is now shorter thanks to Al's M4 Assault Rifle\n", "Bob", "Al", "m4", False),
    ("Bob accepts Al's M3 Super 90 Assault Shotgun in hole-y matrimony\n", "Bob", "Al", "m3", False),
    ("Bob ate Al's sawed-off 12 gauge\n", "Bob", "Al", "handcannon", False),
    ("Bob was shot in the legs by Al's akimbo Mark 23 pistols\n", "Bob", "Al", "akimbo", False),
    ("Bob was shot in the legs by Al\n", "Bob", "Al", "sniper", False),
    ("Bob caught Al's flying knife with its forehead\n", "Bob", "Al", "throwing_knife", False),
    ("Bob had a Bruce Lee put on him by Al, with a quickness\n", "Bob", "Al", "kick", False),
    ("Bob caught Al's iron fist\n", "Bob", "Al", "punch", False),
    ("Bob was taught how to fly by Al\n", "Bob", "Al", "fall", False),
    ("Bob plummets to his death\n", "Bob", None, "fall", False),
    ("Bob didn't throw her grenade far enough\n", "Bob", None, "hand_grenade", True),
    ("Bob died\n", "Bob", None, None, False),
])
def test_quake2_obituaries(text: str, victim: str, killer: str | None, weapon: str | None, own: bool) -> None:
    ob = parse_quake2_obituary(text)
    assert ob is not None and (ob.victim, ob.killer, ob.weapon, ob.suicide) == (victim, killer, weapon, own)
    assert parse_quake2_obituary("Leg damage\n") is None
    assert parse_quake2_obituary("a b was railed by c\n", ["a b"]).victim == "a b"  # type: ignore[union-attr]


def test_only_prints_at_the_medium_level_are_death_messages() -> None:
    kill = "Alice was sniped in the stomach by Bob\n"
    tl = decode(dm2(signon(M, M.configstring(P.CS_PLAYERSKINS + 1, "Bob\\male/grunt")),
                    frame(1, -1, M.print(P.PRINT_MEDIUM, kill), M.print(P.PRINT_HIGH, "Bob died\n"))))
    (ob,) = tl.events_of_kind("obituary")
    assert (ob.victim, ob.killer, ob.weapon) == ("Alice", "Bob", "sniper")


def test_a_set_two_frames_delta_from_is_carried_the_same_for_both() -> None:
    """An event lasts its frame and old_origin follows origin however often the set is a delta source; the
    unchanged rows after that are stored once."""
    f1 = frame(1, -1, ents=(M.entity(5, model=2, event=1, origin=(8, 0, 0), old_origin=(9, 9, 9)),))
    tl = decode(dm2(signon(), f1, frame(2, 1), frame(3, 1), frame(4, 3)))
    assert [tl.frame_entities(f).extra["event"].tolist() for f in range(4)] == [[1], [0], [0], [0]]
    assert [tl.frame_entities(f).extra["old_origin"][0].tolist() for f in range(4)] == [[9, 9, 9]] + [[8, 0, 0]] * 3
    assert len(tl._cols["number"]) == 2 and len(tl.entity_column("number")) == 4


def test_entity_numbers_out_of_order_stop_decoding_at_that_frame() -> None:
    f2 = frame(2, 1, ents=(M.entity(9, model=2), M.entity(5, model=2)))
    with pytest.warns(UserWarning, match="entity numbers in increasing order"):
        tl = decode(dm2(signon(), frame(1, -1, ents=(M.entity(7, model=2),)), f2))
    assert tl.num_frames == 1 and tl.frame_entities(0).number.tolist() == [7]
