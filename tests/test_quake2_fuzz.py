"""Hypothesis: the Quake II loaders (BSP38, PCX, WAL, TGA/JPG/PNG, MD2, SP2) raise only ``FormatError`` on random
and mutated input, and what loads can be queried (visibility, areas, traces, poses) without other errors."""

from __future__ import annotations

import io
import struct
from functools import cache

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image as PilImage

from assets_loader.bsp38 import World38, load_bsp38
from assets_loader.bsp38.trace import point_contents, trace_line
from assets_loader.errors import FormatError
from assets_loader.models.md2 import load_md2
from assets_loader.models.sp2 import load_sp2
from assets_loader.pcx import load_pcx
from assets_loader.truecolor import load_rgba
from assets_loader.vfs import QUAKE2_BASE_GAME, VirtualFS
from assets_loader.wal import load_wal
from tests.builders.bsp38 import build_bsp38
from tests.builders.images import pattern
from tests.builders.quake2_images import build_pcx, build_wal
from tests.builders.quake2_models import build_md2, build_sp2
from tests.conftest import QUAKE2 as QUAKE2_DATA

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _exercise_bsp(data: bytes) -> None:
    w: World38 = load_bsp38(data, "fuzz.bsp")
    assert len(w.mesh.indices) % 3 == 0
    if len(w.mesh.indices):
        assert int(w.mesh.indices.max()) < len(w.mesh.vertices)
    for query in (lambda: w.leaf_pvs(min(1, w.num_leafs - 1), areabits=b"\x05"),
                  lambda: w.cluster_phs(0) if w.num_clusters else None,
                  lambda: w.area_bits(1),
                  lambda: w.visible_faces(w.point_leaf((10.0, 20.0, 5.0))),
                  lambda: trace_line(w, (-50.0, 32.0, 8.0), (300.0, 32.0, 8.0)),
                  lambda: point_contents(w, (110.0, 32.0, 8.0))):
        try:
            query()
        except FormatError:
            pass


def _md2_fully(data: bytes) -> None:
    m = load_md2(data)
    m.pose_at(m.num_frames - 1, 0.5)


def _sp2_fully(data: bytes) -> None:
    s = load_sp2(data)
    s.frame_at(7)


def _png(data: bytes) -> np.ndarray:
    return load_rgba(data, "fuzz.png")


def _tga(data: bytes) -> np.ndarray:
    return load_rgba(data, "fuzz.tga")


def _jpg(data: bytes) -> np.ndarray:
    return load_rgba(data, "fuzz.jpg")


LOADERS = {"bsp": _exercise_bsp, "pcx": load_pcx, "wal": load_wal, "md2": _md2_fully, "sp2": _sp2_fully,
           "png": _png, "tga": _tga, "jpg": _jpg}
PREFIXES = {"bsp": b"IBSP" + struct.pack("<i", 38), "pcx": bytes((10, 5, 1, 8)),
            "md2": b"IDP2" + struct.pack("<i", 8), "sp2": b"IDS2" + struct.pack("<i", 2)}


def _encoded(fmt: str) -> bytes:
    buf = io.BytesIO()
    PilImage.fromarray(pattern(12, 6).repeat(3).reshape(6, 12, 3)).save(buf, fmt)
    return buf.getvalue()


@cache
def _samples() -> dict[str, tuple[str, bytes]]:
    fs = VirtualFS(QUAKE2_DATA, "action", base=QUAKE2_BASE_GAME)
    return {
        "tiny.bsp": ("bsp", build_bsp38()),
        "tiny.pcx": ("pcx", build_pcx(pattern(9, 5))),
        "skin.pcx": ("pcx", fs.read("models/items/ammo/sniper/skin.pcx")),
        "tiny.wal": ("wal", build_wal("a/b", 16, 32, next_name="a/c", flags=9, value=3)),
        "trim.wal": ("wal", fs.read("textures/lundvall/trim4.wal")),
        "tiny.md2": ("md2", build_md2()),
        "clip.md2": ("md2", fs.read("models/items/ammo/clip/tris.md2")),
        "lsight.sp2": ("sp2", fs.read("sprites/lsight.sp2")),
        "tiny.sp2": ("sp2", build_sp2([("a.pcx", 4, 4, 2, 2)])),
        "tiny.png": ("png", _encoded("PNG")),
        "tiny.tga": ("tga", _encoded("TGA")),
        "tiny.jpg": ("jpg", _encoded("JPEG")),
    }


def _only_format_errors(loader, data: bytes) -> None:
    try:
        loader(data)
    except FormatError:
        pass


@FUZZ
@given(kind=st.sampled_from(sorted(LOADERS)), data=st.binary(max_size=600), prefixed=st.booleans())
def test_random_bytes_raise_only_format_errors(kind, data, prefixed):
    if prefixed and kind in PREFIXES:
        data = PREFIXES[kind] + data
    _only_format_errors(LOADERS[kind], data)


@FUZZ
@given(sample=st.sampled_from(sorted(_samples())),
       flips=st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 255), st.booleans()), min_size=1, max_size=8),
       cut=st.one_of(st.none(), st.integers(0, 1 << 20)))
def test_mutated_files_load_or_raise_format_errors(sample, flips, cut):
    kind, original = _samples()[sample]
    data = bytearray(original)
    header = 8 + 8 * 19 if kind == "bsp" else 128
    for pos, value, in_header in flips:
        # half the flips land where counts, sizes and offsets live
        data[pos % min(len(data), header) if in_header else pos % len(data)] = value
    if cut is not None:
        data = data[:cut % (len(data) + 1)]
    _only_format_errors(LOADERS[kind], bytes(data))


@FUZZ
@given(lump=st.integers(0, 18), offset=st.integers(-8, 2000), length=st.integers(-8, 2000))
def test_bsp_lump_directory_with_hostile_entries(lump, offset, length):
    data = bytearray(build_bsp38())
    struct.pack_into("<ii", data, 8 + 8 * lump, offset, length)
    _only_format_errors(_exercise_bsp, bytes(data))


@FUZZ
@given(values=st.lists(st.integers(-(1 << 31), (1 << 31) - 1), min_size=1, max_size=4), where=st.integers(0, 15))
def test_md2_header_int_fields_with_extreme_values(values, where):
    data = bytearray(build_md2())
    for k, v in enumerate(values):
        struct.pack_into("<i", data, 8 + 4 * ((where + k) % 15), v)   # skinwidth .. ofs_end
    _only_format_errors(_md2_fully, bytes(data))


def test_terminal_header_words_with_hostile_values():
    """Deterministic sweep over the real map's lump directory."""
    data = VirtualFS(QUAKE2_DATA, "action", base=QUAKE2_BASE_GAME).read("maps/terminal.bsp")
    for word in range(2, 2 + 2 * 19, 3):
        for value in (-1, 0, 7, 1 << 30):
            mutated = bytearray(data)
            struct.pack_into("<i", mutated, 4 * word, value)
            _only_format_errors(lambda d: load_bsp38(d, "terminal.bsp"), bytes(mutated))
