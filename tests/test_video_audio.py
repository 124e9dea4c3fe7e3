"""``qdv render``'s sound: decoded back with PyAV, an audio stream of the container's codec as long as the video,
with sound right after the ``sound`` events the recorder hears and silence elsewhere."""

from __future__ import annotations

import warnings
from pathlib import Path

import av
import numpy as np
import pytest

from assets_loader.demos import load_demo
from assets_loader.vfs import VirtualFS
from tests.conftest import QUAKEWORLD
from viewer.audio import OUTPUT_RATE, Mixer, SoundBank
from viewer.cli import main
from viewer.headless import DemoRenderer
from viewer.session import game_filesystem
from viewer.video.output import plan_output
from viewer.camera_pose import ShotCamera
from viewer.video.recorder import record
from viewer.video.shot import ShotView
from viewer.video.soundtrack import FrameSound
from viewer.video.timing import FrameTimes

R = OUTPUT_RATE
DEMO = QUAKEWORLD / "lq_lqdm2_ranger.qwd"
GAME = ["--basedir", str(QUAKEWORLD)]
FPS = 10
#: A sound this close to the listener (or the listener's own) is loud enough to be measured.
NEAR = 200.0
#: Lossy codecs smear a sound's edges (AAC's transform block is 2048 samples): silence is checked this far away.
MARGIN = R // 20


def decode_audio(path: Path) -> tuple[str | None, np.ndarray, float]:
    """The audio codec name, the samples float [n, 2] (-1..1) and the video's duration in seconds."""
    with av.open(str(path)) as container:
        video = container.streams.video[0]
        frames = sum(1 for _ in container.decode(video))
        rate = float(video.average_rate)
    with av.open(str(path)) as container:
        if not container.streams.audio:
            return None, np.zeros((0, 2)), frames / rate
        stream = container.streams.audio[0]
        name = stream.codec_context.name
        chunks = [f.to_ndarray() for f in container.decode(stream)]
    return name, np.concatenate(chunks, axis=1).T, frames / rate


def render(tmp_path: Path, name: str, *extra: str) -> Path:
    out = tmp_path / name
    assert main(["render", str(DEMO), "--out", str(out), "--size", "64x36", "--fps", str(FPS), "--from", "2",
                 "--to", "4", "--no-hud", *GAME, *extra]) == 0
    return out


@pytest.mark.parametrize("name, codec", [("a.mp4", "aac"), ("a.mov", "aac"), ("a.mkv", "opus"),
                                         ("a.webm", "opus")])
def test_the_audio_stream_has_the_container_codec_and_the_video_length(name: str, codec: str,
                                                                       tmp_path: Path) -> None:
    got, samples, seconds = decode_audio(render(tmp_path, name))
    assert got == codec
    assert seconds == pytest.approx(2.0)
    assert abs(len(samples) / R - seconds) < 1 / FPS
    assert np.abs(samples).max() > 0.01


def test_no_audio_leaves_the_stream_out(tmp_path: Path) -> None:
    got, _samples, seconds = decode_audio(render(tmp_path, "a.mp4", "--no-audio"))
    assert got is None and seconds == pytest.approx(2.0)


def test_missing_sounds_are_one_warning(tmp_path: Path, capsys) -> None:
    render(tmp_path, "a.mkv")
    lines = [line for line in capsys.readouterr().err.splitlines() if "warning" in line and "sound" in line]
    assert len(lines) == 1 and "ambience/water1.wav" in lines[0]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """The whole demo exported to MP4 with the recorder's sounds only (no static or ambient sounds)."""
    tmp = tmp_path_factory.mktemp("sound")
    timeline = load_demo(DEMO)
    bank = SoundBank(VirtualFS(QUAKEWORLD))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # sounds missing from the corpus pak are skipped
        mixer = Mixer(timeline, bank, static=False, ambient=False)
    renderer = DemoRenderer(timeline, game_filesystem(str(DEMO), str(QUAKEWORLD), None), (64, 36))
    out = plan_output(str(tmp / "s.mp4"), (64, 36))
    times = FrameTimes.for_range(timeline.start_time, timeline.duration, 0.0, timeline.duration, 1.0, FPS)
    try:
        record(renderer, ShotCamera(), times, out, sound=FrameSound(mixer, times))
        view = ShotView(renderer, ShotCamera())
        listeners = [view.listener(times.time(k)) for k in range(times.count)]
    finally:
        renderer.release()
    return timeline, bank, times, listeners, decode_audio(out.path)


def test_sound_events_are_heard_within_50_ms_and_silence_elsewhere(recorded) -> None:
    timeline, bank, times, listeners, (_codec, out, seconds) = recorded
    t0 = times.time(0)
    busy = np.zeros(len(out), bool)
    checked = 0
    for e in timeline.events_of_kind("sound"):
        snd = bank.get(e.sound)
        if snd is None or e.time + len(snd) / R < t0 or e.time >= t0 + seconds:
            continue
        a = round((e.time - t0) * R)
        busy[max(a - MARGIN, 0):max(a + len(snd) + MARGIN, 0)] = True
        listener = listeners[min(int((e.time - t0) * FPS), len(listeners) - 1)]
        close = np.linalg.norm(np.subtract(e.origin, listener.origin)) < NEAR
        if a >= 0 and (e.entity == listener.entity or close) and e.volume > 0.5:
            window = out[a:a + R // 20]
            assert np.sqrt((window ** 2).mean()) > 30 / 32768, (e.time, e.sound)
            checked += 1
    assert checked >= 20
    assert np.abs(out[~busy]).max() < 2 / 32768
    assert busy.mean() < 0.7


def test_beyond_twice_the_speed_the_track_is_silent(tmp_path: Path) -> None:
    _codec, samples, seconds = decode_audio(render(tmp_path, "fast.mp4", "--speed", "3", "--to", "8"))
    assert abs(len(samples) / R - seconds) < 1 / FPS and not np.abs(samples).max() > 1 / 32768
