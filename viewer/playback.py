"""The playback clock: demo time as a pure function of injected ``dt`` (it never reads the wall clock).

Interactive mode passes pyglet's frame ``dt``; exports pass ``1/fps``. Reaching either end pauses playback
instead of quitting, like ezQuake's demo controls.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

MIN_SPEED, MAX_SPEED = 0.1, 10.0


@dataclass(frozen=True, slots=True)
class PlaybackClock:
    """Time ``t`` within ``[start, end]``, a signed ``speed`` (negative plays backwards) and ``paused``."""

    start: float
    end: float
    t: float
    speed: float = 1.0
    paused: bool = False

    @classmethod
    def for_range(cls, start: float, end: float, t: float | None = None) -> PlaybackClock:
        return cls(start, end, start if t is None else min(max(t, start), end))

    def advance(self, dt: float) -> PlaybackClock:
        """Move by ``dt`` seconds of wall time; pauses at either end."""
        if self.paused or dt <= 0:
            return self
        t = self.t + dt * self.speed
        if t >= self.end or t <= self.start:
            return replace(self, t=min(max(t, self.start), self.end), paused=True)
        return replace(self, t=t)

    def seek(self, t: float) -> PlaybackClock:
        return replace(self, t=min(max(t, self.start), self.end))

    def toggle_pause(self) -> PlaybackClock:
        if self.paused and self._at_end_of_travel():
            # Play again from the end that stopped us, as a player expects after the demo ended.
            return replace(self, paused=False, t=self.start if self.speed > 0 else self.end)
        return replace(self, paused=not self.paused)

    def with_speed(self, speed: float) -> PlaybackClock:
        """Set the speed, keeping its sign's magnitude within 0.1×–10×."""
        sign = -1.0 if speed < 0 else 1.0
        return replace(self, speed=sign * min(max(abs(speed), MIN_SPEED), MAX_SPEED))

    def reversed(self) -> PlaybackClock:
        return replace(self, speed=-self.speed)

    def step_frame(self, frame_times: np.ndarray, direction: int) -> PlaybackClock:
        """Pause and move to the next (``+1``) or previous (``-1``) demo frame time."""
        times = np.asarray(frame_times)
        if direction > 0:
            i = int(np.searchsorted(times, self.t, side="right"))
            t = float(times[i]) if i < len(times) else self.end
        else:
            i = int(np.searchsorted(times, self.t, side="left")) - 1
            t = float(times[i]) if i >= 0 else self.start
        return replace(self, t=min(max(t, self.start), self.end), paused=True)

    def _at_end_of_travel(self) -> bool:
        return (self.speed > 0 and self.t >= self.end) or (self.speed < 0 and self.t <= self.start)
