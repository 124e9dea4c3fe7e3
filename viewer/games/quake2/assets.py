"""Quake II's game assets a map or demo segment needs, loaded once from the game filesystem: the BSP38 map with its
WAL textures, MD2 models with their PCX skins, SP2 sprites with their PCX frames, the sky box and the palette
(``pics/colormap.pcx``).

MD2 poses work like Quake's MDL poses, so an MD2 becomes an :class:`~assets_loader.models.AliasModel` (one skin
picture per skin name, no frame or skin groups) and an SP2 a :class:`~assets_loader.models.SpriteModel` (always
facing the viewer): the renderer draws both with the Quake paths. A model file is recognised by its content, not
its name: an ``.md2`` that holds an MD3 (``IDP3``, as some AQtion items do; Q2PRO loads either) becomes a
``"md3"`` model in the segment's :class:`~viewer.render.shaded.records.Quake3Models`, with its surfaces' skins as
pictures. A missing or broken model, texture or sky face is a placeholder (or no sky box) with a warning; a
missing map or palette is an error naming the file.

References: Quake II ``R_RegisterModel``/``Mod_LoadAliasModel``/``Mod_LoadSpriteModel`` (ref_gl/gl_model.c),
Q2PRO ``MOD_Load`` (the file's magic picks the loader: ``IDP2`` MD2, ``IDP3`` MD3, ``IDS2`` SP2),
``R_SetSky`` (ref_gl/gl_warp.c: ``env/<name><suffix>``, TGA in GL), ``Draw_GetPalette`` (ref_gl/gl_image.c:
the palette is ``pics/colormap.pcx``'s), ``R_BeginRegistration`` (``maps/<name>.bsp``); ``gl_modulate`` /
``intensity`` defaults (ref_gl/gl_rmain.c ``R_Register``).
"""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
from PIL import Image as PilImage

from assets_loader.bsp38 import World38, load_bsp38
from assets_loader.errors import FormatError, NotFoundError
from assets_loader.bsp.textures import placeholder_texture
from assets_loader.models import AliasModel, SpriteModel, load_md2, load_sp2
from assets_loader.models.md2 import Md2Model, Md2Skins, load_md2_skins
from assets_loader.models.md3 import MD3_IDENT, Md3Model, load_md3
from assets_loader.models.mdl import AliasSkin
from assets_loader.models.sp2 import Sprite2Model
from assets_loader.models.spr import SPR_VP_PARALLEL, SpriteFrame, SpriteImage
from assets_loader.pak import load_pak
from assets_loader.palette import TRANSPARENT_INDEX, Palette, load_palette as load_quake_palette
from assets_loader.pcx import load_pcx
from assets_loader.truecolor import load_rgba
from assets_loader.vfs import VirtualFS

from ..base import precache_ref
from .fallback_pics import sample_pak_path
from ...render.shaded.records import Quake3Models
from ...render.bsp.records import BspSegment, Lighting, SkyBox
from ...render.refdef import Look, ModelRef, SegmentAssets

PALETTE_PATH = "pics/colormap.pcx"
#: The model every client without its own is drawn with (``CL_LoadClientinfo``).
MALE_DIR = "players/male"
#: The palette of the bundled sample pak used when there is no ``pics/colormap.pcx``.
STAND_IN_PALETTE = "gfx/palette.lmp"
#: The six sky pictures in ``R_SetSky``'s order.
SKY_SUFFIXES = ("rt", "bk", "lf", "ft", "up", "dn")
#: ref_gl's defaults: textures scaled by ``intensity`` 2 when uploaded, lightmaps by ``gl_modulate`` 1, no
#: fullbright colours, mipmapped textures read from the nearer mip level (``gl_texturemode``
#: ``GL_LINEAR_MIPMAP_NEAREST``).
QUAKE2_LIGHTING = Lighting(texture_scale=2.0, lightmap_scale=1.0, fullbrights=False,
                           texture_mode="GL_LINEAR_MIPMAP_NEAREST")
#: ref_gl's look: models lit by ``R_DrawAliasModel``'s rule (the world's light cap is the lighting's
#: ``gl_modulate``).
QUAKE2_LOOK = Look(model_light="ref_gl", particles="q2pro", dlights="q2pro")


def load_palette(fs: VirtualFS) -> Palette:
    """The game palette: the one at the end of ``pics/colormap.pcx``; without Quake II's data, Quake's palette of
    the bundled LibreQuake sample stands in (particles and the stand-in font keep colours; the session's notice
    says the data is missing)."""
    if not fs.exists(PALETTE_PATH):
        return load_quake_palette(load_pak(sample_pak_path()).read(STAND_IN_PALETTE), STAND_IN_PALETTE)
    return load_pcx(fs.read(PALETTE_PATH), PALETTE_PATH).palette


def load_world(fs: VirtualFS, map_path: str) -> World38:
    """A map with its textures from ``textures/<name>.wal`` (missing ones are placeholders, with one warning)."""
    world = load_bsp38(fs.read(map_path), name=map_path, fs=fs)
    if world.missing_textures:
        warnings.warn(f"{map_path}: {len(world.missing_textures)} textures missing "
                      f"({', '.join(world.missing_textures[:4])}…); drawing placeholders", stacklevel=2)
    return world


def _sky_face(fs: VirtualFS, base: str) -> np.ndarray:
    """``env/<sky><suffix>`` as RGBA, the TGA first (the GL renderer's choice), then the PCX."""
    if fs.exists(base + ".tga"):
        return load_rgba(fs.read(base + ".tga"), base + ".tga")
    return load_pcx(fs.read(base + ".pcx"), base + ".pcx").to_rgba()


def load_sky(fs: VirtualFS, name: str, rotate: float = 0.0,
             axis: tuple[float, float, float] = (0.0, 0.0, 1.0)) -> SkyBox | None:
    """The sky box ``name`` (``None`` with a warning when a face is missing or unreadable). Faces of another size
    than the first are resized to it, so the six share one texture array."""
    if not name:
        return None
    faces = []
    try:
        for suffix in SKY_SUFFIXES:
            faces.append(_sky_face(fs, f"env/{name}{suffix}"))
    except FormatError as exc:
        warnings.warn(f"sky {name!r}: {exc}; drawing the sky faces black", stacklevel=2)
        return None
    h, w = faces[0].shape[:2]
    same = [f if f.shape[:2] == (h, w) else np.asarray(PilImage.fromarray(f).resize((w, h))) for f in faces]
    out = np.stack(same)
    out.setflags(write=False)
    return SkyBox(name, out, rotate, axis)


def _floats(text: str, count: int, default: tuple[float, ...]) -> tuple[float, ...]:
    try:
        values = tuple(float(v) for v in text.split())
    except ValueError:
        return default
    return values if len(values) == count else default


def sky_from_strings(fs: VirtualFS, name: str, rotate: str = "0", axis: str = "0 0 1") -> SkyBox | None:
    """The sky box of the sky configstrings' texts (``CS_SKY``, ``CS_SKYROTATE``, ``CS_SKYAXIS``; unreadable
    numbers, or a zero axis, mean no rotation about +Z, as ``CL_PrepRefresh``'s ``sscanf`` leaves zeros)."""
    turn = _floats(rotate, 1, (0.0,))[0]
    about = _floats(axis, 3, (0.0, 0.0, 1.0))
    if not any(about):
        about = (0.0, 0.0, 1.0)
    return load_sky(fs, name, turn, (about[0], about[1], about[2]))


def world_sky(fs: VirtualFS, world: World38) -> SkyBox | None:
    """The sky the worldspawn names (``sky``, ``skyrotate``, ``skyaxis``: what ``SP_worldspawn`` puts in the sky
    configstrings; ``unit1_`` when it names none)."""
    spawn = world.worldspawn
    return sky_from_strings(fs, spawn.get("sky", "unit1_"), spawn.get("skyrotate", "0"),
                            spawn.get("skyaxis", "0 0 1"))


def alias_from_md2(model: Md2Model, skins: Md2Skins, palette: Palette | None = None) -> AliasModel:
    """The MD2 as an alias model: its poses and mesh as they are, one single-picture skin per skin image. When a
    skin is truecolour every skin gets RGBA colours, the PCX ones in ``palette``'s (needed only then)."""
    empty = np.zeros(0, np.float32)
    empty.setflags(write=False)
    rgba = None
    if palette is not None and any(c is not None for c in skins.truecolor):
        rgba = np.stack([c if c is not None else palette.to_rgba(i) for c, i in zip(skins.truecolor, skins.indices)])
        rgba.setflags(write=False)
    mins, maxs = model.pose_bbox_min.min(axis=0), model.pose_bbox_max.max(axis=0)
    radius = float(np.linalg.norm(np.maximum(np.abs(mins), np.abs(maxs))))
    return AliasModel(
        path=model.path, version=model.version, skin_width=model.skin_width, skin_height=model.skin_height,
        num_verts=model.num_verts, num_tris=model.num_tris, st=model.st, triangles=model.triangles,
        frames=model.frames, positions=model.positions, normals=model.normals, pose_names=model.pose_names,
        pose_bbox_min=model.pose_bbox_min, pose_bbox_max=model.pose_bbox_max, mesh=model.mesh,
        scale=np.ones(3, np.float32), origin=np.zeros(3, np.float32), bounding_radius=radius,
        eye_position=np.zeros(3, np.float32), synctype=0, flags=0, size=0.0,
        skins=tuple(AliasSkin(i, 1, empty, False) for i in range(len(skins.indices))), skin_images=skins.indices,
        onseam=np.zeros(model.num_verts, bool), faces_front=np.ones(model.num_tris, bool), skin_rgba=rgba)


def sprite_from_sp2(sprite: Sprite2Model, fs: VirtualFS) -> SpriteModel:
    """The SP2 as a viewer-facing sprite, each frame's PCX read from ``fs`` (a missing picture is a 1×1
    transparent one, with a warning). ``origin_x``/``origin_y`` become the picture's left/top offsets."""
    frames = []
    for frame in sprite.frames:
        try:
            indices = load_pcx(fs.read(frame.name), frame.name).indices
        except FormatError as exc:
            warnings.warn(f"{sprite.path}: {exc}; the frame is left empty", stacklevel=2)
            indices = np.full((1, 1), TRANSPARENT_INDEX, np.uint8)
        h, w = indices.shape
        image = SpriteImage(-frame.origin_x, frame.height - frame.origin_y, w, h, indices)
        frames.append(SpriteFrame((image,), np.zeros(0, np.float32), False))
    width = max((f.width for f in sprite.frames), default=0)
    height = max((f.height for f in sprite.frames), default=0)
    return SpriteModel(sprite.path, sprite.version, SPR_VP_PARALLEL, float(max(width, height)), width, height, 0.0,
                       0, tuple(frames))


def load_model(fs: VirtualFS, name: str, skins: tuple[str, ...] = (), md3: dict[str, Md3Model] | None = None
               ) -> ModelRef:
    """One model configstring: ``*N`` brush models, ``.md2`` with skins, ``.sp2`` with pictures; problems become
    a ``"missing"`` placeholder and a warning. ``#``-names (player view weapons) are resolved by the game code
    and stay placeholders here. An ``.md2`` file holding an MD3 goes into ``md3`` under ``name`` (a ``"md3"``
    reference; without ``md3`` it is a placeholder).

    ``skins``: more skin pictures after the ones the MD2 names (a player model names none: its skins are
    ``players/<model>/<skin>.pcx`` from the players' configstrings); skin number ``n`` of an entity is the
    ``n``-th of them all."""
    special = precache_ref(name)
    if special is not None:
        return special
    lower = name.lower()
    try:
        if lower.endswith(".md2"):
            data = fs.read(name)
            if data[:4] == MD3_IDENT and md3 is not None:
                md3[name] = load_md3(data, name)
                return ModelRef(name, "md3")
            md2 = load_md2(data, name=name)
            if skins:
                md2 = dataclasses.replace(md2, skin_names=md2.skin_names + skins)
            found = load_md2_skins(md2, fs)
            if found.missing or not md2.skin_names:
                warnings.warn(f"{name}: skins {', '.join(found.missing) or '(none named)'} missing; drawing a checker",
                              stacklevel=2)
            palette = load_palette(fs) if any(c is not None for c in found.truecolor) else None
            return ModelRef(name, "alias", alias=alias_from_md2(md2, found, palette))
        if lower.endswith(".sp2"):
            return ModelRef(name, "sprite", sprite=sprite_from_sp2(load_sp2(fs.read(name), name=name), fs))
    except FormatError as exc:  # NotFoundError included: the game dirs lack the file
        warnings.warn(f"{exc}; drawing a placeholder", stacklevel=2)
        return ModelRef(name, "missing")
    warnings.warn(f"model {name!r}: not an MD2 or SP2 model; drawing a placeholder", stacklevel=2)
    return ModelRef(name, "missing")


def client_model(fs: VirtualFS, skin_path: str) -> tuple[str, str]:
    """``CL_LoadClientinfo``: the model and skin picture a client with skin ``players/<model>/<skin>.pcx`` is
    drawn with: ``players/<model>/tris.md2``, else ``players/male/tris.md2``; a skin the model lacks is looked for
    beside the male model (CTF skins), then ``players/male/grunt.pcx``.  A fallback is reported in one warning."""
    model_dir, skin = skin_path.rsplit("/", 1)
    if not fs.exists(f"{model_dir}/tris.md2") or fs.find_image(f"{model_dir}/{skin}") is None:
        model_dir = MALE_DIR
    if fs.find_image(f"{model_dir}/{skin}") is None:
        skin = "grunt.pcx"
    model, picture = f"{model_dir}/tris.md2", f"{model_dir}/{skin}"
    if picture.lower() != skin_path.lower():
        warnings.warn(f"player skin {skin_path!r} or its tris.md2 is missing; drawing {picture} on {model} in its "
                      "place (a placeholder)", stacklevel=3)
    return model, picture


def load_precache_model(fs: VirtualFS, name: str, md3: dict[str, Md3Model] | None = None) -> ModelRef:
    """One entry of a segment's model list: a model, or (after the 256 model configstrings) a client's skin picture
    ``players/<model>/<skin>.pcx``, drawn on the ``tris.md2`` beside it, or the male model's when it is missing
    (:func:`client_model`); MD3 files go into ``md3`` (:func:`load_model`)."""
    lower = name.lower()
    if lower.startswith("players/") and lower.endswith(".pcx"):
        model, skin = client_model(fs, name)
        ref = load_model(fs, model, skins=(skin,))
        alias = ref.alias
        if alias is not None and len(alias.skins) > 1:     # the client's skin is skin 0, whatever the MD2 names
            rgba = alias.skin_rgba[-1:] if alias.skin_rgba is not None else None
            alias = dataclasses.replace(alias, skins=alias.skins[:1], skin_images=alias.skin_images[-1:],
                                        skin_rgba=rgba)
            ref = dataclasses.replace(ref, alias=alias)
        return ref
    return load_model(fs, name, md3=md3)


def skin_picture(fs: VirtualFS, name: str, palette: Palette) -> np.ndarray | None:
    """Skin picture ``name`` as RGBA ``u1[H, W, 4]``, found under its own extension or another one (``.pcx``,
    ``.tga``, ``.png``, ``.jpg``: Q2PRO's image format fallback); a PCX takes the game palette's colours, as the
    8-bit skins of Quake II do. ``None`` when no such picture can be read."""
    found = fs.find_image(name)
    if found is None:
        return None
    try:
        if found.lower().endswith(".pcx"):
            return palette.to_rgba(load_pcx(fs.read(found), found).indices)
        return load_rgba(fs.read(found), found)
    except FormatError as exc:
        warnings.warn(f"{exc}; drawing a checker", stacklevel=2)
        return None


def md3_models(fs: VirtualFS, md3: dict[str, Md3Model], palette: Palette) -> Quake3Models | None:
    """The MD3 models of a Quake II segment and their skins (each surface's first shader name is a picture; a
    missing one is the checker of missing skins, with a warning), or ``None`` when there are none."""
    if not md3:
        return None
    checker = palette.to_rgba(placeholder_texture("", 16, 16).mips[0])
    images: dict[str, np.ndarray] = {}
    for path, model in md3.items():
        for surface in model.surfaces:
            for name in surface.shaders[:1]:
                if name.lower() in images:
                    continue
                picture = skin_picture(fs, name, palette)
                if picture is None:
                    warnings.warn(f"{path}: skin {name!r} missing; drawing a checker", stacklevel=2)
                    picture = checker
                images[name.lower()] = picture
    return Quake3Models(md3=dict(md3), images=images)


def load_segment_assets(fs: VirtualFS, model_precache: tuple[str, ...], map_path: str = "",
                        sky: tuple[str, str, str] | None = None) -> SegmentAssets:
    """Everything a demo segment draws: the map (``map_path``, else model 1 of the model configstrings, which
    ``CS_MODELS + 1`` names) and the rest of its models; ``sky``: the texts of the sky configstrings (name,
    rotate, axis), else the worldspawn's sky."""
    path = map_path or (model_precache[1] if len(model_precache) > 1 else "")
    if not path:
        raise FormatError("<demo>", "demo", None, "a map name as model 1 of the model configstrings")
    palette = load_palette(fs)
    world: World38 | None
    try:
        world = load_world(fs, path)
    except NotFoundError:  # the session says so once and draws a placeholder floor
        world = None
    md3: dict[str, Md3Model] = {}
    models = tuple(ModelRef(n, "brush", submodel=0) if i == 1 else load_precache_model(fs, n, md3)
                   for i, n in enumerate(model_precache))
    if sky is not None:
        box = sky_from_strings(fs, *sky)
    else:
        box = world_sky(fs, world) if world is not None else None
    return BspSegment(models, palette, look=QUAKE2_LOOK, md3=md3_models(fs, md3, palette), world=world,
                      lighting=QUAKE2_LIGHTING, sky_box=box)


def load_map_assets(fs: VirtualFS, map_path: str) -> SegmentAssets:
    """A map shown without a demo (``qdv map``): the map, its sky from the worldspawn, and no models."""
    palette = load_palette(fs)
    world = load_world(fs, map_path)
    return BspSegment((), palette, look=QUAKE2_LOOK, world=world, lighting=QUAKE2_LIGHTING,
                      sky_box=world_sky(fs, world))
