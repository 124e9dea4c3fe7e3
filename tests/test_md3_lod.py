"""MD3 levels of detail (ioquake3's ``R_RegisterMD3`` / ``R_ComputeLOD``) on the OpenArena corpus models."""

from __future__ import annotations

import math

import numpy as np

from viewer.games.quake3.assets import load_segment_assets, lower_lods
from viewer.render.refdef import Camera
from viewer.render.shaded.lod import LOD_SCALE, lod_level
from viewer.render.view_math import view_projection

UPPER = "models/players/sarge/upper.md3"


def _triangles(model) -> int:
    return sum(len(surface.triangles) for surface in model.surfaces)


def test_the_lower_levels_beside_a_model_are_loaded_in_order(q3_fs) -> None:
    from assets_loader.models.md3 import load_md3

    lods = lower_lods(q3_fs, UPPER)
    full = load_md3(q3_fs.read(UPPER), UPPER)
    assert [_triangles(m) for m in (full, *lods)] == [742, 540, 366]
    assert lower_lods(q3_fs, "models/players/sarge/nothing.md3") == ()


def test_a_segment_registers_the_levels_of_its_player_parts(q3_fs) -> None:
    assets = load_segment_assets(q3_fs, "maps/oa_dm1.bsp", ("", "maps/oa_dm1.bsp"), ("sarge",))
    assert assets.md3 is not None
    assert {f"models/players/sarge/{part}.md3" for part in ("lower", "upper", "head")} <= set(assets.md3.lods)
    assert all(len(levels) == 2 for levels in assets.md3.lods.values())


def test_the_level_follows_the_projected_size_as_r_computelod(q3_fs) -> None:
    from assets_loader.models.md3 import load_md3

    model = load_md3(q3_fs.read(UPPER), UPPER)
    view_proj = view_projection(Camera((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 90.0), 16 / 9)
    box = model.frames[0]
    radius = math.sqrt(sum(max(abs(lo), abs(hi)) ** 2 for lo, hi in zip(box.mins, box.maxs, strict=True)))
    y_scale = float(np.linalg.norm(view_proj[1, :3]))

    def expected(distance: float) -> int:
        projected = min(radius * y_scale / distance, 1.0)
        return min(max(int((1 - projected * LOD_SCALE) * 3), 0), 2)

    levels = [lod_level(model, 3, 0, (d, 0.0, 0.0), view_proj) for d in (30.0, 150.0, 400.0, 700.0, 3000.0)]
    assert levels == [expected(d) for d in (30.0, 150.0, 400.0, 700.0, 3000.0)]
    assert levels[0] == 0 and levels[-1] == 2 and 1 in levels
    assert lod_level(model, 3, 0, (-500.0, 0.0, 0.0), view_proj) == 0     # behind the view plane: full detail
    assert lod_level(model, 1, 0, (3000.0, 0.0, 0.0), view_proj) == 0     # a model without lower levels
    for bad in (math.nan, math.inf, -math.inf):                             # a hostile demo's entity position
        assert lod_level(model, 3, 0, (bad, 0.0, 0.0), view_proj) in (0, 1, 2)
