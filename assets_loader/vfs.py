"""The game filesystem: a basedir with game dirs, paks and loose files, searched the way Quake does.

Search order (highest priority first), as ``COM_AddGameDirectory`` builds it: the mod dir's loose files,
then its ``pakN.pak`` from the highest N down to ``pak0.pak``, then the same for the base game (``id1``). Lookups
are case-insensitive, like id's own pak lookups on a case-folding filesystem.

A :class:`GameLayout` names the base game and says which paks a game dir mounts: Quake (:data:`QUAKE`) reads
``pak0.pak``, ``pak1.pak``… up to the first gap; Quake II (:data:`QUAKE2`, base game ``baseq2``) does the same
and then, as Q2PRO and Yamagi Quake II do, every other ``*.pak`` of the dir in alphabetical order (a later one
overriding an earlier one), so community paks such as ``aq_terminal.pak`` mount without renaming.

References: Quake ``common.c`` (``COM_AddGameDirectory``, ``COM_FindFile``); Unofficial Quake Specs 3.2, 3.1;
Quake II ``qcommon/files.c`` (``FS_AddGameDirectory``) and Q2PRO's / Yamagi's versions of it.
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import NotFoundError
from .pak import PakFile

BASE_GAME = "id1"
_PAK_NAME = re.compile(r"^pak(\d+)\.pak$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class GameLayout:
    """How a game lays out its files: ``base_game`` is the dir always searched last (``id1``, ``baseq2``);
    ``all_paks`` mounts every ``*.pak`` of a game dir (after the numbered ones), not only ``pakN.pak``."""

    base_game: str
    all_paks: bool = False


QUAKE = GameLayout(BASE_GAME)
QUAKE2 = GameLayout("baseq2", all_paks=True)


@dataclass(frozen=True, slots=True)
class FoundFile:
    """Where a virtual path resolved: ``container`` is the pak holding it, or the loose file's own path."""

    name: str
    container: str
    size: int


class _LooseDir:
    """Loose files under one game dir, indexed by lower-cased relative path."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, Path] = {}
        for dirpath, _dirs, filenames in os.walk(root):
            for fn in filenames:
                full = Path(dirpath, fn)
                rel = full.relative_to(root).as_posix()
                self.files.setdefault(rel.lower(), full)


class VirtualFS:
    """Files of a game installation: ``VirtualFS(basedir, game="lq1")``, ``VirtualFS(basedir, "action", QUAKE2)``.

    ``basedir`` holds the game dirs (the layout's base game, mods). ``game`` is an optional mod dir searched
    before the base game. Game dirs that do not exist are skipped; at least one must exist.
    """

    def __init__(self, basedir: str | os.PathLike, game: str | None = None, layout: GameLayout = QUAKE) -> None:
        self.basedir = Path(basedir)
        self.layout = layout
        if not self.basedir.is_dir():
            raise NotFoundError(str(self.basedir), "game directory", None, "an existing base directory")
        base = layout.base_game
        names = [base] + ([game] if game and game.lower() != base.lower() else [])
        self.game_dirs: list[Path] = [d for d in (_find_dir(self.basedir, n) for n in names) if d is not None]
        if not self.game_dirs:
            wanted = " or ".join(repr(n) for n in names)
            raise NotFoundError(str(self.basedir), "game directory", None, f"a game dir {wanted} inside it")
        # Search path, highest priority first: the last game dir added wins, loose files beat its paks,
        # and a later pak beats an earlier one.
        self._search: list[_LooseDir | PakFile] = []
        for gamedir in reversed(self.game_dirs):
            self._search.append(_LooseDir(gamedir))
            self._search.extend(reversed(_game_paks(gamedir, layout.all_paks)))

    @property
    def game(self) -> str:
        """The name of the highest-priority game dir (the mod, or the base game)."""
        return self.game_dirs[-1].name

    def _locate(self, name: str) -> tuple[_LooseDir | PakFile, str] | None:
        key = name.replace("\\", "/").lstrip("/").lower()
        for place in self._search:
            if isinstance(place, _LooseDir):
                if key in place.files:
                    return place, key
            elif key in place:
                return place, key
        return None

    def exists(self, name: str) -> bool:
        return self._locate(name) is not None

    def find(self, name: str) -> FoundFile:
        """Where ``name`` comes from; raises ``NotFoundError`` if no game dir or pak has it."""
        hit = self._locate(name)
        if hit is None:
            raise self._missing(name)
        place, key = hit
        if isinstance(place, _LooseDir):
            path = place.files[key]
            return FoundFile(name, str(path), path.stat().st_size)
        return FoundFile(name, place.path, place.entry(key).size)

    def read(self, name: str) -> bytes:
        """The bytes of ``name`` (e.g. ``"maps/e1m1.bsp"``) from the highest-priority place that has it."""
        hit = self._locate(name)
        if hit is None:
            raise self._missing(name)
        place, key = hit
        if isinstance(place, _LooseDir):
            return place.files[key].read_bytes()
        return place.read(key)

    def list(self, pattern: str = "*") -> list[str]:
        """Sorted lower-case names of every visible file matching the glob ``pattern`` (e.g. ``maps/*.bsp``)."""
        names: set[str] = set()
        for place in self._search:
            keys = place.files.keys() if isinstance(place, _LooseDir) else (e.name.lower() for e in place.entries)
            names.update(keys)
        pat = pattern.lower()
        return sorted(n for n in names if fnmatch.fnmatchcase(n, pat))

    def _missing(self, name: str) -> NotFoundError:
        where = ", ".join(str(d) for d in self.game_dirs)
        return NotFoundError(name, "game file", None, f"the file in one of the game dirs ({where}) or their paks")


def _find_dir(parent: Path, name: str) -> Path | None:
    """The child directory of ``parent`` called ``name``, compared case-insensitively."""
    exact = parent / name
    if exact.is_dir():
        return exact
    for child in parent.iterdir():
        if child.is_dir() and child.name.lower() == name.lower():
            return child
    return None


def _game_paks(gamedir: Path, all_paks: bool = False) -> list[PakFile]:
    """``pak0.pak``, ``pak1.pak``, … in numeric order, stopping at the first gap as Quake does; with
    ``all_paks`` then every other ``*.pak`` by lower-cased name. Lowest priority first."""
    files = sorted((p for p in gamedir.iterdir() if p.suffix.lower() == ".pak" and p.is_file()),
                   key=lambda p: p.name.lower())
    found = {int(m.group(1)): p for p in files if (m := _PAK_NAME.match(p.name))}
    paths = []
    n = 0
    while n in found:
        paths.append(found[n])
        n += 1
    if all_paks:
        paths.extend(p for p in files if p not in paths)
    return [PakFile(p) for p in paths]


def detect_layout(basedir: str | os.PathLike, game: str | None = None) -> GameLayout:
    """The layout of an installation: Quake when ``basedir`` holds ``id1``, Quake II when it holds ``baseq2``;
    with neither, Quake II when the mod dir ``game`` has a ``*.pak`` not named ``pakN.pak``, else Quake."""
    base = Path(basedir)
    if not base.is_dir() or _find_dir(base, QUAKE.base_game) is not None:
        return QUAKE
    if _find_dir(base, QUAKE2.base_game) is not None:
        return QUAKE2
    mod = _find_dir(base, game) if game else None
    if mod is not None and any(p.suffix.lower() == ".pak" and not _PAK_NAME.match(p.name) for p in mod.iterdir()):
        return QUAKE2
    return QUAKE


def game_dir_of(path: str | os.PathLike) -> tuple[Path, str] | None:
    """If ``path`` (a demo or map) sits inside a game dir, return ``(basedir, game)``.

    A game dir is recognised by a ``pak0.pak`` or a ``maps``/``progs`` folder; the file may sit in the game
    dir itself or in a sub-folder such as ``demos/`` or ``maps/``. A file in a base directory itself (one
    holding ``id1/``, as QuakeWorld clients keep their demos) uses ``id1``.
    """
    p = Path(path).absolute()
    for d in list(p.parents)[:3]:
        if (d / "pak0.pak").is_file() or (d / "PAK0.PAK").is_file() or (d / "maps").is_dir() or (d / "progs").is_dir():
            return d.parent, d.name
        base = _find_dir(d, BASE_GAME) if d.is_dir() else None
        if base is not None:
            return d, base.name
    return None
