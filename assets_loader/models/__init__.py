"""Model loaders: Quake alias models (``.mdl``) and sprites (``.spr``)."""

from .anim import pick_interval
from .anorms import ANORMS, normal_vectors
from .mdl import (EF_GIB, EF_GRENADE, EF_ROCKET, EF_ROTATE, EF_TRACER, EF_TRACER2, EF_TRACER3, EF_ZOMGIB,
                  AliasFrame, AliasMesh, AliasModel, AliasSkin, load_mdl)
from .spr import (SPR_FACING_UPRIGHT, SPR_ORIENTED, SPR_VP_PARALLEL, SPR_VP_PARALLEL_ORIENTED,
                  SPR_VP_PARALLEL_UPRIGHT, SpriteFrame, SpriteImage, SpriteModel, load_spr)

__all__ = [
    "ANORMS", "normal_vectors", "pick_interval",
    "AliasModel", "AliasSkin", "AliasFrame", "AliasMesh", "load_mdl",
    "EF_ROCKET", "EF_GRENADE", "EF_GIB", "EF_ROTATE", "EF_TRACER", "EF_ZOMGIB", "EF_TRACER2", "EF_TRACER3",
    "SpriteModel", "SpriteFrame", "SpriteImage", "load_spr",
    "SPR_VP_PARALLEL_UPRIGHT", "SPR_FACING_UPRIGHT", "SPR_VP_PARALLEL", "SPR_ORIENTED", "SPR_VP_PARALLEL_ORIENTED",
]
