"""Seed files for the fuzzers: small real files from ``shared/data`` (whole, from inside a pak/pk3, or a head)."""

from __future__ import annotations

import zipfile
from pathlib import Path

from assets_loader.pak import load_pak

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
BAD = DATA / "bad-input"
LQ1_PAK = DATA / "quake1" / "lq1" / "pak0.pak"
AQ_PAK = DATA / "quake2" / "action" / "aq_terminal.pak"
OA_PK3 = DATA / "quake3" / "oa_dm1_assets.pk3"


def head(path: Path, size: int) -> tuple[str, bytes]:
    """``(name, first size bytes)`` of a corpus file."""
    with open(path, "rb") as f:
        return path.name, f.read(size)


def whole(path: Path) -> tuple[str, bytes]:
    return path.name, path.read_bytes()


def from_pak(pak: Path, *names: str) -> list[tuple[str, bytes]]:
    """Members of a corpus PAK."""
    archive = load_pak(pak)
    return [(name, archive.read(name)) for name in names]


def from_pk3(pk3: Path, *names: str) -> list[tuple[str, bytes]]:
    """Members of a corpus pk3."""
    with zipfile.ZipFile(pk3) as z:
        return [(name, z.read(name)) for name in names]
