"""Quake and QuakeWorld: entity linking, particle and light effects, the status bar, actor names."""
