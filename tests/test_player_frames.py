"""Player frames are stored per slot and frame present (issue 19 item 3): a demo that repeats one player's
playerinfo in 100k one-millisecond blocks no longer allocates frames × 32 slots × every column."""

from __future__ import annotations

import numpy as np

from assets_loader.demos import load_demo, sample
from tests.conftest import DATA, QUAKEWORLD

BOMB = DATA / "bad-input" / "mvd_frames_100000.mvd"
TABLE = ("slot_start", "row_frame", "row_origin", "row_angles", "row_ints", "stat_start", "stat_frame", "stat_values",
         "has_stats")


def test_player_table_is_at_most_64_bytes_per_frame_on_the_frames_bomb() -> None:
    tl = load_demo(BOMB)
    pl = tl.players
    assert tl.num_frames > 100_000 - 10 and pl.num_slots == 32
    assert 31 in tl.pov_slots
    assert sum(getattr(pl, name).nbytes for name in TABLE) <= 64 * tl.num_frames
    busiest = int(np.argmax(np.diff(pl.slot_start)))
    a, b = pl.slot_start[busiest], pl.slot_start[busiest + 1]
    assert b - a > 100_000 - 10
    eye = sample(tl, tl.end_time, pov=busiest).view_origin
    assert np.allclose(eye[:2], pl.row_origin[b - 1, :2])


def test_the_whole_timeline_is_at_most_64_bytes_per_frame_on_the_frames_bomb() -> None:
    """Issue 19 item 3 / issue 20 item 5: frame columns, view and stats (steps: they never change here), entity rows
    (compact columns) and the player table together."""
    tl = load_demo(BOMB)
    assert tl.nbytes <= 64 * tl.num_frames
    assert len(tl._stat_rows.values) <= 2 and len(tl._view_origin.values) <= 2


def test_sparse_rows_and_dense_views_agree_on_a_real_mvd() -> None:
    tl = load_demo(QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd")
    pl = tl.players
    present = pl.present
    assert present.sum() == len(pl.row_frame)
    for slot in tl.pov_slots:
        frames = np.flatnonzero(present[:, slot])
        rows = slice(pl.slot_start[slot], pl.slot_start[slot + 1])
        assert np.array_equal(frames, pl.row_frame[rows])
        assert np.array_equal(pl.origin[frames, slot], pl.row_origin[rows])
        assert np.array_equal(pl.stats[:, slot], pl.slot_stats(slot))
        f = int(frames[len(frames) // 2])
        assert np.array_equal(pl.stats_at(slot, f), pl.stats[f, slot])
