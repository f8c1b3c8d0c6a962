"""`flask --app scorekeeper check`: every session against its hands, and `--repair`."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import select, update

from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Hand, HandPlayer, Player, Seat, SessionPlayer

from ..helpers.api import Api, pick

HANDS = [pick("Ann", "Bob", 75), {"kind": "pass"}, pick("Cat", None, 95)]


def sessions(api: Api, count: int = 2) -> list[int]:
    ids = []
    for _ in range(count):
        session_id = api.new_session(rules={"no_bid": "doubler"})["id"]
        for hand in HANDS:
            api.record(session_id, **hand)
        ids.append(session_id)
    return ids


def test_a_consistent_database_checks_clean(api: Api, runner: FlaskCliRunner) -> None:
    sessions(api)
    result = runner.invoke(args=["check"])
    assert result.exit_code == 0, result.output
    assert result.output == "Checked 2 sessions: every one is consistent with its hands.\n"


def test_nights_kept_without_hands_check_clean(api: Api, runner: FlaskCliRunner) -> None:
    """Their places come from their seats, as they have no hand to name their players."""
    sessions(api, 1)
    night = {"played_on": "2010-12-29", "totals": {"Dave": -2, "Greg": 0, "Jacob": 2}}
    assert api.client.post("/api/sessions", json=night).status_code == 201
    sheet = "Date,Ann,Bob,Zoe\n2011-1-4,3,-3,\n2011-1-11,,1,-1\n"
    assert api.client.post("/api/imports/nights", json={"csv": sheet}).status_code == 201
    result = runner.invoke(args=["check"])
    assert result.exit_code == 0, result.output
    assert result.output == "Checked 4 sessions: every one is consistent with its hands.\n"


def test_stale_scores_and_multipliers_are_found_and_repaired(
    app: Flask, api: Api, runner: FlaskCliRunner
) -> None:
    first, second = sessions(api)
    before = api.session(second)
    with app.app_context():
        ann = db.session.scalar(select(Player.id).where(Player.name == "Ann"))
        hand = db.session.scalar(select(Hand.id).where(Hand.session_id == second, Hand.number == 3))
        db.session.execute(
            update(HandPlayer)
            .where(HandPlayer.hand_id == hand, HandPlayer.player_id == ann)
            .values(score=99)
        )
        db.session.execute(update(Hand).where(Hand.id == hand).values(multiplier=1))
        db.session.commit()

    found = runner.invoke(args=["check"])
    assert found.exit_code == 1
    assert found.output.splitlines() == [
        f"Session {second}, hand 3: the stored multiplier is 1, the hands give 2.",
        f"Session {second}, hand 3: Ann's stored score, win or schneider (99, False, True) "
        "differs from the hands' (-4, False, True).",
        f"Session {second}: its players' summary differs from what its hands add up to.",
        "Error: Checked 2 sessions: 3 problems.",
    ]
    repaired = runner.invoke(args=["check", "--repair"])
    assert repaired.exit_code == 0, repaired.output
    assert repaired.output.count("Repaired: ") == 3
    assert runner.invoke(args=["check"]).exit_code == 0
    after = api.session(second)
    assert {**after, "version": 0} == {**before, "version": 0}
    assert api.client.get(f"/api/sessions/{first}").json["hands"] == before["hands"]


def test_gaps_in_hand_numbers_are_found_and_renumbered(
    app: Flask, api: Api, runner: FlaskCliRunner
) -> None:
    (session_id,) = sessions(api, 1)
    with app.app_context():
        db.session.execute(
            update(Hand).where(Hand.session_id == session_id, Hand.number == 3).values(number=7)
        )
        db.session.commit()
    found = runner.invoke(args=["check"])
    assert found.exit_code == 1
    assert f"Session {session_id}: its hands are numbered 1, 2, 7, not 1 to 3." in found.output
    assert runner.invoke(args=["check", "--repair"]).exit_code == 0
    hands = api.session(session_id)["hands"]
    assert [(h["number"], h["kind"]) for h in hands] == [(1, "pick"), (2, "pass"), (3, "pick")]
    assert hands[2]["multiplier"] == 2


def test_a_hand_the_rules_refuse_is_reported_and_not_repaired_away(
    app: Flask, api: Api, runner: FlaskCliRunner
) -> None:
    (session_id,) = sessions(api, 1)
    with app.app_context():
        db.session.execute(
            update(Hand)
            .where(Hand.session_id == session_id, Hand.number == 1)
            .values(picking_points=119)
        )
        db.session.commit()
    for args in (["check"], ["check", "--repair"]):
        result = runner.invoke(args=args)
        assert result.exit_code == 1
        assert f"Session {session_id}, hand 1: it breaks the rules:" in result.output
    assert len(api.session(session_id)["hands"]) == 3


def test_a_night_checks_clean_and_a_stale_summary_of_one_is_repaired(
    app: Flask, api: Api, runner: FlaskCliRunner
) -> None:
    sessions(api, 1)
    night = api.client.post(
        "/api/sessions", json={"played_on": "2010-12-29", "totals": {"Ann": 4, "Zed": -4}}
    ).json["id"]
    assert runner.invoke(args=["check"]).output == (
        "Checked 2 sessions: every one is consistent with its hands.\n"
    )
    with app.app_context():
        zed = db.session.scalar(select(Player.id).where(Player.name == "Zed"))
        db.session.execute(
            update(SessionPlayer)
            .where(SessionPlayer.session_id == night, SessionPlayer.player_id == zed)
            .values(total=0)
        )
        db.session.commit()
    found = runner.invoke(args=["check"])
    assert found.output.splitlines() == [
        f"Session {night}: its players' summary differs from what its hands add up to.",
        "Error: Checked 2 sessions: 1 problem.",
    ]
    assert runner.invoke(args=["check", "--repair"]).exit_code == 0
    assert runner.invoke(args=["check"]).exit_code == 0
    assert {p["name"]: p["total"] for p in api.client.get("/api/players").json["players"]}[
        "Zed"
    ] == -4


def test_nets_that_are_no_nights_are_found(app: Flask, api: Api, runner: FlaskCliRunner) -> None:
    night = api.client.post("/api/sessions", json={"totals": {"Ann": 4, "Zed": -4}}).json["id"]
    with app.app_context():
        db.session.execute(update(Seat).where(Seat.session_id == night).values(net=3))
        db.session.commit()
    found = runner.invoke(args=["check"])
    assert found.exit_code == 1
    assert found.output.splitlines()[0] == (
        f"Session {night}: its nets are not a night's: The nets add up to 6, not 0."
    )
