#!/usr/bin/env python3
"""Build the free samples that ``qdv play`` shows with no arguments (``viewer/sample/``).

Each sample is one short demo beside a ``pak0.pak`` holding exactly what that demo needs to be drawn:

* every model the demo precaches (map, brush item boxes, ``progs/*.mdl|*.spr``) that the source pak has;
* ``gfx.wad`` (status bar pictures, ``conchars``), ``gfx/palette.lmp``, ``gfx/colormap.lmp`` and the HUD's
  ``gfx/*.lmp`` overlays.

Two samples:

* ``lqdm2`` (the default of ``qdv play``): a two-player QuakeWorld deathmatch on LibreQuake's ``lqdm2``, the MVD
  from the corpus (``../shared/data/quakeworld``), laid out as a QuakeWorld base dir: ``lqdm2/id1/pak0.pak`` and
  the demo beside ``id1``.
* ``lq1``: LibreQuake's own ``demo1_lite.dem`` (a single-player cutscene on ``lq_e0m1``) in a game dir.

No sounds, no ``progs.dat``, no ``gfx/pop.lmp`` (the only GPL-2 file of LibreQuake's data): everything shipped is
LibreQuake's BSD-3-Clause data or our own recordings of it.  ``CREDITS.md`` and ``LICENSE-LibreQuake.txt`` are
written from a LibreQuake ``docs`` folder (``COPYING`` and ``CREDITS``) when ``--docs`` is given; without it the
credits are written from the ``lq1`` sample's licence and contributor list already in the repo.

Usage (from the repository root; the defaults read the corpus beside the repo)::

    python tools/make_sample.py [lqdm2|lq1 ...] [--data ../shared/data] [--docs LQ/docs]

The pak is written deterministically (entries in precache order, then the gfx files), so re-running the script on
the same inputs reproduces the committed bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import struct
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from assets_loader.demos import load_demo  # noqa: E402
from assets_loader.pak import PakFile, load_pak  # noqa: E402

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("samples", nargs="*", metavar="SAMPLE",
                        help=f"which samples to build: {', '.join(SAMPLES)} (default: all)")
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data", help="the corpus root")
    parser.add_argument("--docs", type=Path, help="LibreQuake docs folder (COPYING, CREDITS) for the licence files")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.samples) - set(SAMPLES))
    if unknown:
        parser.error(f"unknown sample {', '.join(unknown)} (choose from {', '.join(SAMPLES)})")
    for name in args.samples or list(SAMPLES):
        for f in build(SAMPLES[name], args.data, args.docs):
            digest = hashlib.sha256(f.read_bytes()).hexdigest()[:16]
            print(f"{f.relative_to(REPO)}  {f.stat().st_size:>9}  {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
