#!/usr/bin/env python3
"""A contact sheet: one picture per demo, as ``qdv screenshot`` draws it, in a labelled grid PNG.

For looking at many demos at once — the public demos of ``../shared/data/public`` by default — with the game data
given (or none): each cell is the recorder's view at ``--time`` with the HUD, or the one error line the command
printed, so a demo that draws nothing, an invisible player or a refusal shows at a glance.

Usage (from the repository root)::

    python tools/contact_sheet.py --out sheet.png [DEMO ...] [--time 50%] [--basedir DIR [--game MOD]]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from PIL import Image, ImageDraw

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from assets_loader.demos import DEMO_SUFFIXES  # noqa: E402  (the repository on the path first)

PUBLIC = REPO.parent / "shared" / "data" / "public"
CELL = (320, 180)
LABEL = 28


def cell(demo: Path, time: str, data: list[str], folder: Path) -> Image.Image:
    """The demo's picture at ``time`` with its name below, or its error line on grey."""
    out = folder / f"{demo.name}.png"
    done = subprocess.run([sys.executable, "-m", "viewer.cli", "screenshot", str(demo), "--time", time, "--size",
                           f"{CELL[0]}x{CELL[1]}", "--hud", "--out", str(out), *data],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    image = Image.new("RGB", (CELL[0], CELL[1] + LABEL), (40, 40, 40))
    draw = ImageDraw.Draw(image)
    if done.returncode == 0:
        image.paste(Image.open(out).convert("RGB"), (0, 0))
    else:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        draw.multiline_text((6, 6), "\n".join(textwrap.wrap(last, 52)[:10]), fill=(255, 120, 120))
    warnings = sum(1 for line in done.stderr.splitlines() if ": warning: " in line)
    draw.text((4, CELL[1] + 3), demo.name[:50], fill=(255, 255, 255))
    draw.text((4, CELL[1] + 15), f"exit {done.returncode}, {warnings} warnings", fill=(180, 180, 180))
    return image


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("demos", nargs="*", type=Path, help="demo files (default: every public demo)")
    parser.add_argument("--out", required=True, type=Path, help="the PNG to write")
    parser.add_argument("--time", default="50%", help="demo time of each picture (default 50%%)")
    parser.add_argument("--columns", type=int, default=4)
    parser.add_argument("--basedir")
    parser.add_argument("--game")
    args = parser.parse_args()
    demos = args.demos or sorted(p for p in PUBLIC.rglob("*") if p.suffix.lower() in DEMO_SUFFIXES)
    data = [*(["--basedir", args.basedir] if args.basedir else []), *(["--game", args.game] if args.game else [])]
    with tempfile.TemporaryDirectory() as folder:
        cells = [cell(demo, args.time, data, Path(folder)) for demo in demos]
    rows = -(-len(cells) // args.columns)
    sheet = Image.new("RGB", (args.columns * CELL[0], rows * (CELL[1] + LABEL)), (0, 0, 0))
    for k, image in enumerate(cells):
        sheet.paste(image, ((k % args.columns) * CELL[0], (k // args.columns) * (CELL[1] + LABEL)))
    sheet.save(args.out)
    print(f"wrote {args.out}: {len(cells)} demos")
    return 0


if __name__ == "__main__":
    sys.exit(main())
