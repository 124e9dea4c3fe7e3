"""``qdv timedemo`` beside the reference engines' ``timedemo``, interleaved in one session: fps and peak RSS.

Run: ``python benchmarks/bench_parity.py [--rounds N] [--size WxH] [--world-only] [DEMO ...]`` from the repository
root. Defaults: ``demo1_lite.dem`` and ``demo3.dem`` (QuakeSpasm) and ``lq_lqdm2_mvd.mvd`` and ``lq_lqdm2_ranger.qwd``
(ezQuake) at 1280×720; Quake III demos (``.dm_68``, ``.dm_71``, e.g. ``../shared/data/quake3/demos/*``) run in
ioquake3 with Debian's OpenArena data, ``cl_renderer opengl1`` and ``timedemo 1``, and in qdv with the corpus's
``oa_dm1_assets.pk3``. For each round and demo the engine runs first, then qdv, so both see the same load.
``--world-only`` draws nothing but the map on both sides (the engines' ``r_drawentities 0``, ``r_drawviewmodel 0``
and no particles; qdv through ``timedemo_world_only.py``): the floor of the picture's own cost, which no faster
entity code can go below.

The engines are opt-in, never a CI dependency: ``apt-get install quakespasm ezquake xvfb``. A missing engine (or
Xvfb) is reported on its row and only qdv is measured. The engines draw to a window on a private Xvfb display
(Mesa llvmpipe, as qdv); ``qdv timedemo`` has no window mode and renders offscreen through headless EGL (the same
llvmpipe). Peak RSS is each process's own high-water mark (``wait4``'s ``ru_maxrss``); CPU is each process's user +
system seconds over its whole run (start-up and loading included), divided by the demo's frames: on a shared
machine the fps follow the load, the CPU per frame much less.

Recipes: ``../shared/data/quake1/SOURCES.md`` ("Recipe") and ``../shared/data/quakeworld/SOURCES.md``
("Reference timedemo"): QuakeSpasm runs ``+timedemo`` through ``stuffcmds`` in ``quake.rc`` and stays open after
it, ezQuake likewise; each prints ``N frames S seconds F fps`` into its ``qconsole.log`` (``-condebug``), which
this script waits for before ending the engine. ioquake3 (``../shared/data/quake3/SOURCES.md``, "Verification")
plays ``+set timedemo 1 +demo NAME`` from its home directory's ``baseoa/demos`` and logs the same line to
``baseoa/qconsole.log`` (``logfile 2``: written through at once; a buffered log would keep it until the engine
quits).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
QUAKE1 = DATA / "quake1" / "lq1"
QUAKEWORLD = DATA / "quakeworld"
DEFAULT_DEMOS = (QUAKE1 / "demo1_lite.dem", QUAKE1 / "demo3.dem", QUAKEWORLD / "lq_lqdm2_mvd.mvd",
                 QUAKEWORLD / "lq_lqdm2_ranger.qwd")
#: The binaries of Debian's packages (ezQuake's /usr/games/ezquake is a wrapper script: run the engine itself).
QUAKESPASM = ("/usr/games/quakespasm",)
EZQUAKE = ("/usr/lib/games/ezquake/ezquake", "/usr/games/ezquake")
#: Debian's ioquake3 engine and the OpenArena data its ``openarena`` wrapper points it at.
IOQUAKE3 = ("/usr/lib/ioquake3/ioquake3",)
OPENARENA_DATA = Path("/usr/lib/openarena")
QUAKE3 = DATA / "quake3"
#: ``--world-only``: the engines' console variables that leave only the world to draw (no entities, view weapon or
#: particles; QuakeSpasm ``r_particles``, ezQuake ``r_drawparticles``).
QUAKESPASM_WORLD_ONLY = ("+r_drawentities", "0", "+r_drawviewmodel", "0", "+r_particles", "0")
EZQUAKE_WORLD_ONLY = ("+r_drawentities", "0", "+r_drawviewmodel", "0", "+r_drawparticles", "0")
RESULT = re.compile(r"(\d+) frames\s+([\d.]+) seconds\s+([\d.]+) fps")


@dataclass(frozen=True, slots=True)
class Setup:
    """Where and how every timedemo of this session runs: scratch directory, picture size, the engines' X
    display (``None``: no Xvfb) and how long one run may take."""

    scratch: Path
    size: tuple[int, int]
    display: str | None
    timeout: float
    world_only: bool = False


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


def summary(demo: str, pairs: list[tuple[Run, Run]]) -> str:
    """One line over the rounds of ``demo``: the median fps ratio with its range (one run's ratio moves by ±15 % on
    a shared machine), and the median ratio of the engine's CPU per frame to qdv's (start-up included)."""
    fps = sorted(mine.fps / engine.fps for engine, mine in pairs if mine.fps and engine.fps)
    cpu = sorted(engine.cpu_ms_per_frame / mine.cpu_ms_per_frame for engine, mine in pairs
                 if engine.cpu_ms_per_frame and mine.cpu_ms_per_frame)
    if not fps:
        return f"{demo[:21]:<22}no ratio measured"
    line = f"{demo[:21]:<22}median of {len(fps)} rounds: fps ratio {statistics.median(fps):.2f}× " \
        f"({fps[0]:.2f}–{fps[-1]:.2f})"
    return line + (f", CPU per frame engine ÷ qdv {statistics.median(cpu):.2f}×" if cpu else "")


def find_binary(candidates: tuple[str, ...]) -> str | None:
    return next((c for c in candidates if os.access(c, os.X_OK)), None)


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


def quakespasm_run(binary: str, demo: Path, setup: Setup) -> Run:
    base = setup.scratch / "quakespasm"
    size = setup.size
    shutil.rmtree(base, ignore_errors=True)
    (base / "id1").mkdir(parents=True)
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
    base = setup.scratch / "ezquake"
    size = setup.size
    shutil.rmtree(base, ignore_errors=True)
    (base / "id1").mkdir(parents=True)
    (base / "qw").mkdir()
    (base / "id1" / "pak0.pak").symlink_to(QUAKEWORLD / "id1" / "pak0.pak")
    (base / "qw" / demo.name).symlink_to(demo)
    args = [binary, "-basedir", str(base), "-nohome", "-window", "-width", str(size[0]), "-height", str(size[1]),
            "-nosound", "-condebug", *(EZQUAKE_WORLD_ONLY if setup.world_only else ()), "+timedemo", demo.name]
    text, ended = run_measured(args, base, engine_env(setup), base / "qw" / "qconsole.log", setup.timeout)
    return measured_run(text, ended, "ezQuake")


def ioquake3_run(binary: str, demo: Path, setup: Setup) -> Run:
    base = setup.scratch / "ioquake3"
    size = setup.size
    protocol = demo.suffix[len(".dm_"):]
    shutil.rmtree(base, ignore_errors=True)
    (base / "baseoa" / "demos").mkdir(parents=True)
    (base / "baseoa" / "demos" / demo.name).symlink_to(demo)
    args = [binary, "+set", "com_basegame", "baseoa", "+set", "fs_basepath", str(OPENARENA_DATA),
            "+set", "fs_homepath", str(base), "+set", "com_legacyprotocol", protocol, "+set", "com_protocol", protocol,
            "+set", "cl_motd", "0", "+set", "ttycon", "0", "+set", "r_fullscreen", "0", "+set", "s_initsound", "0",
            "+set", "in_nograb", "1", "+set", "com_introplayed", "1", "+set", "r_mode", "-1",
            "+set", "r_customwidth", str(size[0]), "+set", "r_customheight", str(size[1]),
            "+set", "cl_renderer", "opengl1", "+set", "logfile", "2", "+set", "timedemo", "1", "+demo", demo.name]
    text, ended = run_measured(args, base, engine_env(setup), base / "baseoa" / "qconsole.log", setup.timeout)
    return measured_run(text, ended, "ioquake3")


def qdv_run(demo: Path, setup: Setup) -> Run:
    size = setup.size
    command = [str(ROOT / "benchmarks" / "timedemo_world_only.py")] if setup.world_only \
        else ["-m", "viewer.cli", "timedemo"]
    data = ["--basedir", str(QUAKE3)] if demo.suffix.lower().startswith(".dm_") and not setup.world_only else []
    args = [sys.executable, *command, str(demo.resolve()), "--size", f"{size[0]}x{size[1]}", *data]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    text, ended = run_measured(args, setup.scratch, env, setup.scratch / "stdout.txt", setup.timeout)
    return measured_run(text, ended, f"qdv (exit {ended.status})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("demos", nargs="*", type=Path, default=list(DEFAULT_DEMOS))
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds one timedemo may take")
    parser.add_argument("--world-only", action="store_true",
                        help="draw only the world in both (no entities, view weapon or particles): the fill floor")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    size = (width, height)
    engines = {".dem": ("QuakeSpasm", find_binary(QUAKESPASM), quakespasm_run),
               ".qwd": ("ezQuake", find_binary(EZQUAKE), ezquake_run),
               ".mvd": ("ezQuake", find_binary(EZQUAKE), ezquake_run),
               ".dm_68": ("ioquake3", find_binary(IOQUAKE3), ioquake3_run),
               ".dm_71": ("ioquake3", find_binary(IOQUAKE3), ioquake3_run)}
    xvfb = Xvfb(size) if shutil.which("Xvfb") else None
    print(f"{size[0]}x{size[1]}; engines in a window on Xvfb {xvfb.display if xvfb else '(Xvfb missing)'}, "
          "qdv timedemo offscreen (headless EGL)"
          f"{'; world only' if args.world_only else ''}; fps, peak RSS in MB, CPU ms per frame (start-up included)")
    print(f"{'demo':<22}{'engine':<11}{'fps':>8}{'RSS':>9}{'CPU':>8}  {'qdv fps':>8}{'RSS':>9}{'CPU':>8}"
          f"{'fps ratio':>10}")
    try:
        with tempfile.TemporaryDirectory(prefix="qdv-parity-") as scratch:
            setup = Setup(Path(scratch), size, xvfb.display if xvfb else None, args.timeout, args.world_only)
            rounds: dict[str, list[tuple[Run, Run]]] = {}
            for _ in range(args.rounds):
                for demo in args.demos:
                    name, binary, run = engines.get(demo.suffix.lower(), ("?", None, None))
                    if run is None:
                        engine = Run(None, None, f"no reference engine for {demo.suffix}")
                    elif binary is None:
                        engine = Run(None, None, f"{name} not installed (apt-get install {name.lower()})")
                    elif xvfb is None:
                        engine = Run(None, None, "Xvfb not installed")
                    else:
                        engine = run(binary, demo.resolve(), setup)
                    mine = qdv_run(demo, setup)
                    ratio = f"{mine.fps / engine.fps:9.2f}×" if mine.fps and engine.fps else f"{'—':>10}"
                    notes = "; ".join(n for n in (engine.note, mine.note) if n)
                    print(f"{demo.name[:21]:<22}{name:<11}{engine.cells()}  {mine.cells()}{ratio}  {notes}".rstrip(),
                          flush=True)
                    rounds.setdefault(demo.name, []).append((engine, mine))
            if args.rounds > 1:
                for demo_name, pairs in rounds.items():
                    print(summary(demo_name, pairs))
    finally:
        if xvfb is not None:
            xvfb.stop()


if __name__ == "__main__":
    main()
