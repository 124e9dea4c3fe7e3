"""``qdv map`` frame time of Quake II's terminal.bsp beside Quake maps of similar size, offscreen at 1280x720.

Run: ``python benchmarks/bench_render_q2.py [--size WxH] [--repeat N]``. For each map, after loading it and
uploading it once (untimed), the frame renderer draws the map from each of its player starts looking in 8
directions (``FrameRenderer.draw`` + ``ctx.finish``, as ``qdv map`` draws a frame without entities); the best of
``--repeat`` runs is printed as ms per frame with the map's face and triangle counts. Quake II's frame includes the
sky box and the translucent pass; the Quake maps draw their two-layer skies and liquids. The issue's target:
terminal at least as fast per frame as a Quake map of the same size.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from timing import best_of  # benchmarks/timing.py, beside this script

from viewer.render.context import OffscreenTarget, create_headless_context
from viewer.render.frame import FrameRenderer
from viewer.render.refdef import Camera, SceneFrame, SegmentAssets
from viewer.session import game_filesystem, map_game_view

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
#: (label, basedir, game dir, map path)
MAPS = (("quake2 terminal", DATA / "quake2", "action", "maps/terminal.bsp"),
        ("quake lq_e0m1", DATA / "quake1", "lq1", "maps/lq_e0m1.bsp"),
        ("quake lqdm3", DATA / "quake1", "lq1", "maps/lqdm3.bsp"))


def start_cameras(assets: SegmentAssets) -> list[Camera]:
    """Every ``info_player_*`` eye, turned to 8 yaws."""
    assert assets.world is not None
    cams = []
    for ent in assets.world.entities:
        if ent.get("classname", "").startswith("info_player") and "origin" in ent:
            x, y, z = (float(v) for v in ent["origin"].split())
            cams += [Camera((x, y, z + 22.0), (0.0, float(yaw), 0.0)) for yaw in range(0, 360, 45)]
    return cams


def bench_map(label: str, basedir: Path, game: str | None, map_path: str, size: tuple[int, int],
              repeat: int) -> None:
    fs = game_filesystem(None, str(basedir), game)
    t0 = time.perf_counter()
    assets = map_game_view(fs, map_path).load_map_assets(fs, map_path)
    load_s = time.perf_counter() - t0
    ctx = create_headless_context()
    target = OffscreenTarget(ctx, size)
    renderer = FrameRenderer(ctx, assets)
    styles = np.ones(64, np.float32)
    frames = [SceneFrame(0.1 * i, 0, cam, (), styles) for i, cam in enumerate(start_cameras(assets))]
    renderer.draw(frames[0], target)
    ctx.finish()

    def run() -> None:
        for frame in frames:
            renderer.draw(frame, target)
        ctx.finish()

    best = best_of(run, repeat)
    world = assets.world
    assert world is not None
    print(f"{label:16s} {world.num_faces:6d} faces {len(world.mesh.indices) // 3:6d} triangles  load {load_s:5.2f} s  "
          f"frame {1000 * best / len(frames):6.2f} ms ({len(frames)} views, {size[0]}x{size[1]})")
    renderer.release()
    ctx.release()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    for label, basedir, game, map_path in MAPS:
        bench_map(label, basedir, game, map_path, (w, h), args.repeat)


if __name__ == "__main__":
    main()
