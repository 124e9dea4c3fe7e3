"""The window's sound: the mixer streamed to pyglet's audio driver, in step with the playback clock.

:class:`MixerStream` is a pyglet streaming source whose stream sample ``k`` is the mix at timeline time
``anchor + k · speed / R``: the driver pulls it on its own thread and every pull is mixed there and then (the mixer
is pure, so nothing is precomputed or replayed).  At speeds other than 1× the span is resampled to the pulled
length, so the pitch follows the speed (:mod:`.speed`).

:class:`AudioOutput` is the window's side, called once per frame with the clock: sound plays only while the clock
runs forward at up to :data:`MAX_AUDIBLE_SPEED` and the user is not scrubbing.  Any change of that, of the speed, or
a jump of the clock (a seek) restarts the stream: the anchor becomes the clock's time plus :data:`LEAD` (what the
device takes to play a sample once it has it) and the driver's buffered audio is dropped (``Player.seek``), so
stale sound never plays.  The listener is updated every frame.  ``M`` mutes, ``-`` / ``=`` step the volume.

Without an audio device (pyglet falls back to its silent driver) :func:`open_output` says so once and returns
``None``: the window runs silent; what ALSA and OpenAL print themselves while pyglet opens the driver on import is
silenced (:mod:`.quiet`).  :data:`SOUND_KEYS` are the keys :meth:`AudioOutput.key` takes.
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Callable

import numpy as np

from .quiet import quiet_stderr

with quiet_stderr():                    # importing pyglet.media opens the sound driver: ALSA's and OpenAL's own lines
    from pyglet.media import Player, get_audio_driver
    from pyglet.media.codecs.base import AudioData, AudioFormat, StreamingSource
    from pyglet.media.drivers.silent.adaptation import SilentDriver

from assets_loader.game_map import GameMap
from assets_loader.demos import DemoTimeline, SceneState
from assets_loader.vfs import VirtualFS

from ..render.refdef import SceneFrame
from .listener import Listener
from .mixer import Mixer
from .sounds import SoundBank
from .speed import MAX_AUDIBLE_SPEED, mix_at_speed

#: Seconds the mix runs ahead of the clock: the device's own latency once a sample is handed over.
LEAD = 0.05
#: A clock more than this away from where the stream expects it (a seek, drift) restarts the stream.
RESYNC = 0.1
#: Volume steps of ``-`` / ``=`` (a factor on the mixer's output).
VOLUME_STEP = 0.1
MAX_VOLUME = 2.0
#: Keys (``pyglet.window.key.symbol_string``) for mute and volume.
SOUND_KEYS = ("M", "MINUS", "EQUAL")
_FRAME_BYTES = 4    # stereo int16


class MixerStream(StreamingSource):
    """An endless stereo 16-bit stream of ``mixer``'s output (see the module docstring); silent when inactive."""

    def __init__(self, mixer: Mixer) -> None:
        # pyglet's Source declares audio_format as None at class level.
        self.audio_format = AudioFormat(channels=2, sample_size=16, sample_rate=mixer.rate)  # type: ignore[assignment]
        self._rate = mixer.rate
        self.video_format = None
        self._mixer = mixer
        self._lock = threading.Lock()
        self._anchor = 0
        self._speed = 1.0
        self._active = False
        self._listener: Listener | None = None
        self._next = 0          # stream sample of the next pull
        self.gain = 1.0

    def is_precise(self) -> bool:
        return True

    def seek(self, timestamp: float) -> None:
        with self._lock:
            self._next = round(timestamp * self._rate)

    def set_anchor(self, t: float, speed: float, active: bool) -> None:
        """Stream sample 0 plays timeline time ``t`` (snapped to the output grid) at ``speed``; inactive: silence."""
        rate = self._rate
        with self._lock:
            self._anchor = int(np.floor(t * rate + 0.5))
            self._speed = speed
            self._active = active

    def set_listener(self, listener: Listener | None) -> None:
        with self._lock:
            self._listener = listener

    def get_audio_data(self, num_bytes: int, compensation_time: float = 0.0) -> AudioData:
        frames = max(int(num_bytes) // _FRAME_BYTES, 1)
        with self._lock:
            first, self._next = self._next, self._next + frames
            anchor, speed, active, listener, gain = self._anchor, self._speed, self._active, self._listener, self.gain
        out = np.zeros((frames, 2), np.int16)
        if active and listener is not None and gain > 0:
            out = self.render(anchor, speed, first, frames, listener, gain)
        data = out.tobytes()
        return AudioData(data, len(data))

    def render(self, anchor: int, speed: float, first: int, frames: int, listener: Listener,
               gain: float) -> np.ndarray:
        """Stream samples ``first .. first + frames - 1`` as int16 [frames, 2]."""
        mixed = mix_at_speed(self._mixer, anchor, speed, first, frames, listener)
        if gain != 1.0:
            mixed = np.clip(mixed * gain, -32768, 32767)
        return np.ascontiguousarray(mixed, np.int16)


def audible(speed: float, paused: bool, scrubbing: bool) -> bool:
    """Whether sound plays: the clock runs forward at up to :data:`MAX_AUDIBLE_SPEED` and nobody is scrubbing."""
    return not paused and not scrubbing and 0.0 < speed <= MAX_AUDIBLE_SPEED


class AudioOutput:
    """Keeps a :class:`MixerStream` on ``player`` in step with the clock (call :meth:`update` every frame)."""

    def __init__(self, mixer: Mixer, player: Player, clock: Callable[[], float] = time.perf_counter) -> None:
        self.stream = MixerStream(mixer)
        self.player = player
        self.clock = clock
        self.muted = False
        self.volume = 1.0
        self._state: tuple[bool, float] = (False, 0.0)    # (audible, speed) since the last restart
        self._anchor = (0.0, 0.0)                         # (clock time, wall time) of the last restart
        player.queue(self.stream)
        self.restarts = 0

    def update(self, t: float, speed: float, paused: bool, scrubbing: bool, listener: Listener | None) -> None:
        """One frame: clock time ``t`` at ``speed``; restart the stream when needed (module docstring)."""
        self.stream.set_listener(listener)
        state = (audible(speed, paused, scrubbing), speed)
        now = self.clock()
        expected = self._anchor[0] + (now - self._anchor[1]) * speed
        if state != self._state or (state[0] and abs(t - expected) > RESYNC):
            self._restart(t, speed, state[0], now)
            self._state = state

    def _restart(self, t: float, speed: float, on: bool, now: float) -> None:
        self.restarts += 1
        self._anchor = (t, now)
        self.stream.set_anchor(t + LEAD * speed, speed, on)
        self.player.seek(0.0)           # drops what the driver buffered
        if on and not self.player.playing:
            self.player.play()
        elif not on and self.player.playing:
            self.player.pause()

    def key(self, name: str) -> str | None:
        """``M`` mute, ``MINUS`` / ``EQUAL`` volume: the message to show, or ``None`` for other keys."""
        if name == "M":
            self.muted = not self.muted
        elif name == "MINUS":
            self.volume = max(round(self.volume - VOLUME_STEP, 2), 0.0)
        elif name == "EQUAL":
            self.volume = min(round(self.volume + VOLUME_STEP, 2), MAX_VOLUME)
        else:
            return None
        self.stream.gain = 0.0 if self.muted else self.volume
        return "sound muted" if self.muted else f"volume {round(self.volume * 100)}%"

    def close(self) -> None:
        self.player.pause()
        self.player.delete()


def listener_for(frame: SceneFrame | None, state: SceneState | None, free_camera: bool) -> Listener | None:
    """The ears of a drawn frame: its camera; the view entity's own sounds (from the demo ``state`` the frame was
    built from) unspatialised unless the camera is free."""
    if frame is None:
        return None
    entity = None if free_camera or state is None else state.view_entity
    return Listener.from_camera(frame.camera, entity)


def open_output(timeline: DemoTimeline, fs: VirtualFS, maps: Callable[[int], GameMap | None],
                say: Callable[[str], None]) -> AudioOutput | None:
    """Sound for the window: an :class:`AudioOutput` on a new pyglet player (sounds that fail to load are reported
    through ``say``), or ``None`` after one message when there is no audio device."""
    driver = get_audio_driver()
    if driver is None or isinstance(driver, SilentDriver):
        say("no audio device: playing without sound")
        return None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mixer = Mixer(timeline, SoundBank(fs), maps)
    for w in caught:
        say(f"warning: {w.message}")
    return AudioOutput(mixer, Player())
