"""Time a Quake III map load on oa_dm1: pk3 mount, bsp inflate + parse + patches + batches + lightmap atlas +
light grid, the index of every shader script, and the materials: the shaders the map draws with parsed and their
textures decoded to RGBA (GPU-ready arrays).

Run: ``PYTHONPATH=. python benchmarks/bench_bsp46.py [--repeat N]``. Prints the best of N runs per step and
for the whole load. Target (issue 13): the whole load ≤ 1 s.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from pathlib import Path

from assets_loader.bsp46 import load_bsp46
from assets_loader.bsp46.materials import load_world_materials
from assets_loader.q3images import ImageLoader
from assets_loader.q3shaders import load_shader_library
from assets_loader.vfs import VirtualFS

PK3 = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "quake3" / "oa_dm1_assets.pk3"


def load_map(basedir: Path, steps: dict[str, float]) -> tuple:
    """One full load, adding each step's seconds to ``steps``; returns what a renderer would upload."""
    marks = [time.perf_counter()]
    fs = VirtualFS(basedir, "baseoa")
    marks.append(time.perf_counter())
    data = fs.read("maps/oa_dm1.bsp")
    marks.append(time.perf_counter())
    world = load_bsp46(data, "maps/oa_dm1.bsp")
    marks.append(time.perf_counter())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        library = load_shader_library(fs)
    marks.append(time.perf_counter())
    materials = load_world_materials(world, library, ImageLoader(fs))
    marks.append(time.perf_counter())
    for name, t0, t1 in zip(("mount", "inflate bsp", "parse bsp", "shader index", "materials"), marks, marks[1:],
                            strict=False):
        steps[name] = min(steps.get(name, float("inf")), t1 - t0)
    steps["total"] = min(steps.get("total", float("inf")), marks[-1] - marks[0])
    return world, materials, library


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        (base / "baseoa").mkdir()
        (base / "baseoa" / PK3.name).symlink_to(PK3)
        steps: dict[str, float] = {}
        for _ in range(args.repeat):
            world, materials, library = load_map(base, steps)
    texels = sum(img.shape[0] * img.shape[1] for img in materials.images.values())
    print(f"oa_dm1: {len(world.vertices)} vertices, {len(world.indices) // 3} triangles, {len(world.batches)} "
          f"batches, atlas {world.lightmaps.pixels.shape[1]}x{world.lightmaps.pixels.shape[0]}, "
          f"{len(library)} shaders indexed, {len(materials.images)} images ({texels / 1e6:.1f} Mtexels), "
          f"{len(materials.missing)} missing")
    for name, seconds in steps.items():
        print(f"  {name:<12} {seconds * 1000:8.1f} ms (best of {args.repeat})")
    print(f"map load: {steps['total']:.3f} s (target <= 1 s)")


if __name__ == "__main__":
    main()
