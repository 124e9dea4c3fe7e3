#!/usr/bin/env python3
"""Build the free sample that ``qdv play`` shows with no arguments: ``viewer/sample/lq1/``.

The sample is a tiny LibreQuake game dir: one short demo (``demo1_lite.dem`` on ``maps/lq_e0m1.bsp``) and a
``pak0.pak`` holding exactly what that demo needs to be drawn:

* every model the demo precaches (map, brush item boxes, ``progs/*.mdl|*.spr``) that the source pak has;
* ``gfx.wad`` (status bar pictures, ``conchars``), ``gfx/palette.lmp``, ``gfx/colormap.lmp``;
* the HUD's ``gfx/*.lmp`` overlays (``complete``, ``inter``, ``ranking``, ``finale``).

No sounds (the viewer is silent), no ``progs.dat``, no ``gfx/pop.lmp`` (the only GPL-2 file of LibreQuake's data):
everything shipped is LibreQuake's BSD-3-Clause data.  The script also writes ``LICENSE-LibreQuake.txt`` and
``CREDITS.md`` from a LibreQuake ``docs`` folder (``COPYING`` and ``CREDITS``) when ``--docs`` is given; without it
the existing files are kept.

Usage (from the repository root; the defaults read the corpus beside the repo)::

    python tools/make_sample.py [--src ../shared/data/quake1/lq1] [--out viewer/sample/lq1] [--docs LQ/docs]

The pak is written deterministically (entries in precache order, then the gfx files), so re-running the script on
the same inputs reproduces the committed bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import struct
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from assets_loader.demos import load_demo  # noqa: E402
from assets_loader.pak import load_pak  # noqa: E402

DEMO = "demo1_lite.dem"
GFX = ("gfx.wad", "gfx/palette.lmp", "gfx/colormap.lmp", "gfx/complete.lmp", "gfx/inter.lmp",
       "gfx/ranking.lmp", "gfx/finale.lmp")
#: LibreQuake snapshot the corpus (and the licence/credits texts) come from: see ../shared/data/quake1/SOURCES.md.
LQ_COMMIT = "a4175ee2b6f3cb97f38cfa5c43e4e3b4ba5d341f"
LQ_ASSET_COMMIT = "7e53103bb6f964818844a5b44c69d78ca7193db3"


def sample_files(demo_path: Path, pak) -> list[str]:
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


def credits_text(names: list[str], lq_credits: str) -> str:
    lines = [
        "# Credits of the bundled sample",
        "",
        "Everything in this folder comes from the LibreQuake project (https://github.com/lavenderdotpet/LibreQuake),",
        f"repository snapshot `{LQ_COMMIT}`; the non-map files from commit `{LQ_ASSET_COMMIT}`. The maps were",
        "compiled from LibreQuake's `.map` sources with ericw-tools 2.0.0-alpha9 (the tools LibreQuake's CI uses).",
        "All files here are under LibreQuake's BSD-3-Clause licence: see `LICENSE-LibreQuake.txt`.",
        "",
        f"* `{DEMO}`: LibreQuake's demo, unmodified.",
        "* `pak0.pak`: built by `tools/make_sample.py` from the LibreQuake files listed below (unmodified bytes).",
        "",
        "Files in `pak0.pak`:",
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, default=REPO.parent / "shared/data/quake1/lq1",
                        help="LibreQuake game dir holding pak0.pak and demo1_lite.dem")
    parser.add_argument("--out", type=Path, default=REPO / "viewer/sample/lq1", help="sample game dir to write")
    parser.add_argument("--docs", type=Path, help="LibreQuake docs folder (COPYING, CREDITS) for the licence files")
    args = parser.parse_args(argv)

    pak = load_pak(args.src / "pak0.pak")
    names = sample_files(args.src / DEMO, pak)
    args.out.mkdir(parents=True, exist_ok=True)
    write_pak(args.out / "pak0.pak", [(n, pak.read(n)) for n in names])
    shutil.copyfile(args.src / DEMO, args.out / DEMO)
    if args.docs is not None:
        (args.out / "LICENSE-LibreQuake.txt").write_text((args.docs / "COPYING").read_text(encoding="utf-8"),
                                                          encoding="utf-8")
        credits = (args.docs / "CREDITS").read_text(encoding="utf-8")
        (args.out / "CREDITS.md").write_text(credits_text(names, credits), encoding="utf-8")
    for f in sorted(args.out.iterdir()):
        digest = hashlib.sha256(f.read_bytes()).hexdigest()[:16]
        print(f"{f.relative_to(REPO) if f.is_relative_to(REPO) else f}  {f.stat().st_size:>9}  {digest}")
    print(f"{len(names)} files in pak0.pak")
    return 0


if __name__ == "__main__":
    sys.exit(main())
