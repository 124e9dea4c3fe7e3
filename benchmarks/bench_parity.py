"""``qdv timedemo`` beside the reference engines' ``timedemo``, interleaved in one session: fps and peak RSS.

Run: ``python benchmarks/bench_parity.py [--rounds N] [--sizes WxH,...] [--q2pro PATH] [--world-only] [--hud]
[DEMO ...]``
from the repository root. Defaults: one demo per game, ``demo3.dem`` (QuakeSpasm), ``lq_lqdm2_mvd.mvd`` (ezQuake),
``AQtion-bandaging-guide.dm2`` (Q2PRO) and ``oa_dm1_follow_p68.dm_68`` (ioquake3), at 1280×720 and 320×180. For each
size, round and demo the engine runs first, then qdv, so both see the same load.
``--world-only`` draws nothing but the map on both sides (the engines' ``r_drawentities 0``, ``r_drawviewmodel 0``
and no particles; qdv through ``timedemo_world_only.py``): the floor of the picture's own cost, which no faster
entity code can go below (the QuakeSpasm and ezQuake demos only; the others are skipped). The engines draw their
HUD, console notify lines and crosshair in every timedemo frame; ``qdv timedemo`` draws only the 3D view unless
``--hud`` makes it draw the game's HUD over each frame too (the like-for-like run).

Every engine is optional, never a CI dependency; a missing one is reported on its row and only qdv is measured.
``apt-get install quakespasm ezquake ioquake3 openarena xvfb``; Q2PRO is built from source (below) and found by
``--q2pro PATH`` or the ``QDV_Q2PRO`` environment variable. The engines draw to a window on a private Xvfb display
(Mesa llvmpipe, as qdv); ``qdv timedemo`` has no window mode and renders offscreen through headless EGL (the same
llvmpipe). Peak RSS is each process's own high-water mark (``wait4``'s ``ru_maxrss``); CPU is each process's user +
system seconds over its whole run (start-up and loading included), divided by the demo's frames: on a shared
machine the fps follow the load, the CPU per frame much less. The engines' cost of showing each frame through the
X server (Xvfb's own CPU) is not in their figures.

Recipes: ``../shared/data/quake1/SOURCES.md`` ("Recipe") and ``../shared/data/quakeworld/SOURCES.md``
("Reference timedemo"): QuakeSpasm runs ``+timedemo`` through ``stuffcmds`` in ``quake.rc`` and stays open after
it, ezQuake likewise; each prints ``N frames S seconds F fps`` into its ``qconsole.log`` (``-condebug``), which
this script waits for before ending the engine. ioquake3 (Debian 1.36) plays the OpenArena data of Debian's
``openarena`` (``fs_basepath /usr/lib/openarena``, ``com_basegame baseoa``, ``cl_renderer opengl1``,
``com_protocol`` from the demo's extension) with ``+set timedemo 1 +demo NAME`` and logs to
``fs_homepath/baseoa/qconsole.log`` (``logfile 2``).

Q2PRO, as for ``../shared/data/quake2/reference/README.md``: ``git clone`` skullernet/q2pro at commit 3aa0d40b;
``apt-get install meson ninja-build libsdl2-dev zlib1g-dev libpng-dev libjpeg-dev libcurl4-openssl-dev
libopenal-dev``; ``meson setup BUILD -Dbuildtype=release --wrap-mode=nodownload && ninja -C BUILD``; then
``QDV_Q2PRO=BUILD/q2pro``. It runs with ``basedir`` a scratch folder holding ``action/`` (the corpus pak
``aq_terminal.pak`` and ``demos/NAME.dm2``, linked) and ``baseq2/pics/conchars.pcx`` (a blank stand-in: the pak
has no console font, which the engine cannot start without; no Quake II retail data is used), the GLSL renderer
(``gl_shaders 1``), the SDL video driver (``vid_driver sdl``: Q2PRO's own X11 driver opens the window at
``vid_geometry`` but draws a 640×480 view into its corner under Xvfb), ``vid_geometry WxH`` (at least 320×240,
Q2PRO's smallest; the row's note says when it drew a larger picture than qdv), ``s_enable 0``, ``logfile 1`` +
``logfile_flush 1`` and ``+set timedemo 1 +demo NAME``; it prints ``N frames, S seconds: F fps`` into
``homedir/action/logs/console.log``. Q2PRO refuses to run as root: when this script runs as root, Q2PRO runs as
``nobody`` (``setpriv``) in a scratch folder it owns.
"""

from __future__ import annotations

import argparse
import os
import pwd
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.builders.quake2_images import build_pcx  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
QUAKE1 = DATA / "quake1" / "lq1"
QUAKEWORLD = DATA / "quakeworld"
QUAKE2 = DATA / "quake2"
QUAKE3 = DATA / "quake3"
DEFAULT_DEMOS = (QUAKE1 / "demo3.dem", QUAKEWORLD / "lq_lqdm2_mvd.mvd",
                 QUAKE2 / "demos" / "AQtion-bandaging-guide.dm2", QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68")
#: The binaries of Debian's packages (ezQuake's /usr/games/ezquake is a wrapper script: run the engine itself).
QUAKESPASM = ("/usr/games/quakespasm",)
EZQUAKE = ("/usr/lib/games/ezquake/ezquake", "/usr/games/ezquake")
IOQUAKE3 = ("/usr/lib/ioquake3/ioquake3",)
OPENARENA = Path("/usr/lib/openarena")
#: ``--world-only``: the engines' console variables that leave only the world to draw (no entities, view weapon or
#: particles; QuakeSpasm ``r_particles``, ezQuake ``r_drawparticles``).
QUAKESPASM_WORLD_ONLY = ("+r_drawentities", "0", "+r_drawviewmodel", "0", "+r_particles", "0")
EZQUAKE_WORLD_ONLY = ("+r_drawentities", "0", "+r_drawviewmodel", "0", "+r_drawparticles", "0")
#: ``N frames S seconds F fps`` (QuakeSpasm, ezQuake) or ``N frames, S seconds: F fps`` (Q2PRO, ioquake3).
RESULT = re.compile(r"(\d+) frames,?\s+([\d.]+) seconds:?\s+([\d.]+) fps")


@dataclass(frozen=True, slots=True)
class Setup:
    """Where and how every timedemo of this session runs: scratch directory, picture size, the engines' X
    display (``None``: no Xvfb) and how long one run may take."""

    scratch: Path
    size: tuple[int, int]
    display: str | None
    timeout: float
    world_only: bool = False
    hud: bool = False


@dataclass(frozen=True, slots=True)
class Run:
    """One timedemo: fps, peak resident memory and CPU milliseconds per frame, or why there are none."""

    fps: float | None
    peak_rss_mb: float | None
    note: str = ""
    cpu_ms_per_frame: float | None = None

    def cells(self) -> str:
        if self.fps is None or self.peak_rss_mb is None or self.cpu_ms_per_frame is None:
            return f"{'—':>8}{'—':>9}{'—':>8}"
        return f"{self.fps:8.1f}{self.peak_rss_mb:9.0f}{self.cpu_ms_per_frame:8.1f}"


@dataclass(frozen=True, slots=True)
class Engine:
    """A reference engine: its name, binary (``None``: not there, ``missing`` says why) and how it runs a demo."""

    name: str
    binary: str | None
    run: Callable[[str, Path, Setup], Run]
    missing: str
    world_only: bool = False


def summary(demo: str, pairs: list[tuple[Run, Run]]) -> str:
    """One line over the rounds of ``demo``: the median fps ratio with its range (one run's ratio moves by ±15 % on
    a shared machine), and the median ratio of the engine's CPU per frame to qdv's (start-up included)."""
    fps = sorted(mine.fps / engine.fps for engine, mine in pairs if mine.fps and engine.fps)
    cpu = sorted(engine.cpu_ms_per_frame / mine.cpu_ms_per_frame for engine, mine in pairs
                 if engine.cpu_ms_per_frame and mine.cpu_ms_per_frame)
    if not fps:
        return f"{demo[:25]:<26}no ratio measured"
    line = f"{demo[:25]:<26}median of {len(fps)} rounds: fps ratio {statistics.median(fps):.2f}× " \
        f"({fps[0]:.2f}–{fps[-1]:.2f})"
    return line + (f", CPU per frame engine ÷ qdv {statistics.median(cpu):.2f}×" if cpu else "")


def find_binary(candidates: tuple[str, ...]) -> str | None:
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


@dataclass(frozen=True, slots=True)
class Ended:
    """How a measured process ended: exit status, peak RSS in MB, CPU seconds (user + system)."""

    status: int
    peak_rss_mb: float
    cpu_seconds: float


def run_measured(args: list[str], cwd: Path, env: dict[str, str], log: Path,
                 timeout: float) -> tuple[str, Ended]:
    """Run ``args`` until it exits or a timedemo result line appears in ``log`` (then end it: the engines stay
    open after their timedemo). Returns the log's text and how the process ended."""
    with open(cwd / "stdout.txt", "w") as out:
        proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=out, stderr=subprocess.DEVNULL,
                                start_new_session=True)
    deadline = time.monotonic() + timeout
    text = ""
    reaped = None
    while reaped is None and time.monotonic() < deadline:
        text = log.read_text(errors="replace") if log.exists() else ""
        if RESULT.search(text):
            break
        time.sleep(0.5)
        reaped = _reap(proc.pid)
    for sig, wait in ((signal.SIGTERM, 5.0), (signal.SIGKILL, None)):
        if reaped is not None:
            break
        os.killpg(proc.pid, sig)
        end = time.monotonic() + wait if wait is not None else None
        while reaped is None and (end is None or time.monotonic() < end):
            time.sleep(0.1)
            reaped = _reap(proc.pid)
    assert reaped is not None
    proc.returncode = reaped.status   # reaped here (wait4 gives the child's own rusage), not by Popen
    text = log.read_text(errors="replace") if log.exists() else ""
    return text, reaped


def _reap(pid: int) -> Ended | None:
    """How child ``pid`` ended, once it has, else ``None``."""
    done, status, usage = os.wait4(pid, os.WNOHANG)
    return Ended(status, usage.ru_maxrss / 1024.0, usage.ru_utime + usage.ru_stime) if done else None


def measured_run(text: str, ended: Ended, what: str) -> Run:
    """The :class:`Run` of a log's last timedemo result line (``N frames S seconds F fps``)."""
    found = RESULT.findall(text)
    if not found:
        return Run(None, None, f"{what}: no timedemo result")
    frames, _seconds, fps = found[-1]
    return Run(float(fps), ended.peak_rss_mb, "", 1000.0 * ended.cpu_seconds / max(int(frames), 1))


class Xvfb:
    """A private X display for the engines' windows (``-displayfd`` picks a free number)."""

    def __init__(self, size: tuple[int, int]) -> None:
        read, write = os.pipe()
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{size[0]}x{size[1]}x24",
                                      "-nolisten", "tcp"], pass_fds=(write,), stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as f:
            self.display = ":" + f.readline().strip()

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def engine_env(setup: Setup) -> dict[str, str]:
    return dict(os.environ, DISPLAY=setup.display or "")


def _fresh(path: Path) -> Path:
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


def quakespasm_run(binary: str, demo: Path, setup: Setup) -> Run:
    base = _fresh(setup.scratch / "quakespasm")
    size = setup.size
    (base / "id1").mkdir()
    (base / "lq1").mkdir()
    (base / "cwd").mkdir()
    for f in QUAKE1.iterdir():
        (base / "lq1" / f.name).symlink_to(f)   # the engine writes only new files (config, log) beside them
    (base / "id1" / "quake.rc").write_text("stuffcmds\n")
    args = [binary, "-condebug", "-basedir", str(base), "-game", "lq1", "-nosound", "-window",
            "-width", str(size[0]), "-height", str(size[1]),
            *(QUAKESPASM_WORLD_ONLY if setup.world_only else ()), "+timedemo", demo.stem]
    text, ended = run_measured(args, base / "cwd", engine_env(setup), base / "cwd" / "qconsole.log", setup.timeout)
    return measured_run(text, ended, "QuakeSpasm")


def ezquake_run(binary: str, demo: Path, setup: Setup) -> Run:
    base = _fresh(setup.scratch / "ezquake")
    size = setup.size
    (base / "id1").mkdir()
    (base / "qw").mkdir()
    (base / "id1" / "pak0.pak").symlink_to(QUAKEWORLD / "id1" / "pak0.pak")
    (base / "qw" / demo.name).symlink_to(demo)
    args = [binary, "-basedir", str(base), "-nohome", "-window", "-width", str(size[0]), "-height", str(size[1]),
            "-nosound", "-condebug", *(EZQUAKE_WORLD_ONLY if setup.world_only else ()), "+timedemo", demo.name]
    text, ended = run_measured(args, base, engine_env(setup), base / "qw" / "qconsole.log", setup.timeout)
    return measured_run(text, ended, "ezQuake")


#: ``VID_GetGeometry`` refuses a smaller window (and falls back to 640×480).
Q2PRO_SMALLEST = (320, 240)


def q2pro_run(binary: str, demo: Path, setup: Setup) -> Run:
    """Q2PRO on the AQtion pak (recipe in the module docstring), as ``nobody`` when this script is root."""
    base = _fresh(setup.scratch / "q2pro")
    (base / "action" / "demos").mkdir(parents=True)
    (base / "baseq2" / "pics").mkdir(parents=True)
    (base / "home").mkdir()
    for pak in (QUAKE2 / "action").glob("*.pak"):
        (base / "action" / pak.name).symlink_to(pak)
    (base / "action" / "demos" / demo.name).symlink_to(demo)
    (base / "baseq2" / "pics" / "conchars.pcx").write_bytes(build_pcx(np.full((128, 128), 255, np.uint8)))
    size = (max(setup.size[0], Q2PRO_SMALLEST[0]), max(setup.size[1], Q2PRO_SMALLEST[1]))
    args = [binary, "+set", "basedir", str(base), "+set", "homedir", str(base / "home"), "+set", "game", "action",
            "+set", "logfile_flush", "1", "+set", "logfile_prefix", "", "+set", "logfile", "1",
            "+set", "gl_shaders", "1", "+set", "vid_driver", "sdl", "+set", "vid_fullscreen", "0",
            "+set", "vid_geometry", f"{size[0]}x{size[1]}",
            "+set", "s_enable", "0", "+set", "timedemo", "1", "+demo", demo.stem]
    if os.geteuid() == 0:   # "You can not run Q2PRO as superuser"
        nobody = pwd.getpwnam("nobody")
        for path in (base, *base.rglob("*")):
            os.lchown(path, nobody.pw_uid, nobody.pw_gid)
        args = ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups", *args]
    text, ended = run_measured(args, base, engine_env(setup), base / "home" / "action" / "logs" / "console.log",
                               setup.timeout)
    run = measured_run(text, ended, "Q2PRO")
    if size != setup.size:
        run = replace(run, note=f"Q2PRO drew {size[0]}x{size[1]}, its smallest window")
    return run


def ioquake3_run(binary: str, demo: Path, setup: Setup) -> Run:
    """ioquake3 on Debian's OpenArena data, the demo in ``fs_homepath/baseoa/demos``; protocol from its extension."""
    base = _fresh(setup.scratch / "ioquake3")
    (base / "baseoa" / "demos").mkdir(parents=True)
    (base / "baseoa" / "demos" / demo.name).symlink_to(demo)
    protocol = demo.suffix.lower().removeprefix(".dm_")
    size = setup.size
    settings = {"com_basegame": "baseoa", "fs_basepath": str(OPENARENA), "fs_homepath": str(base),
                "com_legacyprotocol": protocol, "com_protocol": protocol, "cl_motd": "0", "ttycon": "0",
                "r_fullscreen": "0", "s_initsound": "0", "in_nograb": "1", "com_introplayed": "1", "r_mode": "-1",
                "r_customwidth": str(size[0]), "r_customheight": str(size[1]), "cl_renderer": "opengl1",
                "logfile": "2", "timedemo": "1"}
    args = [binary, *(a for key, value in settings.items() for a in ("+set", key, value)), "+demo", demo.stem]
    text, ended = run_measured(args, base, engine_env(setup), base / "baseoa" / "qconsole.log", setup.timeout)
    return measured_run(text, ended, "ioquake3")


def qdv_data(demo: Path) -> tuple[str, ...]:
    """``qdv timedemo``'s game data options for a corpus demo (as ``tests/test_render_pins.py`` passes them)."""
    if demo.suffix.lower() == ".dm2":
        return ("--basedir", str(QUAKE2), "--game", "action")
    if demo.suffix.lower().startswith(".dm_"):
        return ("--basedir", str(QUAKE3))
    return ()


def qdv_run(demo: Path, setup: Setup) -> Run:
    size = setup.size
    command = [str(ROOT / "benchmarks" / "timedemo_world_only.py")] if setup.world_only \
        else ["-m", "viewer.cli", "timedemo"]
    args = [sys.executable, *command, str(demo.resolve()), "--size", f"{size[0]}x{size[1]}", *qdv_data(demo),
            *(("--hud",) if setup.hud and not setup.world_only else ())]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    text, ended = run_measured(args, setup.scratch, env, setup.scratch / "stdout.txt", setup.timeout)
    return measured_run(text, ended, f"qdv (exit {ended.status})")


def engine_for(demo: Path, q2pro: str | None) -> Engine | None:
    """The reference engine of ``demo``'s format (``None``: none for it)."""
    suffix = demo.suffix.lower()
    if suffix == ".dem":
        return Engine("QuakeSpasm", find_binary(QUAKESPASM), quakespasm_run, "not installed (apt-get install "
                      "quakespasm)", world_only=True)
    if suffix in (".qwd", ".mvd"):
        return Engine("ezQuake", find_binary(EZQUAKE), ezquake_run, "not installed (apt-get install ezquake)",
                      world_only=True)
    if suffix == ".dm2":
        return Engine("Q2PRO", find_binary((q2pro or "",)), q2pro_run,
                      "not built (build it as the docstring says, then --q2pro PATH or QDV_Q2PRO=PATH)")
    if suffix.startswith(".dm_"):
        missing = "not installed (apt-get install ioquake3 openarena)"
        return Engine("ioquake3", find_binary(IOQUAKE3) if (OPENARENA / "baseoa").is_dir() else None, ioquake3_run,
                      missing)
    return None


def engine_run(engine: Engine | None, demo: Path, setup: Setup) -> Run:
    """The engine's timedemo of ``demo``, or a :class:`Run` saying why it was skipped."""
    if engine is None:
        return Run(None, None, f"no reference engine for {demo.suffix}")
    if engine.binary is None:
        return Run(None, None, f"{engine.name} {engine.missing}")
    if setup.display is None:
        return Run(None, None, "Xvfb not installed")
    return engine.run(engine.binary, demo.resolve(), setup)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("demos", nargs="*", type=Path, default=list(DEFAULT_DEMOS))
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--sizes", default="1280x720,320x180", help="comma-separated WxH")
    parser.add_argument("--q2pro", default=os.environ.get("QDV_Q2PRO"), help="Q2PRO's q2pro binary (QDV_Q2PRO)")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds one timedemo may take")
    parser.add_argument("--world-only", action="store_true",
                        help="draw only the world in both (no entities, view weapon or particles): the fill floor")
    parser.add_argument("--hud", action="store_true",
                        help="qdv draws the game's HUD over every frame too (the engines always draw theirs)")
    args = parser.parse_args()
    sizes = [tuple(int(v) for v in size.split("x")) for size in args.sizes.split(",")]
    largest = (max(Q2PRO_SMALLEST[0], *(w for w, _h in sizes)), max(Q2PRO_SMALLEST[1], *(h for _w, h in sizes)))
    xvfb = Xvfb(largest) if shutil.which("Xvfb") else None
    print(f"engines in a window on Xvfb {xvfb.display if xvfb else '(Xvfb missing)'}, qdv timedemo offscreen "
          f"(headless EGL){'; world only' if args.world_only else ''}{'; qdv with its HUD' if args.hud else ''}; "
          "fps, peak RSS in MB, CPU ms per frame "
          "(start-up included)")
    try:
        with tempfile.TemporaryDirectory(prefix="qdv-parity-") as scratch:
            os.chmod(scratch, 0o755)   # Q2PRO runs as nobody below it when this script is root
            for width, height in sizes:
                setup = Setup(Path(scratch), (width, height), xvfb.display if xvfb else None, args.timeout,
                              args.world_only, args.hud)
                print(f"\n{width}x{height}\n{'demo':<26}{'engine':<11}{'fps':>8}{'RSS':>9}{'CPU':>8}  "
                      f"{'qdv fps':>8}{'RSS':>9}{'CPU':>8}{'fps ratio':>10}")
                rounds: dict[str, list[tuple[Run, Run]]] = {}
                for _ in range(args.rounds):
                    for demo in args.demos:
                        engine = engine_for(demo, args.q2pro)
                        if args.world_only and (engine is None or not engine.world_only):
                            print(f"{demo.name[:25]:<26}skipped: no world-only run of its engine")
                            continue
                        theirs = engine_run(engine, demo, setup)
                        mine = qdv_run(demo, setup)
                        ratio = f"{mine.fps / theirs.fps:9.2f}×" if mine.fps and theirs.fps else f"{'—':>10}"
                        notes = "; ".join(n for n in (theirs.note, mine.note) if n)
                        name = engine.name if engine is not None else "?"
                        print(f"{demo.name[:25]:<26}{name:<11}{theirs.cells()}  {mine.cells()}{ratio}  "
                              f"{notes}".rstrip(), flush=True)
                        rounds.setdefault(demo.name, []).append((theirs, mine))
                if args.rounds > 1:
                    for demo_name, pairs in rounds.items():
                        print(summary(demo_name, pairs))
    finally:
        if xvfb is not None:
            xvfb.stop()


if __name__ == "__main__":
    main()
