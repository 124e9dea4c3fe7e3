"""Quake III impact marks cut to the map's surfaces (``R_MarkFragments``): on a tiny built room a mark in a corner
lies on both walls, a mark by a floor's edge stops at the edge, surfaces with ``nomarks`` or ``sky`` and triangle
soups take none, patches do; and on the corpus map every mark piece lies on a world surface within its square."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assets_loader.bsp46 import Bsp46World, load_bsp46
from assets_loader.demos import load_demo
from assets_loader.demos.quake3 import game as g
from tests.builders.segment import level_assets
from tests.builders.bsp46 import PATCH_GRID, Bsp46Spec, build_bsp46, patch_verts, surface, vert
from viewer.games.quake3 import fx
from viewer.games.quake3.marks import LIFT, MAX_MARK_FRAGMENTS, MarkSurfaces, mark_fragments
from viewer.render.refdef import Camera

from .conftest import QUAKE3

SURF_SKY, SURF_NOMARKS = 0x4, 0x20


def _quad(corners, normal) -> list[bytes]:
    return [vert(c, normal=normal) for c in corners]


def _room() -> Bsp46World:
    """A floor (z 0, x/y 0‥128) with walls at x = 0 and y = 0 (128 high); a ``nomarks`` floor at x 200‥264, a sky
    floor at x 300‥364, a patch over x 400‥464 and a triangle soup at x 500‥564, all with their top at z ≤ 24."""
    verts = _quad([(0, 0, 0), (128, 0, 0), (128, 128, 0), (0, 128, 0)], (0, 0, 1))
    verts += _quad([(0, 0, 0), (0, 128, 0), (0, 128, 128), (0, 0, 128)], (1, 0, 0))
    verts += _quad([(0, 0, 0), (0, 0, 128), (128, 0, 128), (128, 0, 0)], (0, 1, 0))
    verts += _quad([(200, 0, 0), (264, 0, 0), (264, 64, 0), (200, 64, 0)], (0, 0, 1))
    verts += _quad([(300, 0, 0), (364, 0, 0), (364, 64, 0), (300, 64, 0)], (0, 0, 1))
    verts += patch_verts([[(x + 400, y, z) for x, y, z in row] for row in PATCH_GRID])
    verts += _quad([(500, 0, 0), (564, 0, 0), (564, 64, 0), (500, 64, 0)], (0, 0, 1))
    surfaces = [surface(0, 1, 4 * k, 4, 0, 6) for k in range(3)]
    surfaces += [surface(1, 1, 12, 4, 0, 6), surface(2, 1, 16, 4, 0, 6), surface(0, 2, 20, 9, patch=(3, 3)),
                 surface(0, 3, 29, 4, 0, 6)]
    spec = Bsp46Spec(shaders=[("textures/test/floor", 0, 1), ("textures/test/nomarks", SURF_NOMARKS, 1),
                              ("textures/test/sky", SURF_SKY, 1), ("textures/test/fog", 0, 64)],
                     verts=verts, surfaces=surfaces, indexes=[0, 2, 1, 0, 3, 2],
                     leafs=[(0, 0, 7, 0, 0), (1, 0, 0, 0, 1)], leaf_surfaces=list(range(7)),
                     models=[((0, 0, 0), (600, 128, 128), 0, 7, 0, 1)])
    return load_bsp46(build_bsp46(spec), "room.bsp")


@pytest.fixture(scope="module")
def room() -> MarkSurfaces:
    return MarkSurfaces.of(_room())


def _points(pieces) -> np.ndarray:
    return np.concatenate([p.positions for p in pieces]).astype(np.float64)


def _area(pieces, along=None) -> float:
    """The pieces' area, or with ``along`` their area seen along that unit direction."""
    total = 0.0
    for p in pieces:
        v = p.positions.astype(np.float64)
        for k in range(1, len(v) - 1):
            cross = np.cross(v[k] - v[0], v[k + 1] - v[0]) / 2
            total += abs(float(cross @ along)) if along is not None else float(np.linalg.norm(cross))
    return total


def test_only_planar_faces_and_patches_without_nomarks_or_sky_take_marks(room) -> None:
    xs = room.corners[:, :, 0]
    assert not ((xs >= 200) & (xs <= 364)).any()                  # nomarks and sky floors left out
    assert not (xs >= 500).any()                                  # the triangle soup too
    assert room.patch.sum() > 8 and ((xs[room.patch] >= 400) & (xs[room.patch] <= 464)).all()
    assert np.allclose(np.linalg.norm(room.normals, axis=1), 1)


def test_a_mark_in_a_corner_lies_on_both_walls_and_nowhere_else(room) -> None:
    normal = np.array([1.0, 1.0, 0.0]) / math.sqrt(2)
    pieces = mark_fragments(room, (6.0, 6.0, 40.0), normal, 16.0, 30.0)
    points = _points(pieces)
    on_x = np.isclose(points[:, 0], LIFT)
    on_y = np.isclose(points[:, 1], LIFT)
    assert on_x.any() and on_y.any() and (on_x | on_y).all()          # both walls, nothing in the air or on the floor
    assert (points[:, 2] > 40 - 16 * math.sqrt(2) - 1).all()
    # the pieces cover the whole square: 32 × 32 seen along the normal
    assert _area(pieces, along=normal) == pytest.approx(32 * 32, rel=0.02)


def test_a_mark_by_the_floors_edge_stops_at_the_edge(room) -> None:
    pieces = mark_fragments(room, (120.0, 64.0, 0.0), (0, 0, 1), 16.0, 0.0)
    points = _points(pieces)
    assert np.allclose(points[:, 2], LIFT) and points[:, 0].max() == pytest.approx(128)
    assert _area(pieces) == pytest.approx(24 * 32, rel=1e-3)
    centre = mark_fragments(room, (64.0, 64.0, 0.0), (0, 0, 1), 16.0, 0.0)
    st = np.concatenate([p.st for p in centre])
    assert _area(centre) == pytest.approx(32 * 32, rel=1e-3)
    assert st.min(axis=0) == pytest.approx([0, 0], abs=1e-5) and st.max(axis=0) == pytest.approx([1, 1], abs=1e-5)


def test_marks_skip_what_the_engine_skips_and_reach_only_20_units_into_the_wall(room) -> None:
    for x in (232.0, 332.0, 532.0):                                   # nomarks, sky, triangle soup
        assert mark_fragments(room, (x, 32.0, 0.0), (0, 0, 1), 16.0, 0.0) == ()
    assert mark_fragments(room, (64.0, 64.0, 30.0), (0, 0, 1), 16.0, 0.0) == ()    # floor 30 below: out of reach
    assert mark_fragments(room, (64.0, 64.0, 15.0), (0, 0, 1), 16.0, 0.0)
    assert mark_fragments(room, (64.0, 64.0, 0.0), (0, 0, -1), 16.0, 0.0) == ()    # the floor's back


def test_a_mark_on_a_patch_follows_its_bulge(room) -> None:
    pieces = mark_fragments(room, (432.0, 32.0, 16.0), (0, 0, 1), 24.0, 0.0)
    points = _points(pieces)
    assert len(pieces) > 4 and points[:, 2].max() > points[:, 2].min() + 3     # curved, not flat
    assert len(pieces) <= MAX_MARK_FRAGMENTS


@pytest.fixture(scope="module")
def corpus_level(q3_fs) -> Bsp46World:
    return load_bsp46(q3_fs.read("maps/oa_dm1.bsp"), name="oa_dm1")


def test_on_the_corpus_every_mark_piece_lies_on_the_map_within_its_square(corpus_level) -> None:
    follow = load_demo(str(QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"))
    effects = fx.prepare_effects(follow)
    surfaces = MarkSurfaces.of(corpus_level)
    misses = [imp for imp in effects.impacts if imp.kind == "missile_miss"]
    laid = 0
    for imp in misses:
        kind = fx.IMPACTS.get(imp.weapon, fx.DEFAULT_IMPACT)
        pieces = mark_fragments(surfaces, imp.origin, imp.normal, kind.mark_radius, 0.0)
        laid += bool(pieces)
        for piece in pieces:
            offset = piece.positions.astype(np.float64) - imp.origin
            along = offset @ imp.normal
            assert (along > -20.5 - LIFT).all() and (along < 32.5 + LIFT).all()
            assert (np.linalg.norm(offset - np.outer(along, imp.normal), axis=1) <= kind.mark_radius * 1.5).all()
            assert ((piece.st > -0.02) & (piece.st < 1.02)).all()
    assert laid >= 0.9 * len(misses)
    hit = next(imp for imp in effects.impacts if imp.weapon == g.WP_GRENADE_LAUNCHER and imp.kind == "missile_miss"
               and imp.time > follow.start_time + 20)
    camera = Camera(tuple(hit.origin + np.array([0.0, 0.0, 100.0])), (90.0, 0.0, 0.0))
    drawn = effects.shaded(follow.sample(hit.time + 1.0), hit.time + 1.0, camera, False, level_assets(corpus_level))
    marks = [p for p in drawn.polys if p.shader == "gfx/damage/burn_med_mrk"]
    assert marks and all(len(p.positions) >= 3 and len(p.colors) == len(p.positions) for p in marks)
    again = effects.shaded(follow.sample(hit.time + 2.0), hit.time + 2.0, camera, False, level_assets(corpus_level))
    assert sum(p.shader == "gfx/damage/burn_med_mrk" for p in again.polys) == len(marks)
