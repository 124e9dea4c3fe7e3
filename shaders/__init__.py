"""The GLSL sources of qdv's renderer, shipped as package data: one ``<name>.glsl`` per program.

Each file holds ``#ifdef VERTEX_SHADER`` / ``#ifdef FRAGMENT_SHADER`` sections; the renderer adds the version
line and the stage define (:mod:`viewer.render.programs`), so ``viewer.render`` itself reads no files.
"""

from importlib import resources


def source(name: str) -> str:
    """The text of ``shaders/<name>.glsl``."""
    return resources.files(__name__).joinpath(f"{name}.glsl").read_text(encoding="utf-8")
