"""Hypothesis: the BSP loader raises only FormatError on garbage, and loads or rejects mutated real maps."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assets_loader.bsp import WorldMesh, load_bsp
from assets_loader.errors import FormatError
from assets_loader.pak import load_pak
from tests.builders.bsp import BspSpec, build_bsp, build_lit
from tests.conftest import LQ1

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _small_maps() -> list[bytes]:
    pak = load_pak(LQ1 / "pak0.pak")
    return [pak.read(e.name) for e in pak.entries if e.name.startswith("maps/b_") and e.name.endswith(".bsp")]


SMALL_MAPS = _small_maps()
SYNTHETIC = [build_bsp(BspSpec(version=v)) for v in ("BSP29", "BSP2", "2PSB")]


def _exercise(w: WorldMesh) -> None:
    """Touch what a renderer touches after loading; queries may also raise only FormatError."""
    assert len(w.mesh.indices) % 3 == 0
    if len(w.mesh.indices):
        assert int(w.mesh.indices.max()) < len(w.mesh.vertices)
    for leaf in range(min(w.num_leafs, 4)):
        try:
            w.leaf_pvs(leaf)
        except FormatError:
            pass
    try:
        w.point_leaf((0.0, 0.0, 0.0))
    except FormatError:
        pass


def _load(data: bytes, lit: bytes | None = None) -> None:
    try:
        w = load_bsp(data, "fuzz.bsp", lit=lit)
    except FormatError:
        return
    _exercise(w)


@FUZZ
@given(st.binary(max_size=512))
def test_random_bytes(data):
    _load(data)


@FUZZ
@given(magic=st.sampled_from([struct.pack("<i", 29), b"BSP2", b"2PSB"]),
       lumps=st.lists(st.tuples(st.integers(-8, 700), st.integers(-8, 700)), min_size=15, max_size=15),
       body=st.binary(min_size=0, max_size=600))
def test_random_lumps(magic, lumps, body):
    header = magic + b"".join(struct.pack("<ii", o, n) for o, n in lumps)
    _load(header + body)


def _mutate(data: bytes, flips: list[tuple[int, int]], cut: int | None) -> bytes:
    out = bytearray(data)
    for pos, value in flips:
        out[pos % len(out)] = value
    if cut is not None:
        out = out[:cut % (len(out) + 1)]
    return bytes(out)


@FUZZ
@given(index=st.integers(0, len(SMALL_MAPS) - 1),
       flips=st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 255)), max_size=12),
       cut=st.none() | st.integers(0, 1 << 20))
def test_mutated_real_maps(index, flips, cut):
    _load(_mutate(SMALL_MAPS[index], flips, cut))


@FUZZ
@given(index=st.integers(0, len(SYNTHETIC) - 1),
       flips=st.lists(st.tuples(st.integers(0, 4096), st.integers(0, 255)), min_size=1, max_size=8),
       cut=st.none() | st.integers(0, 4096), with_lit=st.booleans())
def test_mutated_synthetic_maps(index, flips, cut, with_lit):
    lit = build_lit(BspSpec()) if with_lit else None
    _load(_mutate(SYNTHETIC[index], flips, cut), lit)


def test_mutated_header_words_of_every_small_map():
    """Deterministic sweep: set each header word of each small map to a few hostile values."""
    for data in SMALL_MAPS[:3]:
        for word in range(1, 31):
            for value in (-1, 0, 3, 1 << 30, len(data)):
                mutated = bytearray(data)
                struct.pack_into("<i", mutated, 4 * word, value)
                _load(bytes(mutated))


def test_small_maps_are_valid():
    assert len(SMALL_MAPS) >= 11
    for data in SMALL_MAPS:
        assert isinstance(load_bsp(data), WorldMesh)


@pytest.mark.parametrize("seed", range(3))
def test_random_bytes_with_valid_header_size(seed):
    rng = np.random.default_rng(seed)
    for _ in range(50):
        body = rng.integers(0, 256, 2000, dtype=np.uint8).tobytes()
        _load(struct.pack("<i", 29) + body)
