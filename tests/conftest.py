"""Shared fixtures: the real corpus in ``../shared/data`` (relative to the repo root).

The corpus is required: a missing ``../shared/data`` fails the whole run instead of silently skipping every
integration test.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections import OrderedDict
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
QUAKE1 = DATA / "quake1"
LQ1 = QUAKE1 / "lq1"
QUAKEWORLD = DATA / "quakeworld"
QUAKE2 = DATA / "quake2"
QUAKE3 = DATA / "quake3"
#: Corpus demos several test files use: the lqdm2 match as recorded by LQ_Ranger and as the MVD, the two OpenArena
#: demos of oa_dm1, the Quake II duel.
LQDM2_QWD = QUAKEWORLD / "lq_lqdm2_ranger.qwd"
LQDM2_MVD = QUAKEWORLD / "lq_lqdm2_mvd.mvd"
OA_FOLLOW = QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"
OA_PLAYER = QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71"
Q2_DUEL = QUAKE2 / "demos" / "libq2-testduel.dm2"


def pytest_sessionstart(session: pytest.Session) -> None:
    if not (LQ1 / "pak0.pak").is_file():
        raise pytest.UsageError(
            f"the test corpus is missing: expected {LQ1 / 'pak0.pak'} (../shared/data beside the repo)")


def _is_static_check(item: pytest.Item) -> bool:
    return getattr(item, "originalname", None) == "test_static_check_passes"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The static checks' tests go last: they only wait for the checks started with the session."""
    items.sort(key=_is_static_check)


def pytest_collection_finish(session: pytest.Session) -> None:
    """The static checks collected (``tests/test_architecture.py``) start at once, beside the tests."""
    from tests.test_architecture import start_checks

    if not session.config.option.collectonly:
        start_checks({item.callspec.params["name"] for item in session.items if _is_static_check(item)})


def pytest_sessionfinish(session: pytest.Session) -> None:
    from tests.test_architecture import stop_checks

    stop_checks()


@pytest.fixture(autouse=True, scope="session")
def private_settings(tmp_path_factory) -> None:
    """The window's remembered settings live in a folder of this test session (child processes inherit it), so
    the user's own settings neither change the tests nor get changed by them."""
    os.environ["QDV_CONFIG_DIR"] = str(tmp_path_factory.mktemp("qdv-config"))


@pytest.fixture(scope="session")
def lq1_pak():
    """The LibreQuake ``pak0.pak`` opened once for the whole session."""
    from assets_loader.pak import load_pak

    return load_pak(LQ1 / "pak0.pak")


#: Timelines :func:`decoded` keeps (the most recently used): enough for a test file that runs its tests demo by demo.
DECODED_KEPT = 4


@pytest.fixture(scope="session")
def decoded():
    """``decoded(path)``: the demo's timeline, decoded once while it is among the :data:`DECODED_KEPT` last used
    (a timeline is immutable), shared by every test file that decodes the same corpus demos."""
    from assets_loader.demos.detect import load_demo

    kept: OrderedDict[str, object] = OrderedDict()

    def decode(path):
        key = os.path.realpath(path)
        if key in kept:
            kept.move_to_end(key)
        else:
            kept[key] = load_demo(path)
            if len(kept) > DECODED_KEPT:
                kept.popitem(last=False)
        return kept[key]

    yield decode
    kept.clear()


@pytest.fixture(scope="module")
def cli_decodes_once(decoded):
    """The commands a test module runs in this process (``viewer.cli.main``) take each demo from :func:`decoded`:
    ``load_demo`` as the commands import it, and as ``load_merged`` calls it, answers a plain path from there."""
    import assets_loader.demos
    import assets_loader.demos.detect

    original = assets_loader.demos.detect.load_demo

    def load_demo(src, *args, **kwargs):
        return decoded(src) if isinstance(src, str | Path) and not (args or kwargs) else original(src, *args,
                                                                                                  **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(assets_loader.demos, "load_demo", load_demo)
        patch.setattr(assets_loader.demos.detect, "load_demo", load_demo)
        yield


@pytest.fixture(scope="module")
def ctx():
    """A headless OpenGL 3.3 context (EGL, Mesa llvmpipe works) for one test module."""
    from viewer.render.context import create_headless_context, release_headless_context

    context = create_headless_context()
    yield context
    release_headless_context(context)


@pytest.fixture(scope="session")
def display():
    """The X display to open windows on: ``$DISPLAY``, else a private Xvfb for the test session (Xvfb picks a free
    display number itself and reports it through ``-displayfd``, so parallel runs never collide)."""
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.fail("Xvfb is not installed and DISPLAY is not set: the window tests need an X server "
                    "(apt-get install xvfb; .ci/run installs it)", pytrace=False)
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen([xvfb, "-displayfd", str(write_fd), "-screen", "0", "1280x720x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, pass_fds=(write_fd,))
    os.close(write_fd)
    number = b""
    try:
        while not number.endswith(b"\n"):
            chunk = os.read(read_fd, 16)   # Xvfb writes "N\n" once it accepts connections; EOF if it died
            if not chunk:
                break
            number += chunk
    finally:
        os.close(read_fd)
    if not number.strip().isdigit():
        proc.kill()
        err = proc.stderr.read().decode(errors="replace")[-2000:]
        pytest.fail(f"Xvfb did not start: {err}", pytrace=False)
    try:
        yield f":{int(number)}"
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


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
