"""Quake III mirrors and portals: the map entities become portal refEntities like the game makes them, and a
mirror surface shows the scene reflected, clipped at its plane, with the winding turned (GL tests on a tiny
built map)."""

from __future__ import annotations

import numpy as np

from viewer.render.shaded.painter import Q3View
from viewer.render.q3.world import Quake3WorldRenderer
from viewer.render.view_math import view_projection
from viewer.render.q3.portal import perpendicular_vector, portal_entities, portal_view, rotate_around
from viewer.render.refdef import Camera

from .builders.bsp46 import Bsp46Spec, build_bsp46, quad_verts, surface
from .test_render_q3world import ABOVE_QUAD, _render, _world

MIRROR_SCRIPT = ("textures/test/mirror\n{\n portal\n { map $whiteimage\n blendFunc GL_ZERO GL_ONE\n depthWrite }\n}\n"
                 "textures/test/red\n{\n { map $whiteimage\n rgbGen const ( 1 0 0 ) }\n}\n"
                 "textures/test/floor\n{\n { map $whiteimage }\n}\n")


def _mirror_map(entity: bool = True, extra_entities: str = "") -> bytes:
    """The builder's white floor quad (z = 0, x 100..164, y 0..64) with a mirror on it (z = 1, x 116..148,
    y 16..48), and a red quad 60 units above facing down (behind a camera looking down at the mirror, so seen
    only in it)."""
    spec = Bsp46Spec()
    spec.shaders += [("textures/test/mirror", 0, 1), ("textures/test/red", 0, 1)]
    spec.verts += quad_verts(100, 164, 0, 64, 60) + quad_verts(116, 148, 16, 48, 1)   # 20..23, 24..27
    spec.indexes += [0, 1, 2, 0, 2, 3] + [0, 2, 1, 0, 3, 2]   # the red quad counter-clockwise from above: down
    spec.surfaces[2] = surface(4, 1, 24, 4, 15, 6, lightmap=0)
    spec.surfaces[3] = surface(5, 1, 20, 4, 9, 6, lightmap=0, normal=(0.0, 0.0, -1.0))
    spec.visibility = b""
    if entity:
        spec.entities += '{\n"classname" "misc_portal_surface"\n"origin" "132 32 8"\n}\n'
    spec.entities += extra_entities
    return build_bsp46(spec)


def test_a_mirror_reflects_the_scene_on_the_viewers_side(ctx) -> None:
    pixels = _render(ctx, _world(_mirror_map(), MIRROR_SCRIPT), ABOVE_QUAD)
    assert np.abs(pixels[32, 32] - np.array([255, 0, 0])).max() <= 2, pixels[32, 32]
    assert pixels[32, 12].min() >= 250, pixels[32, 12]  # the main view draws over the mirror view around it
    # without its misc_portal_surface the engine draws no view through it: the cleared screen shows
    plain = _render(ctx, _world(_mirror_map(entity=False), MIRROR_SCRIPT), ABOVE_QUAD)
    assert plain[32, 32].max() <= 2 and plain[32, 12].min() >= 250, plain[32, 32]
    # a view through the mirror only from its front, looking at it
    renderer = Quake3WorldRenderer(ctx, _world(_mirror_map(), MIRROR_SCRIPT))
    try:
        def through(camera: Camera) -> Q3View | None:
            return renderer.portal_view(Q3View(view_projection(camera, 1.0), camera.origin, 0.0, camera.angles))

        seen = through(ABOVE_QUAD)
        assert seen is not None and seen.mirror and np.allclose(seen.camera, (132.0, 32.0, -38.0))
        assert through(Camera((132.0, 32.0, -40.0), (-90.0, 0.0, 0.0))) is None   # behind it
        assert through(Camera((132.0, 32.0, 40.0), (-90.0, 0.0, 0.0))) is None    # looking away
    finally:
        renderer.release()


def test_map_entities_become_mirrors_and_cameras() -> None:
    ents = ({"classname": "misc_portal_surface", "origin": "0 0 0"},
            {"classname": "misc_portal_surface", "origin": "100 0 0", "target": "cam"},
            {"classname": "misc_portal_camera", "origin": "500 0 64", "targetname": "cam", "target": "aim",
             "spawnflags": "4", "roll": "90"},
            {"classname": "target_position", "origin": "500 100 64", "targetname": "aim"},
            {"classname": "misc_portal_surface", "origin": "0 0 0", "target": "nowhere"})
    mirror, camera = portal_entities(ents)
    assert mirror.is_mirror and not camera.is_mirror
    assert camera.camera == (500.0, 0.0, 64.0) and np.allclose(camera.axis[0], (0.0, 1.0, 0.0))
    assert not camera.swing and camera.roll == 90.0
    assert np.allclose(np.cross(camera.axis[0], camera.axis[1]), camera.axis[2])


def test_a_mirror_view_reflects_points_and_clips_the_far_side() -> None:
    mirror = portal_entities(({"classname": "misc_portal_surface", "origin": "10 0 0"},))
    seen = portal_view((np.array([1.0, 0.0, 0.0]), 8.0), mirror, 0.0)
    assert seen is not None and seen.mirror
    assert np.allclose(seen.transform @ [20.0, 3.0, 4.0, 1.0], [-4.0, 3.0, 4.0, 1.0])
    normal, dist = np.array(seen.clip_plane[:3]), seen.clip_plane[3]
    assert normal @ [20.0, 0, 0] - dist > 0 > normal @ [0.0, 0, 0] - dist
    assert portal_view((np.array([1.0, 0.0, 0.0]), 200.0), mirror, 0.0) is None  # no entity within 64 units


def test_perpendicular_and_rotation_helpers() -> None:
    v = np.array([0.2, 0.9, 0.1])
    p = perpendicular_vector(v)
    assert abs(p @ v) < 1e-9 and abs(np.linalg.norm(p) - 1) < 1e-9
    assert np.allclose(rotate_around([1.0, 0, 0], [0, 0, 1.0], 90.0), [0.0, 1.0, 0.0])


def test_a_portal_shows_what_its_camera_sees(ctx) -> None:
    """The mirror surface aimed at a ``misc_portal_camera`` under the red quad, looking up at it: the portal
    shows the red quad's face; aimed down, the camera sees only the portal's own invisible surface, and the
    cleared screen shows."""
    camera = ('{\n"classname" "misc_portal_camera"\n"origin" "132 32 20"\n"targetname" "cam"\n"target" "aim"\n'
              '"spawnflags" "4"\n}\n')

    def portal_map(aim_z: float) -> bytes:
        entities = ('{\n"classname" "misc_portal_surface"\n"origin" "132 32 8"\n"target" "cam"\n}\n' + camera +
                    f'{{\n"classname" "target_position"\n"origin" "132 32 {aim_z}"\n"targetname" "aim"\n}}\n')
        return _mirror_map(entity=False, extra_entities=entities)

    # a camera portal is drawn within its shader's alphaGen portal range (none: never, as portalRange is 0)
    script = MIRROR_SCRIPT.replace("depthWrite }", "depthWrite\n alphaGen portal 512 }", 1)
    up = _render(ctx, _world(portal_map(100.0), script), ABOVE_QUAD)
    assert np.abs(up[32, 32] - np.array([255, 0, 0])).max() <= 2, up[32, 32]
    down = _render(ctx, _world(portal_map(-100.0), script), ABOVE_QUAD)
    assert down[32, 32].max() <= 2, down[32, 32]
    out_of_range = _render(ctx, _world(portal_map(100.0), MIRROR_SCRIPT), ABOVE_QUAD)
    assert out_of_range[32, 32].max() <= 2, out_of_range[32, 32]


def test_the_portal_view_is_limited_to_the_surface_on_screen() -> None:
    from viewer.render.shaded.painter import screen_extent

    vp = view_projection(ABOVE_QUAD, 1.0)  # 90 degrees from z = 40 down onto z = 0: x, y ± 40 around (132, 32)
    box = screen_extent(np.array([[112.0, 12.0, 0.0], [152.0, 52.0, 0.0]]), vp)
    assert box is not None and np.allclose(sorted(map(abs, box)), [0.5, 0.5, 0.5, 0.5], atol=1e-3)
    assert screen_extent(np.array([[132.0, 32.0, 80.0], [132.0, 32.0, 0.0]]), vp) is None  # one point behind the eye
