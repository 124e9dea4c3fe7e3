"""The Quake III fog curve and image (``R_InitFogTable``, ``R_FogFactor``, ``R_CreateFogImage``) and the fog
vectors of a view (``RB_CalcFogTexCoords``)."""

from __future__ import annotations

import numpy as np

from assets_loader.q3shaders import FogParms
from viewer.render.shaded.fog import FogVolume, fog_factor, fog_image, fog_table, fog_vectors, model_fog


def test_the_fog_table_is_a_square_root_curve() -> None:
    table = fog_table()
    assert table.shape == (256,)
    assert table[0] == 0.0 and abs(table[-1] - 1.0) < 1e-6
    assert abs(table[64] - np.sqrt(64 / 255)) < 1e-6
    assert (np.diff(table) > 0).all()


def test_fog_factor_cuts_and_saturates_like_the_engine() -> None:
    # nothing before 1/512 along s, nothing with t below 1/32 (outside the fog)
    assert fog_factor(1.0 / 1024, 31.0 / 32)[()] == 0.0
    assert fog_factor(0.5, 1.0 / 64)[()] == 0.0
    # fully inside: opaque from an eighth of s on
    assert fog_factor(1.0 / 8 + 1.0 / 512, 31.0 / 32)[()] == 1.0
    # half the opaque distance inside: the table at int(0.5 * 255)
    half = fog_factor(1.0 / 16 + 1.0 / 512, 1.0)[()]
    assert abs(half - np.sqrt(127 / 255)) < 1e-6
    # a ray half inside the fog counts half its length
    assert abs(fog_factor(1.0 / 8 + 1.0 / 512, 1.0 / 32 + 15.0 / 32)[()] - half) < 1e-6


def test_the_fog_image_is_white_with_the_fog_factor_as_alpha() -> None:
    image = fog_image()
    assert image.shape == (32, 256, 4) and image.dtype == np.uint8
    assert (image[..., :3] == 255).all()
    assert (image[0, :, 3] == 0).all()                   # t = 0.5/32 is outside the fog
    assert image[-1, -1, 3] == 255 and image[-1, 0, 3] == 0
    assert (np.diff(image[-1, :, 3].astype(int)) >= 0).all()
    assert (np.diff(image[:, 40, 3].astype(int)) >= 0).all()


def test_fog_vectors_measure_along_the_view_axis_and_into_the_fog() -> None:
    parms = FogParms((0.5, 0.25, 2.0), 100.0)
    plane = (0.0, 0.0, -1.0, 10.0)  # fog below z = -10, normal into it
    v = fog_vectors(parms, plane, (0.0, 0.0, 50.0), (0.0, 0.0, -1.0))
    point = np.array([3.0, 4.0, -30.0])
    s = point @ v.distance[:3] + v.distance[3]
    assert abs(s - (80.0 / 800.0 + 1.0 / 512)) < 1e-9     # 80 units along the view axis, 1/(8 x 100) per unit
    assert abs(point @ v.depth[:3] + v.depth[3] - 20.0) < 1e-9  # 20 units below the fog's surface
    assert v.eye_t == -60.0                               # the eye is 60 units outside
    assert v.color == (0.5, 0.25, 1.0)
    inside = fog_vectors(parms, None, (0.0, 0.0, 0.0), (1.0, 0.0, 0.0))
    assert inside.eye_t == 1.0 and inside.depth == (0.0, 0.0, 0.0, 0.0)


def test_a_model_is_in_the_first_fog_its_sphere_reaches() -> None:
    fog = FogVolume((0.0, 0.0, 0.0), (32.0, 32.0, 32.0), FogParms((1.0, 0.0, 0.0), 64.0), None)
    assert model_fog((fog,), (40.0, 16.0, 16.0), 10.0) is fog
    assert model_fog((fog,), (50.0, 16.0, 16.0), 10.0) is None
