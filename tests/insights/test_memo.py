"""What the league's slow reads keep between two writes: read again after every kind of write
that changes them, and only the history's stamp read while nothing changed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import delete, update

from scorekeeper.insights import company, memo, roster, stats
from scorekeeper.insights.dates import DateRange
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Session, SessionPlayer
from scorekeeper.sessions.rows import players_named

from ..helpers.api import Api, pick
from ..helpers.database import player_ids, second_worker, statements


def seen(app: Flask, player: str) -> tuple[object, ...]:
    """Everything the memo keeps, as a page shows it."""
    with app.app_context():
        listed = roster.players()
        me = next(p.id for p in listed if p.name == player)
        return (
            [(c.year, c.names, c.total) for c in stats.champions()],
            [(p.name, p.hands, p.won) for p in company.partners(me, DateRange())],
            [(o.name, o.sessions, o.total) for o in company.opponents(me, DateRange())],
            [(p.name, p.sessions, p.hands, p.total, p.active) for p in listed],
        )


def test_each_write_is_seen_at_once(app: Flask, client: FlaskClient, api: Api) -> None:
    session_id = api.new_session()["id"]
    api.record(session_id, **pick("Ann", "Bob", 75))
    first = seen(app, "Ann")
    # Ann & Bob 75: Ann +2; then Ann & Cat 95 (Bob, Dan, Eve schneidered): Ann +4.
    assert first[0][0] == (None, ("Ann",), 2)
    assert first[1] == [("Bob", 1, 1)]
    assert seen(app, "Ann") == first

    api.record(session_id, **pick("Ann", "Cat", 95))
    second = seen(app, "Ann")
    assert second[1] == [("Bob", 1, 1), ("Cat", 1, 1)]
    assert second[0][0] == (None, ("Ann",), 2 + 4)

    api.replace(session_id, 2, **pick("Ann", "Cat", 30))
    assert seen(app, "Ann")[1] == [("Bob", 1, 1), ("Cat", 1, 0)]

    ids = player_ids(app)
    renamed = client.patch(f"/api/players/{ids['Cat']}", json={"name": "Catherine"})
    assert renamed.status_code == 200
    assert seen(app, "Ann")[1] == [("Bob", 1, 1), ("Catherine", 1, 0)]

    # A player without a session: listed, and retired, at once.
    with app.app_context():
        players_named(["Zed"])
        db.session.commit()
    assert ("Zed", 0, 0, 0, True) in seen(app, "Ann")[3]
    zed = player_ids(app)["Zed"]
    assert client.patch(f"/api/players/{zed}", json={"active": False}).status_code == 200
    assert ("Zed", 0, 0, 0, False) in seen(app, "Ann")[3]

    merged = client.post(f"/api/players/{ids['Dan']}/merge", json={"into": zed})
    assert merged.status_code == 200
    opponents = [name for name, _, _ in seen(app, "Ann")[2]]
    assert "Zed" in opponents and "Dan" not in opponents

    assert client.delete(f"/api/sessions/{session_id}").status_code == 204
    assert seen(app, "Ann")[:3] == ([], [], [])


def test_a_second_read_of_the_same_history_reads_only_its_stamp(app: Flask, api: Api) -> None:
    session_id = api.new_session()["id"]
    api.record(session_id, **pick("Ann", "Bob", 75))
    ann = player_ids(app)["Ann"]
    reads = (
        stats.champions,
        lambda: company.partners(ann, DateRange()),
        lambda: company.opponents(ann, DateRange()),
    )
    for read in reads:
        with app.app_context():
            answer = read()

        def again(read: Callable[[], object] = read, answer: object = answer) -> int:
            with app.app_context():
                assert read() == answer
            return 200

        assert statements(app, again, 200) == 1


def test_another_worker_sees_a_write_at_once(app: Flask, api: Api) -> None:
    """Each process keeps its own: a write through one is seen by the other at its next read."""
    session_id = api.new_session()["id"]
    api.record(session_id, **pick("Ann", None, 120))
    with second_worker(app) as other:
        with other.app_context():
            assert stats.champions()[0].names == ("Ann",)
        api.record(session_id, **pick("Bob", None, 120))
        api.record(session_id, **pick("Bob", None, 120))
        with other.app_context():
            assert stats.champions()[0].names == ("Bob",)


def test_the_stamp_is_read_once_a_transaction_and_a_transaction_that_wrote_keeps_nothing(
    app: Flask, api: Api
) -> None:
    session_id = api.new_session()["id"]
    api.record(session_id, **pick("Ann", "Bob", 75))
    with app.app_context():
        first = memo.stamp()
        assert first is not None
        champions = stats.champions()

        def again() -> int:
            assert memo.stamp() == first
            return 200

        assert statements(app, again, 200) == 0
        # A write not kept: what it shows is read afresh, and not kept for the count it
        # would have made had it been kept.
        db.session.execute(update(SessionPlayer).values(total=SessionPlayer.total * 10))
        db.session.execute(update(Session).values(version=Session.version + 1))
        assert memo.stamp() is None
        assert stats.champions()[0].total == champions[0].total * 10
        db.session.rollback()
        assert memo.stamp() == first
        assert stats.champions() == champions
    api.record(session_id, **pick("Bob", "Ann", 75))
    with app.app_context():
        assert memo.stamp() == first + 1
        # Ann +2 picking with Bob, then +1 as Bob's partner; Bob +1, then +2.
        assert stats.champions()[0] == stats.Champion(None, ("Ann", "Bob"), 3)


def test_the_database_counts_every_write_to_a_session_whatever_makes_it(
    app: Flask, api: Api
) -> None:
    with app.app_context():
        empty = memo.stamp()
    api.new_session()
    kept = api.new_session()["id"]
    with app.app_context():
        before = memo.stamp()
        assert before is not None and empty is not None and before > empty
        db.session.execute(update(Session).values(version=Session.version + 1))
        db.session.execute(update(Session).values(name="Renamed"))
        db.session.execute(delete(Session).where(Session.id != kept))
        db.session.commit()
        # Two versions bumped and one session deleted; a name alone is not a version.
        assert memo.stamp() == before + 3


def test_each_years_champion_follows_a_night_moved_or_changed_in_a_past_year(
    app: Flask, client: FlaskClient
) -> None:
    """Each year's totals are kept by the year's own stamp: a night changed in a past year, or
    moved to another, is seen in both years at once."""

    def champions() -> list[tuple[int | None, tuple[str, ...], int]]:
        with app.app_context():
            return [(c.year, c.names, c.total) for c in stats.champions()]

    made = [
        client.post("/api/sessions", json={"played_on": day, "totals": totals}).json["id"]
        for day, totals in (
            ("2010-03-01", {"Ann": 5, "Bob": -5}),
            ("2011-02-01", {"Cat": 7, "Ann": -7}),
            (date.today().isoformat(), {"Dan": 1, "Eve": -1}),
        )
    ]
    this_year = date.today().year
    assert champions()[1:] == [
        (this_year, ("Dan",), 1),
        (2011, ("Cat",), 7),
        (2010, ("Ann",), 5),
    ]
    moved = client.patch(f"/api/sessions/{made[0]}", json={"played_on": "2011-03-01"})
    assert moved.status_code == 200, moved.json
    assert champions() == [
        (None, ("Cat",), 7),
        (this_year, ("Dan",), 1),
        (2011, ("Cat",), 7),
    ]
    changed = client.patch(f"/api/sessions/{made[1]}", json={"totals": {"Cat": 2, "Ann": -2}})
    assert changed.status_code == 200, changed.json
    assert champions() == [
        (None, ("Ann",), 3),
        (this_year, ("Dan",), 1),
        (2011, ("Ann",), 3),
    ]
