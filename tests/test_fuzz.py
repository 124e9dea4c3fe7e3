"""The short fixed-seed fuzz run (about a minute in all): every parser family, mutated corpus files, each input a
result or a ``FormatError`` within its CPU budget, each family's child process under its memory cap.

The long run is ``python -m tests.fuzz --minutes 30`` (README, "Fuzzing").
"""

from __future__ import annotations

import pytest

from tests.fuzz.__main__ import MAX_PEAK_MB, run_family
from tests.fuzz.engine import INPUT_MB
from tests.fuzz.run import FAMILIES

EXAMPLES = 1500


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_family_gives_results_or_format_errors_in_bounds(family):
    measurement, report = run_family(family, EXAMPLES, seed=0)
    assert measurement.returncode == 0, measurement.stdout + measurement.stderr
    assert report["inputs"] >= EXAMPLES
    assert report["results"] + report["format_errors"] == report["inputs"]
    assert report["results"] > 0 and report["format_errors"] > 0  # mutations reach past the header checks
    assert measurement.peak_mb < MAX_PEAK_MB and report["largest_mb"] < INPUT_MB
