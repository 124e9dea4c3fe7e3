"""The one map interface (:class:`assets_loader.game_map.GameMap`) answered by the three map kinds on real corpus
maps: Quake's ``lqdm3``, Quake II's ``terminal`` (Action) and Quake III's ``oa_dm1``, asked the same questions at
every player start."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.bsp import load_bsp
from assets_loader.bsp38 import load_bsp38
from assets_loader.bsp46 import load_bsp46
from assets_loader.game_map import Contents, GameMap
from assets_loader.pak import load_pak
from assets_loader.vfs import QUAKE2_BASE_GAME, VirtualFS
from tests.conftest import LQ1, QUAKE2


def _quake() -> GameMap:
    return load_bsp(load_pak(LQ1 / "pak0.pak").read("maps/lqdm3.bsp"), "maps/lqdm3.bsp")


def _quake2() -> GameMap:
    fs = VirtualFS(QUAKE2, "action", base=QUAKE2_BASE_GAME)
    return load_bsp38(fs.read("maps/terminal.bsp"), "maps/terminal.bsp", fs)


@pytest.fixture(scope="module", params=["quake", "quake2", "quake3"])
def game_map(request) -> GameMap:
    if request.param == "quake":
        return _quake()
    if request.param == "quake2":
        return _quake2()
    fs = request.getfixturevalue("q3_fs")
    return load_bsp46(fs.read("maps/oa_dm1.bsp"), "maps/oa_dm1.bsp")


def _starts(map_: GameMap) -> list[np.ndarray]:
    """Origins of the map's player starts (deathmatch ones included, not the intermission's camera spot)."""
    return [np.array([float(v) for v in e["origin"].split()]) for e in map_.entities
            if e.get("classname") in ("info_player_start", "info_player_deathmatch") and "origin" in e]


def test_the_map_has_a_worldspawn_and_player_starts(game_map: GameMap) -> None:
    assert game_map.worldspawn["classname"] == "worldspawn"
    assert game_map.entities[0] is game_map.worldspawn
    assert len(_starts(game_map)) >= 2


def test_submodel_0_is_the_world_and_holds_every_player_start(game_map: GameMap) -> None:
    world = game_map.submodels[0]
    assert [m.index for m in game_map.submodels] == list(range(len(game_map.submodels)))
    mins, maxs = game_map.bounds
    assert tuple(mins) == pytest.approx(world.mins) and tuple(maxs) == pytest.approx(world.maxs)
    for start in _starts(game_map):
        assert (np.asarray(world.mins) <= start).all() and (start <= np.asarray(world.maxs)).all()


def test_a_line_down_from_each_start_stops_on_the_floor(game_map: GameMap) -> None:
    for start in _starts(game_map):
        tr = game_map.trace(start, start - (0.0, 0.0, 4096.0))
        assert not tr.start_solid and 0.0 < tr.fraction < 1.0 and tr.hit_contents != 0
        floor = np.asarray(tr.end)
        assert floor[:2] == pytest.approx(start[:2]) and start[2] - 64.0 < floor[2] < start[2]
        assert game_map.contents(floor) == Contents.EMPTY   # the line stops short of the floor
        assert game_map.contents(floor - (0.0, 0.0, 2.0)) & Contents.SOLID   # just below it: inside
        assert game_map.trace(floor + (0.0, 0.0, 16.0), floor).fraction == 1.0


def test_contents_are_empty_at_a_start_and_solid_outside_the_map(game_map: GameMap) -> None:
    mins, maxs = game_map.bounds
    for start in _starts(game_map):
        assert game_map.contents(start) == Contents.EMPTY
    outside = np.array([mins[0] - 1000.0, mins[1] - 1000.0, maxs[2] + 1000.0])
    assert game_map.point_cluster(outside) == -1


def test_light_at_each_start_is_positive(game_map: GameMap) -> None:
    for start in _starts(game_map):
        light = game_map.light_at(start)
        assert light is not None and light.shape == (3,) and float(light.sum()) > 0


def test_each_start_is_in_a_leaf_and_a_cluster_that_sees_itself(game_map: GameMap) -> None:
    for start in _starts(game_map):
        leaf = game_map.point_leaf(start)
        cluster = game_map.point_cluster(start)
        assert leaf >= 0 and 0 <= cluster < game_map.num_clusters
        pvs = game_map.cluster_pvs(cluster)
        assert pvs.shape == (game_map.num_clusters,) and pvs[cluster] and not pvs.all()
    assert game_map.cluster_pvs(-1).all()


def test_only_quake_leafs_carry_ambient_sound_levels(game_map: GameMap) -> None:
    start = _starts(game_map)[0]
    levels = game_map.ambient_levels(start)
    if game_map.name.endswith("lqdm3.bsp"):
        assert levels is not None and levels.shape == (4,)
    else:
        assert levels is None


def test_quake_cluster_pvs_is_its_leaf_pvs() -> None:
    world = load_bsp(load_pak(LQ1 / "pak0.pak").read("maps/lqdm3.bsp"), "maps/lqdm3.bsp")
    leaf = world.point_leaf(_starts(world)[0])
    assert world.point_cluster(_starts(world)[0]) == leaf - 1
    assert (np.flatnonzero(world.cluster_pvs(leaf - 1)) + 1 == np.flatnonzero(world.leaf_pvs(leaf))).all()
