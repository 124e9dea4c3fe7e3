"""Camera math for Quake's Z-up world: angles → basis vectors, view and projection matrices.

Matrices are numpy ``float32 [4, 4]`` in the column-vector convention (``clip = P @ V @ world``); upload them
to GLSL with :func:`gl_bytes` (column-major). Angles are Quake's (pitch, yaw, roll) in degrees; positive pitch
looks down.

References: Quake ``mathlib.c`` (``AngleVectors``), ``gl_rmain.c`` (``R_SetupGL``, ``R_SetFrustum``);
QuakeSpasm ``AdaptFovx``/``CalcFovy`` for widescreen field of view.
"""

from __future__ import annotations

import math

import numpy as np

from .refdef import Camera, Look, SceneFrame

NEAR_CLIP = 4.0
FAR_CLIP = 16384.0


Vec3f = tuple[float, float, float]


def _angle_vectors(angles) -> tuple[Vec3f, Vec3f, Vec3f]:
    """``AngleVectors``' forward, right and up for (pitch, yaw, roll) degrees, in plain floats."""
    pitch, yaw, roll = (math.radians(a) for a in angles)
    sp, cp = math.sin(pitch), math.cos(pitch)
    sy, cy = math.sin(yaw), math.cos(yaw)
    sr, cr = math.sin(roll), math.cos(roll)
    return ((cp * cy, cp * sy, -sp), (-sr * sp * cy + cr * sy, -sr * sp * sy - cr * cy, -sr * cp),
            (cr * sp * cy + sr * sy, cr * sp * sy - sr * cy, cr * cp))


def angle_vectors(angles) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Forward, right and up unit vectors for (pitch, yaw, roll) degrees, as ``AngleVectors`` computes them."""
    forward, right, up = _angle_vectors(angles)
    return np.array(forward), np.array(right), np.array(up)


def view_matrix(origin, angles) -> np.ndarray:
    """World → eye space (eye looks down −Z with +Y up), ``float32 [4, 4]``."""
    forward, right, up = angle_vectors(angles)
    o = np.asarray(origin, dtype=np.float64)
    m = np.eye(4)
    m[0, :3], m[1, :3], m[2, :3] = right, up, -forward
    m[:3, 3] = -(m[:3, :3] @ o)
    return m.astype(np.float32)


def vertical_fov(fov_x: float, aspect: float, across_width: bool = False) -> float:
    """Vertical fov in degrees: ``fov_x`` is the horizontal fov of a 4:3 screen, widened for wider screens; with
    ``across_width`` it spans the whole target's width whatever its shape (Quake III's ``CG_CalcFov``)."""
    half_x = math.radians(min(max(fov_x, 1.0), 179.0)) / 2
    if aspect >= 4 / 3 and not across_width:
        return math.degrees(2 * math.atan(math.tan(half_x) * 3 / 4))
    return math.degrees(2 * math.atan(math.tan(half_x) / aspect))


def projection_matrix(fov_y: float, aspect: float, near: float = NEAR_CLIP, far: float = FAR_CLIP) -> np.ndarray:
    """A right-handed perspective projection (OpenGL clip space), ``float32 [4, 4]``."""
    f = 1.0 / math.tan(math.radians(fov_y) / 2)
    m = np.zeros((4, 4))
    m[0, 0] = f / aspect
    m[1, 1] = f
    m[2, 2] = (far + near) / (near - far)
    m[2, 3] = 2 * far * near / (near - far)
    m[3, 2] = -1.0
    return m.astype(np.float32)


def view_projection(camera: Camera, aspect: float, fov_across_width: bool = False, *, warp: float = 0.0) -> np.ndarray:
    """``P @ V`` for ``camera`` on a target of the given width/height ``aspect`` (``fov_across_width``: see
    :func:`vertical_fov`); ``warp`` widens the frustum by that share and flattens it by as much (Quake II's underwater
    ``R_SetPerspective``)."""
    projection = projection_matrix(vertical_fov(camera.fov, aspect, fov_across_width), aspect)
    if warp:
        projection[0, 0] /= 1.0 + warp
        projection[1, 1] /= 1.0 - warp
    return projection @ view_matrix(camera.origin, camera.angles)


def frame_view_projection(frame: SceneFrame, look: Look, size: tuple[int, int]) -> np.ndarray:
    """The ``P @ V`` a frame is drawn with into a target of ``size`` (width, height) pixels: its camera, the game's
    fov rule (``look``) and the frame's underwater warp. Whatever is drawn over the picture in the same place as a
    world point (names over heads, outlines) projects with this matrix."""
    w, h = size
    return view_projection(frame.camera, w / h, look.fov_across_width, warp=frame.view_warp)


def gl_bytes(matrix: np.ndarray) -> bytes:
    """Column-major bytes of a ``[4, 4]`` matrix for a GLSL ``mat4`` uniform."""
    return np.ascontiguousarray(matrix.T, dtype=np.float32).tobytes()


def entity_matrix(origin, angles, scale: float = 1.0) -> np.ndarray:
    """Model → world for an entity at ``origin`` with Quake ``angles``, ``float32 [4, 4]``.

    Mirrors ``R_RotateForEntity``: translate, then yaw about Z, then pitch about Y (negated, as GLQuake does),
    then roll about X.
    """
    pitch, yaw, roll = (math.radians(a) for a in angles)
    cy, sy = math.cos(yaw), math.sin(yaw)
    cp, sp = math.cos(-pitch), math.sin(-pitch)
    cr, sr = math.cos(roll), math.sin(roll)
    # Rz(yaw) @ Ry(-pitch) @ Rx(roll) written out (one small array instead of three products: called per entity)
    x, y, z = (float(c) for c in origin)
    return np.array([[cy * cp * scale, (cy * sp * sr - sy * cr) * scale, (cy * sp * cr + sy * sr) * scale, x],
                     [sy * cp * scale, (sy * sp * sr + cy * cr) * scale, (sy * sp * cr - cy * sr) * scale, y],
                     [-sp * scale, cp * sr * scale, cp * cr * scale, z],
                     [0.0, 0.0, 0.0, 1.0]], np.float32)


def angles_axis(angles) -> np.ndarray:
    """``AnglesToAxis``: ``[3, 3]`` rows forward, left, up for (pitch, yaw, roll) degrees (called per model: no
    numpy until the result)."""
    forward, (rx, ry, rz), up = _angle_vectors(angles)
    return np.array([forward, (-rx, -ry, -rz), up], np.float32)
