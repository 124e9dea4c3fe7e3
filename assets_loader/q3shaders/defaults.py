"""The shader the engine builds for a surface that no script defines: its image, lit as its lightmap mode says.

For a map surface with a lightmap that is two passes, ``$lightmap`` then the texture multiplied onto it
(``blendFunc GL_DST_COLOR GL_ZERO``): the "texture × lightmap" look. Triangle soups (``LIGHTMAP_BY_VERTEX``) draw
the texture with the baked vertex colours (``rgbGen exactVertex``), models (``LIGHTMAP_NONE``) with
``rgbGen lightingDiffuse``, ``LIGHTMAP_WHITEIMAGE`` over a white pass.

References: ioquake3 ``renderergl1/tr_shader.c`` (``R_FindShader``, the "create the default shading commands"
part, and ``InitShader``).
"""

from __future__ import annotations

from ..bsp46.dtypes import LIGHTMAP_2D, LIGHTMAP_BY_VERTEX, LIGHTMAP_NONE, LIGHTMAP_WHITEIMAGE
from .records import SORT_OPAQUE, Shader, Stage


def default_shader(name: str, lightmap: int) -> Shader:
    """The implicit shader for image ``name`` found with lightmap number ``lightmap`` (``>= 0`` or ``LIGHTMAP_*``)."""
    if lightmap == LIGHTMAP_NONE:
        stages: tuple[Stage, ...] = (Stage((name,), rgb_gen="lightingdiffuse"),)
    elif lightmap == LIGHTMAP_BY_VERTEX:
        stages = (Stage((name,), rgb_gen="exactvertex"),)
    elif lightmap == LIGHTMAP_2D:
        stages = (Stage((name,), rgb_gen="vertex", alpha_gen="vertex", blend=("GL_SRC_ALPHA", "GL_ONE_MINUS_SRC_ALPHA"),
                        depth_write=False),)
    elif lightmap == LIGHTMAP_WHITEIMAGE:
        stages = (Stage(("$whiteimage",), rgb_gen="identitylighting"),
                  Stage((name,), rgb_gen="identity", blend=("GL_DST_COLOR", "GL_ZERO"), depth_write=False))
    else:
        stages = (Stage(("$lightmap",), rgb_gen="identity", tc_gen="lightmap"),
                  Stage((name,), rgb_gen="identity", blend=("GL_DST_COLOR", "GL_ZERO"), depth_write=False))
    return Shader(name, stages, sort=SORT_OPAQUE, explicit=False)
