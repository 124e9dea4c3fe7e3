"""Quake III colour codes (issue 29, item 3): drawn as the cgame draws them in the HUD, left out of plain text
(``qdv info`` / ``qdv events``, the timeline's tooltips), kept raw in JSON beside the clean names."""

from __future__ import annotations

import json

import pytest

from assets_loader.demos import load_demo
from assets_loader.demos.events import plain_line
from assets_loader.demos.quake3.colors import (
    COLOR_TABLE,
    color_index,
    colored_chars,
    is_color_string,
    strip_colors,
    visible_len,
)
from viewer.cli import main
from viewer.games.quake3 import hud
from viewer.viewer_state import TimelineInfo

from .conftest import DATA, QUAKE2

OSP = DATA / "public" / "quake3" / "osp_duel_1.dm_68"
COOLLER = "^2t^9erritory^2.^9ru^0I^7Cooller"          # slot 0 of osp_duel_1, followed for its first 90 s
RED, GREEN, BLACK, WHITE = COLOR_TABLE[1], COLOR_TABLE[2], COLOR_TABLE[0], COLOR_TABLE[7]


@pytest.fixture(scope="module")
def osp():
    return load_demo(str(OSP))


def test_codes_are_a_caret_and_any_other_character() -> None:
    assert strip_colors("^1A^2n^3a") == "Ana"
    assert strip_colors("a^^1b") == "a^b"          # "^^" is no code: the second caret starts one
    assert strip_colors("50^") == "50^"            # nor a caret at the end
    assert strip_colors("^x^ ok") == "ok"          # any character but '^' makes a code
    assert is_color_string("^1", 0) and not is_color_string("^^", 0) and not is_color_string("^", 0)
    assert [color_index(c) for c in "01234567"] == list(range(8))
    assert color_index("9") == 1 and color_index("a") == 1 and color_index("x") == 0   # (c - '0') & 7
    assert visible_len(COOLLER) == len("territory.ruICooller") == 20
    assert colored_chars("^1A^7b", GREEN) == [("A", RED), ("b", WHITE)]
    assert colored_chars("ab", GREEN) == [("a", GREEN), ("b", GREEN)]


def test_plain_lines_leave_out_codes_only_in_games_that_have_them() -> None:
    assert plain_line("^1A^2n^3a\nby me\n", color_codes=True) == "Ana by me"
    assert plain_line("a^1b", color_codes=False) == "a^1b"


def test_qdv_info_prints_clean_names_and_json_keeps_them_raw(capsys) -> None:
    assert main(["info", str(OSP)]) == 0
    text = capsys.readouterr().out
    assert "player 0: territory.ruICooller  frags" in text and "^" not in text
    assert 'server "' in text and 'server ""' not in text             # sv_hostname, Quake III's server name
    assert main(["info", "--json", str(OSP)]) == 0
    players = {p["slot"]: p for p in json.loads(capsys.readouterr().out)["players"]}
    assert (players[0]["name"], players[0]["name_raw"]) == ("territory.ruICooller", COOLLER)
    assert (players[4]["name"], players[4]["name_raw"]) == ("iTG'DeeAy", "^1iTG^0'^1D^7ee^1A^7y")


def test_qdv_events_prints_clean_names_and_json_keeps_them_raw(capsys) -> None:
    assert main(["events", "--kind", "chat", "--kind", "obituary", str(OSP)]) == 0
    text = capsys.readouterr().out
    assert 'sender="territory.ruICooller"' in text and "^" not in text
    assert main(["events", "--json", "--kind", "chat", "--kind", "obituary", str(OSP)]) == 0
    events = json.loads(capsys.readouterr().out)
    chat = next(e for e in events if e["kind"] == "chat")
    assert (chat["sender"], chat["sender_raw"]) == ("territory.ruICooller", COOLLER)
    assert chat["text"] == strip_colors(chat["text_raw"]) and "^" not in chat["text"]
    kill = next(e for e in events if e["kind"] == "obituary" and e["killer"] == "territory.ruICooller")
    assert kill["killer_raw"] == COOLLER and "^" not in kill["text"]
    assert kill["text_raw"].startswith(kill["victim_raw"] + "^7 ")          # CG_Obituary's white after the name


def test_quake2_level_names_with_a_line_break_stay_on_one_line(capsys) -> None:
    assert main(["info", str(QUAKE2 / "demos" / "AQtion-demo-guide.dm2")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert '  map 0: terminal "Terminal by WizardExt" 1233 frames, 256 models, 171 sounds, maxclients 8' in lines


def test_the_timeline_tooltips_have_no_codes(osp) -> None:
    markers = TimelineInfo.of(osp).markers
    assert any("territory.ruICooller" in m.label for m in markers)
    assert not any("^" in m.label for m in markers)


def _glyphs(layout, height: int, shadowed: bool = False) -> list[tuple[int, str, tuple[float, float, float]]]:
    """``(x, character, colour)`` of the HUD glyphs ``height`` pixels tall (of ``shadowed`` text: without the
    black shadows)."""
    out = []
    for q in layout.quads:
        if str(q.ref).startswith("q3char") and q.h == height and not (shadowed and tuple(q.tint) == BLACK):
            out.append((q.x, chr(int(str(q.ref).split("/")[1])), tuple(q.tint)))
    return sorted(out)


def test_the_hud_draws_a_coloured_chat_line_in_its_colours(osp) -> None:
    chat = osp.events_of_kind("chat")[0]
    layout = hud.hud_layout(osp.sample(chat.time + 0.1), osp, (1280, 720), 2)
    line = [g for g in _glyphs(layout, 16) if g[0] < 640]          # the notify line, 8 × 16 pixels a character
    text = "".join(c for _, c, _ in line)
    assert text.startswith("territory.ruICooller:") and "^" not in text
    colours = [c for _, _, c in line]
    assert colours[0] == GREEN and colours[1] == RED          # "^2t^9erritory": ColorIndex('9') is red
    assert colours[text.index("I")] == BLACK                  # "^0I"
    assert colours[text.index(":")] == WHITE                   # the sender's name ends in white


def test_a_long_coloured_name_is_centred_by_its_visible_length(osp) -> None:
    """CG_DrawFollow: 20 giant letters of 32 units fill the 640 exactly; counting the codes pushed the name's
    first 6 letters off the left edge."""
    state = osp.sample(osp.start_time + 20.0)
    assert int(state.stats["clientNum"]) == 0
    giant = _glyphs(hud.hud_layout(state, osp, (640, 480), 1), 48, shadowed=True)
    assert "".join(c for _, c, _ in giant) == "territory.ruICooller"
    assert giant[0][0] == 0 and {c for _, _, c in giant} == {WHITE}      # forceColor: the name in white


def test_pov_takes_a_coloured_players_name_as_printed() -> None:
    from viewer.video.options import OptionError, resolve_pov

    duel = load_demo(str(DATA / "public" / "quake3" / "cpma_duel.dm_68"))
    assert resolve_pov(duel, ">sylver<") == 2 == resolve_pov(duel, "^7^4>^7Sylver^4<")
    with pytest.raises(OptionError, match=r"has 1 \(myT\), 2 \(>Sylver<\)$"):
        resolve_pov(duel, "nobody")
