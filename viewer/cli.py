"""The ``qdv`` command line: argument parsing and exit codes only; the work lives in other modules.

Exit codes: 0 ok, 1 bad input (the message names the file and what is wrong), 2 usage, 130 interrupted (Ctrl+C).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING

from assets_loader.demos import DEMO_SUFFIXES
from assets_loader.demos.detect import GZIP_SUFFIX
from assets_loader.errors import FormatError
from assets_loader.source import LimitSettingError, check_file

from .render.refdef import CAMERA_LIMIT
from .settings import RANGES

if TYPE_CHECKING:
    from .camera_path import CameraPath
    from .library.clip_pool import ClipOutcome
    from .library.highlights import Clip

EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
#: The demo files the commands take, for their help and messages (``assets_loader.demos.DEMO_SUFFIXES``).
DEMO_KINDS = f"{', '.join(DEMO_SUFFIXES)}, each also gzipped ({GZIP_SUFFIX})"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("quake-demo-viewer")
    except PackageNotFoundError:  # run from a source tree that is not installed
        return "(not installed)"


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="qdv", description="Quake-family demo viewer.")
    parser.add_argument("--version", action="version", version=f"qdv {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="play a demo in a window (default: the bundled sample)")
    play.add_argument("demo", nargs="?", help=f"demo file ({DEMO_KINDS}) or a folder of demos (listed, "
                                              "and picked from in the window); omitted: the bundled "
                                              "LibreQuake deathmatch sample")
    _add_game_args(play)
    play.add_argument("--camera-path", metavar="FILE",
                      help="a camera path (README \"Camera paths\"): the window starts on its preview")
    play.add_argument("--start", default="0", help="start time (SS, MM:SS, N%%)")
    play.add_argument("--pov", metavar="PLAYER", help="start from this player's eyes (name or slot number; "
                                                    "ghost:N the Nth --ghost's)")
    play.add_argument("--camera", choices=("pov", "director"), default=None,
                      help="pov: the demo's eyes (the default); director: the automatic director picks whom to watch "
                           "(Ctrl+D turns it off and on)")
    play.add_argument("--speed", type=_number_in(0.1, 10, absolute=True), default=1.0,
                      help="playback speed (0.1..10; negative: reverse)")
    play.add_argument("--db", metavar="FILE",
                      help="the demo library Ctrl+O browses (default: library.sqlite in the user data folder)")
    _add_look_args(play)
    _add_window_args(play)
    _add_ghost_args(play)
    _add_merge_args(play)
    _add_overlay_args(play)
    _add_multiview_args(play)

    map_ = sub.add_parser("map", help="fly through a map with the free camera (from the player start)")
    map_.add_argument("map", help="a map name (lq_e0m1, looked up as maps/NAME.bsp) or a .bsp file")
    _add_game_args(map_)
    _add_window_args(map_)

    inspect = sub.add_parser("inspect", help="what is inside a pak/pk3/bsp/mdl/md2/md3/spr/sp2/wad/lmp/wal/pcx/demo "
                                              "file, or a Quake III shader")
    inspect.add_argument("file", help="a file path, or a name inside the game dirs (or a Quake III shader name) "
                                      "with --basedir/--game")
    inspect.add_argument("--json", action="store_true", help="print JSON")
    _add_game_args(inspect)

    info = sub.add_parser("info", help="summary of a demo: format, protocol, maps, duration, players, events")
    info.add_argument("demo")
    info.add_argument("--json", action="store_true", help="print JSON")
    _add_merge_args(info)

    shot = sub.add_parser("screenshot", help="render one moment of a demo (or a map) headless into a PNG")
    shot.add_argument("demo", nargs="?", help="demo file; omit it with --map")
    shot.add_argument("--map", help="render a map without a demo (a name like lqdm3, or maps/x.bsp)")
    shot.add_argument("--time", default="0", help="demo time: SS, MM:SS(.s), N%% (default 0)")
    shot.add_argument("--out", required=True, help="PNG file to write (never overwritten without --force)")
    shot.add_argument("--size", type=_size, default=(1280, 720), help="WxH (default 1280x720)")
    shot.add_argument("--camera", choices=("pov", "free", "director"), default=None,
                      help="pov: the recorder's eyes; free: --pos/--angles (default pov, or free with --pos); "
                           "director: the director's shot at --time")
    shot.add_argument("--pov", metavar="PLAYER",
                      help="the player whose eyes to look through (name or slot number; ghost:N the Nth --ghost's)")
    shot.add_argument("--pos", type=_vector, help="camera position x,y,z")
    shot.add_argument("--angles", type=_vector, help="camera angles pitch,yaw,roll in degrees")
    shot.add_argument("--fov", type=_FOV, default=90.0, help="horizontal field of view at 4:3 (default 90)")
    shot.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    shot.add_argument("--hud", action=argparse.BooleanOptionalAction, default=None,
                      help="draw the status bar, notify lines and centerprints (default: on from the recorder's eyes, "
                           "off for a free camera)")
    _add_look_args(shot)
    _add_game_args(shot)
    _add_ghost_args(shot)
    _add_merge_args(shot)
    _add_overlay_args(shot)
    _add_multiview_args(shot)

    timedemo = sub.add_parser("timedemo", help="render every demo frame offscreen as fast as possible")
    timedemo.add_argument("demo")
    timedemo.add_argument("--size", type=_size, default=(1280, 720), help="WxH (default 1280x720)")
    timedemo.add_argument("--hud", action="store_true",
                          help="draw the game's HUD over every frame too, as the engines' own timedemo does")
    _add_game_args(timedemo)

    render = sub.add_parser("render", help="export a demo (or a range of it) headless to a video or numbered PNGs")
    render.add_argument("demo", nargs="?", help=f"demo file ({DEMO_KINDS}); omitted with --highlights")
    render.add_argument("--out", required=True, metavar="FILE",
                        help="video file (.mp4 .mkv .webm .mov), a folder or a frames/%%05d.png pattern for PNGs")
    render.add_argument("--from", dest="start", default="0", metavar="T",
                        help="range start: SS, MM:SS(.s), N%% (default 0)")
    render.add_argument("--to", dest="end", default="100%", metavar="T",
                        help="range end: SS, MM:SS(.s), N%%, +S = S seconds after --from (default: the end)")
    render.add_argument("--fps", default="60", metavar="N", help="output frames per second (default 60)")
    render.add_argument("--size", default="1920x1080", metavar="WxH",
                        help="WxH (default 1920x1080; even for h264/vp9/av1)")
    render.add_argument("--camera", metavar="MODE",
                        help="pov (default), free (--pos/--angles), chase, orbit (--angles pitch,yaw), director (the "
                             "automatic director's shots, qdv director), or path:FILE (a camera path, README "
                             "\"Camera paths\")")
    render.add_argument("--pov", metavar="PLAYER",
                        help="the player whose eyes to watch (name or slot number; ghost:N the Nth --ghost's, "
                             "whom chase and orbit follow too)")
    render.add_argument("--pos", metavar="X,Y,Z",
                        help="free camera position (default: the player's eye at --from)")
    render.add_argument("--angles", metavar="P,Y,R", help="camera angles pitch,yaw,roll in degrees")
    render.add_argument("--fov", default="90", metavar="DEG", help="horizontal field of view at 4:3 (default 90)")
    render.add_argument("--speed", default="1", metavar="X", help="demo seconds per video second (default 1)")
    render.add_argument("--motion-blur", default="1", metavar="N",
                        help="sub-frames averaged per frame over a 180° shutter (default 1: off)")
    render.add_argument("--hud", action=argparse.BooleanOptionalAction, default=True,
                        help="draw the HUD as the window does (default); --no-hud for clean footage")
    _add_look_args(render)
    render.add_argument("--audio", action=argparse.BooleanOptionalAction, default=True,
                        help="the demo's sound (AAC in .mp4/.mov, Opus in .mkv/.webm; none for PNGs; default on)")
    render.add_argument("--codec", metavar="NAME", help="h264, vp9, av1, ffv1 or png (default: h264; vp9 for .webm)")
    render.add_argument("--crf", metavar="N", help="quality for h264/vp9/av1: lower is better (defaults 18/32/35)")
    render.add_argument("--preset", metavar="NAME",
                        help="encoder speed against file size: h264 ultrafast (default) .. veryslow; av1 0..13 "
                             "(default 10, lower is slower and smaller)")
    render.add_argument("--force", action="store_true", help="overwrite existing output files")
    _add_game_args(render)
    _add_ghost_args(render)
    _add_merge_args(render)
    _add_overlay_args(render)
    _add_multiview_args(render)
    from .library.commands import add_highlights_args   # qdv render --highlights RESULTS.json --out DIR
    add_highlights_args(render)

    cut = sub.add_parser("cut", help="write a range of a demo as a new demo of the same format (engines play it)")
    cut.add_argument("demo", nargs="?", help=f"demo file ({DEMO_KINDS}); omitted with --results")
    cut.add_argument("--from", dest="start", default="0", metavar="T",
                     help="range start: SS, MM:SS(.s), N%% (default 0)")
    cut.add_argument("--to", dest="end", default="100%", metavar="T",
                     help="range end: SS, MM:SS(.s), N%%, +S = S seconds after --from (default: the end)")
    cut.add_argument("--out", required=True, metavar="FILE",
                     help="demo file to write (never overwritten without --force); the folder with --split/--results")
    cut.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    cut.add_argument("--split", choices=("maps", "rounds", "lives"),
                     help="one demo per map, per round (round-based modes) or per life of the recorder into --out")
    cut.add_argument("--results", metavar="RESULTS.json", help="cut each hit of 'qdv find --json' into --out")
    cut.add_argument("--before", type=float, default=2.0, metavar="S",
                     help="with --results: seconds before each moment (default 2)")
    cut.add_argument("--after", type=float, default=2.0, metavar="S",
                     help="with --results: seconds after each moment (default 2)")

    events = sub.add_parser("events", help="the events of a demo with their times")
    events.add_argument("demo")
    events.add_argument("--json", action="store_true", help="print JSON")
    events.add_argument("--kind", action="append", help="only events of this kind (repeatable)")

    splits = sub.add_parser("splits", help="per map: the run's time to the intermission, kills and secrets, and the "
                                           "difference to each --ghost")
    splits.add_argument("demo")
    splits.add_argument("--json", action="store_true", help="print JSON")
    _add_ghost_args(splits, trails=False)

    from .library.commands import add_parsers as add_library_parsers   # qdv index, qdv find
    add_library_parsers(sub)
    from .director.commands import add_parser as add_director_parser   # qdv director
    add_director_parser(sub)
    return parser


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected WxH, e.g. 1280x720") from None
    (w_lo, w_hi), (h_lo, h_hi) = RANGES["width"], RANGES["height"]
    if not (w_lo <= w <= w_hi and h_lo <= h <= h_hi):
        raise argparse.ArgumentTypeError(f"{text!r}: width and height must lie in {w_lo:g}..{w_hi:g}")
    return w, h


def _vector(text: str) -> tuple[float, float, float]:
    try:
        x, y, z = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected three comma-separated numbers") from None
    if not all(abs(v) <= CAMERA_LIMIT for v in (x, y, z)):  # NaN and inf fail too
        raise argparse.ArgumentTypeError(f"{text!r}: expected numbers within ±{CAMERA_LIMIT:g}")
    return x, y, z


def _number_in(lo: float, hi: float, absolute: bool = False):
    """An argparse type: a finite number within ``lo..hi`` (of its absolute value when ``absolute``)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r}: expected a number") from None
        if not math.isfinite(value) or not lo <= (abs(value) if absolute else value) <= hi:
            raise argparse.ArgumentTypeError(f"{text!r}: expected a number {'of size ' if absolute else ''}"
                                             f"within {lo:g}..{hi:g}")
        return value
    return parse


def _add_window_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--size", type=_size, help="window size WxH (default: the remembered size, else 1280x720)")
    p.add_argument("--fullscreen", action="store_true", help="start fullscreen (Alt+Enter toggles)")
    p.add_argument("--fov", type=_FOV, help="horizontal field of view at 4:3 (default: the remembered fov, else 90)")
    p.add_argument("--reset-settings", action="store_true",
                   help="start from the default settings (window size, fov, HUD, bar) and remember those")
    p.add_argument("--shots", default="screenshots", help="folder for F12 screenshots (default screenshots/)")
    p.add_argument("--sensitivity", type=_number_in(*RANGES["mouse_sensitivity"]),
                   help="mouse-look sensitivity, Quake's (degrees per count / 0.022; default: the remembered one, "
                        "else 3)")
    p.add_argument("--invert-mouse", action=argparse.BooleanOptionalAction, default=None,
                   help="mouse look: moving the mouse up looks down (default: the remembered setting, else off)")
    p.add_argument("--headless", action="store_true",
                   help="no display: render through EGL into an invisible window (tests, benchmarks)")
    p.add_argument("--frames", type=int, default=None, help=argparse.SUPPRESS)  # quit after N frames (benchmarks)


#: The ranges the window remembers in its settings are the ranges its flags accept (``viewer.settings.RANGES``).
_FOV = _number_in(*RANGES["fov"])


def _add_look_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--wateralpha", type=_number_in(0, 1), default=None,
                   help="opacity of water, slime and lava 0..1 (default: the map's worldspawn wateralpha, else 1)")


#: Options whose value may start with a minus sign (``--pos -1400,20,30``).
_VECTOR_OPTIONS = ("--pos", "--angles")


def _join_vector_values(argv: Sequence[str]) -> list[str]:
    """``--pos -1400,0,0`` → ``--pos=-1400,0,0``: argparse takes a value starting with ``-`` that is not a plain
    number for an option, so negative coordinates are attached to their option first."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in _VECTOR_OPTIONS and i + 1 < len(argv) and argv[i + 1].startswith("-") and "," in argv[i + 1]:
            out.append(f"{arg}={argv[i + 1]}")
            i += 2
            continue
        out.append(arg)
        i += 1
    return out


def _add_overlay_args(p: argparse.ArgumentParser) -> None:
    from .overlays import OVERLAY_NAMES, OverlayOptions

    p.add_argument("--overlay", type=_overlays, default=OverlayOptions(), metavar="LIST",
                   help=f"caster's overlays, comma-separated: {','.join(OVERLAY_NAMES)} (names over heads, x-ray "
                        "outlines through walls, item respawn timers, a minimap)")


def _overlays(text: str):
    from .overlays import OverlayNameError, parse_overlays

    try:
        return parse_overlays(text)
    except OverlayNameError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_ghost_args(p: argparse.ArgumentParser, *, trails: bool = True) -> None:
    p.add_argument("--ghost", action="append", default=[], metavar="OTHER[@NAME]",
                   help="race another demo of the same map: its recorder (or player NAME) drawn as a ghost "
                        "(repeatable)")
    p.add_argument("--ghost-offset", type=float, action="append", default=[], metavar="S",
                   help="start the ghost S seconds later than its level start (one per --ghost; the last repeats)")
    if trails:
        p.add_argument("--trails", action="store_true",
                       help="draw the recorder's and each ghost's route over the map as lines (window: key T)")


def _ghosts(timeline, args: argparse.Namespace):
    """The ghosts ``--ghost`` names racing ``timeline``, their trails shown with ``--trails`` (the recorder's own
    alone without a ghost); ``None`` for neither."""
    from .ghosts import GhostError, Ghosts

    trails = getattr(args, "trails", False)
    if not getattr(args, "ghost", None) and not trails:
        return None
    try:
        ghosts = Ghosts.load(timeline, args.ghost, args.ghost_offset)
    except GhostError as exc:
        raise _UsageError(str(exc)) from None
    ghosts.show_trails = trails
    return ghosts


def _pov(timeline, text: str | None, ghosts) -> tuple[int | None, int | None]:
    """``--pov``: (the player slot, ``None`` for the demo's own view; the ghost, ``None`` for none) — a player's
    name or slot, or ``ghost:N`` / ``ghost:NAME`` among the ``--ghost`` runs."""
    from .ghosts import GhostError
    from .video import options as opt

    try:
        if text is not None and text.lower().partition(":")[0] == "ghost" and (ghosts is None or ghosts.ghosts):
            if ghosts is None:
                raise _UsageError(f"--pov {text}: no --ghost to watch")
            return None, ghosts.index_of(text)
        return opt.resolve_pov(timeline, text), None
    except (opt.OptionError, GhostError) as exc:
        raise _UsageError(str(exc)) from None


def _add_merge_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--merge", action="append", default=[], metavar="OTHER",
                   help="another client demo of the same match: its recorder's exact view becomes a player to "
                        "watch (Tab, --pov) with its HUD numbers (repeatable)")


def _load_merged(demo: str, args: argparse.Namespace):
    """The demo's timeline with the ``--merge`` demos merged in (demos of another match: a usage error)."""
    from assets_loader.demos.merge import MergeError, load_merged

    try:
        return load_merged(demo, getattr(args, "merge", None) or ())
    except MergeError as exc:
        raise _UsageError(str(exc)) from None


def _add_multiview_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--multiview", type=int, choices=range(1, 5), metavar="N",
                   help="N views at once (1..4; README \"Multiview\"), each following a player")
    p.add_argument("--layout", choices=("split", "inset"),
                   help="multiview: split the frame (default) or one big view with small insets")
    p.add_argument("--panes", metavar="A,B,..",
                   help="multiview: each pane's player or camera: NAME, SLOT, chase:NAME, orbit:NAME, free:NAME, "
                        "director")


def _multiview(timeline, args: argparse.Namespace):
    """The :class:`~viewer.multiview.panes.MultiShot` of ``--multiview``/``--layout``/``--panes`` (``None``: one
    view); not with the flags that steer one camera."""
    from .video import options as opt
    from .video.pane_options import parse_multiview

    fov = float(opt.parse_fov(str(args.fov))) if args.fov is not None else 90.0
    try:
        multi = parse_multiview(timeline, args.multiview, args.layout, args.panes, fov)
    except opt.OptionError as exc:
        raise _UsageError(str(exc)) from None
    steering = [flag for flag in ("camera", "pov", "pos", "angles") if getattr(args, flag, None) is not None]
    if multi is not None and steering:
        raise _UsageError(f"--multiview draws each pane's camera (--panes): not with --{steering[0]}")
    return multi


def _add_game_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--basedir", help="Quake base directory holding id1 and mod dirs")
    p.add_argument("--game", help="mod dir searched before id1 (e.g. lq1)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _build_parser()
    args = parser.parse_args(_join_vector_values(sys.argv[1:] if argv is None else list(argv)))
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                return _run(args)
            finally:
                for message in dict.fromkeys(str(w.message) for w in caught):
                    print(f"qdv {args.command}: warning: {_one_line(message)}", file=sys.stderr)
    except BrokenPipeError:
        return EXIT_OK
    except (FormatError, OSError) as exc:
        print(f"qdv {args.command}: {_one_line(_describe(exc))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (_UsageError, LimitSettingError) as exc:
        print(f"qdv {args.command}: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_USAGE


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _one_line(text: str) -> str:
    """``text`` with control characters escaped as ``repr`` does (``\\n``, ``\\x1b``): a file name holding a new
    line or a terminal escape stays inside its one line of message."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


def _describe(exc: Exception) -> str:
    """One line for an error: the file first, then what is wrong (``[Errno 2] …`` becomes ``PATH: no such file``)."""
    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        if isinstance(exc, IsADirectoryError):
            return f"{exc.filename}: is a directory, expected a file"
        if isinstance(exc, FileNotFoundError):
            return f"{exc.filename}: no such file"
        return f"{exc.filename}: {exc.strerror[0].lower()}{exc.strerror[1:]}"
    return str(exc)


class _UsageError(Exception):
    """Arguments that parse but make no sense together."""


def _run(args: argparse.Namespace) -> int:
    if args.command == "inspect":
        from .inspect import inspect_file, format_report

        report = inspect_file(args.file, basedir=args.basedir, game=args.game)
        print(json.dumps(report, indent=2) if args.json else format_report(report))
        return EXIT_OK
    if args.command in ("info", "events"):
        return _run_demo_report(args)
    if args.command == "screenshot":
        return _run_screenshot(args)
    if args.command == "splits":
        return _run_splits(args)
    if args.command == "timedemo":
        return _run_timedemo(args)
    if args.command == "render":
        return _run_highlights(args) if args.highlights else _run_render(args)
    if args.command in ("play", "map"):
        return _run_window(args)
    if args.command in ("index", "find"):
        from .library.commands import LibraryUsageError, run as run_library

        try:
            return run_library(args)
        except LibraryUsageError as exc:
            raise _UsageError(str(exc)) from None
    if args.command == "cut":
        return _run_cut(args)
    if args.command == "director":
        from .director.commands import run as run_director

        print(run_director(args))
        return EXIT_OK
    raise _UsageError(f"unknown command {args.command!r}")


def _run_screenshot(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .render.refdef import Camera
    from .export import ExportError, write_png
    from .camera_pose import ShotCamera
    from .cameras import map_start_camera
    from .headless import DemoRenderer, render_map
    from .session import game_filesystem, map_game_view
    from .timespec import TimespecError, parse_timespec
    from .video.shot import shot_view

    out = Path(args.out)
    if out.exists() and not args.force:  # checked before the slow part; write_png checks again
        raise ExportError(f"{out}: already exists (use --force to overwrite)")
    free = args.camera == "free" or (args.camera is None and (args.pos is not None or args.angles is not None))
    if args.map:
        if args.demo:
            raise _UsageError("give either a DEMO or --map, not both")
        if args.multiview or args.panes or args.layout:
            raise _UsageError("--multiview shows a demo's players: not with --map")
        fs, map_path = _resolve_map(args.map, args.basedir, args.game)
        assets = map_game_view(fs, map_path).load_map_assets(fs, map_path)
        start = map_start_camera(assets.game_map, args.fov)
        camera = Camera(args.pos or start.origin, args.angles or start.angles, args.fov)
        pixels = render_map(assets, camera, args.size, water_alpha=args.wateralpha)
    else:
        if not args.demo:
            raise _UsageError("name a DEMO, or --map NAME")
        timeline = _load_merged(args.demo, args)
        fs = game_filesystem(args.demo, args.basedir, args.game)
        try:
            rel = parse_timespec(args.time, duration=timeline.duration)
        except TimespecError as exc:
            raise _UsageError(str(exc)) from None
        if not 0.0 <= rel <= timeline.duration:
            edge = "start" if rel < 0 else "end"
            warnings.warn(f"--time {args.time}: {rel:.3f} s is outside the demo (0 .. {timeline.duration:.3f} s, "
                          f"times count from the demo's start); showing its {edge}", stacklevel=1)
            rel = min(max(rel, 0.0), timeline.duration)
        t = timeline.start_time + rel
        hud = not free if args.hud is None else args.hud
        ghosts = _ghosts(timeline, args)
        from .director.commands import DirectorOptionError, director_for
        mode = "free" if free else args.camera or "pov"
        try:
            director = director_for(timeline, mode, args.pov)
        except DirectorOptionError as exc:
            raise _UsageError(str(exc)) from None
        pov, ghost = _pov(timeline, args.pov, ghosts)
        multi = _multiview(timeline, args)
        renderer = DemoRenderer(timeline, fs, args.size, hud=hud and ghost is None, water_alpha=args.wateralpha,
                                overlays=args.overlay)
        renderer.session.ghosts = ghosts
        try:
            shot = multi or ShotCamera(mode, pov, args.fov, args.pos, args.angles, director=director, ghost=ghost)
            pixels = shot_view(renderer, shot, t).pixels(t)
        finally:
            renderer.release()
    write_png(out, pixels, force=args.force)
    print(f"wrote {out} ({args.size[0]}x{args.size[1]})")
    return EXIT_OK


#: The bundled free samples (``tools/make_sample.py``): name → demo path inside ``viewer/sample``.
SAMPLE_DEMOS = {
    "oa": ("oa", "baseoa", "demos", "qdv_oa_ffa.dm_71"),   # five OpenArena bots fighting on oa_dm1, with sound
    "lqdm2": ("lqdm2", "lq_lqdm2_mvd.mvd"),    # two-player QuakeWorld deathmatch (MVD): frags, chat, Tab
    "lq1": ("lq1", "demo1_lite.dem"),          # LibreQuake's single-player cutscene demo
}
DEFAULT_SAMPLE = "oa"


def sample_demo(name: str = DEFAULT_SAMPLE) -> str:
    """A bundled free sample demo (default: the OpenArena bot match, ``viewer/sample/oa``)."""
    from importlib import resources

    return str(resources.files("viewer").joinpath("sample", *SAMPLE_DEMOS[name]))


def _resolve_map(given: str, basedir: str | None, game: str | None):
    """``(VirtualFS, map path inside it)`` for a map name (``lqdm3`` → ``maps/lqdm3.bsp``) or a ``.bsp`` file.

    A file inside a game dir uses that game dir; a bare name without ``--basedir`` is looked up in the bundled
    samples."""
    from pathlib import Path

    from assets_loader.errors import NotFoundError

    from .session import game_filesystem

    map_path = given if "/" in given or given.lower().endswith(".bsp") else f"maps/{given}.bsp"
    if Path(map_path).is_file():
        fs = game_filesystem(map_path, basedir, game)
        if not fs.game_dirs:
            raise NotFoundError(given, "game data", None,
                                "the map inside a game dir (with pak0.pak or maps/), or --basedir DIR [--game MOD]")
        found = fs.game_dirs[-1].absolute()
        if Path(map_path).absolute().is_relative_to(found):
            map_path = Path(map_path).absolute().relative_to(found).as_posix()
    elif basedir is None:  # a name inside one of the bundled samples
        candidates = [game_filesystem(sample_demo(name), None, game) for name in SAMPLE_DEMOS]
        fs = next((c for c in candidates if c.exists(map_path)), candidates[0])
    else:
        fs = game_filesystem(None, basedir, game)
    if not fs.exists(map_path):
        raise FileNotFoundError(f"{given}: no map {map_path} in {', '.join(str(d) for d in fs.game_dirs)}")
    return fs, map_path


def _run_window(args: argparse.Namespace) -> int:
    import os
    from pathlib import Path

    from assets_loader.vfs import game_dir_of

    from .session import game_filesystem
    from .settings import load_settings
    from .timespec import TimespecError, parse_timespec

    folder = None
    if args.command == "play":
        demo = args.demo or sample_demo()
        if Path(demo).is_dir():
            folder, demo = demo, _list_folder(demo)
        if not Path(demo).exists():
            raise FileNotFoundError(f"{demo}: no such demo file")
        check_file(demo, "demo")  # a FIFO, a device or a file over the limit: said now, not in the window
        try:
            parse_timespec(args.start, duration=0.0)
        except TimespecError as exc:
            raise _UsageError(str(exc)) from None
        settings = load_settings(reset=args.reset_settings)
        remembered = settings.settings
        if args.basedir is None and game_dir_of(demo) is None and Path(remembered.basedir).is_dir():
            args.basedir, args.game = remembered.basedir, args.game or remembered.game or None
        fs = game_filesystem(demo, args.basedir, args.game)
        source_kw = dict(demo=demo, start=args.start, speed=args.speed, folder=folder,
                         water_alpha=args.wateralpha, trails=args.trails, merges=tuple(args.merge),
                         overlays=args.overlay, director=args.camera == "director")
        if args.ghost or args.merge or args.pov is not None or args.camera_path is not None or args.multiview \
                or args.panes or args.layout:
            # checked before any window opens, on one decode: maps that differ, players that are not there, path
            # keys outside the demo (they need its duration), demos merged that are not of its match
            timeline = _load_merged(demo, args)
            source_kw["timeline"] = timeline      # the window plays this decode instead of decoding it again
            ghosts = _ghosts(timeline, args)
            if ghosts is not None:
                source_kw["ghost_runs"] = tuple(ghosts.ghosts)
            if args.pov is not None:
                source_kw["pov"], source_kw["pov_ghost"] = _pov(timeline, args.pov, ghosts)
            if args.camera_path is not None:
                source_kw["camera_path"] = _camera_path(args.camera_path, timeline.duration)
                source_kw["camera_path_file"] = args.camera_path
            source_kw["multiview"] = _multiview(timeline, args)
    else:
        fs, map_path = _resolve_map(args.map, args.basedir, args.game)
        source_kw = dict(map_path=map_path)
    if args.headless:
        import pyglet

        pyglet.options["headless"] = True
    elif not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise _NoDisplay("no display (DISPLAY is not set): run it on a desktop, or use --headless / "
                         "`qdv screenshot`")
    from .app import PlaySource, run

    if args.command != "play":
        settings = load_settings(reset=args.reset_settings)
    if settings.problem:
        warnings.warn(settings.problem, stacklevel=1)
    size = args.size or settings.settings.size
    fov = args.fov or settings.settings.fov
    source = PlaySource(fs, fov=fov, settings=settings, basedir=args.basedir, game=args.game,
                        sensitivity=args.sensitivity, invert_mouse=args.invert_mouse,
                        library_db=getattr(args, "db", None), **source_kw)
    window = run(source, size=size, shots=args.shots,
                 fullscreen=args.fullscreen, max_frames=args.frames)
    if args.frames is not None and window.first_frame_seconds is not None:
        print(f"first frame after {window.first_frame_seconds:.2f} s; {window.frames} frames")
    return EXIT_OK


def _list_folder(folder: str) -> str:
    """``qdv play DIR``: print the demos of ``DIR`` and return the first (the window opens its picker on them)."""
    from .ui.picker import demo_files

    files = demo_files(folder)
    if not files:
        raise FileNotFoundError(f"{folder}: a folder without demos ({DEMO_KINDS})")
    print(f"{len(files)} demos in {folder}:")
    for i, path in enumerate(files, 1):
        print(f"{i:4d}  {path.name}  ({path.stat().st_size / 1e6:.1f} MB)")
    return str(files[0])


class _NoDisplay(OSError):
    """No window system to open a window on."""


def _run_timedemo(args: argparse.Namespace) -> int:
    from assets_loader.demos import load_demo

    from .headless import DemoRenderer, timedemo
    from .session import game_filesystem

    from tqdm import tqdm

    timeline = load_demo(args.demo)
    renderer = DemoRenderer(timeline, game_filesystem(args.demo, args.basedir, args.game), args.size, hud=args.hud)
    try:
        with tqdm(total=timeline.num_frames, unit="frame", desc="timedemo", file=sys.stderr, leave=False,
                  mininterval=1.0) as bar:
            result = timedemo(renderer, progress=lambda done, total: bar.update(done - bar.n))
        print(result)
    finally:
        renderer.release()
    return EXIT_OK


def _run_render(args: argparse.Namespace) -> int:
    code, message = _render(args)
    print(message, file=sys.stdout if code == EXIT_OK else sys.stderr)
    return code


def _render(args: argparse.Namespace, bar: bool = True) -> tuple[int, str]:
    """``qdv render``'s work: the exit code and the line that says what was written; ``bar``: show the frames
    progress bar."""
    from tqdm import tqdm

    from .headless import DemoRenderer
    from .session import game_filesystem
    from .timespec import TimespecError, parse_range
    from .video import options as opt
    from .video.output import plan_output
    from .camera_pose import ShotCamera
    from .director.commands import DirectorOptionError, director_for
    from .video.recorder import record
    from .video.soundtrack import AUDIO_CODECS, FrameSound, export_mixer
    from .video.timing import FrameTimes, RangeError

    try:
        size, fps, speed = opt.parse_size(args.size), opt.parse_fps(args.fps), opt.parse_speed(args.speed)
        blur, fov = opt.parse_blur(args.motion_blur), opt.parse_fov(args.fov)
        pos, angles = opt.parse_vector("--pos", args.pos), opt.parse_vector("--angles", args.angles)
        mode = opt.parse_camera(args.camera, pos is not None or angles is not None)
        if pos is not None and mode != "free" or angles is not None and mode not in ("free", "orbit"):
            raise opt.OptionError(f"--pos/--angles do not steer --camera {mode}")
        if args.demo is None:
            raise opt.OptionError("a demo file to render (or --highlights RESULTS.json)")
        output = plan_output(args.out, size, args.codec, opt.parse_crf(args.crf), args.force, args.preset)
        timeline = _load_merged(args.demo, args)
        director = director_for(timeline, mode, args.pov)
        ghosts = _ghosts(timeline, args)
        pov, ghost = _pov(timeline, args.pov, ghosts)
        multi = _multiview(timeline, args)
        first, last = parse_range(args.start, args.end, timeline.duration)
        times = FrameTimes.for_range(timeline.start_time, timeline.duration, first, last, speed, fps)
    except (opt.OptionError, TimespecError, RangeError, DirectorOptionError) as exc:
        raise _UsageError(str(exc)) from None
    path = _camera_path(opt.camera_path_file(args.camera), timeline.duration) if mode == "path" else None
    output.check_free(times.count)  # before the slow part; the writer claims the file again
    fs = game_filesystem(args.demo, args.basedir, args.game)
    renderer = DemoRenderer(timeline, fs, size, hud=args.hud and ghost is None, water_alpha=args.wateralpha,
                            overlays=args.overlay)
    renderer.session.ghosts = ghosts
    try:
        sound = None
        if args.audio and AUDIO_CODECS[output.container] is not None:
            session = renderer.session
            with session.quiet():   # without the game's data every sound is missing: the notice says it
                sound = FrameSound(export_mixer(timeline, session.fs,
                                                lambda s: session.game_map if s == session.segment else None), times)
        with tqdm(total=times.count, unit="frame", desc=output.path.name, dynamic_ncols=True,
                  disable=not bar) as frames:
            shot = multi or ShotCamera(mode, pov, fov, pos, angles, path=path, director=director, ghost=ghost)
            result = record(renderer, shot, times, output, blur=blur, sound=sound,
                            progress=lambda done: frames.update(done - frames.n))
    finally:
        renderer.release()
    where = output.path
    if result.removed:
        return EXIT_INTERRUPTED, f"interrupted before any frame was written: removed the empty {where}"
    if result.interrupted:
        return EXIT_INTERRUPTED, f"interrupted: {where} is playable with {result.frames} of {result.total} frames"
    heard = f", {AUDIO_CODECS[output.container]} sound" if sound is not None else ""
    return EXIT_OK, (f"wrote {where}: {result.frames} frames {size[0]}x{size[1]} at {fps:g} fps "
                     f"({output.codec.name}{heard}) in {result.seconds:.1f} s, {result.fps:.1f} frames/s")


def _run_highlights(args: argparse.Namespace) -> int:
    """``qdv render --highlights RESULTS.json --out DIR``: each hit of ``qdv find --json`` rendered as its own clip
    by :func:`_render_clip` in a pool of ``--workers`` processes, a clip that fails reported and skipped;
    ``--concat FILE`` then joins the clips written, in the order of the results."""
    import functools
    import os
    from pathlib import Path

    from tqdm import tqdm

    from .library.clip_pool import render_clips
    from .library.highlights import HighlightsError, concat_clips, load_hits, plan_clips

    if args.demo is not None:
        raise _UsageError("--highlights renders the demos its hits name: give no demo file")
    try:
        clips = plan_clips(load_hits(args.highlights), args.out, args.lead_in, args.lead_out)
    except HighlightsError as exc:
        raise _UsageError(str(exc)) from None
    Path(args.out).mkdir(parents=True, exist_ok=True)
    job = functools.partial(_render_clip, vars(args))
    failed = 0
    with tqdm(total=len(clips), unit="clip", desc="highlights", dynamic_ncols=True) as bar:
        def progress(outcome: ClipOutcome) -> None:
            nonlocal failed
            if outcome.written:
                bar.write(outcome.message, file=sys.stdout)
            else:
                failed += 1
                bar.write(f"qdv render: {outcome.clip.out.name}: {outcome.message}", file=sys.stderr)
                bar.set_postfix(failed=failed, refresh=False)
            bar.update(1)

        try:
            outcomes = render_clips(job, clips, args.workers or os.cpu_count() or 1, progress)
        except KeyboardInterrupt:
            return EXIT_INTERRUPTED
    for outcome in outcomes:
        for message in outcome.warnings:
            warnings.warn(message, stacklevel=1)
    done = [o.clip.out for o in outcomes if o.written]
    if args.concat and done:
        concat_clips(done, Path(args.concat))
        print(f"wrote {args.concat}: {len(done)} clip{'' if len(done) == 1 else 's'} joined")
    return EXIT_OK if len(done) == len(clips) else EXIT_BAD_INPUT


def _render_clip(options: dict, clip: Clip) -> ClipOutcome:
    """One highlight clip (a job of the pool: picklable, a pure function of the clip), from the eyes of the hit's
    player where the demo has them (``--pov``), else from the demo's own view; errors are its outcome's message."""
    from .library.clip_pool import ClipOutcome

    one = {**options, "demo": clip.demo, "start": f"{clip.start:.3f}", "end": f"{clip.end:.3f}", "out": str(clip.out)}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            try:
                player = None if options["multiview"] or options["panes"] else clip.player   # panes: their own
                code, message = _render(argparse.Namespace(**{**one, "pov": options["pov"] or player}), bar=False)
            except _UsageError as exc:
                if not (options["pov"] is None and clip.player and str(exc).startswith("--pov")):
                    raise
                code, message = _render(argparse.Namespace(**one), bar=False)
        except (FormatError, OSError, _UsageError) as exc:
            code, message = EXIT_BAD_INPUT, _one_line(_describe(exc))
    said = tuple(dict.fromkeys(str(w.message) for w in caught))
    return ClipOutcome(clip, code == EXIT_OK, message, code == EXIT_INTERRUPTED, said)


def _run_cut(args: argparse.Namespace) -> int:
    """``qdv cut``: one range, ``--split`` a demo, or the hits of ``--results`` (then a hit that fails is reported
    and skipped)."""
    from .cut import cut_file, cut_hits, split_file
    from .cut_split import NoPiecesError
    from .library.highlights import HighlightsError, load_hits
    from .timespec import TimespecError

    if (args.demo is None) == (args.results is None):
        raise _UsageError("give a demo file or --results RESULTS.json (not both)")
    if args.split and args.results:
        raise _UsageError("--split cuts one demo: give a demo file, not --results")
    if (args.split or args.results) and (args.start, args.end) != ("0", "100%"):
        raise _UsageError("--from / --to cut one range: --split and --results choose their own")
    failures = []
    try:
        if args.results:
            cuts = cut_hits(load_hits(args.results), args.out, args.before, args.after, args.force,
                            failed=lambda out, exc: failures.append(f"qdv cut: {out.name}: {_describe(exc)}"))
        elif args.split:
            cuts = split_file(args.demo, args.split, args.out, args.force)
        else:
            cuts = [cut_file(args.demo, args.start, args.end, args.out, args.force)]
    except NoPiecesError as exc:
        print(f"qdv cut: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (TimespecError, HighlightsError, ValueError) as exc:
        raise _UsageError(str(exc)) from None
    for out, frames, seconds in cuts:
        print(f"wrote {out}: {frames} frames, {seconds:.3f} s")
    for line in failures:
        print(line, file=sys.stderr)
    return EXIT_BAD_INPUT if failures else EXIT_OK


def _camera_path(file: str, duration: float) -> CameraPath:
    """A camera path file checked for use: malformed or empty is a :class:`CameraPathError` naming the file and the
    field; keys outside the demo's ``duration`` are kept, with a warning."""
    from .camera_path import CameraPathError, keys_outside, load_path

    path = load_path(file)
    if not path.keys:
        raise CameraPathError(file, "keys", "at least one key", "an empty list")
    outside = keys_outside(path, duration)
    if outside:
        when = ", ".join(f"keys[{i}] at {path.keys[i].time:g} s" for i in outside)
        warnings.warn(f"{file}: {when} outside the demo (0 .. {duration:.3f} s): the camera holds there",
                      stacklevel=2)
    return path


def _run_splits(args: argparse.Namespace) -> int:
    from assets_loader.demos import load_demo

    from .splits import splits, splits_table

    timeline = load_demo(args.demo)
    rows = splits(timeline, _ghosts(timeline, args))
    print(json.dumps([r.as_dict() for r in rows], indent=2) if args.json else splits_table(rows))
    return EXIT_OK


def _run_demo_report(args: argparse.Namespace) -> int:
    from .demo_report import events_list, format_events, format_info, info_dict, to_json

    timeline = _load_merged(args.demo, args)
    if args.command == "info":
        info = info_dict(timeline, args.demo)
        print(to_json(info) if args.json else format_info(info))
    else:
        try:
            events = events_list(timeline, kinds=args.kind)
        except ValueError as exc:
            raise _UsageError(str(exc)) from None
        print(to_json(events) if args.json else format_events(events))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
