"""Mutated Quake III corpus bytes raise only FormatError (or decode with warnings), in bounded time; with
``keep_before_error`` a corrupt message ends the demo instead of raising."""

from __future__ import annotations

import warnings

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assets_loader.demos.quake3 import MessageFormatError, parse_demo
from assets_loader.demos.quake3.framing import split_messages
from assets_loader.errors import FormatError
from tests.conftest import QUAKE3

_DEMO = QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"
_DATA = _DEMO.read_bytes()
#: The gamestate and the first 60 snapshots: every kind of message, small enough for many examples.
_HEAD = _DATA[: split_messages(_DATA, _DEMO.name).blocks[60].offset - 8]


def _decode(data: bytes) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for keep in (False, True):
            try:
                demo = parse_demo(data, "fuzz.dm_68", keep_before_error=keep)
            except MessageFormatError:
                assert not keep  # kept: a corrupt message ends the demo instead
            except FormatError:
                pass
            else:
                assert demo.snapshots.entity_offsets[-1] == len(demo.snapshots.entities)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(_HEAD) - 1), st.integers(0, 255)), min_size=1, max_size=8))
def test_mutated_bytes_raise_only_format_error(edits):
    data = bytearray(_HEAD)
    for pos, value in edits:
        data[pos] = value
    _decode(bytes(data))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(_HEAD)), st.binary(max_size=64))
def test_cut_and_spliced_files_raise_only_format_error(cut, tail):
    _decode(_HEAD[:cut] + tail)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_raise_only_format_error(data):
    _decode(data)
