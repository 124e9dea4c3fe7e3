"""Typed program members: a uniform or attribute by name, and a clear error when the shader declares it otherwise."""

from __future__ import annotations

import moderngl
import pytest

from viewer.render.program_members import attribute, uniform, uniforms

VERTEX = ("#version 330\nin vec3 in_pos;\nuniform float u_scale;\n"
          "void main() { gl_Position = vec4(in_pos * u_scale, 1.0); }")


def test_members_are_narrowed_by_kind(ctx) -> None:
    program = ctx.program(vertex_shader=VERTEX)
    try:
        uniform(program, "u_scale").value = 2.0
        assert uniform(program, "u_scale").value == 2.0
        assert isinstance(attribute(program, "in_pos"), moderngl.Attribute)
        with pytest.raises(TypeError, match="'in_pos' is a Attribute, not a uniform"):
            uniform(program, "in_pos")
        with pytest.raises(TypeError, match="'u_scale' is a Uniform, not a vertex attribute"):
            attribute(program, "u_scale")
    finally:
        program.release()


def test_uniforms_lists_every_uniform_and_no_attribute(ctx) -> None:
    program = ctx.program(vertex_shader=VERTEX)
    try:
        members = uniforms(program)
        assert set(members) == {"u_scale"}
        members["u_scale"].value = 3.0
        assert uniform(program, "u_scale").value == 3.0
    finally:
        program.release()
