"""One test per NetQuake message type (and the 666/999 extensions), from synthetic demos written by builders."""

from __future__ import annotations

import gzip
import warnings

import numpy as np
import pytest

from assets_loader.demos import DemoTimeline, load_demo
from assets_loader.demos.quake import protocol as P
from assets_loader.demos.events import parse_obituary
from assets_loader.errors import BadMagicError, FormatError
from tests.builders.dem import DemWriter

MODELS = ["progs/player.mdl", "progs/armor.mdl"]
SOUNDS = ["weapons/r_exp3.wav", "items/armor1.wav"]


def make(*game_messages: bytes, protocol: int = 15, flags: int = 0, signon: tuple[bytes, ...] = (),
         maxclients: int = 4) -> DemoTimeline:
    w = DemWriter(protocol, flags)
    w.block(w.serverinfo("maps/e1m1.bsp", MODELS, SOUNDS, maxclients=maxclients), w.setview(1), *signon)
    w.block(w.time(1.0), w.update(1, model=2, origin=(0, 0, 0)), *game_messages)
    w.block(w.time(1.1), w.update(1, model=2, origin=(1, 0, 0)))
    return load_demo(w.build())


def only(tl, kind):
    evs = [e for e in tl.events if e.kind == kind]
    assert len(evs) == 1, evs
    return evs[0]


def test_cd_track_and_blocks():
    w = DemWriter(cd_track=3)
    w.block(w.serverinfo(), w.setview(1))
    w.block(w.time(5.0), angles=(10, 20, 0))
    tl = load_demo(w.build())
    assert tl.cd_track == 3 and tl.block_count == 2 and tl.num_frames == 1
    assert tl.view_angles[0].tolist() == [10, 20, 0]


def test_bad_cd_track():
    with pytest.raises(BadMagicError):
        load_demo(b"hello world, not a demo at all")


def test_nop_and_signonnum():
    tl = make(DemWriter().nop(), DemWriter().signonnum(3))
    assert tl.num_frames == 2


def test_disconnect_ends_demo():
    w = DemWriter()
    w.block(w.serverinfo(), w.setview(1))
    w.block(w.time(1.0), w.disconnect())
    w.block(w.time(2.0))
    tl = load_demo(w.build())
    assert tl.num_frames == 1 and tl.events[-1].kind == "disconnect"


def test_updatestat_killedmonster_foundsecret():
    w = DemWriter()
    tl = make(w.updatestat(P.STAT_TOTALMONSTERS, 7), w.killedmonster(), w.foundsecret())
    assert tl.stats["totalmonsters"][0] == 7
    assert tl.stats["monsters"][0] == 1 and tl.stats["secrets"][0] == 1
    assert only(tl, "killedmonster").count == 1 and only(tl, "foundsecret").count == 1


def test_version_and_setview():
    w = DemWriter()
    tl = make(w.version(15), w.setview(2))
    assert tl.view_entity.tolist() == [2, 2]
    assert [e.entity for e in tl.events if e.kind == "setview"] == [1, 2]


def test_sound():
    w = DemWriter()
    tl = make(w.sound(3, 1, 1, (8, -16, 32), volume=128, attenuation=2.0))
    e = only(tl, "sound")
    assert (e.entity, e.channel, e.sound_index, e.sound) == (3, 1, 1, "weapons/r_exp3.wav")
    assert e.volume == pytest.approx(128 / 255) and e.attenuation == 2.0 and e.origin == (8, -16, 32)
    e2 = only(make(w.sound(3, 2, 2, (0, 0, 0))), "sound")
    assert e2.volume == 1.0 and e2.attenuation == 1.0


def test_sound_large_fitzquake():
    w = DemWriter(666)
    e = only(make(w.sound(700, 5, 2, (1, 2, 3), large=True), protocol=666), "sound")
    assert (e.entity, e.channel, e.sound) == (700, 5, "items/armor1.wav")


def test_time_frames():
    tl = make()
    assert tl.times.tolist() == pytest.approx([1.0, 1.1])
    assert tl.duration == pytest.approx(0.1)


def test_print_centerprint_stufftext():
    w = DemWriter()
    tl = make(w.print("You got armor\n"), w.centerprint("Hello"), w.stufftext("bf\n"))
    assert only(tl, "print").text == "You got armor\n"
    assert only(tl, "centerprint").text == "Hello"
    assert only(tl, "stufftext").text == "bf\n"


def test_setangle():
    w = DemWriter()
    e = only(make(w.setangle((0, 90, 0))), "setangle")
    assert e.angles == (0, 90, 0)


def test_serverinfo_segment():
    tl = make()
    seg = tl.segments[0]
    assert (seg.map_name, seg.level_name, seg.maxclients, seg.protocol) == ("e1m1", "Test Level", 4, 15)
    assert seg.model_precache == ("", "maps/e1m1.bsp", *MODELS)
    assert seg.sound_precache == ("", *SOUNDS)


def test_two_segments_monotonic_time():
    w = DemWriter()
    w.block(w.serverinfo("maps/a.bsp"), w.setview(1))
    w.block(w.time(10.0))
    w.block(w.time(11.0))
    w.block(w.serverinfo("maps/b.bsp"), w.setview(1))
    w.block(w.time(0.5))
    w.block(w.time(1.5))
    tl = load_demo(w.build())
    assert tl.maps == ("a", "b")
    assert np.all(np.diff(tl.times) >= 0)
    assert tl.times.tolist() == pytest.approx([10, 11, 11, 12])
    assert tl.frame_segment.tolist() == [0, 0, 1, 1]


def test_lightstyle():
    w = DemWriter()
    tl = make(w.lightstyle(1, "az"), signon=(w.lightstyle(0, "m"),))
    assert tl.lightstyles[0][0][1] == "m" and tl.lightstyles[1][0][1] == "az"
    assert tl.sample(1.05).lightstyles[:2] == ("m", "az")


def test_scoreboard_messages():
    w = DemWriter()
    tl = make(w.updatename(1, "Bob"), w.updatefrags(1, 3), w.updatecolors(1, 0x4D))
    bob = tl.final_scoreboard()[1]
    assert (bob.name, bob.frags, bob.top, bob.bottom) == ("Bob", 3, 4, 13)
    assert len(tl.scoreboard_changes) == 3


def test_scoreboard_slot_out_of_range_is_corrupt():
    w = DemWriter()
    w.block(w.serverinfo(maxclients=1), w.setview(1), w.updatename(5, "x"))
    with pytest.raises(FormatError, match="updatename"):
        load_demo(w.build())


def test_clientdata():
    w = DemWriter()
    tl = make(w.clientdata(health=77, armor=150, weapon=3, weaponframe=2, ammo=25, shells=25, nails=40,
                           rockets=5, cells=9, activeweapon=32, items=0x1021, viewheight=-8, punch=(-2, 0, 0),
                           onground=True))
    s = {k: int(v[0]) for k, v in tl.stats.items()}
    assert (s["health"], s["armor"], s["weaponmodel"], s["weaponframe"], s["ammo"]) == (77, 150, 3, 2, 25)
    assert (s["shells"], s["nails"], s["rockets"], s["cells"], s["activeweapon"]) == (25, 40, 5, 9, 32)
    assert (s["items"], s["viewheight"], s["punch_pitch"], s["onground"]) == (0x1021, -8, -2, 1)
    assert tl.view_origin[0].tolist() == [0, 0, -8]
    assert tl.view_origin[1].tolist() == [1, 0, -8]      # kept until the next clientdata


def test_clientdata_fitzquake_high_bytes():
    w = DemWriter(666)
    tl = make(w.clientdata(health=300, armor=300, shells=400, weaponframe=260, weaponalpha=128), protocol=666)
    assert tl.stats["armor"][0] == 300 and tl.stats["shells"][0] == 400 and tl.stats["weaponframe"][0] == 260
    assert tl.stats["weaponalpha"][0] == 128


def test_stopsound_particle_damage():
    w = DemWriter()
    tl = make(w.stopsound(5, 2), w.particle((1, 2, 3), (1, -1, 0.5), 255, 73), w.damage(3, 10, (4, 5, 6)))
    assert (only(tl, "stopsound").entity, only(tl, "stopsound").channel) == (5, 2)
    p = only(tl, "particle")
    assert p.origin == (1, 2, 3) and p.direction == (1, -1, 0.5) and p.count == 1024 and p.color == 73
    d = only(tl, "damage")
    assert (d.armor, d.blood, d.origin) == (3, 10, (4, 5, 6))


def test_spawnstatic_and_baseline():
    w = DemWriter()
    tl = make(signon=(w.spawnstatic(3, frame=1, origin=(64, 32, 16), angles=(0, 90, 0)),
                      w.spawnbaseline(7, 3, frame=2, skin=1, origin=(8, 8, 8))))
    st = tl.segments[0].statics
    assert len(st) == 1 and st.model[0] == 3 and st.origin[0].tolist() == [64, 32, 16] and st.angles[0, 1] == 90
    bl = tl.segments[0].baselines
    i = bl.index_of(7)
    assert bl.model[i] == 3 and bl.frame[i] == 2 and bl.skin[i] == 1
    assert len(tl.sample(1.05).statics) == 1


def test_update_uses_baseline_fields():
    w = DemWriter()
    w.block(w.serverinfo("maps/e1m1.bsp", MODELS), w.setview(1),
            w.spawnbaseline(9, 2, frame=4, colormap=1, skin=1, origin=(100, 200, 300), angles=(0, 45, 0)))
    w.block(w.time(1.0), w.update(9, frame=5, effects=8))
    ents = load_demo(w.build()).frame_entities(0)
    assert ents.number.tolist() == [9] and ents.model[0] == 2 and ents.frame[0] == 5 and ents.colormap[0] == 1
    assert ents.effects[0] == 8 and ents.origin[0].tolist() == [100, 200, 300] and ents.angles[0, 1] == 45


def test_update_all_bits_long_entity():
    w = DemWriter()
    w.block(w.serverinfo(), w.setview(1))
    w.block(w.time(1.0), w.update(300, model=2, frame=3, colormap=1, skin=2, effects=4, origin=(1.5, -2.5, 3),
                                  angles=(45, 90, 180), step=True))
    e = load_demo(w.build()).frame_entities(0)
    assert e.number[0] == 300 and (e.model[0], e.frame[0], e.colormap[0], e.skin[0], e.effects[0]) == (2, 3, 1, 2, 4)
    assert e.origin[0].tolist() == [1.5, -2.5, 3] and e.angles[0].tolist() == [45, 90, -180]


@pytest.mark.parametrize("te", sorted(P.TE_SHAPES))
def test_temp_entity_kinds(te):
    w = DemWriter()
    e = only(make(w.temp_entity(te, (1, 2, 3), end=(4, 5, 6), entity=7, color_start=10, color_length=5)),
             "temp_entity")
    assert e.name == P.TE_NAMES[te] and e.origin == (1, 2, 3)
    if P.TE_SHAPES[te] == "beam":
        assert e.end == (4, 5, 6) and e.entity == 7
    elif P.TE_SHAPES[te] == "explosion2":
        assert (e.color_start, e.color_length) == (10, 5)


def test_bad_temp_entity_is_corrupt():
    w = DemWriter()
    w.block(w.serverinfo(), w.setview(1), bytes([P.svc_temp_entity, 99]))
    with pytest.raises(FormatError, match="temp_entity"):
        load_demo(w.build())


def test_setpause_and_intermission_family():
    w = DemWriter()
    tl = make(w.setpause(True), w.intermission(), w.finale("The end"), w.cutscene("cut"), w.sellscreen(),
              w.cdtrack(2, 3))
    assert only(tl, "pause").paused is True
    assert only(tl, "finale").text == "The end" and only(tl, "cutscene").text == "cut"
    assert only(tl, "intermission") and only(tl, "sellscreen")
    assert (only(tl, "cdtrack").track, only(tl, "cdtrack").loop_track) == (2, 3)
    assert tl.stats["intermission"][0] == 3


def test_spawnstaticsound():
    w = DemWriter()
    tl = make(signon=(w.spawnstaticsound((1, 2, 3), 2, 255, 192),))
    s = tl.segments[0].static_sounds[0]
    assert s.sound == "items/armor1.wav" and s.volume == 1.0 and s.attenuation == 3.0 and s.origin == (1, 2, 3)


@pytest.mark.parametrize("flags", [0, P.PRFL_SHORTANGLE | P.PRFL_INT32COORD, P.PRFL_FLOATCOORD | P.PRFL_FLOATANGLE,
                                   P.PRFL_24BITCOORD])
def test_rmq_coordinate_encodings(flags):
    w = DemWriter(999, flags)
    w.block(w.serverinfo(), w.setview(1), w.spawnbaseline(2, 1, origin=(10.5, -20.25, 30), angles=(0, 90, 0)))
    w.block(w.time(1.0), w.update(2, origin=(1000.5, None, -3000.25), angles=(None, 180 if flags else 90, None)),
            w.temp_entity(P.TE_GUNSHOT, (1.5, 2.5, -3.5)))
    tl = load_demo(w.build())
    e = tl.frame_entities(0)
    assert e.origin[0] == pytest.approx([1000.5, -20.25, -3000.25], abs=0.01)
    assert tl.protocol == 999 and tl.protocol_flags == flags
    assert tl.events_of_kind("temp_entity")[0].origin == pytest.approx((1.5, 2.5, -3.5), abs=0.01)


def test_fitzquake_extensions():
    w = DemWriter(666)
    w.block(w.serverinfo(), w.setview(1),
            w.spawnbaseline(5, 300, frame=400, origin=(0, 0, 0), version=2, alpha=128),
            w.spawnstatic(2, frame=260, version=2, alpha=255), w.spawnstaticsound((0, 0, 0), 1, 100, 64, version=2),
            w.fog(128, 255, 0, 0, 150), w.skybox("sky1"), w.bf())
    w.block(w.time(1.0), w.update(5, frame=513, lerpfinish=51), w.update(6, model=400, alpha=1))
    tl = load_demo(w.build())
    bl = tl.segments[0].baselines
    assert bl.model[0] == 300 and bl.frame[0] == 400 and bl.alpha[0] == pytest.approx(127 / 254)
    st = tl.segments[0].statics
    assert st.frame[0] == 260 and st.alpha[0] == 1.0
    e = tl.frame_entities(0)
    assert e.number.tolist() == [5, 6] and e.frame[0] == 513 and e.model[0] == 300 and e.model[1] == 400
    assert e.alpha[1] == 0.0
    fog = tl.events_of_kind("fog")[0]
    assert fog.density == pytest.approx(128 / 255) and fog.color == (1.0, 0.0, 0.0) and fog.fade_time == 1.5
    assert tl.events_of_kind("skybox")[0].name == "sky1" and tl.events_of_kind("bf")
    assert tl._cols["frame_interval"][0] == pytest.approx(0.2)


def test_unknown_message_is_format_error_with_offset():
    w = DemWriter()
    w.block(w.serverinfo(), bytes([60]))
    with pytest.raises(FormatError) as info:
        load_demo(w.build(), "x.dem")
    assert info.value.path == "x.dem" and info.value.offset is not None and "unknown message 60" in str(info.value)


def test_corrupt_after_frames_returns_partial_with_warning():
    w = DemWriter()
    w.block(w.serverinfo(), w.setview(1))
    w.block(w.time(1.0))
    w.block(w.time(1.1), bytes([60]))
    with pytest.warns(UserWarning, match="unknown message"):
        tl = load_demo(w.build())
    assert tl.num_frames == 1 and tl.warnings


def test_message_overrunning_block_is_corrupt():
    w = DemWriter()
    w.block(w.serverinfo(), w.setview(1))
    w.blocks.append(__import__("struct").pack("<i3f", 2, 0, 0, 0) + bytes([P.svc_time, 0]))
    w.block(w.time(1.0))
    with pytest.raises(FormatError):
        load_demo(w.build())


def test_truncated_demo_warns_and_keeps_frames():
    w = DemWriter()
    w.block(w.serverinfo(), w.setview(1))
    for i in range(5):
        w.block(w.time(1.0 + i / 10), w.update(1, origin=(i, 0, 0)))
    data = w.build()
    with pytest.warns(UserWarning, match="truncated"):
        tl = load_demo(data[:-3])
    assert tl.num_frames == 4 and "truncated" in tl.warnings[0]


def test_gzip_transparent(tmp_path):
    w = DemWriter()
    w.block(w.serverinfo(), w.setview(1))
    w.block(w.time(1.0))
    w.block(w.disconnect())
    p = tmp_path / "x.dem.gz"
    p.write_bytes(gzip.compress(w.build()))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert load_demo(p).num_frames == 1


@pytest.mark.parametrize("text,expected", [
    ("Bob chewed on Alice's boomstick\n", ("Bob", "Alice", "shotgun", False)),
    ("Bob was gibbed by Alice's rocket\n", ("Bob", "Alice", "rocket", False)),
    ("Bob rides Alice's rocket\n", ("Bob", "Alice", "rocket", False)),
    ("Bob becomes bored with life\n", ("Bob", None, "suicide", True)),
    ("Bob was telefragged by Alice\n", ("Bob", "Alice", "telefrag", False)),
    ("Bob was ax-murdered by Alice\n", ("Bob", "Alice", "axe", False)),
    ("Bob accepts Alice's shaft\n", ("Bob", "Alice", "lightning", False)),
    ("Bob sleeps with the fishes\n", ("Bob", None, "water", False)),
    ("player was shot by a Grunt\n", ("player", "Grunt", "monster", False)),
])
def test_obituaries(text, expected):
    o = parse_obituary(text)
    assert (o.victim, o.killer, o.weapon, o.suicide) == expected


def test_obituary_event_and_chat_ignored():
    w = DemWriter()
    tl = make(w.print("Bob eats Alice's pineapple\n"), w.print("\x01Bob: I died\n"))
    o = only(tl, "obituary")
    assert (o.victim, o.killer, o.weapon) == ("Bob", "Alice", "grenade")
    assert parse_obituary("You got the shells\n") is None


def test_baseline_only_update_follows_a_changed_baseline():
    """An update that sends only the entity number is the baseline, even after the baseline is respawned."""
    w = DemWriter()
    w.block(w.serverinfo("maps/t.bsp", ["progs/a.mdl", "progs/b.mdl"]), w.spawnbaseline(2, model=2, origin=(8, 0, 0)))
    w.block(w.time(1.0), w.update(entity=2))
    w.block(w.time(1.1), w.update(entity=2))
    w.block(w.spawnbaseline(2, model=3, origin=(16, 0, 0)), w.time(1.2), w.update(entity=2))
    tl = load_demo(w.build())
    got = [(int(tl.frame_entities(f).model[0]), float(tl.frame_entities(f).origin[0, 0])) for f in range(3)]
    assert got == [(2, 8.0), (2, 8.0), (3, 16.0)]


@pytest.mark.parametrize(("trans", "alpha"), [((2.0, 0.5, 1.0), 0.5), ((1.0, 0.0), 1.0), ((1.0, 1.0), 1.0),
                                              ((1.0, 0.25), 63 / 254)])
def test_nehahra_transparency(trans, alpha):
    """Protocol 15 with U_TRANS: 3 floats when the first is 2, else 2; the second is the opacity (0 = default)."""
    w = DemWriter()
    w.block(w.serverinfo("maps/e1m1.bsp", MODELS), w.setview(1))
    w.block(w.time(1.0), w.update(5, model=2, origin=(8, 0, 0), trans=trans), w.update(6, model=1, frame=3))
    w.block(w.disconnect())
    e = load_demo(w.build()).frame_entities(0)
    assert e.number.tolist() == [5, 6] and e.origin[0].tolist() == [8, 0, 0] and e.frame[1] == 3
    assert e.alpha[0] == pytest.approx(alpha) and e.alpha[1] == 1.0


def test_view_origin_follows_the_view_entity_across_setview_signon_and_levels():
    """The eye is the view entity's last update so far (one sent before the first frame included), plus the view
    height; after svc_setview, the new entity's; a new level starts from the origin until its first update."""
    w = DemWriter()
    w.block(w.serverinfo("maps/e1m1.bsp", MODELS), w.setview(1), w.update(1, model=2, origin=(10, 20, 30)))
    w.block(w.time(1.0), w.update(2, model=2, origin=(40, 0, 0)))
    w.block(w.time(1.1), w.update(1, model=2, origin=(11, 20, 30)))
    w.block(w.time(1.2), w.setview(2))
    w.block(w.time(1.3), w.update(2, model=2, origin=(41, 0, 0)))
    w.block(w.serverinfo("maps/e1m2.bsp", MODELS), w.setview(1))
    w.block(w.time(0.5), w.update(3, model=2, origin=(1, 1, 1)))
    w.block(w.time(0.6), w.update(1, model=2, origin=(7, 7, 7)))
    w.block(w.disconnect())
    tl = load_demo(w.build())
    eyes = tl.view_origin.reshape(-1, 3) if tl.view_origin.ndim == 1 else tl.view_origin
    h = P.DEFAULT_VIEWHEIGHT
    assert eyes.tolist() == [[10, 20, 30 + h], [11, 20, 30 + h], [11, 20, 30 + h], [41, 0, h], [0, 0, h],
                             [7, 7, 7 + h]]
