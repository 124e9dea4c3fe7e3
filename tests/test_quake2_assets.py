"""Quake II's game package loads what a map or demo segment draws: the map, MD2/SP2 models, the sky box, the
palette; missing pieces are placeholders with warnings."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest

from assets_loader.demos import load_demo
from assets_loader.models import AliasModel, SpriteModel
from assets_loader.pcx import load_pcx
from assets_loader.vfs import VirtualFS
from tests.builders.quake2_images import build_pcx, ramp_palette
from tests.builders.quake2_models import build_md2, build_sp2
from tests.conftest import QUAKE2
from viewer.games.quake2 import assets, explosions, segment_models
from viewer.games.quake2.view import Quake2View
from viewer.games.registry import game_view
from viewer.session import game_filesystem, map_game_view


@pytest.fixture(scope="module")
def fs() -> VirtualFS:
    return game_filesystem(None, str(QUAKE2), "action")


def test_terminal_is_a_quake2_map_with_its_sky_and_palette(fs: VirtualFS) -> None:
    view = map_game_view(fs, "maps/terminal.bsp")
    assert isinstance(view, Quake2View) and isinstance(game_view("quake2"), Quake2View)
    loaded = view.load_map_assets(fs, "maps/terminal.bsp")
    assert loaded.world is not None and loaded.world.missing_textures == ()
    assert loaded.sky_box is not None and loaded.sky_box.name == loaded.world.worldspawn["sky"] == "wnight"
    assert loaded.sky_box.faces.shape[0] == 6 and loaded.sky_box.faces.shape[3] == 4
    assert loaded.lighting == assets.QUAKE2_LIGHTING
    pcx = load_pcx(fs.read("pics/colormap.pcx"))
    assert np.array_equal(view.load_palette(fs).rgb, pcx.palette.rgb)


def test_the_player_md2_is_an_alias_model_with_the_skins_it_is_given(fs: VirtualFS) -> None:
    with pytest.warns(UserWarning, match="none named"):   # player models name no skin of their own
        assert assets.load_model(fs, "players/sydney/tris.md2").alias is not None
    with pytest.warns(UserWarning, match="x.pcx"):
        ref = assets.load_model(fs, "players/sydney/tris.md2", ("players/sydney/sydney.pcx", "players/sydney/x.pcx"))
    assert ref.kind == "alias" and isinstance(ref.alias, AliasModel)
    md2 = __import__("assets_loader.models", fromlist=["load_md2"]).load_md2(fs.read("players/sydney/tris.md2"))
    assert ref.alias.num_frames == md2.num_frames and ref.alias.num_poses == md2.num_poses
    assert ref.alias.skin_images.shape == (2, md2.skin_height, md2.skin_width)
    sydney = load_pcx(fs.read("players/sydney/sydney.pcx")).indices
    assert ref.alias.skin_images[0][0, 0] == sydney[0, 0] and len(np.unique(ref.alias.skin_images[0])) > 50
    assert [ref.alias.pose_at(f, 0.0) for f in (0, 5, md2.num_frames - 1)] == [0, 5, md2.num_frames - 1]
    assert ref.alias.skin_image_at(0, 3.0) == 0


def test_missing_models_and_bad_names_are_placeholders_with_warnings(fs: VirtualFS) -> None:
    with pytest.warns(UserWarning, match="slippers"):
        assert assets.load_model(fs, "models/items/slippers/slippers.md2").kind == "missing"
    with pytest.warns(UserWarning, match="placeholder"):
        assert assets.load_model(fs, "*x").kind == "missing"
    assert assets.load_model(fs, "*3").submodel == 3
    assert assets.load_model(fs, "").kind == "none"


def test_sp2_frames_become_a_sprite_with_their_pictures(tmp_path) -> None:
    game = tmp_path / "baseq2"
    (game / "sprites").mkdir(parents=True)
    pic = np.arange(12, dtype=np.uint8).reshape(3, 4)
    (game / "sprites" / "a.pcx").write_bytes(build_pcx(pic, ramp_palette()))
    (game / "sprites" / "s.sp2").write_bytes(build_sp2([("sprites/a.pcx", 4, 3, 1, 2),
                                                         ("sprites/gone.pcx", 8, 8, 4, 4)]))
    fs = VirtualFS(str(tmp_path), None, base="baseq2")
    with pytest.warns(UserWarning, match="gone.pcx"):
        ref = assets.load_model(fs, "sprites/s.sp2")
    sprite = ref.sprite
    assert ref.kind == "sprite" and isinstance(sprite, SpriteModel) and sprite.num_frames == 2
    image = sprite.image_at(0, 0.0)
    assert np.array_equal(image.indices, pic)
    # origin (1, 2) of a 4x3 picture: it spans -1..3 to the right and -2..1 upwards (R_DrawSpriteModel)
    assert (image.left, image.right, image.down, image.up) == (-1.0, 3.0, -2.0, 1.0)


def test_a_sky_with_a_missing_face_is_no_sky_box(tmp_path) -> None:
    env = tmp_path / "baseq2" / "env"
    env.mkdir(parents=True)
    for suffix in assets.SKY_SUFFIXES[:5]:
        (env / f"s{suffix}.pcx").write_bytes(build_pcx(np.zeros((4, 4), np.uint8), ramp_palette()))
    fs = VirtualFS(str(tmp_path), None, base="baseq2")
    with pytest.warns(UserWarning, match="sky 's'"):
        assert assets.load_sky(fs, "s") is None
    (env / "sdn.pcx").write_bytes(build_pcx(np.zeros((8, 8), np.uint8), ramp_palette()))
    sky = assets.load_sky(VirtualFS(str(tmp_path), None, base="baseq2"), "s", 4.0, (0.0, 1.0, 0.0))
    assert sky is not None and sky.faces.shape == (6, 4, 4, 4) and sky.rotate == 4.0


def test_a_synthetic_md2_with_a_missing_skin_gets_a_checker(tmp_path) -> None:
    game = tmp_path / "baseq2" / "models"
    game.mkdir(parents=True)
    (game / "m.md2").write_bytes(build_md2())
    fs = VirtualFS(str(tmp_path), None, base="baseq2")
    with pytest.warns(UserWarning):
        ref = assets.load_model(fs, "models/m.md2")
    assert ref.kind == "alias" and ref.alias is not None and ref.alias.skin_images.shape[0] >= 1


def test_a_segment_takes_its_sky_from_the_configstrings(fs: VirtualFS) -> None:
    loaded = assets.load_segment_assets(fs, ("", "maps/terminal.bsp", "*1"), sky=("wnight", "2.5", "0 1 0"))
    assert loaded.sky_box is not None and (loaded.sky_box.rotate, loaded.sky_box.axis) == (2.5, (0.0, 1.0, 0.0))
    assert [m.kind for m in loaded.models] == ["none", "brush", "brush"] and loaded.models[2].submodel == 1
    odd = assets.sky_from_strings(fs, "wnight", "fast", "0 0 0")
    assert odd is not None and (odd.rotate, odd.axis) == (0.0, (0.0, 0.0, 1.0))
    with pytest.warns(UserWarning, match="nosuchsky"):
        assert assets.load_segment_assets(fs, ("", "maps/terminal.bsp"), sky=("nosuchsky", "0", "")).sky_box is None


def test_the_view_hands_the_segments_sky_configstrings_to_the_sky_box(fs: VirtualFS) -> None:
    demo = load_demo(str(QUAKE2 / "demos" / "AQtion-demo-guide.dm2"))
    segment = dataclasses.replace(demo.segments[0], sky=("wnight", "3", "1 0 0"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")              # the pak lacks some models the demo names
        loaded = Quake2View().load_segment_assets(fs, segment)
    assert loaded.sky_box is not None and loaded.sky_box.name == "wnight"
    assert (loaded.sky_box.rotate, loaded.sky_box.axis) == (3.0, (1.0, 0.0, 0.0))


def test_the_bandaging_demos_players_carry_the_paks_male_weapons(fs: VirtualFS) -> None:
    demo = load_demo(str(QUAKE2 / "demos" / "AQtion-bandaging-guide.dm2"))
    with pytest.warns(UserWarning, match="r_explode/tris.md2"):     # the pak has no explosion model
        loaded = Quake2View().load_segment_assets(fs, demo.segments[0])
    mk23 = loaded.models[segment_models.weapon_model_index(0, 1)]
    assert mk23.name == "players/male/w_mk23.md2" and mk23.kind == "alias"
    assert loaded.models[-3].name == explosions.EXPLODE_MODEL and loaded.models[-3].kind == "missing"
