"""What game data each game's demos need, the stand-ins used when it is missing, and the notice that says so.

A demo is always shown, with whatever data there is: none at all, another game's, or a game dir without the
demo's map. What is missing is drawn as a placeholder (a grid floor for the map, :mod:`viewer.render.grid_floor`)
and one notice names it and how to point qdv at the game. Quake and QuakeWorld without their data take the palette,
font, status bar and models of the bundled LibreQuake sample (``viewer/sample/lqdm2/id1/pak0.pak``, free data with
id's file names), searched after whatever the game dirs hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from assets_loader.images import Image
from assets_loader.pak import load_pak
from assets_loader.palette import Palette, load_palette
from assets_loader.wad2 import CONCHARS_NAME, load_wad
from assets_loader.vfs import BASE_GAME, QUAKE2_BASE_GAME, QUAKE3_BASE_GAMES, VirtualFS


@dataclass(frozen=True, slots=True)
class GameNeeds:
    """A game's data: its ``title``, a ``marker`` file every installation of it holds (its data is mounted when the
    game dirs have it) and the ``files`` the notice tells the user to point qdv at."""

    title: str
    marker: str
    files: str


#: ``DemoTimeline.game`` → what its data is.
GAME_NEEDS = {
    "quake": GameNeeds("Quake", "gfx/palette.lmp", "id1/pak0.pak"),
    "quakeworld": GameNeeds("QuakeWorld", "gfx/palette.lmp", "Quake's id1/pak0.pak"),
    "quake2": GameNeeds("Quake II", "pics/colormap.pcx", "baseq2/pak0.pak"),
    "quake3": GameNeeds("Quake III", "gfx/2d/bigchars.tga", "baseq3/pak0.pk3, or OpenArena's baseoa/pak0.pk3"),
}
#: The games whose missing data the bundled LibreQuake pak stands in for.
STAND_IN_GAMES = ("quake", "quakeworld")
#: The bundled LibreQuake deathmatch pak, inside the ``viewer`` package.
STAND_IN_PAK = ("sample", "lqdm2", "id1", "pak0.pak")


def stand_in_pak() -> str:
    """Where the bundled stand-in pak lives."""
    return str(resources.files("viewer").joinpath(*STAND_IN_PAK))


def stand_in_font() -> tuple[Image, Palette]:
    """The bundled pak's ``conchars`` and its palette: the window's text when the game data has no font (no
    Quake III ``gfx/2d/bigchars``), so the notice can be read."""
    pak = load_pak(stand_in_pak())
    wad = load_wad(pak.read("gfx.wad"), "gfx.wad")
    return wad.pic(CONCHARS_NAME), load_palette(pak.read("gfx/palette.lmp"), "gfx/palette.lmp")


def has_game_data(game: str, fs: VirtualFS) -> bool:
    """Whether the game dirs of ``fs`` hold ``game``'s data (its marker file, not from the stand-in pack)."""
    needs = GAME_NEEDS.get(game)
    if needs is None or not fs.exists(needs.marker):
        return False
    return fs.find(needs.marker).container != fs.fallback


def with_stand_ins(game: str | None, fs: VirtualFS) -> VirtualFS:
    """``fs``, with the bundled stand-in pak searched last when ``game`` is one it stands in for and ``fs`` lacks
    that game's data."""
    if game in STAND_IN_GAMES and not has_game_data(game, fs):
        return fs.with_fallback(stand_in_pak())
    return fs


def where(fs: VirtualFS) -> str:
    """Where the game data was looked for, for a message: ``"in /q/baseoa"``, ``"found"`` without game dirs."""
    return "in " + ", ".join(str(d) for d in fs.game_dirs) if fs.game_dirs else "found"


def missing_data_notice(game: str, fs: VirtualFS, map_path: str | None, *, window: bool = False) -> str:
    """One line saying what game data is missing and how to point qdv at it; ``""`` when nothing is.

    ``map_path``: the segment's map when it was not found (``None``: it was). ``window``: also offer the window's
    way (dropping the game folder on it)."""
    needs = GAME_NEEDS.get(game)
    if needs is None:
        return ""
    drop = ", or drop the game folder on the window" if window else ""
    if not has_game_data(game, fs):
        shown = "the LibreQuake stand-ins" if game in STAND_IN_GAMES else "the entities"
        floor = " on a grid floor" if map_path is not None else ""
        return (f"no {needs.title} game data {where(fs)} ({needs.files}): showing {shown}{floor}; "
                f"point qdv at the game with --basedir DIR{drop}")
    if map_path is not None:
        return (f"map {map_path} is not {where(fs)}: showing the entities on a grid floor; "
                f"--basedir DIR [--game MOD] points qdv at a game that has it{drop}")
    return ""


#: The base game dirs an installation folder holds.
BASE_DIRS = (BASE_GAME, QUAKE2_BASE_GAME, *QUAKE3_BASE_GAMES)
#: What marks a folder as one game dir.
GAME_DIR_FILES = ("pak0.pak", "maps", "progs")


def game_folder(path: str | Path) -> tuple[str, str | None] | None:
    """``(basedir, game)`` when the folder ``path`` is game data (dropped on the window): an installation holding
    ``id1``, ``baseq2``, ``baseq3`` or ``baseoa`` (``game`` ``None``: the demo names its mod), or one game dir
    holding ``pak0.pak``, ``*.pk3``, ``maps/`` or ``progs/`` (its parent is the basedir); ``None`` otherwise."""
    folder = Path(path)
    try:
        names = {p.name.lower(): p for p in folder.iterdir()}
    except OSError:
        return None
    if any(name in names and names[name].is_dir() for name in BASE_DIRS):
        return str(folder), None
    if any(name in names for name in GAME_DIR_FILES) or any(name.endswith(".pk3") for name in names):
        return str(folder.parent), folder.name
    return None
