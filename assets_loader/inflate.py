"""Bounded gzip inflation: a ``.dem.gz`` is decompressed piece by piece and stopped at a size and ratio limit.

Neither the compressed file nor its inflated content is taken in one piece: input is fed in 64 KiB chunks and
each call inflates at most 1 MiB, so a gzip bomb is caught after a few MB instead of after filling memory.
Two limits apply: the inflated size (the demo limit of :mod:`assets_loader.source`) and the ratio of inflated
to compressed bytes read so far (:data:`MAX_RATIO`; real demos compress 3-10:1, deflate's ceiling is about
1032:1). Breaking either is a :class:`~assets_loader.errors.TooLargeError`; a corrupt or cut stream is a
:class:`~assets_loader.errors.TruncatedError`.

References: RFC 1952 (gzip member: magic 1f 8b); RFC 1951 (deflate); zlib ``inflate`` with ``max_length``.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator

from .errors import TooLargeError, TruncatedError

GZIP_MAGIC = b"\x1f\x8b"
#: Most inflated bytes per compressed byte accepted; demos (text and small deltas) stay far below.
MAX_RATIO = 100
#: Inflated bytes allowed before the ratio is checked, so a tiny file of repeated bytes still opens.
RATIO_GRACE = 1 << 20
_IN_CHUNK = 1 << 16
_OUT_CHUNK = 1 << 20


def gunzip_bounded(chunks: Iterable[bytes], name: str, max_size: int, max_ratio: float = MAX_RATIO) -> bytes:
    """Inflate the gzip stream arriving as ``chunks`` into at most ``max_size`` bytes.

    Concatenated gzip members are inflated one after the other, as ``gzip -d`` does.
    """
    out = bytearray()
    fed = 0
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        for chunk in chunks:
            fed += len(chunk)
            pending = chunk
            while pending:
                out += d.decompress(pending, _OUT_CHUNK)
                _check(len(out), fed - len(d.unconsumed_tail), name, max_size, max_ratio)
                pending = d.unconsumed_tail
                if d.eof:
                    pending = d.unused_data
                    if pending[:2] != GZIP_MAGIC:
                        break  # trailing garbage after the last member is ignored, like gzip
                    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        out += d.flush()
    except zlib.error as exc:
        raise TruncatedError(name, "gzip", fed, "a complete gzip stream", str(exc)) from None
    _check(len(out), fed, name, max_size, max_ratio)
    if not d.eof:
        raise TruncatedError(name, "gzip", fed, "a complete gzip stream", "a cut stream")
    return bytes(out)


def _check(size: int, consumed: int, name: str, max_size: int, max_ratio: float) -> None:
    if size > max_size:
        raise TooLargeError(name, "gzip", None, f"at most {max_size} inflated bytes (raise it with QDV_MAX_DEMO_SIZE)",
                            f"inflating to more than {max_size} bytes")
    if size > RATIO_GRACE and size > max_ratio * max(consumed, 1):
        raise TooLargeError(name, "gzip", consumed, f"at most {max_ratio:g} inflated bytes per compressed byte",
                            f"inflating to {size} bytes from its first {consumed}")


def byte_chunks(data: bytes, size: int = _IN_CHUNK) -> Iterator[bytes]:
    """``data`` in pieces of at most ``size`` bytes."""
    view = memoryview(data)
    for start in range(0, len(view), size):
        yield bytes(view[start:start + size])
