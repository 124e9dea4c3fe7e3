"""Hypothesis: the Quake III readers (BSP46, MD3, shader scripts, animation.cfg, pk3) raise only ``FormatError``.

Random bytes behind a valid magic and version, and valid builder files with flipped bytes or cut short, must
either load or raise a ``FormatError`` subclass: never ``IndexError``, ``ValueError``, ``struct.error``,
``zlib.error``, ``MemoryError`` or a huge allocation.
"""

from __future__ import annotations

import struct
import warnings
from functools import cache

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from assets_loader.bsp46 import load_bsp46
from assets_loader.errors import FormatError
from assets_loader.models.md3 import load_md3
from assets_loader.models.q3player import parse_animation_cfg
from assets_loader.pk3 import load_pk3
from assets_loader.q3shaders import parse_shader_text
from assets_loader.q3shaders.blocks import shader_blocks
from tests.builders.bsp46 import build_bsp46
from tests.builders.md3 import Md3Spec, build_md3, triangle_surface
from tests.builders.q3text import animation_cfg, build_pk3
from tests.test_md3 import ROWS
from tests.test_q3shaders import WALL

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def _bsp() -> bytes:
    return build_bsp46()


@cache
def _md3() -> bytes:
    tags = {"tag_head": [((0, 0, 1), [[1, 0, 0], [0, 1, 0], [0, 0, 1]])] * 2}
    return build_md3(Md3Spec(tags=tags, surfaces=[triangle_surface(), triangle_surface(name="s_two")]))


@cache
def _pk3() -> bytes:
    return build_pk3({"maps/a.bsp": _bsp(), "models/a.md3": _md3(), "scripts/a.shader": WALL.encode()})


def _only_format_errors(load, data) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            load(data)
        except FormatError:
            pass


def _mutate(data: bytes, flips: list[tuple[int, int]], cut: int | None) -> bytes:
    out = bytearray(data)
    for pos, value in flips:
        out[pos % len(out)] = value
    return bytes(out[:cut] if cut is not None else out)


flips = st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 255)), max_size=8)
cuts = st.none() | st.integers(0, 4000)


@FUZZ
@given(st.binary(max_size=600))
def test_bsp46_random_after_header(tail) -> None:
    _only_format_errors(load_bsp46, b"IBSP" + struct.pack("<i", 46) + tail)


@FUZZ
@given(flips, cuts)
def test_bsp46_mutated(flip, cut) -> None:
    _only_format_errors(load_bsp46, _mutate(_bsp(), flip, cut))


@FUZZ
@given(st.lists(st.tuples(st.integers(0, 16), st.integers(-1000, 100_000)), min_size=1, max_size=4))
def test_bsp46_lump_directory(changes) -> None:
    data = bytearray(_bsp())
    for lump, value in changes:
        struct.pack_into("<i", data, 8 + 8 * lump + 4 * (value % 2), value)
    _only_format_errors(load_bsp46, bytes(data))


@FUZZ
@given(st.binary(max_size=400))
def test_md3_random_after_header(tail) -> None:
    _only_format_errors(load_md3, b"IDP3" + struct.pack("<i", 15) + tail)


@FUZZ
@given(flips, cuts)
def test_md3_mutated(flip, cut) -> None:
    _only_format_errors(load_md3, _mutate(_md3(), flip, cut))


@FUZZ
@given(st.text(alphabet=st.sampled_from(list('{}"/*\n\t abcmap$lightmaprgbGenwave01.5()-')), max_size=300))
def test_shader_text_random(text) -> None:
    _only_format_errors(parse_shader_text, text)


@FUZZ
@given(st.text(alphabet=st.sampled_from(list('{}"/*\n\t abmap$lightwave01.5')), max_size=300))
def test_shader_blocks_agree_with_the_whole_script_parse(text) -> None:
    """The load-time index finds the same shaders the full parser does, or both reject the script."""
    try:
        whole = parse_shader_text(text)
    except FormatError:
        whole = None
    try:
        blocks = shader_blocks(text)
    except FormatError:
        blocks = None
    if whole is None or blocks is None:
        assert whole is None and blocks is None
        return
    assert blocks.keys() == whole.keys()
    for key, block in blocks.items():
        assert parse_shader_text(block)[key] == whole[key]


@FUZZ
@given(flips, st.none() | st.integers(0, 2000))
def test_shader_text_mutated(flip, cut) -> None:
    _only_format_errors(parse_shader_text, _mutate(WALL.encode(), flip, cut))


@FUZZ
@given(flips, st.none() | st.integers(0, 900))
def test_animation_cfg_mutated(flip, cut) -> None:
    _only_format_errors(parse_animation_cfg, _mutate(animation_cfg(ROWS).encode(), flip, cut))


def _read_all_pk3(data: bytes) -> None:
    pk3 = load_pk3(data)
    for entry in pk3.entries:
        pk3.read(entry.name)


@FUZZ
@given(flips, cuts)
@example(flip=[(1506, 64)], cut=None)   # a central directory asking for zip version 6.4 (NotImplementedError)
def test_pk3_mutated(flip, cut) -> None:
    _only_format_errors(_read_all_pk3, _mutate(_pk3(), flip, cut))

