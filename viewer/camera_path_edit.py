"""Editing a camera path in the window, as values: add a key from the current camera, replace its pose, delete it,
move it in time, select it, aim it at an entity, and choose the file ``Ctrl+S`` writes. No window, no GPU.

Every edit returns the new :class:`PathEdit` and the sentence the window shows for it ("camera key 2 of 3 added at
0:12.3"), so what the user is told is tested with what happened. Key times are seconds from the demo's start, the
base of :mod:`viewer.camera_path` and the timeline bar.

Saving never overwrites a file this path does not own: a path owns the file it was loaded from (``--camera-path``,
or ``NAME.camera.json`` found beside the demo) or saved to in this session; any other file already at
``NAME.camera.json`` makes the save go to the first free ``NAME.camera-N.json`` instead (:func:`save_target`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from assets_loader.errors import FormatError

from .camera_path import CameraKey, CameraPath, Vec3, keys_outside, load_path, path_file_for
from .render.refdef import Camera
from .render.view_math import angle_vectors
from .ui.timeline_bar import format_time

#: A player counts as "in the middle of the view" (Ctrl+K in the free camera) within this angle of the view axis.
CENTRE_CONE_DEGREES = 30.0
#: Two keys closer in time than this are the same moment (a move onto another key is refused).
SAME_TIME = 1e-3


@dataclass(frozen=True, slots=True)
class PathEdit:
    """The path being edited: ``path``, the ``selected`` key's index (``None``: none), ``file``, the file this path
    owns (loaded from or saved to in this session; ``None``: not yet saved) and ``kept``, the path as it was last
    loaded or saved (what is on disk)."""

    path: CameraPath = CameraPath()
    selected: int | None = None
    file: str | None = None
    kept: CameraPath = CameraPath()

    @classmethod
    def loaded(cls, path: CameraPath, file: str | None) -> PathEdit:
        """A path just read from ``file``: nothing to save yet."""
        return cls(path, file=file, kept=path)

    @property
    def unsaved(self) -> bool:
        """The keys differ from what was last loaded or saved."""
        return self.path != self.kept

    @property
    def key(self) -> CameraKey | None:
        """The selected key."""
        return self.path.keys[self.selected] if self.selected is not None else None

    def describe(self, index: int) -> str:
        """``camera key N at M:SS.s`` for key ``index`` (counted from 1 for the user)."""
        return f"camera key {index + 1} at {format_time(self.path.keys[index].time)}"

    def add(self, time: float, camera: Camera) -> tuple[PathEdit, str]:
        """A key at ``time`` with ``camera``'s pose (a key already at that time is replaced), selected."""
        path = self.path.with_key(CameraKey(float(time), _vec(camera.origin), _vec(camera.angles), float(camera.fov)))
        index = _index_at(path, time)
        return (replace(self, path=path, selected=index),
                f"camera key {index + 1} of {len(path.keys)} added at {format_time(time)}")

    def replace_pose(self, camera: Camera) -> tuple[PathEdit, str]:
        """The selected key with ``camera``'s pose (its time and ``look_at`` kept)."""
        i = self.selected
        if i is None:
            return self, _NO_SELECTION
        k = self.path.keys[i]
        path = self.path.with_key(CameraKey(k.time, _vec(camera.origin), _vec(camera.angles), float(camera.fov),
                                            k.look_at))
        return replace(self, path=path), f"{self.describe(i)}: pose replaced"

    def delete(self) -> tuple[PathEdit, str]:
        """The selected key removed; the key that took its place (or the one before it) is selected."""
        if self.selected is None:
            return self, _NO_SELECTION
        said = self.describe(self.selected)
        path = self.path.without(self.selected)
        selected = min(self.selected, len(path.keys) - 1) if path.keys else None
        return replace(self, path=path, selected=selected), f"{said} deleted ({len(path.keys)} left)"

    def select(self, index: int) -> tuple[PathEdit, str]:
        edit = replace(self, selected=index)
        return edit, f"{edit.describe(index)} selected"

    def move(self, index: int, time: float) -> PathEdit:
        """Key ``index`` moved to ``time``; the path re-sorts and the selection follows the moved key. A move onto
        another key's time is refused (the key stays), so dragging over a key never swallows it."""
        keys = self.path.keys
        if any(abs(k.time - time) < SAME_TIME for i, k in enumerate(keys) if i != index):
            return self
        path = self.path.moved(index, float(time))
        return replace(self, path=path, selected=_index_at(path, time))

    def toggle_look_at(self, entity: int | None, name: str = "") -> tuple[PathEdit, str]:
        """The selected key aimed at ``entity`` (``name`` for the message), or its aim cleared when it has one."""
        i = self.selected
        if i is None:
            return self, _NO_SELECTION
        k = self.path.keys[i]
        if k.look_at is not None:
            look_at, said = None, f"{self.describe(i)}: looks where its angles point again"
        elif entity is None:
            return self, "no player to look at: orbit or watch one (R, Tab) or put one in the middle of the view"
        else:
            look_at = entity
            said = f"{self.describe(i)} looks at {name or 'entity'} (entity {entity})"
        path = self.path.with_key(CameraKey(k.time, k.origin, k.angles, k.fov, look_at))
        return replace(self, path=path), said


_NO_SELECTION = "no camera key selected: click a key mark above the timeline bar (K adds one)"


def _vec(v: Sequence[float]) -> Vec3:
    return (float(v[0]), float(v[1]), float(v[2]))


def _index_at(path: CameraPath, time: float) -> int:
    return min(range(len(path.keys)), key=lambda i: abs(path.keys[i].time - time))


def centred_entity(camera: Camera, positions: Mapping[int, Vec3], cone: float = CENTRE_CONE_DEGREES) -> int | None:
    """The entity of ``positions`` nearest the middle of ``camera``'s view (smallest angle to its axis, at most
    ``cone`` degrees), or ``None``."""
    forward = angle_vectors(camera.angles)[0]
    best, best_angle = None, cone
    for number, where in positions.items():
        d = np.asarray(where, float) - np.asarray(camera.origin, float)
        length = float(np.linalg.norm(d))
        if length < 1e-6:
            continue
        angle = math.degrees(math.acos(max(-1.0, min(1.0, float(np.dot(forward, d)) / length))))
        if angle <= best_angle:
            best, best_angle = number, angle
    return best


def outside_report(path: CameraPath, duration: float) -> str:
    """The sentence reporting keys outside the demo (``0 .. duration``), kept as they are; ``""`` when none."""
    outside = keys_outside(path, duration)
    if not outside:
        return ""
    which = ", ".join(f"{i + 1} ({format_time(path.keys[i].time)})" for i in outside)
    return f"camera keys outside the demo, kept (the camera holds there): {which}"


def path_beside(demo: str | Path, duration: float) -> tuple[PathEdit, str]:
    """The path saved beside ``demo`` (``NAME.camera.json``), owning its file, and what to tell the user: how many
    keys came from where and which lie outside the demo; an empty path and the reason when the file is unusable (it is
    then left alone: :func:`save_target` writes elsewhere); an empty path and ``""`` when there is no file."""
    file = path_file_for(demo)
    if not file.exists():
        return PathEdit(), ""
    try:
        path = load_path(file)
    except (OSError, FormatError) as exc:  # not a regular file, too large, not UTF-8, not a camera path
        return PathEdit(), f"camera path not loaded: {exc}"
    said = f"camera path: {len(path.keys)} keys from {file}"
    outside = outside_report(path, duration)
    return PathEdit.loaded(path, str(file)), f"{said}; {outside}" if outside else said


def save_target(demo: str | Path, owned: str | None) -> Path:
    """Where ``Ctrl+S`` writes: the file the path owns, else ``NAME.camera.json`` beside ``demo`` when it is free,
    else the first free ``NAME.camera-N.json`` (a file the user did not make here is never overwritten)."""
    if owned is not None:
        return Path(owned)
    target = path_file_for(demo)
    stem = target.name[:-len(".camera.json")]
    n = 1
    while target.exists():
        n += 1
        target = target.with_name(f"{stem}.camera-{n}.json")
    return target
