"""Parsed Quake III shaders as frozen records: :class:`Shader`, its :class:`Stage` list and their parameters.

Names follow the shader manual's keywords; values are normalised the way ``ParseShader``/``ParseStage`` store
them (blend factors as GL enum names, default ``rgbGen``/``tcGen``/``depthWrite`` filled in, ``sort`` as the
engine's number).

References: ioquake3 ``renderergl1/tr_local.h`` (``shader_t``, ``shaderStage_t``, ``texModInfo_t``,
``deformStage_t``, ``shaderSort_t``); Quake III Arena Shader Manual (Paul Jaquays, Brian Hook), sections 3–6.
"""

from __future__ import annotations

from dataclasses import dataclass

#: ``shaderSort_t`` values.
SORT_PORTAL = 1.0
SORT_ENVIRONMENT = 2.0
SORT_OPAQUE = 3.0
SORT_DECAL = 4.0
SORT_SEE_THROUGH = 5.0
SORT_BANNER = 6.0
SORT_FOG = 7.0
SORT_UNDERWATER = 8.0
SORT_BLEND0 = 9.0
SORT_BLEND1 = 10.0
SORT_NEAREST = 16.0
SORT_NAMES = {"portal": SORT_PORTAL, "sky": SORT_ENVIRONMENT, "opaque": SORT_OPAQUE, "decal": SORT_DECAL,
              "seethrough": SORT_SEE_THROUGH, "banner": SORT_BANNER, "additive": SORT_BLEND1,
              "nearest": SORT_NEAREST, "underwater": SORT_UNDERWATER}


@dataclass(frozen=True, slots=True)
class Wave:
    """``<func> <base> <amplitude> <phase> <frequency>``; ``func`` is sin, square, triangle, sawtooth,
    inversesawtooth or noise."""

    func: str
    base: float
    amplitude: float
    phase: float
    frequency: float


@dataclass(frozen=True, slots=True)
class TexMod:
    """One ``tcMod``: ``kind`` (scroll, scale, rotate, turb, stretch, transform, entityTranslate) and its
    numbers (scroll/scale: s t; rotate: degrees per second; transform: m00 m01 m10 m11 t0 t1; turb: base
    amplitude phase frequency) or ``wave`` for stretch."""

    kind: str
    params: tuple[float, ...] = ()
    wave: Wave | None = None


@dataclass(frozen=True, slots=True)
class Deform:
    """One ``deformVertexes``: ``kind`` (wave, normal, move, bulge, autosprite, autosprite2, projectionShadow,
    text0‥7); ``params`` are wave: (spread,), normal: (amplitude, frequency), move: (x, y, z), bulge: (width,
    height, speed)."""

    kind: str
    params: tuple[float, ...] = ()
    wave: Wave | None = None


@dataclass(frozen=True, slots=True)
class SkyParms:
    """``skyParms <outer> <cloudheight> <inner>``: box image bases (``None`` for ``-``) and cloud height."""

    outer_box: str | None
    cloud_height: float
    inner_box: str | None

    SUFFIXES = ("rt", "bk", "lf", "ft", "up", "dn")

    def box_images(self, base: str | None) -> tuple[str, ...]:
        """The six ``<base>_<suffix>.tga`` names of a box (empty without one)."""
        return tuple(f"{base}_{s}.tga" for s in self.SUFFIXES) if base else ()


@dataclass(frozen=True, slots=True)
class FogParms:
    """``fogParms ( r g b ) <distance to opaque>``."""

    color: tuple[float, float, float]
    depth_for_opaque: float


@dataclass(frozen=True, slots=True)
class Stage:
    """One pass. ``images``: one name for ``map``/``clampMap`` (``"$lightmap"``, ``"$whiteimage"`` or a path),
    several for ``animMap`` (``anim_frequency`` > 0). ``blend``: ``(src, dst)`` GL factor names or ``None`` for
    opaque. ``rgb_gen``/``alpha_gen``: keyword in lower case, with ``*_wave`` or ``*_const`` where used.
    ``tc_gen``: texture, lightmap, environment or vector (``tc_gen_vectors``). ``alpha_func``: GT0, LT128,
    GE128 or ``None``. ``depth_func``: lequal or equal."""

    images: tuple[str, ...]
    clamp: bool = False
    anim_frequency: float = 0.0
    video: str | None = None
    blend: tuple[str, str] | None = None
    rgb_gen: str = "identity"
    rgb_wave: Wave | None = None
    rgb_const: tuple[float, float, float] | None = None
    alpha_gen: str = "identity"
    alpha_wave: Wave | None = None
    alpha_const: float | None = None
    tc_gen: str = "texture"
    tc_gen_vectors: tuple[tuple[float, float, float], tuple[float, float, float]] | None = None
    tc_mods: tuple[TexMod, ...] = ()
    alpha_func: str | None = None
    depth_func: str = "lequal"
    depth_write: bool = True
    detail: bool = False

    @property
    def is_lightmap(self) -> bool:
        return self.images[:1] == ("$lightmap",)


@dataclass(frozen=True, slots=True)
class Shader:
    """A shader: ``name`` (lower case, no extension), ``stages``, and the general keywords.

    ``surface_parms``: the ``surfaceparm`` names (lower case). ``cull``: front, back or none. ``sort``: the
    engine's sort number (explicit or derived as ``FinishShader`` does). ``explicit``: from a script (``False``
    for a default shader). ``source``: the script file. ``warnings``: what the parser skipped.
    """

    name: str
    stages: tuple[Stage, ...]
    surface_parms: frozenset[str] = frozenset()
    cull: str = "front"
    sky: SkyParms | None = None
    deforms: tuple[Deform, ...] = ()
    sort: float = SORT_OPAQUE
    fog: FogParms | None = None
    polygon_offset: bool = False
    no_mipmaps: bool = False
    no_picmip: bool = False
    entity_mergable: bool = False
    portal: bool = False
    explicit: bool = True
    source: str = ""
    warnings: tuple[str, ...] = ()

    @property
    def is_sky(self) -> bool:
        return self.sky is not None

    def image_names(self) -> tuple[str, ...]:
        """Every image the shader draws with (stage maps without ``$`` names, animMap frames, sky boxes)."""
        names = [n for s in self.stages for n in s.images if not n.startswith("$")]
        if self.sky is not None:
            names += self.sky.box_images(self.sky.outer_box) + self.sky.box_images(self.sky.inner_box)
        return tuple(dict.fromkeys(names))
