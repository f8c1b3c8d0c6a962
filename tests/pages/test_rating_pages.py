"""The rating where it is shown: the leaderboard's ranking by rating and its CSV, a player's
page with the rating and its chart, and `GET /api/players`, each as the rules engine rates the
hands played."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import rules
from scorekeeper.rules.rating import Ratings, hand_game

from ..helpers.api import Api, pick, session_with
from ..helpers.database import built_once
from ..helpers.pages import Page

WORKED = [
    pick("Ann", "Bob", 75),
    pick("Cat", None, 45),
    pick("Dan", "Eve", 91),
    {"kind": "leaster", "winner": "Bob"},
    pick("Eve", "Ann", 30),
]
REGULARS = ("Ann", "Bob", "Cat", "Dan", "Eve")
LATER = ("Ann", "Bob", "Cat", "Dan", "Fay")
LATER_HANDS = [pick("Fay", "Ann", 80), pick("Bob", None, 40), {"kind": "leaster", "winner": "Fay"}]
LEASTER = {"no_bid": "leaster"}


def engine_ratings() -> dict[str, rules.rating.Rating]:
    """The ratings the rules engine gives the two sessions of `league`."""
    ratings: Ratings[str] = Ratings()
    for number, (seats, hands) in enumerate(((REGULARS, WORKED * 20), (LATER, LATER_HANDS)), 1):
        table = rules.Table(seats=seats, options=rules.Options(no_bid=rules.NoBid.LEASTER))
        dealer, played = table.first_dealer, []
        for hand in hands:
            entry = rules.HandInput(**{k: v for k, v in hand.items() if v is not None})
            played.append(rules.validate_hand(table, dealer, entry))
            dealer = table.dealer_after(dealer)
        for result in rules.score_sheet(table, played).results:
            game = hand_game(result)
            assert game is not None
            ratings.play(game, (number, number))
    return {name: standing.rating for name, standing in ratings.standings.items()}


@pytest.fixture
def league(app: Flask, api: Api) -> dict[str, rules.rating.Rating]:
    """100 hands of the five regulars (each of them rated after them), then 3 hands with Fay,
    new (provisional); Gus is seated in a session with no hand yet (no rating). Written once a
    process for each database."""

    def build() -> dict[str, rules.rating.Rating]:
        session_with(api, WORKED * 20, rules=LEASTER)
        session_with(api, LATER_HANDS, rules=LEASTER, players=list(LATER))
        api.new_session(players=["Gus", "Ann", "Bob"])
        return engine_ratings()

    return built_once(app, "league", build)


def test_the_engine_rates_the_regulars_and_not_yet_fay(
    league: dict[str, rules.rating.Rating],
) -> None:
    assert {name: rating.hands for name, rating in league.items()} == {
        "Ann": 103, "Bob": 103, "Cat": 103, "Dan": 103, "Eve": 100, "Fay": 3,
    }  # fmt: skip
    assert [name for name, rating in league.items() if rating.provisional] == ["Fay"]


def test_the_leaderboard_ranks_by_rating_the_provisional_last_without_a_place(
    client: FlaskClient, league: dict[str, rules.rating.Rating]
) -> None:
    page = Page(client.get("/leaderboard").text)
    tables: list[list[list[str]]] = []
    for row in page.rows("ranking"):
        if row[0] == "#":
            tables.append([])
        else:
            tables[-1].append(row)
    by_rating = tables[-1]
    rated = sorted(
        (name for name in league if not league[name].provisional),
        key=lambda name: (-league[name].shown, name),
    )
    expected = []
    for index, name in enumerate(rated, start=1):
        shown = league[name].shown
        tied = index > 1 and league[rated[index - 2]].shown == shown
        place = expected[-1][0] if tied else str(index)
        expected.append([place, name, f"{shown} {league[name].hands} rated hands"])
    fay = league["Fay"]
    assert by_rating == [*expected, ["", "Fay", f"{fay.shown} provisional, 3 rated hands"]]
    assert "provisional until 100 rated hands" in page.text


def test_the_leaderboard_csv_has_each_players_rating(
    client: FlaskClient, league: dict[str, rules.rating.Rating]
) -> None:
    header, *rows = csv.reader(io.StringIO(client.get("/leaderboard.csv").text))
    assert header[11:14] == ["place_by_rating", "rating", "rated_hands"]
    shown = {row[3]: row[11:14] for row in rows}
    places = sorted(
        (name for name in league if not league[name].provisional),
        key=lambda name: -league[name].shown,
    )
    assert shown["Fay"] == ["", str(league["Fay"].shown), "3"]
    assert shown[places[0]] == ["1", str(league[places[0]].shown), "103"]
    assert {name: Decimal(row[1]) for name, row in shown.items()} == {
        name: rating.shown for name, rating in league.items()
    }


def test_a_player_page_shows_the_rating_and_its_chart(
    app: Flask, client: FlaskClient, league: dict[str, rules.rating.Rating]
) -> None:
    ids = {p["name"]: p["id"] for p in client.get("/api/players").json["players"]}
    ann = client.get(f"/players/{ids['Ann']}").text
    rating = league["Ann"]
    assert f"<strong>{rating.shown}</strong> <small>after 103 rated hands" in ann
    (chart,) = [svg for svg in re.findall(r'<svg class="chart".*?</svg>', ann) if "rating" in svg]
    assert "Ann&#39;s rating" in chart
    # From 0.0 before her first session, then after each of her two.
    (points,) = re.findall(r'<polyline points="([^"]+)"', chart)
    assert len(points.split()) == 3
    # Labelled at its end with her rating now.
    assert f"Ann {'+' if rating.shown > 0 else ''}{rating.shown}</text>" in chart
    fay = client.get(f"/players/{ids['Fay']}").text
    assert f"<strong>{league['Fay'].shown}</strong> <small>provisional: 3 of 100 rated hands" in fay
    gus = client.get(f"/players/{ids['Gus']}").text
    assert "Gus has played no rated hand yet (a pick or a leaster)." in gus
    # The rating is over every session, whatever the dates chosen.
    dated = client.get(f"/players/{ids['Ann']}?from=2000-01-01&to=2000-01-02").text
    assert f"<strong>{rating.shown}</strong>" in dated


def test_the_players_list_has_each_rating(
    client: FlaskClient, league: dict[str, rules.rating.Rating]
) -> None:
    listed: dict[str, Any] = {
        p["name"]: (p["rating"], p["rating_provisional"])
        for p in client.get("/api/players").json["players"]
    }
    assert listed == {
        **{name: (float(r.shown), r.provisional) for name, r in league.items()},
        "Gus": (None, True),
    }
    assert listed["Ann"][1] is False
