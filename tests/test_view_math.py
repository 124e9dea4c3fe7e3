"""Camera math: Quake's angle conventions, view and projection matrices."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from viewer.render.view_math import angle_vectors, projection_matrix, vertical_fov, view_matrix, view_projection
from viewer.render.refdef import Camera


def test_yaw_zero_looks_along_x_and_yaw_90_along_y() -> None:
    f, r, u = angle_vectors((0, 0, 0))
    np.testing.assert_allclose(f, [1, 0, 0], atol=1e-9)
    np.testing.assert_allclose(r, [0, -1, 0], atol=1e-9)
    np.testing.assert_allclose(u, [0, 0, 1], atol=1e-9)
    f, _, _ = angle_vectors((0, 90, 0))
    np.testing.assert_allclose(f, [0, 1, 0], atol=1e-9)


def test_positive_pitch_looks_down() -> None:
    f, _, _ = angle_vectors((30, 0, 0))
    assert f[2] < 0


def test_basis_is_orthonormal_for_any_angles() -> None:
    for angles in [(10, 20, 30), (-80, 200, -45), (89, -170, 5)]:
        f, r, u = angle_vectors(angles)
        basis = np.stack([f, r, u])
        np.testing.assert_allclose(basis @ basis.T, np.eye(3), atol=1e-9)


def test_view_matrix_puts_a_point_ahead_on_negative_z() -> None:
    v = view_matrix((100, 50, 10), (0, 90, 0))
    eye = v @ np.array([100, 150, 10, 1.0])
    np.testing.assert_allclose(eye[:3], [0, 0, -100], atol=1e-3)


def test_point_to_the_right_lands_right_of_centre() -> None:
    m = view_projection(Camera((0, 0, 0), (0, 0, 0)), 16 / 9)
    clip = m @ np.array([100, -20, 0, 1.0])
    assert clip[0] / clip[3] > 0
    assert -1 < clip[2] / clip[3] < 1


def test_fov_90_at_4_3_and_widening() -> None:
    assert vertical_fov(90, 4 / 3) == pytest.approx(73.7397952917)
    assert vertical_fov(90, 16 / 9) == pytest.approx(vertical_fov(90, 4 / 3))
    assert vertical_fov(90, 1.0) == pytest.approx(90.0)


def test_projection_maps_near_and_far_planes() -> None:
    p = projection_matrix(90, 1, near=4, far=1000)
    for z, ndc in ((-4, -1), (-1000, 1)):
        clip = p @ np.array([0, 0, z, 1.0])
        assert clip[2] / clip[3] == pytest.approx(ndc, abs=1e-5)


def test_entity_matrix_yaw_turns_model_x_to_world_y_and_translates() -> None:
    from viewer.render.view_math import entity_matrix

    m = entity_matrix((10, 20, 30), (0, 90, 0))
    np.testing.assert_allclose(m @ np.array([1.0, 0, 0, 1]), [10, 21, 30, 1], atol=1e-5)


def test_entity_matrix_positive_pitch_tilts_nose_up_like_glquake() -> None:
    from viewer.render.view_math import entity_matrix

    m = entity_matrix((0, 0, 0), (30, 0, 0))
    assert (m @ np.array([1.0, 0, 0, 1]))[2] > 0


@given(st.tuples(*[st.floats(-720, 720)] * 3), st.tuples(*[st.floats(-8192, 8192)] * 3),
       st.sampled_from([0.5, 1.0, 2.0]))
def test_entity_matrix_is_translate_yaw_pitch_roll_scale(angles, origin, scale) -> None:
    """R_RotateForEntity's order, built from the three elementary rotations: translate, yaw about Z, pitch about Y
    (negated), roll about X, then the scale."""
    from viewer.render.view_math import entity_matrix

    pitch, yaw, roll = np.radians(angles)

    def rot(axis: int, a: float) -> np.ndarray:
        m = np.eye(4)
        i, j = [k for k in range(3) if k != axis]
        m[i, i] = m[j, j] = np.cos(a)
        m[i, j], m[j, i] = -np.sin(a), np.sin(a)
        return m

    move = np.eye(4)
    move[:3, 3] = origin
    expected = move @ rot(2, yaw) @ rot(1, pitch) @ rot(0, roll) @ np.diag([scale, scale, scale, 1.0])
    got = entity_matrix(origin, angles, scale)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-3)
