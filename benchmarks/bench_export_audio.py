"""What the sound track adds to ``qdv render``: export time per second of audio, interleaved with and without.

Run: ``/work/venv/bin/python benchmarks/bench_export_audio.py [DEMO] [--basedir DIR] [--size WxH] [--fps N]
[--seconds S] [--out EXT]`` (default: the QuakeWorld ``lq_lqdm2_ranger.qwd``, 640x360, 60 fps, 60 s, ``.mp4``).

The machine is shared, so the range is cut into 5-second pieces, each exported both ways (with sound and without,
alternating which goes first); the difference of the totals is the wall-clock cost. Then the sound work alone, on
the whole range: per frame the listener (the camera at the frame) and the mix of the frame's samples, in the render
loop; and the audio encoder (AAC or Opus) fed the same samples. Printed as milliseconds per second of audio.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from fractions import Fraction
from pathlib import Path

import av
import numpy as np

from assets_loader.demos import load_demo
from viewer.headless import DemoRenderer
from viewer.session import game_filesystem
from viewer.video.output import plan_output
from viewer.video.recorder import ShotCamera, record
from viewer.video.soundtrack import AUDIO_BIT_RATE, AUDIO_CODECS, FrameSound, export_mixer
from viewer.video.timing import FrameTimes

QW = Path(__file__).resolve().parents[2] / "shared" / "data" / "quakeworld"
PIECE = 5.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("demo", nargs="?", default=str(QW / "lq_lqdm2_ranger.qwd"))
    parser.add_argument("--basedir", default=str(QW))
    parser.add_argument("--size", default="640x360")
    parser.add_argument("--fps", type=float, default=60.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--out", default=".mp4")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    assert len(size) == 2
    timeline = load_demo(args.demo)
    fs = game_filesystem(args.demo, args.basedir, None)
    renderer = DemoRenderer(timeline, fs, (size[0], size[1]))
    session = renderer.session
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mixer = export_mixer(timeline, fs, lambda s: session.game_map if s == session.segment else None)
    seconds = min(args.seconds, timeline.duration)
    wall = {True: 0.0, False: 0.0}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for i, start in enumerate(np.arange(0.0, seconds - PIECE + 1e-6, PIECE)):
                times = FrameTimes.for_range(timeline.start_time, timeline.duration, float(start),
                                             float(start) + PIECE, 1.0, args.fps)
                for with_sound in ((True, False) if i % 2 == 0 else (False, True)):
                    out = plan_output(str(Path(tmp) / f"p{i}{with_sound}{args.out}"), (size[0], size[1]))
                    sound = FrameSound(mixer, times) if with_sound else None
                    began = time.perf_counter()
                    record(renderer, ShotCamera(), times, out, sound=sound)
                    wall[with_sound] += time.perf_counter() - began
            audio_seconds = len(np.arange(0.0, seconds - PIECE + 1e-6, PIECE)) * PIECE
            extra = (wall[True] - wall[False]) / audio_seconds * 1000
            print(f"{args.demo} {args.size} {args.fps:g} fps {args.out}: {audio_seconds:g} s exported with sound "
                  f"{wall[True]:.1f} s, without {wall[False]:.1f} s: {extra:+.0f} ms wall per second of audio")

            times = FrameTimes.for_range(timeline.start_time, timeline.duration, 0.0, seconds, 1.0, args.fps)
            sound = FrameSound(mixer, times)
            shot = ShotCamera()
            began = time.perf_counter()
            listeners = [shot.listener(renderer, times.time(k)) for k in range(times.count)]
            listen = time.perf_counter() - began
            began = time.perf_counter()
            chunks = [sound.samples(k, listeners[k]) for k in range(times.count)]
            mixing = time.perf_counter() - began
            codec = AUDIO_CODECS[out.container]
            with av.open(str(Path(tmp) / f"audio{args.out}"), "w") as container:
                stream = container.add_stream(codec, rate=mixer.rate)
                assert isinstance(stream, av.AudioStream)
                stream.layout, stream.bit_rate = "stereo", AUDIO_BIT_RATE
                began = time.perf_counter()
                n = 0
                for chunk in chunks:
                    frame = av.AudioFrame.from_ndarray(chunk.reshape(1, -1), format="s16", layout="stereo")
                    frame.sample_rate, frame.pts, frame.time_base = mixer.rate, n, Fraction(1, mixer.rate)
                    container.mux(stream.encode(frame))
                    n += len(chunk)
                container.mux(stream.encode(None))
                encoding = time.perf_counter() - began
            print(f"sound work alone over {seconds:g} s at {args.fps:g} fps: listener {listen / seconds * 1000:.1f} "
                  f"ms, mix {mixing / seconds * 1000:.1f} ms, {codec} encode {encoding / seconds * 1000:.1f} ms "
                  f"per second of audio")
    finally:
        renderer.release()


if __name__ == "__main__":
    main()
