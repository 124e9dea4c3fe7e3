"""The inputs of ``shared/data/bad-input/README.md`` as runnable cases, files and non-files alike.

:func:`stage` builds what is not stored as a file (a game dir holding the no-face maps, a FIFO, sparse 2 GB
files made with ``truncate``, never written, the Quake II and QuakeWorld copy-forward demos of issue 30 written by
:mod:`.copy_forward`) and each :class:`Case` is one ``qdv`` command (or a loader call) run in a child process by
:func:`~tests.fuzz.measure.run_measured`. ``tests/test_bad_input.py`` asserts their bounds;
``benchmarks/bench_bad_input.py`` prints their time and peak memory.

Issue 30's side files, crashes after parsing and unclear messages are generated here too, small: hostile
``NAME.camera.json`` files beside copies of ``demo3.dem`` (:data:`SIDE_FILES`), config folders with hostile
``settings.toml`` files (:data:`SETTINGS_FILES`), ``demo3.dem`` with a ``v_cshift inf`` stuffed or its clock
jumping ten years, a pk3 declaring a 4 GB member, and a file name holding a new line.
"""

from __future__ import annotations

import io
import os
import shutil
import struct
import subprocess
import sys
import zipfile
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

    @property
    def frames(self) -> str:
        """A PNG-sequence pattern in an existing folder."""
        return str(self.root / "frames" / "%05d.png")

    def side(self, name: str) -> Path:
        """A copy of ``demo3.dem`` named ``NAME.dem`` beside the hostile ``NAME.camera.json`` of :data:`SIDE_FILES`
        (``plain``: none), inside the staged game dir."""
        return self.game / f"{name}.dem"

    def config(self, name: str) -> Path:
        """The config folder (``QDV_CONFIG_DIR``) whose ``settings.toml`` is :data:`SETTINGS_FILES` ``[name]``."""
        return self.root / "config" / name


def _key(t: float) -> str:
    return f'{{"time": {t}, "origin": [0, 0, 0], "angles": [0, 0, 0]}}'


def _camera_path(keys: int) -> bytes:
    return ('{"version": 1, "keys": [' + ", ".join(_key(i / 1000) for i in range(keys)) + "]}").encode()


#: Issue 30 class 4: ``NAME.camera.json`` files found beside a demo (bytes, or ``None``: a FIFO).
SIDE_FILES: dict[str, bytes | None] = {
    "cam_bigint": b'{"version": 1, "keys": [{"time": 1' + b"0" * 5000 + b"}]}",
    "cam_deep": b'{"version": 1, "keys": ' + b"[" * 200_000 + b"]" * 200_000 + b"}",
    "cam_latin1": b'{"version": 1, "keys": [], "note": "caf\xe9"}',
    "cam_quotes": b'{"version": 1, "keys": [], "x": ' + b'"\\' * 2_000_000,  # an open string: scanned once
    "cam_30k": _camera_path(30_000),
    "cam_1m": _camera_path(1_000_000),
    "cam_fifo": None,
}
#: Issue 30 class 4: ``settings.toml`` files (bytes, ``None``: a FIFO, a ``str``: a symbolic link to that path).
SETTINGS_FILES: dict[str, bytes | str | None] = {
    "bigint": b"fov = 1" + b"0" * 5000 + b"\n",
    "deep": b"x = " + b"[" * 200_000 + b"]" * 200_000 + b"\n",
    "latin1": b"last_dir = 'caf\xe9'\n",
    "zero": "/dev/zero",
    "fifo": None,
    "narrow": b"width = 100\nheight = 100\nfov = 175\n",     # saved by --size 100x100 --fov 175 before the fix
}


def _demo_blocks(data: bytes) -> tuple[bytes, list[bytes]]:
    """A NetQuake demo's CD-track line and its blocks (length, view angles, message)."""
    start = data.index(b"\n") + 1
    blocks, i = [], start
    while i < len(data):
        end = i + 16 + struct.unpack_from("<i", data, i)[0]
        blocks.append(data[i:end])
        i = end
    return data[:start], blocks


def _stuffed_cshift(demo: bytes) -> bytes:
    """``demo`` with a block stuffing ``v_cshift inf 0 0 0`` after its sign-on (the engine's atoi reads 0)."""
    head, blocks = _demo_blocks(demo)
    text = b"v_cshift inf 0 0 0\n\0"
    stuffed = struct.pack("<i3f", 1 + len(text), 0, 0, 0) + bytes([9]) + text  # svc_stufftext
    return head + b"".join(blocks[:4] + [stuffed] + blocks[4:])


def _years_later(demo: bytes) -> bytes:
    """``demo`` whose last timed block jumps ten years ahead (``svc_time``)."""
    head, blocks = _demo_blocks(demo)
    k = max(i for i, b in enumerate(blocks) if b[16] == 7)
    t = struct.unpack_from("<f", blocks[k], 17)[0]
    blocks[k] = blocks[k][:17] + struct.pack("<f", t + 3.2e8) + blocks[k][21:]
    return head + b"".join(blocks)


def _declared_4g_pk3() -> bytes:
    """A pk3 whose one member declares 4294967294 bytes in its central directory (it holds five)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("maps/x.bsp", b"hello")
    data = bytearray(buffer.getvalue())
    central = data.index(b"PK\x01\x02")
    struct.pack_into("<I", data, central + 24, 0xFFFFFFFE)  # uncompressed size
    return bytes(data)


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
    demo3 = (LQ1 / "demo3.dem").read_bytes()
    for name, content in SIDE_FILES.items():
        s.side(name).write_bytes(demo3)
        camera = s.game / f"{name}.camera.json"
        if content is None:
            os.mkfifo(camera)
        else:
            camera.write_bytes(content)
    s.side("plain").write_bytes(demo3)
    for name, setting in SETTINGS_FILES.items():
        s.config(name).mkdir(parents=True)
        if setting is None:
            os.mkfifo(s.config(name) / "settings.toml")
        elif isinstance(setting, str):
            os.symlink(setting, s.config(name) / "settings.toml")
        else:
            (s.config(name) / "settings.toml").write_bytes(setting)
    (s.game / "cshift_inf.dem").write_bytes(_stuffed_cshift(demo3))
    (s.game / "years.dem").write_bytes(_years_later(demo3))
    (s.root / "declared_4G.pk3").write_bytes(_declared_4g_pk3())
    (s.root / "bad\nname.dem").write_bytes(b"x")
    (s.root / "frames").mkdir()
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
    config: str = "default"
    environ: tuple[tuple[str, str], ...] = ()

    def run(self, staged: Staged, repo: Path, timeout: float = 120.0, max_address_mb: int | None = None) -> Measurement:
        env = dict(os.environ, QDV_CONFIG_DIR=str(staged.config(self.config)), **dict(self.environ))
        env.pop("DISPLAY", None)
        argv = self.argv(staged)
        if self.writer:
            with endless_writer(staged.fifo):
                return run_measured(argv, cwd=repo, env=env, timeout=timeout, max_address_mb=max_address_mb)
        return run_measured(argv, cwd=repo, env=env, timeout=timeout, max_address_mb=max_address_mb)


_SHOT = ("--size", "320x240", "--force")
_PLAY = ("--headless", "--frames", "3", "--size", "320x240")


def _play(name: str) -> Callable[[Staged], list[str]]:
    return lambda s: _qdv("play", str(s.side(name)), *_PLAY)


def _render(*args: str, demo: str | None = None) -> Callable[[Staged], list[str]]:
    return lambda s: _qdv("render", demo or str(LQ1 / "demo3.dem"), "--size", "64x36", "--no-audio", *args)

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
    # issue 30 class 4: side files found beside a demo, and the settings
    *(Case(f"{name}.camera.json beside the demo: qdv play", _play(name)) for name in SIDE_FILES),
    Case("render --camera path:/dev/zero",
         _render("--camera", "path:/dev/zero", "--out", "x.mp4")),
    Case("render --camera path:FIFO",
         lambda s: _render("--camera", f"path:{s.game / 'cam_fifo.camera.json'}", "--out", "x.mp4")(s)),
    *(Case(f"settings.toml {name}: qdv play", lambda s: _qdv("play", str(s.side("plain")), *_PLAY), config=name)
      for name in SETTINGS_FILES),
    # class 6: crashes after parsing
    Case("q2_statusbar_bigint.dm2: qdv screenshot",
         lambda s: _qdv("screenshot", str(BAD / "q2_statusbar_bigint.dm2"), "--time", "1.5", "--basedir",
                        str(DATA / "quake2"), "--game", "action", "--out", str(s.out_png), *_SHOT)),
    Case("v_cshift inf: qdv info", lambda s: _qdv("info", str(s.game / "cshift_inf.dem"))),
    Case("render --out x/%c.png", lambda s: _render("--out", str(s.root / "frames" / "%c.png"))(s)),
    Case("render --speed 1e-320", lambda s: _render("--speed", "1e-320", "--out", s.frames)(s)),
    Case("render --speed 1e-9", lambda s: _render("--speed", "1e-9", "--out", s.frames)(s)),
    Case("a clock jumping ten years: qdv render to PNGs",
         lambda s: _render("--out", s.frames, demo=str(s.game / "years.dem"))(s)),
    Case("QDV_MAX_DEMO_SIZE=1000G: qdv info", lambda s: _qdv("info", str(LQ1 / "demo3.dem")),
         environ=(("QDV_MAX_DEMO_SIZE", "1000G"),)),
    # class 7: unclear messages
    Case("declared_4G.pk3: qdv inspect", lambda s: _qdv("inspect", str(s.root / "declared_4G.pk3"))),
    Case("screenshot --pos 1e300", lambda s: _qdv("screenshot", str(LQ1 / "demo3.dem"), "--pos", "1e300,0,0",
                                                  "--out", str(s.out_png), *_SHOT)),
    Case("render --pos 1e300", _render("--pos", "1e300,0,0", "--out", "x.mp4")),
    Case("screenshot --time inf", lambda s: _qdv("screenshot", str(LQ1 / "demo3.dem"), "--time", "inf",
                                                 "--out", str(s.out_png), *_SHOT)),
    Case("a path with a new line: qdv info", lambda s: _qdv("info", str(s.root / "bad\nname.dem"))),
)
