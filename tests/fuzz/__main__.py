"""``python -m tests.fuzz``: fuzz every parser family, each in its own child process under a memory cap.

``--minutes 30`` runs batch after batch (fresh seeds) for that long in all, split evenly between the families;
without it one fixed-seed batch of ``--examples`` inputs per family runs (what ``tests/test_fuzz.py`` does).
Each family's line gives inputs, how they ended, the slowest input's CPU time and the child's peak memory; a
family whose input gives anything but a result or a ``FormatError`` prints hypothesis's shrunk example, and the
command exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys

from .measure import Measurement, run_measured
from .run import FAMILIES

#: Address-space cap of each fuzz child (a ``MemoryError`` beyond it is a failure), and the peak memory allowed.
MAX_ADDRESS_MB = 3072
MAX_PEAK_MB = 1024


def run_family(family: str, examples: int, seed: int, seconds: float | None = None) -> tuple[Measurement, dict]:
    """Fuzz ``family`` in a child process: its measurement and its JSON report (``{}`` if it failed)."""
    argv = [sys.executable, "-m", "tests.fuzz.run", family, "--examples", str(examples), "--seed", str(seed)]
    if seconds is not None:
        argv += ["--seconds", str(seconds)]
    timeout = 600.0 if seconds is None else seconds + 600.0
    m = run_measured(argv, timeout=timeout, max_address_mb=MAX_ADDRESS_MB)
    lines = m.stdout.strip().splitlines()
    report = json.loads(lines[-1]) if m.returncode == 0 and lines else {}
    return m, report


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, help="run for this long in all (default: one batch per family)")
    parser.add_argument("--examples", type=int, default=300, help="inputs per batch (default 300)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first batch (default 0)")
    parser.add_argument("--family", action="append", choices=sorted(FAMILIES), help="only this family (repeatable)")
    args = parser.parse_args()
    families = args.family or list(FAMILIES)
    seconds = None if args.minutes is None else args.minutes * 60 / len(families)
    failed = False
    for family in families:
        m, report = run_family(family, args.examples, args.seed, seconds)
        if not report or m.peak_mb > MAX_PEAK_MB:
            failed = True
            print(f"{family}: FAILED ({m.summary()})\n{m.stdout}\n{m.stderr}", flush=True)
            continue
        print(f"{family:13s} {report['inputs']:7d} inputs: {report['results']} results, {report['format_errors']} "
              f"FormatErrors; slowest {report['slowest_cpu']:.3f} s CPU ({report['slowest_input']}); largest "
              f"{report['largest_mb']:.1f} MB ({report['largest_input']}); "
              f"{m.cpu_seconds:.1f} s CPU, {m.peak_mb:.0f} MB peak", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
