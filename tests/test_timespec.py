"""Timespecs: SS, MM:SS(.s), H:MM:SS, +/- relative, N%."""

from __future__ import annotations

import pytest

from viewer.timespec import TimespecError, parse_timespec


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
