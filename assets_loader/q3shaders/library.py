"""Every shader of a game filesystem: all ``scripts/*.shader`` indexed once, each shader parsed on first use.

Files are read in sorted name order and, as ``ScanAndLoadShaderFiles`` concatenates them back to front, a
shader in a later file replaces one of the same name in an earlier file. A file with unbalanced braces is
ignored whole with a warning, like the engine. Like the engine, loading only finds each shader's block
(:func:`~.blocks.shader_blocks`); a shader's text is parsed when it is first asked for, so a map load parses
the few dozen shaders it draws with, not the two thousand the scripts hold. :meth:`ShaderLibrary.find` falls
back to the default shader (:func:`~.defaults.default_shader`) for names no script defines, as
``R_FindShader`` does.

References: ioquake3 ``renderergl1/tr_shader.c`` (``ScanAndLoadShaderFiles``, ``FindShaderInShaderText``,
``R_FindShader``).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping

from ..vfs import VirtualFS
from .blocks import cut_past_stage_cap, shader_blocks
from .defaults import default_shader
from .parser import ShaderSyntaxError, parse_shader_text, shader_key
from .records import Shader


class ShaderLibrary:
    """Shaders by :func:`~.parser.shader_key`: ``shaders`` already parsed, ``blocks`` ``(source, text)`` of the
    ones still to parse; ``files``: the scripts read; ``rejected``: the ignored ones."""

    __slots__ = ("_blocks", "_parsed", "files", "rejected")

    def __init__(self, shaders: Mapping[str, Shader], files: tuple[str, ...] = (), rejected: tuple[str, ...] = (),
                 blocks: Mapping[str, tuple[str, str]] | None = None) -> None:
        self._parsed: dict[str, Shader] = dict(shaders)
        self._blocks: dict[str, tuple[str, str]] = {k: v for k, v in (blocks or {}).items() if k not in shaders}
        self.files = files
        self.rejected = rejected

    def __len__(self) -> int:
        return len(self._parsed) + len(self._blocks)

    def names(self) -> list[str]:
        """Every shader key the scripts define."""
        return [*self._parsed, *self._blocks]

    def get(self, name: str) -> Shader | None:
        """The scripted shader called ``name`` (case and extension ignored), or ``None``; parsed on first use."""
        key = shader_key(name)
        shader = self._parsed.get(key)
        if shader is None and key in self._blocks:
            source, text = self._blocks.pop(key)
            shader = self._parsed[key] = parse_shader_text(cut_past_stage_cap(text), source)[key]
        return shader

    def define(self, shader: Shader) -> None:
        """Add ``shader`` under its name (a program's own shader, as an engine registers shaders it builds), in
        place of a script's of that name."""
        key = shader_key(shader.name)
        self._blocks.pop(key, None)
        self._parsed[key] = shader

    def find(self, name: str, lightmap: int) -> Shader:
        """The scripted shader, or the engine's default for an image called ``name`` and lightmap mode."""
        return self.get(name) or default_shader(shader_key(name), lightmap)

    def all_shaders(self) -> dict[str, Shader]:
        """Every shader, parsing those not parsed yet."""
        for key in list(self._blocks):
            self.get(key)
        return dict(self._parsed)


def load_shader_library(fs: VirtualFS, pattern: str = "scripts/*.shader") -> ShaderLibrary:
    """Index every script matching ``pattern`` in ``fs``."""
    files = fs.list(pattern)
    blocks: dict[str, tuple[str, str]] = {}
    rejected = []
    for name in files:
        try:
            found = shader_blocks(fs.read(name), name)
        except ShaderSyntaxError as exc:
            warnings.warn(f"ignoring shader file: {exc}", stacklevel=2)
            rejected.append(name)
            continue
        blocks.update((key, (name, text)) for key, text in found.items())
    return ShaderLibrary({}, tuple(files), tuple(rejected), blocks)
