"""Pairs an event keeps apart (RULES.md "Tournament tables: keeping apart", API.md "Club
events"): given with the event or changed later through the API, checked by the engine with
its sentences at `apart`, honoured by every draw (the rules' example of ten players in two
tables of five), said on the draw's preview, and kept through a rename of a player."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from ..helpers.events import (
    check_in,
    drawn,
    end_round,
    event_of,
    last_tables,
    make_event,
    names,
    together,
)
from ..helpers.pages import page
from ..helpers.rules import assert_sentence

COUPLES = [["Player 01", "Player 02"], ["Player 03", "Player 04"]]


def test_an_event_keeps_the_pairs_it_is_given_and_says_them(client: FlaskClient) -> None:
    event = make_event(client, apart=[[" Ann ", "Bob"], ["Cat", "Dan"]])
    assert event["apart"] == [["Ann", "Bob"], ["Cat", "Dan"]]
    assert event["practice"] is False
    assert event_of(client, event["id"])["apart"] == [["Ann", "Bob"], ["Cat", "Dan"]]
    assert make_event(client)["apart"] == []


def test_names_of_players_are_spelled_as_the_players_are(client: FlaskClient) -> None:
    first = make_event(client, players=2)
    assert first["players"][0]["name"] == "Player 01"
    event = make_event(client, apart=[["player 01", "PLAYER 02"], ["player 01", "Newcomer"]])
    assert event["apart"] == [["Player 01", "Player 02"], ["Player 01", "Newcomer"]]


def test_ten_players_in_two_tables_of_five_every_draw_keeps_both_pairs_apart(
    client: FlaskClient,
) -> None:
    for seed in range(4):
        event = make_event(client, players=10, seed=seed, apart=COUPLES)
        for _ in range(4):
            event = drawn(client, event["id"])
            assert [len(t["seats"]) for t in last_tables(event)] == [5, 5]
            end_round(client, event)
        assert [together(event, pair) for pair in COUPLES] == [[], []]


def test_pairs_kept_apart_may_change_after_a_draw_and_apply_to_the_draws_after(
    client: FlaskClient,
) -> None:
    # Find a seed whose second round seats Player 05 and Player 06 together when nothing keeps
    # them apart.
    for seed in range(40):
        free = make_event(client, players=10, seed=seed)
        drawn(client, free["id"])
        end_round(client, event_of(client, free["id"]))
        if together(drawn(client, free["id"]), ("Player 05", "Player 06")) == [2]:
            break
    else:
        pytest.fail("no seed seats them together in round 2")
    event = make_event(client, players=10, seed=seed)
    end_round(client, drawn(client, event["id"]))
    changed = client.patch(
        f"/api/events/{event['id']}", json={"apart": [["Player 05", "Player 06"]]}
    )
    assert changed.status_code == 200, changed.json
    assert changed.json["apart"] == [["Player 05", "Player 06"]]
    assert changed.json["version"] == event_of(client, event["id"])["version"]
    assert together(drawn(client, event["id"]), ("Player 05", "Player 06")) == []


@pytest.mark.parametrize(
    ("apart", "sentence"),
    [
        ([["Ann"]], "Pair 1 to keep apart names 1 players; a pair names two."),
        ([["Ann", "ann"]], "Ann can't be kept apart from Ann: a pair names two players."),
        (
            [["Ann", "Bob"], ["Bob", "Ann"]],
            "Ann and Bob are kept apart twice: name each pair once.",
        ),
        ([["Ann", " "]], "A player's name must be 1 to 40 characters long."),
        ([["Ann", 3]], "A player's name must be given as text."),
        (
            "Ann and Bob",
            'Keep apart is a list of pairs of players\' names, such as [["Ann", "Bob"]].',
        ),
        ([["Ann", "Bob"]] * 201, "At most 200 pairs can be kept apart, not 201."),
    ],
)
def test_pairs_that_are_not_two_different_players_are_refused_at_apart(
    client: FlaskClient, apart: object, sentence: str
) -> None:
    made = client.post("/api/events", json={"name": "Night", "apart": apart})
    assert made.status_code == 400
    assert made.json == {"error": sentence, "field": "apart"}
    assert_sentence(sentence)
    event = make_event(client, apart=[["Ann", "Bob"]])
    changed = client.patch(f"/api/events/{event['id']}", json={"apart": apart})
    assert changed.status_code == 400
    assert changed.json == {"error": sentence, "field": "apart"}
    assert event_of(client, event["id"])["apart"] == [["Ann", "Bob"]]


def test_a_renamed_player_is_still_kept_apart_and_a_merge_leaves_no_pair_of_one(
    client: FlaskClient,
) -> None:
    event = make_event(client, players=3, apart=[["Player 01", "Player 02"], ["Player 02", "Zed"]])
    players = {p["name"]: p["id"] for p in client.get("/api/players").json["players"]}
    renamed = client.patch(f"/api/players/{players['Player 02']}", json={"name": "Bea"})
    assert renamed.status_code == 200, renamed.json
    after = event_of(client, event["id"])
    assert after["apart"] == [["Player 01", "Bea"], ["Bea", "Zed"]]
    assert after["version"] == event["version"] + 1
    merged = client.post(
        f"/api/players/{players['Player 01']}/merge", json={"into": players["Player 03"]}
    )
    assert merged.status_code == 409  # both are players of the event
    other = make_event(client, apart=[["Player 03", "Solo"]])
    check_in(client, other["id"], "Solo")
    solo = {p["name"]: p["id"] for p in client.get("/api/players").json["players"]}["Solo"]
    merged = client.post(f"/api/players/{solo}/merge", json={"into": players["Player 03"]})
    assert merged.status_code == 200, merged.json
    assert event_of(client, other["id"])["apart"] == []


def test_the_draw_preview_says_no_couples_together_and_the_repeats(client: FlaskClient) -> None:
    event = make_event(client, players=10, seed=3, apart=COUPLES)
    shown = page(client, f"/events/{event['id']}/draw")
    assert "No couples together." in shown.text
    end_round(client, drawn(client, event["id"]))
    shown = page(client, f"/events/{event['id']}/draw")
    repeats = shown.text.split("No couples together, ")[1].split(" repeat")[0]
    assert int(repeats) >= 0
    everyone = make_event(
        client, players=3, apart=[[a, b] for a in names(3) for b in names(3) if a < b]
    )
    shown = page(client, f"/events/{everyone['id']}/draw")
    assert "3 couples together, the fewest the draw found." in shown.text
