"""Demo format detection (extension, then content) with transparent gzip, and the ``load_demo`` entry point.

``load_demo(src)`` accepts a path or bytes.  A path is checked and read within the demo size limit
(:mod:`assets_loader.source`); ``.gz`` files (or any input starting with the gzip magic) are inflated
incrementally within the same limit and a ratio limit (:mod:`assets_loader.inflate`), so a gzip bomb is a
``TooLargeError`` after a few MB.  The format is chosen from the file
name (``.dem``, ``.qwd``, ``.mvd``, ``.dm2``, ``.dm_NN``) when there is one, otherwise from the content.  NetQuake
``.dem``, QuakeWorld ``.qwd`` / ``.mvd``, Quake II ``.dm2`` and Quake III ``.dm_NN`` (Quake Live's ``.dm_73``,
``.dm_90`` and ``.dm_91`` among them) are decoded.

References: Uwe Girlich, "The unofficial DEM format description" v1.0.9, section 6.1 (the CD-track line that
starts every NetQuake demo); RFC 1952 (gzip magic 1f 8b).
"""

from __future__ import annotations

import re
import warnings

from ..errors import BadMagicError, FormatError, UnsupportedFormatError
from ..inflate import GZIP_MAGIC, byte_chunks, gunzip_bounded
from ..source import Source, read_source, size_limit
from .kit.budget import state_budget
from .quake import decode_dem, parse_cd_track
from .quake2 import decode_dm2
from .quake3.protocol import PROTOCOLS as QUAKE3_PROTOCOLS
from .quake3.timeline import decode_quake3
from .quakeworld import decode_mvd, decode_qwd, looks_like_mvd, looks_like_qwd
from .timeline import DemoTimeline

__all__ = ["DEMO_SUFFIXES", "FORMAT_NAMES", "GZIP_SUFFIX", "demo_game", "demo_game_dir", "detect_format",
           "is_demo_name", "load_demo", "maybe_gunzip", "sniff_format"]

_EXTENSIONS = {".dem": "dem", ".qwd": "qwd", ".mvd": "mvd", ".dm2": "dm2"}
#: The file name endings of the demos :func:`load_demo` decodes: Quake, QuakeWorld (client and multi-view), Quake II,
#: then Quake III and Quake Live by protocol (``.dm_66`` … ``.dm_91``); each may be gzipped (:data:`GZIP_SUFFIX`).
DEMO_SUFFIXES: tuple[str, ...] = (*_EXTENSIONS, *(f".dm_{p}" for p in QUAKE3_PROTOCOLS))
GZIP_SUFFIX = ".gz"
_DM_Q3 = re.compile(r"\.dm_(\d+)$")


def maybe_gunzip(data: bytes, name: str, max_size: int | None = None) -> bytes:
    """Inflate ``data`` if it is gzip (by magic) into at most ``max_size`` bytes (default: the demo size limit),
    incrementally and with a ratio limit (:mod:`assets_loader.inflate`); else return it unchanged."""
    if data[:2] != GZIP_MAGIC:
        return data
    return gunzip_bounded(byte_chunks(data), name, size_limit("demo") if max_size is None else max_size)


#: What each format is, for messages.
FORMAT_NAMES = {
    "dem": "a Quake demo (.dem)", "qwd": "a QuakeWorld client demo (.qwd)",
    "mvd": "a QuakeWorld multi-view demo (.mvd)",
    "dm2": "a Quake II demo (.dm2)", "dm_NN": "a Quake III demo (.dm_NN)",
    **{f"dm_{p}": f"a Quake Live demo (.dm_{p}, protocol {p})" for p in (73, 90, 91)},
}
_Q2_SVC_SERVERDATA = 12
_Q2_SVC_SERVERDATA_300 = 7
_Q2_PROTOCOLS = (25, 26, 34, 35, 36, 2023)
_Q3_MAX_MSGLEN = 16384


def _looks_like_dm2(data: bytes) -> bool:
    """The first block (int32 length) starts with ``svc_serverdata`` and a Quake II protocol number (3.00's
    protocol 25 numbers that message 7)."""
    if len(data) < 9:
        return False
    length = int.from_bytes(data[0:4], "little", signed=True)
    protocol = int.from_bytes(data[5:9], "little", signed=True)
    serverdata = data[4] == _Q2_SVC_SERVERDATA or (data[4] == _Q2_SVC_SERVERDATA_300 and protocol == 25)
    return 0 < length <= 0x10000 and serverdata and protocol in _Q2_PROTOCOLS


def _looks_like_dm_q3(data: bytes) -> bool:
    """The first two message headers (int32 sequence, int32 length) are sane and the sequence increases."""
    if len(data) < 16:
        return False
    seq = int.from_bytes(data[0:4], "little", signed=True)
    length = int.from_bytes(data[4:8], "little", signed=True)
    if seq < 0 or not 0 < length <= _Q3_MAX_MSGLEN or 8 + length > len(data):
        return False
    nxt = 8 + length
    if nxt + 8 > len(data):
        return True
    seq2 = int.from_bytes(data[nxt:nxt + 4], "little", signed=True)
    length2 = int.from_bytes(data[nxt + 4:nxt + 8], "little", signed=True)
    return (seq2, length2) == (-1, -1) or (seq2 > seq and 0 < length2 <= _Q3_MAX_MSGLEN)


def sniff_format(data: bytes, name: str = "") -> str | None:
    """The demo format the content shows (``"dem"``, ``"qwd"``, ``"mvd"``, ``"dm2"``, ``"dm_NN"``), or ``None``."""
    try:
        parse_cd_track(data[:16], name)
        return "dem"
    except FormatError:
        pass
    if _looks_like_dm2(data):
        return "dm2"
    if looks_like_mvd(data):
        return "mvd"
    if looks_like_qwd(data):
        return "qwd"
    if _looks_like_dm_q3(data):
        return "dm_NN"
    return None


def is_demo_name(name: str) -> bool:
    """Does the file name end like a demo :func:`load_demo` decodes (:data:`DEMO_SUFFIXES`, gzipped or not)?"""
    return name.lower().removesuffix(GZIP_SUFFIX).endswith(DEMO_SUFFIXES)


def _format_from_name(name: str) -> str | None:
    lower = name.lower()
    lower = lower.removesuffix(GZIP_SUFFIX)
    for ext, fmt in _EXTENSIONS.items():
        if lower.endswith(ext):
            return fmt
    m = _DM_Q3.search(lower)
    return f"dm_{m.group(1)}" if m else None


def detect_format(data: bytes, name: str = "") -> str:
    """``"dem"``, ``"qwd"``, ``"mvd"``, ``"dm2"`` or ``"dm_NN"``: from the content first, else from the name.

    A name whose extension says another format than the content gets a warning; the content wins."""
    by_name = _format_from_name(name)
    sniffed = sniff_format(data, name)
    if sniffed is None:
        if by_name is None:
            raise BadMagicError(name or "<bytes>", "demo", 0, "a Quake-family demo (.dem/.qwd/.mvd/.dm2/.dm_NN)",
                                repr(bytes(data[:8])))
        return by_name
    if sniffed == "dm_NN" and by_name is not None and by_name.startswith("dm_"):
        return by_name
    if by_name is not None and by_name != sniffed:
        warnings.warn(f"{name}: the name says {FORMAT_NAMES.get(by_name, FORMAT_NAMES['dm_NN'])} but the content is "
                      f"{FORMAT_NAMES[sniffed]}; reading it as such", stacklevel=2)
    return sniffed


def demo_game(data: bytes, name: str = "") -> str:
    """The game a demo's timeline will name (``DemoTimeline.game``), from its first bytes and name, without decoding
    it: ``quake``, ``quakeworld``, ``quake2`` or ``quake3`` (``quake`` when the format is not recognised)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fmt = detect_format(b"" if data[:2] == b"\x1f\x8b" else data, name)   # gzip: the name says it
    except FormatError:
        return "quake"
    return {"qwd": "quakeworld", "mvd": "quakeworld", "dm2": "quake2"}.get(
        fmt, "quake3" if fmt.startswith("dm_") else "quake")


def load_demo(src: Source, name: str | None = None, max_size: int | None = None) -> DemoTimeline:
    """Decode a demo file (path or bytes, optionally gzipped) into a :class:`DemoTimeline`.

    ``max_size`` replaces the demo size limit (file and inflated content) of :mod:`assets_loader.source`.

    Raises ``OSError`` if a path cannot be read and :class:`FormatError` for bad or unsupported content (a demo
    past its entity-state budget: :class:`~.kit.budget.StateBudgetError`); a truncated or partly corrupt demo returns
    the usable part with a warning (``timeline.warnings``).  A ``QDV_MAX_DEMO_STATES`` that is not a count raises
    :class:`~assets_loader.source.LimitSettingError` before anything is read.
    """
    state_budget()
    data, label = read_source(src, name, "demo", max_size)
    data = maybe_gunzip(data, label, max_size)
    fmt = detect_format(data, label)
    if fmt == "dem":
        return decode_dem(data, label)
    if fmt == "qwd":
        return decode_qwd(data, label)
    if fmt == "mvd":
        return decode_mvd(data, label)
    if fmt == "dm2":
        return decode_dm2(data, label)
    if fmt.startswith("dm_"):
        return decode_quake3(data, label)
    what = FORMAT_NAMES.get(fmt, FORMAT_NAMES["dm_NN"])
    raise UnsupportedFormatError(label, fmt, 0, "a Quake-family demo qdv decodes (.dem, .qwd, .mvd, .dm2, .dm_NN)",
                                 f"{what}, which qdv cannot decode yet")


def demo_game_dir(path: str) -> str | None:
    """The game directory a demo file names in its header (Quake II ``svc_serverdata``: ``"action"``), or ``None``
    when it names none or cannot be read."""
    try:
        with open(path, "rb") as f:
            head = f.read(1024)
    except OSError:
        return None
    if not _looks_like_dm2(head):
        return None
    end = head.find(b"\0", 14)
    return (head[14:end].decode("latin-1") or None) if end >= 0 else None
