"""Quake III bit reader and static Huffman code: the stored code table against the engine's adaptive tree, and
round trips through a ``MSG_WriteBits`` encoder (tests/builders/dm68.py)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assets_loader.demos.quake3.bitstream import (
    FileBits,
    BIG_INFO_STRING,
    BitReader,
    MessageFormatError,
)
from assets_loader.demos.quake3.huffman import (
    CODES,
    MAX_CODE_BITS,
    NYT_CODE,
    NYT_SYMBOL,
    decode_table,
)
from tests.builders.dm68 import BitWriter, Q3Message, engine_codes


def test_stored_codes_are_the_tree_huff_init_builds():
    codes, nyt = engine_codes()
    assert codes == CODES
    assert nyt == NYT_CODE


def test_code_is_complete_and_prefix_free():
    paths = sorted((*CODES, NYT_CODE))
    assert len(set(paths)) == 257
    assert all(not b.startswith(a) for a, b in itertools.pairwise(paths))
    assert sum(2.0 ** -len(p) for p in paths) == 1.0
    assert max(map(len, paths)) == MAX_CODE_BITS
    assert len(CODES[0]) == 2  # zero bytes are the most frequent


def test_decode_table_covers_every_index():
    table = decode_table()
    assert len(table) == 1 << MAX_CODE_BITS
    assert min(table) > 0
    assert {e >> 4 for e in table} == set(range(NYT_SYMBOL + 1))


widths = st.integers(1, 32)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(widths, st.integers(0, 2**32 - 1), st.booleans()), min_size=1, max_size=40))
def test_read_bits_round_trip(reads):
    w = BitWriter()
    expected = []
    for n, value, signed in reads:
        if signed and n == 32:
            signed = False
        v = value & ((1 << n) - 1)
        w.write_bits(v, -n if signed else n)
        if n == 32 and v >= 1 << 31:
            v -= 1 << 32
        elif signed and v >> (n - 1):
            v -= 1 << n
        expected.append(v)
    r = BitReader(w.data())
    got = [r.read_bits(-n if signed and n != 32 else n) for n, _, signed in reads]
    assert got == expected
    assert r.pos == len(w.bits)
    assert not r.overflowed()


@settings(max_examples=50, deadline=None)
@given(st.text(st.characters(min_codepoint=1, max_codepoint=255), max_size=60))
def test_string_round_trip_maps_percent_and_high_bytes(text):
    m = Q3Message()
    m.string(text)
    m.long(-7)
    r = BitReader(m.data())
    assert r.read_string() == "".join("." if c == "%" or ord(c) > 127 else c for c in text)
    assert r.read_long() == -7


def test_string_stops_at_the_buffer_size_like_the_engine():
    m = Q3Message()
    m.string("x" * 1100)
    r = BitReader(m.data())
    assert r.read_string() == "x" * 1023
    assert r.read_byte() == ord("x")
    big = Q3Message()
    big.string("y" * 1100)
    assert BitReader(big.data()).read_string(BIG_INFO_STRING) == "y" * 1100


def test_exhausted_message_reads_minus_one_and_past_the_data_raises():
    m = Q3Message()
    m.byte(200)
    data = m.data()
    r = BitReader(data, path="t.dm_68", message=3, sequence=77, file_offset=100)
    assert r.read_byte() == 200
    r.pos = len(data) * 8 - 2  # inside the last byte: the engine counts the message as used up
    assert r.read_byte() == -1  # every code is at least 2 bits long
    r.pos = len(data) * 8 + 40
    with pytest.raises(MessageFormatError) as info:
        r.run(lambda reader: reader.read_bits(16))
    err = info.value
    assert (err.message, err.sequence, err.bit, err.path) == (3, 77, len(data) * 8 + 40, "t.dm_68")
    assert "message 3" in str(err) and "bit" in str(err)


def test_nyt_leaf_decodes_as_256_like_the_engine():
    w = BitWriter()
    w.bits.extend(int(c) for c in NYT_CODE)
    r = BitReader(w.data())
    assert r.read_bits(8) == NYT_SYMBOL


def test_file_bits_give_each_message_the_bits_it_has_alone() -> None:
    """A message's reader made from the whole file's bits (:class:`FileBits`) reads past its end as zeros, like a
    reader of its bytes alone: the same bits and 30-bit windows, also for one- to three-byte messages."""
    data = bytes(range(7, 250, 3))
    file_bits = FileBits(data)
    for offset, length in ((0, len(data)), (5, 1), (9, 2), (12, 3), (20, 17), (len(data) - 3, 3)):
        alone = FileBits(data[offset:offset + length]).message(0, length)
        assert file_bits.message(offset, length) == alone
        assert alone[1][-1] == data[offset + length - 1] and len(alone[0]) == 8 * length
