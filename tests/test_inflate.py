"""Bounded gzip inflation (assets_loader.inflate): incremental, with a size and a ratio limit, typed errors."""

from __future__ import annotations

import gzip
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assets_loader.demos import load_demo
from assets_loader.errors import FormatError, TooLargeError, TruncatedError
from assets_loader.inflate import RATIO_GRACE, byte_chunks, gunzip_bounded
from tests.conftest import LQ1

DEMO = (LQ1 / "demo3.dem").read_bytes()


def _gunzip(data: bytes, max_size: int = 1 << 30, max_ratio: float = 100) -> bytes:
    return gunzip_bounded(byte_chunks(data, 4096), "t.gz", max_size, max_ratio)


def test_a_real_demo_round_trips_and_loads_gzipped(tmp_path):
    packed = gzip.compress(DEMO)
    assert _gunzip(packed) == DEMO
    path = tmp_path / "demo3.dem.gz"
    path.write_bytes(packed)
    assert load_demo(path).num_frames == load_demo(DEMO, "demo3.dem").num_frames


def test_concatenated_members_and_trailing_garbage_like_gzip():
    assert _gunzip(gzip.compress(b"ab") + gzip.compress(b"cd") + b"\0\0junk") == b"abcd"


def test_a_bomb_stops_at_the_ratio_after_a_few_mb():
    bomb = gzip.compress(bytes(64 << 20))  # 64 MB of zeros in ~64 KB
    with pytest.raises(TooLargeError, match=r"t\.gz: inflating to \d+ bytes from its first \d+; expected at most "
                                            r"100 inflated bytes per compressed byte") as caught:
        _gunzip(bomb)
    assert caught.value.offset is not None and caught.value.offset < len(bomb)


def test_small_repetitive_files_pass_within_the_grace():
    assert _gunzip(gzip.compress(bytes(RATIO_GRACE))) == bytes(RATIO_GRACE)


def test_the_size_limit_holds_whatever_the_ratio():
    with pytest.raises(TooLargeError, match="inflating to more than 1000 bytes; expected at most 1000 inflated bytes"):
        _gunzip(gzip.compress(bytes(2000)), max_size=1000)
    with pytest.raises(TooLargeError, match="QDV_MAX_DEMO_SIZE"):
        load_demo(gzip.compress(DEMO), "x.dem.gz", max_size=len(DEMO) - 1)


def test_cut_and_corrupt_streams_are_truncation_errors():
    packed = gzip.compress(DEMO)
    with pytest.raises(TruncatedError, match="a cut stream"):
        _gunzip(packed[: len(packed) // 2])
    broken = bytearray(packed)
    broken[len(packed) // 2] ^= 0xFF
    with pytest.raises(TruncatedError, match="expected a complete gzip stream"):
        _gunzip(bytes(broken))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000), st.integers(0, 1 << 16))
def test_random_streams_raise_only_format_errors(tail, cut):
    for data in (b"\x1f\x8b" + tail, gzip.compress(tail)[: cut % (len(tail) + 40)] + tail[:8]):
        try:
            _gunzip(data, max_size=1 << 20)
        except FormatError:
            pass


def test_zlib_level_does_not_matter():
    for level in (1, 9):
        co = zlib.compressobj(level, wbits=16 + zlib.MAX_WBITS)
        assert _gunzip(co.compress(DEMO) + co.flush()) == DEMO


def test_inspect_reads_a_gzipped_demo_without_sniffing_the_compressed_bytes(tmp_path):
    import warnings

    from viewer.inspect import inspect_file

    path = tmp_path / "demo3.dem.gz"
    path.write_bytes(gzip.compress(DEMO))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "the name says … but the content is …" about the gzip bytes
        report = inspect_file(str(path))
    assert report["format"] == "dem"
