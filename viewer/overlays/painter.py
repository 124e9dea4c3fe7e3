"""Drawing the enabled overlays over a picture: the one call made right after a picture (the window's view, a
multiview pane, a screenshot or a video frame), at any target size.

Order: x-ray outlines, names over heads, the minimap, the timers panel. Where things go comes from the pure
modules (:mod:`.names`, :mod:`.xray`, :mod:`.minimap`, :mod:`.item_timers`) and the picture's own projection
(:func:`~viewer.render.view_math.frame_view_projection`); drawing goes through the game's text
(:meth:`~viewer.games.base.GameView.name_tag` with the HUD's pictures; the UI font when they are missing), the
viewer's UI font and flat shapes.
"""

from __future__ import annotations

import numpy as np

from assets_loader.images import Image

from ..games import game_data
from ..picture import Picture
from ..render.context import OffscreenTarget
from ..render.flat2d import Flat2D, line_quads
from ..render.hud_overlay import HudRenderer
from ..render.ui_overlay import UiRenderer, conchars_rgba
from ..render.view_math import frame_view_projection
from ..session import DemoSession
from ..ui.timeline_bar import ui_scale
from .item_timers import ItemTimers
from .locations import map_locations
from .minimap import Floors, arrow, map_floors, walked_floors, placement, trail
from .name_text import has_pictures, ui_name_tag
from .names import name_tags
from .options import OverlayOptions
from .players import PlayerMark, player_marks
from .timers_panel import timers_layout
from .xray import outline_segments

#: A trail's step longer than this (units) is a teleport or a respawn: the trail breaks there.
TRAIL_BREAK = 200.0


class Overlays:
    """The overlays of ``session``'s pictures; GL resources are made on first use and kept (:meth:`release`)."""

    def __init__(self, session: DemoSession) -> None:
        self.session = session
        self.timers = ItemTimers(session.timeline)
        self._flat: Flat2D | None = None
        self._ui: UiRenderer | None = None
        self._hud: HudRenderer | None = None
        self._palette_rgb: np.ndarray | None = None
        self._floors: dict[tuple[int, str], Floors | None] = {}
        self._places: dict[str, tuple] = {}

    def draw(self, picture: Picture, target: OffscreenTarget, options: OverlayOptions) -> None:
        """Draw the overlays ``options`` enables over ``picture``, which was just drawn into ``target``."""
        session = self.session
        if not options.any or session.renderer is None:
            return
        self._prepare()
        size = target.size
        state = picture.state
        segment = max(state.segment, 0)
        schema = session.timeline.schema
        precache = session.timeline.segments[segment].model_precache
        marks = player_marks(state, schema, session.game.player_entities(state, precache), self._palette_rgb)
        view_proj = frame_view_projection(picture.frame, session.renderer.assets.look, size)
        camera = picture.frame.camera.origin
        target.use()
        if options.xray:
            watched = [m for m in marks if m.entity != int(state.view_entity)]
            self._draw_outlines(outline_segments(watched, view_proj, size, camera, schema.view_height), size)
        if options.names:
            self._draw_names(marks, view_proj, size, camera, options.xray)
        if options.minimap:
            self._draw_minimap(marks, picture, size)
        if options.timers:
            assert self._ui is not None
            game_map = session.game_map
            name = game_map.name if game_map is not None else ""
            if name not in self._places:
                self._places[name] = map_locations(game_map)
            places = self._places[name]
            self._ui.draw(timers_layout(self.timers.spots(segment), state.time, size, ui_scale(size), places), size)

    def _prepare(self) -> None:
        """Make the renderers on first use: flat shapes, the game's HUD pictures (names), the UI font."""
        if self._flat is not None:
            return
        session = self.session
        ctx = session.ctx
        with session.quiet():
            palette = session.game.load_palette(session.fs)
            pics = session.game.load_hud_pics(session.fs)
        conchars, font_palette = pics.get("conchars"), palette
        if not isinstance(conchars, Image):     # no game data: the bundled font
            conchars, font_palette = game_data.stand_in_font()
        self._palette_rgb = np.asarray(palette.rgb)
        self._flat = Flat2D(ctx)
        self._ui = UiRenderer(ctx, conchars_rgba(conchars, font_palette))
        self._hud = HudRenderer(ctx, palette, pics)

    def _draw_outlines(self, outlines: list, size: tuple[int, int]) -> None:
        assert self._flat is not None
        if not outlines:
            return
        width = max(2.0, size[1] / 360.0 * 1.5)
        points = [line_quads(segments, width) for segments, _ in outlines]
        colours = [np.tile((*colour, 0.9), (len(p), 1)) for p, (_, colour) in zip(points, outlines)]
        self._flat.draw(np.concatenate(points), np.concatenate(colours), size)

    def _draw_names(self, marks, view_proj: np.ndarray, size: tuple[int, int], camera, xray: bool) -> None:
        assert self._hud is not None
        session = self.session
        scale = ui_scale(size)
        tags = name_tags(marks, view_proj, size, camera, session.timeline.schema.view_height, session.game_map,
                         xray)
        for tag in tags:
            layout = session.game.name_tag(tag.mark.name, tag.x, tag.y, size, scale)
            if has_pictures(layout, self._hud.pic_size):
                self._hud.draw(layout, size)
            else:
                assert self._ui is not None
                text = ui_name_tag(tag.mark.name, tag.x, tag.y, 8 * scale, session.timeline.schema.color_codes)
                self._ui.draw(text, size)

    def _draw_minimap(self, marks: tuple[PlayerMark, ...], picture: Picture, size: tuple[int, int]) -> None:
        assert self._flat is not None
        session = self.session
        segment = max(picture.state.segment, 0)
        game_map = session.game_map
        key = (segment, game_map.name if game_map is not None else "")
        if key not in self._floors:
            floors = map_floors(game_map) if game_map is not None else None
            self._floors[key] = floors if floors is not None else walked_floors(session.timeline, segment)
        floors = self._floors[key]
        if floors is None:
            return
        place = placement(floors, size)
        x, y, w, h = place.rect
        points = [np.array([(x, y), (x + w, y), (x, y + h), (x, y + h), (x + w, y), (x + w, y + h)])]
        colours = [np.tile((0.0, 0.0, 0.0, 0.55), (6, 1))]
        if len(floors.triangles):
            points.append(place.to_pixels(floors.triangles).reshape(-1, 2))
            grey = np.repeat(0.25 + 0.45 * floors.shade, 3)
            colours.append(np.c_[grey, grey, grey, np.full(len(grey), 0.9)])
        width = max(1.5, h / 180.0)
        t = picture.state.time
        for mark in marks:
            path = trail(session.timeline, mark.slot, t, segment)
            if len(path) > 1:
                steps = np.stack([path[:-1, :2], path[1:, :2]], axis=1)
                steps = steps[np.linalg.norm(steps[:, 1] - steps[:, 0], axis=1) < TRAIL_BREAK]
                quads = line_quads(place.to_pixels(steps), width)
                if len(quads):
                    age = np.repeat(np.linspace(0.15, 0.8, len(steps)), 6)
                    points.append(quads)
                    colours.append(np.c_[np.tile(mark.colour, (len(quads), 1)), age])
        length = max(5.0, h / 20.0)
        for mark in marks:      # a dark rim first: a white or grey player stays seen on light floors
            centre = place.to_pixels(mark.origin[:2])
            points += [arrow(centre, mark.yaw, length * 1.45), arrow(centre, mark.yaw, length)]
            colours += [np.tile((0.0, 0.0, 0.0, 0.9), (3, 1)), np.tile((*mark.colour, 1.0), (3, 1))]
        self._flat.draw(np.concatenate(points), np.concatenate(colours), size)

    def release(self) -> None:
        for obj in (self._flat, self._ui, self._hud):
            if obj is not None:
                obj.release()
        self._flat = self._ui = self._hud = None
