"""Trail tracks made once per segment give the trails and particles that walking the frames each time gives."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.demos import load_demo
from tests.conftest import LQ1, QUAKEWORLD
from viewer.games.quake.assets import load_segment_assets
from viewer.games.quake.fx import TrailTracks, particles_at, trails_from_timeline
from viewer.games.quake.tents import SceneEffects
from viewer.session import game_filesystem

DEMOS = [(LQ1 / "demo1_lite.dem", None), (LQ1 / "demo1.dem", None), (QUAKEWORLD / "lq_lqdm2_mvd.mvd", QUAKEWORLD)]


@pytest.mark.parametrize(("path", "basedir"), DEMOS, ids=lambda v: getattr(v, "name", ""))
def test_cached_trails_and_particles_equal_the_frame_walk(path, basedir) -> None:
    """At random times, each track's first, middle and last sample times and just after them (demo1_lite has no
    trail-leaving entity: there both sides must be empty)."""
    timeline = load_demo(path)
    fs = game_filesystem(str(path), str(basedir) if basedir else None, None)
    flags = [load_segment_assets(fs, segment.model_precache).model_flags() for segment in timeline.segments]
    effects = SceneEffects.for_timeline(timeline)
    rng = np.random.default_rng(20)
    times = list(timeline.start_time + timeline.duration * np.concatenate([[0.0, 1.0], rng.uniform(0, 1, 30)]))
    for segment in range(len(timeline.segments)):
        tracks = TrailTracks.for_segment(timeline, segment, flags)
        for first, last, offset in zip(tracks.first, tracks.last, tracks.offsets):
            for j in (0, (last - first) // 2, last - first):
                times += [tracks.times[offset + j], tracks.times[offset + j] + 0.013]
    seen = 0
    for t in times:
        old = trails_from_timeline(timeline, float(t), flags)
        new = effects.trails(timeline, float(t), flags)
        assert [(tr.key, tr.type) for tr in new] == [(tr.key, tr.type) for tr in old]
        for a, b in zip(new, old):
            assert np.array_equal(a.times, b.times) and np.array_equal(a.origins, b.origins)
        p_old, p_new = particles_at(effects.emitters, float(t), old), effects.particles(timeline, float(t), flags)
        for name in p_old.__slots__:
            assert np.array_equal(getattr(p_new, name), getattr(p_old, name)), name
        seen += len(old)
    assert seen > 0 or not any(len(TrailTracks.for_segment(timeline, s, flags).keys)
                               for s in range(len(timeline.segments)))
    assert set(effects.trail_tracks) <= set(range(len(timeline.segments)))


def test_frames_entities_is_the_frames_one_after_another() -> None:
    timeline = load_demo(LQ1 / "demo1_lite.dem")
    first, last = 100, 140
    frame_of_row, rows = timeline.frames_entities(first, last)
    singles = [timeline.frame_entities(f) for f in range(first, last + 1)]
    assert np.array_equal(frame_of_row, np.repeat(np.arange(first, last + 1), [len(e) for e in singles]))
    for name in ("number", "model", "frame", "origin", "angles", "effects"):
        assert np.array_equal(getattr(rows, name), np.concatenate([getattr(e, name) for e in singles])), name
    with pytest.raises(IndexError):
        timeline.frames_entities(last, first)
    with pytest.raises(IndexError):
        timeline.frames_entities(0, timeline.num_frames)
