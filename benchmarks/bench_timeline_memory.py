"""Timeline memory per demo-minute for every corpus demo, and bytes per frame of the ``mvd_frames`` bad input.

Run: ``python benchmarks/bench_timeline_memory.py [--repo DIR] [--samples N] [--no-million] [--only TEXT]`` from
the repository root; ``--repo`` measures another checkout (before/after figures) with this script.  Each demo is
decoded in its own child process, which prints:

* ``retained``: resident memory after ``load_demo`` and the window's ``viewer.heap.settle`` (a garbage collection,
  freeze and heap trim) minus before — what the timeline costs a running viewer, freed-but-kept heap included
  (issue 20's "timeline memory per demo-minute");
* ``arrays``: the bytes of the numpy arrays the timeline holds (its storage, each buffer counted once);
* ``peak``: the child's peak resident memory (``VmHWM``: its ``ru_maxrss`` may carry the parent's size across the
  fork and exec) minus the resident memory before decoding;
* decode time (one cold decode, × real time) and ``sample()`` p50 / p99 over N random times.

The ``mvd_frames`` rows give the same per decoded frame: the 100k-block file of ``bad-input/`` and a 1M-block
version built from it in a temporary folder (its header, then its 11-byte block repeated; issue 19 item 3).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
BAD_FRAMES = DATA / "bad-input" / "mvd_frames_100000.mvd"
#: The 100k file is a header, then this many copies of one block of ``BLOCK_SIZE`` bytes.
FRAMES_BLOCKS = 100_000
BLOCK_SIZE = 11

#: Runs in the child (cwd = the measured checkout): decode ``argv[1]``, print the figures as JSON.
_CHILD = r"""
import gc, json, sys, time, warnings
import numpy as np
from assets_loader.demos import load_demo, sample

def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20

def array_bytes(root):
    seen, bufs, stack = set(), {}, [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (str, bytes, int, float, bool, type(None))):
            continue
        seen.add(id(obj))
        if isinstance(obj, np.ndarray):
            base = obj
            while isinstance(base.base, np.ndarray):
                base = base.base
            bufs[id(base)] = base.nbytes
            continue
        if isinstance(obj, dict) or hasattr(obj, "items") and hasattr(obj, "values"):
            stack.extend(obj.values())
        elif isinstance(obj, (tuple, list)):
            stack.extend(obj)
        slots = [s for k in type(obj).__mro__ for s in getattr(k, "__slots__", ())]
        stack.extend(getattr(obj, s) for s in slots if s != "__weakref__" and hasattr(obj, s))
        stack.extend(getattr(obj, "__dict__", {}).values())
    return sum(bufs.values())

warnings.simplefilter("ignore")
samples = int(sys.argv[2])
gc.collect()
before = rss_mb()
t0 = time.perf_counter()
tl = load_demo(sys.argv[1])
decode = time.perf_counter() - t0
try:                    # what the window does once a demo is loaded (checkouts before viewer/heap.py: collect only)
    from viewer.heap import settle
except ImportError:
    settle = gc.collect
settle()
after = rss_mb()
peak = int([line for line in open("/proc/self/status") if line.startswith("VmHWM:")][0].split()[1]) / 1024
lat = []
rng = np.random.default_rng(0)
for t in rng.uniform(tl.start_time, tl.end_time, samples):
    t1 = time.perf_counter()
    sample(tl, float(t))
    lat.append(time.perf_counter() - t1)
p50, p99 = (np.percentile(lat, [50, 99]) * 1e3).tolist() if lat else (0.0, 0.0)
print(json.dumps(dict(frames=tl.num_frames, seconds=tl.duration, decode=decode, retained=after - before,
                      arrays=array_bytes(tl) / 2**20, peak=peak - before, p50=p50, p99=p99)))
"""


def corpus() -> list[Path]:
    """Every corpus demo of the four games."""
    patterns = (("quake1/lq1", "*.dem"), ("quakeworld", "*.qwd"), ("quakeworld", "*.mvd"), ("quake2/demos", "*.dm2"),
                ("quake3/demos", "*.dm_*"))
    return [p for folder, pattern in patterns for p in sorted((DATA / folder).glob(pattern))]


def measure(repo: Path, demo: Path, samples: int) -> dict[str, float]:
    """The child's figures for ``demo`` (a fresh interpreter: numpy and the loader imported, nothing decoded)."""
    out = subprocess.run([sys.executable, "-c", _CHILD, str(demo), str(samples)], cwd=repo,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=REPO, help="checkout whose qdv decodes the demos")
    parser.add_argument("--samples", type=int, default=3000, help="random times for sample() p50 / p99")
    parser.add_argument("--no-million", action="store_true", help="skip the 1M-block mvd_frames file")
    parser.add_argument("--only", default="", help="measure the demos whose file name contains this text")
    args = parser.parse_args()
    print(f"{'demo':<42}{'min':>6}{'decode ms':>10}{'x real':>7}{'retained':>10}{'arrays':>8}{'peak':>8}"
          f"   (MB per demo-minute){'smp p50':>9}{'p99':>7} ms")
    for demo in corpus():
        if args.only not in demo.name:
            continue
        m = measure(args.repo, demo, args.samples)
        minutes = m["seconds"] / 60
        print(f"{demo.name[:41]:<42}{minutes:6.2f}{m['decode'] * 1e3:10.0f}{m['seconds'] / m['decode']:7.0f}"
              f"{m['retained'] / minutes:10.1f}{m['arrays'] / minutes:8.1f}{m['peak'] / minutes:8.1f}"
              f"{'':23}{m['p50']:9.3f}{m['p99']:7.3f}", flush=True)
    print(f"\n{'mvd_frames':<42}{'frames':>9}{'decode s':>9}{'retained':>10}{'arrays':>8}{'peak':>8}"
          f"   (bytes per frame){'peak MB':>9}")
    with tempfile.TemporaryDirectory(prefix="qdv-frames-") as tmp:
        files = [BAD_FRAMES]
        if not args.no_million:
            data = BAD_FRAMES.read_bytes()
            header = len(data) - FRAMES_BLOCKS * BLOCK_SIZE
            million = Path(tmp) / "mvd_frames_1000000.mvd"
            million.write_bytes(data[:header] + data[header:header + BLOCK_SIZE] * 1_000_000)
            files.append(million)
        for demo in files:
            if args.only not in demo.name:
                continue
            m = measure(args.repo, demo, 200)
            per = 2**20 / m["frames"]
            print(f"{demo.name:<42}{m['frames']:9d}{m['decode']:9.2f}{m['retained'] * per:10.0f}"
                  f"{m['arrays'] * per:8.0f}{m['peak'] * per:8.0f}{'':20}{m['peak']:9.0f}", flush=True)


if __name__ == "__main__":
    main()
