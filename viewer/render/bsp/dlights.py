"""Uploading :class:`~viewer.render.refdef.Lights` to a program's dynamic-light uniform arrays.

The world shader takes up to 32 lights as ``uniform vec4 <origins>[32]`` (xyz origin, w radius),
``uniform vec3 <colors>[32]`` and ``uniform int <count>``; :meth:`Lights.packed` chooses which lights fit (those
whose sphere comes nearest to the camera).  Uniforms the program does not declare (or optimised away) are skipped.
"""

from __future__ import annotations

from typing import Any

import moderngl

from ..refdef import Lights
from ..program_members import uniform

__all__ = ["MAX_DLIGHTS", "write_light_uniforms"]

#: GLQuake's ``MAX_DLIGHTS`` and the size of the world shader's arrays.
MAX_DLIGHTS = 32


def write_light_uniforms(program: moderngl.Program, lights: Lights, camera_origin: Any = None, *,
                         max_lights: int = MAX_DLIGHTS, origins: str = "u_dlights",
                         colors: str = "u_dlight_colors", count: str = "u_dlight_count") -> int:
    """Write ``lights`` (the best ``max_lights``) into ``program``; returns how many were written."""
    packed, rgb, n = lights.packed(max_lights, camera_origin)
    members = set(program)
    if origins in members:
        uniform(program, origins).write(packed.tobytes())
    if colors in members:
        uniform(program, colors).write(rgb.tobytes())
    if count in members:
        uniform(program, count).value = n
    return n
