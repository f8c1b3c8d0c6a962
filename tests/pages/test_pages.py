"""The pages for people: the sessions list, a session's scoresheet, errors, escaping, queries."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import cycle, islice

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import rules
from scorekeeper.sessions import rows, writes
from scorekeeper.web import stylesheet

from ..helpers.api import SEATS, Api, pick, session_with
from ..helpers.database import NewApp, statements_for
from ..helpers.pages import Page, page


def numbers(cell: str) -> list[int]:
    return [int(word) for word in cell.split()]


def grid_hands(session: Page) -> tuple[list[str], list[tuple[list[str], str]], list[str]]:
    """The scoresheet: its header, each hand's row of scores with the line of words below it,
    and the totals."""
    header, *rows, total = session.rows("grid")
    hands = [(scores, about) for scores, (about,) in zip(rows[::2], rows[1::2], strict=True)]
    return header, hands, total


def grid_columns(session: Page) -> dict[str, list[str]]:
    """The scoresheet's hand rows, column by column, named by their header, and each hand's
    words."""
    header, hands, _total = grid_hands(session)
    columns = {name: [scores[i] for scores, _about in hands] for i, name in enumerate(header)}
    return {**columns, "about": [about for _scores, about in hands]}


# --- the sessions list


def test_index_without_sessions(client: FlaskClient) -> None:
    response = client.get("/")
    index = Page(response.text)
    assert index.items == []
    assert "Ann" not in index.text
    assert "Resume" not in index.text
    assert re.search(r'<a [^>]*href="/sessions/new"[^>]*>\s*New session\s*</a>', response.text)


def test_index_lists_sessions_with_names_and_hand_counts(api: Api, client: FlaskClient) -> None:
    session_with(api, [pick("Ann", "Bob", 75), pick("Bob", "Cat", 75)], name="Friday")
    session_with(api, [pick("Ann", "Bob", 75)], name="Saturday")
    session_with(api, [], name="Sunday", players=["Ann", "Bob", "Cat", "Dan", "Fay"])
    items = [" ".join(item) for item in page(client, "/").items]
    assert len(items) == 3
    expected = {"Friday": "2 hands", "Saturday": "1 hand", "Sunday": "0 hands"}
    for name, count in expected.items():
        (item,) = (item for item in items if name in item)
        assert re.search(rf"\b{count}\b", item), item
    assert "Fay" in next(item for item in items if "Sunday" in item)
    # All three are open-ended, so the newest is the one in progress.
    assert "Sunday" in items[0]
    assert ["Resume" in item for item in items] == [True, False, False]


def test_index_puts_the_session_in_progress_first(api: Api, client: FlaskClient) -> None:
    in_progress = session_with(api, [pick("Ann", "Bob", 75)], name="Friday", rounds=1)
    session_with(api, [pick(picker, None, 75) for picker in SEATS], name="Saturday", rounds=1)
    response = client.get("/")
    items = [" ".join(item) for item in Page(response.text).items]
    assert len(items) == 2
    assert "Friday" in items[0]
    assert "Resume" in items[0]
    assert "Saturday" in items[1]
    assert "complete" in items[1]
    assert "Resume" not in items[1]
    resume = re.search(r'<a [^>]*href="([^"]*)"[^>]*>\s*Resume\s*</a>', response.text)
    assert resume is not None
    assert resume[1] == f"/sessions/{in_progress}"


# --- a session's page


def test_session_page_shows_standings_grid_running_totals_and_next_dealer(
    api: Api, client: FlaskClient
) -> None:
    session_id = session_with(
        api, [pick("Ann", "Bob", 75), pick("Cat", None, 95)], name="Friday", rounds=1
    )
    response = client.get(f"/sessions/{session_id}")
    session = Page(response.text)
    assert "Friday" in session.text
    assert re.search(r"<(b|strong)>Cat</\1> deals hand 3\b", response.text)
    assert "Bidding: Dan → Eve → Ann → Bob → Cat" in session.text
    assert "Final standings" not in session.text

    standings = [
        [player, int(place), int(total), int(won)]
        for place, player, total, won in session.rows("standings")[1:]
    ]
    assert standings == [
        ["Cat", 1, 7, 1],
        ["Ann", 2, 0, 1],
        ["Bob", 3, -1, 1],
        ["Dan", 4, -3, 0],
        ["Eve", 4, -3, 0],
    ]

    header, hands, total = grid_hands(session)
    assert header == ["#", *SEATS]
    assert [row[0] for row, _about in hands] == ["1", "2"]
    # Below each hand's scores: what happened, who dealt, Edit and Delete.
    assert [about for _row, about in hands] == [
        "Ann & Bob, 75 · Ann dealt Edit Delete",
        "Cat alone, 95 · Bob dealt Edit Delete",
    ]
    # Each player's cell holds the hand's score, then the running total.
    assert [[numbers(cell) for cell in row[1:6]] for row, _about in hands] == [
        [[2, 2], [1, 1], [-1, -1], [-1, -1], [-1, -1]],
        [[-2, 0], [-2, -1], [8, 7], [-2, -3], [-2, -3]],
    ]
    assert total[0] == "Σ"
    assert [int(cell) for cell in total[1:6]] == [0, -1, 7, -3, -3]


def test_session_page_shows_every_hand(api: Api, client: FlaskClient) -> None:
    dealers = list(islice(cycle(SEATS), 12))
    pickers = dealers[2:] + dealers[:2]
    session_id = session_with(api, [pick(picker, None, 75) for picker in pickers])
    columns = grid_columns(page(client, f"/sessions/{session_id}?hands=all"))
    assert columns["#"] == [str(n) for n in range(1, 13)]
    assert columns["about"] == [
        f"{picker} alone, 75 · {dealer} dealt Edit Delete"
        for picker, dealer in zip(pickers, dealers, strict=True)
    ]


def test_session_page_shows_pending_doublers(api: Api, client: FlaskClient) -> None:
    session_id = session_with(
        api, [{"kind": "pass"}, {"kind": "pass"}], rules={"no_bid": "doubler"}
    )
    assert "Next 2 hands doubled" in page(client, f"/sessions/{session_id}").text
    api.record(session_id, **pick("Cat", "Dan", 75))
    assert "Next 1 hand doubled" in page(client, f"/sessions/{session_id}").text


def test_session_page_says_complete(api: Api, client: FlaskClient) -> None:
    hands = [pick(picker, None, 75) for picker in SEATS]
    session = page(client, f"/sessions/{session_with(api, hands, rounds=1)}")
    assert "Final standings" in session.text
    assert "deals hand" not in session.text
    assert "Record hand" not in session.text


def test_final_standings_mark_a_player_who_left(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, [pick("Ann", None, 75)], rounds=1)
    response = client.patch(
        f"/api/sessions/{session_id}", json={"players": ["Ann", "Bob", "Cat", "Dan"]}
    )
    assert response.status_code == 200, response.json
    for picker in ("Bob", "Cat", "Dan"):
        api.record(session_id, **pick(picker, None, 75))
    final = page(client, f"/sessions/{session_id}")
    standings = [item for item in final.items if item and item[0].isdigit()][:5]
    # Ann +4 -1 -1 -1; Bob, Cat and Dan -1 +3 -1 -1 (three playing against a picker alone).
    assert [item[1:] for item in standings] == [
        ["Ann", "Winner", "+1"],
        ["Bob", "0"],
        ["Cat", "0"],
        ["Dan", "0"],
        ["Eve", "left", "-1"],
    ]


def test_session_without_hands(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, [], first_dealer="Dan")
    response = client.get(f"/sessions/{session_id}")
    session = Page(response.text)
    assert re.search(r"<(b|strong)>Dan</\1> deals hand 1\b", response.text)
    assert "Bidding: Eve → Ann → Bob → Cat → Dan" in session.text
    assert [row[1] for row in session.rows("standings")[1:]] == SEATS


# --- errors


@pytest.mark.parametrize("path", ["/sessions/999", f"/sessions/{2**31}", "/no/such/page"])
def test_unknown_page_is_an_html_404(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert response.text.lstrip().lower().startswith("<!doctype html>")


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/api/no/such/thing", 404),
        ("GET", "/api/sessions/999", 404),
        ("DELETE", "/api/sessions", 405),
        ("PUT", "/api/sessions", 405),
    ],
)
def test_api_errors_answer_json(client: FlaskClient, method: str, path: str, status: int) -> None:
    response = client.open(path, method=method)
    assert response.status_code == status
    assert response.mimetype == "application/json"
    assert isinstance(response.json, dict)
    assert response.json["error"]


# --- escaping and assets

SCRIPT = "<script>alert(1)</script>"


def test_names_are_escaped(api: Api, client: FlaskClient) -> None:
    seats = [SCRIPT, "Bob", "Cat", "Dan", "Eve"]
    session_id = session_with(api, [pick(SCRIPT, "Bob", 75)], name="<b>bold</b>", players=seats)
    for path in ("/", f"/sessions/{session_id}"):
        html = client.get(path).text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "&lt;b&gt;bold&lt;/b&gt;" in html
        assert SCRIPT not in html
        assert "<b>" not in html


def test_stylesheets_are_served_and_carried_by_the_page(client: FlaskClient) -> None:
    for name in stylesheet.NAMES:
        with client.get(f"/static/{name}") as response:
            assert response.status_code == 200
            assert response.mimetype == "text/css"
            assert response.data.strip()
    # All but the table view's.
    assert client.get("/settings").text.count("<style>") == len(stylesheet.NAMES) - 1


# --- a fixed number of queries, whatever the number of hands


def stored_session(hand_count: int) -> int:
    with writes.roster_write():
        session_id: int = rows.new_session("", SEATS, 0, None, rules.Options()).id
    for picker, partner, points in islice(
        zip(cycle(SEATS), cycle(SEATS[2:] + SEATS[:2]), cycle([75, 30, 95, 120, 0])), hand_count
    ):
        # One write for each hand, as a request would.
        with writes.session_write(session_id) as write:
            write.record_hand(
                rules.HandInput(kind="pick", picker=picker, partner=partner, picking_points=points),
                None,
            )
    return session_id


def test_session_needs_a_fixed_number_of_queries(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        few, many = stored_session(5), stored_session(200)
    assert len(client.get(f"/api/sessions/{many}").json["hands"]) == 200
    for path in ("/sessions/{}", "/api/sessions/{}"):
        counts = [
            statements_for(app, client, path.format(session_id)) for session_id in (few, many)
        ]
        assert counts[0] == counts[1], path
        assert 0 < counts[0] <= 8, path


# --- CSRF stays on outside the API


@pytest.fixture
def csrf_app(database: str, new_app: NewApp) -> Iterator[Flask]:
    with new_app(database, csrf=True) as app:
        yield app


NEW_SESSION = {
    **{f"seat_{seat}": name for seat, name in enumerate(SEATS, start=1)},
    "first_dealer": "0",
    "rounds": "1",
    "partner": "jack_of_diamonds",
    "no_bid": "forced_pick",
}
HAND = {"number": "1", "kind": "pick", "picker": "Ann", "partner": "Bob", "picking_points": "75"}


def csrf_token(client: FlaskClient, path: str) -> str:
    """The token a form page hands out, as a browser would send it back."""
    response = client.get(path)
    assert response.status_code == 200
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', response.text)
    assert token is not None, "the form carries no csrf_token"
    return token[1]


def test_new_session_form_needs_the_csrf_token(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    refused = client.post("/sessions/new", data=NEW_SESSION)
    assert refused.status_code == 400
    assert client.get("/api/sessions").json == {"sessions": []}

    token = csrf_token(client, "/sessions/new")
    created = client.post("/sessions/new", data={**NEW_SESSION, "csrf_token": token})
    assert created.status_code == 302
    (session,) = client.get("/api/sessions").json["sessions"]
    assert created.location == f"/sessions/{session['id']}"
    assert session["players"] == SEATS


def test_hand_form_needs_the_csrf_token(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    session_id = Api(client).new_session()["id"]
    path = f"/sessions/{session_id}/hands/new"
    refused = client.post(path, data=HAND)
    assert refused.status_code == 400
    assert Api(client).session(session_id)["hands"] == []

    saved = client.post(path, data={**HAND, "csrf_token": csrf_token(client, path)})
    assert saved.status_code == 302
    (hand,) = Api(client).session(session_id)["hands"]
    assert hand["scores"] == {"Ann": 2, "Bob": 1, "Cat": -1, "Dan": -1, "Eve": -1}


def test_api_needs_no_csrf_token_with_csrf_on(csrf_app: Flask) -> None:
    assert "csrf" in csrf_app.extensions
    response = csrf_app.test_client().post("/api/sessions", json={"players": SEATS, "rounds": 1})
    assert response.status_code == 201, response.json


# --- a scoresheet of any table

SIX = [*SEATS, "Fay"]
SAT_OUT = "\N{EN DASH} sat out"  # a dash for the eye, words for a screen reader


def test_scoresheet_of_players_arriving_sitting_out_and_leaving(
    api: Api, client: FlaskClient
) -> None:
    session_id = session_with(api, [pick("Ann", "Bob", 70)], players=SIX, first_dealer="Fay")
    sheet = page(client, f"/sessions/{session_id}")
    assert "Ann deals hand 2 · Ann sits out" in sheet.text
    # Gus sits down after Fay, and Bob leaves: Gus deals hand 2 (he sat down after its dealer).
    patched = client.patch(
        f"/api/sessions/{session_id}", json={"players": ["Ann", "Cat", "Dan", "Eve", "Fay", "Gus"]}
    )
    assert patched.status_code == 200
    api.record(session_id, **pick("Cat", "Dan", 95))
    response = client.get(f"/sessions/{session_id}")
    sheet = Page(response.text)
    assert re.search(
        r'<strong>Ann</strong> deals hand 3 · <span class="sits-out">Ann sits out', response.text
    )
    header, hands, total = grid_hands(sheet)
    assert header == ["#", "Ann", "Bob left", "Cat", "Dan", "Eve", "Fay", "Gus"]
    (first, about_1), (second, about_2) = hands
    # Who sat out shows a dash and their running total, who wasn't seated nothing at all.
    out = f"{SAT_OUT} 0"
    assert first == ["1", "+2 +2", "+1 +1", "-1 -1", "-1 -1", "-1 -1", out, "not seated"]
    assert second == ["2", "-2 0", "not seated", "+4 +3", "+2 +1", "-2 -3", "-2 -2", out]
    assert about_1 == "Ann & Bob, 70 · Fay dealt · Fay sat out Edit Delete"
    assert about_2 == "Cat & Dan, 95 · Gus dealt · Gus sat out Edit Delete"
    assert total == ["Σ", "0", "+1", "+3", "+1", "-3", "-2", "0"]
    # Bob left and keeps his total, marked in the standings.
    standings = {row[1]: row[2] for row in sheet.rows("standings")[1:]}
    assert standings == {
        "Cat": "+3", "Bob left": "+1", "Dan": "+1", "Ann": "0",
        "Gus": "0", "Fay": "-2", "Eve": "-3",
    }  # fmt: skip
    assert f'href="/sessions/{session_id}/seats"' in response.text


def test_seven_seated_say_who_sits_out_dealer_first(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, [], players=[*SIX, "Gus"], first_dealer="Cat")
    assert "Cat deals hand 1 · Cat and Bob sit out" in page(client, f"/sessions/{session_id}").text


def test_eight_players_get_a_column_each_with_short_names(api: Api, client: FlaskClient) -> None:
    players = ["Annabel", "Annabeth", "Bob", "Christopher", "Dan", "Eve", "Fay", "Gus"]
    session_id = session_with(api, [pick("Dan", "Eve", 70)], players=players)
    response = client.get(f"/sessions/{session_id}")
    header, ((row, _about),), _total = grid_hands(Page(response.text))
    # Each header shows a short name and says the full one to a screen reader.
    assert header == ["#", "Annabel", "Annabet Annabeth", "Bob", "Chr Christopher",
                      "Dan", "Eve", "Fay", "Gus"]  # fmt: skip
    # Annabel deals and sits out with Gus and Fay before her.
    out = f"{SAT_OUT} 0"
    assert row == ["1", out, "-1 -1", "-1 -1", "-1 -1", "+2 +2", "+1 +1", out, out]


# --- house rules, results, penalty hands and the settle-up


def test_scoresheet_says_the_rules_a_result_and_a_penalty(api: Api, client: FlaskClient) -> None:
    house = {"bump": True, "penalties": True, "max_multiplier": 8, "stake": 150}
    session_id = session_with(
        api,
        [
            {"kind": "pick", "picker": "Bob", "partner": "Cat", "result": "lost"},
            {"kind": "penalty", "penalized": "Dan"},
        ],
        rules={**house, "no_bid": "doubler", "doublers": "stack"},
    )
    sheet = page(client, f"/sessions/{session_id}")
    assert (
        "Rules: Jack of diamonds partner · all pass: re-deal and double · Doublers stack · "
        "bump doubles a loss · cap x8 · penalty hands · $1.50 a point"
    ) in sheet.text
    columns = grid_columns(sheet)
    assert columns["about"] == [
        "Bob & Cat, lost, doubled on the bump · Ann dealt Edit Delete",
        "Dan penalized · Bob dealt Edit Delete",
    ]
    # Example 12's bump, then Dan pays 1 to each other player.
    assert columns["Dan"] == ["+2 +2", "-4 -2"]
    assert columns["Bob"] == ["-4 -4", "+1 -3"]


def test_scoresheet_of_the_usual_rules(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, [], players=[*SEATS, "Fay"], rules={"sitting_out": "none"})
    response = client.get(f"/sessions/{session_id}")
    assert (
        '<p class="rules-words"><span class="sr">Rules: </span>Jack of diamonds partner · '
        "all pass: the dealer picks · everyone plays · no stake</p>"
    ) in response.text
    assert f'href="/sessions/{session_id}/settle-up">Settle up</a>' in response.text


def test_settle_up_page_in_points_and_in_money(api: Api, client: FlaskClient) -> None:
    hands = [pick("Ann", "Bob", 75), pick("Cat", None, 95), pick("Dan", "Eve", 40)]
    session_id = session_with(api, hands, name="Friday")
    settle = page(client, f"/sessions/{session_id}/settle-up")
    # Totals: Ann +1, Bob 0, Cat +8, Dan -5, Eve -4; the payments are the engine's.
    assert settle.rows("balances") == [
        ["Player", "Points"],
        ["Cat", "+8"],
        ["Ann", "+1"],
        ["Bob", "0"],
        ["Eve", "-4"],
        ["Dan", "-5"],
    ]
    payments = client.get(f"/api/sessions/{session_id}/settle-up").json["payments"]
    assert len(payments) == 3
    assert settle_items(settle) == [
        [p["from"], "pays", p["to"], *f"{p['amount']} point{'s' * (p['amount'] != 1)}".split()]
        for p in payments
    ]
    assert "played for points" in settle.text
    api.client.patch(f"/api/sessions/{session_id}", json={"rules": {"stake": 5}})
    settle = page(client, f"/sessions/{session_id}/settle-up")
    assert [item[-1] for item in settle_items(settle)] == [
        f"${p['amount'] * 5 / 100:.2f}" for p in payments
    ]
    assert settle.rows("balances")[:3] == [
        ["Player", "Money"],
        ["Cat", "+$0.40"],
        ["Ann", "+$0.05"],
    ]
    assert "Friday Standings: 1. Cat +8, 2. Ann +1, 3. Bob 0, 4. Eve -4, 5. Dan -5" in settle.text
    assert "Biggest hand: hand 2, Cat alone, 95: Cat +8, 4 others -2" in settle.text


def test_settle_up_of_a_session_without_hands(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, [])
    assert (
        "Nothing to settle: no hand is played."
        in page(client, f"/sessions/{session_id}/settle-up").text
    )


def test_settle_the_season_from_the_history_page(api: Api, client: FlaskClient) -> None:
    session_with(api, [pick("Ann", "Bob", 75)], rules={"stake": 10})
    session_with(api, [pick("Ann", "Bob", 30)], rules={"stake": 20})
    session_with(api, [pick("Cat", "Dan", 75)])
    history = client.get("/sessions?from=2020-01-01&to=2100-12-31").text
    assert 'href="/settle-up?from=2020-01-01&amp;to=2100-12-31">Settle the season</a>' in history
    season = page(client, "/settle-up?from=2020-01-01&to=2100-12-31")
    assert (
        "each session at its own stake; sessions played without a stake are left out" in season.text
    )
    # Ann +2 x 10c then -4 x 20c: -60c; Bob +1 x 10c, -2 x 20c: -30c; the others +30c each.
    assert season.rows("balances")[1:] == [
        ["Cat", "+$0.30"],
        ["Dan", "+$0.30"],
        ["Eve", "+$0.30"],
        ["Bob", "-$0.30"],
        ["Ann", "-$0.60"],
    ]
    payments = client.get("/api/settle-up?from=2020-01-01&to=2100-12-31").json["payments"]
    assert [(p["from"], p["amount"]) for p in payments] == [("Ann", 30), ("Ann", 30), ("Bob", 30)]
    assert settle_items(season) == [[p["from"], "pays", p["to"], "$0.30"] for p in payments]


def settle_items(settle: Page) -> list[list[str]]:
    return [item for item in settle.items if "pays" in item]


def test_settle_the_season_refuses_dates_it_can_t_read(client: FlaskClient) -> None:
    response = client.get("/settle-up?from=yesterday")
    assert response.status_code == 400
    assert (
        "From: “yesterday” is not a date. A date is written like 2026-11-21."
        in Page(response.text).text
    )
