"""Time and peak memory of every bad input of ``shared/data/bad-input/README.md``, each in its own child process.

Run ``python -m benchmarks.bench_bad_input [--repo DIR]`` from the repository root; ``--repo`` measures another
checkout (for before/after figures) with this checkout's cases. Each child gets a 4 GB address-space cap and a
120 s timeout so a case that still explodes cannot take the machine with it.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from tests.fuzz.bad_inputs import CASES, stage
from tests.fuzz.measure import REPO


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repo", type=Path, default=REPO, help="checkout whose qdv runs the cases")
    parser.add_argument("--only", help="run the cases whose name contains this text")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="qdv-bad-") as tmp:
        staged = stage(Path(tmp))
        for case in CASES:
            if args.only and args.only not in case.name:
                continue
            m = case.run(staged, args.repo, max_address_mb=4096)
            last = (m.stderr.strip().splitlines() or [""])[-1][:150]
            print(f"{case.name:48s} {m.summary()}\n    {last}", flush=True)


if __name__ == "__main__":
    main()
