"""Names through the API: one player however the name is composed, no control or invisible
character in a player's or a session's name, and a new name that looks like another player's
refused unless confirmed in `new_players`. Every refusal changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, insert, select

from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Player

from ..helpers.api import SEATS, Api, pick

ZOE_NFC, ZOE_NFD = "Zo\u00eb", "Zoe\u0308"
CYRILLIC_ANN = "\u0410nn"
INVISIBLE = "can't hold control or invisible characters; this one holds"


def players(app: Flask) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(Player.name).order_by(Player.id)))


def session_refused(api: Api, body: dict[str, Any], field: str, error: str, patch: int = 0) -> None:
    """A session body refused with 400 at `field` with `error`; POSTed, or PATCHed to session
    `patch`, which is left as it was."""
    client = api.client
    before = client.get("/api/sessions").json
    if patch:
        before_session = api.session(patch)
        response = client.patch(f"/api/sessions/{patch}", json=body)
    else:
        response = client.post("/api/sessions", json={"rounds": 0, **body})
    assert response.status_code == 400, response.json
    assert response.json == {"error": error, "field": field}
    assert client.get("/api/sessions").json == before
    if patch:
        assert api.session(patch) == before_session


def test_a_name_composed_either_way_is_one_player(api: Api, app: Flask) -> None:
    session_refused(
        api,
        {"players": [ZOE_NFC, ZOE_NFD, "Bob", "Cat", "Dan"]},
        "players",
        f"{ZOE_NFC} is seated twice.",
    )
    first = api.new_session(players=[ZOE_NFD, *SEATS[1:]])
    assert first["players"][0] == ZOE_NFC
    again = api.new_session(players=[ZOE_NFC.upper(), *SEATS[1:]])
    assert again["players"][0] == ZOE_NFC
    assert players(app) == [ZOE_NFC, *SEATS[1:]]
    hand = api.record(again["id"], **pick(ZOE_NFD, "Bob", 75))
    assert hand["picker"] == ZOE_NFC


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("Ann\u200b", "U+200B (zero width space)"),
        ("\ufeffAnn", "U+FEFF (zero width no-break space)"),
        ("An\u00adn", "U+00AD (soft hyphen)"),
        ("\u202eAnn", "U+202E (right-to-left override)"),
        ("Ann\tLee", "a tab"),
        ("Ann\nLee", "a line break"),
        ("Ann\x1bLee", "U+001B"),
        ("Ann\x7fLee", "U+007F"),
    ],
)
def test_control_and_invisible_characters_are_refused_in_names(
    api: Api, app: Flask, typed: str, said: str
) -> None:
    sid = api.new_session()["id"]
    player = f"A player's name {INVISIBLE} {said}."
    session_refused(api, {"players": [typed, *SEATS[1:]]}, "players", player)
    session_refused(api, {"players": [*SEATS, typed]}, "players", player, patch=sid)
    session = f"A session name {INVISIBLE} {said}."
    session_refused(api, {"players": SEATS, "name": f"Friday {typed}"}, "name", session)
    session_refused(api, {"name": f"Friday {typed}"}, "name", session, patch=sid)
    assert players(app) == SEATS


def test_a_new_name_like_a_players_is_refused_unless_confirmed(api: Api, app: Flask) -> None:
    sid = api.new_session()["id"]
    sentence = (
        f"{CYRILLIC_ANN} looks like Ann, who has played here, "
        "but holds U+0410 (cyrillic capital letter a). Choose Ann, "
        f"or confirm {CYRILLIC_ANN} as a new player."
    )
    seats = [CYRILLIC_ANN, *SEATS[1:]]
    session_refused(api, {"players": seats}, "players", sentence)
    session_refused(api, {"players": seats, "new_players": ["Bob"]}, "players", sentence)
    session_refused(api, {"players": [*SEATS, CYRILLIC_ANN]}, "players", sentence, patch=sid)
    assert players(app) == SEATS
    # Typed in another case, the name is the player it names, not a look-alike.
    assert api.new_session(players=["ANN", *SEATS[1:]])["players"] == SEATS
    confirmed = api.new_session(players=seats, new_players=[CYRILLIC_ANN.lower()])
    assert confirmed["players"] == seats
    changed = api.client.patch(
        f"/api/sessions/{sid}", json={"players": [*SEATS, "B0b"], "new_players": ["B0b"]}
    )
    assert changed.status_code == 200, changed.json
    assert players(app) == [*SEATS, CYRILLIC_ANN, "B0b"]


def test_two_new_names_alike_are_refused_unless_confirmed(api: Api, app: Flask) -> None:
    seats = ["Gil", "GiI", "Kim"]
    sentence = (
        "GiI looks like Gil, also new here, but holds U+0049 (latin capital letter i). "
        "Choose another name, or confirm GiI as a new player."
    )
    session_refused(api, {"players": seats, "rules": {"partner": "alone"}}, "players", sentence)
    assert players(app) == []
    api.new_session(players=seats, rules={"partner": "alone"}, new_players=["GiI"])
    assert players(app) == seats


@pytest.mark.parametrize(
    ("new_players", "error"),
    [
        ("Ann", "New players must be a list of names."),
        ([1], "New players must be a list of names."),
        (["A\x00nn"], "A player's name can't hold a NUL character."),
    ],
)
def test_new_players_must_be_a_list_of_names(api: Api, new_players: Any, error: str) -> None:
    session_refused(api, {"players": SEATS, "new_players": new_players}, "new_players", error)


def test_a_player_kept_before_names_were_composed_is_found_by_their_name(
    api: Api, app: Flask
) -> None:
    """Existing data is not rewritten: a name stored decomposed, with the key of the time, is
    still the player a name typed composed means."""
    with app.app_context():
        db.session.execute(insert(Player), [{"name": ZOE_NFD, "name_key": ZOE_NFD.casefold()}])
        db.session.commit()
    session = api.new_session(players=[ZOE_NFC, *SEATS[1:]])
    assert session["players"][0] == ZOE_NFD
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Player)) == 5
