"""Quake II (``.dm2``): BSP38 maps, MD2 models, SP2 sprites, sky boxes (the :class:`~.view.Quake2View` seam)."""
