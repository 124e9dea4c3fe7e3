"""Time and peak memory of copy-forward demos (issue 30, class 1) against the entity-state budget, each decoded by
``qdv info`` in its own child process: the issue's three shapes (far past the budget) and the same shapes just
under it (what the most expensive demo the budget admits costs).

Run ``python -m benchmarks.bench_demo_budget [--repo DIR]`` from the repository root; ``--repo`` measures another
checkout (for before/after figures).  Each child gets a 6 GB address-space cap and a 300 s timeout.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable
from pathlib import Path

from assets_loader.demos.kit.budget import MAX_DEMO_STATES
from tests.fuzz.bad_inputs import BAD
from tests.fuzz.copy_forward import dm2_copy_forward, dm68_copy_forward, qwd_copy_forward
from tests.fuzz.measure import REPO, run_qdv

#: name → (writer, frames past the budget, entities a frame): the issue's Quake II 531 KB and QuakeWorld 1.9 MB.
SHAPES: dict[str, tuple[Callable[[int, int], bytes], int, int]] = {
    "copy_forward.dm2": (dm2_copy_forward, 20000, 1023),
    "copy_forward.qwd": (qwd_copy_forward, 90000, 300),
    "copy_forward.dm_68": (dm68_copy_forward, 5000, 1022),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repo", type=Path, default=REPO, help="checkout whose qdv decodes the demos")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="qdv-budget-") as tmp:
        files = [BAD / "q3_snapamp_5000.dm_68"]
        for name, (write, frames, entities) in SHAPES.items():
            under = MAX_DEMO_STATES // entities - 2          # a frame and the recorder's row below the budget
            for count in (frames, under):
                path = Path(tmp) / f"{count}_{name}"
                path.write_bytes(write(count, entities))
                files.append(path)
        for path in files:
            m = run_qdv("info", str(path), cwd=args.repo, timeout=300.0, max_address_mb=6144)
            last = (m.stderr.strip().splitlines() or [""])[-1][:120]
            print(f"{path.name:32s} {path.stat().st_size:>9d} B  {m.summary()}\n    {last}", flush=True)


if __name__ == "__main__":
    main()
