"""The backend of Quake, QuakeWorld and Quake II: lightmapped BSP worlds, alias models and sprites
(QuakeSpasm, ezQuake, Quake II ``ref_gl``)."""
