"""Days at the ends of the calendar in every date filter, each counting days in the server's time
zone: a day it can't say the start or end of is refused with a sentence at its field, the days
it can are taken. None answers 500."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from ..helpers.api import Api, pick

EDGES = "?from=0001-01-02&to=9999-12-30"


@pytest.mark.parametrize(
    ("query", "field", "typed"),
    [
        ("?from=0001-01-01", "from", "0001-01-01"),
        ("?to=0001-01-01", "to", "0001-01-01"),
        ("?from=2026-01-01&to=9999-12-31", "to", "9999-12-31"),
    ],
)
def test_a_settle_up_refuses_a_day_it_cannot_place_in_time(
    api: Api, client: FlaskClient, query: str, field: str, typed: str
) -> None:
    api.record(api.new_session()["id"], **pick("Ann", "Bob", 75))
    sentence = f"The {field} date must be a day from 0001-01-02 to 9999-12-30."
    response = client.get(f"/api/settle-up{query}")
    assert (response.status_code, response.json) == (400, {"error": sentence, "field": field})
    page = client.get(f"/settle-up{query}")
    assert page.status_code == 400
    assert f'<p class="error" role="alert">{sentence}</p>' in page.text
    assert f'name="{field}" value="{typed}"' in page.text


def test_a_settle_up_takes_the_first_and_last_days_it_can_place(
    api: Api, client: FlaskClient
) -> None:
    api.record(api.new_session()["id"], **pick("Ann", "Bob", 75))
    answer = client.get("/api/settle-up?from=0001-01-02&to=9999-12-30")
    assert answer.status_code == 200
    assert answer.json["balances"] == {"Ann": 2, "Bob": 1, "Cat": -1, "Dan": -1, "Eve": -1}
    page = client.get("/settle-up?from=0001-01-02&to=9999-12-30")
    assert page.status_code == 200
    assert "Ann" in page.text and 'role="alert"' not in page.text


def test_the_other_date_filters_take_the_ends_of_the_calendar(
    api: Api, client: FlaskClient
) -> None:
    api.record(api.new_session()["id"], **pick("Ann", "Bob", 75))
    for path in ("/sessions", "/leaderboard", "/leaderboard.csv", "/players/1"):
        response = client.get(f"{path}{EDGES}")
        assert response.status_code == 200, path
        assert "Ann" in response.text, path


@pytest.mark.parametrize("path", ["/sessions", "/leaderboard", "/players/1"])
def test_the_other_date_filters_refuse_a_day_past_them_as_the_settle_ups_do(
    api: Api, client: FlaskClient, path: str
) -> None:
    api.record(api.new_session()["id"], **pick("Ann", "Bob", 75))
    sentence = "The to date must be a day from 0001-01-02 to 9999-12-30."
    response = client.get(f"{path}?to=9999-12-31")
    assert response.status_code == 400
    assert sentence in response.text
