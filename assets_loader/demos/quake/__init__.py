"""Quake (NetQuake ``.dem``, protocols 15 / 666 / 999): framing (:mod:`.framing`), protocol tables
(:mod:`.protocol`) and message handlers (:mod:`.parse`) on the shared decoder kit."""

from .framing import decode_dem, parse_cd_track

__all__ = ["decode_dem", "parse_cd_track"]
