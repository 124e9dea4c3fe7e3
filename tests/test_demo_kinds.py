"""One list of demo kinds: the endings ``load_demo`` names formats by (Quake III's from its protocol table) are the
ones the window's picker, ``qdv play DIR``, the library's walker and the commands' help use."""

from __future__ import annotations

from pathlib import Path

from assets_loader.demos import DEMO_SUFFIXES, detect_format, is_demo_name
from assets_loader.demos.quake3.protocol import PROTOCOLS
from viewer.cli import DEMO_KINDS
from viewer.library.index import demo_paths
from viewer.ui.picker import demo_files


def test_every_kind_is_named_by_the_loader_and_listed_everywhere(tmp_path: Path) -> None:
    assert {f".dm_{p}" for p in PROTOCOLS} <= set(DEMO_SUFFIXES) and ".dem" in DEMO_SUFFIXES
    names = [f"a{suffix}" for suffix in DEMO_SUFFIXES] + [f"B{suffix.upper()}.gz" for suffix in DEMO_SUFFIXES]
    others = ["map.bsp", "notes.txt", "old.dm_48", "a.dem.zip", "dm_68"]
    for name in names + others:
        (tmp_path / name).write_bytes(b"")
    for name in names:
        assert detect_format(b"", name), name                   # the loader knows the format from the name
    assert sorted(p.name for p in demo_files(tmp_path)) == sorted(names)
    assert sorted(Path(p).name for p in demo_paths([tmp_path])) == sorted(names)
    assert not any(is_demo_name(n) for n in others)
    assert all(suffix in DEMO_KINDS for suffix in DEMO_SUFFIXES) and ".gz" in DEMO_KINDS
