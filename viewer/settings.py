"""Remembered window settings: a small TOML file in the platform's config folder.

``settings.toml`` in ``platformdirs.user_config_dir("qdv")`` (``~/.config/qdv`` on Linux; ``QDV_CONFIG_DIR``
overrides the folder). Command-line flags override what the file says; ``qdv play --reset-settings`` starts from
the defaults. A file that cannot be read is reported once and left untouched: its values are not used and it is
never written over, so nothing the user wrote is lost.
"""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

import platformdirs
import tomli_w

FILE_NAME = "settings.toml"


@dataclass(frozen=True, slots=True)
class Settings:
    """What the window remembers between runs."""

    width: int = 1280
    height: int = 720
    fov: float = 90.0
    volume: float = 0.7
    show_hud: bool = True
    show_bar: bool = True
    last_dir: str = ""
    #: The game data last given (``--basedir``, or a game folder dropped on the window): demos outside a game dir
    #: use it when no ``--basedir`` is given.
    basedir: str = ""
    game: str = ""
    mouse_sensitivity: float = 3.0
    invert_mouse: bool = False

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)


#: Accepted range of each number (inclusive).
_RANGES: dict[str, tuple[float, float]] = {
    "width": (160, 16384), "height": (120, 16384), "fov": (10.0, 170.0), "volume": (0.0, 1.0),
    "mouse_sensitivity": (0.05, 50.0),
}


def settings_path() -> Path:
    """Where the settings live: ``$QDV_CONFIG_DIR/settings.toml`` or the platform's config folder."""
    folder = os.environ.get("QDV_CONFIG_DIR") or platformdirs.user_config_dir("qdv", appauthor=False)
    return Path(folder) / FILE_NAME


class SettingsError(ValueError):
    """A settings file that cannot be used: names the file and the key."""


def _checked(name: str, value: Any, default: Any) -> Any:
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise SettingsError(f"{name}: expected true or false, found {value!r}")
        return value
    if isinstance(default, str):
        if not isinstance(value, str):
            raise SettingsError(f"{name}: expected a string, found {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SettingsError(f"{name}: expected a number, found {value!r}")
    lo, hi = _RANGES[name]
    if not lo <= value <= hi:
        raise SettingsError(f"{name}: expected {lo:g}..{hi:g}, found {value!r}")
    return int(value) if isinstance(default, int) else float(value)


def parse_settings(text: str, path: Path) -> Settings:
    """Settings from TOML text; unknown keys are ignored (a newer qdv may have written them)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: not valid TOML: {exc}") from None
    defaults = Settings()
    values = {}
    for f in fields(Settings):
        if f.name in data:
            try:
                values[f.name] = _checked(f.name, data[f.name], getattr(defaults, f.name))
            except SettingsError as exc:
                raise SettingsError(f"{path}: {exc}") from None
    return replace(defaults, **values)


@dataclass(frozen=True, slots=True)
class SettingsFile:
    """The settings read at start, and whether they may be written back (not over a file we could not read)."""

    path: Path
    settings: Settings
    writable: bool
    problem: str = ""


def load_settings(path: Path | None = None, *, reset: bool = False) -> SettingsFile:
    """Read the settings file (missing: defaults). ``reset``: defaults, and the file is written over on save."""
    path = path or settings_path()
    if reset:
        return SettingsFile(path, Settings(), writable=True)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return SettingsFile(path, Settings(), writable=True)
    except (OSError, UnicodeDecodeError) as exc:
        return SettingsFile(path, Settings(), writable=False, problem=f"{path}: cannot read the settings: {exc}")
    try:
        return SettingsFile(path, parse_settings(text, path), writable=True)
    except SettingsError as exc:
        return SettingsFile(path, Settings(), writable=False,
                            problem=f"{exc} (using the defaults; the file is left as it is)")


def save_settings(file: SettingsFile, settings: Settings) -> None:
    """Write ``settings`` (atomically: a temporary file renamed over the old one) unless the file was unreadable."""
    if not file.writable:
        return
    file.path.parent.mkdir(parents=True, exist_ok=True)
    tmp = file.path.with_suffix(".toml.tmp")
    tmp.write_text(tomli_w.dumps(asdict(settings)), encoding="utf-8")
    tmp.replace(file.path)
