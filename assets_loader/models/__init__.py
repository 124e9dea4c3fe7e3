"""Model loaders: Quake alias models (``.mdl``) and sprites (``.spr``), Quake II ``.md2`` and ``.sp2``."""

from .anim import pick_interval
from .anorms import ANORMS, normal_vectors
from .mdl import (EF_GIB, EF_GRENADE, EF_ROCKET, EF_ROTATE, EF_TRACER, EF_TRACER2, EF_TRACER3, EF_ZOMGIB,
                  AliasFrame, AliasMesh, AliasModel, AliasSkin, PosedModel, load_mdl)
from .md2 import Md2Model, load_md2, load_md2_skins
from .sp2 import Sprite2Frame, Sprite2Model, load_sp2
from .spr import (SPR_FACING_UPRIGHT, SPR_ORIENTED, SPR_VP_PARALLEL, SPR_VP_PARALLEL_ORIENTED,
                  SPR_VP_PARALLEL_UPRIGHT, SpriteFrame, SpriteImage, SpriteModel, load_spr)

__all__ = [
    "ANORMS", "normal_vectors", "pick_interval",
    "AliasModel", "AliasSkin", "AliasFrame", "AliasMesh", "PosedModel", "load_mdl",
    "EF_ROCKET", "EF_GRENADE", "EF_GIB", "EF_ROTATE", "EF_TRACER", "EF_ZOMGIB", "EF_TRACER2", "EF_TRACER3",
    "SpriteModel", "SpriteFrame", "SpriteImage", "load_spr",
    "SPR_VP_PARALLEL_UPRIGHT", "SPR_FACING_UPRIGHT", "SPR_VP_PARALLEL", "SPR_ORIENTED", "SPR_VP_PARALLEL_ORIENTED",
    "Md2Model", "load_md2", "load_md2_skins", "Sprite2Model", "Sprite2Frame", "load_sp2",
]
