"""The library's packed events list (:mod:`viewer.library.event_blob`) gives back exactly what was packed: values,
their types, key order and event order, for columns stored as differences and columns that cannot be. The real
demos' lists are checked against ``qdv events --json`` in ``test_library.py``."""

from __future__ import annotations

import json
import math
import zlib

from viewer.library.event_blob import pack_events, unpack_events


def _same(a: list[dict], b: list[dict]) -> bool:
    """Equal, NaN equal to NaN, with the same key order and value types."""
    return json.dumps(a) == json.dumps(b) and all(
        list(x) == list(y) and [type(v) for v in x.values()] == [type(v) for v in y.values()] for x, y in zip(a, b))


def test_shapes_interleaved_come_back_in_order():
    events = [
        {"time": 0.1, "server_time": 88.8, "frame": 4, "segment": 0, "kind": "sound", "origin": [-2366.133301, 1.0, 2]},
        {"time": 0.1, "server_time": 88.8, "frame": 4, "segment": 0, "kind": "obituary", "killer": None,
         "victim": "Grunt", "suicide": True, "text": "Grünt ^1died"},
        {"time": 446.05, "server_time": 534.75, "frame": 17839, "segment": 0, "kind": "sound", "origin": [0.5, 0, -1]},
        {"time": 3.0, "server_time": 2.975, "frame": 2, "segment": 1, "kind": "sound", "origin": [9.0, 9.0, 9.0]},
    ]
    assert _same(unpack_events(pack_events(events)), events)
    assert unpack_events(pack_events([])) == []


def test_columns_that_are_no_whole_microseconds_or_integers_are_kept_as_they_are():
    events = [{"time": t, "frame": f, "kind": "x"} for t, f in
              [(0.1234567, 1), (1e300, True), (-0.0, 2.5), (math.nan, None), (math.inf, 3)]]
    assert _same(unpack_events(pack_events(events)), events)
    frames = [{"time": 0.025 * k, "frame": 10 ** 15 + k, "kind": "x"} for k in range(1000)]
    assert _same(unpack_events(pack_events(frames)), frames)


def test_growing_counters_are_stored_as_small_steps():
    events = [{"time": round(0.025 * k, 6), "server_time": round(100 + 0.025 * k, 6), "frame": k, "kind": "sound",
               "origin": [1.5, 2.5, 3.5]} for k in range(20000)]
    packed = pack_events(events)
    as_json = zlib.compress(json.dumps(events, separators=(",", ":")).encode(), 6)
    assert _same(unpack_events(packed), events) and len(packed) * 20 < len(as_json)
