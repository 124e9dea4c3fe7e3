"""Shader programs from the ``shaders`` package: one ``.glsl`` file per program, both stages in it.

A file holds ``#ifdef VERTEX_SHADER`` / ``#ifdef FRAGMENT_SHADER`` sections (the moderngl-window convention);
the version line is added here so each stage compiles on its own.
"""

from __future__ import annotations

import moderngl

import shaders

_VERSION = "#version 330 core\n"


def load_program(ctx: moderngl.Context, name: str) -> moderngl.Program:
    """Compile and link ``shaders/<name>.glsl``."""
    src = shaders.source(name)
    return ctx.program(
        vertex_shader=_VERSION + "#define VERTEX_SHADER\n" + src,
        fragment_shader=_VERSION + "#define FRAGMENT_SHADER\n" + src,
    )
