"""The inputs of ``shared/data/bad-input/README.md`` as runnable cases, files and non-files alike.

:func:`stage` builds what is not stored as a file (a game dir holding the no-face maps, a FIFO, sparse 2 GB
files made with ``truncate``, never written, the Quake II and QuakeWorld copy-forward demos of issue 30 written by
:mod:`.copy_forward`) and each :class:`Case` is one ``qdv`` command (or a loader call)
run in a child process by :func:`~tests.fuzz.measure.run_measured`. ``tests/test_bad_input.py`` asserts their
bounds; ``benchmarks/bench_bad_input.py`` prints their time and peak memory.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .copy_forward import dm2_copy_forward, qwd_copy_forward
from .measure import Measurement, run_measured

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
BAD = DATA / "bad-input"
LQ1 = DATA / "quake1" / "lq1"
#: A sparse file size just under 2 GiB (the README's PAK: directory at 12, 0x7FFFFFC0 bytes long).
SPARSE_SIZE = 2147483596


@dataclass(frozen=True, slots=True)
class Staged:
    """The scratch directory holding the non-file cases."""

    root: Path

    @property
    def game(self) -> Path:
        return self.root / "lq1"

    def map(self, name: str) -> Path:
        return self.game / "maps" / name

    @property
    def fifo(self) -> Path:
        return self.root / "stream.dem"

    @property
    def sparse_pak(self) -> Path:
        return self.root / "huge.pak"

    @property
    def sparse_dem(self) -> Path:
        return self.root / "huge.dem"

    @property
    def sparse_bsp(self) -> Path:
        return self.game / "maps" / "huge.bsp"

    @property
    def q2_copy_forward(self) -> Path:
        return self.root / "q2_copyfwd_20000.dm2"

    @property
    def qw_copy_forward(self) -> Path:
        return self.root / "qw_copyfwd_90000.qwd"

    @property
    def out_png(self) -> Path:
        return self.root / "out.png"


def stage(root: Path) -> Staged:
    """Build the non-file cases under ``root`` (sparse files cost no disk space)."""
    s = Staged(root)
    (s.game / "maps").mkdir(parents=True, exist_ok=True)
    os.symlink(LQ1 / "pak0.pak", s.game / "pak0.pak")
    for name in ("min_no_faces.bsp", "bsp2_no_triangles.bsp"):
        shutil.copyfile(BAD / name, s.map(name))
    os.mkfifo(s.fifo)
    with open(s.sparse_pak, "wb") as f:
        f.write(b"PACK" + (12).to_bytes(4, "little") + (0x7FFFFFC0).to_bytes(4, "little"))
    os.truncate(s.sparse_pak, SPARSE_SIZE)
    for path, head in ((s.sparse_dem, b"-1\n"), (s.sparse_bsp, (29).to_bytes(4, "little"))):
        path.write_bytes(head)
        os.truncate(path, SPARSE_SIZE)
    (s.root / "a-directory.png").mkdir()
    s.q2_copy_forward.write_bytes(dm2_copy_forward(20000))        # 531 KB: 20000 frames of 1023 entities
    s.qw_copy_forward.write_bytes(qwd_copy_forward(90000))        # 1.9 MB: 90000 packets of 300 entities
    return s


@contextmanager
def endless_writer(fifo: Path) -> Iterator[None]:
    """A process writing zeros into ``fifo`` for as long as someone reads it (killed afterwards)."""
    copy = "import shutil, sys; shutil.copyfileobj(open('/dev/zero', 'rb'), open(sys.argv[1], 'wb'))"
    writer = subprocess.Popen([sys.executable, "-c", copy, str(fifo)], stderr=subprocess.DEVNULL)
    try:
        yield
    finally:
        writer.kill()
        writer.wait()
        try:  # a writer still blocked in open() needs a reader to go away
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        except OSError:
            pass


def _qdv(*args: str) -> list[str]:
    return [sys.executable, "-m", "viewer.cli", *args]


#: Call ``LOADER(path)`` from Python: a ``FormatError`` is printed as ``TYPE: message`` with exit status 1.
_CALL = """import sys, importlib
from assets_loader.errors import FormatError
module, _, function = sys.argv[1].rpartition(".")
try:
    getattr(importlib.import_module(module), function)(sys.argv[2])
except FormatError as exc:
    sys.exit(f"{type(exc).__name__}: {exc}")
"""


def _load_demo(path: str) -> list[str]:
    return [sys.executable, "-c", _CALL, "assets_loader.demos.load_demo", path]


def _load_pak(path: str) -> list[str]:
    return [sys.executable, "-c", _CALL, "assets_loader.pak.load_pak", path]


@dataclass(frozen=True, slots=True)
class Case:
    """One bad input and the command that meets it; ``writer`` feeds the FIFO while the command runs."""

    name: str
    argv: Callable[[Staged], list[str]]
    writer: bool = False

    def run(self, staged: Staged, repo: Path, timeout: float = 120.0, max_address_mb: int | None = None) -> Measurement:
        env = dict(os.environ, QDV_CONFIG_DIR=str(staged.root / "config"))
        argv = self.argv(staged)
        if self.writer:
            with endless_writer(staged.fifo):
                return run_measured(argv, cwd=repo, env=env, timeout=timeout, max_address_mb=max_address_mb)
        return run_measured(argv, cwd=repo, env=env, timeout=timeout, max_address_mb=max_address_mb)


_SHOT = ("--size", "320x240", "--force")

CASES: tuple[Case, ...] = (
    Case("min_no_faces.bsp: qdv screenshot --map",
         lambda s: _qdv("screenshot", "--map", str(s.map("min_no_faces.bsp")), "--out", str(s.out_png), *_SHOT)),
    Case("min_no_faces.bsp: qdv map --headless",
         lambda s: _qdv("map", str(s.map("min_no_faces.bsp")), "--headless", "--frames", "3", "--size", "320x240")),
    Case("bsp2_no_triangles.bsp: qdv screenshot --map",
         lambda s: _qdv("screenshot", "--map", str(s.map("bsp2_no_triangles.bsp")), "--out", str(s.out_png), *_SHOT)),
    Case("bsp2_no_triangles.bsp: qdv map --headless",
         lambda s: _qdv("map", str(s.map("bsp2_no_triangles.bsp")), "--headless", "--frames", "3", "--size",
                        "320x240")),
    Case("gzbomb_1G_zeros.dem.gz: load_demo", lambda s: _load_demo(str(BAD / "gzbomb_1G_zeros.dem.gz"))),
    Case("gzbomb_1G.dem.gz: qdv info", lambda s: _qdv("info", str(BAD / "gzbomb_1G.dem.gz"))),
    Case("mvd_frames_100000.mvd: qdv info", lambda s: _qdv("info", str(BAD / "mvd_frames_100000.mvd"))),
    Case("plan_bomb_20000.dem: qdv info", lambda s: _qdv("info", str(BAD / "plan_bomb_20000.dem"))),
    Case("q3_snapamp_5000.dm_68: qdv info", lambda s: _qdv("info", str(BAD / "q3_snapamp_5000.dm_68"))),
    Case("Quake II copy-forward frames: qdv info", lambda s: _qdv("info", str(s.q2_copy_forward))),
    Case("QuakeWorld copy-forward packets: qdv info", lambda s: _qdv("info", str(s.qw_copy_forward))),
    Case("/dev/zero: qdv info", lambda s: _qdv("info", "/dev/zero")),
    Case("/dev/zero: qdv events", lambda s: _qdv("events", "/dev/zero")),
    Case("/dev/zero: qdv screenshot",
         lambda s: _qdv("screenshot", "/dev/zero", "--basedir", str(s.root), "--game", "lq1", "--out",
                        str(s.out_png), *_SHOT)),
    Case("FIFO, no writer: qdv info", lambda s: _qdv("info", str(s.fifo))),
    Case("FIFO, no writer: qdv events", lambda s: _qdv("events", str(s.fifo))),
    Case("FIFO, endless writer: qdv info", lambda s: _qdv("info", str(s.fifo)), writer=True),
    Case("sparse 2 GB PAK: load_pak", lambda s: _load_pak(str(s.sparse_pak))),
    Case("sparse 2 GB PAK: qdv inspect", lambda s: _qdv("inspect", str(s.sparse_pak))),
    Case("sparse 2 GB .dem: qdv info", lambda s: _qdv("info", str(s.sparse_dem))),
    Case("sparse 2 GB .bsp: qdv inspect", lambda s: _qdv("inspect", str(s.sparse_bsp))),
    Case("sparse 2 GB .bsp: qdv screenshot --map",
         lambda s: _qdv("screenshot", "--map", str(s.sparse_bsp), "--basedir", str(s.root), "--game", "lq1",
                        "--out", str(s.out_png), *_SHOT)),
    Case("bsp46_patch_2000.bsp: qdv inspect", lambda s: _qdv("inspect", str(BAD / "bsp46_patch_2000.bsp"))),
    Case("30 s demo: qdv screenshot --time 99:00:00",
         lambda s: _qdv("screenshot", str(LQ1 / "demo3.dem"), "--time", "99:00:00", "--out", str(s.out_png),
                        *_SHOT)),
    Case("screenshot --out a directory",
         lambda s: _qdv("screenshot", "--map", "lq_e0m1", "--out", str(s.root / "a-directory.png"), *_SHOT)),
    Case("screenshot --out /dev/full (a full disk)",
         lambda s: _qdv("screenshot", "--map", "lq_e0m1", "--out", "/dev/full", *_SHOT)),
)
