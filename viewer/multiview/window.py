"""The window's multiview state, pure: how many panes in which layout, the selected pane, and the camera of each
pane (:class:`PaneCamera`: the part of :class:`~viewer.viewer_state.ViewerState` that Tab, R, F, C, V and the mouse
change).

The selected pane's camera lives in the viewer state's own fields, so every camera key acts on it unchanged;
selecting another pane (a left click on it) stores those fields in :attr:`Panes.cameras` and loads the other
pane's. G steps through :data:`~.layout.LAYOUT_CYCLE`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..camera_path import CameraPath
from ..camera_pose import ShotCamera, Vec3
from ..cameras import FreeFly, Orbit
from .layout import MAX_PANES
from .panes import MultiShot, pane_shots


@dataclass(frozen=True, slots=True)
class PaneCamera:
    """One pane's camera: ``mode`` (pov, free, chase, orbit, path) watching player slot ``pov_slot`` (``None``: the
    demo's own view), the ``free`` camera's pose (``None``: settled from the pane's eye at its next picture), the
    ``orbit`` and the entity it follows, the chase distance, and the orbit target held while the followed entity is
    out of the frame."""

    mode: str = "pov"
    pov_slot: int | None = None
    free: FreeFly | None = None
    orbit: Orbit = Orbit()
    follow: int | None = None
    chase_back: float = 100.0
    last_target: Vec3 | None = None

    def shot(self, fov: float, path: CameraPath | None = None) -> ShotCamera:
        """This camera as a :class:`~viewer.camera_pose.ShotCamera` (what is drawn and exported): the free camera
        where it is, the chase camera at its distance, the orbit around the followed entity at its yaw, pitch and
        distance, ``path`` (the camera path being edited) in the path mode, else the watched player's eyes."""
        if self.mode == "free" and self.free is not None:
            return ShotCamera("free", self.pov_slot, fov, self.free.origin, self.free.angles)
        if self.mode == "chase":
            return ShotCamera("chase", self.pov_slot, fov, chase_back=self.chase_back)
        if self.mode == "orbit":
            orbit = self.orbit
            return ShotCamera("orbit", self.pov_slot, fov, angles=(orbit.pitch, orbit.yaw, 0.0),
                              orbit_distance=orbit.distance, follow=self.follow)
        if self.mode == "path" and path is not None and path.keys:
            return ShotCamera("path", self.pov_slot, fov, path=path)
        return ShotCamera("pov", self.pov_slot, fov)

    @classmethod
    def of_shot(cls, shot: ShotCamera) -> PaneCamera:
        """The pane camera of ``shot`` (``--panes``, the defaults): an orbit without angles starts as the window's
        default orbit, a free camera without a pose at the pane's eye."""
        free = FreeFly(shot.origin, shot.angles) if shot.origin is not None and shot.angles is not None else None
        orbit = Orbit(shot.angles[1], shot.angles[0], shot.orbit_distance) if shot.angles is not None else Orbit()
        return cls(shot.mode, shot.pov, free, orbit, shot.follow, shot.chase_back)


@dataclass
class Panes:
    """The window's panes: ``count`` of them in ``layout``, pane ``selected`` chosen (the camera keys act on it),
    ``cameras`` of all :data:`~.layout.MAX_PANES` (the selected one's entry is stale while it is selected: its
    camera is the viewer state's)."""

    count: int = 1
    layout: str = "split"
    selected: int = 0
    cameras: list[PaneCamera] = field(default_factory=list)

    @classmethod
    def of(cls, players: tuple[int | None, ...], multi: MultiShot | None = None, fov: float = 90.0) -> Panes:
        """One pane (``multi`` ``None``) or ``multi``'s panes; the panes G adds watch the default players
        (:func:`~.panes.pane_shots` of ``players``)."""
        shots = list(pane_shots(players, MAX_PANES, fov))
        if multi is None:
            return cls(cameras=[PaneCamera.of_shot(s) for s in shots])
        shots[:len(multi.shots)] = multi.shots
        return cls(len(multi.shots), multi.layout, 0, [PaneCamera.of_shot(s) for s in shots])

    @property
    def multi(self) -> bool:
        return self.count > 1
