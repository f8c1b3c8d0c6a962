"""The schema comes from the migrations: `flask db upgrade` builds exactly what the models say."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import Engine, create_engine, inspect, text

from harness.database import drop_everything
from scorekeeper import create_app
from scorekeeper.sessions import ratings
from scorekeeper.sessions.extensions import db

MODEL_TABLES = set(db.metadata.tables)


@pytest.fixture
def empty_database(database: str) -> Iterator[str]:
    drop_everything(database)
    yield database
    drop_everything(database)


@pytest.fixture
def migrated_app(empty_database: str) -> Iterator[Flask]:
    """An app whose schema exists only once `db upgrade` has run: no create_all here."""
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": empty_database, "SECRET_KEY": "test"}
    )
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def cli(migrated_app: Flask) -> FlaskCliRunner:
    return migrated_app.test_cli_runner()


def upgrade(cli: FlaskCliRunner) -> None:
    result = cli.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output


def engine_of(app: Flask) -> Engine:
    with app.app_context():
        return db.engine


def table_names(app: Flask) -> set[str]:
    return set(inspect(engine_of(app)).get_table_names())


def revision(app: Flask) -> str | None:
    with engine_of(app).connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def test_upgrade_creates_every_table(migrated_app: Flask, cli: FlaskCliRunner) -> None:
    assert table_names(migrated_app) == set()
    upgrade(cli)
    assert table_names(migrated_app) == MODEL_TABLES | {"alembic_version"}
    assert revision(migrated_app) is not None


def test_second_upgrade_changes_nothing(migrated_app: Flask, cli: FlaskCliRunner) -> None:
    upgrade(cli)
    with engine_of(migrated_app).begin() as connection:
        connection.execute(text("INSERT INTO player (name, name_key) VALUES ('Ann', 'ann')"))
    head = revision(migrated_app)
    upgrade(cli)
    assert revision(migrated_app) == head
    assert table_names(migrated_app) == MODEL_TABLES | {"alembic_version"}
    with engine_of(migrated_app).connect() as connection:
        assert connection.execute(text("SELECT name FROM player")).scalars().all() == ["Ann"]


def test_migrated_schema_matches_the_models(migrated_app: Flask, cli: FlaskCliRunner) -> None:
    upgrade(cli)
    with engine_of(migrated_app).connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, db.metadata) == []


def test_db_check_finds_nothing_to_migrate(cli: FlaskCliRunner) -> None:
    upgrade(cli)
    result = cli.invoke(args=["db", "check"])
    assert result.exit_code == 0, result.output


def test_flask_db_upgrade_command_as_the_readme_says(tmp_path: Path) -> None:
    database = tmp_path / "scorekeeper.sqlite3"
    env = os.environ | {"DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": "test"}
    result = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "db", "upgrade"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    engine = create_engine(f"sqlite:///{database}")
    try:
        assert set(inspect(engine).get_table_names()) == MODEL_TABLES | {"alembic_version"}
    finally:
        engine.dispose()


def test_schneider_is_filled_in_for_hands_recorded_before_it_was_stored(
    migrated_app: Flask, cli: FlaskCliRunner
) -> None:
    result = cli.invoke(args=["db", "upgrade", "3f2529198b4f"])
    assert result.exit_code == 0, result.output
    rows = [
        # hand id, picking points, picker, partner
        (1, 20, 1, 2),  # the picking team is schneidered
        (2, 100, 3, None),  # the four opponents of a lone picker are
        (3, 75, 4, 5),  # nobody is
    ]
    with engine_of(migrated_app).begin() as connection:
        for player in range(1, 6):
            connection.execute(
                text("INSERT INTO player (id, name, name_key) VALUES (:id, :name, :name)"),
                {"id": player, "name": f"p{player}"},
            )
        connection.execute(
            text(
                "INSERT INTO session (id, name, created_at, rounds, first_dealer_id, partner,"
                " no_bid, cracking, blitzing) VALUES (1, '', CURRENT_TIMESTAMP, 0, 1,"
                " 'jack_of_diamonds', 'forced_pick', true, true)"
            )
        )
        for hand_id, points, picker, partner in rows:
            connection.execute(
                text(
                    "INSERT INTO hand (id, session_id, number, dealer_id, kind, picker_id,"
                    " partner_id, forced, picking_points, recracked, black_blitz, red_blitz,"
                    " multiplier) VALUES (:id, 1, :id, 1, 'pick', :picker, :partner, false,"
                    " :points, false, false, false, 1)"
                ),
                {"id": hand_id, "points": points, "picker": picker, "partner": partner},
            )
            for player in range(1, 6):
                connection.execute(
                    text(
                        "INSERT INTO hand_player (hand_id, player_id, seat, score, won)"
                        " VALUES (:hand, :player, :seat, 0, false)"
                    ),
                    {"hand": hand_id, "player": player, "seat": player - 1},
                )
    upgrade(cli)
    with engine_of(migrated_app).connect() as connection:
        schneidered = connection.execute(
            text("SELECT hand_id, player_id FROM hand_player WHERE schneidered ORDER BY 1, 2")
        ).all()
    assert [tuple(row) for row in schneidered] == [(1, 1), (1, 2), (2, 1), (2, 2), (2, 4), (2, 5)]


@pytest.mark.parametrize(
    "before",
    [
        pytest.param("8d9cff61932e", id="before safe writes"),
        pytest.param("5b7d2e9a1c33", id="before hands kept their seats"),
    ],
)
def test_sessions_from_before_upgrade_and_take_writes(
    migrated_app: Flask, cli: FlaskCliRunner, before: str
) -> None:
    result = cli.invoke(args=["db", "upgrade", before])
    assert result.exit_code == 0, result.output
    with engine_of(migrated_app).begin() as connection:
        # Ids from the database, 1 to 5 in order, so that a later player gets the next one.
        for name in ["Ann", "Bob", "Cat", "Dan", "Eve"]:
            connection.execute(
                text("INSERT INTO player (name, name_key) VALUES (:name, :key)"),
                {"name": name, "key": name.lower()},
            )
        connection.execute(
            text(
                "INSERT INTO session (id, name, created_at, rounds, first_dealer_id, partner,"
                " no_bid, cracking, blitzing) VALUES (1, 'Old', CURRENT_TIMESTAMP, 0, 1,"
                " 'jack_of_diamonds', 'forced_pick', true, true)"
            )
        )
        for seat in range(5):
            connection.execute(
                text("INSERT INTO seat (session_id, position, player_id) VALUES (1, :s, :p)"),
                {"s": seat, "p": seat + 1},
            )
        connection.execute(
            text(
                "INSERT INTO hand (session_id, number, dealer_id, kind, picker_id, partner_id,"
                " forced, picking_points, recracked, black_blitz, red_blitz, multiplier)"
                " VALUES (1, 1, 1, 'pick', 2, 3, false, 75, false, false, false, 1)"
            )
        )
        hand = connection.execute(text("SELECT id FROM hand")).scalar_one()
        for player, score in zip(range(1, 6), [-1, 2, 1, -1, -1], strict=True):
            connection.execute(
                text(
                    "INSERT INTO hand_player (hand_id, player_id, seat, score, won, schneidered)"
                    " VALUES (:hand, :player, :seat, :score, :won, false)"
                ),
                {
                    "hand": hand,
                    "player": player,
                    "seat": player - 1,
                    "score": score,
                    "won": score > 0,
                },
            )
    upgrade(cli)
    # The ratings of the hands played before are left to a recompute, which a server does as
    # it starts, and `check` before it compares them.
    with migrated_app.app_context():
        assert ratings.stale()
        db.session.remove()
    assert cli.invoke(args=["check"]).exit_code == 0
    with migrated_app.app_context():
        assert not ratings.stale()
        assert ratings.differences() == []
        db.session.remove()
    client = migrated_app.test_client()
    old = client.get("/api/sessions/1").json
    assert (old["name"], old["version"], old["totals"]["Bob"]) == ("Old", 0, 2)
    assert (old["ended"], old["complete"], old["settle_up"]["paid"]) == (False, False, [])
    assert client.get("/api/sessions/1/history").json == {"changes": []}
    added = client.post(
        "/api/sessions/1/hands",
        json={"kind": "pick", "picker": "Cat", "partner": "Dan", "picking_points": 30},
        headers={"Idempotency-Key": "first-after-upgrade", "If-Match": '"0"'},
    )
    assert added.status_code == 201, added.json
    assert client.get("/api/sessions/1").json["version"] == 1
    assert cli.invoke(args=["check"]).exit_code == 0

    # Every hand was played by the five seats, and the table can change from now on.
    five = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    with engine_of(migrated_app).connect() as connection:
        assert connection.execute(text("SELECT DISTINCT played FROM hand_player")).all() == [
            (True,)
        ]
        assert connection.execute(text("SELECT DISTINCT seated FROM hand")).all() == [(5,)]
        assert connection.execute(text("SELECT count(*) FROM hand_player")).scalar() == 10
    upgraded = client.get("/api/sessions/1").json
    assert upgraded["rules"]["sitting_out"] == "dealer"
    assert [(h["seats"], h["sitting_out"]) for h in upgraded["hands"]] == [(five, [])] * 2
    assert upgraded["totals"] == {"Ann": 1, "Bob": 4, "Cat": -3, "Dan": -3, "Eve": 1}
    changed = client.patch("/api/sessions/1", json={"players": [*five, "Fay"]})
    assert changed.status_code == 200, changed.json
    assert (changed.json["next_dealer"], changed.json["sitting_out_next"]) == ("Cat", ["Cat"])
    ended = client.patch("/api/sessions/1", json={"ended": True})
    assert (ended.status_code, ended.json["complete"]) == (200, True)
    assert [c["action"] for c in client.get("/api/sessions/1/history").json["changes"]] == [
        "end", "add",
    ]  # fmt: skip
    assert cli.invoke(args=["check"]).exit_code == 0


def test_after_the_upgrade_no_id_is_handed_out_twice(
    migrated_app: Flask, cli: FlaskCliRunner
) -> None:
    """Sessions 1 and 2 held, 3 in the trash, every id given by hand (as a restore gives them):
    the next session is 4 and the next player 6, and a session deleted then is never followed
    by another under its id."""
    result = cli.invoke(args=["db", "upgrade", "8e3b5d1f6a92"])
    assert result.exit_code == 0, result.output
    with engine_of(migrated_app).begin() as connection:
        for player, name in enumerate(["Ann", "Bob", "Cat", "Dan", "Eve"], start=1):
            connection.execute(
                text("INSERT INTO player (id, name, name_key) VALUES (:id, :name, :key)"),
                {"id": player, "name": name, "key": name.lower()},
            )
        for session in (1, 2):
            connection.execute(
                text(
                    "INSERT INTO session (id, name, created_at, rounds, first_dealer_id, partner,"
                    " no_bid, cracking, blitzing) VALUES (:id, '', CURRENT_TIMESTAMP, 0, 1,"
                    " 'jack_of_diamonds', 'forced_pick', true, true)"
                ),
                {"id": session},
            )
            for seat in range(5):
                connection.execute(
                    text("INSERT INTO seat (session_id, position, player_id) VALUES (:id, :s, :p)"),
                    {"id": session, "s": seat, "p": seat + 1},
                )
        connection.execute(
            text(
                "INSERT INTO trashed_session (session_id, deleted_at, data)"
                " VALUES (3, CURRENT_TIMESTAMP, '{}')"
            )
        )
    upgrade(cli)
    client = migrated_app.test_client()
    players = ["Ann", "Bob", "Cat", "Dan", "Fay"]
    started = client.post("/api/sessions", json={"players": players, "rounds": 0})
    assert started.status_code == 201, started.json
    assert started.json["id"] == 4
    assert client.delete("/api/sessions/4").status_code == 204
    again = client.post("/api/sessions", json={"players": players, "rounds": 0})
    assert again.json["id"] == 5
    with engine_of(migrated_app).connect() as connection:
        fay = connection.execute(text("SELECT id FROM player WHERE name = 'Fay'")).scalar()
    assert fay == 6


def test_a_session_made_without_a_version_is_at_version_1(
    migrated_app: Flask, cli: FlaskCliRunner
) -> None:
    upgrade(cli)
    with engine_of(migrated_app).begin() as connection:
        connection.execute(text("INSERT INTO player (name, name_key) VALUES ('Ann', 'ann')"))
        connection.execute(
            text(
                "INSERT INTO session (name, created_at, rounds, first_dealer_id, partner,"
                " no_bid, cracking, blitzing) VALUES ('', CURRENT_TIMESTAMP, 0, 1,"
                " 'jack_of_diamonds', 'forced_pick', true, true)"
            )
        )
        assert connection.execute(text("SELECT version FROM session")).scalar() == 1


def test_the_database_counts_the_writes_to_sessions_made_before_and_after_the_upgrade(
    migrated_app: Flask, cli: FlaskCliRunner
) -> None:
    """Sessions from before the count began are counted from their next write on."""
    result = cli.invoke(args=["db", "upgrade", "7d2c9e4f1a83"])
    assert result.exit_code == 0, result.output
    new_session = text(
        "INSERT INTO session (name, created_at, rounds, first_dealer_id, partner,"
        " no_bid, cracking, blitzing) VALUES ('', CURRENT_TIMESTAMP, 0, 1,"
        " 'jack_of_diamonds', 'forced_pick', true, true)"
    )
    with engine_of(migrated_app).begin() as connection:
        connection.execute(text("INSERT INTO player (name, name_key) VALUES ('Ann', 'ann')"))
        connection.execute(new_session)
    upgrade(cli)

    def writes() -> int | None:
        with engine_of(migrated_app).connect() as connection:
            return connection.execute(text("SELECT writes FROM history_writes")).scalar()

    assert writes() is None
    steps = [
        new_session,
        text("UPDATE session SET version = version + 1"),
        text("UPDATE session SET name = 'Renamed'"),
        text("DELETE FROM session WHERE id = 1"),
    ]
    for step, counted in zip(steps, [1, 3, 3, 4], strict=True):
        with engine_of(migrated_app).begin() as connection:
            connection.execute(step)
        assert writes() == counted


def test_events_from_before_tournament_tables_ask_for_nothing_and_take_the_new_writes(
    migrated_app: Flask, cli: FlaskCliRunner
) -> None:
    """An event and its table from before 0025: the event doesn't confirm and its hand carries
    no confirmed_by, no table calls the director and nobody stands in; then it takes each new
    write."""
    result = cli.invoke(args=["db", "upgrade", "5b9e0d7c2a14"])
    assert result.exit_code == 0, result.output
    five = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    with engine_of(migrated_app).begin() as connection:
        for name in five:
            connection.execute(
                text("INSERT INTO player (name, name_key) VALUES (:name, :key)"),
                {"name": name, "key": name.lower()},
            )
        connection.execute(
            text(
                "INSERT INTO event (id, name, hands, rounds, rules, entry, places, round_top,"
                " ties, seed, version, created_at) VALUES (1, 'Old cup', 5, 1, :rules, 0, '[]',"
                " 0, 'share', 7, 3, CURRENT_TIMESTAMP)"
            ),
            {"rules": '{"partner": "jack_of_diamonds", "no_bid": "forced_pick"}'},
        )
        for position, player in enumerate(range(1, 6), start=1):
            connection.execute(
                text(
                    "INSERT INTO event_player (event_id, player_id, position, checked_in)"
                    " VALUES (1, :p, :n, true)"
                ),
                {"p": player, "n": position},
            )
        connection.execute(
            text(
                "INSERT INTO session (id, name, created_at, rounds, first_dealer_id, partner,"
                " no_bid, cracking, blitzing, event_id, event_round, event_table) VALUES (1,"
                " 'Old cup, round 1, table 1', CURRENT_TIMESTAMP, 1, 1, 'jack_of_diamonds',"
                " 'forced_pick', true, true, 1, 1, 1)"
            )
        )
        for seat in range(5):
            connection.execute(
                text("INSERT INTO seat (session_id, position, player_id) VALUES (1, :s, :p)"),
                {"s": seat, "p": seat + 1},
            )
    upgrade(cli)
    client = migrated_app.test_client()
    assert (
        client.post(
            "/api/sessions/1/hands",
            json={"kind": "pick", "picker": "Bob", "partner": "Cat", "picking_points": 75},
        ).status_code
        == 201
    )
    event = client.get("/api/events/1").json
    assert (event["confirm"], event["provisional"], event["calls"]) == (False, False, [])
    assert event["draws"][0]["tables"][0]["substitutes"] == []
    session = client.get("/api/sessions/1").json
    assert session["director"] is None and "confirmed_by" not in session["hands"][0]
    assert client.post("/api/sessions/1/hands/1/confirm", json={"by": "Dan"}).status_code == 409
    # Asked to confirm from now on, the hand played before waits for it.
    assert client.patch("/api/events/1", json={"confirm": True}).status_code == 200
    assert client.get("/api/events/1").json["provisional"] is True
    assert client.post("/api/sessions/1/hands/1/confirm", json={"by": "Dan"}).status_code == 200
    assert client.post("/api/sessions/1/director", json={"note": "revoke"}).status_code == 201
    substituted = client.post("/api/events/1/substitutes", json={"out": "Eve", "in": "Zed"})
    assert substituted.status_code == 201, substituted.json
    assert cli.invoke(args=["check"]).exit_code == 0


def test_events_from_before_apart_and_practice_keep_no_pair_apart_and_are_real(
    migrated_app: Flask, cli: FlaskCliRunner
) -> None:
    result = cli.invoke(args=["db", "upgrade", "9e4a7c2b5d31"])
    assert result.exit_code == 0, result.output
    with engine_of(migrated_app).begin() as connection:
        connection.execute(
            text(
                "INSERT INTO event (id, name, hands, rounds, rules, entry, places, round_top,"
                " ties, seed, created_at) VALUES (1, 'Old night', 20, 2, '{}', 0, '[]', 0,"
                " 'share', 4, CURRENT_TIMESTAMP)"
            )
        )
    upgrade(cli)
    client = migrated_app.test_client()
    with engine_of(migrated_app).connect() as connection:
        assert connection.execute(text("SELECT apart, practice FROM event")).all() in (
            [("[]", False)],
            [([], False)],
        )
    for name in ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]:
        assert client.post("/api/events/1/players", json={"name": name}).status_code == 201
    drawn = client.post("/api/events/1/rounds", json={})
    assert drawn.status_code == 201, drawn.json
    assert (drawn.json["apart"], drawn.json["practice"]) == ([], False)
    with engine_of(migrated_app).connect() as connection:
        assert connection.execute(text("SELECT DISTINCT practice FROM session")).all() == [(False,)]
    assert cli.invoke(args=["check"]).exit_code == 0
