"""Shared checks of ``qdv cut`` results: the cut's timeline equals the original's over the range, from its first
frame (issue 35 item 3)."""

from __future__ import annotations

import numpy as np

from assets_loader.demos import load_demo
from assets_loader.demos.timeline import DemoTimeline, sample
from assets_loader.demos.writers import cut_demo, frame_range

#: Positions are compared to a sixteenth of a unit (the coarsest coordinate of any protocol is 1/8), angles to a
#: degree and a half (byte angles are 360/256 degrees).
ORIGIN_TOLERANCE = 1 / 16
ANGLE_TOLERANCE = 1.5


def _angle_diff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.abs((np.asarray(a, np.float64) - b + 180.0) % 360.0 - 180.0)


def cut_and_load(data: bytes, timeline: DemoTimeline, start: float, end: float, suffix: str
                 ) -> tuple[bytes, DemoTimeline]:
    """Cut ``start..end`` (seconds of the demo's playback clock) and decode the cut."""
    cut = cut_demo(data, timeline, start, end)
    return cut, load_demo(cut, name=f"cut{suffix}")


def assert_same_range(original: DemoTimeline, cut: DemoTimeline, start: float, end: float,
                      most: int = 150, pov: int | None = None, lerp_stats: tuple[str, ...] = ()) -> None:
    """The cut holds exactly the original's frames of ``start..end`` and, at each of (at most ``most``, evenly
    picked, always the first) of them, the same entities, view, stats, lightstyles and scores.  ``lerp_stats``
    are stats that hold the previous frame's value for the engine's lerp: at the cut's first frame there is none."""
    f0, f1 = frame_range(original, start, end)
    assert cut.num_frames == f1 - f0 + 1
    kept = original.server_times[f0:f1 + 1]      # a cut keeps the clock (NetQuake) or restarts it (MVD)
    np.testing.assert_allclose(cut.server_times - cut.server_times[0], kept - kept[0], atol=1e-3)
    picks = np.unique(np.linspace(0, cut.num_frames - 1, min(most, cut.num_frames)).astype(int))
    for i in picks:
        t_orig, t_cut = float(original.times[f0 + i]), float(cut.times[i])
        a, b = sample(original, t_orig, pov), sample(cut, t_cut, pov)
        where = f"frame {i} of the cut (original frame {f0 + i}, t={t_orig:.3f})"
        ea, eb = a.entities, b.entities
        assert np.array_equal(ea.number, eb.number), where
        for name in ("model", "frame", "skin", "colormap", "effects"):
            assert np.array_equal(getattr(ea, name), getattr(eb, name)), f"{where}: {name}"
        assert np.abs(ea.origin - eb.origin).max(initial=0) <= ORIGIN_TOLERANCE, where
        assert _angle_diff(ea.angles, eb.angles).max(initial=0) <= ANGLE_TOLERANCE, where
        assert np.abs(a.view_origin - b.view_origin).max() <= ORIGIN_TOLERANCE, f"{where}: view origin"
        assert _angle_diff(a.view_angles, b.view_angles).max() <= ANGLE_TOLERANCE, f"{where}: view angles"
        assert a.view_entity == b.view_entity, where
        skip = lerp_stats if i == 0 else ()
        assert {k: v for k, v in a.stats.items() if k not in skip} == {
            k: v for k, v in b.stats.items() if k not in skip}, where
        assert a.lightstyles == b.lightstyles, where
        assert [(s.name, s.frags) for s in a.scoreboard] == [(s.name, s.frags) for s in b.scoreboard], where
