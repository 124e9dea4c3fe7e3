"""Where an export goes: a video file (container from the extension, codec checked against it) or numbered PNGs.

``out.mp4`` / ``.mov`` / ``.mkv`` → H.264 by default, ``.webm`` → VP9; ``--codec`` picks another one the container
can hold. A folder (existing, or a path ending in ``/``) or a name with a ``%d``-style pattern (``f%05d.png``)
writes one PNG per frame. yuv420p codecs need even sizes. Nothing is ever overwritten without ``force``; a
missing output folder is an error, not created.

References: FFmpeg muxers ``mp4``/``mov``/``matroska``/``webm`` and encoders ``libx264``, ``libvpx-vp9``,
``libsvtav1``, ``ffv1``, ``png`` (as shipped in PyAV's wheels).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..export import ExportError
from .options import OptionError

#: File extension → FFmpeg muxer name.
CONTAINERS = {".mp4": "mp4", ".mov": "mov", ".mkv": "matroska", ".webm": "webm"}
PNG_SEQUENCE = "png"
#: The name numbered PNGs get inside a folder.
FOLDER_PATTERN = "%05d.png"


@dataclass(frozen=True, slots=True)
class Codec:
    """A codec as ``--codec`` names it: its FFmpeg ``encoder``, the ``pix_fmt`` it is fed, its CRF range and
    default (``crf_range`` None: lossless, no CRF), fixed encoder ``options`` (the default ``preset`` among them)
    and the ``presets`` ``--preset`` may pick (speed against size; none: the codec has no such knob here)."""

    name: str
    encoder: str
    pix_fmt: str
    crf_range: tuple[int, int] | None = None
    default_crf: int | None = None
    options: tuple[tuple[str, str], ...] = ()
    presets: tuple[str, ...] = ()

    @property
    def needs_even_size(self) -> bool:
        """4:2:0 chroma is subsampled by two in both directions."""
        return self.pix_fmt.endswith("420p")


#: x264 runs ``ultrafast``: on moving 720p footage the whole export costs about 24 ms of CPU a frame against 29 with
#: ``superfast`` and 35 with ``veryfast`` (rendering alone: 16), for 1.2x / 2.4x the bytes at the same CRF; on two
#: cores shared with llvmpipe the encoder's CPU is what limits throughput (benchmarks/bench_video.py).
CODECS = {
    "h264": Codec("h264", "libx264", "yuv420p", (0, 51), 18, (("preset", "ultrafast"),),
                  ("ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow")),
    "vp9": Codec("vp9", "libvpx-vp9", "yuv420p", (0, 63), 32,
                 (("b", "0"), ("deadline", "realtime"), ("cpu-used", "8"), ("row-mt", "1"))),
    "av1": Codec("av1", "libsvtav1", "yuv420p", (0, 63), 35, (("preset", "10"),), tuple(map(str, range(14)))),
    "ffv1": Codec("ffv1", "ffv1", "bgr0"),
    "png": Codec("png", "png", "rgb24"),
}
#: Which codecs each container can hold; the first is its default.
CONTAINER_CODECS = {
    "mp4": ("h264", "vp9", "av1"),
    "mov": ("h264", "png"),
    "matroska": ("h264", "vp9", "av1", "ffv1"),
    "webm": ("vp9", "av1"),
    PNG_SEQUENCE: ("png",),
}


@dataclass(frozen=True, slots=True)
class Output:
    """A checked destination: ``path`` is the video file, or the PNG name pattern (``%05d``) when ``container`` is
    :data:`PNG_SEQUENCE`; ``crf`` None for lossless codecs; ``preset`` None for the codec's default."""

    path: Path
    container: str
    codec: Codec
    crf: int | None
    force: bool
    preset: str | None = None

    @property
    def is_sequence(self) -> bool:
        return self.container == PNG_SEQUENCE

    def frame_path(self, k: int) -> Path:
        """Frame ``k``'s PNG in a sequence (numbered from 0)."""
        return self.path.with_name(self.path.name % k)

    def encoder_options(self) -> dict[str, str]:
        """FFmpeg options for the encoder: the codec's fixed ones, ``preset`` over its default, plus ``crf``."""
        options = dict(self.codec.options)
        if self.preset is not None:
            options["preset"] = self.preset
        if self.crf is not None:
            options["crf"] = str(self.crf)
        return options

    def check_free(self, frames: int) -> None:
        """Refuse (``ExportError``) when the export would overwrite a file and ``force`` is off."""
        if self.force:
            return
        if not self.is_sequence:
            if self.path.exists():
                raise ExportError(f"{self.path}: already exists (use --force to overwrite)")
            return
        taken = self._taken_frame(frames)
        if taken is not None:
            raise ExportError(f"{self.frame_path(taken)}: already exists (use --force to overwrite)")

    def _taken_frame(self, frames: int) -> int | None:
        """The first frame below ``frames`` whose PNG exists: one listing of the folder, not one ``stat`` per frame
        (a million-frame render waited on a million of them before its first frame)."""
        match = _NUMBERED.fullmatch(self.path.name)
        assert match is not None  # plan_output checked it
        prefix, suffix = match.group(1).replace("%%", "%"), match.group(3).replace("%%", "%")
        try:
            names = [entry.name for entry in os.scandir(self.path.parent)]
        except FileNotFoundError:
            return None
        found = []
        for name in names:
            digits = name[len(prefix):len(name) - len(suffix)].strip()
            if (len(name) > len(prefix) + len(suffix) and name.startswith(prefix) and name.endswith(suffix)
                    and digits.isdigit() and int(digits) < frames and self.frame_path(int(digits)).name == name):
                found.append(int(digits))
        return min(found, default=None)


def _sequence_pattern(out: str) -> Path | None:
    """The PNG pattern when ``out`` names a folder or a ``%d`` pattern, else None."""
    path = Path(out)
    if out.endswith(("/", "\\")) or path.is_dir():
        return path / FOLDER_PATTERN
    if "%" in path.name:
        if path.suffix.lower() != ".png":
            raise OptionError(f"--out {out}: a numbered pattern must end in .png (e.g. frames/%05d.png)")
        if _NUMBERED.fullmatch(path.name) is None:  # %c, %s, %x: a NUL, a slash or no number in a name
            raise OptionError(f"--out {out}: expected one number pattern like %05d in the name")
        return path
    return None


#: A frame name: one ``%d`` (``%05d``, ``%3d``, ``%i``, ``%u``), every other ``%`` doubled.
_NUMBERED = re.compile(r"((?:[^%]|%%)*)(%0?\d{0,2}[diu])((?:[^%]|%%)*)")


def plan_output(out: str, size: tuple[int, int], codec: str | None = None, crf: int | None = None,
                force: bool = False, preset: str | None = None) -> Output:
    """Check ``--out``, ``--codec``, ``--crf``, ``--preset`` and ``--size`` together; raise :class:`OptionError` (a
    usage error) with one line naming the option."""
    pattern = _sequence_pattern(out)
    if pattern is not None:
        path, container = pattern, PNG_SEQUENCE
    else:
        path = Path(out)
        suffix = path.suffix.lower()
        if suffix not in CONTAINERS:
            raise OptionError(f"--out {out}: unknown container {suffix or '(no extension)'}; use "
                              f"{', '.join(CONTAINERS)}, a folder or a %05d.png pattern")
        container = CONTAINERS[suffix]
    folder = path.parent
    if not folder.is_dir():
        raise OptionError(f"--out {out}: the folder {folder} does not exist")
    allowed = CONTAINER_CODECS[container]
    name = codec if codec is not None else allowed[0]
    if name not in CODECS:
        raise OptionError(f"--codec {name}: unknown codec; expected one of {', '.join(CODECS)}")
    if name not in allowed:
        where = "numbered PNGs" if container == PNG_SEQUENCE else f"a {path.suffix} file"
        raise OptionError(f"--codec {name} cannot go into {where}; it holds {', '.join(allowed)}")
    chosen = CODECS[name]
    if crf is not None:
        if chosen.crf_range is None:
            raise OptionError(f"--crf {crf}: {name} is lossless and takes no --crf")
        lo, hi = chosen.crf_range
        if not lo <= crf <= hi:
            raise OptionError(f"--crf {crf}: {name} takes {lo}..{hi}")
    if preset is not None and preset not in chosen.presets:
        raise OptionError(f"--preset {preset}: {name} takes " + (", ".join(chosen.presets) if chosen.presets
                                                                    else "no --preset"))
    w, h = size
    if chosen.needs_even_size and (w % 2 or h % 2):
        raise OptionError(f"--size {w}x{h}: {name} (yuv420p) needs an even width and height, e.g. "
                          f"{w + w % 2}x{h + h % 2}")
    return Output(path, container, chosen, crf if crf is not None else chosen.default_crf, force, preset)
