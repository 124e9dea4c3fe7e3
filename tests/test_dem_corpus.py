"""The real LibreQuake demos decode to their end and match the facts in shared/data/quake1/SOURCES.md."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from assets_loader.demos import load_demo
from tests.conftest import LQ1
from viewer.demo_report import events_list, info_dict

# demo: (map, level name, protocol, flags, first time, last time, blocks)
FACTS = {
    "demo1.dem": ("lq_e1m4", "Dismal Shores", 15, 0, 4250.729, 4280.731, 2923),
    "demo3.dem": ("lqdm3", "Hyperborea", 999, (1 << 1) | (1 << 7), 416.466, 446.694, 1238),
    "demo1_lite.dem": ("lq_e0m1", "Baseless Base Banter", 15, 0, 91.232, 151.511, 4533),
}


@pytest.fixture(scope="module", params=sorted(FACTS))
def demo(request):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return request.param, load_demo(LQ1 / request.param)


def test_decodes_to_the_end_without_warnings(demo):
    name, tl = demo
    assert tl.warnings == ()
    assert tl.block_count == FACTS[name][6]
    assert tl.events[-1].kind == "disconnect"


def test_sources_facts(demo):
    name, tl = demo
    map_name, level, protocol, flags, first, last, _blocks = FACTS[name]
    assert tl.maps == (map_name,) and tl.segments[0].level_name == level
    assert tl.protocol == protocol and tl.protocol_flags == flags
    assert tl.start_time == pytest.approx(first, abs=1e-3)
    assert tl.end_time == pytest.approx(last, abs=1e-3)
    assert tl.duration == pytest.approx(last - first, abs=1e-3)


def test_times_non_decreasing_and_frames(demo):
    _name, tl = demo
    assert np.all(np.diff(tl.times) >= 0)
    assert 0 < tl.num_frames <= tl.block_count


def test_recorder_moves_continuously_except_teleports(demo):
    _name, tl = demo
    step = np.abs(np.diff(tl.view_origin, axis=0)).max(axis=1)
    snaps = int((step > 100).sum())
    assert snaps <= 8                                  # camera cuts / teleports only
    assert np.percentile(step, 99) < 40                 # otherwise a running player moves < 40 units per frame
    assert set(np.unique(tl.view_entity)) == {1}


def test_demo1_precache_counts():
    tl = load_demo(LQ1 / "demo1.dem")
    seg = tl.segments[0]
    assert len(seg.model_precache) - 1 == 237 and len(seg.sound_precache) - 1 == 136


def test_demo1_lite_has_monsters_moving():
    tl = load_demo(LQ1 / "demo1_lite.dem")
    seg = tl.segments[0]
    monsters = [i for i, m in enumerate(seg.model_precache) if m.startswith("progs/") and
                any(k in m for k in ("soldier", "dog", "ogre", "knight", "zombie", "enforcer", "wizard", "demon"))]
    assert monsters
    s = tl.sample(tl.start_time + 20)
    assert len(s.entities) > 0 and len(s.lightstyles) == 64


def test_sample_everywhere(demo):
    _name, tl = demo
    for t in np.linspace(tl.start_time - 1, tl.end_time + 1, 101):
        s = tl.sample(t)
        assert np.all(np.isfinite(s.entities.origin)) and np.all((s.entities.frame_blend >= 0)
                                                                  & (s.entities.frame_blend <= 1))
        assert np.all(np.isfinite(s.view_origin))


def test_report(demo):
    name, tl = demo
    info = info_dict(tl, name)
    assert info["format"] == "dem" and info["maps"] == [FACTS[name][0]] and info["protocol"] == FACTS[name][2]
    assert info["frames"] == tl.num_frames and info["duration"] == pytest.approx(tl.duration, abs=1e-6)
    assert info["players"] and {"slot", "name", "frags", "colors"} <= set(info["players"][0])
    assert sum(info["events"].values()) == len(tl.events)
    evs = events_list(tl, ["lightstyle"])
    assert evs and all(e["kind"] == "lightstyle" and "style" in e and "time" in e for e in evs)
    with pytest.raises(ValueError):
        events_list(tl, ["nonsense"])


def test_demo3_cutscene_camera_uses_the_camera_entity_angles():
    """demo3 is a cutscene: at 15 s QuakeSpasm looks down from (816, 290, 477) along the entity's angles."""
    tl = load_demo(LQ1 / "demo3.dem")
    s = tl.sample(tl.start_time + 15)
    assert s.view_origin.tolist() == pytest.approx([816, 290, 477], abs=1)
    assert s.view_angles[0] == pytest.approx(18.9, abs=0.2)
    assert s.view_angles[1] % 360 == pytest.approx(137.6, abs=0.2)
