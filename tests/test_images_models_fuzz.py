"""Hypothesis: image and model loaders raise only ``FormatError`` on random and mutated input.

Random bytes (bare, or behind a valid magic/version so the parser gets past the header check) and real files
with flipped bytes or cut short must either load or raise a ``FormatError`` subclass — never ``IndexError``,
``struct.error``, ``ValueError``, ``MemoryError`` or a huge allocation.
"""

from __future__ import annotations

import struct
from functools import cache

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assets_loader.errors import FormatError
from assets_loader.images import load_lmp
from assets_loader.models import load_mdl, load_spr
from assets_loader.pak import load_pak
from assets_loader.palette import load_colormap, load_palette
from assets_loader.wad2 import load_wad
from tests.builders.images import build_miptex, build_qpic, build_wad, pattern
from tests.builders.models import build_mdl, build_spr, default_spec, simple_verts
from tests.conftest import LQ1

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _load_wad_fully(data: bytes) -> None:
    wad = load_wad(data)
    for lump in wad.lumps:
        for decode in (wad.pic, wad.miptex, wad.palette, wad.read):
            try:
                decode(lump.name)
            except FormatError:
                pass


def _load_mdl_fully(data: bytes) -> None:
    m = load_mdl(data)
    m.pose_at(m.num_frames - 1, 1.234)
    m.skin_image_at(len(m.skins) - 1, 0.77)


def _load_spr_fully(data: bytes) -> None:
    s = load_spr(data)
    s.image_at(s.num_frames - 1, 0.33)


LOADERS = {"palette": load_palette, "colormap": load_colormap, "lmp": load_lmp, "wad": _load_wad_fully,
           "mdl": _load_mdl_fully, "spr": _load_spr_fully}
PREFIXES = {"wad": b"WAD2", "mdl": b"IDPO" + struct.pack("<i", 6), "spr": b"IDSP" + struct.pack("<i", 1)}


def _only_format_errors(loader, data: bytes) -> None:
    try:
        loader(data)
    except FormatError:
        pass


@cache
def _samples() -> dict[str, bytes]:
    pak = load_pak(LQ1 / "pak0.pak")
    spec = default_spec()
    spec.skins = [np.zeros((4, 8), np.uint8), ([0.25, 0.5], [np.ones((4, 8), np.uint8)] * 2)]
    spec.frames = [("a", simple_verts(3)), ([0.1, 0.2], [("b", simple_verts(3, 1)), ("c", simple_verts(3, 2))])]
    return {
        "bolt.mdl": pak.read("progs/bolt.mdl"),
        "gib1.mdl": pak.read("progs/gib1.mdl"),
        "groups.mdl": build_mdl(spec),
        "s_bubble.spr": pak.read("progs/s_bubble.spr"),
        "groups.spr": build_spr([(pattern(2, 2), (0, 0)), ([0.1, 0.2], [(pattern(1, 3), (1, 1))] * 2)]),
        "box_bl.lmp": pak.read("gfx/box_bl.lmp"),
        "tiny.wad": build_wad([("PAL", "@", bytes(768)), ("PIC", "B", build_qpic(pattern(3, 3))),
                               ("CONCHARS", "D", bytes(128 * 128)), ("TEX", "D", build_miptex("tex", 16, 16))]),
        "palette.lmp": pak.read("gfx/palette.lmp"),
    }


def _loader_for(sample: str):
    ext = sample.rsplit(".", 1)[1]
    if sample == "palette.lmp":
        return load_palette
    return {"mdl": _load_mdl_fully, "spr": _load_spr_fully, "lmp": load_lmp, "wad": _load_wad_fully}[ext]


@FUZZ
@given(kind=st.sampled_from(sorted(LOADERS)), data=st.binary(max_size=512), prefixed=st.booleans())
def test_random_bytes_raise_only_format_errors(kind, data, prefixed):
    if prefixed and kind in PREFIXES:
        data = PREFIXES[kind] + data
    _only_format_errors(LOADERS[kind], data)


@FUZZ
@given(sample=st.sampled_from(sorted(["bolt.mdl", "gib1.mdl", "groups.mdl", "s_bubble.spr", "groups.spr",
                                      "box_bl.lmp", "tiny.wad", "palette.lmp"])),
       flips=st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 255), st.booleans()), max_size=8),
       cut=st.one_of(st.none(), st.integers(0, 1 << 20)))
def test_mutated_files_load_or_raise_format_errors(sample, flips, cut):
    data = bytearray(_samples()[sample])
    for pos, value, in_header in flips:
        # half the flips land in the first 128 bytes, where counts and sizes live
        i = pos % min(len(data), 128) if in_header else pos % len(data)
        data[i] = value
    if cut is not None:
        data = data[:cut % (len(data) + 1)]
    _only_format_errors(_loader_for(sample), bytes(data))


@FUZZ
@given(values=st.lists(st.integers(-(1 << 31), (1 << 31) - 1), min_size=1, max_size=4), where=st.integers(0, 20))
def test_mdl_header_int_fields_with_extreme_values(values, where):
    data = bytearray(_samples()["groups.mdl"])
    for k, v in enumerate(values):
        field = 48 + 4 * ((where + k) % 9)            # numskins .. flags
        struct.pack_into("<i", data, field, v)
    _only_format_errors(_load_mdl_fully, bytes(data))
