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
    assert loaded.lighting == assets.QUAKE2_LIGHTING and loaded.look.model_light == "ref_gl"
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


#: The pak's ``.md2`` names whose files are MD3 models.
AQTION_MD3_ITEMS = ("models/items/armor/jacket/tris.md2", "models/items/band/tris.md2",
                    "models/items/breather/tris.md2", "models/items/laser/tris.md2", "models/items/quiet/tris.md2",
                    "models/objects/gibs/head2/tris.md2", "models/objects/gibs/skull/tris.md2")


def test_md2_names_holding_md3_models_load_as_md3_with_checker_skins(fs: VirtualFS) -> None:
    from assets_loader.models.md3 import load_md3
    palette = assets.load_palette(fs)
    with pytest.warns(UserWarning, match="skin .* missing; drawing a checker"):
        loaded = assets.load_segment_assets(fs, ("", "maps/terminal.bsp", *AQTION_MD3_ITEMS,
                                                 "models/items/ammo/clip/tris.md2"))
    assert [ref.kind for ref in loaded.models[2:]] == ["md3"] * len(AQTION_MD3_ITEMS) + ["alias"]
    assert loaded.md3 is not None and set(loaded.md3.md3) == set(AQTION_MD3_ITEMS)
    jacket = loaded.md3.md3["models/items/armor/jacket/tris.md2"]
    direct = load_md3(fs.read("models/items/armor/jacket/tris.md2"), "models/items/armor/jacket/tris.md2")
    assert [s.name for s in jacket.surfaces] == [s.name for s in direct.surfaces] == ["i_belt", "i_kevlar"]
    assert np.array_equal(jacket.surfaces[1].positions, direct.surfaces[1].positions)
    # The pak lacks every skin these MD3s name (skin.png, gibs.tga): each is the checker of missing skins.
    checker = loaded.md3.images["models/items/armor/jacket/skin.png"]
    assert checker.shape == (16, 16, 4) and len(np.unique(checker.reshape(-1, 4), axis=0)) == 2
    assert np.array_equal(checker[0, 0], palette.to_rgba(np.uint8(15)))
    assert {s.shaders[0].lower() for m in loaded.md3.md3.values() for s in m.surfaces} \
        == set(loaded.md3.images)


def test_a_segment_without_md3_files_has_no_md3_models(fs: VirtualFS) -> None:
    loaded = assets.load_segment_assets(fs, ("", "maps/terminal.bsp", "models/items/ammo/clip/tris.md2"))
    assert loaded.md3 is None and loaded.models[2].kind == "alias"


def test_tga_skins_are_drawn_in_their_colours_and_pcx_names_fall_back(tmp_path) -> None:
    """The checker on TGA skins came from reading every skin as a PCX: a TGA skin now keeps its colours, and a
    skin name resolves under the other picture extensions (the pak itself names ``players/tris/gibs.tga``, which
    it lacks in every format: that one stays the checker)."""
    from PIL import Image
    (tmp_path / "action").symlink_to(QUAKE2 / "action")
    red = np.zeros((32, 32, 3), np.uint8)
    red[..., 0] = 220
    (tmp_path / "baseq2" / "players" / "sydney").mkdir(parents=True)
    Image.fromarray(red).save(tmp_path / "baseq2" / "players" / "sydney" / "red.tga")
    fs = game_filesystem(None, str(tmp_path), "action")
    ref = assets.load_model(fs, "players/sydney/tris.md2", ("players/sydney/red.tga", "players/sydney/sydney.tga"))
    alias = ref.alias   # the player MD2 names no skin: these two are skins 0 and 1
    assert alias is not None and alias.skin_rgba is not None and alias.skin_rgba.shape[0] == 2
    assert (alias.skin_rgba[0][..., 0] == 220).all() and (alias.skin_rgba[0][..., 1:3] == 0).all()
    sydney = load_pcx(fs.read("players/sydney/sydney.pcx")).indices      # "sydney.tga" is the PCX beside it
    rows = np.arange(alias.skin_height) * sydney.shape[0] // alias.skin_height
    cols = np.arange(alias.skin_width) * sydney.shape[1] // alias.skin_width
    assert np.array_equal(alias.skin_images[1], sydney[rows][:, cols])
    assert np.array_equal(alias.skin_rgba[1], assets.load_palette(fs).to_rgba(alias.skin_images[1]))
    client = assets.load_precache_model(fs, "players/sydney/red.pcx")   # a client's skin, drawn from red.tga
    assert client.alias is not None and client.alias.skin_rgba is not None and len(client.alias.skins) == 1
    with pytest.warns(UserWarning, match="players/tris/gibs.tga"):
        assert assets.load_model(fs, "models/objects/gibs/sm_meat/tris.md2").alias is not None


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
    assert loaded.models[-3].name == explosions.EXPLODE_MODEL and loaded.models[-3].kind == "null"
