"""Tables of 3 to 8 seated through the JSON API: sessions of every size, RULES.md examples 6-11,
players arriving, leaving and changing places between hands, and the refusals. Editing,
deleting and restoring an earlier hand after a seat change keeps every hand's own seats and
dealer, and `flask check` finds the stored scores consistent afterwards."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient, FlaskCliRunner

from ..helpers.api import Api, pick, refused

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def patch(
    api: Api, session_id: int, status: int = 200, headers: dict[str, str] | None = None, **body: Any
) -> dict[str, Any]:
    response = api.client.patch(f"/api/sessions/{session_id}", json=body, headers=headers)
    assert response.status_code == status, response.json
    return response.json  # type: ignore[no-any-return]


def assert_checks_clean(runner: FlaskCliRunner, sessions: int = 1) -> None:
    result = runner.invoke(args=["check"])
    assert result.exit_code == 0, result.output
    assert result.output == (
        f"Checked {sessions} session{'s' if sessions != 1 else ''}: "
        "every one is consistent with its hands.\n"
    )


# Sessions of every size


@pytest.mark.parametrize(
    ("count", "partner", "sitting_out_next", "players"),
    [
        (3, "alone", [], ["Bob", "Cat", "Ann"]),
        (4, "alone", [], ["Bob", "Cat", "Dan", "Ann"]),
        (5, "jack_of_diamonds", [], ["Bob", "Cat", "Dan", "Eve", "Ann"]),
        (6, "jack_of_diamonds", ["Ann"], ["Bob", "Cat", "Dan", "Eve", "Fay"]),
        (7, "jack_of_diamonds", ["Ann", "Gus"], ["Bob", "Cat", "Dan", "Eve", "Fay"]),
        (8, "jack_of_diamonds", ["Ann", "Gus", "Hal"], ["Bob", "Cat", "Dan", "Eve", "Fay"]),
    ],
)
def test_sessions_of_three_to_eight(
    api: Api, count: int, partner: str, sitting_out_next: list[str], players: list[str]
) -> None:
    session = api.new_session(players=NAMES[:count])
    assert session["players"] == NAMES[:count]
    assert session["rules"]["partner"] == partner
    assert session["rules"]["sitting_out"] == "dealer"
    assert session["next_dealer"] == "Ann"
    assert session["sitting_out_next"] == sitting_out_next
    assert session["totals"] == dict.fromkeys(NAMES[:count], 0)

    hand = api.record(session["id"], **pick("Bob", None, 75))
    assert hand["dealer"] == "Ann"
    assert hand["players"] == players
    assert hand["seats"] == NAMES[:count]
    assert hand["sitting_out"] == sitting_out_next
    opponents = len(players) - 1
    assert hand["scores"] == {
        p: opponents if p == "Bob" else -1 if p in players else 0 for p in NAMES[:count]
    }
    after = api.session(session["id"])
    assert after["next_dealer"] == "Bob"
    assert after["totals"] == hand["scores"]


@pytest.mark.parametrize("count", [3, 4, 5, 6, 7])
def test_sitting_out_none_lets_everyone_play(api: Api, count: int) -> None:
    session = api.new_session(players=NAMES[:count], rules={"sitting_out": "none"})
    assert session["rules"]["sitting_out"] == "none"
    assert session["sitting_out_next"] == []
    hand = api.record(session["id"], **pick("Bob", None, 120))
    assert hand["players"] == [*NAMES[1:count], "Ann"]
    assert hand["sitting_out"] == []
    assert hand["scores"] == {p: 3 * (count - 1) if p == "Bob" else -3 for p in NAMES[:count]}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": NAMES[:2]}, "players"),
        ({"players": [*NAMES, "Ida"]}, "players"),
        ({"players": ["Ann", "Bob", "Cat", "ann"]}, "players"),
        ({"players": NAMES[:3], "rules": {"partner": "jack_of_diamonds"}}, "players"),
        ({"players": NAMES[:3], "rules": {"partner": "called_ace"}}, "players"),
        ({"players": NAMES, "rules": {"sitting_out": "none"}}, "players"),
        ({"players": NAMES[:6], "rules": {"sitting_out": "everyone"}}, "rules"),
    ],
)
def test_new_sessions_at_a_size_their_rules_cant_play_are_refused(
    api: Api, client: FlaskClient, body: dict[str, Any], field: str
) -> None:
    answer = api.new_session(status=400, **body)
    assert answer["field"] == field
    assert client.get("/api/sessions").json["sessions"] == []


# Worked examples 6-11 of RULES.md


EXAMPLES = [
    pytest.param(
        ["Ann", "Bob", "Cat"],
        {},
        "Cat",
        pick("Ann", None, 75),
        ["Ann", "Bob", "Cat"],
        [],
        {"Ann": 2, "Bob": -1, "Cat": -1},
        id="6-three-seated",
    ),
    pytest.param(
        NAMES[:4],
        {"partner": "alone"},
        "Dan",
        pick("Ann", None, 95),
        ["Ann", "Bob", "Cat", "Dan"],
        [],
        {"Ann": 6, "Bob": -2, "Cat": -2, "Dan": -2},
        id="7-four-seated-alone",
    ),
    pytest.param(
        NAMES[:6],
        {},
        "Fay",
        pick("Ann", "Bob", 70),
        ["Ann", "Bob", "Cat", "Dan", "Eve"],
        ["Fay"],
        {"Ann": 2, "Bob": 1, "Cat": -1, "Dan": -1, "Eve": -1, "Fay": 0},
        id="8-six-seated",
    ),
    pytest.param(
        NAMES[:7],
        {},
        "Cat",
        pick("Dan", "Ann", 75),
        ["Dan", "Eve", "Fay", "Gus", "Ann"],
        ["Bob", "Cat"],
        {"Ann": 1, "Bob": 0, "Cat": 0, "Dan": 2, "Eve": -1, "Fay": -1, "Gus": -1},
        id="9-seven-seated",
    ),
    pytest.param(
        NAMES[:6],
        {"sitting_out": "none"},
        "Fay",
        pick("Ann", "Bob", 70),
        ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"],
        [],
        {"Ann": 3, "Bob": 1, "Cat": -1, "Dan": -1, "Eve": -1, "Fay": -1},
        id="10-six-all-play",
    ),
    pytest.param(
        ["Ann", "Bob", "Cat"],
        {"no_bid": "leaster"},
        "Ann",
        {"kind": "leaster", "winner": "Bob"},
        ["Bob", "Cat", "Ann"],
        [],
        {"Ann": -1, "Bob": 2, "Cat": -1},
        id="11-leaster-three-playing",
    ),
]


@pytest.mark.parametrize(
    ("seats", "rules", "dealer", "hand", "players", "sitting_out", "scores"), EXAMPLES
)
def test_worked_examples(
    api: Api,
    seats: list[str],
    rules: dict[str, Any],
    dealer: str,
    hand: dict[str, Any],
    players: list[str],
    sitting_out: list[str],
    scores: dict[str, int],
) -> None:
    session = api.new_session(players=seats, rules=rules, first_dealer=dealer)
    assert session["sitting_out_next"] == sitting_out
    answer = api.record(session["id"], **hand)
    assert answer["dealer"] == dealer
    assert answer["players"] == players
    assert answer["seats"] == seats
    assert answer["sitting_out"] == sitting_out
    assert answer["scores"] == scores
    after = api.session(session["id"])
    assert after["hands"] == [answer]
    assert after["totals"] == scores


# Players arriving, leaving and changing places


def test_an_arrival_sits_where_the_deal_reaches_them(api: Api, runner: FlaskCliRunner) -> None:
    session = api.new_session()
    sid = session["id"]
    api.record(sid, **pick("Cat", "Dan", 75))
    api.record(sid, **pick("Cat", "Dan", 75))
    before = api.session(sid)
    assert before["next_dealer"] == "Cat"

    # Gus sits down right after Bob, the last dealer: Gus deals next, and sits out (six seated).
    seats = ["Ann", "Bob", "Gus", "Cat", "Dan", "Eve"]
    changed = patch(api, sid, players=seats)
    assert changed["version"] == before["version"] + 1
    assert changed["players"] == seats
    assert changed["next_dealer"] == "Gus"
    assert changed["sitting_out_next"] == ["Gus"]
    assert changed["totals"] == {**before["totals"], "Gus": 0}
    assert list(changed["totals"]) == ["Ann", "Bob", "Cat", "Dan", "Eve", "Gus"]
    assert [h["scores"]["Gus"] for h in changed["hands"]] == [0, 0]
    assert [h["seats"] for h in changed["hands"]] == [NAMES[:5]] * 2
    assert changed["complete"] is False

    hand = api.record(sid, **pick("Cat", "Ann", 95))
    assert (hand["number"], hand["dealer"]) == (3, "Gus")
    assert hand["seats"] == seats
    assert hand["sitting_out"] == ["Gus"]
    assert hand["players"] == ["Cat", "Dan", "Eve", "Ann", "Bob"]
    assert hand["scores"] == {"Ann": 2, "Bob": -2, "Cat": 4, "Dan": -2, "Eve": -2, "Gus": 0}

    # Fay sits down elsewhere (after Eve): Cat, after Gus, deals; Fay when the deal reaches her.
    seats = ["Ann", "Bob", "Gus", "Cat", "Dan", "Eve", "Fay"]
    changed = patch(api, sid, players=seats)
    assert changed["next_dealer"] == "Cat"
    assert changed["sitting_out_next"] == ["Gus", "Cat"]
    assert list(changed["totals"]) == ["Ann", "Bob", "Cat", "Dan", "Eve", "Gus", "Fay"]
    assert [h["scores"]["Fay"] for h in changed["hands"]] == [0, 0, 0]
    assert [s["seated"] for s in changed["standings"]] == [True] * 7
    for dealer in ("Cat", "Dan", "Eve", "Fay", "Ann"):
        assert api.record(sid, **pick("Bob", None, 61))["dealer"] == dealer
    assert api.session(sid)["next_dealer"] == "Bob"
    assert_checks_clean(runner)


def six_with_fay_dealing(api: Api) -> int:
    """Six seated, Fay deals first; Fay then Ann deal and sit out."""
    sid: int = api.new_session(players=NAMES[:6], first_dealer="Fay")["id"]
    api.record(sid, **pick("Ann", "Bob", 70))
    api.record(sid, **pick("Fay", "Eve", 95))
    return sid


def test_a_departure_keeps_their_total_and_names_them_in_every_hand(
    api: Api, runner: FlaskCliRunner
) -> None:
    sid = six_with_fay_dealing(api)
    changed = patch(api, sid, players=NAMES[:5])
    assert changed["players"] == NAMES[:5]
    assert changed["next_dealer"] == "Bob"
    assert changed["sitting_out_next"] == []

    hand = api.record(sid, **pick("Cat", "Dan", 75))
    assert (hand["dealer"], hand["seats"], hand["sitting_out"]) == ("Bob", NAMES[:5], [])
    assert hand["players"] == ["Cat", "Dan", "Eve", "Ann", "Bob"]
    session = api.session(sid)
    assert [h["scores"] for h in session["hands"]] == [
        {"Ann": 2, "Bob": 1, "Cat": -1, "Dan": -1, "Eve": -1, "Fay": 0},
        {"Ann": 0, "Bob": -2, "Cat": -2, "Dan": -2, "Eve": 2, "Fay": 4},
        {"Ann": -1, "Bob": -1, "Cat": 2, "Dan": 1, "Eve": -1, "Fay": 0},
    ]
    assert [h["sitting_out"] for h in session["hands"]] == [["Fay"], ["Ann"], []]
    assert session["totals"] == {"Ann": 1, "Bob": -2, "Cat": -1, "Dan": -2, "Eve": 0, "Fay": 4}
    assert session["hands_won"] == {"Ann": 1, "Bob": 1, "Cat": 1, "Dan": 1, "Eve": 1, "Fay": 1}
    assert session["standings"] == [
        {"player": "Fay", "total": 4, "hands_won": 1, "place": 1, "seated": False},
        {"player": "Ann", "total": 1, "hands_won": 1, "place": 2, "seated": True},
        {"player": "Eve", "total": 0, "hands_won": 1, "place": 3, "seated": True},
        {"player": "Cat", "total": -1, "hands_won": 1, "place": 4, "seated": True},
        {"player": "Bob", "total": -2, "hands_won": 1, "place": 5, "seated": True},
        {"player": "Dan", "total": -2, "hands_won": 1, "place": 5, "seated": True},
    ]

    # Fay is not seated: no hand can name her, nor can she deal.
    assert (
        refused(api.client, f"/api/sessions/{sid}/hands", pick("Fay", None, 75), 400, "picker")
        == "Fay is not playing in this hand."
    )
    assert (
        refused(api.client, f"/api/sessions/{sid}/hands", pick("Ann", "Fay", 75), 400, "partner")
        == "Fay is not playing in this hand."
    )
    assert (
        refused(
            api.client,
            f"/api/sessions/{sid}/hands",
            {**pick("Ann", None, 75), "dealer": "Fay"},
            400,
            "dealer",
        )
        == "Fay is not playing in this session."
    )

    # Bob, the last dealer, leaves too: Cat, after him in that hand's seats, deals.
    changed = patch(api, sid, players=["Ann", "Cat", "Dan", "Eve", "Hal"])
    assert changed["next_dealer"] == "Cat"
    assert [(s["player"], s["seated"]) for s in changed["standings"] if not s["seated"]] == [
        ("Fay", False),
        ("Bob", False),
    ]
    assert list(changed["totals"]) == ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Hal"]
    assert api.record(sid, **pick("Hal", "Ann", 75))["dealer"] == "Cat"
    assert_checks_clean(runner)


def test_everyone_leaving_passes_the_deal_to_the_first_seat(api: Api) -> None:
    sid = api.new_session(players=NAMES[:3])["id"]
    api.record(sid, **pick("Bob", None, 75))
    changed = patch(api, sid, players=["Gus", "Hal", "Fay", "Eve"])
    assert changed["next_dealer"] == "Gus"
    assert changed["rules"]["partner"] == "alone"
    assert sorted(s["player"] for s in changed["standings"] if not s["seated"]) == NAMES[:3]
    assert api.record(sid, **pick("Hal", None, 75))["dealer"] == "Gus"


def test_a_reorder_changes_who_deals_next_and_the_bidding_order(
    api: Api, runner: FlaskCliRunner
) -> None:
    sid = api.new_session()["id"]
    api.record(sid, **pick("Cat", "Dan", 75))
    reordered = ["Eve", "Dan", "Cat", "Bob", "Ann"]
    changed = patch(api, sid, players=reordered)
    assert changed["players"] == reordered
    # Ann dealt, and Eve now sits to her left (the seat after Ann, wrapping round).
    assert changed["next_dealer"] == "Eve"
    assert list(changed["totals"]) == NAMES[:5]
    assert changed["hands"][0]["seats"] == NAMES[:5]
    hand = api.record(sid, **pick("Cat", "Dan", 75))
    assert hand["dealer"] == "Eve"
    assert hand["seats"] == reordered
    assert hand["players"] == ["Dan", "Cat", "Bob", "Ann", "Eve"]
    # Dan deals next: Bob now bids before Ann, so he can't crack her pick; Eve bids after her.
    assert api.session(sid)["next_dealer"] == "Dan"
    assert (
        refused(
            api.client,
            f"/api/sessions/{sid}/hands",
            pick("Ann", None, 75, cracked_by="Bob"),
            400,
            "cracked_by",
        )
        == "Bob bid before Ann, so Bob can't crack."
    )
    cracked = api.record(sid, **pick("Ann", None, 75, cracked_by="Eve"))
    assert cracked["players"] == ["Cat", "Bob", "Ann", "Eve", "Dan"]
    assert cracked["multiplier"] == 2
    assert_checks_clean(runner)


def test_the_first_dealer_moves_on_when_they_leave_before_any_hand(api: Api) -> None:
    sid = api.new_session(first_dealer="Cat")["id"]
    changed = patch(api, sid, players=["Ann", "Bob", "Dan", "Eve", "Fay", "Gus"])
    assert changed["next_dealer"] == "Dan"
    assert changed["sitting_out_next"] == ["Dan"]
    assert changed["totals"] == dict.fromkeys(["Ann", "Bob", "Dan", "Eve", "Fay", "Gus"], 0)
    assert api.record(sid, **pick("Eve", "Fay", 75))["dealer"] == "Dan"


def test_the_first_dealer_stays_when_the_seats_are_typed_in_another_case(api: Api) -> None:
    sid = api.new_session(first_dealer="Cat")["id"]
    changed = patch(api, sid, players=["ann", "BOB", "cat", "Dan", "eve"])
    assert changed["players"] == NAMES[:5]
    assert changed["next_dealer"] == "Cat"
    assert api.record(sid, **pick("Dan", "Eve", 75))["dealer"] == "Cat"


def test_the_first_dealer_stays_through_a_seat_change_after_a_hand_that_is_deleted(
    api: Api, runner: FlaskCliRunner
) -> None:
    sid = api.new_session(first_dealer="Cat")["id"]
    assert api.record(sid, **pick("Dan", "Eve", 75))["dealer"] == "Cat"
    changed = patch(api, sid, players=["ann", "bob", "CAT", "dan", "eve", "Fay"])
    assert changed["players"] == [*NAMES[:5], "Fay"]
    assert changed["next_dealer"] == "Dan"
    api.delete(sid, 1)
    session = api.session(sid)
    assert (session["hands"], session["next_dealer"]) == ([], "Cat")
    assert session["sitting_out_next"] == ["Cat"]
    assert api.record(sid, **pick("Dan", "Eve", 75))["dealer"] == "Cat"
    assert_checks_clean(runner)


def test_a_first_dealer_who_leaves_with_the_next_seat_passes_the_deal_on(api: Api) -> None:
    sid = api.new_session(first_dealer="Cat")["id"]
    changed = patch(api, sid, players=["ann", "eve", "bob", "Fay"])
    # Cat and Dan left: Eve, after them in the old seats, deals first.
    assert (changed["players"], changed["next_dealer"]) == (["Ann", "Eve", "Bob", "Fay"], "Eve")
    assert api.record(sid, **pick("Bob", None, 75))["dealer"] == "Eve"


def test_rounds_count_the_seats_now(api: Api) -> None:
    sid = api.new_session(rounds=1)["id"]
    for _ in range(5):
        api.record(sid, **pick("Bob", "Cat", 75))
    assert api.session(sid)["complete"] is True
    changed = patch(api, sid, players=[*NAMES[:5], "Fay"])
    assert changed["complete"] is False
    assert changed["next_dealer"] == "Fay"
    assert api.record(sid, **pick("Bob", "Cat", 75))["dealer"] == "Fay"
    assert api.session(sid)["complete"] is True
    assert api.record(sid, status=409, **pick("Bob", "Cat", 75)) == {
        "error": "This session is complete: its round is played. "
        "Add a round to record another hand."
    }


# Refusals


def test_a_player_sitting_out_is_refused(api: Api) -> None:
    sid = api.new_session(players=NAMES[:7], first_dealer="Gus", rules={"no_bid": "leaster"})["id"]
    assert api.session(sid)["sitting_out_next"] == ["Fay", "Gus"]
    for hand, field, who in [
        (pick("Fay", None, 75), "picker", "Fay"),
        (pick("gus", None, 75), "picker", "gus"),
        (pick("Ann", "Fay", 75), "partner", "Fay"),
        (pick("Ann", None, 75, cracked_by="Gus"), "cracked_by", "Gus"),
        ({"kind": "leaster", "winner": "Fay"}, "winner", "Fay"),
        (
            {"kind": "leaster", "winner": "Ann", "tricks": dict.fromkeys(NAMES[:7], 1)},
            "tricks",
            "Fay",
        ),
    ]:
        assert (
            refused(api.client, f"/api/sessions/{sid}/hands", hand, 400, field)
            == f"{who} is not playing in this hand."
        )


def test_a_leaster_with_players_sitting_out_keeps_its_points_and_tricks(
    api: Api, runner: FlaskCliRunner
) -> None:
    sid = api.new_session(players=NAMES[:7], first_dealer="Gus", rules={"no_bid": "leaster"})["id"]
    tricks = {"Ann": 1, "Bob": 1, "Cat": 1, "Dan": 0, "Eve": 3}
    points = {"Ann": 10, "Bob": 20, "Cat": 30, "Dan": 0, "Eve": 60}
    hand = api.record(sid, kind="leaster", winner="ann", tricks=tricks, points=points)
    assert (hand["winner"], hand["tricks"], hand["points"]) == ("Ann", tricks, points)
    assert hand["sitting_out"] == ["Fay", "Gus"]
    assert hand["scores"] == {
        "Ann": 4, "Bob": -1, "Cat": -1, "Dan": -1, "Eve": -1, "Fay": 0, "Gus": 0,
    }  # fmt: skip
    assert api.session(sid)["hands"] == [hand]
    # Edited in place, with its own seats, and undone.
    edited = api.replace(sid, 1, kind="leaster", winner="Bob", tricks=tricks)
    assert (edited["points"], edited["tricks"], edited["scores"]["Bob"]) == (None, tricks, 4)
    undone = api.client.post(f"/api/sessions/{sid}/history/0/restore")
    assert undone.status_code == 200, undone.json
    assert undone.json["hands"] == [hand]
    assert_checks_clean(runner)


@pytest.mark.parametrize(
    ("players", "rules", "message"),
    [
        (NAMES[:2], {}, "A table seats 3 to 8 players, not 2."),
        ([*NAMES, "Ida"], {}, "A table seats 3 to 8 players, not 9."),
        (["Ann", "Bob", "Cat", "Dan", "BOB"], {}, "BOB is seated twice."),
        (
            NAMES[:3],
            {},
            "With three seated the picker always plays alone: choose the partner rule alone.",
        ),
        (
            NAMES,
            {"sitting_out": "none"},
            "Eight can't all play a hand (there are not enough cards): "
            "with eight seated, the dealer and the two players just before the dealer sit out.",
        ),
    ],
)
def test_a_seat_change_to_a_table_that_cant_play_is_refused(
    api: Api, players: list[str], rules: dict[str, Any], message: str
) -> None:
    sid = api.new_session(players=NAMES[:6], rules=rules)["id"]
    api.record(sid, **pick("Bob", "Cat", 75))
    before = api.session(sid)
    answer = patch(api, sid, status=400, players=players)
    assert answer == {"error": message, "field": "players"}
    assert api.session(sid) == before


def test_a_seat_change_that_exceeds_the_rounds_is_a_conflict(api: Api) -> None:
    sid = api.new_session(players=NAMES[:6], rounds=1)["id"]
    for _ in range(5):
        api.record(sid, **pick("Fay", None, 75))
    before = api.session(sid)
    answer = patch(api, sid, status=409, players=NAMES[:4])
    assert answer == {
        "error": (
            "5 hands are already played, more than 1 round of 4 hands: raise the rounds first."
        ),
        "field": "players",
    }
    assert api.session(sid) == before
    # Raising the rounds first lets the same change through.
    changed = patch(api, sid, rounds=2, players=NAMES[:4])
    assert (changed["rounds"], changed["players"]) == (2, NAMES[:4])
    assert changed["version"] == before["version"] + 1
    exact = patch(api, sid, players=NAMES[:5])
    assert exact["players"] == NAMES[:5]


def test_a_seat_change_with_a_stale_if_match_is_refused(api: Api, client: FlaskClient) -> None:
    sid = api.new_session()["id"]
    etag = client.get(f"/api/sessions/{sid}").headers["ETag"]
    api.record(sid, **pick("Cat", "Dan", 75))
    before = api.session(sid)
    answer = patch(api, sid, status=412, headers={"If-Match": etag}, players=[*NAMES[:5], "Fay"])
    assert answer["field"] == "version"
    assert api.session(sid) == before
    current = client.get(f"/api/sessions/{sid}").headers["ETag"]
    changed = patch(api, sid, headers={"If-Match": current}, players=[*NAMES[:5], "Fay"])
    assert changed["players"] == [*NAMES[:5], "Fay"]
    assert changed["version"] == before["version"] + 1


def test_a_seat_change_sent_twice_with_one_key_changes_once(api: Api, client: FlaskClient) -> None:
    sid = api.new_session()["id"]
    version = api.session(sid)["version"]
    headers = {"Idempotency-Key": "gus-sits-down"}
    body = {"players": ["Ann", "Gus", "Bob", "Cat", "Dan", "Eve"]}
    first = client.patch(f"/api/sessions/{sid}", json=body, headers=headers)
    again = client.patch(f"/api/sessions/{sid}", json=body, headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.json == first.json
    assert first.json["version"] == version + 1
    assert api.session(sid)["version"] == version + 1
    # The same key with another seat order is a conflict, and changes nothing.
    other = client.patch(f"/api/sessions/{sid}", json={"players": NAMES[:5]}, headers=headers)
    assert other.status_code == 409
    assert other.json["field"] == "Idempotency-Key"
    assert api.session(sid)["players"] == body["players"]


def test_every_seat_change_adds_one_to_the_version(api: Api) -> None:
    session = api.new_session()
    sid, version = session["id"], session["version"]
    for seats in (
        [*NAMES[:5], "Fay"],
        ["Fay", *NAMES[:5]],
        NAMES[:4],
        NAMES[:8],
    ):
        changed = patch(api, sid, players=seats)
        version += 1
        assert (changed["players"], changed["version"]) == (seats, version)
    assert api.session(sid)["version"] == version


# Editing, deleting and restoring earlier hands after a seat change


def test_earlier_hands_keep_their_seats_through_edit_delete_and_restore(
    api: Api, client: FlaskClient, runner: FlaskCliRunner
) -> None:
    sid = six_with_fay_dealing(api)
    # Fay leaves; Gus sits down after Bob. Ann dealt last and is still seated: Bob deals.
    seats = ["Ann", "Bob", "Gus", "Cat", "Dan", "Eve"]
    patch(api, sid, players=seats)
    third = api.record(sid, **pick("Gus", "Eve", 95))
    assert (third["dealer"], third["sitting_out"]) == ("Bob", ["Bob"])
    before = api.session(sid)
    assert list(before["totals"]) == ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]

    # Hand 1 is edited with its own seats: Fay dealt it and sat out, Gus wasn't there.
    refused_edit = api.replace(sid, 1, status=400, **pick("Gus", None, 75))
    assert (refused_edit["field"], refused_edit["error"]) == (
        "picker",
        "Gus is not playing in this hand.",
    )
    edited = api.replace(sid, 1, **pick("Eve", "Dan", 95))
    assert edited["dealer"] == "Fay"
    assert edited["seats"] == NAMES[:6]
    assert edited["sitting_out"] == ["Fay"]
    assert edited["scores"] == {
        "Ann": -2, "Bob": -2, "Cat": -2, "Dan": 2, "Eve": 4, "Fay": 0, "Gus": 0,
    }  # fmt: skip
    session = api.session(sid)
    assert [h["dealer"] for h in session["hands"]] == ["Fay", "Ann", "Bob"]
    assert [h["seats"] for h in session["hands"]] == [NAMES[:6], NAMES[:6], seats]
    assert session["hands"][1:] == before["hands"][1:]
    assert session["next_dealer"] == "Gus"

    # Deleting hand 2 (the only hand Fay played) renumbers hand 3 and keeps its dealer; Fay,
    # who only sat out of what is left, is no longer named.
    api.delete(sid, 2)
    session = api.session(sid)
    assert [h["number"] for h in session["hands"]] == [1, 2]
    assert [h["dealer"] for h in session["hands"]] == ["Fay", "Bob"]
    assert session["hands"][1]["seats"] == seats
    assert list(session["totals"]) == ["Ann", "Bob", "Cat", "Dan", "Eve", "Gus"]
    assert session["next_dealer"] == "Gus"

    # Undoing the delete brings hand 2 back at its place, with its own seats and dealer.
    restored = client.post(f"/api/sessions/{sid}/history/0/restore")
    assert restored.status_code == 200, restored.json
    session = restored.json
    assert [h["dealer"] for h in session["hands"]] == ["Fay", "Ann", "Bob"]
    assert [h["seats"] for h in session["hands"]] == [NAMES[:6], NAMES[:6], seats]
    assert [h["sitting_out"] for h in session["hands"]] == [["Fay"], ["Ann"], ["Bob"]]
    assert session["hands"][1:] == before["hands"][1:]
    assert list(session["totals"]) == list(before["totals"])
    assert session["next_dealer"] == "Gus"
    assert api.session(sid) == session

    # Undoing the edit too gives back the session as it was before both.
    history = client.get(f"/api/sessions/{sid}/history").json["changes"]
    assert [c["action"] for c in history[:3]] == ["restore", "delete", "edit"]
    undone = client.post(f"/api/sessions/{sid}/history/2/restore")
    assert undone.status_code == 200, undone.json
    assert undone.json["hands"] == before["hands"]
    assert undone.json["totals"] == before["totals"]
    assert undone.json["standings"] == before["standings"]
    assert_checks_clean(runner)


def test_correcting_an_earlier_hands_dealer_uses_its_own_seats(
    api: Api, runner: FlaskCliRunner
) -> None:
    sid = six_with_fay_dealing(api)
    patch(api, sid, players=NAMES[:5])
    api.record(sid, **pick("Cat", "Dan", 75))
    before = api.session(sid)
    # Fay left, but she was seated for hand 1: Ann can be named its dealer, and sits out.
    corrected = api.replace(sid, 1, dealer="ann", **pick("Fay", "Bob", 70))
    assert (corrected["dealer"], corrected["seats"]) == ("Ann", NAMES[:6])
    assert corrected["sitting_out"] == ["Ann"]
    assert corrected["players"] == ["Bob", "Cat", "Dan", "Eve", "Fay"]
    assert corrected["scores"] == {"Ann": 0, "Bob": 1, "Cat": -1, "Dan": -1, "Eve": -1, "Fay": 2}
    session = api.session(sid)
    assert [h["dealer"] for h in session["hands"]] == ["Ann", "Ann", "Bob"]
    assert session["hands"][1:] == before["hands"][1:]
    assert session["next_dealer"] == before["next_dealer"] == "Cat"
    # Hand 3 was played without Fay: she can't be its dealer.
    answer = api.replace(sid, 3, status=400, dealer="Fay", **pick("Cat", "Dan", 75))
    assert answer["field"] == "dealer"
    assert api.session(sid)["hands"] == session["hands"]
    assert_checks_clean(runner)
