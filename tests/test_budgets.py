"""Issue 30 classes 2 and 3: maps and models whose records share one range, images too large one by one or
together, pk3 directories of millions of entries and shaders of a million stages stop at a budget or the engine's
cap, in bounded time and memory.

Each shape of :mod:`tests.fuzz.shared_ranges` is built and loaded in a child process (CPU time and peak memory
measured there, with an address-space cap so a regression fails instead of swapping): it must end in one
``OverBudgetError`` naming the budget's variable, within 10 s of CPU and 512 MB. The drawing code's leaf lists are
checked past the budget too (raised through its variable), and the budgets themselves in process. Images are
refused from their header, before decoding (twelve 8192×8192 PNGs took 3.8 GB and 12 s before).
"""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.bsp46 import load_bsp46
from assets_loader.budgets import BUDGETS, budget
from assets_loader.errors import OverBudgetError, TooLargeError
from assets_loader.pak import MAX_ENTRIES as PAK_MAX_ENTRIES
from assets_loader.pk3 import Pk3File
from assets_loader.q3images import ImageLoader
from assets_loader.q3shaders import parse_shader_text
from assets_loader.q3shaders.parser import MAX_SHADER_STAGES
from assets_loader.ranges import listed_union, range_positions
from assets_loader.source import LimitSettingError
from assets_loader.vfs import VirtualFS
from tests.builders.bsp46 import build_bsp46
from tests.builders.images import blank_png
from tests.builders.pak import directory_only_zip
from tests.fuzz.measure import run_python

MAX_CPU_SECONDS = 10.0
MAX_PEAK_MB = 512
_HWM = "print(int([l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0].split()[1]) / 1024)"

#: Build shape ``argv[1]``, load it with ``argv[2]``; print the error (or "loaded"), then the peak in MB.
_LOAD = """import sys, importlib, warnings
warnings.simplefilter("ignore")
from assets_loader.errors import FormatError
from tests.fuzz import shared_ranges
data = getattr(shared_ranges, sys.argv[1])()
module, _, function = sys.argv[2].rpartition(".")
try:
    getattr(importlib.import_module(module), function)(data, sys.argv[1])
    print("loaded")
except FormatError as exc:
    print(f"{type(exc).__name__}: {exc}")
""" + _HWM

SHAPES = [
    ("bsp46_shared_patches", "assets_loader.bsp46.load_bsp46", "QDV_MAX_MAP_VERTICES"),
    ("bsp46_shared_indices", "assets_loader.bsp46.load_bsp46", "QDV_MAX_MAP_INDICES"),
    ("bsp46_shared_leaf_brushes", "assets_loader.bsp46.load_bsp46", "QDV_MAX_LEAF_REFERENCES"),
    ("bsp29_shared_lightmaps", "assets_loader.bsp.load_bsp", "QDV_MAX_LIGHTMAP_TEXELS"),
    ("bsp29_shared_marksurfaces", "assets_loader.bsp.load_bsp", "QDV_MAX_LEAF_REFERENCES"),
    ("bsp38_shared_leaffaces", "assets_loader.bsp38.load_bsp38", "QDV_MAX_LEAF_REFERENCES"),
    ("md3_shared_block", "assets_loader.models.md3.load_md3", "QDV_MAX_MODEL_VERTICES"),
]


@pytest.mark.parametrize(("shape", "loader", "variable"), SHAPES, ids=[s[0] for s in SHAPES])
def test_shared_ranges_stop_at_a_budget(shape, loader, variable):
    m = run_python(_LOAD, shape, loader, timeout=120.0, max_address_mb=3072)
    assert m.returncode == 0 and "Traceback" not in m.stderr, m.stderr
    message, peak_mb = m.stdout.strip().splitlines()
    assert message.startswith(f"OverBudgetError: {shape}: ") and f"(raise it with {variable})" in message
    assert m.cpu_seconds < MAX_CPU_SECONDS and float(peak_mb) < MAX_PEAK_MB, m.summary()


#: With the reference budget raised, a map whose 2000 leafs share 65,535 marksurfaces (131M references) loads;
#: its PVS face lists, in the loaders and in the viewer's draw list, must not gather every reference.
_DRAW = """import os, sys, warnings
warnings.simplefilter("ignore")
os.environ["QDV_MAX_LEAF_REFERENCES"] = "1G"
import numpy as np
from assets_loader.bsp import load_bsp
from assets_loader.bsp38 import load_bsp38
from tests.fuzz.shared_ranges import bsp29_shared_marksurfaces, bsp38_shared_leaffaces
from viewer.render.bsp.visibility import pvs_faces
for world in (load_bsp(bsp29_shared_marksurfaces(leafs=2000), "q1"),
              load_bsp38(bsp38_shared_leaffaces(leafs=2000), "q2")):
    every = np.arange(len(world.leafs))
    print(pvs_faces(world, every).tolist(), world.visible_faces(1).tolist())
""" + _HWM


def test_leafs_sharing_face_lists_draw_in_bounded_memory():
    m = run_python(_DRAW, timeout=120.0, max_address_mb=3072)
    assert m.returncode == 0, m.stderr
    *lists, peak_mb = m.stdout.strip().splitlines()
    assert lists == ["[0] [0]", "[0] [0]"]
    assert m.cpu_seconds < MAX_CPU_SECONDS and float(peak_mb) < 200, m.summary()


def test_listed_union_equals_gathering_every_range():
    rng = np.random.default_rng(30)
    listed = rng.integers(0, 50, 200).astype(np.uint32)
    firsts = rng.integers(0, 190, 40)
    counts = rng.integers(0, 10, 40)
    gathered = np.concatenate([listed[f:f + c] for f, c in zip(firsts, counts, strict=True)])
    assert listed_union(firsts, counts, listed).tolist() == np.unique(gathered).tolist()
    assert listed_union(np.zeros(3, np.int64), np.zeros(3, np.int64), listed).tolist() == []


def test_range_positions_list_each_ranges_positions_in_turn():
    assert range_positions(np.array([5, 0, 9]), np.array([2, 0, 3], np.uint32)).tolist() == [5, 6, 9, 10, 11]
    assert range_positions(np.zeros(0, np.int64), np.zeros(0, np.int64)).tolist() == []


def test_a_budget_is_set_by_its_variable(monkeypatch):
    data = build_bsp46()            # two quads, a triangle and a 3×3 patch tessellated to 9×9 vertices: 92
    monkeypatch.setenv("QDV_MAX_MAP_VERTICES", "91")
    with pytest.raises(OverBudgetError, match=r"<bytes>: 92 vertices after patch tessellation; expected at most "
                                              r"91 .*QDV_MAX_MAP_VERTICES"):
        load_bsp46(data)
    monkeypatch.setenv("QDV_MAX_MAP_VERTICES", "1K")
    assert len(load_bsp46(data).vertices) == 88                # the nodraw quad is counted, not built
    monkeypatch.setenv("QDV_MAX_MAP_VERTICES", "lots")
    with pytest.raises(LimitSettingError, match="QDV_MAX_MAP_VERTICES"):
        budget("map_vertices")
    monkeypatch.delenv("QDV_MAX_MAP_VERTICES")
    assert budget("map_vertices") == BUDGETS["map_vertices"]


#: Twelve 8192×8192 PNGs of 65 KB each, looked up by a map's image loader: each is refused from its header.
_TEXTURES = """import sys, warnings
from assets_loader.q3images import ImageLoader
from assets_loader.vfs import VirtualFS
loader = ImageLoader(VirtualFS(sys.argv[1], "baseq3", base="baseq3"))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    shapes = {loader.load(f"textures/big/t{i}").shape for i in range(12)}
print(shapes, len(caught))
print(caught[0].message)
""" + _HWM


def test_huge_images_are_refused_from_their_header(tmp_path):
    folder = tmp_path / "baseq3" / "textures" / "big"
    folder.mkdir(parents=True)
    png = blank_png(8192, 8192)
    for i in range(12):
        (folder / f"t{i}.png").write_bytes(png)
    m = run_python(_TEXTURES, str(tmp_path), timeout=120.0, max_address_mb=3072)
    assert m.returncode == 0, m.stderr
    shapes, message, peak_mb = m.stdout.strip().splitlines()
    assert shapes == "{(16, 16, 4)} 12"
    assert message == ("textures/big/t0.png: 67108864 pixels in one image; expected at most 16777216 pixels in one "
                       "image (raise it with QDV_MAX_IMAGE_PIXELS); drawing the default grid")
    assert m.cpu_seconds < MAX_CPU_SECONDS and float(peak_mb) < MAX_PEAK_MB, m.summary()


def test_images_past_the_map_budget_draw_the_default_grid(tmp_path, monkeypatch):
    folder = tmp_path / "baseq3" / "textures" / "small"
    folder.mkdir(parents=True)
    for i in range(4):
        (folder / f"t{i}.png").write_bytes(blank_png(64, 64))
    monkeypatch.setenv("QDV_MAX_MAP_TEXTURE_PIXELS", "10000")   # two 64×64 images fit, a third does not
    loader = ImageLoader(VirtualFS(tmp_path, "baseq3", base="baseq3"))
    with pytest.warns(UserWarning) as caught:
        shapes = [loader.load(f"textures/small/t{i}").shape for i in range(4)]
    assert shapes == [(64, 64, 4), (64, 64, 4), (16, 16, 4), (16, 16, 4)]
    assert [str(w.message) for w in caught] == [
        "textures/small/t2.png: 12288 texture pixels with this image; expected at most 10000 texture pixels for a "
        "map and its models (raise it with QDV_MAX_MAP_TEXTURE_PIXELS); drawing the default grid"]
    assert loader.pixels == 8192 and loader.missing == ["textures/small/t2", "textures/small/t3"]


@pytest.mark.parametrize(("shape", "found"), [
    (dict(entries=3, zip64_declared=3_000_000), "a directory of 3000000 entries"),
    (dict(entries=11, declared=1), "a directory holding more (its end record says 1)"),
], ids=["declared", "walked"])
def test_a_pk3_directory_is_capped_like_a_pak(shape, found):
    with pytest.raises(TooLargeError) as caught:
        Pk3File(directory_only_zip(**shape), "many.pk3", max_entries=10)
    assert str(caught.value) == f"many.pk3: {found}; expected a directory of at most 10 entries (like a PAK)"


_PK3 = """import sys
from assets_loader.errors import FormatError
from assets_loader.pk3 import load_pk3
try:
    load_pk3(sys.argv[1])
except FormatError as exc:
    print(exc)
""" + _HWM


def test_a_pk3_of_too_many_entries_stops_before_zipfile_lists_them(tmp_path):
    path = tmp_path / "many.pk3"
    path.write_bytes(directory_only_zip(PAK_MAX_ENTRIES + 1))     # 12 MB: zipfile would build 262,145 entries
    m = run_python(_PK3, str(path), timeout=120.0, max_address_mb=3072)
    assert m.returncode == 0, m.stderr
    message, peak_mb = m.stdout.strip().splitlines()
    assert message.endswith(f"many.pk3: a directory holding more (its end record says 65535); expected a directory "
                            f"of at most {PAK_MAX_ENTRIES} entries (like a PAK)")
    assert m.cpu_seconds < MAX_CPU_SECONDS and float(peak_mb) < 100, m.summary()


def _stages_shader(count: int) -> str:
    return ("textures/x/big\n{\nsurfaceparm nolightmap\n" + "{\nmap $lightmap\nblendFunc filter\n}\n" * count
            + "surfaceparm trans\n}\n")


def test_a_shader_keeps_the_engines_eight_stages():
    with pytest.warns(UserWarning, match=r"big.shader: shader 'textures/x/big': skipped stages past the first 8 "
                                         r"\(the engine's MAX_SHADER_STAGES\) and the rest of the shader"):
        shader = parse_shader_text(_stages_shader(9), "big.shader")["textures/x/big"]
    assert len(shader.stages) == MAX_SHADER_STAGES == 8
    assert shader.surface_parms == frozenset({"nolightmap"})          # ParseShader stops at the ninth stage
    assert len(parse_shader_text(_stages_shader(8))["textures/x/big"].stages) == 8


_SHADER = """import sys, warnings
from assets_loader.q3shaders import load_shader_library
from assets_loader.vfs import VirtualFS
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    shader = load_shader_library(VirtualFS(sys.argv[1], "baseq3", base="baseq3")).get("textures/x/big")
print(len(shader.stages), len(caught))
""" + _HWM


def test_a_million_stages_cost_no_more_than_their_text(tmp_path):
    scripts = tmp_path / "baseq3" / "scripts"
    scripts.mkdir(parents=True)
    (scripts / "big.shader").write_text(_stages_shader(1_000_000))      # 36 MB: 55 s and 1.7 GB before
    m = run_python(_SHADER, str(tmp_path), timeout=120.0, max_address_mb=3072)
    assert m.returncode == 0, m.stderr
    found, peak_mb = m.stdout.strip().splitlines()
    assert found == "8 1"
    assert m.cpu_seconds < MAX_CPU_SECONDS and float(peak_mb) < MAX_PEAK_MB, m.summary()
