"""R_LightPoint: the lightmap sample under a point, on the synthetic map and on real maps."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.bsp import load_bsp
from assets_loader.bsp.lightpoint import LightTracer, light_point


def test_real_map_items_stand_on_lit_floors(lq1_pak) -> None:
    world = load_bsp(lq1_pak.read("maps/lqdm3.bsp"), lit=lq1_pak.read("maps/lqdm3.lit"))
    items = [e for e in world.entities if e.get("classname", "").startswith(("item_", "weapon_"))]
    assert len(items) > 5
    values = []
    for item in items:
        hit = light_point(world, [float(v) for v in item["origin"].split()])
        assert hit is not None, item
        face = world.faces[hit.surface]
        plane = world.planes[face["planenum"]]
        normal_z = plane["normal"][2] * (-1 if face["side"] else 1)
        assert normal_z > 0.7, "the face under an item is a floor"
        x, y, z = (float(v) for v in item["origin"].split())
        nx, ny, nz = plane["normal"]
        floor_z = (plane["dist"] - nx * x - ny * y) / nz
        assert 0 <= z - floor_z < 64, "the floor is just below the item"
        values.append(hit.value(np.ones(64)).mean())
    assert 0 < min(values) and max(values) <= 255 * 4
    assert np.std(values) > 1, "different places have different light"


@pytest.mark.parametrize("z", [1e6, -1e6])
def test_points_far_outside_the_map_do_not_fail(lq1_pak, z: float) -> None:
    world = load_bsp(lq1_pak.read("maps/lq_e0m1.bsp"))
    hit = light_point(world, (0.0, 0.0, z))
    assert hit is None or len(hit.styles) >= 1


def test_one_tracer_for_many_points_finds_what_a_fresh_one_finds(lq1_pak) -> None:
    """A LightTracer kept for a map (the renderer's, which remembers the nodes and faces it has read) gives every
    point the sample a tracer made for that point alone gives."""
    world = load_bsp(lq1_pak.read("maps/lqdm3.bsp"), lit=lq1_pak.read("maps/lqdm3.lit"))
    kept = LightTracer(world)
    points = [[float(v) for v in e["origin"].split()] for e in world.entities if "origin" in e]
    points += [[p[0] + dx, p[1] + dy, p[2]] for p in points[:20] for dx, dy in ((8, 0), (0, -8), (3.5, 5.25))]
    hits = 0
    for point in points:
        again, fresh = kept.sample(point), light_point(world, point)
        assert (again is None) == (fresh is None)
        if again is not None and fresh is not None:
            hits += 1
            assert again.surface == fresh.surface and again.styles == fresh.styles
            assert np.array_equal(again.samples, fresh.samples)
    assert hits > 20
