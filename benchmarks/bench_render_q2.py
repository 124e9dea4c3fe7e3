"""``qdv map`` frame time of Quake II's terminal.bsp beside Quake maps of similar size, offscreen at 1280x720.

Run: ``python benchmarks/bench_render_q2.py [--size WxH] [--repeat N]``. Every map is
loaded and uploaded once (untimed; the load time is printed), then the frame renderer draws each map from each of
its player starts looking in 8 directions (``FrameRenderer.draw`` + ``ctx.finish``, as ``qdv map`` draws a frame
without entities). The maps take turns, ``--repeat`` rounds of them, so a load change on the machine hits every
map alike; per map the best round is printed as ms per frame in wall time and in process CPU time (the CPU time
of llvmpipe's threads included: steadier than wall time when other programs share the cores), with the mean count
of world triangles a frame draws (PVS and frustum culled: the map's size as the renderer sees it). Quake II's frame
includes the sky box and the translucent pass; the Quake maps draw their two-layer skies and liquids. The issue's
target: terminal at least as fast per frame as a Quake map of the same size.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from viewer.render.context import OffscreenTarget, create_headless_context  # noqa: E402
from viewer.render.bsp.renderer import BspBackend  # noqa: E402
from viewer.render.frame import FrameRenderer  # noqa: E402
from viewer.render.refdef import Camera, SceneFrame, SegmentAssets  # noqa: E402
from viewer.session import game_filesystem, map_game_view  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
#: (label, basedir, game dir, map path)
MAPS = (("quake2 terminal", DATA / "quake2", "action", "maps/terminal.bsp"),
        ("quake lq_e0m1", DATA / "quake1", "lq1", "maps/lq_e0m1.bsp"),
        ("quake lqdm3", DATA / "quake1", "lq1", "maps/lqdm3.bsp"))


def start_cameras(assets: SegmentAssets) -> list[Camera]:
    """Every ``info_player_*`` eye, turned to 8 yaws."""
    assert assets.game_map is not None
    cams = []
    for ent in assets.game_map.entities:
        if ent.get("classname", "").startswith("info_player") and "origin" in ent:
            x, y, z = (float(v) for v in ent["origin"].split())
            cams += [Camera((x, y, z + 22.0), (0.0, float(yaw), 0.0)) for yaw in range(0, 360, 45)]
    return cams


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--repeat", type=int, default=3, help="rounds over the maps (the best is kept per map)")
    args = parser.parse_args()
    warnings.simplefilter("ignore")   # the pak lacks a few textures on purpose (SOURCES.md)
    w, h = (int(v) for v in args.size.split("x"))
    ctx = create_headless_context()
    target = OffscreenTarget(ctx, (w, h))
    styles = np.ones(64, np.float32)
    maps = []
    for label, basedir, game, map_path in MAPS:
        fs = game_filesystem(None, str(basedir), game)
        t0 = time.perf_counter()
        assets = map_game_view(fs, map_path).load_map_assets(fs, map_path)
        load_s = time.perf_counter() - t0
        renderer = FrameRenderer(ctx, assets)
        frames = [SceneFrame(0.1 * i, 0, cam, (), styles) for i, cam in enumerate(start_cameras(assets))]
        drawn = []
        for frame in frames:   # untimed: compiles the programs, counts the world triangles drawn
            renderer.draw(frame, target)
            assert isinstance(renderer.backend, BspBackend) and renderer.backend.world is not None
            world = renderer.backend.world
            drawn.append(sum(count for _texture, _first, count, _key in world._visible_ranges) // 3)
        ctx.finish()
        maps.append((label, assets, renderer, frames, load_s, float(np.mean(drawn))))
    best = {label: (float("inf"), float("inf")) for label, *_ in maps}
    for _ in range(max(args.repeat, 1)):
        for label, _assets, renderer, frames, _load, _drawn in maps:
            wall, cpu = time.perf_counter(), time.process_time()
            for frame in frames:
                renderer.draw(frame, target)
            ctx.finish()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            best[label] = (min(best[label][0], wall / len(frames)), min(best[label][1], cpu / len(frames)))
    for label, assets, renderer, frames, load_s, mean_drawn in maps:
        world = assets.game_map
        assert world is not None
        wall, cpu = best[label]
        print(f"{label:16s} {world.num_faces:6d} faces {len(world.mesh.indices) // 3:6d} triangles  "
              f"load {load_s:5.2f} s  frame {1000 * wall:6.2f} ms wall {1000 * cpu:6.2f} ms CPU, "
              f"{mean_drawn:5.0f} triangles drawn ({len(frames)} views, {w}x{h})")
        renderer.release()
    target.release()
    ctx.release()


if __name__ == "__main__":
    main()
