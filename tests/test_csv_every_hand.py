"""GET /sessions/export.csv, "Download every hand": every number as the engine replays each
session, read in a fixed number of statements a batch, as the database was when it began."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.exchange.csv_out import EXTRAS, HEADER, SESSION_HEADER, csv_lines, hand_row
from scorekeeper.insights.dates import day_of
from scorekeeper.sessions import loading

from .helpers.api import SEATS, Api, pick, session_with
from .helpers.database import statements_for
from .helpers.tables import house_rules_night, play_the_night

HANDS_HEADER = [*SESSION_HEADER, *HEADER, *EXTRAS]


def test_every_number_is_the_engines_replay(app: Flask, api: Api, client: FlaskClient) -> None:
    """The file as it was made by replaying every session through the engine: a table that
    changes, house rules with doublers and penalties, a leaster with card points and tricks,
    hands corrected and deleted, names to defuse and a session without hands."""
    play_the_night(api)
    house_rules_night(api)
    leasters = session_with(
        api,
        [
            {
                "kind": "leaster",
                "winner": "Ann",
                "tricks": {"Ann": 1, "Bob": 1, "Cat": 1, "Dan": 0, "Eve": 3},
                "points": {"Ann": 10, "Bob": 20, "Cat": 30, "Dan": 0, "Eve": 60},
            },
            {"kind": "leaster", "winner": "Dan"},
            pick("Dan", "Eve", 61, blitzes=["red"]),
        ],
        rules={"no_bid": "leaster", "blitzing": True},
        name="Leasters",
    )
    api.replace(leasters, 2, **pick("Bob", None, 40))
    api.delete(leasters, 1)
    session_with(
        api, [pick("@y", "+cmd", 91)], players=["=A", "+cmd", "-x", "@y", "Eve"], name="-n"
    )
    api.new_session(name="Empty", players=[*SEATS[:4], "Hal"])

    with app.app_context():
        players = loading.seated_players()
        replayed = [(*HANDS_HEADER, *players)]
        for session, sheet in loading.every_sheet():
            lead = (session.id, day_of(session.created_at), session.name)
            for number, result in enumerate(sheet.results, start=1):
                cells = hand_row(number, result, players)
                replayed.append((*lead, *cells))
    assert client.get("/sessions/export.csv").text == "".join(csv_lines(replayed))


def test_statements_do_not_grow_with_sessions(app: Flask, api: Api) -> None:
    """A batch of sessions is read in a fixed number of statements, however many hands and
    players they have."""
    client = app.test_client()
    session_with(api, [pick("Bob", "Cat", 75)])
    before = statements_for(app, client, "/sessions/export.csv")
    play_the_night(api)
    house_rules_night(api)
    assert statements_for(app, client, "/sessions/export.csv") == before


def test_a_file_is_of_one_moment(app: Flask, api: Api, client: FlaskClient) -> None:
    """Hands recorded while the file is being sent, by a player it has no column for, are not
    in it: it is read as the database was when it began."""
    first = session_with(api, [pick("Bob", "Cat", 75)])
    whole = client.get("/sessions/export.csv").text
    response = client.get("/sessions/export.csv", buffered=False)
    chunks = iter(response.response)
    sent = [next(chunks)]
    api.record(first, **pick("Cat", "Dan", 61))
    session_with(api, [pick("Zed", "Ann", 75)], players=["Zed", *SEATS[:4]])
    sent += list(chunks)
    response.close()
    assert b"".join(c if isinstance(c, bytes) else c.encode() for c in sent).decode() == whole
    assert "Zed" in client.get("/sessions/export.csv").text
