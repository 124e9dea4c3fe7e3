"""The fixed time step of an exported video: frame ``k`` shows demo time ``from + k × speed / fps``.

Times never depend on how long rendering takes, so two exports of the same range are identical. With motion blur
each output frame averages ``samples`` sub-frames spread over the time the shutter is open: a 180° shutter is open
for half of a frame's interval, starting at the frame's own time (sub-frame 0 is the sharp frame).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: The film camera's default shutter angle as a fraction of the frame interval (180°).
DEFAULT_SHUTTER = 0.5
#: Most frames one export makes: 4.6 hours at 60 fps (a real demo is minutes; a million stills is a choice).
MAX_FRAMES = 1_000_000
#: Slack for ``duration × fps`` landing a rounding error below a whole number of frames.
_FRAME_EPSILON = 1e-6


class RangeError(ValueError):
    """A ``--from``/``--to`` range that lies outside the demo or holds no frame."""


@dataclass(frozen=True, slots=True)
class FrameTimes:
    """Output frame times: ``origin`` is the demo's first time, ``first`` the range start in seconds after it.

    ``time(k)`` is ``origin + (first + k × speed / fps)``, computed in that order so that it equals the time
    ``qdv screenshot --time first+k×speed/fps`` renders.
    """

    origin: float
    first: float
    speed: float
    fps: float
    count: int

    @classmethod
    def for_range(cls, origin: float, duration: float, first: float, last: float, speed: float,
                  fps: float) -> FrameTimes:
        """The frames covering ``first ≤ t < last`` (seconds after ``origin``) of a demo lasting ``duration``."""
        if not 0 <= first < duration:
            raise RangeError(f"--from {first:.3f} s lies outside the demo (0 .. {duration:.3f} s)")
        if not first < last <= duration + _FRAME_EPSILON:
            raise RangeError(f"--to {last:.3f} s must lie after --from ({first:.3f} s) and within the demo "
                             f"(0 .. {duration:.3f} s)")
        frames = (last - first) * fps / speed
        if not frames <= MAX_FRAMES:  # also inf: a speed of 1e-320, or a demo whose clock jumps by years
            raise RangeError(f"--from {first:.3f} s --to {last:.3f} s at {fps:g} fps and speed {speed:g} makes "
                             f"{frames:.3g} frames; at most {MAX_FRAMES} (choose a shorter range or a higher speed)")
        count = math.floor(frames + _FRAME_EPSILON)
        if count < 1:
            raise RangeError(f"--from {first:.3f} s --to {last:.3f} s is shorter than one frame at {fps:g} fps "
                             f"and speed {speed:g}")
        return cls(origin, first, speed, fps, count)

    @property
    def step(self) -> float:
        """Demo seconds between two output frames."""
        return self.speed / self.fps

    def time(self, k: int) -> float:
        """The demo time output frame ``k`` shows."""
        return self.origin + (self.first + k * self.speed / self.fps)

    def shutter(self, k: int, samples: int, shutter: float = DEFAULT_SHUTTER) -> tuple[float, ...]:
        """The demo times of the ``samples`` sub-frames averaged into frame ``k``: evenly spaced over the
        ``shutter`` fraction of the frame interval, the first one at :meth:`time` ``(k)``."""
        if samples <= 1:
            return (self.time(k),)
        start = self.first + k * self.speed / self.fps
        open_for = shutter * self.speed / self.fps
        return tuple(self.origin + (start + i * open_for / samples) for i in range(samples))
