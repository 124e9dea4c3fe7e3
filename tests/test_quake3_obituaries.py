"""CG_Obituary's wording and CG_PlaceString's places."""

from __future__ import annotations

from assets_loader.demos.quake3.colors import strip_colors
from assets_loader.demos.quake3.obituaries import (
    RANK_TIED_FLAG,
    frag_centerprint,
    gendered_obituary,
    obituary_text as raw_obituary_text,
    place_string,
)


def obituary_text(victim: str, killer: str | None, means: str, sex: str = "m") -> str:
    """The wording without the colour codes (tested apart in ``test_names_keep_their_colours_then_white``)."""
    return strip_colors(raw_obituary_text(victim, killer, means, sex))


def test_kills_suicides_and_world_deaths() -> None:
    assert obituary_text("A", "B", "rocket") == "A ate B's rocket"
    assert obituary_text("A", "B", "railgun") == "A was railed by B"
    assert obituary_text("A", "B", "telefrag") == "A tried to invade B's personal space"
    assert obituary_text("A", "B", "something new") == "A was killed by B"
    assert obituary_text("A", "A", "rocket splash") == "A blew himself up."
    assert obituary_text("A", "A", "shotgun") == "A killed himself."
    assert obituary_text("A", None, "lava") == "A does a back flip into the lava."
    assert obituary_text("A", "B", "falling") == "A cratered."
    assert obituary_text("A", None, "rocket") == "A died."


def test_suicides_follow_the_victims_sex() -> None:
    assert obituary_text("A", "A", "rocket splash", "f") == "A blew herself up."
    assert obituary_text("A", "A", "rocket splash", "n") == "A blew itself up."
    assert obituary_text("A", "A", "grenade splash", "f") == "A tripped on her own grenade."
    assert obituary_text("A", "A", "plasma splash", "n") == "A melted itself."
    assert obituary_text("A", "A", "proximity mine", "f") == "A found her prox mine."
    assert obituary_text("A", "A", "shotgun", "f") == "A killed herself."
    assert obituary_text("A", "A", "shotgun", "x") == "A killed himself."             # unknown: male
    assert obituary_text("A", "A", "falling", "f") == "A cratered."                    # no pronoun in these
    assert obituary_text("A", "A", "bfg splash", "f") == "A should have used a smaller gun."
    assert obituary_text("A", "B", "rocket", "f") == "A ate B's rocket"


def test_a_line_worded_for_a_male_victim_is_worded_again_for_its_sex() -> None:
    male = raw_obituary_text("A", "A", "rocket splash")
    assert gendered_obituary(male, "A", "rocket splash", "f") == "A^7 blew herself up."
    assert gendered_obituary(male, "A", "rocket splash", "m") == male
    world = raw_obituary_text("A", None, "rocket")                                   # not by one's own hand
    assert gendered_obituary(world, "A", "rocket", "f") == world


def test_names_keep_their_colours_then_white() -> None:
    """CG_Obituary appends S_COLOR_WHITE to each name, so a coloured name does not colour the message."""
    assert raw_obituary_text("^1A", "^2B", "rocket") == "^1A^7 ate ^2B^7's rocket"
    assert raw_obituary_text("^1A", None, "lava") == "^1A^7 does a back flip into the lava."
    assert frag_centerprint("^3X", 0, 3) == "You fragged ^3X^7\n^41st^7 place with 3"


def test_places_and_the_frag_centerprint() -> None:
    assert [strip_colors(place_string(r)) for r in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd"]
    assert place_string(2 | RANK_TIED_FLAG) == "Tied for ^12nd^7"                  # CG_PlaceString's red
    assert place_string(1) == "^41st^7" and place_string(3) == "^33rd^7" and place_string(4) == "4th"
    assert strip_colors(frag_centerprint("X", 0, 3)) == "You fragged X\n1st place with 3"
    assert strip_colors(frag_centerprint("X", 0, 3, team_game=True)) == "You fragged X"


def test_the_corpus_obituaries_read_as_the_reference_frames_show_them() -> None:
    from assets_loader.demos import load_demo

    from .conftest import QUAKE3

    follow = load_demo(str(QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"))
    texts = [strip_colors(e.text) for e in follow.events_of_kind("obituary")]
    assert "Grunt almost dodged Angelyss's rocket" in texts           # the reference frame at 12 s
    assert "Angelyss was shredded by Sarge's shrapnel" in texts         # and at 24 s
    assert "Major was electrocuted by Grunt" in texts
    frags = [strip_colors(e.text) for e in follow.events_of_kind("centerprint") if e.text.startswith("You fragged")]
    assert "You fragged Angelyss\n1st place with 3" in frags
