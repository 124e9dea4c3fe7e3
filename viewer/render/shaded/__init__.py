"""Shader-script drawing shared by the backends: the stage painter, MD3 models (Quake III, and Quake II entities
whose models are MD3s) and effect polygons (ioquake3 ``tr_shade.c``, ``tr_mesh.c``)."""
