"""Shared fixtures: the real corpus in ``../shared/data`` (relative to the repo root).

The corpus is required: a missing ``../shared/data`` fails the whole run instead of silently skipping every
integration test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
QUAKE1 = DATA / "quake1"
LQ1 = QUAKE1 / "lq1"
QUAKEWORLD = DATA / "quakeworld"
QUAKE2 = DATA / "quake2"
QUAKE3 = DATA / "quake3"


def pytest_sessionstart(session: pytest.Session) -> None:
    if not (LQ1 / "pak0.pak").is_file():
        raise pytest.UsageError(f"the test corpus is missing: expected {LQ1 / 'pak0.pak'} (../shared/data beside the repo)")


@pytest.fixture(scope="session")
def lq1_pak():
    """The LibreQuake ``pak0.pak`` opened once for the whole session."""
    from assets_loader.pak import load_pak

    return load_pak(LQ1 / "pak0.pak")


@pytest.fixture(scope="module")
def ctx():
    """A headless OpenGL 3.3 context (EGL, Mesa llvmpipe works) for one test module."""
    from viewer.render.context import create_headless_context

    context = create_headless_context()
    yield context
    context.release()


@pytest.fixture(scope="session")
def q3_basedir(tmp_path_factory) -> Path:
    """A basedir whose game dir ``baseoa`` holds only ``oa_dm1_assets.pk3`` (linked), as SOURCES.md says to mount it."""
    base = tmp_path_factory.mktemp("q3base")
    (base / "baseoa").mkdir()
    (base / "baseoa" / "oa_dm1_assets.pk3").symlink_to(QUAKE3 / "oa_dm1_assets.pk3")
    return base


@pytest.fixture(scope="session")
def q3_fs(q3_basedir):
    """The game filesystem of ``q3_basedir`` with ``baseoa`` as the game."""
    from assets_loader.vfs import VirtualFS

    return VirtualFS(q3_basedir, "baseoa")
