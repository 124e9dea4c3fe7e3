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
  the HUD) and to play its sounds, unmodified; see :func:`build_oa`.
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
import re
import shutil
import struct
import sys
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from assets_loader.demos import load_demo  # noqa: E402
from assets_loader.pak import PakFile, load_pak  # noqa: E402
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
  to play its sounds, unmodified, from the highest-priority OpenArena pk3 that holds it.

OpenArena's data is © 2005-2012 the OpenArena Team and contributors, parts © 1997-2006 id Software, Inc.,
released under the GNU General Public License version 2 or later (`GPL-2.txt`); Debian's copyright files are in
`copyright-openarena-data.txt` and `copyright-openarena-088-data.txt`, OpenArena's contributors in
`CREDITS-OpenArena.txt`.  The source of OpenArena's data: https://openarena.ws/svn/source/assets/ and Debian's
`openarena-data` / `openarena-088-data` source packages.

Files in `baseoa/pak0.pk3`:

"""


class _ReadLog(VirtualFS):
    """A game filesystem that notes the name of every file read from it."""

    def __init__(self, basedir: Path, game: str) -> None:
        super().__init__(basedir, game, base=game)
        self.names: set[str] = set()

    def read(self, name: str) -> bytes:
        data = super().read(name)
        self.names.add(name.lower())
        return data

    def read_head(self, name: str, size: int) -> bytes:
        self.names.add(name.lower())
        return super().read_head(name, size)


def oa_files(demo: Path, openarena: Path) -> _ReadLog:
    """The OpenArena install with a log of what qdv read from it: every frame of ``demo`` drawn with its HUD, and
    every sound its mixer plays."""
    from viewer.audio import Mixer, SoundBank
    from viewer.headless import DemoRenderer

    fs = _ReadLog(openarena, "baseoa")
    timeline = load_demo(str(demo))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        Mixer(timeline, SoundBank(fs))
        renderer = DemoRenderer(timeline, fs, OA_DRAW_SIZE, hud=True)
        try:
            start = float(timeline.times[0])
            for k in range(int(timeline.duration * OA_DRAW_RATE) + 1):
                renderer.draw(start + k / OA_DRAW_RATE)
            renderer.ctx.finish()
        finally:
            renderer.release()
    return fs


def write_pk3(path: Path, fs: VirtualFS, names: list[str]) -> None:
    """A zip of ``names`` read from ``fs``, in that order, with fixed dates and modes (the same bytes every run)."""
    with zipfile.ZipFile(path, "w") as z:
        for name in names:
            info = zipfile.ZipInfo(name, date_time=(2026, 11, 28, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, fs.read(name), compresslevel=9)


def build_oa(openarena: Path) -> list[Path]:
    """Write the ``oa`` sample's pk3, licence and credits beside its committed demo; returns the files written."""
    out = SAMPLES_DIR / "oa"
    fs = oa_files(out / OA_DEMO, openarena)
    names = sorted(fs.names)
    write_pk3(out / "baseoa" / "pak0.pk3", fs, names)
    shutil.copyfile("/usr/share/common-licenses/GPL-2", out / "GPL-2.txt")
    for doc in OA_DOCS:
        shutil.copyfile(doc / "copyright", out / f"copyright-{doc.name}.txt")
    shutil.copyfile(OA_DOCS[0] / "CREDITS", out / "CREDITS-OpenArena.txt")
    (out / "CREDITS.md").write_text(OA_CREDITS + "".join(f"* `{n}`\n" for n in names), encoding="utf-8")
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
