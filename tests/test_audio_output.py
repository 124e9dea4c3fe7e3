"""Window sound: the pyglet stream renders the mixer at the anchored time (pitch follows speed), and the output
restarts / silences the stream as the clock plays, pauses, seeks, scrubs or runs too fast."""

from __future__ import annotations

import numpy as np
import pyglet
import pytest

from tests.builders.wav import build_wav
from tests.test_audio_mixer import EAR, demo, sound
from viewer.audio import OUTPUT_RATE, Mixer, SoundBank

pyglet.options["headless"] = True        # pyglet.media imports pyglet.gl: no X display in the test process
from viewer.audio import output  # noqa: E402  (after choosing headless mode)
from viewer.audio.output import LEAD, AudioOutput, MixerStream, audible, open_output  # noqa: E402

R = OUTPUT_RATE
RAMP = (np.arange(R * 3) % 2000 * 10).astype(np.int16)


@pytest.fixture(scope="module")
def mixer():
    tl = demo({1.0: [sound(snd=1)]})
    return Mixer(tl, SoundBank({"sound/test/plus.wav": build_wav(RAMP, rate=R, bits=16)}))


def pull(stream: MixerStream, frames: int) -> np.ndarray:
    data = stream.get_audio_data(frames * 4)
    return np.frombuffer(data.data, np.int16).reshape(-1, 2)


def test_stream_plays_the_mix_from_its_anchor(mixer):
    stream = MixerStream(mixer)
    stream.set_anchor(1.25, 1.0, True)
    stream.set_listener(EAR)
    stream.seek(0.0)
    first, second = pull(stream, 1000), pull(stream, 3000)
    np.testing.assert_array_equal(np.concatenate([first, second]), mixer.mix(1.25, 1.25 + 4000 / R, EAR))
    assert first.any()


def test_stream_is_silent_when_inactive_muted_or_without_listener(mixer):
    stream = MixerStream(mixer)
    stream.set_anchor(1.25, 1.0, False)
    stream.set_listener(EAR)
    assert not pull(stream, 500).any()
    stream.set_anchor(1.25, 1.0, True)
    stream.gain = 0.0
    assert not pull(stream, 500).any()
    stream.gain = 1.0
    stream.set_listener(None)
    assert not pull(stream, 500).any()


def test_stream_at_double_speed_plays_twice_the_span_in_the_same_frames(mixer):
    stream = MixerStream(mixer)
    stream.set_anchor(1.25, 2.0, True)
    stream.set_listener(EAR)
    fast = pull(stream, 2000).astype(np.int32)
    normal = mixer.mix(1.25, 1.25 + 4000 / R, EAR).astype(np.int32)
    assert fast.shape == (2000, 2)
    np.testing.assert_allclose(fast[:1000, 0], normal[:2000:2, 0], atol=40)


def test_stream_volume_scales_and_clips(mixer):
    stream = MixerStream(mixer)
    stream.set_anchor(1.25, 1.0, True)
    stream.set_listener(EAR)
    stream.gain = 0.5
    half = pull(stream, 1000).astype(np.int32)
    whole = mixer.mix(1.25, 1.25 + 1000 / R, EAR).astype(np.int32)
    np.testing.assert_allclose(half, whole * 0.5, atol=1)


@pytest.mark.parametrize("speed, paused, scrubbing, on", [
    (1.0, False, False, True), (2.0, False, False, True), (0.1, False, False, True), (4.0, False, False, False),
    (-1.0, False, False, False), (1.0, True, False, False), (1.0, False, True, False),
])
def test_audible(speed, paused, scrubbing, on):
    assert audible(speed, paused, scrubbing) is on


class RecordingPlayer:
    """Records what the output asks of a pyglet player."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.playing = False
        self.queued = None

    def queue(self, source) -> None:
        self.queued = source

    def seek(self, t: float) -> None:
        self.calls.append("seek")
        self.queued.seek(t)

    def play(self) -> None:
        self.calls.append("play")
        self.playing = True

    def pause(self) -> None:
        self.calls.append("pause")
        self.playing = False

    def delete(self) -> None:
        self.calls.append("delete")


def test_output_follows_the_clock(mixer):
    wall = [100.0]
    player = RecordingPlayer()
    out = AudioOutput(mixer, player, clock=lambda: wall[0])
    assert player.queued is out.stream

    def frame(t, speed=1.0, paused=False, scrubbing=False, dt=1 / 60):
        wall[0] += dt
        out.update(t, speed, paused, scrubbing, EAR)

    frame(1.0)
    assert player.calls == ["seek", "play"] and out.stream._anchor == round((1.0 + LEAD) * R)
    t = 1.0
    for _ in range(120):                      # two seconds of steady play: nothing to do
        t += 1 / 60
        frame(t)
    assert player.calls == ["seek", "play"]
    frame(t, paused=True)                     # pause: silent at once (buffer dropped)
    assert player.calls[-2:] == ["seek", "pause"] and not player.playing
    frame(t)
    assert player.calls[-2:] == ["seek", "play"]
    frame(t + 30.0 + 1 / 60)                  # a seek: restart at the new time
    assert player.calls[-1] == "seek" and player.playing
    assert out.stream._anchor == round((t + 30.0 + 1 / 60 + LEAD) * R)
    frame(t + 30.0 + 2 / 60, speed=4.0)       # too fast: silent
    assert not player.playing
    frame(t + 30.0 + 3 / 60, speed=-1.0)      # reverse: silent
    assert not player.playing
    frame(t + 30.0 + 4 / 60, speed=2.0)       # 2x: plays, twice as fast
    assert player.playing and out.stream._speed == 2.0
    restarts = out.restarts
    frame(t + 30.0 + 4 / 60 + 2 / 60, speed=2.0)
    assert out.restarts == restarts
    out.close()
    assert player.calls[-2:] == ["pause", "delete"]


def test_keys_mute_and_change_the_volume(mixer):
    out = AudioOutput(mixer, RecordingPlayer())
    assert out.key("M") == "sound muted" and out.stream.gain == 0.0
    assert out.key("M") == "volume 100%" and out.stream.gain == 1.0
    assert out.key("MINUS") == "volume 90%" and out.stream.gain == pytest.approx(0.9)
    for _ in range(15):
        out.key("MINUS")
    assert out.volume == 0.0
    for _ in range(25):
        out.key("EQUAL")
    assert out.volume == 2.0
    assert out.key("X") is None


def test_no_audio_device_gives_one_message(monkeypatch, mixer):
    said: list[str] = []
    monkeypatch.setattr(output, "get_audio_driver", lambda: None)
    assert open_output(mixer.timeline, None, lambda s: None, said.append) is None
    assert said == ["no audio device: playing without sound"]

