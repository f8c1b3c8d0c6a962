"""What a name is (rules/names.py): composed, trimmed, no control or invisible character, of a
length; compared by its key; and when a new player's name looks like another's. No app."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    LookAlike,
    RuleError,
    look_alike_key,
    look_alike_questions,
    name_key,
    names_like,
    near_names,
    player_name,
    refuse_look_alikes,
    session_name,
)

CYRILLIC_ANN = "\u0410nn"
INVISIBLE = "can't hold control or invisible characters; this one holds"


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("Ann\u200b", "U+200B (zero width space)"),
        ("\ufeffAnn", "U+FEFF (zero width no-break space)"),
        ("An\u00adn", "U+00AD (soft hyphen)"),
        ("\u202eAnn", "U+202E (right-to-left override)"),
        ("Ann\u2066", "U+2066 (left-to-right isolate)"),
        ("A\u200dnn", "U+200D (zero width joiner)"),
        ("Ann\u3164", "U+3164 (hangul filler)"),
        ("Ann\tLee", "a tab"),
        ("Ann\nLee", "a line break"),
        ("Ann\x1bLee", "U+001B"),
        ("Ann\x7fLee", "U+007F"),
        ("Ann\x00", "U+0000"),
        ("Ann\u2028Lee", "U+2028 (line separator)"),
        ("Ann\ue000", "U+E000"),
    ],
)
def test_control_and_invisible_characters_are_refused(typed: str, said: str) -> None:
    with pytest.raises(RuleError) as caught:
        player_name(typed, "players")
    assert caught.value.field == "players"
    assert caught.value.message == f"A player's name {INVISIBLE} {said}."
    with pytest.raises(RuleError) as caught:
        session_name(f"Friday {typed}")
    assert caught.value.field == "name"
    assert caught.value.message == f"A session name {INVISIBLE} {said}."


def test_a_name_is_composed_trimmed_and_its_spaces_made_one() -> None:
    decomposed = "Zoe\u0308"
    assert player_name(decomposed) == "Zo\u00eb"
    assert name_key(decomposed) == name_key("ZO\u00cb") == "zo\u00eb"
    assert player_name(" Ann\u00a0\u2003 Lee\n") == "Ann Lee"
    assert name_key("ann  lee") == name_key("Ann\u3000Lee")
    # An emoji's presentation selector only says how to draw it.
    assert player_name("Dan \u2764\ufe0f") == "Dan \u2764"
    assert session_name("  ") == ""


@pytest.mark.parametrize("typed", ["", "   ", "x" * 41, " \u00a0 "])
def test_a_player_name_is_1_to_40_characters(typed: str) -> None:
    with pytest.raises(RuleError) as caught:
        player_name(typed)
    assert caught.value.message == "A player's name must be 1 to 40 characters long."
    assert player_name("x" * 40 + "  ") == "x" * 40


@settings(max_examples=300, deadline=None, database=None)
@given(st.text(max_size=50))
def test_a_kept_name_is_kept_as_it_is_and_holds_nothing_invisible(text: str) -> None:
    try:
        name = player_name(text)
    except RuleError as error:
        assert error.field == "players"
        return
    assert player_name(name) == name
    assert unicodedata.is_normalized("NFC", name)
    assert name == name.strip() and "  " not in name
    assert 1 <= len(name) <= 40
    assert not any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in name)
    assert name_key(name) == name_key(text) == name_key(name_key(text))


@settings(max_examples=300, deadline=None, database=None)
@given(st.text())
def test_a_name_key_is_its_own_key(text: str) -> None:
    assert name_key(name_key(text)) == name_key(text)
    assert look_alike_key(look_alike_key(text)) == look_alike_key(text)


@pytest.mark.parametrize(
    ("name", "like", "holds"),
    [
        (CYRILLIC_ANN, "Ann", "U+0410 (cyrillic capital letter a)"),
        ("\u0430NN", "Ann", "U+0430 (cyrillic small letter a)"),
        ("Ivan", "lvan", "U+0049 (latin capital letter i)"),
        ("B0b", "Bob", "U+0030 (digit zero)"),
        ("Cam", "Carn", "U+006D (latin small letter m)"),
        ("\u0391nn", "Ann", "U+0391 (greek capital letter alpha)"),
        ("\u0391\u03bd\u03bd", "Avv", "U+0391 (greek capital letter alpha)"),
    ],
)
def test_names_that_look_alike(name: str, like: str, holds: str) -> None:
    assert look_alike_key(name) == look_alike_key(like)
    with pytest.raises(LookAlike) as caught:
        refuse_look_alikes([name], ["Bob", like], (), "players")
    assert caught.value.field == "players"
    assert caught.value.message == (
        f"{name} looks like {like}, who has played here, but holds {holds}. Choose {like}, "
        f"or confirm {name} as a new player."
    )
    refuse_look_alikes([name], ["Bob", like], [name.lower()], "players")


@pytest.mark.parametrize(("name", "other"), [("Ann", "Anne"), ("Zoe", "Zo\u00eb"), ("Al", "Ali")])
def test_names_that_differ_to_the_eye(name: str, other: str) -> None:
    assert look_alike_key(name) != look_alike_key(other)
    refuse_look_alikes([name], [other], (), "players")


def test_two_new_names_that_look_alike_are_refused_unless_confirmed() -> None:
    with pytest.raises(LookAlike) as caught:
        refuse_look_alikes(["Ann", "Bob", CYRILLIC_ANN], ["Cat"], (), "players")
    assert caught.value.message == (
        f"{CYRILLIC_ANN} looks like Ann, also new here, "
        "but holds U+0410 (cyrillic capital letter a). Choose another name, "
        f"or confirm {CYRILLIC_ANN} as a new player."
    )
    refuse_look_alikes(["Ann", "Bob", CYRILLIC_ANN], ["Cat"], [CYRILLIC_ANN], "players")


@pytest.mark.parametrize(
    ("name", "other"),
    [
        ("Tom Kiebzak", "Tom Kiebzack"),
        ("Tom Kiebzack", "TOM KIEBZAK"),
        ("Brian", "Bryan"),
        ("Kiebzak", "Kiebzka"),
        ("Chris", "Chriss"),
        ("Chris", "Achris"),
        ("Tom Kiebzak", "Tom Kiebz\u0430ck"),
    ],
)
def test_names_one_letter_apart_are_near_names(name: str, other: str) -> None:
    assert near_names(name, other) and near_names(other, name)
    assert names_like(name, ["Ann", other]) == [other]
    refuse_look_alikes([name], [other], (), "players")
    with pytest.raises(LookAlike) as caught:
        refuse_look_alikes([name], ["Ann", other], (), "players", near=True)
    assert caught.value.message == (
        f"{name} looks like {other}, who has played here. Choose {other}, "
        f"or confirm {name} as a new player."
    )
    refuse_look_alikes([name], [other], [name.upper()], "players", near=True)


@pytest.mark.parametrize(
    ("name", "other"),
    [
        ("Dan", "Don"),
        ("Mark", "Marky"),
        ("Anne", "Ann"),
        ("Bobby", "Bob"),
        ("Tom Kiebzak", "Tom Kiebzak"),
        ("Tom Kiebzak", "tom kiebzak"),
        ("Tom Kiebzak", "Tim Kiebzack"),
        ("Chris", "Chirsty"),
    ],
)
def test_names_more_than_a_letter_apart_or_short_are_not_near(name: str, other: str) -> None:
    assert not near_names(name, other)
    assert names_like(name, [other]) == []
    refuse_look_alikes([name], [other], (), "players", near=True)


def test_every_look_alike_question_is_asked_at_once() -> None:
    here = ["Ann", "Tom Kiebzack", "Brian Olsen", "Cat"]
    new = ["Tom Kiebzak", "Bryan Olsen", "\u0421at", "Dave", "Dave Smith", "Dave Smyth"]
    assert look_alike_questions(new, here, ["bryan olsen"]) == [
        ("Tom Kiebzak", ["Tom Kiebzack"]),
        ("\u0421at", ["Cat"]),
        ("Dave Smyth", ["Dave Smith"]),
    ]
    with pytest.raises(LookAlike) as caught:
        refuse_look_alikes(new, here, ["Tom Kiebzak", "Bryan Olsen", "\u0421at"], "x", near=True)
    assert caught.value.message == (
        "Dave Smyth looks like Dave Smith, also new here. Choose another name, "
        "or confirm Dave Smyth as a new player."
    )


def test_a_long_list_of_players_is_asked_about_name_by_name() -> None:
    """Near names are looked up, not compared with every player: thousands take a moment."""
    here = [f"Player {n:05d}" for n in range(5000)]
    new = [f"Newcomer {n:05d}" for n in range(2000)]
    questions = look_alike_questions(new, here, ())
    # Every newcomer but the first is one digit from one before them.
    assert len(questions) == len(new) - 1
    assert questions[:2] == [
        ("Newcomer 00001", ["Newcomer 00000"]),
        ("Newcomer 00002", ["Newcomer 00000", "Newcomer 00001"]),
    ]
    [(name, like)] = look_alike_questions(["Player 0000"], here, ())
    assert like[:2] == ["Player 00000", "Player 00001"]
    assert all(near_names(name, player) for player in like)
