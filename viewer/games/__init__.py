"""Per-game viewer packages: how a game's entities, effects and HUD look."""
