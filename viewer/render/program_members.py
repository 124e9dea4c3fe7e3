"""Typed access to a program's uniforms and vertex attributes.

moderngl types ``program[name]`` as any member kind (uniform, uniform block, attribute, varying); each renderer
knows which kind it addresses, so :func:`uniform` and :func:`attribute` narrow the member and say which name was
wrong when it is not of that kind (a shader/renderer mismatch, never bad input).
"""

from __future__ import annotations

import moderngl


def uniform(program: moderngl.Program, name: str) -> moderngl.Uniform:
    """``program[name]`` as a :class:`moderngl.Uniform`; ``TypeError`` if the member is something else."""
    member = program[name]
    if not isinstance(member, moderngl.Uniform):
        raise TypeError(f"shader member {name!r} is a {type(member).__name__}, not a uniform")
    return member


def uniforms(program: moderngl.Program) -> dict[str, moderngl.Uniform]:
    """Every uniform of ``program`` by name (looked up once, for renderers that write several per draw call)."""
    return {name: member for name in program if isinstance(member := program[name], moderngl.Uniform)}


def attribute(program: moderngl.Program, name: str) -> moderngl.Attribute:
    """``program[name]`` as a :class:`moderngl.Attribute`; ``TypeError`` if the member is something else."""
    member = program[name]
    if not isinstance(member, moderngl.Attribute):
        raise TypeError(f"shader member {name!r} is a {type(member).__name__}, not a vertex attribute")
    return member
