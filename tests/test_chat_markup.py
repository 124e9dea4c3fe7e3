"""QuakeWorld chat markup (ezQuake ``TP_ParseWhiteText`` and ``&cRGB`` colours): the pure parser, the notify
lines built from chat prints of the real 2on2 MVD, and the coloured character quads of the HUD."""

from __future__ import annotations

from types import MappingProxyType

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from assets_loader.demos.events import PrintEvent
from assets_loader.demos.schema import STAT_NAMES
from assets_loader.demos.timeline import EntityStates, SceneState
from tests.conftest import QUAKEWORLD
from viewer.games.quake.chat_markup import (ColouredText, chat_text, colour_codes, colour_runs, name_offset,
                                            white_text)
from viewer.games.quake.hud import build_hud, notify_lines, notify_rows

MVD = QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd"
RED, YELLOW = (1.0, 0.0, 0.0), (1.0, 1.0, 0.0)


def _bronze(text: str) -> str:
    return "".join(chr(ord(c) | 128) for c in text)


def test_white_text_braces_are_white_the_rest_bronze() -> None:
    assert white_text("Bob: took {ra} x\n", offset=5) == _bronze("Bob: took ") + "ra" + _bronze(" x") + "\n"


def test_white_text_ignores_braces_before_the_offset_and_unclosed_ones() -> None:
    assert white_text("{a}: {b}", offset=4) == _bronze("{a}: ") + "b"
    assert white_text("x {open", offset=0) == _bronze("x {open")


def test_white_text_keeps_the_leading_marker_and_line_breaks() -> None:
    assert white_text("\x01a\rb\n") == "\x01" + _bronze("a") + "\r" + _bronze("b") + "\n"


def test_colour_codes_set_and_reset_colours() -> None:
    out = colour_codes("&cf00ra&cfffx&cFF0y&rz")
    assert out.text == "raxyz"
    assert out.colours == (RED, RED, None, YELLOW, None)


def test_colour_codes_leave_malformed_codes_as_text() -> None:
    assert colour_codes("&cfg0a&").text == "&cfg0a&"
    assert colour_codes("&c12").text == "&c12"


def test_chat_text_of_a_real_ktx_message() -> None:
    text = ": Timber {&cff0help&cfff} {&cff0[&cfff}{low-rl}{&cff0]&cfff} {1}\n"
    out = chat_text(text)
    assert "{" not in out.text and "&" not in out.text
    assert out.text == _bronze(": Timber ") + "help" + _bronze(" ") + "[low-rl]" + _bronze(" ") + "1\n"
    runs = colour_runs(out)
    assert [(r[1], r[2]) for r in runs if r[2] is not None] == [("help", YELLOW), ("[", YELLOW), ("]", YELLOW)]
    assert "".join(r[1] for r in runs) == out.text
    assert name_offset("Bob: {x}") == 5 and name_offset("no sender") == 0


def test_colour_runs_cover_the_line_in_order() -> None:
    line = ColouredText("abcd", (None, RED, RED, None))
    assert colour_runs(line) == ((0, "a", None), (1, "bc", RED), (3, "d", None))
    assert colour_runs(ColouredText.plain("")) == ()


@given(st.text(alphabet=st.sampled_from("{}&cfr0a9: \n\x01"), max_size=40))
def test_markup_never_fails_and_keeps_one_colour_per_character(text: str) -> None:
    out = chat_text(text)
    assert len(out.colours) == len(out.text)
    assert sum(len(r[1]) for r in colour_runs(out)) == len(out.text)


def _state(t: float) -> SceneState:
    values = dict.fromkeys(STAT_NAMES, 0)
    values.update(health=100)
    empty = EntityStates.empty()
    return SceneState(t, -1, 0, 1.0, 1, np.zeros(3), np.zeros(3), empty, empty, MappingProxyType(values),
                      ("",) * 64, ())


def test_hud_draws_chat_in_bronze_with_coloured_runs() -> None:
    events = [PrintEvent(1.0, 0, 0, "(: Sujoy): \r: Sujoy took {&cf00ra&cfff} \x10{secret}\x11\n", level=3),
              PrintEvent(1.5, 0, 0, "plain print\n", level=2)]
    assert notify_lines(events, 2.0) == (_bronze(": Sujoy took ") + "ra" + _bronze(" \x10") + "secret" + "\x91",
                                         "plain print")
    layout = build_hud(_state(2.0), events, (640, 480), 1)
    first_row = [q for q in layout.quads if q.kind == "char" and q.y == 0]
    red = [chr(int(q.ref)) for q in first_row if q.tint == RED]
    assert "".join(red) == "ra"
    assert all(q.tint == (1.0, 1.0, 1.0) for q in first_row if chr(int(q.ref)) != "r" and chr(int(q.ref)) != "a")


@pytest.fixture(scope="module")
def mvd_events():
    from assets_loader.demos import load_demo
    return load_demo(MVD).events


def test_real_mvd_chat_shows_no_raw_markup(mvd_events) -> None:
    chats = [e for e in mvd_events if e.kind == "print" and e.level == 3 and "{&c" in e.text]
    assert len(chats) > 20
    coloured = 0
    for e in chats[:40]:
        rows = notify_rows(mvd_events, e.time + 0.01, frame=e.frame)
        assert rows, e
        for row in rows:
            assert "{&c" not in row.text and "&cfff" not in row.text
        coloured += sum(1 for row in rows for c in row.colours if c is not None)
    assert coloured > 40
