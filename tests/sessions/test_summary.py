"""Each session's summary (what each player did in it, who sat in it, its hand count and whether
it is complete) is kept by every write, and always equals what the hands add up to; `flask check`
finds and repairs one that doesn't."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, select, update

from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Session, SessionMember, SessionPlayer

from ..helpers.api import SEATS, Api, pick

OTHERS = ["Fay", "Gus", "Hal"]
ACTIONS = [
    *("add", "add", "add", "edit", "delete", "undo"),
    *("end", "rounds", "seats", "stake", "trash", "merge"),
]


@st.composite
def hand_for(draw: st.DrawFn, players: list[str], leaster: bool) -> dict[str, Any]:
    """A hand the players of a hand (in bidding order) can play: a leaster where the rules
    play one when nobody picks."""
    if leaster and draw(st.booleans()):
        return {"kind": "leaster", "winner": draw(st.sampled_from(players))}
    picker = draw(st.sampled_from(players))
    others = [p for p in players if p != picker]
    partner = draw(st.none() | st.sampled_from(others)) if len(players) >= 5 else None
    points = draw(st.integers(0, 120).filter(lambda p: p not in (1, 119)))
    return {"kind": "pick", "picker": picker, "partner": partner, "picking_points": points}


def check_clean(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["check"])
    assert result.exit_code == 0, result.output


def found_and_repaired(runner: FlaskCliRunner, *lines: str) -> None:
    """`flask check` finds exactly `lines` and fails; `--repair` leaves nothing to find."""
    found = runner.invoke(args=["check"])
    assert found.exit_code == 1
    assert found.output.splitlines() == list(lines)
    assert runner.invoke(args=["check", "--repair"]).exit_code == 0
    check_clean(runner)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_after_any_writes_the_summary_is_what_the_hands_add_up_to(
    client: FlaskClient, runner: FlaskCliRunner, data: st.DataObject
) -> None:
    api = Api(client)
    ids = [
        api.new_session(players=SEATS, rounds=1, rules={"no_bid": "leaster"})["id"],
        api.new_session(players=OTHERS, rounds=0)["id"],
    ]
    for _step in range(data.draw(st.integers(1, 12))):
        sid = data.draw(st.sampled_from(ids))
        now = api.session(sid)
        action = data.draw(st.sampled_from(ACTIONS))
        if action == "add" and now["next_dealer"]:
            body = data.draw(hand_for(_players_of_next_hand(now), sid == ids[0]))
            added = client.post(f"/api/sessions/{sid}/hands", json=body)
            assert added.status_code == 201, added.json
        elif action in ("edit", "delete") and now["hands"]:
            number = data.draw(st.integers(1, len(now["hands"])))
            if action == "delete":
                client.delete(f"/api/sessions/{sid}/hands/{number}")
            else:
                hand = now["hands"][number - 1]
                body = data.draw(hand_for(hand["players"], sid == ids[0]))
                edited = client.put(f"/api/sessions/{sid}/hands/{number}", json=body)
                assert edited.status_code == 200, edited.json
        elif action == "undo":
            client.post(f"/api/sessions/{sid}/history/0/restore")
        elif action == "end":
            client.patch(f"/api/sessions/{sid}", json={"ended": not now["ended"]})
        elif action == "rounds":
            client.patch(f"/api/sessions/{sid}", json={"rounds": data.draw(st.integers(0, 2))})
        elif action == "stake":
            stake = data.draw(st.sampled_from([0, 25, 100]))
            client.patch(f"/api/sessions/{sid}", json={"rules": {"stake": stake}})
        elif action == "seats":
            seated = SEATS if sid == ids[0] else OTHERS
            arrived = data.draw(st.sampled_from([seated, [*seated, "Ivy"]]))
            client.patch(f"/api/sessions/{sid}", json={"players": arrived})
        elif action == "trash":
            assert client.delete(f"/api/sessions/{sid}").status_code == 204
            check_clean(runner)
            assert client.post(f"/api/trash/{sid}/restore").status_code in (200, 201)
        elif action == "merge":
            _merge_and_undo(client, runner)
        check_clean(runner)


def _players_of_next_hand(session: dict[str, Any]) -> list[str]:
    """Who plays the next hand, in bidding order: the dealer sits out beyond five seated."""
    seats: list[str] = session["players"]
    dealer = seats.index(session["next_dealer"])
    order = seats[dealer + 1 :] + seats[: dealer + 1]
    return order[:-1] if len(seats) > 5 else order


def _merge_and_undo(client: FlaskClient, runner: FlaskCliRunner) -> None:
    """Hal merged into Ann (who never sat with Hal), then the merge undone."""
    players = {p["name"]: p["id"] for p in client.get("/api/players").json["players"]}
    merged = client.post(f"/api/players/{players['Hal']}/merge", json={"into": players["Ann"]})
    assert merged.status_code == 200, merged.json
    check_clean(runner)
    merge = client.get("/api/players/merges").json["merges"][0]
    assert client.post(f"/api/players/merges/{merge['id']}/undo").status_code == 200


def test_a_summary_that_differs_from_the_hands_is_found_and_repaired(
    app: Flask, api: Api, runner: FlaskCliRunner
) -> None:
    session_id = api.new_session(players=SEATS, rounds=1)["id"]
    for picker in SEATS:
        api.record(session_id, **pick(picker, None, 75))
    with app.app_context():
        places = dict(
            db.session.execute(
                select(SessionPlayer.player_id, SessionPlayer.place).where(
                    SessionPlayer.session_id == session_id
                )
            ).all()
        )
        assert sorted(places.values()) == [1, 1, 1, 1, 1]
        db.session.execute(
            update(SessionPlayer).where(SessionPlayer.session_id == session_id).values(total=7)
        )
        db.session.execute(update(Session).values(hand_count=4, completed=False))
        db.session.commit()
    found_and_repaired(
        runner,
        f"Session {session_id}: it says it has 4 hands and is not complete; its hands say 5 "
        "and complete.",
        f"Session {session_id}: its players' summary differs from what its hands add up to.",
        "Error: Checked 1 session: 2 problems.",
    )


def test_who_sat_in_a_session_is_checked_and_repaired(
    app: Flask, api: Api, runner: FlaskCliRunner
) -> None:
    session_id = api.new_session(players=SEATS, rounds=1)["id"]
    api.record(session_id, **pick("Ann", None, 75))
    with app.app_context():
        members = select(SessionMember.player_id).where(SessionMember.session_id == session_id)
        assert len(db.session.scalars(members).all()) == len(SEATS)
        db.session.execute(delete(SessionMember).where(SessionMember.session_id == session_id))
        db.session.commit()
    found_and_repaired(
        runner,
        f"Session {session_id}: the players it says sat in it are not those seated or at its "
        "hands.",
        "Error: Checked 1 session: 1 problem.",
    )


def test_a_stake_changed_after_hands_is_in_the_summary(
    app: Flask, api: Api, client: FlaskClient, runner: FlaskCliRunner
) -> None:
    session_id = api.new_session(players=SEATS, rounds=0)["id"]
    api.record(session_id, **pick("Ann", None, 75))
    changed = client.patch(f"/api/sessions/{session_id}", json={"rules": {"stake": 25}})
    assert changed.status_code == 200, changed.json
    with app.app_context():
        stakes = db.session.scalars(
            select(SessionPlayer.stake).where(SessionPlayer.session_id == session_id)
        ).all()
    assert stakes == [25] * len(SEATS)
    check_clean(runner)


def test_a_session_no_longer_complete_keeps_no_places(
    app: Flask, api: Api, client: FlaskClient, runner: FlaskCliRunner
) -> None:
    session_id = api.new_session(players=SEATS, rounds=1)["id"]
    for picker in SEATS:
        api.record(session_id, **pick(picker, None, 75))
    more = client.patch(f"/api/sessions/{session_id}", json={"rounds": 2})
    assert (more.status_code, more.json["complete"]) == (200, False)
    with app.app_context():
        places = db.session.scalars(
            select(SessionPlayer.place).where(SessionPlayer.session_id == session_id)
        ).all()
    assert places == [None] * len(SEATS)
    check_clean(runner)
