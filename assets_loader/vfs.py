"""The game filesystem: a basedir with game dirs, paks and loose files, searched the way Quake does.

Search order (highest priority first), as ``COM_AddGameDirectory`` builds it: the mod dir's loose files,
then its ``pakN.pak`` from the highest N down to ``pak0.pak``, then the same for the base game (``id1``).
Quake III game dirs (base ``baseq3`` or ``baseoa``) hold ``*.pk3`` zips instead: they are searched in reverse
name order (a later name overrides an earlier one) after the dir's loose files, as ``FS_AddGameDirectory`` does.
Quake II installations (base ``baseq2``) mount, after ``pak0.pak``…``pakN.pak``, every other ``*.pak`` of a game
dir in name order (a later one overriding an earlier one), as Q2PRO and Yamagi Quake II do, so community paks
such as ``aq_terminal.pak`` mount without renaming.
Lookups are case-insensitive, like id's own pak lookups on a case-folding filesystem.
A basedir with none of the named game dirs but with ``*.pk3`` files of its own (the Quake III corpus layout:
``quake3/oa_dm1_assets.pk3``) is mounted as that one game dir.

References: Quake ``common.c`` (``COM_AddGameDirectory``, ``COM_FindFile``); Unofficial Quake Specs 3.2, 3.1;
Quake II ``qcommon/files.c`` (``FS_AddGameDirectory``) and Q2PRO's / Yamagi's versions of it;
ioquake3 ``qcommon/files.c`` (``FS_AddGameDirectory``, ``FS_FOpenFileReadDir``) and ``renderergl1/tr_image.c``
(``R_LoadImage`` for the image extension fallback).
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import NotFoundError
from .pak import PakFile
from .pk3 import Pk3File
from .source import check_file, kind_of, read_source

BASE_GAME = "id1"
#: Quake II's base game dir; its installations mount every ``*.pak`` of a game dir, not only ``pakN.pak``.
QUAKE2_BASE_GAME = "baseq2"
#: Quake III's base game dirs: id's and OpenArena's.
QUAKE3_BASE_GAMES = ("baseq3", "baseoa")
_PAK_NAME = re.compile(r"^pak(\d+)\.pak$", re.IGNORECASE)
#: Image extensions in the order ioquake3's ``R_LoadImage`` tries them when the named file is missing.
IMAGE_EXTENSIONS = (".tga", ".png", ".jpg", ".jpeg", ".pcx", ".bmp")


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
    """Files of a Quake installation: ``VirtualFS(basedir, game="lq1")``.

    ``basedir`` holds the game dirs (``id1``, mods). ``game`` is an optional mod dir searched before the base
    game dir ``base`` (``"id1"``; ``"baseq2"`` for Quake II, which also mounts paks not named ``pakN.pak``;
    ``"baseq3"`` or ``"baseoa"`` for Quake III). Game dirs that do not exist are skipped; at least one must exist.
    """

    def __init__(self, basedir: str | os.PathLike, game: str | None = None, base: str = BASE_GAME) -> None:
        self.basedir = Path(basedir)
        if not self.basedir.is_dir():
            raise NotFoundError(str(self.basedir), "game directory", None, "an existing base directory")
        names = [base] + ([game] if game and game.lower() != base.lower() else [])
        self.game_dirs: list[Path] = [d for d in (_find_dir(self.basedir, n) for n in names) if d is not None]
        if not self.game_dirs and _holds_pk3(self.basedir):
            self.game_dirs = [self.basedir]
        if not self.game_dirs:
            wanted = " or ".join(repr(n) for n in names)
            raise NotFoundError(str(self.basedir), "game directory", None, f"a game dir {wanted} inside it")
        #: The pack searched after the game dirs (:meth:`with_fallback`), if any.
        self.fallback: str | None = None
        # Search path, highest priority first: the last game dir added wins, loose files beat its paks,
        # and a later pak beats an earlier one.
        self._search: list[_LooseDir | PakFile | Pk3File] = []
        for gamedir in reversed(self.game_dirs):
            self._search.append(_LooseDir(gamedir))
            self._search.extend(reversed(_game_paks(gamedir, all_paks=base.lower() == QUAKE2_BASE_GAME)))

    @classmethod
    def empty(cls) -> VirtualFS:
        """No game data at all: every lookup misses (a demo is still shown, without its map and models)."""
        fs = cls.__new__(cls)
        fs.basedir, fs.game_dirs, fs._search, fs.fallback = Path(), [], [], None
        return fs

    def with_fallback(self, pak: str | Path) -> VirtualFS:
        """These game dirs with the pack ``pak`` (a ``.pak`` or ``.pk3``) searched after everything else: stand-in
        files for what the game data lacks."""
        fs = VirtualFS.empty()
        fs.basedir, fs.game_dirs, fs.fallback = self.basedir, list(self.game_dirs), str(pak)
        fs._search = [*self._search, Pk3File(pak) if str(pak).lower().endswith(".pk3") else PakFile(pak)]
        return fs

    @property
    def game(self) -> str:
        """The name of the highest-priority game dir (the mod, or ``id1``); ``""`` without game dirs."""
        return self.game_dirs[-1].name if self.game_dirs else ""

    def _locate(self, name: str) -> tuple[_LooseDir | PakFile | Pk3File, str] | None:
        key = name.replace("\\", "/").lstrip("/").lower()
        for place in self._search:
            if isinstance(place, _LooseDir):
                if key in place.files:
                    return place, key
            elif key in place:
                return place, key
        return None

    def _place(self, name: str) -> tuple[_LooseDir | PakFile | Pk3File, str]:
        """Where ``name`` is, as :meth:`_locate`; ``NotFoundError`` when nowhere."""
        hit = self._locate(name)
        if hit is None:
            raise self._missing(name)
        return hit

    def exists(self, name: str) -> bool:
        return self._locate(name) is not None

    def find(self, name: str) -> FoundFile:
        """Where ``name`` comes from; raises ``NotFoundError`` if no game dir or pak has it."""
        place, key = self._place(name)
        if isinstance(place, _LooseDir):
            path = place.files[key]
            return FoundFile(name, str(path), path.stat().st_size)
        return FoundFile(name, place.path, place.entry(key).size)

    def read(self, name: str) -> bytes:
        """The bytes of ``name`` (e.g. ``"maps/e1m1.bsp"``) from the highest-priority place that has it."""
        place, key = self._place(name)
        if isinstance(place, _LooseDir):
            return read_source(place.files[key], kind=kind_of(key))[0]
        return place.read(key)

    def read_head(self, name: str, size: int) -> bytes:
        """The first ``size`` bytes of ``name`` (a header: a map's ident and version), without reading the file."""
        place, key = self._place(name)
        if isinstance(place, _LooseDir):
            path = place.files[key]
            check_file(path, kind_of(key))
            with open(path, "rb") as f:
                return f.read(size)
        return place.read_head(key, size)

    def find_image(self, name: str) -> str | None:
        """The file an image name resolves to, trying other extensions as ``R_LoadImage`` does, or ``None``.

        ``"textures/base/wall"`` or ``"textures/base/wall.tga"`` may resolve to ``textures/base/wall.jpg``.
        """
        if self.exists(name):
            return name
        stem, dot, ext = name.rpartition(".")
        if not dot or "/" in ext:
            stem = name
        for alt in IMAGE_EXTENSIONS:
            if self.exists(stem + alt):
                return stem + alt
        return None

    def list(self, pattern: str = "*") -> list[str]:
        """Sorted lower-case names of every visible file matching the glob ``pattern`` (e.g. ``maps/*.bsp``)."""
        names: set[str] = set()
        for place in self._search:
            keys = place.files.keys() if isinstance(place, _LooseDir) else (e.name.lower() for e in place.entries)
            names.update(keys)
        pat = pattern.lower()
        return sorted(n for n in names if fnmatch.fnmatchcase(n, pat))

    def _missing(self, name: str) -> NotFoundError:
        if not self.game_dirs:
            return NotFoundError(name, "game file", None, "game data (none was found; see --basedir)")
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


def _game_paks(gamedir: Path, all_paks: bool = False) -> list[PakFile | Pk3File]:
    """Packs in increasing priority: ``pak0.pak``, ``pak1.pak``, … (stopping at the first gap as Quake does),
    with ``all_paks`` every other ``*.pak``, then every ``*.pk3``, each sorted by lower-case name."""
    files = sorted((p for p in gamedir.iterdir() if p.is_file()), key=lambda p: p.name.lower())
    found = {int(m.group(1)): p for p in files if (m := _PAK_NAME.match(p.name))}
    paks: list[PakFile | Pk3File] = []
    n = 0
    while n in found:
        paks.append(PakFile(found[n]))
        n += 1
    if all_paks:
        paks.extend(PakFile(p) for p in files if p.suffix.lower() == ".pak" and not _PAK_NAME.match(p.name))
    paks.extend(Pk3File(p) for p in files if p.suffix.lower() == ".pk3")
    return paks


def _holds_pk3(directory: Path) -> bool:
    return directory.is_dir() and any(p.is_file() and p.suffix.lower() == ".pk3" for p in directory.iterdir())


def detect_base_game(basedir: str | os.PathLike, game: str | None = None) -> str:
    """The base game of an installation: ``id1`` when ``basedir`` holds it, ``baseq2`` or ``baseq3``/``baseoa``
    when it holds that; ``game`` itself when it names a Quake III base game; ``baseoa`` for a basedir holding only
    ``*.pk3`` files (the corpus layout); ``baseq2`` when the mod dir ``game`` has a ``*.pak`` not named
    ``pakN.pak`` (a Quake II mod dir on its own); else ``id1``."""
    base = Path(basedir)
    if not base.is_dir() or _find_dir(base, BASE_GAME) is not None:
        return BASE_GAME
    if _find_dir(base, QUAKE2_BASE_GAME) is not None:
        return QUAKE2_BASE_GAME
    quake3 = next((d for d in (_find_dir(base, n) for n in QUAKE3_BASE_GAMES) if d is not None), None)
    if quake3 is not None:
        return quake3.name
    if game and game.lower() in QUAKE3_BASE_GAMES:
        return game.lower()
    if _holds_pk3(base):
        return QUAKE3_BASE_GAMES[1]
    mod = _find_dir(base, game) if game else None
    if mod is not None and any(p.suffix.lower() == ".pak" and not _PAK_NAME.match(p.name) for p in mod.iterdir()):
        return QUAKE2_BASE_GAME
    return BASE_GAME


def game_dir_of(path: str | os.PathLike) -> tuple[Path, str] | None:
    """If ``path`` (a demo or map) sits inside a game dir, return ``(basedir, game)``.

    A game dir is recognised by a ``pak0.pak``, a ``maps``/``progs`` folder, or (Quake III) by being a
    ``baseq3``/``baseoa`` folder holding ``*.pk3`` files; the file may sit in the game dir itself or in a
    sub-folder such as ``demos/`` or ``maps/``. A file in a base directory itself (one holding ``id1/``, as
    QuakeWorld clients keep their demos) uses ``id1``.
    """
    p = Path(path).absolute()
    for d in list(p.parents)[:3]:
        if (d / "pak0.pak").is_file() or (d / "PAK0.PAK").is_file() or (d / "maps").is_dir() or (d / "progs").is_dir():
            return d.parent, d.name
        if d.name.lower() in QUAKE3_BASE_GAMES and _holds_pk3(d):
            return d.parent, d.name
        base = _find_dir(d, BASE_GAME) if d.is_dir() else None
        if base is not None:
            return d, base.name
    return None
