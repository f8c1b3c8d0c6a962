"""Properties over random valid sessions, through the API and the database."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ..helpers.api import SEATS, Api

CARD_POINTS = st.integers(0, 120).filter(lambda p: p not in (1, 119))
NO_BID_KINDS = {
    "forced_pick": ["pick"],
    "redeal": ["pick", "pass"],
    "doubler": ["pick", "pass"],
    "leaster": ["pick", "leaster"],
}


@st.composite
def hand_body(draw: st.DrawFn, no_bid: str, dealer: str) -> dict[str, Any]:
    kind = draw(st.sampled_from(NO_BID_KINDS[no_bid]))
    if kind == "pass":
        return {"kind": "pass"}
    if kind == "leaster":
        return {"kind": "leaster", "winner": draw(st.sampled_from(SEATS))}
    start = SEATS.index(dealer) + 1
    order = SEATS[start:] + SEATS[:start]
    picker = draw(st.sampled_from(SEATS))
    later = order[order.index(picker) + 1 :]
    cracked_by = draw(st.none() | st.sampled_from(later)) if later else None
    side = draw(st.sampled_from(["picking_points", "opponent_points"]))
    return {
        "kind": "pick",
        "picker": picker,
        "partner": draw(st.none() | st.sampled_from([p for p in SEATS if p != picker])),
        side: draw(CARD_POINTS),
        "forced": no_bid == "forced_pick" and picker == dealer and draw(st.booleans()),
        "cracked_by": cracked_by,
        "recracked": cracked_by is not None and draw(st.booleans()),
        "blitzes": draw(st.lists(st.sampled_from(["black", "red"]), unique=True)),
    }


@st.composite
def sessions(draw: st.DrawFn) -> tuple[str, list[dict[str, Any]], int, dict[str, Any]]:
    no_bid = draw(st.sampled_from(sorted(NO_BID_KINDS)))
    count = draw(st.integers(1, 12))
    hands = [draw(hand_body(no_bid, SEATS[i % len(SEATS)])) for i in range(count)]
    edited = draw(st.integers(0, count - 1))
    replacement = draw(hand_body(no_bid, SEATS[edited % len(SEATS)]))
    return no_bid, hands, edited, replacement


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(drawn=sessions())
def test_sums_to_zero_and_edit_then_restore_gives_the_session_back(
    client: FlaskClient, drawn: tuple[str, list[dict[str, Any]], int, dict[str, Any]]
) -> None:
    no_bid, hands, edited, replacement = drawn
    api = Api(client)
    sid = api.new_session(rules={"no_bid": no_bid})["id"]
    for body in hands:
        api.record(sid, **body)
    original = api.session(sid)
    for hand in original["hands"]:
        assert sum(hand["scores"].values()) == 0
    assert sum(original["totals"].values()) == 0
    assert original["totals"] == {p: sum(h["scores"][p] for h in original["hands"]) for p in SEATS}

    api.replace(sid, edited + 1, **replacement)
    assert sum(api.session(sid)["totals"].values()) == 0
    api.replace(sid, edited + 1, **hands[edited])
    restored = api.session(sid)
    assert restored["version"] == original["version"] + 2
    assert {**restored, "version": 0} == {**original, "version": 0}


def recorded(hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hands as a table shows them: what was recorded and what it scored."""
    return [{k: v for k, v in hand.items() if k != "number"} for hand in hands]


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_sequence_of_writes_keeps_the_session_whole_and_each_undo_restores_it(
    app: Flask, client: FlaskClient, data: st.DataObject
) -> None:
    """Adds, edits, deletes and undos in any order: hands stay numbered 1..n, totals are the sums
    of the hands, the version grows by one a write, undoing the newest change gives back the
    session as it was before it, and what is stored agrees with the hands (`flask check`)."""
    api = Api(client)
    no_bid = data.draw(st.sampled_from(sorted(NO_BID_KINDS)))
    sid = api.new_session(rules={"no_bid": no_bid})["id"]
    for _step in range(data.draw(st.integers(1, 10))):
        before = api.session(sid)
        hands = before["hands"]
        action = data.draw(st.sampled_from(["add", "edit", "delete"] if hands else ["add"]))
        if action == "add":
            api.record(sid, **data.draw(hand_body(no_bid, before["next_dealer"])))
        else:
            number = data.draw(st.integers(1, len(hands)))
            if action == "edit":
                api.replace(
                    sid, number, **data.draw(hand_body(no_bid, hands[number - 1]["dealer"]))
                )
            else:
                api.delete(sid, number)
        after = api.session(sid)
        assert after["version"] == before["version"] + 1
        assert [hand["number"] for hand in after["hands"]] == list(
            range(1, len(after["hands"]) + 1)
        )
        assert after["totals"] == {p: sum(h["scores"][p] for h in after["hands"]) for p in SEATS}
        assert sum(after["totals"].values()) == 0
        if data.draw(st.booleans()):
            undone = client.post(f"/api/sessions/{sid}/history/0/restore")
            assert undone.status_code == 200, undone.json
            assert recorded(undone.json["hands"]) == recorded(hands)
            assert undone.json["totals"] == before["totals"]
    result = app.test_cli_runner().invoke(args=["check"])
    assert result.exit_code == 0, result.output
