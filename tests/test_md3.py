"""MD3 models and Quake III players: builder round trips, normals, frame and tag lerp, animation.cfg with the
legs/torso split, skins, tag assembly, and every MD3 and demo player model of the real pk3."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from assets_loader.bsp46 import LIGHTMAP_NONE
from assets_loader.errors import BadIndexError, BadMagicError, FormatError, TruncatedError
from assets_loader.models.md3 import TAGS_KEPT, decode_normals, lerp_vertices, load_md3
from assets_loader.models.q3player import (
    ANIM,
    WEAPON_MODELS,
    Animation,
    animation_frame,
    animation_number,
    attach,
    load_player,
    parse_animation_cfg,
    parse_skin,
    pose_player,
)
from assets_loader.q3images import ImageLoader, default_image
from assets_loader.q3shaders import load_shader_library
from tests.builders.md3 import Md3Spec, build_md3, triangle_surface
from tests.builders.q3text import animation_cfg

ROT_Z90 = [[0, 1, 0], [-1, 0, 0], [0, 0, 1]]


def _tagged_model() -> bytes:
    tags = {"tag_torso": [((0, 0, 10), np.eye(3)), ((0, 0, 20), ROT_Z90)]}
    return build_md3(Md3Spec(tags=tags, surfaces=[triangle_surface()]))


def test_round_trip() -> None:
    md3 = load_md3(_tagged_model(), "t.md3")
    assert md3.num_frames == 2 and [f.name for f in md3.frames] == ["f0", "f1"]
    assert md3.tag_names == ("tag_torso",)
    (surf,) = md3.surfaces
    assert surf.name == "s_body" and surf.shaders == ("models/test/skin.tga",)
    assert surf.triangles.tolist() == [[0, 1, 2]] and surf.st.tolist() == [[0, 0], [1, 0], [0, 1]]
    assert surf.positions[1].tolist() == [[1, 0, 0], [17, 0, 0], [1, 16, 8.5]]
    assert surf.normals[0].tolist() == [[0, 0, 1]] * 3


def test_normal_decoding() -> None:
    # latitude 64 (90°) and longitude 64 (90°): +y; latitude 0, longitude 128: -z.
    out = decode_normals(np.array([(64 << 8) | 64, 128], np.uint16))
    assert out == pytest.approx(np.array([[0, 1, 0], [0, 0, -1]]), abs=1e-6)


def test_frame_and_tag_lerp() -> None:
    md3 = load_md3(_tagged_model())
    pos, nrm = lerp_vertices(md3.surfaces[0], 0, 1, 0.25)
    assert pos[0].tolist() == [0.25, 0, 0] and nrm[0].tolist() == [0, 0, 1]
    tag = md3.lerp_tag("tag_torso", 0, 1, 0.5)
    assert tag is not None
    origin, axis = tag
    assert origin.tolist() == [0, 0, 15]
    assert np.linalg.norm(axis, axis=1) == pytest.approx([1, 1, 1])
    assert md3.lerp_tag("tag_none", 0, 1, 0.5) is None


def test_tag_lerp_kept() -> None:
    """A tag asked for again is the answer kept (read-only), equal to a fresh model's; the answers kept stay at
    most TAGS_KEPT."""
    md3, fresh = load_md3(_tagged_model()), load_md3(_tagged_model())
    first = md3.lerp_tag("tag_torso", 0, 1, 0.3)
    assert first is not None and md3.lerp_tag("tag_torso", 0, 1, 0.3) is first
    again = fresh.lerp_tag("tag_torso", 0, 1, 0.3)
    assert again is not None and all(np.array_equal(x, y) and x.dtype == y.dtype for x, y in zip(first, again))
    assert not first[0].flags.writeable and not first[1].flags.writeable
    for k in range(TAGS_KEPT + 10):
        md3.lerp_tag("tag_torso", 0, 1, k / (TAGS_KEPT + 10))
    assert len(md3.tags_lerped) <= TAGS_KEPT


def test_attach_on_tag() -> None:
    parent = (np.array([100, 0, 0], np.float32), np.array(ROT_Z90, np.float32))
    tag = (np.array([10, 0, 5], np.float32), np.eye(3, dtype=np.float32))
    origin, axis = attach(parent, tag)
    assert origin.tolist() == [100, 10, 5]  # the tag's forward offset turned by the parent's yaw
    assert axis.tolist() == ROT_Z90


@pytest.mark.parametrize("mutate, error", [
    (lambda d: b"IDP2" + d[4:], BadMagicError),
    (lambda d: d[:4] + (16).to_bytes(4, "little") + d[8:], BadMagicError),
    (lambda d: d[:200], TruncatedError),
    (lambda d: d[:76] + (5000).to_bytes(4, "little") + d[80:], BadIndexError),
])
def test_bad_files(mutate, error) -> None:
    with pytest.raises(error):
        load_md3(mutate(_tagged_model()))


def test_bad_triangle_index() -> None:
    surf = triangle_surface()
    surf.triangles = np.array([[0, 1, 3]], np.int32)
    with pytest.raises(BadIndexError, match="triangle 0"):
        load_md3(build_md3(Md3Spec(surfaces=[surf])))


ROWS = ([(0, 30, 0, 25), (29, 1, 0, 25)] * 3 + [(90, 40, 0, 20), (130, 6, 0, 15), (136, 6, 0, 15), (142, 5, 0, 20),
        (147, 4, 0, 20), (151, 1, 0, 15), (152, 1, 0, 15), (153, 8, 8, 20), (161, 12, 12, 20), (173, 9, 9, 15),
        (182, 10, 10, 18), (185, 10, 10, 15), (202, 8, 0, 15), (211, 8, 0, 20), (219, 9, 0, 15), (228, 6, 0, 20),
        (234, 10, 10, 10), (244, 10, 10, 10), (254, -7, 7, 18)])


def test_animation_cfg_legs_torso_split() -> None:
    cfg = parse_animation_cfg(animation_cfg(ROWS, "sex f\nfootsteps boot\nheadoffset 0 0.5 -4\nfixedtorso\n"))
    a = cfg.animations
    assert (cfg.sex, cfg.footsteps, cfg.head_offset, cfg.fixed_torso) == ("f", "boot", (0, 0.5, -4), True)
    assert a[ANIM["TORSO_GESTURE"]] == Animation(90, 40, 0, 50)
    skip = 153 - 90  # LEGS_WALKCR.first - TORSO_GESTURE.first
    assert a[ANIM["LEGS_WALKCR"]].first_frame == 153 - skip and a[ANIM["LEGS_RUN"]].first_frame == 173 - skip
    assert a[ANIM["LEGS_RUN"]].frame_lerp == 66  # int(1000 / 15)
    assert a[ANIM["LEGS_TURN"]].reversed and a[ANIM["LEGS_TURN"]].num_frames == 7
    assert a[ANIM["TORSO_GETFLAG"]] == a[ANIM["TORSO_GESTURE"]]  # missing team-arena rows copy the gesture
    assert a[ANIM["LEGS_BACKWALK"]].reversed and a[ANIM["LEGS_BACKWALK"]].first_frame == 161 - skip
    with pytest.raises(FormatError):
        parse_animation_cfg(animation_cfg(ROWS[:10]))


def test_animation_frames() -> None:
    loop = Animation(100, 4, 4, 50)
    assert animation_frame(loop, 0) == (100, 101, 0.0)
    assert animation_frame(loop, 75) == (101, 102, 0.5)
    assert animation_frame(loop, 175)[:2] == (103, 100)  # wraps within the looping frames
    once = Animation(10, 3, 0, 100)
    assert animation_frame(once, 150)[:2] == (11, 12)
    assert animation_frame(once, 10_000) == (12, 12, 0.0)  # holds the last frame
    partial = Animation(0, 5, 2, 100)
    assert [animation_frame(partial, t * 100)[0] for t in range(9)] == [0, 1, 2, 3, 4, 3, 4, 3, 4]
    backwards = Animation(20, 3, 3, 100, reversed=True)
    assert animation_frame(backwards, 0)[:2] == (22, 21)
    assert animation_number(ANIM["LEGS_RUN"] | 128) == ANIM["LEGS_RUN"]


def test_skin_file() -> None:
    skin = parse_skin("tag_head,\nU_Torso,models/players/x/torso.tga\nh_head,\"models/players/x/head.tga\"\n\n")
    assert skin == {"u_torso": "models/players/x/torso.tga", "h_head": "models/players/x/head.tga"}


def test_every_real_md3_loads(q3_fs) -> None:
    names = q3_fs.list("*.md3")
    assert len(names) == 126
    for name in names:
        md3 = load_md3(q3_fs.read(name), name)
        assert md3.num_frames >= 1
        for s in md3.surfaces:
            assert s.positions.shape == (md3.num_frames, len(s.st), 3)
            assert np.isfinite(s.positions).all()
    # The demos' weapons (SOURCES.md): each has the tag its barrel or muzzle flash hangs on.
    for number in (1, 2, 3, 4, 5, 6, 8):
        path = WEAPON_MODELS[number]
        assert {"tag_barrel", "tag_flash"} & set(load_md3(q3_fs.read(path), path).tag_names)


DEMO_PLAYERS = ["sarge", "smarine", "major", "angelyss", "sarge/classic", "angelyss/tanisha", "kyonshi", "penguin"]


@pytest.fixture(scope="module")
def q3_shaders(q3_fs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_shader_library(q3_fs)


@pytest.mark.parametrize("name", DEMO_PLAYERS)
def test_demo_player_models_assemble(q3_fs, q3_shaders, name) -> None:
    player = load_player(q3_fs, name)
    assert player.skin == (name.split("/")[1] if "/" in name else "default")
    anims = player.animations.animations
    legs = animation_frame(anims[ANIM["LEGS_RUN"]], 120)
    torso = animation_frame(anims[ANIM["TORSO_STAND"]], 120)
    assert max(legs[:2]) < player.lower.num_frames and max(torso[:2]) < player.upper.num_frames
    yaw90 = np.array(ROT_Z90, np.float32)
    pose = pose_player(player, (100, 200, 24), yaw90, legs, torso)
    legs_origin = pose.transforms["lower"][0]
    torso_origin = pose.transforms["upper"][0]
    head_origin = pose.transforms["head"][0]
    tag = player.lower.lerp_tag("tag_torso", *legs)
    assert tag is not None
    assert torso_origin == pytest.approx(legs_origin + tag[0] @ yaw90, abs=1e-4)
    assert head_origin[2] > legs_origin[2]  # the head sits above the legs' origin
    assert pose.weapon is not None
    # Every surface gets a shader from the skin (or the model); it is scripted or names an image in the pk3.
    for part, md3 in (("lower", player.lower), ("upper", player.upper), ("head", player.head)):
        for s in md3.surfaces:
            shader_name = player.surface_shader(part, s.name, s.shaders[0] if s.shaders else "")
            assert shader_name, f"{name} {part} {s.name} has no shader"
            shader = q3_shaders.find(shader_name, LIGHTMAP_NONE)
            for image in shader.image_names():
                assert q3_fs.find_image(image) is not None, (shader_name, image)


def test_unknown_skin_falls_back_to_default(q3_fs) -> None:
    player = load_player(q3_fs, "Sarge/NoSuchSkin")
    assert (player.model, player.skin) == ("sarge", "default")
    assert player.skins["upper"] == {"u_torso": "models/players/grism/enkiskin.tga"}


def test_missing_images_fall_back_to_the_default_grid(q3_fs) -> None:
    # SOURCES.md: these are registered by the game but shipped by no OpenArena pk3.
    loader = ImageLoader(q3_fs)
    names = ["gfx/2d/crosshair10", "poopypants", "teleporterEffect"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for name in names + names:
            assert (loader.load(name) == default_image()).all()
    assert loader.missing == [n.lower() for n in names] and len(caught) == 3
    assert loader.load("textures/oafx/rocketflare").shape[2] == 4  # the one SOURCES.md says was added
