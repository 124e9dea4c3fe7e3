"""Compact timeline columns (issue 20 item 5): steps give back every frame's value, narrowing keeps values exact."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from assets_loader.demos.steps import Steps, narrowest


@given(hnp.arrays(np.int32, st.integers(0, 60), elements=st.integers(-3, 3) | st.integers(-2**31, 2**31 - 1)))
@settings(max_examples=200, deadline=None)
def test_steps_of_a_column_give_back_every_frame(dense: np.ndarray) -> None:
    steps = Steps.of(dense)
    assert steps.dense().dtype == np.int32
    assert np.array_equal(steps.dense(), dense)
    for f in range(len(dense)):
        assert steps.at(f) == dense[f]
    changes = len(dense) and 1 + int(np.count_nonzero(np.diff(dense)))
    assert len(steps.frames) == (0 if steps.every_frame else changes)
    assert steps.every_frame == (changes * (4 + steps.values.itemsize) >= len(dense) * steps.values.itemsize > 0)


@given(hnp.arrays(np.int32, st.integers(0, 60), elements=st.integers(-3, 3)), st.integers(-5, 70), st.integers(-5, 70))
@settings(max_examples=200, deadline=None)
def test_a_window_of_steps_is_that_slice_of_the_column(dense: np.ndarray, first: int, last: int) -> None:
    window = Steps.of(dense).window(first, last)
    assert window.dtype == np.int32
    assert np.array_equal(window, dense[max(first, 0):max(min(last, len(dense)), max(first, 0))])


def test_rows_are_stored_where_they_change() -> None:
    dense = np.array([[1.5, 0, 0]] * 5 + [[2.0, 0, 0]] * 3 + [[1.5, 0, 0]] * 2)
    steps = Steps.of(dense)
    assert steps.frames.tolist() == [0, 5, 8]
    assert steps.values.dtype == np.float32 and steps.at(6).dtype == np.float64
    assert np.array_equal(steps.dense(), dense)


def test_steps_at_frames_hold_the_last_row_of_a_frame_and_the_first_before_any() -> None:
    values = np.array([[7], [8], [8], [9]], np.int32)
    steps = Steps.at_frames(100, np.array([3, 5, 6, 6]), values)
    assert steps.dense()[:, 0].tolist() == [7] * 5 + [8] + [9] * 94
    assert steps.frames.tolist() == [3, 5, 6] and not steps.every_frame


def test_a_column_changing_at_most_frames_keeps_a_row_per_frame() -> None:
    dense = np.minimum(np.arange(20.0), 14)[:, None] * [1, 2, 3]      # 15 changes: 15 x (4 + 12) >= 20 x 12 bytes
    steps = Steps.of(dense)
    assert steps.every_frame and len(steps.values) == 20 and len(steps.frames) == 0
    assert steps.index(7) == 7 and steps.at(7).tolist() == [7.0, 14.0, 21.0]
    assert not Steps.of(np.minimum(np.arange(20.0), 13)[:, None] * [1, 2, 3]).every_frame
    assert np.array_equal(steps.dense(), dense)


def test_narrowest_keeps_values_exact() -> None:
    assert narrowest(np.array([0, 100, -100], np.int32)).dtype == np.int8
    assert narrowest(np.array([0, 40000], np.int64)).dtype == np.int32
    assert narrowest(np.array([1.0 / 8, 4095.875])).dtype == np.float32
    exact = np.array([0.1])                       # not a float32 value: stays a double
    assert narrowest(exact).dtype == np.float64
    assert narrowest(np.zeros(0, np.int32)).dtype == np.int8


@given(hnp.arrays(np.float64, st.integers(0, 30), elements=st.floats(-1e6, 1e6) | st.integers(-4096, 4096).map(
    lambda k: k / 8)))
@settings(max_examples=200, deadline=None)
def test_narrowing_then_widening_gives_the_same_doubles(a: np.ndarray) -> None:
    assert np.array_equal(narrowest(a).astype(np.float64), a)
