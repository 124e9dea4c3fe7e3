"""QuakeWorld (``.qwd`` client demos, ``.mvd`` multi-view demos): framing (:mod:`.framing`), protocol tables
(:mod:`.protocol`) and message handlers (:mod:`.parse`) on the shared decoder kit."""

from .framing import decode_mvd, decode_qwd, looks_like_mvd, looks_like_qwd
from .parse import NAIL_NUMBER_BASE

__all__ = ["decode_qwd", "decode_mvd", "looks_like_qwd", "looks_like_mvd", "NAIL_NUMBER_BASE"]
