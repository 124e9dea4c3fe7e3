"""Quake II (``.dm2``, protocols 26 to 34; 3.00's protocol 25 is recognised and reported as unsupported):
framing (:mod:`.framing`), protocol tables (:mod:`.protocol`, :mod:`.monster_flashes`), message handlers
(:mod:`.parse`), configstrings over time (:mod:`.configstrings`) and death messages (:mod:`.obituaries`) on the
shared decoder kit."""

from .configstrings import ConfigStrings, PlayerSkin, parse_player_skin
from .framing import decode_dm2

__all__ = ["decode_dm2", "ConfigStrings", "PlayerSkin", "parse_player_skin"]
