"""Properties over random valid sessions, through the API and the database."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .helpers import SEATS, Api

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
