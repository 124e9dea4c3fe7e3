"""Time ``load_bsp38`` (parse + mesh + lightmap atlas) on Quake II's terminal.bsp from the AQtion pak.

Run: ``python benchmarks/bench_bsp38.py [--repeat N]``. Prints the best of N runs with the 60 ``.wal``
textures already read (``fs`` given, textures cached in memory) and without textures, plus what was built.
Target: ≤ 0.3 s.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from timing import best_of  # benchmarks/timing.py, beside this script

from assets_loader.bsp38 import load_bsp38
from assets_loader.vfs import QUAKE2_BASE_GAME, VirtualFS

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "quake2"


class _MemoryFS(VirtualFS):
    """The game filesystem with every file read once, so the timing measures the loader, not the disk."""

    def __init__(self, basedir: Path, game: str) -> None:
        super().__init__(basedir, game, base=QUAKE2_BASE_GAME)
        self._cache: dict[str, bytes] = {}

    def read(self, name: str) -> bytes:
        key = name.lower()
        if key not in self._cache:
            self._cache[key] = super().read(name)
        return self._cache[key]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    fs = _MemoryFS(DATA, "action")
    data = fs.read("maps/terminal.bsp")
    world = load_bsp38(data, "maps/terminal.bsp", fs)
    with_textures = best_of(lambda: load_bsp38(data, "maps/terminal.bsp", fs), args.repeat)
    bare = best_of(lambda: load_bsp38(data, "maps/terminal.bsp"), args.repeat)
    print(f"terminal.bsp: {len(data)} bytes, {world.num_faces} faces, {world.mesh.num_triangles} triangles, "
          f"{len(world.textures)} textures ({len(world.missing_textures)} missing), "
          f"atlas {world.lightmap.width}x{world.lightmap.height}, {world.num_clusters} clusters")
    print(f"parse + mesh + lightmap atlas, best of {args.repeat}: {with_textures * 1000:.1f} ms with WAL textures, "
          f"{bare * 1000:.1f} ms without (target <= 300 ms)")


if __name__ == "__main__":
    main()
