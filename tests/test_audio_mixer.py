"""The pure mixer on synthetic demos and sounds: attenuation, panning, channel rules, loops, entity following,
ambient fades, purity (one call equals two), and the sound table read from the timeline."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assets_loader.bsp import load_bsp
from assets_loader.demos import load_demo
from tests.builders.bsp import build_bsp
from tests.builders.dem import DemWriter
from tests.builders.wav import build_wav
from viewer.audio import OUTPUT_RATE, Listener, Mixer, SoundBank, mix, sound_track
from viewer.audio.ambient import AMBIENT_LEVEL, fade_history

R = OUTPUT_RATE
LEVEL = 8192    # a multiple of 256: the same in 8 and 16 bits
SOUNDS = ["test/plus.wav", "test/minus.wav", "test/loop.wav", "test/short.wav", "test/missing.wav"]
PLUS, MINUS, LOOP, SHORT, MISSING = range(1, 6)
#: Ramp 0..LOOP_LEN-1 (×10), looping from sample 100.
LOOP_LEN, LOOP_START = 300, 100


def bank(**extra: bytes) -> SoundBank:
    files = {
        "sound/test/plus.wav": build_wav(np.full(R * 2, LEVEL, np.int16), rate=R, bits=16),
        "sound/test/minus.wav": build_wav(np.full(R * 2, -LEVEL, np.int16), rate=R, bits=16),
        "sound/test/loop.wav": build_wav(np.arange(LOOP_LEN, dtype=np.int16) * 10, rate=R, bits=16,
                                         loop_start=LOOP_START),
        "sound/test/short.wav": build_wav(np.full(R // 10, LEVEL, np.int16), rate=R, bits=16),
    }
    files.update(extra)
    return SoundBank(files)


def demo(frames: dict[float, list[bytes]], signon: tuple[bytes, ...] = (), end: float = 4.0,
         entity_path=None):
    """A NetQuake demo with frames at 0.1 s steps from 1.0 to ``end``; ``frames[t]`` adds messages at time t;
    ``entity_path(t)`` (optional) places entity 5 at that time."""
    w = DemWriter(15)
    w.block(w.serverinfo("maps/test.bsp", ["progs/player.mdl"], SOUNDS, maxclients=1), w.setview(1), *signon)
    for step in range(round((end - 1.0) * 10) + 1):
        t = round(1.0 + step / 10, 3)
        msgs = [w.time(t), w.update(1, model=2, origin=(0, 0, 0))]
        if entity_path is not None:
            msgs.append(w.update(5, model=2, origin=entity_path(t)))
        w.block(*msgs, *frames.get(t, []))
    return load_demo(w.build())


W = DemWriter(15)
#: Listener at the origin looking down +x (right is -y), not an entity.
EAR = Listener((0.0, 0.0, 0.0), (0.0, -1.0, 0.0))


def sound(entity=5, channel=1, snd=PLUS, origin=(0, 0, 0), volume=255, attenuation=1.0) -> bytes:
    return W.sound(entity, channel, snd, origin, volume=volume, attenuation=attenuation)


def level(out: np.ndarray, t: float, t0: float = 1.0) -> tuple[int, int]:
    """(left, right) sample at time t of a mix starting at t0."""
    i = round((t - t0) * R)
    return int(out[i, 0]), int(out[i, 1])


def expected(volume: float, master: float = 255) -> int:
    """Output of a LEVEL sample at side volume ``master`` (×0.7 volume, /256, halved)."""
    return int(np.float32(LEVEL * master) * np.float32(volume / 256.0) * np.float32(0.5))


def test_full_volume_up_close_matches_the_engine_scale():
    out = Mixer(demo({1.0: [sound()]}), bank()).mix(1.0, 2.0, EAR)
    assert level(out, 1.5) == (expected(0.7), expected(0.7))
    assert out.dtype == np.int16 and out.shape == (R, 2) and out.flags["C_CONTIGUOUS"]


@pytest.mark.parametrize("distance, master", [(250, 191), (500, 127), (750, 63), (1000, 0), (1500, 0)])
def test_attenuation_halves_at_500_units_and_ends_at_1000(distance, master):
    # Straight ahead: no panning; (1 - d / 1000) * 255 truncated.
    out = Mixer(demo({1.0: [sound(origin=(distance, 0, 0))]}), bank()).mix(1.0, 2.0, EAR)
    assert level(out, 1.5) == (expected(0.7, master),) * 2


def test_attenuation_2_halves_at_250_units_and_0_never_fades():
    out = Mixer(demo({1.0: [sound(origin=(250, 0, 0), attenuation=2.0)]}), bank()).mix(1.0, 2.0, EAR)
    assert level(out, 1.5) == (expected(0.7, 127),) * 2
    out = Mixer(demo({1.0: [sound(origin=(4000, 0, 0), attenuation=0.0)]}), bank()).mix(1.0, 2.0, EAR)
    assert level(out, 1.5) == (expected(0.7),) * 2


def test_panning_flips_when_the_listener_turns_around():
    tl = demo({1.0: [sound(origin=(0, -250, 0))]})           # on the right of a listener looking down +x
    mixer = Mixer(tl, bank())
    ahead = mixer.mix(1.0, 2.0, Listener.from_angles((0, 0, 0), (0, 0, 0)))
    behind = mixer.mix(1.0, 2.0, Listener.from_angles((0, 0, 0), (0, 180, 0)))
    left, right = level(ahead, 1.5)
    # 255 * (1 - 0.25) = 191.25: right gets twice that (not clamped for a 16-bit sound), left nothing.
    assert (left, right) == (0, expected(0.7, 382))
    assert level(behind, 1.5) == (right, left)


def test_view_entity_sounds_are_not_spatialised():
    tl = demo({1.0: [sound(entity=1, origin=(0, -900, 0))]})
    out = Mixer(tl, bank()).mix(1.0, 2.0, Listener((0, 0, 0), (0, -1, 0), entity=1))
    assert level(out, 1.5) == (expected(0.7),) * 2
    # Seen from a free camera the same sound is placed: far to the right.
    left, right = level(Mixer(tl, bank()).mix(1.0, 2.0, EAR), 1.5)
    assert left == 0 and 0 < right < expected(0.7)


def test_same_entity_and_channel_replaces_the_sound():
    tl = demo({1.0: [sound(channel=1, snd=PLUS)], 1.5: [sound(channel=1, snd=MINUS)]})
    out = Mixer(tl, bank()).mix(1.0, 2.5, EAR)
    assert level(out, 1.25)[0] == expected(0.7)
    assert level(out, 2.0)[0] == -expected(0.7)          # PLUS stopped: only MINUS is heard


def test_channel_0_is_never_replaced():
    tl = demo({1.0: [sound(channel=0, snd=PLUS)], 1.5: [sound(channel=0, snd=MINUS)]})
    out = Mixer(tl, bank()).mix(1.0, 2.5, EAR)
    assert level(out, 1.25)[0] == expected(0.7)
    assert level(out, 2.0)[0] == 0                       # both play and cancel


def test_other_channels_and_entities_play_together():
    tl = demo({1.0: [sound(channel=1, snd=PLUS)], 1.5: [sound(channel=2, snd=MINUS), sound(entity=6, snd=MINUS)]})
    out = Mixer(tl, bank()).mix(1.0, 2.5, EAR)
    assert level(out, 2.0)[0] == -expected(0.7)          # +1 -1 -1


def test_stopsound_stops_the_channel():
    tl = demo({1.0: [sound(channel=3)], 1.5: [W.stopsound(5, 3)]})
    out = Mixer(tl, bank()).mix(1.0, 2.5, EAR)
    assert level(out, 1.4)[0] == expected(0.7) and not out[round(0.5 * R):].any()


def test_a_sound_ends_with_its_samples():
    out = Mixer(demo({1.0: [sound(snd=SHORT)]}), bank()).mix(1.0, 2.0, EAR)
    assert out[:R // 10].all() and not out[R // 10:].any()


def test_looped_sound_wraps_to_its_cue_point():
    out = Mixer(demo({1.0: [sound(snd=LOOP)]}), bank(), volume=256 / 0.5 / 256).mix(1.0, 3.0, EAR)
    # volume chosen so that output = sample × 255 / 256 … read the positions back from the ramp instead.
    ramp = out[:, 0].astype(np.float64) / (10 * 255 / 256)
    pos = np.rint(ramp[:2 * LOOP_LEN]).astype(int)
    assert pos[:LOOP_LEN].tolist() == list(range(LOOP_LEN))
    assert pos[LOOP_LEN:2 * LOOP_LEN].tolist() == (list(range(LOOP_START, LOOP_LEN)) * 2)[:LOOP_LEN]
    assert out[-100:, 0].any()                           # still playing 2 s later


def test_static_sound_loops_from_the_level_start():
    tl = demo({}, signon=(W.spawnstaticsound((0, 0, 0), LOOP, 255, 64),))
    mixer = Mixer(tl, bank())
    out = mixer.mix(2.0, 3.0, EAR)
    n = np.arange(round(2.0 * R), round(3.0 * R)) - round(1.0 * R)
    pos = np.where(n < LOOP_LEN, n, LOOP_START + (n - LOOP_LEN) % (LOOP_LEN - LOOP_START))
    want = (np.clip(pos * 10 * 255 * np.float32(0.7 / 256), -32768, 32767) * np.float32(0.5)).astype(np.int16)
    np.testing.assert_array_equal(out[:, 0], want)
    assert not Mixer(tl, bank(), static=False).mix(2.0, 3.0, EAR).any()


def test_static_sound_that_does_not_loop_is_refused():
    tl = demo({}, signon=(W.spawnstaticsound((0, 0, 0), PLUS, 255, 64),))
    with pytest.warns(UserWarning, match="not looped"):
        mixer = Mixer(tl, bank())
    assert not mixer.mix(1.0, 2.0, EAR).any()


def test_static_copies_of_one_sound_add_up():
    one = demo({}, signon=(W.spawnstaticsound((0, 0, 0), LOOP, 100, 64),))
    two = demo({}, signon=(W.spawnstaticsound((0, 0, 0), LOOP, 100, 64),
                           W.spawnstaticsound((0, 0, 0), LOOP, 100, 64)))
    a = Mixer(one, bank()).mix(2.0, 2.1, EAR).astype(np.int32)
    b = Mixer(two, bank()).mix(2.0, 2.1, EAR).astype(np.int32)
    np.testing.assert_allclose(b, 2 * a, atol=1)


def test_missing_sound_is_skipped_with_one_warning():
    tl = demo({1.0: [sound(snd=MISSING)], 1.5: [sound(snd=MISSING, channel=2), sound(entity=7, snd=PLUS)]})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mixer = Mixer(tl, bank())
        out = mixer.mix(1.0, 2.5, EAR)
    assert [str(w.message).split(":")[0] for w in caught] == ["sound test/missing.wav skipped"]
    assert not out[:round(0.5 * R)].any() and level(out, 2.0)[0] == expected(0.7)


def test_missing_sound_still_cuts_its_channel():
    tl = demo({1.0: [sound(snd=PLUS)], 1.5: [sound(snd=MISSING)]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = Mixer(tl, bank()).mix(1.0, 2.5, EAR)
    assert out[:round(0.5 * R)].all() and not out[round(0.5 * R):].any()


def test_sound_out_of_earshot_at_its_start_never_plays():
    tl = demo({1.0: [sound(origin=(1200, 0, 0))]})

    def walking(t: float) -> Listener:       # reaches the sound's origin 0.5 s later
        return Listener((max(0.0, 1200 * (t - 1.0) * 2), 0, 0), (0, -1, 0))

    assert not Mixer(tl, bank()).mix(1.0, 2.0, walking).any()
    near = demo({1.0: [sound(origin=(900, 0, 0))]})
    heard = Mixer(near, bank()).mix(1.0, 2.0, walking)
    assert level(heard, 1.375)[0] > expected(0.7, 250)   # the listener passes the sound's origin


def test_sound_follows_its_moving_entity():
    # Entity 5 starts at the listener and moves away along +x at 1000 units/s; its sound started at (0, 0, 0).
    tl = demo({1.0: [sound(entity=5)]}, entity_path=lambda t: (min((t - 1.0) * 1000, 4000), 0, 0))
    out = Mixer(tl, bank()).mix(1.0, 2.0, EAR)
    early, later = level(out, 1.1)[0], level(out, 1.4)[0]
    assert expected(0.7) > early > later > 0
    # The same sound from the world (entity 0) stays where it started.
    still = Mixer(demo({1.0: [sound(entity=0)]}), bank()).mix(1.0, 2.0, EAR)
    assert level(still, 1.4)[0] == expected(0.7)


def test_duplicate_starts_in_one_frame_are_offset():
    # The second copy skips into its samples by up to 0.1 s, so the two end at different times.
    tl = demo({1.0: [sound(entity=5, snd=SHORT), sound(entity=6, snd=SHORT)]})
    out = Mixer(tl, bank()).mix(1.0, 1.5, EAR)
    ends = np.flatnonzero(np.diff(out[:, 0].astype(np.int32)))
    assert len(ends) == 2 and 0 < ends[0] < ends[1] == R // 10 - 1
    assert Mixer(tl, bank()).mix(1.0, 1.5, EAR).tobytes() == out.tobytes()   # the same offset every time


def test_mixing_is_pure_across_splits():
    tl = demo({1.0: [sound(snd=LOOP)], 1.3: [sound(entity=6, channel=0, snd=PLUS, origin=(300, 200, 0))],
               1.6: [sound(entity=6, channel=2, snd=MINUS, origin=(-100, -300, 50))]},
              signon=(W.spawnstaticsound((64, 64, 0), LOOP, 200, 64),),
              entity_path=lambda t: (300 * np.sin(t), 200 * np.cos(t), 0))

    def turning(t: float) -> Listener:
        return Listener.from_angles((10 * t, 0, 0), (0, 90 * t, 0))

    mixer = Mixer(tl, bank())
    for ear in (EAR, turning):
        whole = mixer.mix(1.05, 2.95, ear)
        for tm in (1.0501, 1.3, 1.77777, 2.5 + 7 / R):
            parts = np.concatenate([mixer.mix(1.05, tm, ear), mixer.mix(tm, 2.95, ear)])
            np.testing.assert_array_equal(parts, whole)
        assert whole.any()
    np.testing.assert_array_equal(mix(tl, 1.05, 2.95, EAR, bank()), mixer.mix(1.05, 2.95, EAR))


def test_empty_span_and_sounds_before_the_demo():
    mixer = Mixer(demo({1.0: [sound()]}), bank())
    assert mixer.mix(2.0, 2.0, EAR).shape == (0, 2)
    assert mixer.mix(2.0, 1.0, EAR).shape == (0, 2)
    assert not mixer.mix(0.0, 0.99, EAR).any()


def test_8bit_sounds_at_11025_hz_are_resampled():
    tone = np.full(11025, LEVEL, np.int16)
    tl = demo({1.0: [sound(snd=PLUS)]})
    out = Mixer(tl, bank(**{"sound/test/plus.wav": build_wav(tone, rate=11025, bits=8)})).mix(1.0, 2.5, EAR)
    playing = np.flatnonzero(out[:, 0])
    assert len(playing) == R and playing[0] == 0       # 1 s of sound at the output rate
    assert level(out, 1.5)[0] == expected(0.7)


def _ambient_world():
    world = load_bsp(build_bsp(), "maps/test.bsp")
    leafs = world.leafs.copy()
    leafs["ambient_level"][1] = (200, 0, 0, 0)           # x > 96: water
    leafs["ambient_level"][2] = (0, 20, 0, 0)            # x < 96: a little sky (below the minimum: silent)
    return dataclasses.replace(world, leafs=leafs)


def test_ambient_sound_fades_in_from_the_leaf_level():
    water = build_wav(np.full(R, LEVEL, np.int16), rate=R, bits=16, loop_start=0)
    sounds = bank(**{"sound/ambience/water1.wav": water})
    world = _ambient_world()
    tl = demo({}, end=6.0)
    with pytest.warns(UserWarning, match="ambience/wind2.wav skipped"):
        mixer = Mixer(tl, sounds, {0: world}.get)
    in_water = Listener((160.0, 32.0, 16.0), (0.0, -1.0, 0.0))
    out = mixer.mix(1.0, 5.0, in_water)
    target = int(AMBIENT_LEVEL * 200)                   # 60
    # Fades in at 100 per second from the level start: 60 reached after 0.6 s.
    assert level(out, 1.3)[0] == expected(0.7, 30)
    assert level(out, 2.0)[0] == expected(0.7, target)
    assert not mixer.mix(1.0, 5.0, Listener((32.0, 32.0, 16.0), (0, -1, 0))).any()
    assert not Mixer(tl, sounds, {0: world}.get, ambient=False).mix(1.0, 5.0, in_water).any()

    def walk_out(t: float) -> Listener:                  # leaves the water leaf at t = 3
        return in_water if t < 3.0 else Listener((32.0, 32.0, 16.0), (0.0, -1.0, 0.0))

    faded = mixer.mix(1.0, 5.0, walk_out)
    assert level(faded, 2.9)[0] == expected(0.7, target)
    assert 0 < level(faded, 3.35)[0] < expected(0.7, target)
    assert level(faded, 3.8)[0] == 0
    whole = mixer.mix(2.0, 4.0, walk_out)
    split = np.concatenate([mixer.mix(2.0, 3.123, walk_out), mixer.mix(3.123, 4.0, walk_out)])
    np.testing.assert_array_equal(whole, split)
    assert fade_history(R) * 0.1 >= 2.55


def test_sound_track_table():
    tl = demo({1.0: [sound(entity=5, channel=1, snd=PLUS, origin=(1, 2, 3), volume=128, attenuation=2.0)],
               1.5: [W.stopsound(5, 1)]}, signon=(W.spawnstaticsound((4, 5, 6), LOOP, 64, 128),))
    track = sound_track(tl)
    assert track.names == ("test/plus.wav", "test/loop.wav")
    start, stop = track.commands
    assert (start["time"], start["entity"], start["channel"], start["sound"]) == (1.0, 5, 1, 0)
    assert start["volume"] == pytest.approx(128 / 255) and start["attenuation"] == 2.0
    assert start["origin"].tolist() == [1, 2, 3]
    assert (stop["time"], stop["entity"], stop["channel"], stop["sound"]) == (1.5, 5, 1, -1)
    (static,) = track.statics
    assert (static["sound"], static["attenuation"], static["origin"].tolist()) == (1, 2.0, [4, 5, 6])
    assert track.segment_at(0.0) == 0 and track.maps == ("maps/test.bsp",)


_BUSY = demo({1.0: [sound(snd=LOOP)], 1.2: [sound(entity=6, channel=0, snd=SHORT, origin=(200, -100, 0))],
              1.4: [sound(entity=5, channel=1, snd=MINUS, origin=(-300, 50, 0)), sound(entity=7, snd=SHORT)],
              2.0: [W.stopsound(5, 1)]},
             signon=(W.spawnstaticsound((100, 0, 0), LOOP, 255, 64),),
             entity_path=lambda t: (100 * t, 0, 0))


@settings(max_examples=60, deadline=None)
@given(st.floats(0.5, 3.0), st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_any_split_gives_the_same_samples(t0, a, b):
    mixer = Mixer(_BUSY, bank())
    t1 = t0 + 1.5 * a
    tm = t0 + (t1 - t0) * b
    whole = mixer.mix(t0, t1, EAR)
    np.testing.assert_array_equal(np.concatenate([mixer.mix(t0, tm, EAR), mixer.mix(tm, t1, EAR)]), whole)
