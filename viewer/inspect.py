"""``qdv inspect``: what is inside a Quake, Quake II or Quake III file, as a JSON-ready dict (keys documented in
README).

The file type comes from the extension, falling back to the magic bytes; a name that is not a path on disk is
looked up in the game filesystem given by ``--basedir``/``--game``, and, when no file has that name, as a
Quake III shader name in that filesystem's ``scripts/*.shader``.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from assets_loader.demos.detect import detect_format
from assets_loader.errors import FormatError, NotFoundError
from assets_loader.inflate import GZIP_MAGIC
from assets_loader.source import check_file, kind_of, read_source
from assets_loader.vfs import VirtualFS, detect_base_game, game_dir_of

_MAGIC_TYPES = {b"PACK": "pak", b"IDPO": "mdl", b"IDSP": "spr", b"WAD2": "wad", b"BSP2": "bsp", b"2PSB": "bsp",
                b"\x1d\x00\x00\x00": "bsp", b"IDP2": "md2", b"IDS2": "sp2", b"IDP3": "md3", b"PK\x03\x04": "pk3"}
_EXT_TYPES = {".pak": "pak", ".bsp": "bsp", ".mdl": "mdl", ".spr": "spr", ".wad": "wad", ".lmp": "lmp", ".pk3": "pk3",
              ".md3": "md3", ".wal": "wal", ".pcx": "pcx", ".md2": "md2", ".sp2": "sp2"}


def inspect_file(name: str, basedir: str | None = None, game: str | None = None) -> dict[str, Any]:
    """Describe ``name`` (a path, or a name inside the game dirs when ``basedir`` is given)."""
    path = Path(name)
    if path.exists() and not path.is_dir():  # FIFOs and devices too: the size check refuses them before reading
        data, fs = _read_head_or_whole(path), None
    elif basedir is not None:
        fs = VirtualFS(basedir, game, base=detect_base_game(basedir, game))
        if not fs.exists(name):
            return _describe_shader(name, fs)
        data = fs.read(name)
    else:
        raise NotFoundError(name, "file", None, "an existing file (or a game-dir name with --basedir/--game)")
    kind = _file_type(name, data)
    report: dict[str, Any] = {"file": name, "format": kind}
    report.update(_DESCRIBERS[kind](data, name, path if fs is None else None, fs))
    return report


def _read_head_or_whole(path: Path) -> bytes:
    """A PAK's or pk3's first bytes (their describers open the file itself and read on demand), else the whole
    file; both after the size check of :mod:`assets_loader.source`."""
    kind = kind_of(path.name)
    if kind not in ("pak", "pk3"):
        return read_source(path)[0]
    check_file(path, kind)
    with open(path, "rb") as f:
        return f.read(16)


def _file_type(name: str, data: bytes) -> str:
    base = Path(name).name.lower()
    if data[:4] == b"IBSP":  # Quake II (version 38) and Quake III (46, 47) share the magic
        return "bsp38" if data[4:8] == (38).to_bytes(4, "little") else "bsp46"
    if data[:4] == b"IDP3":  # an MD3 under any name (AQtion ships some as tris.md2; Q2PRO loads them by magic)
        return "md3"
    if base == "palette.lmp":
        return "palette"
    if base == "colormap.lmp":
        return "colormap"
    for ext, kind in _EXT_TYPES.items():
        if base.endswith(ext):
            return kind
    if data[:4] in _MAGIC_TYPES:
        return _MAGIC_TYPES[data[:4]]
    if data[:2] == GZIP_MAGIC:  # a gzipped demo: its format shows only once load_demo has inflated it
        return "demo"
    try:
        detect_format(data, name)  # a demo by its name (.dem, .qwd, .mvd, .dm2, .gz …) or its content
    except FormatError:
        raise FormatError(name, "inspected", 0, "a .pak, .pk3, .bsp, .mdl, .md2, .md3, .spr, .sp2, .wad, .lmp, .wal, "
                          ".pcx or demo file",
                          repr(data[:4])) from None
    return "demo"


def _describe_pak(data: bytes, name: str, path: Path | None, fs: VirtualFS | None) -> dict[str, Any]:
    from assets_loader.pak import load_pak

    pak = load_pak(path) if path is not None else load_pak(data, name=name)
    return {"entries": [{"name": e.name, "size": e.size} for e in pak.entries]}


def _describe_demo(data: bytes, name: str, path: Path | None, fs: VirtualFS | None) -> dict[str, Any]:
    from assets_loader.demos import load_demo

    from .demo_report import info_dict

    return info_dict(load_demo(data, name=name), name)


def _describe_bsp(data: bytes, name: str, path: Path | None, fs: VirtualFS | None) -> dict[str, Any]:
    from assets_loader.bsp import load_bsp

    lit_name = str(Path(name).with_suffix(".lit"))
    lit = None
    if path is not None and Path(lit_name).is_file():
        lit = read_source(lit_name, kind="map")[0]
    elif fs is not None and fs.exists(lit_name):
        lit = fs.read(lit_name)
    world = load_bsp(data, name=name, lit=lit, lit_name=lit_name)
    mins, maxs = world.bounds
    return {"version": world.version, "faces": world.num_faces, "textures": len(world.textures),
            "models": world.num_models, "entities": len(world.entities), "leafs": world.num_leafs,
            "triangles": world.mesh.num_triangles, "bounds": [mins.tolist(), maxs.tolist()],
            "lit": world.lit, "worldspawn": world.worldspawn}


def _describe_wad(data: bytes, name: str, path: Path | None, fs: VirtualFS | None) -> dict[str, Any]:
    from assets_loader.wad2 import load_wad

    wad = load_wad(data, name=name)
    return {"lumps": [{"name": lump.name, "type": lump.type, "size": lump.size} for lump in wad.lumps]}


def _describe_lmp(data: bytes, name: str, path: Path | None, fs: VirtualFS | None) -> dict[str, Any]:
    from assets_loader.images import load_lmp

    pic = load_lmp(data, name=name)
    return {"width": pic.width, "height": pic.height}


def _describe_palette(data: bytes, name: str, path: Path | None, fs: VirtualFS | None) -> dict[str, Any]:
    from assets_loader.palette import load_palette

    return {"colors": len(load_palette(data, name=name).rgb)}


def _describe_colormap(data: bytes, name: str, path: Path | None, fs: VirtualFS | None) -> dict[str, Any]:
    from assets_loader.palette import load_colormap

    return {"rows": len(load_colormap(data, name=name).rows)}


def _describe_mdl(data: bytes, name: str, path: Path | None, fs: VirtualFS | None) -> dict[str, Any]:
    from assets_loader.models import load_mdl

    mdl = load_mdl(data, name=name)
    return {"frames": mdl.num_frames, "poses": mdl.num_poses, "skins": len(mdl.skins), "vertices": mdl.num_verts,
            "triangles": mdl.num_tris, "skin_size": [mdl.skin_width, mdl.skin_height], "flags": mdl.flags}


def _describe_spr(data: bytes, name: str, path: Path | None, fs: VirtualFS | None) -> dict[str, Any]:
    from assets_loader.models import load_spr

    spr = load_spr(data, name=name)
    return {"type": spr.type, "type_name": _SPRITE_TYPES.get(spr.type, "unknown"), "frames": spr.num_frames,
            "max_size": [spr.max_width, spr.max_height]}


def _game_fs(path: Path | None, fs: VirtualFS | None) -> VirtualFS | None:
    """The game filesystem a file belongs to: the one given, or the game dir a file on disk sits in."""
    if fs is not None or path is None:
        return fs
    found = game_dir_of(path)
    if found is None:
        return None
    basedir, game = found
    return VirtualFS(basedir, game, base=detect_base_game(basedir, game))


def _describe_bsp38(data: bytes, name: str, path: Path | None, fs: VirtualFS | None) -> dict[str, Any]:
    from assets_loader.bsp38 import load_bsp38
    from assets_loader.bsp38.dtypes import SURF_NAMES

    world = load_bsp38(data, name=name, fs=_game_fs(path, fs))
    mins, maxs = world.bounds
    flags = world.faces["flags"]
    return {"version": world.version, "faces": world.num_faces, "textures": len(world.textures),
            "missing_textures": list(world.missing_textures), "models": world.num_models,
            "entities": len(world.entities), "leafs": world.num_leafs, "clusters": world.num_clusters,
            "areas": len(world.areas), "area_portals": len(world.areaportals), "brushes": len(world.brushes),
            "triangles": world.mesh.num_triangles, "bounds": [mins.tolist(), maxs.tolist()],
            "lightmap_size": [world.lightmap.width, world.lightmap.height],
            "surface_flags": {label: int(((flags & bit) != 0).sum()) for bit, label in SURF_NAMES.items()},
            "worldspawn": world.worldspawn}


def _describe_wal(data: bytes, name: str, path: Path | None, fs: VirtualFS | None) -> dict[str, Any]:
    from assets_loader.bsp38.dtypes import SURF_NAMES
    from assets_loader.wal import load_wal

    wal = load_wal(data, name=name)
    return {"name": wal.name, "width": wal.width, "height": wal.height, "next": wal.next_name, "flags": wal.flags,
            "flag_names": [label for bit, label in SURF_NAMES.items() if wal.flags & bit],
            "contents": wal.contents, "value": wal.value}


def _describe_pcx(data: bytes, name: str, path: Path | None, fs: VirtualFS | None) -> dict[str, Any]:
    from assets_loader.pcx import load_pcx

    pic = load_pcx(data, name=name)
    return {"width": pic.width, "height": pic.height}


def _describe_md2(data: bytes, name: str, path: Path | None, fs: VirtualFS | None) -> dict[str, Any]:
    from assets_loader.models import load_md2

    md2 = load_md2(data, name=name)
    return {"frames": md2.num_frames, "vertices": md2.num_verts, "triangles": md2.num_tris,
            "texcoords": len(md2.st), "glcmds": md2.num_glcmds, "skin_size": [md2.skin_width, md2.skin_height],
            "skins": list(md2.skin_names), "frame_names": [md2.pose_names[0], md2.pose_names[-1]]}


def _describe_sp2(data: bytes, name: str, path: Path | None, fs: VirtualFS | None) -> dict[str, Any]:
    from assets_loader.models import load_sp2

    sp2 = load_sp2(data, name=name)
    return {"frames": [{"name": f.name, "width": f.width, "height": f.height, "origin": [f.origin_x, f.origin_y]}
                       for f in sp2.frames]}


def _describe_pk3(data: bytes, name: str, path: Path | None, fs: VirtualFS | None) -> dict[str, Any]:
    from assets_loader.pk3 import load_pk3

    pk3 = load_pk3(path) if path is not None else load_pk3(data, name=name)
    return {"entries": [{"name": e.name, "size": e.size, "compressed": e.compressed_size} for e in pk3.entries]}


def _describe_bsp46(data: bytes, name: str, path: Path | None, fs: VirtualFS | None) -> dict[str, Any]:
    import numpy as np

    from assets_loader.bsp46 import SURFACE_KINDS, load_bsp46

    world = load_bsp46(data, name=name)
    kinds = np.bincount(world.surfaces["kind"], minlength=len(SURFACE_KINDS))
    grid = world.light_grid
    return {"version": 46, "shaders": len(world.shader_names), "surfaces": len(world.surfaces),
            "surface_kinds": {k: int(n) for k, n in zip(SURFACE_KINDS, kinds, strict=False) if k != "bad"},
            "vertices": len(world.vertices), "triangles": len(world.indices) // 3, "batches": len(world.batches),
            "lightmaps": world.lightmaps.count, "light_grid": list(grid.bounds) if grid else None,
            "clusters": world.num_clusters, "leafs": len(world.leafs), "models": len(world.models),
            "brushes": len(world.brushes), "fogs": [f.shader for f in world.fogs], "entities": len(world.entities),
            "bounds": [list(world.models[0].mins), list(world.models[0].maxs)], "worldspawn": world.worldspawn}


def _describe_md3(data: bytes, name: str, path: Path | None, fs: VirtualFS | None) -> dict[str, Any]:
    from assets_loader.models.md3 import load_md3

    md3 = load_md3(data, name=name)
    return {"name": md3.name, "frames": md3.num_frames, "tags": list(md3.tag_names),
            "surfaces": [{"name": s.name, "shaders": list(s.shaders), "vertices": len(s.st),
                          "triangles": len(s.triangles)} for s in md3.surfaces]}


def _describe_shader(name: str, fs: VirtualFS) -> dict[str, Any]:
    from assets_loader.q3shaders import load_shader_library

    shader = load_shader_library(fs).get(name)
    if shader is None:
        raise NotFoundError(name, "game file or shader", None,
                            "a file in the game dirs or a shader in their scripts/*.shader")
    report = _json_ready(asdict(shader))
    report["stages"] = [dict(st, is_lightmap=s.is_lightmap) for st, s in zip(report["stages"], shader.stages,
                                                                           strict=True)]
    return {"file": name, "format": "shader", **report}


def _json_ready(value: Any) -> Any:
    """Tuples → lists, frozensets → sorted lists, recursively (for ``json.dumps``)."""
    if isinstance(value, dict):
        return {k: _json_ready(v) for k, v in value.items()}
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, (list, tuple)):
        return [_json_ready(v) for v in value]
    return value


_SPRITE_TYPES = {0: "vp_parallel_upright", 1: "facing_upright", 2: "vp_parallel", 3: "oriented",
                 4: "vp_parallel_oriented"}


_DESCRIBERS = {
    "pak": _describe_pak,
    "bsp": _describe_bsp,
    "wad": _describe_wad,
    "lmp": _describe_lmp,
    "palette": _describe_palette,
    "colormap": _describe_colormap,
    "mdl": _describe_mdl,
    "spr": _describe_spr,
    "demo": _describe_demo,
    "bsp38": _describe_bsp38,
    "wal": _describe_wal,
    "pcx": _describe_pcx,
    "md2": _describe_md2,
    "sp2": _describe_sp2,
    "pk3": _describe_pk3,
    "bsp46": _describe_bsp46,
    "md3": _describe_md3,
}


def format_report(report: dict[str, Any]) -> str:
    """A human-readable rendering of an inspect report: one ``key: value`` line each, lists indented."""
    lines = []
    for key, value in report.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append(f"{key}: {len(value)}")
            lines.extend("  " + "  ".join(f"{v}" for v in item.values()) for item in value)
        elif isinstance(value, dict):
            lines.append(f"{key}:")
            lines.extend(f"  {k}: {v}" for k, v in value.items())
        else:
            lines.append(f"{key}: {value}")
    return "\n".join(lines)
