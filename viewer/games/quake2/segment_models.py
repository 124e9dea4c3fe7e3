"""The models a Quake II segment registers beyond its model configstrings: each client's visible weapons and the
temp-entity models, at places the entity linker can compute.

A segment's model list (:mod:`assets_loader.demos.quake2.parse`) holds the 256 model configstrings, then client
``s``'s skin at ``256 + s``.  After them, padded to :data:`WEAPON_MODEL_BASE`, come the weapon models: client ``s``'s
weapon ``k`` at ``WEAPON_MODEL_BASE + s × MAX_CLIENTWEAPONMODELS + k``, where weapon 0 is ``weapon.md2`` and weapon
``k`` the ``k``-th ``#`` model configstring (``#w_shotgun.md2``), read from the client's model directory
(``players/<model>/w_shotgun.md2``).  A weapon the directory lacks is the client's ``weapon.md2``, else
``players/male/weapon.md2``; when none exists it is a placeholder; a weapon number without a ``#`` model is
weapon 0.  The explosion models (:mod:`.explosions`) end the list, found by name; a missing one is drawn as Q2PRO
draws a model it could not load (``GL_DrawNullModel``: three short coloured axis lines, a ``"null"`` model), not as
a box.  Every model the game dirs lack is named in one warning.

References: Quake II 3.20 ``client/cl_view.c`` ``CL_PrepRefresh`` (``#`` models into ``cl_weaponmodels``),
``client/cl_parse.c`` ``CL_LoadClientinfo`` (``players/<model>/<weapon>``, the fallbacks), ``client/cl_ents.c``
``CL_AddPacketEntities`` (``modelindex2 == 255``), ``client/cl_tent.c`` ``CL_RegisterTEntModels``.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Sequence

from assets_loader.vfs import VirtualFS

from ...render.refdef import ModelRef, SegmentAssets
from .explosions import EFFECT_MODELS

CLIENT_MODEL_BASE = 256
WEAPON_MODEL_BASE = 512
MAX_CLIENTWEAPONMODELS = 20
DEFAULT_WEAPON = "weapon.md2"
BASE_CLIENT_WEAPON = "players/male/weapon.md2"


def weapon_model_index(client: int, weapon: int) -> int:
    """Where client ``client``'s weapon ``weapon`` sits in the segment's model list (a weapon number beyond the
    engine's 20 is weapon 0, as ``CL_AddPacketEntities`` reads it)."""
    if not 0 <= weapon < MAX_CLIENTWEAPONMODELS:
        weapon = 0
    return WEAPON_MODEL_BASE + client * MAX_CLIENTWEAPONMODELS + weapon


def weapon_files(model_precache: Sequence[str]) -> tuple[str, ...]:
    """``cl_weaponmodels``: ``weapon.md2``, then the ``#`` model configstrings in index order (at most 20 in all)."""
    names = [DEFAULT_WEAPON] + [n[1:] for n in model_precache[:CLIENT_MODEL_BASE] if n.startswith("#")]
    return tuple(names[:MAX_CLIENTWEAPONMODELS])


def client_model_dirs(model_precache: Sequence[str]) -> dict[int, str]:
    """Client slot → its model directory (``players/male``), from the skin entries after the 256 models."""
    out = {}
    for slot, name in enumerate(model_precache[CLIENT_MODEL_BASE:WEAPON_MODEL_BASE]):
        if name.lower().startswith("players/") and "/" in name[8:]:
            out[slot] = name.rsplit("/", 1)[0]
    return out


def _weapon_path(fs: VirtualFS, model_dir: str, weapon: str) -> str | None:
    for path in (f"{model_dir}/{weapon}", f"{model_dir}/{DEFAULT_WEAPON}", BASE_CLIENT_WEAPON):
        if fs.exists(path):
            return path
    return None


def extra_models(fs: VirtualFS, model_precache: Sequence[str], count: int,
                 load: Callable[[VirtualFS, str], ModelRef]) -> tuple[ModelRef, ...]:
    """The models after the first ``count`` entries: padding, the clients' weapons and the explosion models (each
    file loaded once with ``load``; missing ones as placeholders, named in one warning)."""
    loaded: dict[str, ModelRef] = {}
    missing: list[str] = []

    def get(path: str | None, wanted: str, placeholder: str = "missing") -> ModelRef:
        if path is None:
            missing.append(wanted)
            return ModelRef(wanted, placeholder)
        if path not in loaded:
            loaded[path] = load(fs, path)
        return loaded[path]

    out: list[ModelRef] = [ModelRef("", "none")] * max(WEAPON_MODEL_BASE - count, 0)
    dirs = client_model_dirs(model_precache)
    weapons = weapon_files(model_precache)
    for slot in range(max(dirs, default=-1) + 1):
        model_dir = dirs.get(slot)
        if model_dir is None:
            out += [ModelRef("", "none")] * MAX_CLIENTWEAPONMODELS
            continue
        refs = [get(_weapon_path(fs, model_dir, w), f"{model_dir}/{w}") for w in weapons]
        out += refs + [refs[0]] * (MAX_CLIENTWEAPONMODELS - len(refs))     # unknown numbers: weapon 0
    for name in EFFECT_MODELS:
        out.append(get(name if fs.exists(name) else None, name, "null"))
    if missing:
        unique = sorted(set(missing))
        warnings.warn(f"{len(unique)} player weapon or effect models missing ({', '.join(unique[:4])}"
                      f"{'…' if len(unique) > 4 else ''}); drawing placeholders", stacklevel=2)
    return tuple(out)


def with_extra_models(fs: VirtualFS, assets: SegmentAssets, model_precache: Sequence[str],
                      load: Callable[[VirtualFS, str], ModelRef]) -> SegmentAssets:
    """``assets`` with :func:`extra_models` after its models."""
    more = extra_models(fs, model_precache, len(assets.models), load)
    return dataclasses.replace(assets, models=assets.models + more)
