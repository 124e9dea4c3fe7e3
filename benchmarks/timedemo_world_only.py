"""``qdv timedemo`` with only the world drawn: the engines' ``r_drawentities 0``, ``r_drawviewmodel 0`` and no
particles, for :mod:`bench_parity`'s ``--world-only`` rows (the least work the engine's own picture needs).

Run: ``python benchmarks/timedemo_world_only.py DEMO [--size WxH]`` from the repository root; prints the
timedemo's ``N frames S seconds F fps`` line. Entities (alias, sprite and brush models, Quake III models and
players), particles and the first-person weapon are dropped from every scene; the map, its lightmaps, light styles,
fog, sky, liquids, dynamic lights and screen blends stay.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assets_loader.demos import load_demo  # noqa: E402
from viewer.headless import DemoRenderer, timedemo  # noqa: E402
from viewer.render.refdef import SceneFrame  # noqa: E402
from viewer.session import game_filesystem  # noqa: E402


class WorldOnlyRenderer(DemoRenderer):
    """A :class:`DemoRenderer` whose scenes hold no entities, particles or weapons."""

    def scene(self, t: float, camera=None, fov: float = 90.0, pov: int | None = None) -> SceneFrame:
        frame = super().scene(t, camera, fov, pov)
        return dataclasses.replace(frame, models=(), md3=(), particles=None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("demo", type=Path)
    parser.add_argument("--size", default="1280x720")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    timeline = load_demo(args.demo)
    renderer = WorldOnlyRenderer(timeline, game_filesystem(args.demo, None, None), (width, height))
    try:
        print(timedemo(renderer))
    finally:
        renderer.release()


if __name__ == "__main__":
    main()
