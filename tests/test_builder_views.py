"""The timeline builder keeps no view of a buffer it still grows: a sampling profiler (Dask's workers run one) that
holds a finished call's frame keeps that frame's locals alive, and a numpy view among them stopped the next
frame's append with ``BufferError: cannot resize an array that is exporting buffers`` (seen indexing with Dask)."""

from __future__ import annotations

import sys
import warnings

from assets_loader.demos import load_demo
from tests.conftest import QUAKE2, QUAKEWORLD


def _decode_holding_builder_frames(path) -> tuple[int, int]:
    held = []

    def on_return(frame, event, arg):
        if event == "return":
            held.append(frame)              # as a profiler's stack sample would
        return on_return

    sys.settrace(lambda frame, event, arg: on_return if frame.f_code.co_name == "_store_pending" else None)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            timeline = load_demo(path)
    finally:
        sys.settrace(None)
    return timeline.num_frames, len(held)


def test_a_profiler_holding_the_builder_frames_does_not_stop_a_decode():
    frames, held = _decode_holding_builder_frames(QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd")
    assert held > 1 and frames == load_demo(QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd").num_frames
    frames, held = _decode_holding_builder_frames(QUAKE2 / "demos" / "libq2-testduel.dm2")
    assert held >= 1 and frames > 0
