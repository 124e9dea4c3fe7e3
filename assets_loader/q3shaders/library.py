"""Every shader of a game filesystem: all ``scripts/*.shader`` parsed once, looked up by name.

Files are read in sorted name order and, as ``ScanAndLoadShaderFiles`` concatenates them back to front, a
shader in a later file replaces one of the same name in an earlier file. A file with unbalanced braces is
ignored whole with a warning, like the engine. :meth:`ShaderLibrary.find` falls back to the default shader
(:func:`~.defaults.default_shader`) for names no script defines, as ``R_FindShader`` does.

References: ioquake3 ``renderergl1/tr_shader.c`` (``ScanAndLoadShaderFiles``, ``FindShaderInShaderText``,
``R_FindShader``).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from ..vfs import VirtualFS
from .defaults import default_shader
from .parser import ShaderSyntaxError, parse_shader_text, shader_key
from .records import Shader


@dataclass(frozen=True, slots=True)
class ShaderLibrary:
    """``shaders`` by :func:`~.parser.shader_key`; ``files``: the scripts read; ``rejected``: the ignored ones."""

    shaders: dict[str, Shader]
    files: tuple[str, ...]
    rejected: tuple[str, ...]

    def get(self, name: str) -> Shader | None:
        """The scripted shader called ``name`` (case and extension ignored), or ``None``."""
        return self.shaders.get(shader_key(name))

    def find(self, name: str, lightmap: int) -> Shader:
        """The scripted shader, or the engine's default for an image called ``name`` and lightmap mode."""
        return self.get(name) or default_shader(shader_key(name), lightmap)


def load_shader_library(fs: VirtualFS, pattern: str = "scripts/*.shader") -> ShaderLibrary:
    """Parse every script matching ``pattern`` in ``fs``."""
    files = fs.list(pattern)
    shaders: dict[str, Shader] = {}
    rejected = []
    for name in files:
        try:
            parsed = parse_shader_text(fs.read(name), name)
        except ShaderSyntaxError as exc:
            warnings.warn(f"ignoring shader file: {exc}", stacklevel=2)
            rejected.append(name)
            continue
        shaders.update(parsed)
    return ShaderLibrary(shaders, tuple(files), tuple(rejected))
