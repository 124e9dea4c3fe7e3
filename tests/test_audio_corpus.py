"""The mixer on real demos and data: sound right after the ``sound`` events the recorder must hear, silence where
no sound plays, and the same samples however the demo is cut into calls."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from assets_loader.demos import load_demo, sample
from assets_loader.vfs import VirtualFS
from tests.conftest import QUAKEWORLD
from viewer.audio import OUTPUT_RATE, Listener, Mixer, SoundBank

R = OUTPUT_RATE
#: Sounds this close to the listener (or the listener's own) are loud enough to be measured (attenuation ≤ 2).
NEAR = 200.0


@pytest.fixture(scope="module")
def qwd():
    timeline = load_demo(QUAKEWORLD / "lq_lqdm2_ranger.qwd")
    bank = SoundBank(VirtualFS(QUAKEWORLD))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # sounds missing from the corpus pak are skipped
        mixer = Mixer(timeline, bank, static=False, ambient=False)
    return timeline, bank, mixer


def sample_index(t: float) -> int:
    """The output sample of time ``t`` (the mixer's absolute grid)."""
    return int(np.floor(t * R + 0.5))


def pov(timeline):
    def at(t: float) -> Listener:
        s = sample(timeline, t)
        return Listener.from_angles(s.view_origin, s.view_angles, s.view_entity)
    return at


def test_sound_events_are_heard_within_50_ms_and_nothing_else_is(qwd):
    timeline, bank, mixer = qwd
    ear = pov(timeline)
    t0, t1 = timeline.start_time, timeline.end_time
    out = mixer.mix(t0, t1, ear).astype(np.int32)
    busy = np.zeros(len(out), bool)
    checked = 0
    for e in timeline.events_of_kind("sound"):
        snd = bank.get(e.sound)
        if snd is None:
            continue
        assert snd.loop_start is None                      # no looping sound here: each one ends
        a = sample_index(e.time) - sample_index(t0)
        busy[max(a, 0):a + len(snd)] = True
        listener = ear(e.time)
        close = np.linalg.norm(np.subtract(e.origin, listener.origin)) < NEAR
        if (e.entity == listener.entity or close) and e.volume > 0.5:
            window = out[max(a, 0):a + R // 20]
            assert np.sqrt((window.astype(np.float64) ** 2).mean()) > 30, (e.time, e.sound)
            checked += 1
    assert checked >= 30
    assert not out[~busy].any()
    assert busy.mean() < 0.5 and out[busy].any()


def test_split_calls_equal_one_call_on_the_corpus(qwd):
    timeline, _bank, mixer = qwd
    ear = pov(timeline)
    t0 = timeline.start_time + 20.0
    whole = mixer.mix(t0, t0 + 3.0, ear)
    cuts = t0 + np.cumsum(np.full(90, 1 / 30))          # video frames at 30 fps
    parts = np.concatenate([mixer.mix(a, b, ear) for a, b in zip(np.append(t0, cuts[:-1]), cuts)])
    np.testing.assert_array_equal(parts, whole)
    assert whole.any()


def test_static_sounds_play_near_their_origin(qwd):
    timeline, bank, _mixer = qwd
    statics = timeline.segments[0].static_sounds
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mixer = Mixer(timeline, bank, ambient=False)
    looped = [s for s in statics if (snd := bank.get(s.sound)) is not None and snd.loop_start is not None]
    assert looped
    spot = looped[0]
    out = mixer.mix(timeline.start_time + 5.0, timeline.start_time + 6.0,
                    Listener(spot.origin, (0.0, -1.0, 0.0)))
    assert np.abs(out.astype(np.int32)).mean() > 10
