"""Quake III Arena (and OpenArena): the :class:`~viewer.games.base.GameView` of ``.dm_68``/``.dm_71`` demos and
IBSP 46 maps. :mod:`.assets` loads a map with its shaders and images and a segment's MD3 models; :mod:`.view` is
the seam's implementation."""
