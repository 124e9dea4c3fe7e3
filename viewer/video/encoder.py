"""Writing exported frames: a PyAV container or numbered PNGs, fed from a background thread.

The render loop hands each ``uint8 [H, W, 3]`` RGB or ``[H, W, 4]`` RGBA frame (with its int16 stereo sound, if
any) to :class:`BackgroundEncoder`, whose bounded queue lets rendering run ahead of encoding by a few frames while
holding at most ``depth`` frames in memory. All PyAV calls, and the one copy of each picture (which also undoes
GL's bottom-up row order, handed over as a flipped view), happen on the encoder thread. An encoder or disk error
stops the thread; it is raised in the render loop as :class:`EncodeError` naming the path at the next frame handed
over (or at :meth:`BackgroundEncoder.finish`).

References: PyAV ``av.open``, ``OutputContainer.add_stream``, ``VideoFrame.planes``, ``VideoFrame.reformat``
(rgb24/rgba to the stream's ``pix_fmt`` with swscale), ``AudioFrame.from_ndarray``,
``AudioStream.encode`` (which re-chunks and converts s16 to the encoder's frame size and sample format).
"""

from __future__ import annotations

import queue
import threading
import time
from fractions import Fraction
from pathlib import Path
from typing import Protocol

import av
import numpy as np
from av.video.reformatter import Colorspace, Interpolation

from ..export import ExportError, write_png
from ..file_writes import open_new
from .output import Output
from .soundtrack import AUDIO_BIT_RATE, AUDIO_CODECS

#: ``AVCOL_SPC_BT709`` = ``AVCOL_PRI_BT709`` = ``AVCOL_TRC_BT709``, and ``AVCOL_RANGE_MPEG`` (16..235).
BT709 = 1
LIMITED_RANGE = 1


class EncodeError(OSError):
    """The encoder or the disk failed while writing the export."""


class FrameWriter(Protocol):
    """Where frames go, in order; ``frames`` counts those handed over so far."""

    path: Path
    frames: int

    def write(self, pixels: np.ndarray, audio: np.ndarray | None = None) -> None: ...

    def close(self) -> None: ...

    def discard(self) -> bool:
        """Drop a failed or empty export; True when a partial file was removed."""
        ...


def _video_frame(pixels: np.ndarray) -> av.VideoFrame:
    """``uint8 [H, W, 3 or 4]`` RGB(A), any strides (a flipped view too), copied once into a new frame's plane."""
    h, w, channels = pixels.shape
    frame = av.VideoFrame(w, h, "rgba" if channels == 4 else "rgb24")
    plane = frame.planes[0]
    rows = np.frombuffer(memoryview(plane), np.uint8).reshape(h, plane.line_size)
    rows[:, :w * channels].reshape(h, w, channels)[...] = pixels
    return frame


class VideoWriter:
    """One video stream in a PyAV container at ``output.path``; frame ``k`` gets ``pts = k`` in a ``1/fps`` time
    base. YUV streams are converted with BT.709 coefficients in limited range and tagged so (what players assume for
    HD video when nothing is said, and swscale's BT.601 default would shift the colours); the 4:2:0 chroma is the
    mean of each 2x2 block (swscale's ``AREA``: 1.5 ms a 1280x720 frame against 2.1 with PyAV's default filter).

    With ``audio_rate``, an audio stream (the container's codec, :data:`~.soundtrack.AUDIO_CODECS`) takes the
    int16 stereo samples handed over with each frame, back to back from ``pts = 0``."""

    def __init__(self, output: Output, size: tuple[int, int], fps: Fraction, audio_rate: int | None = None) -> None:
        self.path = output.path
        self.frames = 0
        self.audio_samples = 0
        self.audio: av.AudioStream | None = None
        try:  # claimed now, so a file appearing since the check is never replaced, nor a link followed
            self.file = open_new(self.path, output.force)
        except FileExistsError:
            raise ExportError(f"{self.path}: already exists (use --force to overwrite)") from None
        except OSError as exc:
            raise ExportError(f"{self.path}: cannot write: {exc.strerror or exc}") from None
        try:
            self.container = av.open(self.file, mode="w", format=output.container)
            stream = self.container.add_stream(output.codec.encoder, rate=fps)
            assert isinstance(stream, av.VideoStream)
            stream.width, stream.height = size
            stream.pix_fmt = output.codec.pix_fmt
            stream.options = dict(output.encoder_options())
            self.yuv = output.codec.pix_fmt.startswith("yuv")
            if self.yuv:
                context = stream.codec_context
                context.colorspace = context.color_primaries = context.color_trc = BT709
                context.color_range = LIMITED_RANGE
            self.stream = stream
            audio_codec = AUDIO_CODECS.get(output.container)
            if audio_rate is not None and audio_codec is not None:
                audio = self.container.add_stream(audio_codec, rate=audio_rate)
                assert isinstance(audio, av.AudioStream)
                audio.layout = "stereo"
                audio.bit_rate = AUDIO_BIT_RATE
                self.audio = audio
        except (av.FFmpegError, OSError, ValueError) as exc:  # ValueError: PyAV refuses the codec/container pair
            self.discard()
            raise EncodeError(f"{self.path}: cannot start the {output.codec.name} encoder: {exc}") from exc

    def write(self, pixels: np.ndarray, audio: np.ndarray | None = None) -> None:
        frame = _video_frame(pixels)
        if self.yuv:
            frame = frame.reformat(format=self.stream.pix_fmt, dst_colorspace=Colorspace.ITU709,
                                   interpolation=Interpolation.AREA)
        frame.pts = self.frames
        self.container.mux(self.stream.encode(frame))
        self.frames += 1
        if self.audio is not None and audio is not None and len(audio):
            sound = av.AudioFrame.from_ndarray(audio.reshape(1, -1), format="s16", layout="stereo")
            sound.sample_rate = self.audio.rate
            sound.pts = self.audio_samples
            sound.time_base = Fraction(1, self.audio.rate)
            self.container.mux(self.audio.encode(sound))
            self.audio_samples += len(audio)

    def close(self) -> None:
        """Flush the encoders and finalise the container (the file is then playable)."""
        self.container.mux(self.stream.encode(None))
        if self.audio is not None:
            self.container.mux(self.audio.encode(None))
        self.container.close()
        self.file.close()

    def discard(self) -> bool:
        container = getattr(self, "container", None)
        if container is not None:
            try:
                container.close()
            except (av.FFmpegError, OSError):
                pass  # the file is removed below; its trailer no longer matters
        file = getattr(self, "file", None)
        if file is not None:
            try:
                file.close()
            except OSError:
                pass  # the same
        if self.path.is_file():  # never a device or pipe given with --force (e.g. /dev/full)
            self.path.unlink()
            return True
        return False


class PngSequenceWriter:
    """Frame ``k`` → ``output.frame_path(k)``; every file is complete once written, so nothing is removed."""

    def __init__(self, output: Output) -> None:
        self.output = output
        self.path = output.path
        self.frames = 0

    def write(self, pixels: np.ndarray, audio: np.ndarray | None = None) -> None:
        """Write frame ``pixels``; numbered PNGs carry no sound, ``audio`` is dropped."""
        write_png(self.output.frame_path(self.frames), np.ascontiguousarray(pixels[..., :3]), force=self.output.force)
        self.frames += 1

    def close(self) -> None:
        pass  # each PNG was closed when written

    def discard(self) -> bool:
        return False


def open_writer(output: Output, size: tuple[int, int], fps: Fraction, audio_rate: int | None = None) -> FrameWriter:
    """The writer for ``output``: numbered PNGs or a video container (with sound at ``audio_rate`` if given)."""
    if output.is_sequence:
        return PngSequenceWriter(output)
    return VideoWriter(output, size, fps, audio_rate)


class BackgroundEncoder:
    """Runs ``writer`` on its own thread behind a queue of at most ``depth`` frames.

    ``encode_seconds`` is the time the thread spent inside the writer (converting, encoding, writing). Once
    ``dropping`` is set, frames still queued are skipped; the output is finalised all the same unless the writer
    failed.
    """

    def __init__(self, writer: FrameWriter, depth: int = 4) -> None:
        self.writer = writer
        self.encode_seconds = 0.0
        self._queue: queue.Queue[tuple[np.ndarray, np.ndarray | None] | None] = queue.Queue(maxsize=depth)
        self._error: BaseException | None = None
        self._dropping = threading.Event()
        self._done = threading.Event()  # waited on instead of join(): a join interrupted by Ctrl+C can end early
        self._thread = threading.Thread(target=self._run, name="qdv-encoder", daemon=True)
        self._thread.start()

    def _fail(self, exc: BaseException) -> None:
        if isinstance(exc, (av.FFmpegError, OSError)) and not isinstance(exc, ExportError):
            self._error = EncodeError(f"{self.writer.path}: cannot write: {exc}")
            self._error.__cause__ = exc
        else:
            self._error = exc

    def _run(self) -> None:
        try:
            self._encode_all()
        finally:
            self._done.set()

    def _encode_all(self) -> None:
        while (item := self._queue.get()) is not None:
            if self._error is None and not self._dropping.is_set():  # else drain, so put() never blocks
                start = time.perf_counter()
                try:
                    self.writer.write(*item)
                except BaseException as exc:  # noqa: BLE001 - every error goes to the render loop via put()
                    self._fail(exc)
                self.encode_seconds += time.perf_counter() - start
        if self._error is None:
            try:
                self.writer.close()
            except BaseException as exc:  # noqa: BLE001 - raised in the render loop by finish()
                self._fail(exc)

    def put(self, pixels: np.ndarray, audio: np.ndarray | None = None) -> None:
        """Queue one frame and its sound (waits while the queue is full); raises the writer's error if it has
        failed."""
        if self._error is not None:
            raise self._error
        self._queue.put((pixels, audio))

    def finish(self) -> bool:
        """Write what is queued, finalise the output and stop the thread; raises the writer's error, if any.

        Ctrl+C while waiting drops the frames still queued and waits for the output to be finalised (the encoder
        cannot be stopped in the middle of a frame); the result is then True."""
        interrupted = False
        end_queued = False
        while not self._done.is_set():
            try:
                if not end_queued:      # inside the try: Ctrl+C may come while the full queue makes put() wait
                    self._queue.put(None)
                    end_queued = True
                self._done.wait(0.1)    # a timeout, so a Ctrl+C that lands just before the wait is seen at once
            except KeyboardInterrupt:
                self._dropping.set()
                interrupted = True
        self._thread.join()
        if self._error is not None:
            raise self._error
        return interrupted

    def cancel(self) -> None:
        """Stop after the frame being written, skipping the queued ones (the export is being discarded)."""
        self._dropping.set()
        if not self._done.is_set():
            self._queue.put(None)
            self._done.wait()
        self._thread.join()
