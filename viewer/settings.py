"""Remembered window settings: a small TOML file in the platform's config folder.

``settings.toml`` in ``platformdirs.user_config_dir("qdv")`` (``~/.config/qdv`` on Linux; ``QDV_CONFIG_DIR``
overrides the folder). Command-line flags override what the file says; ``qdv play --reset-settings`` starts from
the defaults. The file is read like every input (:mod:`viewer.side_files`: a regular file of at most 1 MiB, UTF-8,
nesting bounded). A file that cannot be read is reported once and left untouched: its values are not used and it is
never written over, so nothing the user wrote is lost. A value outside the range the command line accepts
(:data:`RANGES`) is reported and replaced by its default; the file is then saved again as usual.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

import platformdirs
import tomli_w

from assets_loader.errors import FormatError

from .file_writes import replace_file
from .side_files import TOML_STRINGS, check_nesting, read_text

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
    #: The first-run hint ("F1: keys") has been shown: it is not shown again.
    hint_seen: bool = False

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)


#: Accepted range of each number (inclusive): the ranges the command line accepts (``--size``, ``--fov``,
#: ``--sensitivity``), so whatever a flag sets can be saved and read back.
RANGES: dict[str, tuple[float, float]] = {
    "width": (16, 8192), "height": (16, 8192), "fov": (1.0, 179.0), "volume": (0.0, 1.0),
    "mouse_sensitivity": (0.05, 50.0),
}
#: The file's kind for its size limit (1 MiB, ``QDV_MAX_SETTINGS_SIZE``) and messages.
KIND = "settings"


def settings_path() -> Path:
    """Where the settings live: ``$QDV_CONFIG_DIR/settings.toml`` or the platform's config folder."""
    folder = os.environ.get("QDV_CONFIG_DIR") or platformdirs.user_config_dir("qdv", appauthor=False)
    return Path(folder) / FILE_NAME


class SettingsError(ValueError):
    """A settings file that cannot be read as TOML: names the file."""


def _checked(name: str, value: Any, default: Any) -> Any:
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise SettingsError(f"{name}: expected true or false, found {value!r}")
        return value
    if isinstance(default, str):
        if not isinstance(value, str):
            raise SettingsError(f"{name}: expected a string, found {_short(value)}")
        return value
    lo, hi = RANGES[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:  # NaN: not within
        raise SettingsError(f"{name}: expected a number within {lo:g}..{hi:g}, found {_short(value)}")
    return int(value) if isinstance(default, int) else float(value)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_settings(text: str, path: Path) -> tuple[Settings, list[str]]:
    """Settings from TOML text and the problems found in its values: a value of the wrong type or outside
    :data:`RANGES` is named and replaced by the default; unknown keys are ignored (a newer qdv may have written
    them). :class:`SettingsError` when the text is not TOML, :class:`~viewer.side_files.SideFileError` when it nests
    deeper than :data:`~viewer.side_files.MAX_NESTING`."""
    check_nesting(text, str(path), KIND, TOML_STRINGS)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: not valid TOML: {exc}") from None
    except ValueError:  # an integer past the 4300 digits Python converts
        raise SettingsError(f"{path}: not valid TOML: an integer of thousands of digits") from None
    defaults = Settings()
    values = {}
    problems = []
    for f in fields(Settings):
        if f.name in data:
            try:
                values[f.name] = _checked(f.name, data[f.name], getattr(defaults, f.name))
            except SettingsError as exc:
                problems.append(f"{path}: {exc}; using {getattr(defaults, f.name)!r}")
    return replace(defaults, **values), problems


@dataclass(frozen=True, slots=True)
class SettingsFile:
    """The settings read at start, and whether they may be written back (not over a file we could not read)."""

    path: Path
    settings: Settings
    writable: bool
    problem: str = ""


def load_settings(path: Path | None = None, *, reset: bool = False) -> SettingsFile:
    """Read the settings file (missing: defaults). ``reset``: defaults, and the file is written over on save.

    A file that cannot be read (not a regular file, over 1 MiB, not UTF-8, not TOML) gives the defaults and is left
    as it is; a bad value gives its default and the file is rewritten with the good values on save."""
    path = path or settings_path()
    if reset:
        return SettingsFile(path, Settings(), writable=True)
    try:
        settings, problems = parse_settings(read_text(path, KIND), path)
    except FileNotFoundError:
        return SettingsFile(path, Settings(), writable=True)
    except OSError as exc:
        return SettingsFile(path, Settings(), writable=False, problem=f"{path}: cannot read the settings: "
                                                                    f"{exc.strerror or exc}")
    except (FormatError, SettingsError) as exc:
        return SettingsFile(path, Settings(), writable=False,
                            problem=f"{exc} (using the defaults; the file is left as it is)")
    return SettingsFile(path, settings, writable=True, problem="; ".join(problems))


def _within_ranges(settings: Settings) -> Settings:
    """``settings`` with every number brought into :data:`RANGES` (a window dragged larger than any flag allows)."""
    return replace(settings, **{name: type(getattr(settings, name))(min(max(getattr(settings, name), lo), hi))
                                for name, (lo, hi) in RANGES.items()})


def save_settings(file: SettingsFile, settings: Settings) -> None:
    """Write ``settings``, each number within :data:`RANGES`, atomically through a fresh temporary name
    (:func:`~viewer.file_writes.replace_file`), unless the file was unreadable."""
    if not file.writable:
        return
    file.path.parent.mkdir(parents=True, exist_ok=True)
    replace_file(file.path, tomli_w.dumps(asdict(_within_ranges(settings))).encode("utf-8"))
