"""Timespecs: SS, MM:SS(.s), H:MM:SS, +/- relative, N%."""

from __future__ import annotations

import pytest

from viewer.timespec import TimespecError, parse_range, parse_timespec


@pytest.mark.parametrize(("text", "expected"), [
    ("12", 12.0), ("12.5", 12.5), ("1:30", 90.0), ("01:02.5", 62.5), ("1:00:00", 3600.0), ("0", 0.0),
])
def test_absolute(text: str, expected: float) -> None:
    assert parse_timespec(text) == pytest.approx(expected)


def test_relative_steps_from_current() -> None:
    assert parse_timespec("+5", current=10) == 15
    assert parse_timespec("-1:00", current=100) == 40


def test_percent_of_duration() -> None:
    assert parse_timespec("50%", duration=30) == 15
    with pytest.raises(TimespecError, match="duration"):
        parse_timespec("50%")


@pytest.mark.parametrize("text", ["", "abc", "1:", ":5", "1:60", "1:2:3:4", "150%", "x%", "--3", "nan", "inf",
                                  "1e400", "nan%", "+inf"])
def test_rejects_malformed(text: str) -> None:
    with pytest.raises(TimespecError):
        parse_timespec(text, duration=10)


def test_a_range_end_steps_from_the_range_start() -> None:
    """Issue 29, item 6: ``--to +2`` is 2 s after ``--from``, not 2 s from the demo's start."""
    assert parse_range("10", "+2", duration=60) == (10, 12)
    assert parse_range("1:00", "+0:30", duration=600) == (60, 90)
    assert parse_range("50%", "+5", duration=60) == (30, 35)
    assert parse_range("+5", "+5", duration=60) == (5, 10)             # the start's own step counts from 0
    assert parse_range("20", "-5", duration=60) == (20, 15)            # before --from: the renderer refuses it
    assert parse_range("10", "30", duration=60) == (10, 30)            # absolute ends stay absolute
    assert parse_range("10", "100%", duration=60) == (10, 60)


def test_qdv_render_to_plus_seconds_exports_that_many_seconds_after_from(tmp_path) -> None:
    """On a real demo: ``--from 5 --to +1`` at 5 fps is 5 frames (before: ``--to`` 1 s lay before ``--from``
    and the command was refused)."""
    from viewer.cli import main

    from .conftest import QUAKEWORLD

    out = tmp_path / "f_%03d.png"
    assert main(["render", str(QUAKEWORLD / "lq_lqdm2_ranger.qwd"), "--out", str(out), "--size", "64x36",
                 "--fps", "5", "--from", "5", "--to", "+1", "--no-audio", "--basedir", str(QUAKEWORLD)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"f_{k:03d}.png" for k in range(5)]
