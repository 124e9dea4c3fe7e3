"""Sound at playback speeds other than 1×: a span of the mix resampled to the length it plays in, so the pitch
follows the speed, up to :data:`MAX_AUDIBLE_SPEED` (faster is silent).  Shared by the window and ``qdv render``.

Output sample ``k`` after ``anchor`` (a sample on the mixer's absolute grid) plays timeline time
``anchor / R + k · speed / R``.
"""

from __future__ import annotations

import numpy as np

from .listener import ListenerPath
from .mixer import Mixer

#: Sound plays at speeds above 0 up to this (the pitch rises with the speed); faster is silent.
MAX_AUDIBLE_SPEED = 2.0


def mix_at_speed(mixer: Mixer, anchor: int, speed: float, first: int, frames: int,
                 listener: ListenerPath) -> np.ndarray:
    """Output samples ``first .. first + frames - 1`` after ``anchor`` at ``speed`` as float [frames, 2] (int16
    scale); silence beyond :data:`MAX_AUDIBLE_SPEED`."""
    if not 0.0 < speed <= MAX_AUDIBLE_SPEED:
        return np.zeros((frames, 2))
    rate = mixer.rate
    if speed == 1.0:
        mixed = mixer.mix((anchor + first) / rate, (anchor + first + frames) / rate, listener).astype(np.float64)
    else:
        t0 = anchor / rate + first * speed / rate
        mixed = mixer.mix(t0, t0 + frames * speed / rate, listener).astype(np.float64)
        if len(mixed) != frames and len(mixed):
            x = np.linspace(0.0, len(mixed) - 1, frames)
            src = np.arange(len(mixed))
            mixed = np.stack([np.interp(x, src, mixed[:, c]) for c in (0, 1)], axis=1)
    mixed = mixed[:frames]
    if len(mixed) < frames:
        mixed = np.concatenate([mixed, np.zeros((frames - len(mixed), 2))])
    return mixed
