"""Session history: filters, winners, pages; the standings and all-sessions CSV exports."""

from __future__ import annotations

import csv
import io
import re

from flask import Flask
from flask.testing import FlaskClient

from ..helpers.api import SEATS, Api, pick
from ..helpers.database import dated, statements_for
from ..helpers.pages import Page
from ..helpers.tables import play_the_night


def listed(client: FlaskClient, query: str = "") -> list[str]:
    """The session names the history page lists, in order."""
    html = client.get(f"/sessions{query}").text
    return re.findall(r'<li>\s*<a href="/sessions/\d+">([^<]*)</a>', html)


def test_history_filters_by_player_and_dates(app: Flask, api: Api, client: FlaskClient) -> None:
    days = {"Spring": "2026-03-14", "Summer": "2026-07-04", "Autumn": "2026-10-31"}
    for name, day in days.items():
        players = [*SEATS[:4], "Fay"] if name == "Summer" else SEATS
        dated(app, api.new_session(name=name, players=players)["id"], day)
    assert listed(client) == ["Autumn", "Summer", "Spring"]
    assert listed(client, "?player=fay") == ["Summer"]
    assert listed(client, "?player=Eve") == ["Autumn", "Spring"]
    assert listed(client, "?from=2026-07-04") == ["Autumn", "Summer"]
    assert listed(client, "?to=2026-07-04") == ["Summer", "Spring"]
    assert listed(client, "?from=2026-04-01&to=2026-10-30&player=Ann") == ["Summer"]
    assert listed(client, "?player=Zed") == []
    assert listed(client, "?from=0001-01-02&to=9999-12-30") == ["Autumn", "Summer", "Spring"]


def test_bad_dates_get_a_sentence(client: FlaskClient) -> None:
    for query, sentence in (
        ("?from=yesterday", "A date is written like 2026-11-21."),
        ("?from=2026-05-01&to=2026-04-01", "The first date comes after the last one."),
    ):
        response = client.get(f"/sessions{query}")
        assert response.status_code == 400
        assert sentence in response.text


def test_history_names_the_winner_of_complete_sessions(api: Api, client: FlaskClient) -> None:
    done = api.new_session(name="Done", rounds=1)
    for picker in SEATS:
        api.record(done["id"], **pick(picker, "Ann" if picker != "Ann" else "Bob", 75))
    api.new_session(name="Going", rounds=1)
    html = client.get("/sessions").text
    totals = api.session(done["id"])["standings"]
    assert totals[0]["player"] == "Ann" and totals[1]["place"] == 2
    assert "Won by Ann" in html
    assert html.count("Won by") == 1
    assert "in progress" in html


def test_history_shares_a_win_between_tied_players(api: Api, client: FlaskClient) -> None:
    tied = api.new_session(name="Tied", rounds=1)
    for picker in SEATS:
        api.record(tied["id"], **pick(picker, None, 75))
    assert {s["place"] for s in api.session(tied["id"])["standings"]} == {1}
    assert "Won by Ann, Bob, Cat, Dan and Eve" in client.get("/sessions").text


def test_history_pages(api: Api, client: FlaskClient) -> None:
    for n in range(23):
        api.new_session(name=f"S{n:02d}")
    first, second = listed(client), listed(client, "?page=2")
    assert first == [f"S{n:02d}" for n in range(22, 2, -1)]
    assert second == ["S02", "S01", "S00"]
    assert listed(client, "?page=99") == second
    assert "page 1 of 2" in client.get("/sessions").text


def test_home_shows_the_session_in_progress_and_five_recent(api: Api, client: FlaskClient) -> None:
    for n in range(8):
        api.new_session(name=f"S{n}", rounds=0 if n == 2 else 1)
    html = client.get("/").text
    assert "Resume" in html
    names = re.findall(r'<li>\s*<a href="/sessions/\d+">([^<]*)</a>', html)
    assert names == ["S6", "S5", "S4", "S3", "S2"]  # S7, the newest, is the one in progress
    assert 'href="/sessions"' in html


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_standings_csv(api: Api, client: FlaskClient) -> None:
    session = api.new_session(players=["=Ann", *SEATS[1:]])
    api.record(session["id"], **pick("=Ann", "Bob", 75))
    response = client.get(f"/sessions/{session['id']}/standings.csv")
    assert response.mimetype == "text/csv"
    assert "standings.csv" in response.headers["Content-Disposition"]
    assert rows(response.text) == [
        ["place", "player", "total", "hands_won", "left"],
        ["1", "'=Ann", "2", "1", ""],
        ["2", "Bob", "1", "1", ""],
        ["3", "Cat", "-1", "0", ""],
        ["3", "Dan", "-1", "0", ""],
        ["3", "Eve", "-1", "0", ""],
    ]


def test_all_sessions_csv(app: Flask, api: Api, client: FlaskClient) -> None:
    first = api.new_session(name="First")
    api.record(first["id"], **pick("Ann", "Bob", 75))
    second = api.new_session(name="+Second", players=["Ann", "Bob", "Cat", "Dan", "@Fay"])
    api.record(second["id"], **pick("@Fay", None, 95, cracked_by="Ann"), dealer="Ann")
    dated(app, first["id"], "2026-01-02")
    response = client.get("/sessions/export.csv")
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    table = rows(response.text)
    assert table[0] == [
        "session", "date", "session_name", "hand", "dealer", "kind", "picker", "partner",
        "called_card", "forced", "picking_points", "cracked_by", "recracked", "blitzes",
        "multiplier", "winner", "result", "penalized", "seats", "'@Fay", "Ann", "Bob", "Cat",
        "Dan", "Eve",
    ]  # fmt: skip
    # The seats are numbers of the player columns: Ann is 2, @Fay 1.
    assert table[1] == [
        str(first["id"]), "2026-01-02", "First", "1", "Ann", "pick", "Ann", "Bob",
        "", "", "75", "", "", "", "1", "", "won", "", "2 3 4 5 6", "", "2", "1", "-1", "-1", "-1",
    ]  # fmt: skip
    assert table[2][:3] == [str(second["id"]), second["created_at"][:10], "'+Second"]
    assert table[2][3:] == [
        "1", "Ann", "pick", "'@Fay", "", "", "", "95", "Ann", "", "", "2", "",
        "won_schneider", "", "2 3 4 5 1", "16", "-4", "-4", "-4", "-4", "",
    ]  # fmt: skip
    assert len(table) == 3


# --- a table that changes


def test_history_names_everyone_the_totals_name(api: Api, client: FlaskClient) -> None:
    night = play_the_night(api)
    api.client.patch(f"/api/sessions/{night}", json={"name": "Night"})
    page = Page(client.get("/sessions").text)
    (item,) = page.items
    # Dan left, Gus arrived: both are named; Gus won.
    assert " ".join(item) == (
        "Night " + api.session(night)["created_at"][:10]
        + " · Ann, Bob, Cat, Dan, Eve, Fay, Gus · 6 hands · complete Won by Gus"
    )  # fmt: skip
    assert listed(client, "?player=Dan") == ["Night"]
    assert listed(client, "?player=gus") == ["Night"]


def test_history_finds_a_player_seated_now_who_has_not_played(
    api: Api, client: FlaskClient
) -> None:
    session_id = api.new_session(name="Waiting", players=SEATS)["id"]
    api.record(session_id, **pick("Bob", "Cat", 75))
    seated = [*SEATS, "Fay"]
    assert (
        api.client.patch(f"/api/sessions/{session_id}", json={"players": seated}).status_code == 200
    )
    assert listed(client, "?player=Fay") == ["Waiting"]
    (item,) = Page(client.get("/sessions").text).items
    assert "· Ann, Bob, Cat, Dan, Eve, Fay · 1 hand ·" in " ".join(item)


def test_history_queries_do_not_grow_with_seat_changes(app: Flask, api: Api) -> None:
    client = app.test_client()
    api.new_session(players=SEATS)
    before = statements_for(app, client, "/sessions")
    for _ in range(3):
        play_the_night(api)
    assert statements_for(app, client, "/sessions") == before


def test_standings_csv_says_who_has_left(api: Api, client: FlaskClient) -> None:
    night = play_the_night(api)
    assert rows(client.get(f"/sessions/{night}/standings.csv").text) == [
        ["place", "player", "total", "hands_won", "left"],
        ["1", "Gus", "13", "3", ""],
        ["2", "Fay", "3", "2", ""],
        ["3", "Bob", "0", "2", ""],
        ["4", "Cat", "-2", "2", ""],
        ["5", "Ann", "-4", "2", ""],
        ["6", "Eve", "-5", "2", ""],
        ["7", "Dan", "-5", "0", "yes"],
    ]


def test_all_sessions_csv_of_a_table_that_changes(
    app: Flask, api: Api, client: FlaskClient
) -> None:
    night = play_the_night(api)
    dated(app, night, "2026-02-01")
    header, *hands = rows(client.get("/sessions/export.csv").text)
    # Every player by name, so the seats of hand 3 (Ann Bob Cat Gus Dan Eve Fay) are 1 2 3 7 4
    # 5 6.
    assert header[-8:] == ["seats", "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
    assert [hand[3:5] + hand[-8:] for hand in hands] == [
        ["1", "Ann", "1 2 3 4 5 6", "out", "2", "1", "-1", "-1", "-1", ""],
        ["2", "Bob", "1 2 3 4 5 6", "1", "out", "-2", "-1", "1", "1", ""],
        ["3", "Cat", "1 2 3 7 4 5 6", "-2", "out", "out", "-2", "-2", "-2", "8"],
        ["4", "Gus", "1 2 3 7 4 5 6", "2", "-1", "out", "-1", "1", "-1", "out"],
        ["5", "Eve", "1 2 3 7 5 6", "-3", "-3", "-3", "", "out", "6", "3"],
        ["6", "Fay", "1 2 3 7 5 6", "-2", "2", "2", "", "-4", "out", "2"],
    ]
    assert {hand[0] for hand in hands} == {str(night)}


# --- house rules


def test_history_filters_by_house_rules(app: Flask, api: Api, client: FlaskClient) -> None:
    chosen = {
        "Seed": {},
        "Bump": {"bump": True},
        "Tricks and cap": {"schwarz": "tricks", "max_multiplier": 8},
        "Everything": {"bump": True, "schwarz": "tricks", "no_bid": "doubler",
                       "doublers": "stack", "max_multiplier": 16, "penalties": True},
        "Staked": {"stake": 25},
    }  # fmt: skip
    for day, (name, rules) in enumerate(chosen.items(), start=1):
        dated(app, api.new_session(name=name, rules=rules)["id"], f"2026-05-0{day}")
    assert listed(client) == ["Staked", "Everything", "Tricks and cap", "Bump", "Seed"]
    assert listed(client, "?bump=y") == ["Everything", "Bump"]
    assert listed(client, "?tricks=y") == ["Everything", "Tricks and cap"]
    assert listed(client, "?cap=y&tricks=y") == ["Everything", "Tricks and cap"]
    assert listed(client, "?cap=y&bump=y") == ["Everything"]
    assert listed(client, "?stack=y") == ["Everything"]
    assert listed(client, "?penalties=y&player=Ann") == ["Everything"]
    # The stake changes no score: a staked session is played with no house rule.
    assert listed(client, "?plain=y") == ["Staked", "Seed"]
    assert listed(client, "?plain=y&from=2026-05-02") == ["Staked"]
    assert listed(client, "?bump=y&to=2026-05-03") == ["Bump"]
    refused = client.get("/sessions?plain=y&stack=y")
    assert refused.status_code == 400
    assert "“No house rule” can&#39;t go with Stacked doublers: untick one." in refused.text


def test_history_rows_name_their_house_rules(app: Flask, api: Api, client: FlaskClient) -> None:
    rules = {"bump": True, "schwarz": "tricks", "no_bid": "doubler", "doublers": "stack",
             "max_multiplier": 8, "penalties": True}  # fmt: skip
    dated(app, api.new_session(name="House", rules=rules)["id"], "2026-05-02")
    dated(app, api.new_session(name="Seed")["id"], "2026-05-01")
    house, seed = Page(client.get("/sessions").text).items
    assert " ".join(house) == (
        "House 2026-05-02 · Ann, Bob, Cat, Dan, Eve · 0 hands · in progress · Bump · Schwarz by "
        "tricks · Stacked doublers · Multiplier cap x8 · Penalty hands"
    )
    assert " ".join(seed) == "Seed 2026-05-01 · Ann, Bob, Cat, Dan, Eve · 0 hands · in progress"


def test_history_checkboxes_keep_what_was_ticked_and_pages_keep_them(
    api: Api, client: FlaskClient
) -> None:
    for number in range(21):
        api.new_session(name=f"S{number}", rules={"penalties": True})
    html = client.get("/sessions?penalties=y").text
    assert '<input type="checkbox" name="penalties" value="y" checked>' in html
    assert '<input type="checkbox" name="bump" value="y">' in html
    assert 'href="/sessions?page=2&amp;penalties=y"' in html
    assert len(listed(client, "?penalties=y&page=2")) == 1
    assert listed(client, "?bump=y") == []


def test_history_queries_stay_as_few_with_house_rules(app: Flask, api: Api) -> None:
    client = app.test_client()
    api.new_session(rules={"bump": True, "schwarz": "tricks"})
    api.new_session()
    before = statements_for(app, client, "/sessions")
    assert statements_for(app, client, "/sessions?bump=y&tricks=y&player=Ann") == before
    assert statements_for(app, client, "/sessions?plain=y") == before
