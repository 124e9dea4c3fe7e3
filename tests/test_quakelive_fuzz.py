"""Mutated Quake Live demo bytes (protocols 73, 90, 91: their field tables, configstrings and scoreboard commands)
raise only FormatError or decode, with every snapshot's entities and player state in their tables' shape; the
timeline of what decodes builds."""

from __future__ import annotations

import warnings

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assets_loader.demos.quake3 import MessageFormatError, parse_demo
from assets_loader.demos.quake3.framing import split_messages
from assets_loader.demos.quake3.timeline import timeline_from_demo
from assets_loader.errors import FormatError
from tests.conftest import DATA

_QL = DATA / "public" / "quakelive"


def _head(name: str, messages: int) -> bytes:
    data = (_QL / name).read_bytes()
    return data[: split_messages(data, name).blocks[messages].offset - 8]


#: The gamestate and the first 40 snapshots of one demo of each protocol.
_HEADS = {73: _head("dm_73_duel_scores.dm_73", 40), 90: _head("dm_90_ft.dm_90", 40),
          91: _head("dm_91_duel.dm_91", 40)}


def _decode(data: bytes, protocol: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for keep in (False, True):
            try:
                demo = parse_demo(data, f"fuzz.dm_{protocol}", keep_before_error=keep)
            except MessageFormatError:
                assert not keep  # kept: a corrupt message ends the demo instead
            except FormatError:
                pass
            else:
                assert demo.protocol == protocol
                assert demo.snapshots.entity_offsets[-1] == len(demo.snapshots.entities)
                if keep and len(demo.snapshots) and demo.gamestates:
                    timeline_from_demo(demo)


@settings(max_examples=90, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(_HEADS)), st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(0, 255)),
                                                 min_size=1, max_size=8))
def test_mutated_bytes_raise_only_format_error(protocol, edits):
    data = bytearray(_HEADS[protocol])
    for where, value in edits:
        data[int(where * len(data))] = value
    _decode(bytes(data), protocol)


@settings(max_examples=45, deadline=None)
@given(st.sampled_from(sorted(_HEADS)), st.floats(0, 1), st.binary(max_size=64))
def test_cut_and_spliced_files_raise_only_format_error(protocol, where, tail):
    head = _HEADS[protocol]
    _decode(head[:int(where * len(head))] + tail, protocol)
