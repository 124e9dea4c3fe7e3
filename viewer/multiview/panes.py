"""Who each pane of a multiview watches by default: pane ``i`` the ``i``-th player Tab cycles through (the
timeline's :attr:`~assets_loader.demos.DemoTimeline.pov_slots`: MVD players, Quake III players, and the eyes
derived from the entities of NetQuake and Quake II players); with fewer players than panes, the panes after
them watch the same players again from the chase camera, then the orbit, then a free camera settled at their eye.
"""

from __future__ import annotations

from dataclasses import dataclass

from assets_loader.demos import DemoTimeline
from assets_loader.demos.entity_eyes import exact_recorder

from ..camera_pose import ShotCamera

#: The camera of each round of players over the panes: their eyes, then behind them, around them, free at them.
ROUND_MODES = ("pov", "chase", "orbit", "free")


def watchable(pov_slots: tuple[int, ...], recorder: int = -1) -> tuple[int | None, ...]:
    """The players the panes watch, in Tab's order: their slots (``None`` for the ``recorder`` slot, whose own view
    is the demo's exact eye: :func:`~assets_loader.demos.entity_eyes.exact_recorder`), or ``(None,)`` for a demo
    with only the recorder's view."""
    slots = tuple(None if slot == recorder else slot for slot in pov_slots)
    return slots or (None,)


def default_shots(timeline: DemoTimeline, count: int, fov: float = 90.0) -> tuple[ShotCamera, ...]:
    """The cameras of ``count`` panes of ``timeline`` (:func:`pane_shots` of its players)."""
    return pane_shots(watchable(timeline.pov_slots, exact_recorder(timeline)), count, fov)


def pane_shots(players: tuple[int | None, ...], count: int, fov: float = 90.0) -> tuple[ShotCamera, ...]:
    """The cameras of ``count`` panes: pane ``i`` watches ``players[i mod len]`` with the camera of round
    ``i // len`` (:data:`ROUND_MODES`); orbit and free cameras are left to settle at the first picture."""
    return tuple(ShotCamera(ROUND_MODES[min(i // len(players), len(ROUND_MODES) - 1)], players[i % len(players)], fov)
                 for i in range(count))


@dataclass(frozen=True, slots=True)
class MultiShot:
    """A multiview picture as ``qdv screenshot``/``qdv render`` and the window's Ctrl+E draw it: the camera of each
    pane, their ``layout`` (:data:`~.layout.LAYOUTS`), and the pane whose camera the sound is heard from."""

    shots: tuple[ShotCamera, ...]
    layout: str = "split"
    heard: int = 0

    @property
    def mode(self) -> str:
        """How an export names its camera: ``multiview 4 split``."""
        return f"multiview {len(self.shots)} {self.layout}"
