"""``qdv cut`` in the real engines (issue 35): cut the originals, play original and cut with ``timedemo`` and print
what each engine said.  Never run in CI: it needs the Debian packages ``quakespasm``, ``ezquake``, ``ioquake3`` and
``openarena`` and an X server (``Xvfb :71 &``; ``--display``).

Run ``python -m benchmarks.bench_cut_engines [--only NAME]`` from the repository root.  A ``--split`` case plays
each piece ``qdv cut --split`` writes.  Each engine gets a private
game directory under a temporary folder (the corpus is read-only): QuakeSpasm ``-basedir DIR -game lq1`` with a
one-line ``quake.rc`` (``stuffcmds``), ezQuake ``-basedir DIR`` with ``id1/pak0.pak`` and the demos in ``qw/``,
ioquake3 with OpenArena's ``/usr/lib/openarena`` as ``fs_basepath`` and the demos in ``fs_homepath/baseoa/demos``.
An engine is stopped once it prints its timedemo line or an error (they all stay at the console afterwards);
QuakeSpasm runs under ``stdbuf -oL`` so its console reaches the file line by line.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import DATA, LQ1, QUAKE3, QUAKEWORLD
from viewer.cut import cut_file, split_file

_DONE = re.compile(r"frames.*seconds.*fps|Host_Error|ERROR:|Error:")
_REPORT = re.compile(r"frames.*seconds|Host_Error|ERROR:|Playing demo|handle \d+: demos")
_MVD = "2on2_sf_vs_red[frobodm2]220104-0915.mvd"


@dataclass(frozen=True)
class Case:
    name: str
    engine: str          # quakespasm, ezquake, ioquake3
    demo: Path
    start: str
    end: str
    protocol: int = 68   # ioquake3's com_protocol
    split: str = ""      # maps, rounds or lives: play each piece of ``qdv cut --split`` instead of one cut


CASES = (
    Case("demo1.dem frag (map not in the corpus)", "quakespasm", LQ1 / "demo1.dem", "20", "+5"),
    Case("demo1_lite.dem", "quakespasm", LQ1 / "demo1_lite.dem", "20", "+20"),
    Case("demo3.dem (999)", "quakespasm", LQ1 / "demo3.dem", "5", "+15"),
    Case("vektar_demo1.dem (mod models not in the corpus)", "quakespasm",
         DATA / "public" / "quake1" / "vektar_demo1.dem", "30", "+20"),
    Case("2on2 MVD frag (map not in the corpus)", "ezquake", QUAKEWORLD / _MVD, "20", "+6"),
    Case("lq_lqdm2_mvd.mvd", "ezquake", QUAKEWORLD / "lq_lqdm2_mvd.mvd", "40", "+30"),
    Case("lq_lqdm2_ranger.qwd", "ezquake", QUAKEWORLD / "lq_lqdm2_ranger.qwd", "40", "+30"),
    Case("oa_dm1_follow_p68 frag", "ioquake3", QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68", "2", "+10"),
    Case("oa_dm1_player_p71", "ioquake3", QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71", "30", "+30", 71),
    Case("cpma_duel frag (CPMA not installed)", "ioquake3", DATA / "public" / "quake3" / "cpma_duel.dm_68", "50",
         "+10"),
    Case("oa_dm1_player_p71 --split lives", "ioquake3", QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71", "", "", 71,
         "lives"),
)


def _command(case: Case, root: Path, name: str) -> tuple[list[str], Path]:
    """The engine's command line for demo ``name`` (staged under ``root``) and the file its console goes to."""
    if case.engine == "quakespasm":
        return (["stdbuf", "-oL", "/usr/games/quakespasm", "-basedir", str(root), "-game", "lq1", "-nosound",
                 "-width", "640", "-height", "480", "-window", "+timedemo", name], root / "out.txt")
    if case.engine == "ezquake":
        return (["/usr/lib/games/ezquake/ezquake", "-basedir", str(root), "-nohome", "-window", "-width", "640",
                 "-height", "480", "-nosound", "-condebug", "+timedemo", name], root / "qw" / "qconsole.log")
    p = str(case.protocol)
    return (["/usr/lib/ioquake3/ioquake3", "+set", "com_basegame", "baseoa", "+set", "fs_basepath",
             "/usr/lib/openarena", "+set", "fs_homepath", str(root), "+set", "com_legacyprotocol", p, "+set",
             "com_protocol", p, "+set", "cl_motd", "0", "+set", "ttycon", "0", "+set", "r_fullscreen", "0", "+set",
             "s_initsound", "0", "+set", "in_nograb", "1", "+set", "com_introplayed", "1", "+set", "r_mode", "-1",
             "+set", "r_customwidth", "640", "+set", "r_customheight", "360", "+set", "cl_renderer", "opengl1",
             "+set", "timedemo", "1", "+demo", name], root / "out.txt")


def _stage(case: Case, root: Path) -> Path:
    """The folder the engine reads demos from, with its game data linked in."""
    if case.engine == "quakespasm":
        game = root / "lq1"
        game.mkdir(parents=True)
        (game / "pak0.pak").symlink_to(LQ1 / "pak0.pak")
        (game / "quake.rc").write_text("stuffcmds\n")
        (game / "maps").mkdir()
        shutil.copy(DATA / "public" / "quake1" / "bg.bsp", game / "maps" / "bg.bsp")
        return game
    if case.engine == "ezquake":
        (root / "id1").mkdir(parents=True)
        (root / "id1" / "pak0.pak").symlink_to(QUAKEWORLD / "id1" / "pak0.pak")
        (root / "ezquake").symlink_to("/usr/share/games/ezquake")
        (root / "qw").mkdir()
        return root / "qw"
    demos = root / "baseoa" / "demos"
    demos.mkdir(parents=True)
    return demos


def _play(case: Case, root: Path, name: str, display: str, timeout: float) -> list[str]:
    argv, console = _command(case, root, name)
    console.unlink(missing_ok=True)
    out = root / "out.txt"
    with open(out, "wb") as sink:
        proc = subprocess.Popen(argv, cwd=root, stdout=sink, stderr=subprocess.STDOUT,
                                env={**os.environ, "DISPLAY": display})
        deadline = time.monotonic() + timeout
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.5)
                if console.exists() and _DONE.search(console.read_text("latin-1", "replace")):
                    time.sleep(1.0)
                    break
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
    text = console.read_text("latin-1", "replace") if console.exists() else ""
    return [line.strip() for line in text.splitlines() if _REPORT.search(line) and "GL_EXT" not in line]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", help="run the cases whose name contains this text")
    parser.add_argument("--display", default=os.environ.get("DISPLAY", ":71"), help="X display (default :71)")
    parser.add_argument("--timeout", type=float, default=400.0, help="seconds per engine run (default 400)")
    args = parser.parse_args()
    for case in CASES:
        if args.only and args.only not in case.name:
            continue
        with tempfile.TemporaryDirectory(prefix="qdv-cut-") as tmp:
            root = Path(tmp)
            folder = _stage(case, root)
            suffix = case.demo.suffix
            shutil.copy(case.demo, folder / f"orig{suffix}")
            if case.split:
                cuts = [out.name for out, _frames, _seconds in split_file(str(case.demo), case.split, folder)]
            else:
                cut_file(str(case.demo), case.start, case.end, folder / f"cut{suffix}")
                cuts = [f"cut{suffix}"]
            for name in (f"orig{suffix}", *cuts):
                lines = _play(case, root, name, args.display, args.timeout)
                print(f"{case.engine:10s} {case.name:40s} {name:10s} " + " | ".join(lines[-3:]), flush=True)


if __name__ == "__main__":
    main()
