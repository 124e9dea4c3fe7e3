#!/usr/bin/env python3
"""Build the free samples that ``qdv play`` shows with no arguments (``viewer/sample/``).

Each sample is one short demo beside a ``pak0.pak`` holding exactly what that demo needs to be drawn:

* every model the demo precaches (map, brush item boxes, ``progs/*.mdl|*.spr``) that the source pak has;
* ``gfx.wad`` (status bar pictures, ``conchars``), ``gfx/palette.lmp``, ``gfx/colormap.lmp`` and the HUD's
  ``gfx/*.lmp`` overlays.

Three samples:

* ``oa`` (the default of ``qdv play``): five OpenArena bots in a free-for-all on ``oa_dm1``, recorded by us with
  ioquake3 + Debian's OpenArena (the demo in ``oa/baseoa/demos`` is the source; ``CREDITS.md`` says how).  Its
  ``baseoa/pak0.pk3`` holds every file qdv reads from the OpenArena install to draw the demo (every frame, with
  the HUD) and to play its sounds but the models it never draws, TGAs as lossless PNGs where smaller; see
  :func:`build_oa`.
* ``lqdm2``: a two-player QuakeWorld deathmatch on LibreQuake's ``lqdm2``, the MVD
  from the corpus (``../shared/data/quakeworld``), laid out as a QuakeWorld base dir: ``lqdm2/id1/pak0.pak`` and
  the demo beside ``id1``.
* ``lq1``: LibreQuake's own ``demo1_lite.dem`` (a single-player cutscene on ``lq_e0m1``) in a game dir.

The LibreQuake samples have no sounds, no ``progs.dat``, no ``gfx/pop.lmp`` (the only GPL-2 file of LibreQuake's
data): everything they ship is LibreQuake's BSD-3-Clause data or our own recordings of it. ``CREDITS.md`` and
``LICENSE-LibreQuake.txt`` are written from a LibreQuake ``docs`` folder (``COPYING`` and ``CREDITS``) when
``--docs`` is given; without it the credits are written from the ``lq1`` sample's licence and contributor list
already in the repo.

Usage (from the repository root; the defaults read the corpus beside the repo)::

    python tools/make_sample.py [oa|lqdm2|lq1 ...] [--data ../shared/data] [--docs LQ/docs] [--openarena DIR]

The paks are written deterministically (entries in precache order, then the gfx files; the pk3's in name order
with fixed dates), so re-running the script on the same inputs reproduces the committed bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import re
import shutil
import struct
import sys
import warnings
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
from PIL import Image as PilImage

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from assets_loader.demos import load_demo  # noqa: E402
from assets_loader.pak import PakFile, load_pak  # noqa: E402
from assets_loader.truecolor import load_rgba  # noqa: E402
from assets_loader.vfs import VirtualFS  # noqa: E402

SAMPLES_DIR = REPO / "viewer" / "sample"
GFX = ("gfx.wad", "gfx/palette.lmp", "gfx/colormap.lmp", "gfx/complete.lmp", "gfx/inter.lmp",
       "gfx/ranking.lmp", "gfx/finale.lmp")
#: LibreQuake snapshot the corpus (and the licence/credits texts) come from: see ../shared/data/quake1/SOURCES.md.
LQ_COMMIT = "a4175ee2b6f3cb97f38cfa5c43e4e3b4ba5d341f"
LQ_ASSET_COMMIT = "7e53103bb6f964818844a5b44c69d78ca7193db3"
LICENSE_NAME = "LICENSE-LibreQuake.txt"


@dataclass(frozen=True, slots=True)
class Sample:
    """One bundled sample: where its demo and pak come from in the corpus, and where they go."""

    name: str
    source_pak: str          # relative to the corpus root
    source_demo: str         # relative to the corpus root
    pak_dir: str             # relative to the sample folder: where pak0.pak goes ("" or "id1")
    about: str               # one line for CREDITS.md


SAMPLES = {
    "lqdm2": Sample("lqdm2", "quakeworld/id1/pak0.pak", "quakeworld/lq_lqdm2_mvd.mvd", "id1",
                    "a two-player QuakeWorld free-for-all on `lqdm2` recorded by mvdsv/KTX (the qdv corpus, "
                    "`quakeworld/SOURCES.md`), unmodified"),
    "lq1": Sample("lq1", "quake1/lq1/pak0.pak", "quake1/lq1/demo1_lite.dem", "",
                  "LibreQuake's demo, unmodified"),
}


def sample_files(demo_path: Path, pak: PakFile) -> list[str]:
    """Names to copy into the sample pak: the demo's model precache (those the pak has), then the gfx files."""
    timeline = load_demo(str(demo_path))
    names: list[str] = []
    for segment in timeline.segments:
        for name in segment.model_precache:
            if name and not name.startswith("*") and name in pak and name.lower() not in names:
                names.append(name.lower())
    for name in GFX:
        if name in pak and name not in names:
            names.append(name)
    return names


def write_pak(path: Path, files: list[tuple[str, bytes]]) -> None:
    """A PACK archive: header, file data, then the directory of 64-byte entries (56-byte names)."""
    body = bytearray()
    directory = bytearray()
    offset = 12
    for name, data in files:
        encoded = name.encode("latin-1")
        if len(encoded) > 55:
            raise ValueError(f"{name!r}: pak names are at most 55 bytes")
        directory += struct.pack("<56sii", encoded, offset + len(body), len(data))
        body += data
    header = struct.pack("<4sii", b"PACK", offset + len(body), len(directory))
    path.write_bytes(header + bytes(body) + bytes(directory))


def credits_text(sample: Sample, demo_name: str, names: list[str], lq_credits: str) -> str:
    pak_path = f"{sample.pak_dir}/pak0.pak" if sample.pak_dir else "pak0.pak"
    lines = [
        "# Credits of the bundled sample",
        "",
        "Everything in this folder comes from the LibreQuake project (https://github.com/lavenderdotpet/LibreQuake),",
        f"repository snapshot `{LQ_COMMIT}`; the non-map files from commit `{LQ_ASSET_COMMIT}`. The maps were",
        "compiled from LibreQuake's `.map` sources with ericw-tools 2.0.0-alpha9 (the tools LibreQuake's CI uses).",
        f"All files here are under LibreQuake's BSD-3-Clause licence: see `{LICENSE_NAME}`.",
        "",
        f"* `{demo_name}`: {sample.about}.",
        f"* `{pak_path}`: built by `tools/make_sample.py` from the LibreQuake files listed below (unmodified bytes).",
        "",
        f"Files in `{pak_path}`:",
        "",
        *(f"* `{n}`" for n in names),
        "",
        "## LibreQuake contributors (LibreQuake `docs/CREDITS`)",
        "",
        "```",
        lq_credits.rstrip("\n"),
        "```",
        "",
    ]
    return "\n".join(lines)


def contributors_from_credits(credits_md: str) -> str:
    """The contributor list quoted in an existing ``CREDITS.md`` (the fenced block after its last heading)."""
    found = re.search(r"## LibreQuake contributors[^\n]*\n\n```\n(.*?)```", credits_md, re.S)
    if found is None:
        raise ValueError("no contributor block in the existing CREDITS.md")
    return found.group(1)


def build(sample: Sample, data: Path, docs: Path | None) -> list[Path]:
    """Write one sample folder; returns the files written."""
    out = SAMPLES_DIR / sample.name
    pak_dir = out / sample.pak_dir
    pak_dir.mkdir(parents=True, exist_ok=True)
    demo = data / sample.source_demo
    pak = load_pak(data / sample.source_pak)
    names = sample_files(demo, pak)
    write_pak(pak_dir / "pak0.pak", [(n, pak.read(n)) for n in names])
    shutil.copyfile(demo, out / demo.name)
    if docs is not None:
        licence = (docs / "COPYING").read_text(encoding="utf-8")
        contributors = (docs / "CREDITS").read_text(encoding="utf-8")
    else:
        licence = (SAMPLES_DIR / "lq1" / LICENSE_NAME).read_text(encoding="utf-8")
        contributors = contributors_from_credits((SAMPLES_DIR / "lq1" / "CREDITS.md").read_text(encoding="utf-8"))
    (out / LICENSE_NAME).write_text(licence, encoding="utf-8")
    (out / "CREDITS.md").write_text(credits_text(sample, demo.name, names, contributors), encoding="utf-8")
    return sorted(p for p in out.rglob("*") if p.is_file())


#: Debian's OpenArena data (packages openarena-data 0.8.5split-14, openarena-088-data 0.8.8-12).
OA_BASEDIR = Path("/usr/lib/openarena")
OA_DOCS = (Path("/usr/share/doc/openarena-data"), Path("/usr/share/doc/openarena-088-data"))
OA_DEMO = "baseoa/demos/qdv_oa_ffa.dm_71"
#: Frames drawn per demo second while noting what the renderer reads (the demo has 20 snapshots a second).
OA_DRAW_RATE = 20
OA_DRAW_SIZE = (320, 240)
OA_CREDITS = """# Credits of the bundled OpenArena sample

* `baseoa/demos/qdv_oa_ffa.dm_71`: recorded by the qdv authors on 2026-11-28 with ioquake3
  1.36+u20221123.70d07d9+dfsg-1 and Debian's OpenArena 0.8.8 data: a dedicated server on `oa_dm1` with five bots
  (Sarge, Grunt, Major, Angelyss, Kyonshi, skill 4, free-for-all, no frag or time limit) and a spectator client
  following Sarge, then Kyonshi; 110 s (`tools/record_oa_sample.py` runs the engines as they ran).  A recording
  of GPL-2+ data, offered under the same GPL-2+ terms.
* `baseoa/pak0.pk3`: built by `tools/make_sample.py oa` from Debian's OpenArena install (`/usr/lib/openarena`):
  every file qdv reads to draw that demo (map, textures, shader scripts, player/weapon/item models, HUD art) and
  to play its sounds, from the highest-priority OpenArena pk3 that holds it, unmodified but for the TGA pictures
  marked below, stored as PNGs of the same pixels (smaller; a `.tga` name finds the `.png`).  The item and weapon
  models the demo never shows are left out (listed at the end).

OpenArena's data is © 2005-2012 the OpenArena Team and contributors, parts © 1997-2006 id Software, Inc.,
released under the GNU General Public License version 2 or later (`GPL-2.txt`); Debian's copyright files are in
`copyright-openarena-data.txt` and `copyright-openarena-088-data.txt`, OpenArena's contributors in
`CREDITS-OpenArena.txt`.  The source of OpenArena's data: https://openarena.ws/svn/source/assets/ and Debian's
`openarena-data` / `openarena-088-data` source packages.

Files in `baseoa/pak0.pk3`:

"""


class _ReadLog(VirtualFS):
    """A game filesystem that notes the name of every file read from it and hides the files named ``hidden`` (as
    if no pk3 held them)."""

    def __init__(self, basedir: Path, game: str, hidden: frozenset[str] = frozenset()) -> None:
        super().__init__(basedir, game, base=game)
        self.names: set[str] = set()
        self.hidden = hidden

    def _locate(self, name: str) -> tuple[Any, str] | None:
        return None if name.replace("\\", "/").lstrip("/").lower() in self.hidden else super()._locate(name)

    def read(self, name: str) -> bytes:
        data = super().read(name)
        self.names.add(name.lower())
        return data

    def read_head(self, name: str, size: int) -> bytes:
        self.names.add(name.lower())
        return super().read_head(name, size)


@dataclass(frozen=True, slots=True)
class _Playback:
    """What qdv did playing the demo from one filesystem: the files it read (``fs.names``), the MD3 models it drew,
    a digest of every frame drawn and the warnings it gave."""

    fs: _ReadLog
    drawn: frozenset[str]
    frames: tuple[bytes, ...]
    warnings: frozenset[str]


def play_through(demo: Path, fs: _ReadLog) -> _Playback:
    """Every frame of ``demo`` drawn with its HUD from ``fs`` (``OA_DRAW_RATE`` a second, each frame's pixels
    digested, every MD3 handed to the model renderer noted), and every sound its mixer plays loaded."""
    from viewer.audio import Mixer, SoundBank
    from viewer.headless import DemoRenderer
    from viewer.render.shaded.md3 import Md3Renderer
    from viewer.render.shaded.records import Md3Draw

    drawn: set[str] = set()
    draw = Md3Renderer.draw

    def noting_draw(self: Md3Renderer, draws: tuple[Md3Draw, ...], *args: Any, **kwargs: Any) -> None:
        drawn.update(d.model for d in draws)
        draw(self, draws, *args, **kwargs)

    timeline = load_demo(str(demo))
    frames: list[bytes] = []
    with warnings.catch_warnings(record=True) as caught, mock.patch.object(Md3Renderer, "draw", noting_draw):
        warnings.simplefilter("always")
        Mixer(timeline, SoundBank(fs))
        renderer = DemoRenderer(timeline, fs, OA_DRAW_SIZE, hud=True)
        try:
            start = float(timeline.times[0])
            for k in range(int(timeline.duration * OA_DRAW_RATE) + 1):
                frames.append(hashlib.sha256(renderer.pixels(start + k / OA_DRAW_RATE).tobytes()).digest())
        finally:
            renderer.release()
    said = frozenset(str(w.message).replace(str(fs.game_dirs[-1]), "<game dir>") for w in caught)
    return _Playback(fs, frozenset(drawn), tuple(frames), said)


def undrawn_models(played: _Playback) -> frozenset[str]:
    """The models qdv registers with every Quake III segment when the game data has them (every item, weapon,
    missile, flash and hand model: :func:`~viewer.games.quake3.items.segment_models`,
    :func:`~viewer.games.quake3.fx.segment_effect_models`) that the demo never drew; a drawn weapon keeps its
    flash and hand, which show for a moment only."""
    from viewer.games.quake3.fx import flash_model, segment_effect_models
    from viewer.games.quake3.items import WEAPON_MODELS, segment_models

    kept = set(played.drawn)
    for weapon in WEAPON_MODELS.values():
        if weapon in played.drawn:
            kept |= {flash_model(weapon), weapon[:-4] + "_hand.md3"}
    registered = (*segment_models(), *segment_effect_models())
    return frozenset(m for m in registered if m in played.fs.names and m not in kept)


def stored_as(name: str, data: bytes) -> tuple[str, bytes]:
    """How a file goes into the pk3: a TGA as a PNG of the same pixels (``.png`` for ``.tga``) when that is
    smaller deflated, else unchanged.  Both of qdv's ways of reading a TGA (:func:`~assets_loader.truecolor.
    load_rgba`, which ignores a TGA 2 footer's alpha flag, and Pillow's as the HUD's pictures) must give the PNG's
    pixels; a ``.tga`` name finds the ``.png`` as ``R_LoadImage`` tries the other extensions
    (:meth:`~assets_loader.vfs.VirtualFS.find_image`, :func:`viewer.games.quake3.hud_pics`)."""
    if not name.endswith(".tga"):
        return name, data
    rgba = load_rgba(data, name)
    with PilImage.open(io.BytesIO(data)) as pic:
        if not np.array_equal(np.asarray(pic.convert("RGBA")), rgba):
            return name, data
    opaque = bool((rgba[..., 3] == 255).all())
    out = io.BytesIO()
    PilImage.fromarray(np.ascontiguousarray(rgba[..., :3] if opaque else rgba)).save(out, "PNG", optimize=True)
    png = out.getvalue()
    if len(zlib.compress(png, 9)) >= len(zlib.compress(data, 9)) or not np.array_equal(load_rgba(png), rgba):
        return name, data
    return name[:-4] + ".png", png


def write_pk3(path: Path, files: list[tuple[str, bytes]]) -> None:
    """A zip of ``files`` (name, bytes), in that order, with fixed dates and modes (the same bytes every run)."""
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(2026, 11, 28, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data, compresslevel=9)


def build_oa(openarena: Path) -> list[Path]:
    """Write the ``oa`` sample's pk3, licence and credits beside its committed demo; returns the files written.

    The demo is played three times: from the OpenArena install; from it with :func:`undrawn_models` hidden (the
    files then read are the pk3's); from the written pk3 alone.  Every frame must come out the same each time, the
    same MD3s drawn, the same warnings given."""
    out = SAMPLES_DIR / "oa"
    demo = out / OA_DEMO
    full = play_through(demo, _ReadLog(openarena, "baseoa"))
    undrawn = undrawn_models(full)
    trimmed = play_through(demo, _ReadLog(openarena, "baseoa", undrawn))
    names = sorted(trimmed.fs.names)
    files = [stored_as(n, trimmed.fs.read(n)) for n in names]
    stems = [n.rpartition(".")[0] for n, _ in files if n.endswith((".tga", ".png", ".jpg"))]
    if len(stems) != len(set(stems)):
        raise SystemExit("two pictures of one name in the pk3: a .tga name would find the wrong one")
    write_pk3(out / "baseoa" / "pak0.pk3", files)
    packed = play_through(demo, _ReadLog(out, "baseoa"))
    for played in (trimmed, packed):
        if (played.frames, played.drawn, played.warnings) != (full.frames, full.drawn, full.warnings):
            raise SystemExit(f"the sample draws differently from {played.fs.game_dirs[-1]}")
    shutil.copyfile("/usr/share/common-licenses/GPL-2", out / "GPL-2.txt")
    for doc in OA_DOCS:
        shutil.copyfile(doc / "copyright", out / f"copyright-{doc.name}.txt")
    shutil.copyfile(OA_DOCS[0] / "CREDITS", out / "CREDITS-OpenArena.txt")
    listed = "".join(f"* `{n}`" + (f" (`{o}` as PNG)" if n != o else "") + "\n"
                     for o, (n, _) in zip(names, files, strict=True))
    left_out = "".join(f"* `{n}`\n" for n in sorted(undrawn))
    (out / "CREDITS.md").write_text(f"{OA_CREDITS}{listed}\nModels left out (the demo never draws them):\n\n{left_out}",
                                    encoding="utf-8")
    return sorted(p for p in out.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("samples", nargs="*", metavar="SAMPLE",
                        help=f"which samples to build: {', '.join(SAMPLES)} (default: all)")
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data", help="the corpus root")
    parser.add_argument("--docs", type=Path, help="LibreQuake docs folder (COPYING, CREDITS) for the licence files")
    parser.add_argument("--openarena", type=Path, default=OA_BASEDIR,
                        help="OpenArena install (holding baseoa/) for the oa sample")
    args = parser.parse_args(argv)
    known = ["oa", *SAMPLES]
    unknown = sorted(set(args.samples) - set(known))
    if unknown:
        parser.error(f"unknown sample {', '.join(unknown)} (choose from {', '.join(known)})")
    for name in args.samples or known:
        written = build_oa(args.openarena) if name == "oa" else build(SAMPLES[name], args.data, args.docs)
        for f in written:
            digest = hashlib.sha256(f.read_bytes()).hexdigest()[:16]
            print(f"{f.relative_to(REPO)}  {f.stat().st_size:>9}  {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
