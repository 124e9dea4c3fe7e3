"""One fuzz run of one parser family, as a child process: ``python -m tests.fuzz.run FAMILY``.

Prints its :class:`~tests.fuzz.engine.Stats` and its own peak memory as one JSON line; exits 1 with the
falsifying input (hypothesis prints it, shrunk) when an input gives anything but a result or a ``FormatError``
within budget. ``python -m tests.fuzz`` runs the families one by one under a memory cap.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import resource
import time

from .engine import fuzz

#: Parser family → module holding its ``TARGETS``.
FAMILIES = {"demos": "tests.fuzz.demos", "quake3_demos": "tests.fuzz.quake3_demos",
            "quakelive_demos": "tests.fuzz.quakelive_demos", "bsp": "tests.fuzz.bsp",
            "models": "tests.fuzz.models", "images": "tests.fuzz.images", "archives": "tests.fuzz.archives"}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz.run", description=__doc__)
    parser.add_argument("family", choices=sorted(FAMILIES))
    parser.add_argument("--examples", type=int, default=100, help="inputs per hypothesis batch")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first batch")
    parser.add_argument("--seconds", type=float, default=None,
                        help="keep running batches with the next seeds for this long (default: one batch)")
    args = parser.parse_args()
    targets = importlib.import_module(FAMILIES[args.family]).TARGETS
    deadline = None if args.seconds is None else time.monotonic() + args.seconds
    stats = fuzz(targets, args.examples, args.seed, deadline)
    report = dataclasses.asdict(stats) | {"family": args.family,
                                          "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
