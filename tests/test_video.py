"""``qdv render``: exported videos decoded back with PyAV, compared with ``qdv screenshot`` at the same times."""

from __future__ import annotations

import itertools
import os
import re
import resource
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import av
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from assets_loader.demos import load_demo
from tests.conftest import LQ1, QUAKEWORLD, REPO
from viewer.cli import main
from viewer.headless import DemoRenderer
from viewer.session import game_filesystem
from viewer.video.encoder import BackgroundEncoder
from viewer.video.output import plan_output
from viewer.video.recorder import ShotCamera, record
from viewer.video.timing import FrameTimes, RangeError

DEMO = QUAKEWORLD / "lq_lqdm2_ranger.qwd"
GAME = ["--basedir", str(QUAKEWORLD)]
SIZE = "320x180"
FPS = 10
FIRST = 2.0  # seconds after the demo start: the player runs and turns around
COMMON = ["--size", SIZE, "--fps", str(FPS), "--from", str(FIRST), "--to", str(FIRST + 2), "--no-hud", *GAME]


def decode(path: Path) -> tuple[list[np.ndarray], list[float], av.video.stream.VideoStream]:
    """Every frame of ``path`` as ``uint8 [H, W, 3]`` RGB, their times in seconds, and the stream."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        frames = list(container.decode(stream))
        return [f.to_ndarray(format="rgb24") for f in frames], [float(f.time) for f in frames], stream


def screenshot(tmp_path: Path, k: int, *extra: str) -> np.ndarray:
    """``qdv screenshot`` at output frame ``k``'s time (the time string the video's frame k uses), without the HUD
    like the exports of COMMON."""
    out = tmp_path / f"shot{k}.png"
    when = repr(FIRST + k * 1.0 / FPS)
    assert main(["screenshot", str(DEMO), "--time", when, "--out", str(out), "--size", SIZE, "--no-hud", *GAME,
                 *extra]) == 0
    return np.asarray(Image.open(out).convert("RGB"))


def render(tmp_path: Path, name: str, *extra: str) -> Path:
    out = tmp_path / name
    assert main(["render", str(DEMO), "--out", str(out), *COMMON, *extra]) == 0
    return out


@pytest.fixture(scope="module")
def exports(tmp_path_factory) -> dict[str, Path]:
    """The same two seconds exported as H.264 MP4, FFV1 MKV and a PNG folder."""
    tmp = tmp_path_factory.mktemp("exports")
    (tmp / "png").mkdir()
    return {"h264": render(tmp, "clip.mp4"), "ffv1": render(tmp, "clip.mkv", "--codec", "ffv1"),
            "png": render(tmp, "png")}


def test_h264_file_has_the_frames_size_and_timestamps_asked_for(exports, tmp_path: Path) -> None:
    frames, times, stream = decode(exports["h264"])
    assert stream.codec_context.name == "h264" and stream.average_rate == FPS
    assert len(frames) == 2 * FPS
    assert all(f.shape == (180, 320, 3) for f in frames)
    assert times == pytest.approx([k / FPS for k in range(2 * FPS)])
    assert all(np.abs(a.astype(int) - b).mean() > 1 for a, b in itertools.pairwise(frames))
    for k in (0, 7, 19):
        shot = screenshot(tmp_path, k).astype(int)
        error = np.abs(frames[k].astype(int) - shot)
        assert error.mean() < 4, f"frame {k}: mean error {error.mean():.2f} against the screenshot"
        assert np.abs(frames[k].astype(int) - screenshot(tmp_path, k + 1 if k < 19 else k - 1)).mean() > error.mean()


def test_lossless_exports_equal_the_screenshots_exactly(exports, tmp_path: Path) -> None:
    ffv1, times, stream = decode(exports["ffv1"])
    assert stream.codec_context.name == "ffv1" and len(ffv1) == 2 * FPS
    assert times == pytest.approx([k / FPS for k in range(2 * FPS)])
    pngs = sorted(exports["png"].iterdir())
    assert [p.name for p in pngs] == [f"{k:05d}.png" for k in range(2 * FPS)]
    for k in (0, 3, 12, 19):
        shot = screenshot(tmp_path, k)
        assert np.array_equal(ffv1[k], shot), f"ffv1 frame {k}"
        assert np.array_equal(np.asarray(Image.open(pngs[k])), shot), f"png frame {k}"


def test_two_exports_are_identical(exports, tmp_path: Path) -> None:
    again = render(tmp_path, "again.mkv", "--codec", "ffv1")
    first, _, _ = decode(exports["ffv1"])
    second, _, _ = decode(again)
    assert len(first) == len(second) and all(np.array_equal(a, b) for a, b in zip(first, second))


def test_hud_is_drawn_over_the_bottom_unless_no_hud(exports, tmp_path: Path) -> None:
    out = tmp_path / "hud.mkv"
    assert main(["render", str(DEMO), "--out", str(out), "--codec", "ffv1", "--size", SIZE, "--fps", str(FPS),
                 "--from", str(FIRST), "--to", str(FIRST + 0.5), *GAME]) == 0  # --hud is the default
    hud, _, _ = decode(out)
    clean, _, _ = decode(exports["ffv1"])
    for k in (0, 4):
        assert np.array_equal(hud[k][:90], clean[k][:90])  # the status bar covers only the bottom rows
        assert np.abs(hud[k][-24:].astype(int) - clean[k][-24:]).mean() > 10


def test_png_pattern_and_speed(tmp_path: Path) -> None:
    assert main(["render", str(DEMO), "--out", str(tmp_path / "f_%03d.png"), "--size", "64x36", "--fps", "5",
                 "--from", "5", "--to", "7", "--speed", "2", *GAME]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [f"f_{k:03d}.png" for k in range(5)]  # 2 demo seconds at speed 2 = 1 s of video


def test_motion_blur_frame_is_the_mean_of_its_sub_frames(tmp_path: Path) -> None:
    """A moving view blurred over a 180° shutter (4 sub-frames) lies between the sharp pictures it averages."""
    out = render(tmp_path, "blur.mkv", "--codec", "ffv1", "--motion-blur", "4")
    blurred, _, _ = decode(out)
    timeline = load_demo(DEMO)
    times = FrameTimes.for_range(timeline.start_time, timeline.duration, FIRST, FIRST + 2, 1.0, FPS)
    renderer = DemoRenderer(timeline, game_filesystem(str(DEMO), str(QUAKEWORLD), None), (320, 180))
    try:
        k = 10
        subs = [renderer.pixels(t).astype(np.float32) for t in times.shutter(k, 4)]
        assert times.shutter(k, 4) == pytest.approx([times.time(k) + i * 0.05 / 4 for i in range(4)])
    finally:
        renderer.release()
    frame = blurred[k].astype(np.float32)
    assert np.abs(frame - np.mean(subs, axis=0)).max() <= 0.5 + 1e-3
    first, last = subs[0], subs[-1]
    apart = np.abs(first - last).mean()
    assert apart > 2, "the view must move within the shutter for this test"
    assert np.abs(frame - first).mean() < apart and np.abs(frame - last).mean() < apart
    assert not np.array_equal(frame, first) and not np.array_equal(frame, last)


@pytest.mark.parametrize("mode", ["free", "chase", "orbit"])
def test_other_cameras_see_the_scene_from_elsewhere(mode: str, exports, tmp_path: Path) -> None:
    out = tmp_path / f"{mode}.mkv"
    assert main(["render", str(DEMO), "--out", str(out), "--camera", mode, "--codec", "ffv1", "--size", SIZE,
                 "--fps", str(FPS), "--from", str(FIRST), "--to", str(FIRST + 0.5), "--no-hud", *GAME]) == 0
    frames, _, _ = decode(out)
    pov, _, _ = decode(exports["ffv1"])
    assert len(frames) == 5
    for k in (0, 4):
        assert frames[k].mean() > 10 and not np.array_equal(frames[k], pov[k])


def test_free_camera_frames_match_screenshots_with_the_same_camera(tmp_path: Path) -> None:
    out = tmp_path / "free.mkv"
    place = ["--pos=-400,150,250", "--angles", "10,300,0"]
    assert main(["render", str(DEMO), "--out", str(out), "--codec", "ffv1", "--size", SIZE, "--fps", str(FPS),
                 "--from", str(FIRST), "--to", str(FIRST + 0.5), "--no-hud", *GAME, *place]) == 0
    frames, _, _ = decode(out)
    assert frames[3].mean() > 10 and np.array_equal(frames[3], screenshot(tmp_path, 3, *place))


def test_multi_view_demo_follows_the_player_named(tmp_path: Path) -> None:
    demo = QUAKEWORLD / "lq_lqdm2_mvd.mvd"
    outs = {}
    for player in ("LQ_Ranger", "LQ_Warden"):
        outs[player] = tmp_path / f"{player}.mkv"
        assert main(["render", str(demo), "--out", str(outs[player]), "--pov", player, "--codec", "ffv1",
                     "--size", "64x36", "--fps", "2", "--from", "30", "--to", "31", *GAME]) == 0
    ranger, warden = (decode(p)[0] for p in outs.values())
    assert len(ranger) == len(warden) == 2 and not np.array_equal(ranger[0], warden[0])


@pytest.mark.parametrize(("args", "words"), [
    (["--out", "{tmp}/x.avi"], "unknown container"),
    (["--out", "{tmp}/x.mp4", "--codec", "mpeg2"], "unknown codec"),
    (["--out", "{tmp}/x.mp4", "--codec", "ffv1"], "cannot go into"),
    (["--out", "{tmp}/x.webm", "--codec", "h264"], "cannot go into"),
    (["--out", "{tmp}/x.mkv", "--codec", "png"], "cannot go into"),
    (["--out", "{tmp}/", "--codec", "h264"], "cannot go into numbered PNGs"),
    (["--out", "{tmp}/missing/x.mp4"], "does not exist"),
    (["--out", "{tmp}/missing/"], "does not exist"),
    (["--out", "{tmp}/x_%d.jpg"], "must end in .png"),
    (["--out", "{tmp}/x.mp4", "--from", "2:00"], "outside the demo"),
    (["--out", "{tmp}/x.mp4", "--from", "10", "--to", "5"], "after --from"),
    (["--out", "{tmp}/x.mp4", "--to", "99:00"], "within the demo"),
    (["--out", "{tmp}/x.mp4", "--from", "100%"], "outside the demo"),
    (["--out", "{tmp}/x.mp4", "--from", "1:2:3:4"], "expected"),
    (["--out", "{tmp}/x.mp4", "--size", "0x180"], "--size"),
    (["--out", "{tmp}/x.mp4", "--size", "321x180"], "even width and height"),
    (["--out", "{tmp}/x.mp4", "--size", "big"], "expected WxH"),
    (["--out", "{tmp}/x.mp4", "--fps", "0"], "--fps"),
    (["--out", "{tmp}/x.mp4", "--fps", "-10"], "--fps"),
    (["--out", "{tmp}/x.mp4", "--speed", "0"], "--speed"),
    (["--out", "{tmp}/x.mp4", "--motion-blur", "0"], "--motion-blur"),
    (["--out", "{tmp}/x.mp4", "--crf", "99"], "--crf"),
    (["--out", "{tmp}/x.mkv", "--codec", "ffv1", "--crf", "10"], "lossless"),
    (["--out", "{tmp}/x.mp4", "--preset", "turbo"], "--preset turbo: h264 takes ultrafast"),
    (["--out", "{tmp}/x.mkv", "--codec", "ffv1", "--preset", "fast"], "takes no --preset"),
    (["--out", "{tmp}/x.mp4", "--camera", "top"], "--camera"),
    (["--out", "{tmp}/x.mp4", "--camera", "chase", "--pos", "0,0,0"], "do not steer"),
    (["--out", "{tmp}/x.mp4", "--pov", "someone"], "no such player"),
])
def test_bad_input_exits_2_with_one_line(args: list[str], words: str, tmp_path: Path, capsys) -> None:
    argv = ["render", str(DEMO), *(a.replace("{tmp}", str(tmp_path)) for a in args)]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("qdv render: ") and words in err[0], err
    assert list(tmp_path.iterdir()) == []


def test_preset_trades_speed_for_size(exports, tmp_path: Path) -> None:
    """``--preset veryfast`` encodes the same frames as the default ``ultrafast`` into a smaller file (x264's
    slower presets search harder), still decoding to every frame."""
    slower = render(tmp_path, "veryfast.mp4", "--preset", "veryfast")
    assert slower.stat().st_size < exports["h264"].stat().st_size
    assert len(decode(slower)[0]) == len(decode(exports["h264"])[0]) == 2 * FPS


def test_pov_naming_nobody_in_a_netquake_demo_exits_2_naming_its_player(tmp_path: Path, capsys) -> None:
    assert main(["render", str(LQ1 / "demo3.dem"), "--out", str(tmp_path / "x.mp4"), "--pov", "2"]) == 2
    assert "no such player; this demo has 0 (" in capsys.readouterr().err


def test_never_overwrites_without_force(tmp_path: Path, capsys) -> None:
    video = tmp_path / "clip.mp4"
    video.write_bytes(b"precious")
    frames = tmp_path / "frames"
    frames.mkdir()
    (frames / "00003.png").write_bytes(b"precious")
    for out in (video, frames):
        assert main(["render", str(DEMO), "--out", str(out), *COMMON]) == 1
        assert "already exists (use --force" in capsys.readouterr().err
    assert video.read_bytes() == b"precious" and (frames / "00003.png").read_bytes() == b"precious"
    assert sorted(p.name for p in frames.iterdir()) == ["00003.png"]
    assert main(["render", str(DEMO), "--out", str(video), *COMMON, "--force"]) == 0
    assert len(decode(video)[0]) == 2 * FPS


def test_disk_full_exits_1_naming_the_file(tmp_path: Path, capsys) -> None:
    out = tmp_path / "full.mp4"
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), as on a full disk
    resource.setrlimit(resource.RLIMIT_FSIZE, (2048, hard))
    try:
        assert main(["render", str(DEMO), "--out", str(out), *COMMON, "--force"]) == 1
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, handler)
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith(f"qdv render: {out}: cannot write") and "File too large" in err
    assert not out.exists()


def test_a_link_at_the_output_is_replaced_never_written_through(tmp_path: Path, capsys) -> None:
    """Issue 30 class 5: --force over a symbolic link makes a new file in its place; the link's target is kept."""
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    out = tmp_path / "clip.mp4"
    out.symlink_to(victim)
    assert main(["render", str(DEMO), "--out", str(out), *COMMON]) == 1       # an existing name without --force
    assert main(["render", str(DEMO), "--out", str(out), *COMMON, "--force"]) == 0
    assert not out.is_symlink() and out.stat().st_size > 0
    assert victim.read_text(encoding="utf-8") == "keep me"


def test_encoder_error_removes_the_partial_file(tmp_path: Path) -> None:
    """A render failure mid-way (here: frame 3 fails) leaves no broken video behind."""
    timeline = load_demo(DEMO)
    renderer = DemoRenderer(timeline, game_filesystem(str(DEMO), str(QUAKEWORLD), None), (64, 36))
    out = plan_output(str(tmp_path / "x.mp4"), (64, 36))
    times = FrameTimes.for_range(timeline.start_time, timeline.duration, FIRST, FIRST + 1, 1.0, FPS)

    def fail_at_three(done: int) -> None:
        if done == 3:
            raise OSError("simulated")

    try:
        with pytest.raises(OSError, match="simulated"):
            record(renderer, ShotCamera(), times, out, progress=fail_at_three)
    finally:
        renderer.release()
    assert list(tmp_path.iterdir()) == []


class _InterruptedRenderer(DemoRenderer):
    """Ctrl+C arrives while frame ``at`` is being rendered."""

    at = 0

    def draw(self, *args, **kwargs) -> None:
        if self.at == 0:
            raise KeyboardInterrupt
        self.at -= 1
        super().draw(*args, **kwargs)


@pytest.mark.parametrize("at", [0, 5])
def test_ctrl_c_leaves_a_playable_file_or_none(at: int, tmp_path: Path) -> None:
    timeline = load_demo(DEMO)
    renderer = _InterruptedRenderer(timeline, game_filesystem(str(DEMO), str(QUAKEWORLD), None), (64, 36))
    renderer.at = at
    out = plan_output(str(tmp_path / "x.mp4"), (64, 36))
    times = FrameTimes.for_range(timeline.start_time, timeline.duration, FIRST, FIRST + 2, 1.0, FPS)
    try:
        result = record(renderer, ShotCamera(), times, out)
    finally:
        renderer.release()
    assert result.interrupted and result.frames == at and result.total == 2 * FPS
    if at == 0:
        assert result.removed and list(tmp_path.iterdir()) == []
    else:
        assert not result.removed and len(decode(out.path)[0]) == at


def test_sigint_finalises_the_container_and_says_so(tmp_path: Path) -> None:
    out = tmp_path / "long.mp4"
    demo = LQ1 / "demo3.dem"
    total = int(load_demo(demo).duration * 60)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "viewer.cli", "render", str(demo), "--out", str(out),
                             "--size", "320x180", "--fps", "60"], cwd=REPO, env=env, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    shown = b""
    while proc.poll() is None:  # wait until the progress bar shows 30 frames done
        shown += os.read(proc.stderr.fileno(), 4096)
        done = re.findall(rb"(\d+)/%d" % total, shown)
        if done and int(done[-1]) >= 30:
            break
    proc.send_signal(signal.SIGINT)
    err = (shown + proc.stderr.read()).decode()
    proc.wait(timeout=120)
    last = [line for line in err.splitlines() if line.startswith("interrupted:")][-1]  # warnings may follow
    assert proc.returncode == 130, err[-500:]
    assert last.startswith(f"interrupted: {out} is playable with ") and last.endswith(f" of {total} frames")
    written = int(last.split("playable with ")[1].split()[0])
    frames, times, _ = decode(out)
    assert 30 <= len(frames) == written < total
    assert times == pytest.approx([k / 60 for k in range(written)])


class _SlowWriter:
    """A frame writer that presses Ctrl+C (SIGINT to the main thread) while writing its second frame, once the main
    thread is finishing (the end marker is queued), and goes on only when the encoder has started dropping."""

    def __init__(self) -> None:
        self.path = Path("slow.mp4")
        self.frames = 0
        self.closed = False
        self.encoder: BackgroundEncoder | None = None

    def write(self, pixels: np.ndarray, audio: np.ndarray | None = None) -> None:
        self.frames += 1
        if self.frames == 2 and self.encoder is not None:
            _wait_for(lambda: None in list(self.encoder._queue.queue))     # finish() has queued its end marker
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
            _wait_for(self.encoder._dropping.is_set)                       # the main thread got the interrupt

    def close(self) -> None:
        self.closed = True

    def discard(self) -> bool:
        return False


def _wait_for(condition, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the condition never came true")
        time.sleep(0.001)


def test_ctrl_c_while_finalising_drops_the_queue_and_still_closes() -> None:
    writer = _SlowWriter()
    encoder = BackgroundEncoder(writer, depth=8)
    writer.encoder = encoder
    for _ in range(6):
        encoder.put(np.zeros((2, 2, 3), np.uint8))
    assert encoder.finish() is True
    assert writer.closed and writer.frames == 2


@given(first=st.floats(0, 29), length=st.floats(0.01, 30), speed=st.floats(0.1, 10), fps=st.floats(1, 240))
def test_frame_times_step_evenly_inside_the_range(first: float, length: float, speed: float, fps: float) -> None:
    duration = 30.0
    last = min(first + length, duration)
    try:
        times = FrameTimes.for_range(100.0, duration, first, last, speed, fps)
    except RangeError:
        assert (last - first) * fps / speed < 1 + 1e-6
        return
    ts = [times.time(k) for k in range(times.count)]
    assert ts[0] == 100.0 + first and ts[-1] < 100.0 + last + 1e-6
    assert np.allclose(np.diff(ts), speed / fps) if len(ts) > 1 else True
    assert times.count == int((last - first) * fps / speed + 1e-6)
    subs = times.shutter(times.count - 1, 3)
    assert subs[0] == ts[-1] and all(a < b for a, b in itertools.pairwise(subs)) and subs[-1] < ts[-1] + speed / fps / 2
