"""The sounds a mix needs, loaded once from the game filesystem and resampled to the output rate.

A precache name ``"weapons/rocket1i.wav"`` is read from ``sound/weapons/rocket1i.wav`` (``S_LoadSound``) and
resampled with linear interpolation to :data:`OUTPUT_RATE`; the length and loop start scale like ``ResampleSfx``
scales them (truncated).  A sound that is missing or cannot be decoded is skipped: one warning names it, later uses
are silent.  A Quake III player model's sound missing from the game files plays the default model's instead
(:func:`player_sound_fallback`, ``CG_LoadClientInfo``).

References: QuakeSpasm ``snd_mem.c`` (``S_LoadSound``, ``ResampleSfx``); ioquake3 ``code/cgame/cg_players.c``
(``CG_LoadClientInfo``).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from assets_loader.errors import FormatError, NotFoundError
from assets_loader.vfs import VirtualFS
from assets_loader.wav import WaveSound, load_wav

#: Samples per second of every mix (one stereo frame per sample).
OUTPUT_RATE = 48000


@dataclass(frozen=True, slots=True)
class MixSound:
    """A sound ready to mix: ``samples`` f4 [N] at the output rate (int16 scale), ``loop_start`` (``None``: plays
    once) and ``width`` (1 for 8-bit files: the engine clamps their per-side volume at 255)."""

    name: str
    samples: np.ndarray = field(repr=False)
    loop_start: int | None
    width: int

    def __len__(self) -> int:
        return len(self.samples)


def resample(sound: WaveSound, rate: int = OUTPUT_RATE) -> MixSound:
    """``sound`` at ``rate``: linear interpolation, ``ResampleSfx``'s length and loop start scaling."""
    step = sound.rate / rate
    count = max(int(sound.num_samples / step), 1)
    src = sound.samples.astype(np.float32)
    if sound.rate == rate:
        out = src
    else:
        out = np.interp(np.arange(count) * step, np.arange(len(src)), src).astype(np.float32)
    loop = None if sound.loop_start is None else min(int(sound.loop_start / step), count - 1)
    return MixSound(sound.name, out, loop, sound.width)


def player_sound_fallback(name: str, default_model: str) -> str | None:
    """The default model's sound for a player model's ``player/MODEL/FILE`` (``CG_LoadClientInfo``), ``None`` for
    other names, the default model's own, or without a default model."""
    parts = name.split("/")
    if not default_model or len(parts) != 3 or parts[0].lower() != "player" or parts[1].lower() in (
            default_model, "footsteps"):
        return None
    return f"player/{default_model}/{parts[2]}"


class SoundBank:
    """Sounds by precache name from ``files`` (a :class:`VirtualFS`, or a mapping of ``"sound/…"`` paths to bytes),
    loaded on first use and kept."""

    def __init__(self, files: VirtualFS | Mapping[str, bytes], rate: int = OUTPUT_RATE) -> None:
        self.files = files
        self.rate = rate
        self._loaded: dict[str, MixSound | None] = {}

    def get(self, name: str, fallback: str | None = None) -> MixSound | None:
        """The sound, else the ``fallback`` sound when ``name`` is missing, or ``None`` (with one warning the first
        time) if neither can be read."""
        if name in self._loaded:
            return self._loaded[name]
        sound = None
        if name:
            path = "sound/" + name
            try:
                sound = resample(load_wav(self._read(path), path), self.rate)
            except NotFoundError as error:
                sound = self.get(fallback) if fallback else None
                if sound is None and not fallback:
                    warnings.warn(f"sound {name} skipped: {error}", stacklevel=2)
            except FormatError as error:
                warnings.warn(f"sound {name} skipped: {error}", stacklevel=2)
        self._loaded[name] = sound
        return sound

    def _read(self, path: str) -> bytes:
        if isinstance(self.files, VirtualFS):
            return self.files.read(path)
        for key, data in self.files.items():
            if key.lower() == path.lower():
                return data
        raise NotFoundError(path, "game file", None, "the file in the sound set")
