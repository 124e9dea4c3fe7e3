"""Quake III shader scripts: tokens, parsed :class:`Shader` records, the default shader and the library of all
scripts in a game filesystem.

References: ioquake3 ``renderergl1/tr_shader.c``; Quake III Arena Shader Manual.
"""

from .defaults import default_shader
from .library import ShaderLibrary, load_shader_library
from .parser import ShaderSyntaxError, parse_shader_text, shader_key
from .records import Deform, FogParms, Shader, SkyParms, Stage, TexMod, Wave

__all__ = ["Deform", "FogParms", "Shader", "ShaderLibrary", "ShaderSyntaxError", "SkyParms", "Stage", "TexMod",
           "Wave", "default_shader", "load_shader_library", "parse_shader_text", "shader_key"]
