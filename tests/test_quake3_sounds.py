"""Quake III sound: the cgame's sound rules on the corpus demos (counted per kind against the entity events they
come from), the sample names against OpenArena's sounds (``oa_sounds.pk3``), Quake III's falloff and the default
model's sounds in the mixer, and an export whose audio is loud where the followed player fires."""

from __future__ import annotations

import collections
import copy
import warnings
import zipfile
from pathlib import Path

import av
import numpy as np
import pytest

from assets_loader.demos import load_demo
from assets_loader.demos.events import LocalSoundEvent, SoundEvent
from assets_loader.demos.quake3 import game as g
from assets_loader.demos.quake3.sound_events import FLASH_SOUNDS, SoundRules, local_sounds, player_model
from assets_loader.vfs import VirtualFS
from tests.builders.wav import build_wav
from tests.conftest import DATA, QUAKE3
from viewer.audio import OUTPUT_RATE, Listener, Mixer, SoundBank
from viewer.audio.listener import spatialize
from viewer.audio.sounds import player_sound_fallback
from viewer.cli import main

R = OUTPUT_RATE
DEMOS = sorted((QUAKE3 / "demos").glob("*.dm_*"))
FOLLOW = QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"
PUBLIC = sorted((DATA / "public" / "quake3").glob("*.dm_*"))
#: Samples OpenArena's cgame registers that its data (and so oa_sounds.pk3) does not ship: the engine plays nothing.
NOT_SHIPPED = {"weapons/nailgun/wnalimpd.wav", "world/telein.wav", "world/teleout.wav", "world/jumppad.wav"}
FLASHES = {name for names in FLASH_SOUNDS.values() for name in names}


@pytest.fixture(scope="module", params=DEMOS, ids=lambda p: p.name)
def demo(request):
    return load_demo(str(request.param))


@pytest.fixture(scope="module")
def pk3_sounds() -> set[str]:
    with zipfile.ZipFile(QUAKE3 / "oa_sounds.pk3") as z:
        return {n[len("sound/"):].lower() for n in z.namelist() if n.startswith("sound/")}


def sounds(timeline, part: str = "") -> list[SoundEvent]:
    return [e for e in timeline.events_of_kind("sound") if part in e.sound]


def models_by_slot(timeline) -> dict[int, str]:
    """Each client's model directory as its CS_PLAYERS string says (the corpus demos never change one)."""
    out = {}
    for change in timeline.scoreboard_changes:
        model = dict(change.userinfo).get("model", "")
        if model:
            out[change.slot] = model.split("/")[0].lower()
    return out


def test_every_weapon_fire_plays_one_flash_sound_of_its_entity(demo) -> None:
    fired = collections.Counter((e.frame, e.entity) for e in demo.events_of_kind("muzzleflash"))
    flashes = [e for e in demo.events_of_kind("sound") if e.channel == 2]
    assert {e.sound for e in flashes} <= FLASHES
    played = collections.Counter((e.frame, e.entity) for e in flashes)
    assert played - fired == collections.Counter()             # no weapon sound without its EV_FIRE_WEAPON
    # what fired silently is the lightning gun held down: its sound plays on the press only (pe.lightningFiring)
    last_sound: dict[int, tuple[float, str]] = {}
    last_fire: dict[int, float] = {}
    by_frame = collections.defaultdict(list)
    for e in flashes:
        by_frame[(e.frame, e.entity)].append(e)
    held = 0
    unused = played.copy()
    for e in demo.events_of_kind("muzzleflash"):
        key = (e.frame, e.entity)
        if unused[key]:
            unused[key] -= 1
            last_sound[e.entity] = (e.time, by_frame[key][0].sound)
        else:
            assert last_sound[e.entity][1] == "weapons/lightning/lg_fire.wav", (e.time, e.entity)
            assert e.time - last_fire[e.entity] <= 0.2
            held += 1
        last_fire[e.entity] = e.time
    assert sum(played.values()) >= 100 and sum(played.values()) + held == sum(fired.values())


def test_deaths_gibs_explosions_and_teleports_sound_once_each(demo) -> None:
    temps = demo.events_of_kind("temp_entity")
    kinds = collections.Counter(e.name for e in temps)
    assert len(sounds(demo, "/death")) == kinds["death"] > 0
    assert len(sounds(demo, "player/gibsplt1.wav")) == kinds["gib"] > 0
    assert len(sounds(demo, "world/telein.wav")) == kinds["teleport"] > 0
    blasts = sum(1 for e in temps if e.name in ("missile_miss", "missile_hit") and e.extra[:1] in ((4.0,), (5.0,)))
    assert len(sounds(demo, "weapons/rocket/rocklx1a.wav")) == blasts > 0
    ricochets = sum(1 for e in temps if e.name == "gunshot")
    assert len(sounds(demo, "weapons/machinegun/ric")) == ricochets > 0


def test_death_and_pain_sounds_are_the_players_models(demo) -> None:
    models = models_by_slot(demo)
    voices = [e for e in demo.events_of_kind("sound") if "/pain" in e.sound or "/death" in e.sound]
    assert voices
    for e in voices:
        assert e.channel == 3 and e.sound.split("/")[1] == models[e.entity], (e.time, e.entity, e.sound)
    deaths = {(e.frame, e.entity) for e in demo.events_of_kind("temp_entity") if e.name == "death"}
    assert {(e.frame, e.entity) for e in voices if "/death" in e.sound} == deaths


def test_pain_events_sound_unless_on_the_view_or_within_half_a_second(demo) -> None:
    """``CG_PainEvent`` on other players; the followed player's pain comes from its health (``CG_CheckLocalSounds``)."""
    pains = sounds(demo, "/pain")
    view = demo.view_entity
    others = [e for e in demo.events_of_kind("temp_entity") if e.name == "pain" and e.entity != view[e.frame]]
    by_entity = collections.defaultdict(list)
    for e in pains:
        by_entity[e.entity].append(e.time)
    for e in others:
        times = np.asarray(by_entity[e.entity])
        assert ((times <= e.time + 1e-9) & (times > e.time - 0.5)).any(), (e.time, e.entity)
    health = demo.stats["health"]
    same_view = np.r_[False, view[1:] == view[:-1]]
    drops = np.flatnonzero(same_view & (health > 0) & (np.r_[health[:1], health[:-1]] - 1 > health))
    from_events = {(e.frame, e.entity) for e in others}
    for e in pains:
        assert (e.frame, e.entity) in from_events or (e.frame in drops and e.entity == view[e.frame]), e
    assert len(pains) >= 20


def test_pickups_play_the_items_sound(demo) -> None:
    expected = {"weapon_": "misc/w_pkup.wav", "ammo_": "misc/am_pkup.wav", "item_armor_shard": "misc/ar1_pkup.wav",
                "item_health_large": "items/l_health.wav", "item_health": "items/n_health.wav"}
    at = collections.defaultdict(set)
    for e in demo.events_of_kind("sound"):
        at[(e.frame, e.entity)].add(e.sound)
    checked = 0
    for p in demo.events_of_kind("pickup"):
        want = next((s for prefix, s in expected.items() if p.item.startswith(prefix)), None)
        if want is not None:
            assert want in at[(p.frame, p.player)], (p.time, p.item)
            checked += 1
    assert checked >= 30


def test_awards_and_hits_are_the_announcers_local_sounds(demo) -> None:
    local = collections.Counter(e.sound for e in demo.events_of_kind("localsound"))
    awards = collections.Counter(e.name for e in demo.events_of_kind("achievement"))
    assert local["feedback/excellent.wav"] == awards["excellent"]
    assert local["feedback/impressive.wav"] == awards["impressive"]
    hits = demo.stats["hits"]
    view = demo.view_entity
    rises = int(((hits[1:] > hits[:-1]) & (view[1:] == view[:-1])).sum())
    assert local["feedback/hit.wav"] == rises


def test_the_common_samples_are_in_oa_sounds_pk3(demo, pk3_sounds) -> None:
    names = collections.Counter(e.sound.lower() for e in demo.events if isinstance(e, (SoundEvent, LocalSoundEvent)))
    missing = {n for n in names if n not in pk3_sounds}
    assert missing <= NOT_SHIPPED
    assert sum(names[n] for n in missing) < 0.1 * sum(names.values())
    common = [n for n, count in names.items() if count >= 5]
    assert len(common) >= 15 and all(n in pk3_sounds for n in common if n not in NOT_SHIPPED)


def test_player_models_and_their_fallback() -> None:
    assert player_model("\\n\\Sarge\\model\\sarge/default\\hmodel\\sarge") == "sarge"
    assert player_model("n\\Grunt\\model\\SMarine") == "smarine"
    assert player_model("n\\nobody") == "sarge"
    assert player_sound_fallback("player/razor/pain25_1.wav", "sarge") == "player/sarge/pain25_1.wav"
    assert player_sound_fallback("player/sarge/pain25_1.wav", "sarge") is None
    assert player_sound_fallback("player/footsteps/step1.wav", "sarge") is None
    assert player_sound_fallback("player/gibsplt1.wav", "sarge") is None
    assert player_sound_fallback("player/razor/pain25_1.wav", "") is None
    wav = build_wav(np.full(480, 1000, np.int16), rate=R, bits=16)
    bank = SoundBank({"sound/player/sarge/pain25_1.wav": wav})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        razor = bank.get("player/razor/pain25_1.wav", "player/sarge/pain25_1.wav")
    assert razor is not None and np.array_equal(razor.samples, bank.get("player/sarge/pain25_1.wav").samples)
    with pytest.warns(UserWarning, match="player/sarge/death1.wav"):
        assert bank.get("player/razor/death1.wav", "player/sarge/death1.wav") is None


def test_quake3_falloff() -> None:
    """``S_SpatializeOrigin``: full volume within 80 units, 0.0008 per unit beyond, each side half of (1 ± dot)."""
    ear, right = np.zeros(3), np.array([0.0, -1.0, 0.0])
    origins = np.array([[50.0, 0, 0], [80.0 + 625.0, 0, 0], [1400.0, 0, 0], [0, -300.0, 0]])
    left, rvol = spatialize(origins, ear, right, np.full(4, 127.0), np.full(4, 0.0008), np.zeros(4, bool),
                            full_distance=80.0, separation=0.5)
    assert left.tolist() == [63.0, 31.0, 0.0, 0.0]
    assert rvol.tolist() == [63.0, 31.0, 0.0, 104.0]      # 127 · (1 − 220 · 0.0008) = 104.6, on the right only


class _Out:
    """A collector for :class:`SoundRules` on a real demo."""

    def __init__(self, timeline) -> None:
        self.events: list = []
        self.times = timeline.times

    def add(self, cls, frame, *fields) -> None:
        self.events.append(cls(float(self.times[frame]), frame, 0, *fields))


def test_rules_by_event_on_a_real_gamestate() -> None:
    from assets_loader.demos.quake3.parse import parse_demo
    demo = parse_demo(FOLLOW.read_bytes(), FOLLOW.name)
    timeline = load_demo(str(FOLLOW))
    out = _Out(timeline)
    rules = SoundRules(demo, out.add, timeline.times, lambda frame: (0, 0, 0))
    origin = (10.0, 20.0, 30.0)
    rules.entity_event(5, 23, 1, 0, origin, 5)                      # Grunt fires a rocket
    rules.entity_event(5, 23, 2, 0, origin, 5, powerups=2)          # Major with the quad
    rules.entity_event(6, 56, 3, 20, origin, 0)                     # Angelyss in pain at 20 health
    rules.entity_event(7, 56, 3, 90, origin, 0)                     # again within half a second: silent
    rules.entity_event(8, 56, 0, 20, origin, 0)                     # the view's own EV_PAIN: silent
    rules.entity_event(9, 57 + 2, 1, 0, origin, 0)                  # EV_DEATH3
    rules.entity_event(10, 19, 2, g.ITEMS.index("item_health_mega"), origin, 0)
    rules.entity_event(11, 13, 1, 0, origin, 0)                     # a jump pad
    got = [(e.entity, e.channel, e.sound) for e in out.events]
    assert got == [(1, 2, "weapons/rocket/rocklf1a.wav"), (2, 4, "items/damage3.wav"),
                   (2, 2, "weapons/rocket/rocklf1a.wav"), (3, 3, "player/angelyss/pain25_1.wav"),
                   (1, 3, "player/smarine/death3.wav"), (2, 0, "items/m_health.wav"),
                   (g.ENTITYNUM_WORLD, 3, "world/jumppad.wav"), (1, 3, "player/smarine/jump1.wav")]
    assert all(e.volume == pytest.approx(127 / 255) and e.attenuation == pytest.approx(0.8) for e in out.events)
    out.events.clear()
    for gts in (0, 4, 10):            # red captured, red took the blue flag, red leads: heard by a free player
        rules.entity_event(12, 47, 200, gts, origin, 0)
    assert [e.sound for e in out.events] == ["teamplay/flagcapture_opponent.wav", "feedback/redleads.wav"]
    out.events.clear()
    local_sounds(demo, rules)
    local = collections.Counter(e.sound for e in out.events if e.kind == "localsound")
    assert local["feedback/hit.wav"] >= 10 and local["feedback/takenlead.wav"] >= 1
    assert any(e.kind == "sound" and "/pain" in e.sound for e in out.events)     # the followed player's health


@pytest.mark.parametrize("path", PUBLIC, ids=lambda p: p.name)
def test_public_demos_play_with_default_model_sounds(path: Path) -> None:
    timeline = load_demo(str(path))
    voices = {e.sound for e in sounds(timeline, "player/") if e.sound.count("/") == 2}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mixer = Mixer(timeline, SoundBank(VirtualFS(QUAKE3)), None)
    skipped = {str(w.message).split(" ")[1] for w in caught}
    assert not {n for n in skipped if n.startswith("player/")}   # the map's own sounds (world/…) may be missing
    for name, snd in zip(mixer.track.names, mixer.sounds):
        if name in voices and "footsteps" not in name:
            assert snd is not None, name              # razor, anarki, doom…: sarge's sounds


def test_an_export_is_loud_where_the_followed_player_fires(tmp_path: Path) -> None:
    out = tmp_path / "q3.mkv"
    assert main(["render", str(FOLLOW), "--out", str(out), "--size", "64x36", "--fps", "10", "--from", "0",
                 "--to", "4", "--no-hud", "--basedir", str(QUAKE3)]) == 0
    with av.open(str(out)) as container:
        stream = container.streams.audio[0]
        assert stream.codec_context.name == "opus"
        audio = np.concatenate([f.to_ndarray() for f in container.decode(stream)], axis=1).T
    assert abs(len(audio) / R - 4.0) < 0.1
    timeline = load_demo(str(FOLLOW))
    t0 = timeline.start_time
    fires = [e.time - t0 for e in timeline.events_of_kind("sound")
             if e.channel == 2 and e.entity == timeline.view_entity[e.frame] and e.time - t0 < 3.9]
    assert len(fires) >= 3
    windows = np.array([np.sqrt((audio[a:a + R // 20] ** 2).mean()) for a in range(0, len(audio) - R // 20,
                                                                                    R // 20)])
    for t in fires:
        a = round(t * R)
        rms = np.sqrt((audio[a:a + R // 20] ** 2).mean())
        assert rms > 1000 / 32768 and rms > 1.2 * np.median(windows), (t, rms * 32768, np.median(windows) * 32768)


def test_warmup_countdown_and_fight_on_a_public_demo() -> None:
    """``CG_ParseWarmup`` / ``CG_DrawWarmup`` / ``CG_MapRestart``: "prepare" when a warm-up end is set, "three",
    "two", "one" a second apart before it, "fight" at each ``map_restart`` into the match."""
    timeline = load_demo(str(DATA / "public" / "quake3" / "edawn_1_map_2_matches.dm_68"))
    calls = [(e.time, e.sound.split("/")[-1][:-4]) for e in timeline.events_of_kind("localsound")
             if e.sound.split("/")[-1][:-4] in ("prepare", "three", "two", "one", "fight")]
    words = [w for _t, w in calls]
    assert words.count("prepare") == 2 and words.count("fight") == 3
    for k in range(len(calls) - 2):
        if [w for _t, w in calls[k:k + 3]] == ["three", "two", "one"]:
            gaps = np.diff([t for t, _w in calls[k:k + 3]])
            assert np.all(np.abs(gaps - 1.0) < 0.1)
            assert calls[k + 3][1] == "fight" and calls[k + 3][0] - calls[k + 2][0] < 2.0
    assert words.count("three") == words.count("two") == words.count("one") == 2


def _as_quake3(timeline):
    """The same demo mixed by Quake III's rules (its schema's ``sound_*``)."""
    from assets_loader.demos.schema import QUAKE3 as Q3_SCHEMA
    q3 = copy.copy(timeline)
    q3.schema = Q3_SCHEMA
    return q3


def test_the_mixer_places_and_overlaps_sounds_like_quake3() -> None:
    from tests.test_audio_mixer import EAR, LEVEL, MINUS, PLUS, bank, demo, sound
    # ahead of the ear, 400 units away: S_SpatializeOrigin's 127 · (1 − 320 · a/1000) · 0.5 on each side
    far = demo({1.0: [sound(origin=(400, 0, 0), volume=127, attenuation=0.8)]})
    attenuation = far.events_of_kind("sound")[0].attenuation
    side = int(127 * (1 - 320 * attenuation / 1000) * 0.5)
    out = Mixer(_as_quake3(far), bank()).mix(1.0, 2.0, EAR)
    want = int(np.float32(LEVEL * side) * np.float32(0.7 / 256.0) * np.float32(0.5))
    assert tuple(out[R // 2]) == (want, want)
    quake = Mixer(far, bank()).mix(1.0, 2.0, EAR)
    assert quake[R // 2, 0] != out[R // 2, 0]
    # a second sound on the same entity channel: Quake cuts the first, Quake III plays both (they cancel here)
    two = demo({1.0: [sound(snd=PLUS)], 1.5: [sound(snd=MINUS)]})
    assert Mixer(two, bank()).mix(1.0, 2.0, EAR)[int(0.75 * R), 0] < 0
    assert Mixer(_as_quake3(two), bank()).mix(1.0, 2.0, EAR)[int(0.75 * R), 0] == 0
    # the same sound twice in one frame: Quake offsets the second, Quake III drops it (S_StartSound's 50 ms)
    twice = demo({1.0: [sound(channel=0), sound(channel=0)]})
    q3 = Mixer(_as_quake3(twice), bank()).mix(1.0, 2.0, EAR)
    once = Mixer(_as_quake3(demo({1.0: [sound(channel=0)]})), bank()).mix(1.0, 2.0, EAR)
    np.testing.assert_array_equal(q3, once)
    assert not np.array_equal(Mixer(twice, bank()).mix(1.0, 2.0, EAR), Mixer(demo({1.0: [sound(channel=0)]}),
                                                                              bank()).mix(1.0, 2.0, EAR))


def test_lightning_wall_hits_sound_as_each_cgame_plays_them() -> None:
    """A lightning hit on a wall plays one of its three hit sounds; a wall hit that carries no weapon (OpenArena's
    lightning gun sends none) falls through ``CG_MissileHitWall``'s switch: to the nailgun's impact in OpenArena's
    cgame (a file OpenArena does not ship: silent there too), to the lightning hits in baseq3's."""
    import dataclasses

    from assets_loader.demos.quake3.parse import parse_demo
    from assets_loader.demos.quake3.records import CS_SERVERINFO
    cpma = load_demo(str(DATA / "public" / "quake3" / "cpma_duel.dm_68"))
    hits = sum(1 for e in cpma.events_of_kind("temp_entity") if e.name == "missile_miss" and e.extra[:1] == (6.0,))
    assert hits > 100 and len(sounds(cpma, "weapons/lightning/lg_hit")) == hits
    oa = load_demo(str(FOLLOW))
    blind = sum(1 for e in oa.events_of_kind("temp_entity") if e.name == "missile_miss" and e.extra[:1] == (0.0,))
    assert blind > 10 and len(sounds(oa, "weapons/nailgun/wnalimpd.wav")) == blind
    demo = parse_demo(FOLLOW.read_bytes(), FOLLOW.name)
    gs = demo.gamestates[0]
    strings = dict(gs.configstrings)
    strings[CS_SERVERINFO] = strings[CS_SERVERINFO].replace("baseoa", "baseq3")
    baseq3 = dataclasses.replace(demo, gamestates=(dataclasses.replace(gs, configstrings=strings),))
    out = _Out(oa)
    for d in (demo, baseq3):
        SoundRules(d, out.add, oa.times, lambda frame: None).entity_event(3, 51, 200, 0, (0.0, 0.0, 0.0), 0)
    assert [e.sound.split("/")[1] for e in out.events] == ["nailgun", "lightning"]


def test_missiles_and_weapon_hums_loop_while_their_entity_is_there(demo) -> None:
    """``S_AddLoopingSound``: one loop per run of snapshots holding the entity, stopped at the first without it."""
    loops = [e for e in demo.events_of_kind("sound") if e.loop]
    stops = {(e.frame, e.entity, e.channel) for e in demo.events_of_kind("stopsound")}
    assert {e.channel for e in loops} <= {8, 9}
    names = collections.Counter(e.sound for e in loops)
    assert names["weapons/rocket/rockfly.wav"] > 0 and names["weapons/melee/fsthum.wav"] > 0

    def flying(frame: int, entity: int) -> bool:
        states = demo.frame_entities(frame)
        i = states.index_of(entity)
        return i is not None and int(states.extra["eType"][i]) == 3 and int(states.extra["weapon"][i]) == 5

    rockets = [e for e in loops if e.sound == "weapons/rocket/rockfly.wav"]
    for e in rockets:
        assert flying(e.frame, e.entity) and not (e.frame > 0 and flying(e.frame - 1, e.entity))
        f = e.frame
        while f + 1 < len(demo.times) and flying(f + 1, e.entity):
            f += 1
        assert f + 1 == len(demo.times) or (f + 1, e.entity, e.channel) in stops


def test_a_loop_repeats_until_its_stop() -> None:
    timeline = load_demo(str(FOLLOW))
    flights = [(e.time, e.entity) for e in timeline.events_of_kind("sound") if e.loop and "rockfly" in e.sound]
    stops = [(e.time, e.entity) for e in timeline.events_of_kind("stopsound") if e.channel == 9]
    spans = [(t, min(s for s, other in stops if other == entity and s > t), entity) for t, entity in flights]
    t0, t1, entity = max(spans, key=lambda s: s[1] - s[0])
    assert t1 - t0 > 0.3
    wav = build_wav(np.full(R // 10, 4000, np.int16), rate=R, bits=16)          # 0.1 s, shorter than the flight
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                                            # every other sound is missing
        mixer = Mixer(timeline, SoundBank({"sound/weapons/rocket/rockfly.wav": wav}), None)
    ear = Listener((1e6, 1e6, 1e6), (0.0, -1.0, 0.0), entity)      # the rocket's own ears, far from every other
    out = mixer.mix(t0, t1 + 0.2, ear).astype(np.int32)
    n = round((t1 - t0) * R)
    assert np.all(out[: n - 1] != 0) and not out[n + 1:].any()


def test_local_sounds_play_at_quake3s_master_volume() -> None:
    """``S_StartLocalSound`` starts a channel at ``master_vol`` 127 like any other: the announcer is no louder than
    the player's own gun."""
    from viewer.audio import sound_track
    from viewer.audio.track import LOCAL_ENTITY
    commands = sound_track(load_demo(str(FOLLOW))).commands
    local = commands[commands["entity"] == LOCAL_ENTITY]
    assert len(local) >= 20 and np.allclose(local["volume"], 127 / 255)
    assert np.allclose(commands["volume"][commands["sound"] >= 0], 127 / 255)       # stops have none


def test_the_windows_stream_plays_the_quake3_mix_from_the_view() -> None:
    """The window's pyglet stream renders the same Quake III mix, heard at the followed player's eye, with its own
    gun at full volume."""
    import pyglet
    pyglet.options["headless"] = True
    from viewer.audio.output import MixerStream

    timeline = load_demo(str(FOLLOW))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                    # the few samples OpenArena does not ship
        mixer = Mixer(timeline, SoundBank(VirtualFS(QUAKE3)), None)
    shot = next(e for e in timeline.events_of_kind("sound") if e.channel == 2
                and e.entity == timeline.view_entity[e.frame])
    f = shot.frame
    ear = Listener.from_angles(tuple(timeline.view_origin[f]), tuple(timeline.view_angles[f]),
                               int(timeline.view_entity[f]))
    stream = MixerStream(mixer)
    stream.set_anchor(shot.time, 1.0, True)
    stream.set_listener(ear)
    stream.seek(0.0)
    data = stream.get_audio_data(R // 10 * 4)
    got = np.frombuffer(data.data, np.int16).reshape(-1, 2)
    np.testing.assert_array_equal(got, mixer.mix(shot.time, shot.time + len(got) / R, ear))
    assert np.sqrt((got.astype(np.float64) ** 2).mean()) > 1000
