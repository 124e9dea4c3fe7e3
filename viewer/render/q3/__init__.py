"""The Quake III backend: maps drawn with shader scripts (BSP46), their portals and fog (``renderergl1``)."""
