"""GET /sessions/export.csv, "Download every hand": the sessions the list's filters find, a
column for each of their players or, in the long form, a row for each player of a hand, and
every number as the engine replays each session, read in a fixed number of statements a batch,
as the database was when it began."""

from __future__ import annotations

import csv
import io
from collections import Counter

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.http import parse_options_header

from scorekeeper.exchange.csv_out import EXTRAS, HEADER, SESSION_HEADER, csv_lines, hand_row
from scorekeeper.insights.dates import day_of
from scorekeeper.sessions import loading
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Session

from ..helpers.api import SEATS, Api, pick, session_with
from ..helpers.database import dated, statements_for
from ..helpers.tables import PLAYED, TOTALS, house_rules_night, play_the_night

HANDS_HEADER = [*SESSION_HEADER, *HEADER, *EXTRAS]
LONG_HEADER = [
    "session", "date", "session_name", "hand", "dealer", "kind", "picker", "partner",
    "called_card", "forced", "picking_points", "cracked_by", "recracked", "blitzes",
    "multiplier", "winner", "result", "penalized", "player", "seat", "played", "score",
]  # fmt: skip


def rows(client: FlaskClient, query: str = "") -> list[list[str]]:
    response = client.get(f"/sessions/export.csv{query}")
    assert response.status_code == 200, response.text
    return list(csv.reader(io.StringIO(response.text)))


def sessions_in(table: list[list[str]]) -> list[int]:
    """The sessions a file's rows are of, in order, each once."""
    return list(dict.fromkeys(int(row[0]) for row in table[1:]))


def three_seasons(app: Flask, api: Api) -> dict[str, int]:
    """Spring (Fay sits in), Summer (bump) and Autumn, a hand each; and a session without
    hands in Winter, where Hal is seated."""
    played = {
        "Spring": ([*SEATS[:4], "Fay"], {}, "2026-03-14"),
        "Summer": (SEATS, {"bump": True}, "2026-07-04"),
        "Autumn": ([*SEATS[1:], "Gus"], {}, "2026-10-31"),
    }
    ids = {}
    for name, (players, chosen, day) in played.items():
        ids[name] = session_with(
            api, [pick(players[1], players[2], 75)], name=name, players=players, rules=chosen
        )
        dated(app, ids[name], day)
    ids["Winter"] = api.new_session(name="Winter", players=[*SEATS[:4], "Hal"])["id"]
    dated(app, ids["Winter"], "2026-12-24")
    return ids


def test_filters_choose_the_sessions_as_the_list_does(
    app: Flask, api: Api, client: FlaskClient
) -> None:
    ids = three_seasons(app, api)
    spring, summer, autumn = ids["Spring"], ids["Summer"], ids["Autumn"]
    assert sessions_in(rows(client)) == [spring, summer, autumn]
    for query, found in (
        ("?from=2026-07-01&to=2026-12-31", [summer, autumn]),
        ("?to=2026-07-04", [spring, summer]),
        ("?from=2026-07-05", [autumn]),
        ("?player=fay", [spring]),
        ("?player=Ann", [spring, summer]),
        ("?bump=y", [summer]),
        ("?plain=y&from=2026-04-01", [autumn]),
        ("?player=Zed", []),
    ):
        assert sessions_in(rows(client, query)) == found, query
        assert sessions_in(rows(client, f"{query}&form=long")) == found, query


def test_only_the_players_of_those_sessions_have_columns(
    app: Flask, api: Api, client: FlaskClient
) -> None:
    """By name, as every player's column was: a player of another session has none; one
    seated in a session without hands has one."""
    three_seasons(app, api)
    assert rows(client)[0] == [
        *HANDS_HEADER,
        "Ann",
        "Bob",
        "Cat",
        "Dan",
        "Eve",
        "Fay",
        "Gus",
        "Hal",
    ]
    spring = rows(client, "?to=2026-03-31")
    assert spring[0] == [*HANDS_HEADER, "Ann", "Bob", "Cat", "Dan", "Fay"]
    # The seats are numbers of these columns; Bob and Cat won with 75.
    assert spring[1][18:] == ["1 2 3 4 5", "-1", "2", "1", "-1", "-1"]
    autumn = rows(client, "?from=2026-10-01&to=2026-11-30")
    assert autumn[0] == [*HANDS_HEADER, "Bob", "Cat", "Dan", "Eve", "Gus"]
    assert autumn[1][18:] == ["1 2 3 4 5", "-1", "2", "1", "-1", "-1"]
    assert rows(client, "?player=Zed") == [HANDS_HEADER]


def test_the_long_form_has_a_row_for_each_player_of_a_hand(
    app: Flask, api: Api, client: FlaskClient
) -> None:
    night = play_the_night(api)
    dated(app, night, "2026-02-01")
    table = rows(client, "?form=long")
    assert table[0] == LONG_HEADER
    # Hand 3: seven seated, Cat dealt; Bob and Cat sat out, Gus went alone with 95.
    third = [row for row in table[1:] if row[3] == "3"]
    assert [row[:3] for row in third] == [[str(night), "2026-02-01", ""]] * 7
    assert {tuple(row[3:18]) for row in third} == {
        ("3", "Cat", "pick", "Gus", "", "", "", "95", "", "", "", "1", "", "won_schneider", "")
    }
    assert [row[18:] for row in third] == [
        ["Ann", "1", "yes", "-2"],
        ["Bob", "2", "", "0"],
        ["Cat", "3", "", "0"],
        ["Gus", "4", "yes", "8"],
        ["Dan", "5", "yes", "-2"],
        ["Eve", "6", "yes", "-2"],
        ["Fay", "7", "yes", "-2"],
    ]
    # Six seated for hands 1, 2, 5 and 6, seven for 3 and 4.
    assert Counter(row[3] for row in table[1:]) == {"1": 6, "2": 6, "3": 7, "4": 7, "5": 6, "6": 6}
    totals: Counter[str] = Counter()
    for row in table[1:]:
        totals[row[18]] += int(row[21])
    assert dict(totals) == TOTALS == api.session(night)["totals"]
    played = Counter(row[18] for row in table[1:] if row[20] == "yes")
    assert played == PLAYED


def test_the_long_form_is_the_wide_form_a_player_a_row(
    app: Flask, api: Api, client: FlaskClient
) -> None:
    house_rules_night(api)
    play_the_night(api)
    formulas = ["=A", "+cmd", "-x", "@y", "Eve"]
    session_with(api, [pick("+cmd", "-x", 75, cracked_by="@y")], players=formulas, name="=Night")
    wide, long = rows(client), rows(client, "?form=long")
    players = wide[0][len(HANDS_HEADER) :]
    expected = [LONG_HEADER]
    for row in wide[1:]:
        seats = [players[int(n) - 1] for n in row[18].split()]
        cells = dict(zip(players, row[len(HANDS_HEADER) :], strict=True))
        for seat, player in enumerate(seats, start=1):
            played = cells[player] != "out"
            expected.append(
                [
                    *row[:18],
                    player,
                    str(seat),
                    "yes" if played else "",
                    cells[player] if played else "0",
                ]
            )
    assert long == expected
    night = [row[18] for row in long if row[2] == "'=Night"]
    assert night == ["'=A", "'+cmd", "'-x", "'@y", "Eve"]


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
        long = [LONG_HEADER]
        ordered = select(Session.id).order_by(Session.created_at, Session.id)
        for session_id in db.session.scalars(ordered).all():
            session = loading.session_or_404(session_id)
            sheet = loading.sheet_of(session)
            lead = (session.id, day_of(session.created_at), session.name)
            for number, result in enumerate(sheet.results, start=1):
                cells = hand_row(number, result, players)
                replayed.append((*lead, *cells))
                long += [
                    [*lead, *cells[:15], player, seat, "yes" if player in result.players else "",
                     result.scores[player]]
                    for seat, player in enumerate(result.hand.seats, start=1)
                ]  # fmt: skip
    assert client.get("/sessions/export.csv").text == "".join(csv_lines(replayed))
    assert client.get("/sessions/export.csv?form=long").text == "".join(csv_lines(long))


def test_bad_filters_and_forms_are_refused(client: FlaskClient) -> None:
    for query, sentence in (
        ("?from=yesterday", "A date is written like 2026-11-21."),
        ("?from=2026-05-01&to=2026-04-01", "The first date comes after the last one."),
        ("?plain=y&bump=y", "can&#39;t go with Bump: untick one."),
        ("?form=tall", "The form is wide or long, not “tall”."),
    ):
        response = client.get(f"/sessions/export.csv{query}")
        assert response.status_code == 400, query
        assert sentence in response.text, query


def test_file_names_say_which_sessions_and_form(api: Api, client: FlaskClient) -> None:
    def name(query: str) -> str:
        response = client.get(f"/sessions/export.csv{query}")
        return str(parse_options_header(response.headers["Content-Disposition"])[1]["filename"])

    assert name("").startswith("sheepshead-all-sessions-")
    assert name("?form=wide").startswith("sheepshead-all-sessions-")
    assert name("?from=2026-01-01&to=2026-12-31").startswith(
        "sheepshead-sessions-from-2026-01-01-to-2026-12-31-"
    )
    assert name("?player=Ann&form=long").startswith("sheepshead-sessions-")
    assert name("?form=long").endswith("-long.csv")


def test_the_sessions_list_downloads_what_it_shows(
    app: Flask, api: Api, client: FlaskClient
) -> None:
    three_seasons(app, api)
    html = client.get("/sessions?from=2026-07-01&player=Ann&bump=y").text
    assert 'href="/sessions/export.csv?from=2026-07-01&amp;player=Ann&amp;bump=y"' in html
    assert (
        'href="/sessions/export.csv?form=long&amp;from=2026-07-01&amp;player=Ann&amp;bump=y"'
        in html
    )
    html = client.get("/sessions").text
    assert 'href="/sessions/export.csv"' in html
    assert 'href="/sessions/export.csv?form=long"' in html


def test_statements_do_not_grow_with_sessions(app: Flask, api: Api) -> None:
    """A batch of sessions is read in a fixed number of statements, however many hands and
    players they have."""
    client = app.test_client()
    session_with(api, [pick("Bob", "Cat", 75)])
    before = statements_for(app, client, "/sessions/export.csv")
    play_the_night(api)
    house_rules_night(api)
    assert statements_for(app, client, "/sessions/export.csv") == before
    assert statements_for(app, client, "/sessions/export.csv?form=long&from=2026-01-01") <= before


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
