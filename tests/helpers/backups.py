"""Backups: sessions with every kind of hand to back up, a backup made and restored, and the
API's answers compared before and after."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.exchange.backup import backup_text
from scorekeeper.exchange.restore import Restore, Restored
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Hand, Player, Session

from .api import Api, pick
from .database import NewApp, database_beside


def export_backup() -> dict[str, Any]:
    """The backup as the JSON object a reader gets."""
    result: dict[str, Any] = json.loads("".join(backup_text()))
    return result


def import_backup(
    data: Any, merge: bool = False, progress: Callable[[int], object] = lambda done: None
) -> Restored:
    """Check a backup whole and restore it a batch at a time; `progress` is told how many of
    the backup's sessions each batch dealt with."""
    restore = Restore(data, merge)
    for _ in restore.check():
        pass
    for done in restore.batches():
        progress(done)
    return restore.restored


ODD_NAMES = ["=SUM(A1)", 'Zoë "Z" O\'Neil', "<b>Bo</b>", "-Dan, Jr.", "@eve"]


def build_sessions(api: Api) -> list[int]:
    """Sessions with every kind of hand, multiplier and rule option; their ids."""
    # Default rules, one round, complete: called cards, a forced pick, alone with a crack and a
    # re-crack, the partner cracking, both blitzes, 120 and 0 points.
    complete = api.new_session(name="Friday at Dan's", rounds=1)["id"]
    for hand in (
        pick("Bob", "Cat", 75, called_card="JD"),
        pick("Bob", "Dan", 61, forced=True),
        {"kind": "pick", "picker": "Dan", "partner": None, "opponent_points": 25,
         "cracked_by": "Eve", "recracked": True},
        pick("Eve", "Ann", 120, called_card="jc", cracked_by="Ann", blitzes=["red", "black"]),
        pick("Ann", "Bob", 0, blitzes=["red"]),
    ):  # fmt: skip
        api.record(complete, **hand)

    # Called ace with doublers, open-ended, a player named in another case and a new one; a
    # hand corrected, a hand deleted, and a doubler still pending at the end.
    doublers = api.new_session(
        players=["ann", "Bob", "Cat", "Dan", "Fay"],
        first_dealer="Cat",
        rules={"partner": "called_ace", "no_bid": "doubler", "blitzing": False},
    )["id"]
    for hand in (
        {"kind": "pass"},
        {"kind": "pass"},
        pick("Ann", "Bob", 88, called_card="AC"),
        pick("Bob", None, 30, called_card="10H"),
        pick("Fay", "Dan", 95, cracked_by="Ann"),
        {"kind": "pass"},
    ):
        api.record(doublers, **hand)
    api.replace(doublers, 2, **pick("Dan", "Cat", 60, called_card="AS"))
    api.delete(doublers, 4)

    # Leasters with and without points and tricks, a dealer given out of turn.
    leasters = api.new_session(name="Leasters", rounds=2, rules={"no_bid": "leaster"})["id"]
    for hand in (
        {"kind": "leaster", "winner": "Cat",
         "points": {"Ann": 30, "Bob": 40, "Cat": 10, "Dan": 25, "Eve": 15},
         "tricks": {"Ann": 2, "Bob": 1, "Cat": 1, "Dan": 1, "Eve": 1}},
        {"kind": "leaster", "winner": "Dan",
         "tricks": {"Ann": 0, "Bob": 2, "Cat": 2, "Dan": 1, "Eve": 1}},
        {"kind": "leaster", "winner": "Eve",
         "points": {"Ann": 0, "Bob": 50, "Cat": 40, "Dan": 20, "Eve": 10}},
        {"kind": "leaster", "winner": "Ann"},
        {**pick("Cat", "Ann", 91, cracked_by="Dan"), "dealer": "Ann"},
        pick("Dan", None, 45),
    ):  # fmt: skip
        api.record(leasters, **hand)
    api.replace(leasters, 4, kind="leaster", winner="Bob", dealer="Eve")

    # Re-deals without cracking or blitzing, and names that need escaping everywhere.
    odd = api.new_session(
        name='Quotes "and" <tags> & ümlauts \\ — ✓',
        players=ODD_NAMES,
        rules={"no_bid": "redeal", "cracking": False, "blitzing": False},
    )["id"]
    for hand in ({"kind": "pass"}, pick("<b>Bo</b>", None, 60), pick("@eve", "=SUM(A1)", 90)):
        api.record(odd, **hand)

    # No hands yet, a first dealer other than seat 1.
    empty = api.new_session(rounds=3, first_dealer="Dan")["id"]
    return [complete, doublers, leasters, odd, empty]


def answers(client: FlaskClient) -> dict[str, Any]:
    """Every API answer about sessions, by path."""
    listing = client.get("/api/sessions").json
    assert listing is not None
    found = {"/api/sessions": listing}
    for summary in listing["sessions"]:
        path = f"/api/sessions/{summary['id']}"
        found[path] = client.get(path).json
    return found


def assert_same_answers(restored: dict[str, Any], original: dict[str, Any]) -> None:
    assert restored.keys() == original.keys()
    for path, answer in original.items():
        assert restored[path].keys() == answer.keys(), path
        for field, value in answer.items():
            if field == "hands":
                assert len(restored[path]["hands"]) == len(value), path
                for number, hand in enumerate(value, start=1):
                    for key, detail in hand.items():
                        assert restored[path]["hands"][number - 1][key] == detail, (
                            path, number, key
                        )  # fmt: skip
            assert restored[path][field] == value, (path, field)


def backup_of(app: Flask) -> dict[str, Any]:
    with app.app_context():
        backup = export_backup()
    return backup


def count_rows(app: Flask) -> tuple[int, int, int]:
    with app.app_context():
        return tuple(  # type: ignore[return-value]
            db.session.scalar(select(func.count()).select_from(model))
            for model in (Player, Session, Hand)
        )


def restore(app: Flask, backup: Any, merge: bool = False) -> str:
    with app.app_context():
        return str(import_backup(copy.deepcopy(backup), merge=merge))


# What a test database's client is given to build, then backed up.
Build = Callable[[FlaskClient], object]
# `backup_built(build)`, the fixture.
BuiltBackup = Callable[[Build], dict[str, Any]]

# Each backup built, by the test database it was built beside and what built it.
BUILT: dict[tuple[str, Build], dict[str, Any]] = {}


def backup_built_beside(database: str, new_app: NewApp, build: Build) -> dict[str, Any]:
    """A copy of the backup of what `build` makes, built once a process beside the test
    database `database`, in a database of its own that the test never touches."""
    if (database, build) not in BUILT:
        with new_app(database_beside(database, "built")) as app:
            build(app.test_client())
            BUILT[database, build] = backup_of(app)
    return copy.deepcopy(BUILT[database, build])


def every_kind_of_hand(client: FlaskClient) -> None:
    build_sessions(Api(client))
