"""The static Huffman code of the Quake III message stream, and its table-driven decoder.

Every Quake III network message (and so every demo message) after its first 32 bits is Huffman coded with one
fixed code.  The engine builds it at start-up by feeding an adaptive Huffman tree (``huffman.c``
``Huff_addRef``) with a table of 256 byte frequencies (``msg.c`` ``msg_hData``, spec section 7
``huffCounts``); the resulting tree never changes afterwards.  :data:`CODES` is that tree written out: the path
from the root to each byte, one character per bit in the order the bits are read ('0' = left, '1' = right).
The 257th leaf of the tree is the adaptive coder's "not yet transmitted" node, which the engine decodes as the
value 256 (:data:`NYT_CODE`, :data:`NYT_SYMBOL`).  ``tests/builders/q3huffman.py`` rebuilds :data:`CODES` from
the frequency table the way the engine does, and the corpus demos decode to their ends with it.

Decoding is one table look-up per byte: :func:`decode_table` maps every possible next :data:`MAX_CODE_BITS` bits
(least significant bit read first) to ``symbol << 4 | code length``; :func:`prefixed_table` does the same for a
read of a few raw bits followed by one Huffman byte (the 10-bit entity numbers).
This is the whole choice of implementation: no package on PyPI ships this code as a prebuilt wheel (``q3huff``
is a source-only C extension), and the look-up table decodes a byte in one list index.  Swapping in another
decoder means replacing this module, :mod:`.bitstream` and the inlined reads of :mod:`.delta`.

References: ioquake3 ``code/qcommon/huffman.c`` (``Huff_Init``, ``Huff_addRef``, ``Huff_offsetReceive``),
``code/qcommon/msg.c`` (``MSG_initHuffman``, ``msg_hData``); spec 004 section 7.
"""

from __future__ import annotations

from functools import cache

import numpy as np

__all__ = ["CODES", "MAX_CODE_BITS", "NYT_CODE", "NYT_SYMBOL", "decode_table", "prefixed_table"]

#: Root-to-leaf path of every byte value 0..255 ('0' = left child, '1' = right child, first bit first).
CODES: tuple[str, ...] = (
    "01", "11011", "0001001", "0011011", "10000101", "10001000", "0000100", "111111",
    "10101", "0010110", "1001011", "1101000", "1100100", "101101", "10011100", "001101010",
    "1010010", "000110100", "000011111", "000111111", "1011101110", "1100111111", "1101010001", "1100010011",
    "001011110", "1011000110", "1101010100", "1100011011", "1101011110", "11000010", "111100100", "00101011",
    "111011", "1100101100", "001000100", "1011001101", "1010001111", "1001111111", "1011000011", "1011001111",
    "001010010", "0011010110", "1100110000", "0010100000", "1000111001", "0000111101", "001011111", "00011110",
    "1110010", "11000011", "11110111", "111010011", "11001010", "10001101", "101100000", "100001101",
    "111000000", "100011110", "100110011", "1000100110", "1100010010", "001111010", "001000101", "1100111110",
    "11110011", "0000101", "0011111", "0010000", "10000100", "10001010", "000000010", "000011100",
    "101111001", "1100011000", "1110101101", "1000111011", "101110011", "1101010101", "1110001110", "1100110011",
    "001101001", "1011100100", "1101011010", "1101011011", "1100101110", "1000111010", "1100011110", "1100110001",
    "1110101100", "1101001101", "000011101", "000101010", "111000110", "101000001", "110101110", "00011011",
    "110011110", "00111100", "110101011", "111100011", "111010010", "0000110", "10000010", "111100101",
    "001110", "00010100", "101111010", "001000110", "00011001", "111100010", "00110000", "11001101",
    "10100001", "00110001", "11100010", "10011110", "1001101", "0000001", "11101000", "10011000",
    "11010010", "10000111", "11000101", "11001110", "11110110", "0001011", "0001000", "1010011",
    "111110", "1001010", "0011001", "1011111", "11110000", "11000001", "10000000", "11100001",
    "11100110", "11100111", "11101010", "00101110", "110100111", "001000111", "100000010", "101100100",
    "100011001", "1100011010", "000000011", "1110101111", "1101010000", "1010001010", "1101011000", "1011110000",
    "1101010011", "1001111100", "1100011100", "1010001001", "1101010010", "1000110000", "1101011111", "1001110110",
    "001010001", "1001111110", "1100110010", "0011010000", "1011101101", "1000001110", "1011100011", "1000101110",
    "000111001", "1000011000", "1100011101", "1010001011", "1101011001", "1011001100", "1101001100", "1011001010",
    "000111000", "1000001111", "1011110001", "0011110111", "1010001100", "0011010111", "1100011111", "1001100101",
    "1100101111", "0010100001", "1100000001", "0011110110", "1011100101", "1000000111", "1100011001", "1011000100",
    "00101010", "110000001", "10111010", "000001", "1001000", "1110001111", "1110000011", "00011101",
    "100011111", "0011010001", "1010001000", "1100000000", "1011100010", "1010001110", "1011001011", "1011100000",
    "000000000", "1001110111", "1011101100", "1000000110", "1011000010", "1001110100", "1011001110", "0010100111",
    "1011110110", "0010100110", "1011000111", "0001101010", "1011110111", "1000001100", "1011101111", "0001111100",
    "100010110", "100010010", "1001100100", "0001111101", "1100010000", "1000111000", "1100101101", "1000100111",
    "1001001", "1000110001", "1110000010", "1000011001", "1100010001", "00011000", "1010000001", "1000001101",
    "1110101110", "0000111100", "1010001101", "0000000011", "1000101111", "0001010111", "1011100001", "00000000101",
    "1010000000", "0001101011", "1001111101", "0001010110", "1001110101", "1011000101", "1111010", "001001",
)

#: Path of the adaptive coder's "not yet transmitted" leaf; the engine decodes it as :data:`NYT_SYMBOL`.
NYT_CODE = "00000000100"
NYT_SYMBOL = 256

#: Longest code in :data:`CODES` (and the NYT path): the width of the decode table's index.
MAX_CODE_BITS = 11


def decode_table() -> list[int]:
    """Look-up table for one Huffman byte: index = the next :data:`MAX_CODE_BITS` bits of the stream (first bit
    in bit 0), value = ``symbol << 4 | code length``.

    Every index is covered because the tree is complete (each inner node has two children).
    """
    table = [-1] * (1 << MAX_CODE_BITS)
    for symbol, path in enumerate((*CODES, NYT_CODE)):
        length = len(path)
        low = sum(1 << i for i, bit in enumerate(path) if bit == "1")
        entry = symbol << 4 | length
        for high in range(1 << (MAX_CODE_BITS - length)):
            table[low | high << length] = entry
    return table


@cache
def prefixed_table(raw: int) -> tuple[int, ...]:
    """Look-up table for ``MSG_ReadBits`` of ``raw`` + 8 bits (``raw`` in 1..7): ``raw`` raw bits, then one Huffman
    byte.  Index = the next ``raw`` + :data:`MAX_CODE_BITS` bits of the stream (first bit in bit 0), value =
    ``(raw bits | symbol << raw) << 5 | bits consumed`` (the NYT symbol 256 lands in bit ``raw + 8`` like in
    ``MSG_ReadBits``).  Equal entries are one int object, which keeps the table's memory small for the CPU
    caches."""
    index = np.arange(1 << (raw + MAX_CODE_BITS), dtype=np.int64)
    code = np.array(decode_table(), np.int64)[index >> raw]
    value = (index & ((1 << raw) - 1)) | (code >> 4) << raw
    shared: dict[int, int] = {}
    return tuple(shared.setdefault(entry, entry) for entry in (value << 5 | (raw + (code & 15))).tolist())
