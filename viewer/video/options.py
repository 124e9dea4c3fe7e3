"""The numbers and names ``qdv render`` takes, checked with one-line messages (exit 2 in the CLI).

Each parser takes the text the user typed and returns the value or raises :class:`OptionError` naming the option
and what is expected.
"""

from __future__ import annotations

import math

from assets_loader.demos import DemoTimeline
from assets_loader.demos.entity_eyes import exact_recorder
from assets_loader.demos.events import plain_line

from ..render.refdef import CAMERA_LIMIT

CAMERA_MODES = ("pov", "free", "chase", "orbit", "director")
#: ``--camera path:FILE`` follows a camera path file.
PATH_PREFIX = "path:"
MAX_SIZE = 8192
MAX_FPS = 1000.0
MAX_SPEED = 100.0
MAX_BLUR = 64


class OptionError(ValueError):
    """An option value that cannot be used."""


def parse_size(text: str) -> tuple[int, int]:
    """``WxH`` → ``(width, height)``, each 1..8192 (evenness depends on the codec: see :mod:`.output`)."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise OptionError(f"--size {text!r}: expected WxH, e.g. 1920x1080") from None
    if not (0 < w <= MAX_SIZE and 0 < h <= MAX_SIZE):
        raise OptionError(f"--size {text}: width and height must lie in 1..{MAX_SIZE}")
    return w, h


def _positive(option: str, text: str, limit: float) -> float:
    try:
        value = float(text)
    except ValueError:
        raise OptionError(f"{option} {text!r}: expected a number") from None
    if not (math.isfinite(value) and 0 < value <= limit):
        raise OptionError(f"{option} {text}: expected a number above 0 and at most {limit:g}")
    return value


def parse_fps(text: str) -> float:
    """Output frames per second: above 0, at most 1000."""
    return _positive("--fps", text, MAX_FPS)


def parse_speed(text: str) -> float:
    """Demo seconds per output second: above 0, at most 100."""
    return _positive("--speed", text, MAX_SPEED)


def parse_fov(text: str) -> float:
    """Horizontal field of view at 4:3 in degrees, 1..179."""
    value = _positive("--fov", text, 179.0)
    if value < 1:
        raise OptionError(f"--fov {text}: expected 1..179 degrees")
    return value


def parse_blur(text: str) -> int:
    """Motion-blur sub-frames per output frame: 1 (off) .. 64."""
    try:
        value = int(text)
    except ValueError:
        raise OptionError(f"--motion-blur {text!r}: expected a whole number of sub-frames") from None
    if not 1 <= value <= MAX_BLUR:
        raise OptionError(f"--motion-blur {text}: expected 1..{MAX_BLUR} sub-frames (1: off)")
    return value


def parse_crf(text: str | None) -> int | None:
    """The encoder's constant-rate factor (its range depends on the codec: see :mod:`.output`)."""
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        raise OptionError(f"--crf {text!r}: expected a whole number") from None


def parse_vector(option: str, text: str | None) -> tuple[float, float, float] | None:
    """``x,y,z`` → three finite floats."""
    if text is None:
        return None
    try:
        x, y, z = (float(v) for v in text.split(","))
    except ValueError:
        raise OptionError(f"{option} {text!r}: expected three comma-separated numbers") from None
    if not all(abs(v) <= CAMERA_LIMIT for v in (x, y, z)):  # NaN and inf fail too
        raise OptionError(f"{option} {text!r}: expected numbers within ±{CAMERA_LIMIT:g}")
    return x, y, z


def parse_camera(text: str | None, free_given: bool) -> str:
    """The camera mode; omitted: ``free`` when ``--pos``/``--angles`` were given, else ``pov``; ``path:FILE`` is
    the ``path`` mode (the file: :func:`camera_path_file`)."""
    if text is None:
        return "free" if free_given else "pov"
    if text.startswith(PATH_PREFIX):
        camera_path_file(text)
        return "path"
    if text not in CAMERA_MODES:
        raise OptionError(f"--camera {text!r}: expected one of {', '.join(CAMERA_MODES)} or path:FILE")
    return text


def camera_path_file(text: str) -> str:
    """The file of ``--camera path:FILE``."""
    name = text[len(PATH_PREFIX):]
    if not name:
        raise OptionError(f"--camera {text!r}: expected path:FILE, the camera path's JSON file")
    return name


def resolve_pov(timeline: DemoTimeline, text: str | None, option: str = "--pov") -> int | None:
    """The player slot to watch for ``--pov`` (a scoreboard name as printed, case-insensitive, without Quake III
    colour codes, or a slot number); ``None``: the demo's own view (the recorder, or the default slot of a
    multi-view demo). ``option`` names the flag in the message."""
    slots = timeline.pov_slots
    if text is None:
        return timeline.default_pov if timeline.default_pov in slots else None
    if not slots:
        raise OptionError(f"{option} {text}: this demo holds only the recorder's view")
    codes = timeline.schema.color_codes
    names = {score.slot: plain_line(score.name, codes) for score in timeline.final_scoreboard()}
    wanted = plain_line(text, codes).lower()
    for slot in slots:
        if names.get(slot, "").lower() == wanted or text == str(slot):
            return None if slot == exact_recorder(timeline) else slot
    choices = ", ".join(f"{slot} ({names.get(slot, '?')})" for slot in slots)
    raise OptionError(f"{option} {text}: no such player; this demo has {choices}")

