"""The sound of an export: output frame ``k``'s share of the mix, heard from the export's camera at that frame.

Output frame ``k`` covers output samples ``round(k·R/fps) .. round((k+1)·R/fps) - 1`` (R = 48 kHz), so the audio
never drifts from the frames. Output sample ``n`` plays demo time ``from + n · speed / R``, through the same
speed rule as the window (:mod:`viewer.audio.speed`: the pitch follows the speed up to 2×, silent beyond).

The listener for a frame is its camera: in POV the player's eye, with the player's own sounds unspatialised (as in
the window); a free or path camera places every sound.

MP4 and MOV get AAC, Matroska and WebM Opus; numbered PNGs get no sound.

References: QuakeSpasm ``snd_dma.c`` ``S_Update`` (the listener is the view each frame); FFmpeg encoders ``aac``
and ``libopus``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np

from assets_loader.game_map import GameMap
from assets_loader.demos import DemoTimeline
from assets_loader.vfs import VirtualFS

from ..audio import OUTPUT_RATE, Listener, Mixer, SoundBank
from ..audio.speed import mix_at_speed
from .timing import FrameTimes

#: Container → FFmpeg audio encoder (``None``: the container gets no sound).
AUDIO_CODECS: dict[str, str | None] = {"mp4": "aac", "mov": "aac", "matroska": "libopus", "webm": "libopus",
                                       "png": None}
#: Bits per second of the audio stream.
AUDIO_BIT_RATE = 192_000


class FrameSound:
    """The samples of each output frame of ``times``, mixed by ``mixer``."""

    def __init__(self, mixer: Mixer, times: FrameTimes) -> None:
        self.mixer = mixer
        self.times = times
        self.rate = mixer.rate
        #: The mixer's grid sample of output sample 0 (the range start).
        self.anchor = int(np.floor((times.origin + times.first) * self.rate + 0.5))

    def span(self, k: int) -> tuple[int, int]:
        """Output samples ``[a, b)`` of frame ``k``."""
        fps = self.times.fps
        return round(k * self.rate / fps), round((k + 1) * self.rate / fps)

    def samples(self, k: int, listener: Listener) -> np.ndarray:
        """Frame ``k``'s sound as int16 [n, 2] heard by ``listener``."""
        a, b = self.span(k)
        mixed = mix_at_speed(self.mixer, self.anchor, self.times.speed, a, b - a, listener)
        return np.ascontiguousarray(mixed, np.int16)


def export_mixer(timeline: DemoTimeline, fs: VirtualFS, maps: Callable[[int], GameMap | None]) -> Mixer:
    """The mixer of an export; sounds missing from the game files are skipped with one warning naming them."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mixer = Mixer(timeline, SoundBank(fs, OUTPUT_RATE), maps)
    skipped = [str(w.message) for w in caught if str(w.message).startswith("sound ")]
    for w in caught:
        if not str(w.message).startswith("sound "):
            warnings.warn(str(w.message), stacklevel=2)
    if skipped:
        names = [m.split(" ", 2)[1] for m in skipped]
        warnings.warn(f"{len(names)} sound(s) missing or unreadable, exported silent: {', '.join(names)}",
                      stacklevel=2)
    return mixer
