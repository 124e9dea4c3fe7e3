"""Time ``load_bsp`` (parse + mesh + lightmap atlas) on every map of the corpus paks.

Run: ``.venv/bin/python benchmarks/bench_bsp.py [--repeat N] [PAK ...]``. Prints, per map, the best of N runs
and what was built. Target: the largest map in ≤ 0.3 s.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from assets_loader.bsp import load_bsp
from assets_loader.pak import load_pak

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
DEFAULT_PAKS = [DATA / "quake1" / "lq1" / "pak0.pak", DATA / "quakeworld" / "id1" / "pak0.pak"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paks", nargs="*", type=Path, default=DEFAULT_PAKS)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{'map':<34} {'bytes':>9} {'ver':>5} {'faces':>6} {'tris':>6} {'atlas':>10} {'lit':>3} {'best ms':>8}")
    for pak_path in args.paks:
        if not pak_path.is_file():
            print(f"(missing {pak_path})")
            continue
        pak = load_pak(pak_path)
        for entry in pak.entries:
            if not entry.name.endswith(".bsp"):
                continue
            data = pak.read(entry.name)
            lit_name = entry.name[:-4] + ".lit"
            lit = pak.read(lit_name) if lit_name in pak else None
            best = float("inf")
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                w = load_bsp(data, entry.name, lit=lit)
                best = min(best, time.perf_counter() - t0)
            label = f"{pak_path.parent.name}/{entry.name}"
            atlas = f"{w.lightmap.width}x{w.lightmap.height}"
            print(f"{label:<34} {len(data):>9} {w.version:>5} {w.num_faces:>6} {w.mesh.num_triangles:>6} "
                  f"{atlas:>10} {'yes' if w.lit else 'no':>3} {best * 1000:>8.1f}")


if __name__ == "__main__":
    main()
