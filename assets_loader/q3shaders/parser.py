"""Parse Quake III shader scripts (``scripts/*.shader``) into :class:`~.records.Shader` records.

A script is a list of ``name { … }`` blocks; each holds general keywords and ``{ … }`` stages. Keywords are
read as ``ParseShader``/``ParseStage`` read them (case-insensitive, parameters on the keyword's line).
``qer*``/``q3map*`` editor and compiler keywords are skipped silently like the engine does; any other unknown
keyword is skipped with its line, and each shader warns once about what it skipped (the engine would drop the
whole shader to its default instead). A script whose braces do not match raises :class:`ShaderSyntaxError`,
the case ``ScanAndLoadShaderFiles`` ignores the whole file for.

References: ioquake3 ``renderergl1/tr_shader.c`` (``ParseShader``, ``ParseStage``, ``ParseTexMod``,
``ParseDeform``, ``ParseSkyParms``, ``ParseSort``, ``ParseWaveForm``, ``ParseVector``, ``NameToSrcBlendMode``,
``NameToDstBlendMode``, ``NameToAFunc``, ``FinishShader``); Quake III Arena Shader Manual.
"""

from __future__ import annotations

import re
import warnings

from ..errors import FormatError
from .records import (
    SORT_BLEND0,
    SORT_DECAL,
    SORT_ENVIRONMENT,
    SORT_FOG,
    SORT_NAMES,
    SORT_OPAQUE,
    SORT_PORTAL,
    SORT_SEE_THROUGH,
    Deform,
    FogParms,
    Shader,
    SkyParms,
    Stage,
    TexMod,
    Wave,
)
from .tokens import TokenStream, tokenize

SRC_BLENDS = frozenset({"GL_ONE", "GL_ZERO", "GL_DST_COLOR", "GL_ONE_MINUS_DST_COLOR", "GL_SRC_ALPHA",
                        "GL_ONE_MINUS_SRC_ALPHA", "GL_DST_ALPHA", "GL_ONE_MINUS_DST_ALPHA", "GL_SRC_ALPHA_SATURATE"})
DST_BLENDS = frozenset({"GL_ONE", "GL_ZERO", "GL_SRC_ALPHA", "GL_ONE_MINUS_SRC_ALPHA", "GL_DST_ALPHA",
                        "GL_ONE_MINUS_DST_ALPHA", "GL_SRC_COLOR", "GL_ONE_MINUS_SRC_COLOR"})
NAMED_BLENDS = {"add": ("GL_ONE", "GL_ONE"), "filter": ("GL_DST_COLOR", "GL_ZERO"),
                "blend": ("GL_SRC_ALPHA", "GL_ONE_MINUS_SRC_ALPHA")}
WAVE_FUNCS = frozenset({"sin", "square", "triangle", "sawtooth", "inversesawtooth", "noise"})
RGB_GENS = frozenset({"identity", "identitylighting", "entity", "oneminusentity", "vertex", "exactvertex",
                      "lightingdiffuse", "oneminusvertex"})
ALPHA_GENS = frozenset({"identity", "entity", "oneminusentity", "vertex", "lightingspecular", "oneminusvertex"})
ALPHA_FUNCS = {"gt0": "GT0", "lt128": "LT128", "ge128": "GE128"}
CULL_NAMES = {"none": "none", "twosided": "none", "disable": "none", "back": "back", "backside": "back",
              "backsided": "back", "front": "front"}
_SKIPPED_LINE = ("tesssize", "q3map", "qer")
#: Stages a shader keeps (ioquake3 ``tr_local.h``); ``ParseShader`` stops at the next one with a warning.
MAX_SHADER_STAGES = 8
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


class ShaderSyntaxError(FormatError):
    """A shader script whose blocks do not open or close."""


def _float(tok: str) -> float:
    """``atof``: the leading number of ``tok``, 0 when there is none."""
    m = _NUMBER.match(tok)
    return float(m.group()) if m else 0.0


def _wave(ts: TokenStream, warn: list[str]) -> Wave:
    func = ts.next_on_line().lower()
    if func not in WAVE_FUNCS:
        warn.append(f"unknown wave function {func!r}")
    nums = [_float(ts.next_on_line()) for _ in range(4)]
    return Wave(func, nums[0], nums[1], nums[2], nums[3])


def _vector(ts: TokenStream, count: int) -> tuple[float, ...]:
    """``ParseVector``: ``( a b c )`` on the current line (the parentheses may be missing)."""
    tok = ts.next_on_line()
    values = []
    if tok != "(":
        values.append(_float(tok))
    while len(values) < count:
        values.append(_float(ts.next_on_line()))
    if ts.tokens[ts.pos:ts.pos + 1] and ts.tokens[ts.pos].text == ")" and ts.tokens[ts.pos].line == ts.line:
        ts.next()
    return tuple(values)


def _tc_mod(ts: TokenStream, warn: list[str]) -> TexMod | None:
    kind = ts.next_on_line().lower()
    if kind in ("scroll", "scale"):
        return TexMod(kind, (_float(ts.next_on_line()), _float(ts.next_on_line())))
    if kind == "rotate":
        return TexMod(kind, (_float(ts.next_on_line()),))
    if kind == "turb":
        return TexMod(kind, tuple(_float(ts.next_on_line()) for _ in range(4)))
    if kind == "stretch":
        return TexMod(kind, (), _wave(ts, warn))
    if kind == "transform":
        return TexMod(kind, tuple(_float(ts.next_on_line()) for _ in range(6)))
    if kind == "entitytranslate":
        return TexMod("entityTranslate")
    warn.append(f"unknown tcMod {kind!r}")
    ts.rest_of_line()
    return None


def _stage(ts: TokenStream, warn: list[str]) -> Stage:
    images: tuple[str, ...] = ()
    kw: dict = {}
    blend: tuple[str, str] | None = None
    depth_explicit = False
    depth_write = True
    tc_mods: list[TexMod] = []
    while True:
        tok = ts.next()
        if not tok:
            raise ShaderSyntaxError("<shader>", "shader script", None, "a '}' closing the stage", "end of text")
        low = tok.lower()
        if tok == "}":
            break
        if low in ("map", "clampmap"):
            name = ts.next_on_line()
            if not name:
                warn.append(f"missing image for {tok!r}")
                continue
            images = (name.lower() if name.startswith("$") else name,)
            kw["clamp"] = low == "clampmap"
        elif low == "animmap":
            kw["anim_frequency"] = _float(ts.next_on_line())
            images = tuple(ts.rest_of_line()[:8])
        elif low == "videomap":
            kw["video"] = ts.next_on_line()
        elif low == "alphafunc":
            func = ALPHA_FUNCS.get(ts.next_on_line().lower())
            if func is None:
                warn.append("unknown alphaFunc")
            kw["alpha_func"] = func
        elif low == "depthfunc":
            func = ts.next_on_line().lower()
            if func in ("lequal", "equal"):
                kw["depth_func"] = func
            else:
                warn.append(f"unknown depthFunc {func!r}")
        elif low == "detail":
            kw["detail"] = True
        elif low == "blendfunc":
            first = ts.next_on_line()
            if not first:
                warn.append("missing blendFunc parameter")
                continue
            if first.lower() in NAMED_BLENDS:
                blend = NAMED_BLENDS[first.lower()]
            else:
                src, dst = first.upper(), ts.next_on_line().upper()
                if src not in SRC_BLENDS:
                    warn.append(f"unknown blend source {first!r}")
                    src = "GL_ONE"
                if dst not in DST_BLENDS:
                    warn.append(f"unknown blend destination {dst!r}")
                    dst = "GL_ONE"
                blend = (src, dst)
            if not depth_explicit:
                depth_write = False
        elif low == "rgbgen":
            gen = ts.next_on_line().lower()
            if gen == "wave":
                kw["rgb_wave"] = _wave(ts, warn)
            elif gen == "const":
                c = _vector(ts, 3)
                kw["rgb_const"] = (c[0], c[1], c[2])
            elif gen not in RGB_GENS:
                warn.append(f"unknown rgbGen {gen!r}")
                continue
            kw["rgb_gen"] = gen
        elif low == "alphagen":
            gen = ts.next_on_line().lower()
            if gen == "wave":
                kw["alpha_wave"] = _wave(ts, warn)
            elif gen == "const":
                kw["alpha_const"] = _float(ts.next_on_line())
            elif gen == "portal":  # the portal range; ParseStage warns and takes 256 when it is missing
                rng = ts.next_on_line()
                if not rng:
                    warn.append("missing range for alphaGen portal")
                kw["alpha_const"] = _float(rng) if rng else 256.0
            elif gen not in ALPHA_GENS:
                warn.append(f"unknown alphaGen {gen!r}")
                continue
            kw["alpha_gen"] = gen
        elif low in ("tcgen", "texgen"):
            gen = ts.next_on_line().lower()
            if gen == "base":
                gen = "texture"
            if gen == "vector":
                s, t = _vector(ts, 3), _vector(ts, 3)
                kw["tc_gen_vectors"] = ((s[0], s[1], s[2]), (t[0], t[1], t[2]))
            elif gen not in ("texture", "lightmap", "environment"):
                warn.append(f"unknown tcGen {gen!r}")
                continue
            kw["tc_gen"] = gen
        elif low == "tcmod":
            mod = _tc_mod(ts, warn)
            if mod is not None:
                tc_mods.append(mod)
        elif low == "depthwrite":
            depth_write = True
            depth_explicit = True
        else:
            warn.append(f"unknown stage keyword {tok!r}")
            ts.rest_of_line()
    if blend == ("GL_ONE", "GL_ZERO"):
        blend, depth_write = None, True
    if "rgb_gen" not in kw:
        kw["rgb_gen"] = "identitylighting" if blend is None or blend[0] in ("GL_ONE", "GL_SRC_ALPHA") else "identity"
    if "tc_gen" not in kw:
        kw["tc_gen"] = "lightmap" if images[:1] == ("$lightmap",) else "texture"
    return Stage(images, blend=blend, depth_write=depth_write, tc_mods=tuple(tc_mods), **kw)


def _deform(ts: TokenStream, warn: list[str]) -> Deform | None:
    kind = ts.next_on_line()
    low = kind.lower()
    if low in ("projectionshadow", "autosprite", "autosprite2") or (low.startswith("text") and len(low) == 5):
        return Deform({"projectionshadow": "projectionShadow"}.get(low, low))
    if low == "bulge":
        return Deform(low, tuple(_float(ts.next_on_line()) for _ in range(3)))
    if low == "wave":
        spread = _float(ts.next_on_line())
        return Deform(low, (spread,), _wave(ts, warn))
    if low == "normal":
        return Deform(low, (_float(ts.next_on_line()), _float(ts.next_on_line())))
    if low == "move":
        vec = tuple(_float(ts.next_on_line()) for _ in range(3))
        return Deform(low, vec, _wave(ts, warn))
    warn.append(f"unknown deformVertexes {kind!r}")
    ts.rest_of_line()
    return None


def _sky(ts: TokenStream) -> SkyParms:
    outer = ts.next_on_line()
    height = ts.next_on_line()
    inner = ts.next_on_line()
    cloud = _float(height) if height and height != "-" else 0.0
    return SkyParms(outer if outer and outer != "-" else None, cloud or 512.0,
                    inner if inner and inner != "-" else None)


def _derived_sort(stages: list[Stage], explicit: float, sky: bool, polygon_offset: bool, fog_only: bool) -> float:
    """``FinishShader``'s sort when the script gives none."""
    if sky:
        return SORT_ENVIRONMENT
    sort = explicit
    if polygon_offset and not sort:
        sort = SORT_DECAL
    if not sort and stages and stages[0].blend is not None:
        for st in stages:
            if st.blend is not None:
                sort = SORT_SEE_THROUGH if st.depth_write else SORT_BLEND0
                break
    if not stages and fog_only:
        return SORT_FOG
    return sort or SORT_OPAQUE


def _skip_to_shader_end(ts: TokenStream, name: str, source: str) -> None:
    """Skip a stage just opened and the rest of the shader, through its closing brace."""
    depth = 2
    while depth:
        tok = ts.next()
        if not tok:
            raise ShaderSyntaxError(source, "shader script", None, f"a '}}' closing shader {name!r}", "end of text")
        depth += (tok == "{") - (tok == "}")


def _shader_body(name: str, ts: TokenStream, source: str) -> Shader:
    warn: list[str] = []
    stages: list[Stage] = []
    deforms: list[Deform] = []
    parms: set[str] = set()
    kw: dict = {}
    sort = 0.0
    while True:
        tok = ts.next()
        if not tok:
            raise ShaderSyntaxError(source, "shader script", None, f"a '}}' closing shader {name!r}", "end of text")
        low = tok.lower()
        if tok == "}":
            break
        if tok == "{" and len(stages) == MAX_SHADER_STAGES:
            warn.append(f"stages past the first {MAX_SHADER_STAGES} (the engine's MAX_SHADER_STAGES) and the rest "
                        "of the shader")
            _skip_to_shader_end(ts, name, source)
            break
        if tok == "{":
            stages.append(_stage(ts, warn))
        elif low.startswith(_SKIPPED_LINE):
            ts.rest_of_line()
        elif low == "surfaceparm":
            parm = ts.next_on_line().lower()
            if parm:
                parms.add(parm)
        elif low == "cull":
            mode = ts.next_on_line().lower()
            if mode in CULL_NAMES:
                kw["cull"] = CULL_NAMES[mode]
            else:
                warn.append(f"invalid cull {mode!r}")
        elif low == "skyparms":
            kw["sky"] = _sky(ts)
        elif low == "deformvertexes":
            deform = _deform(ts, warn)
            if deform is not None:
                deforms.append(deform)
        elif low == "sort":
            value = ts.next_on_line()
            sort = SORT_NAMES.get(value.lower(), _float(value))
        elif low == "fogparms":
            color = _vector(ts, 3)
            depth = _float(ts.next_on_line())
            ts.rest_of_line()
            kw["fog"] = FogParms((color[0], color[1], color[2]), depth)
        elif low == "portal":
            kw["portal"] = True
            sort = SORT_PORTAL
        elif low == "nomipmaps":
            kw["no_mipmaps"] = kw["no_picmip"] = True
        elif low == "nopicmip":
            kw["no_picmip"] = True
        elif low == "polygonoffset":
            kw["polygon_offset"] = True
        elif low == "entitymergable":
            kw["entity_mergable"] = True
        elif low in ("light", "clamptime"):
            ts.next_on_line()
        else:
            warn.append(f"unknown keyword {tok!r}")
            ts.rest_of_line()
    final_sort = _derived_sort(stages, sort, "sky" in kw, kw.get("polygon_offset", False), "fog" in parms)
    if warn:
        warnings.warn(f"{source}: shader {name!r}: skipped {'; '.join(warn)}", stacklevel=4)
    return Shader(name, tuple(stages), frozenset(parms), deforms=tuple(deforms), sort=final_sort, source=source,
                  warnings=tuple(warn), **kw)


def shader_key(name: str) -> str:
    """The lookup key of a shader name: lower case, ``/`` separators, extension stripped (``R_FindShader``)."""
    key = name.replace("\\", "/").lower()
    stem, dot, ext = key.rpartition(".")
    return stem if dot and "/" not in ext else key


def parse_shader_text(text: str | bytes, source: str = "<text>") -> dict[str, Shader]:
    """Every shader in one script by :func:`shader_key`; a name defined twice keeps its first definition."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("latin-1")
    ts = TokenStream(tokenize(text))
    out: dict[str, Shader] = {}
    while not ts.at_end():
        line = ts.line_of_next()
        name = ts.next()
        if ts.next() != "{":
            raise ShaderSyntaxError(source, "shader script", None, f"'{{' after shader name {name!r} on line {line}",
                                    "something else")
        try:
            shader = _shader_body(shader_key(name), ts, source)
        except ShaderSyntaxError as exc:
            raise ShaderSyntaxError(source, "shader script", None, f"{exc.expected} (shader on line {line})",
                                    exc.found) from None
        out.setdefault(shader.name, shader)
    return out
