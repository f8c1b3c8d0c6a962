"""What the fault tests check of the sessions a live server kept."""

from __future__ import annotations

from typing import Any

from harness.live_server import SECRET_KEY, LiveServer

from .database import app_of


def sent_fields(hand: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    """The hand as served, cut to the keys a request body gave."""
    return {key: hand[key] for key in body}


def as_sent(hands: list[dict[str, Any]], bodies: list[dict[str, Any]]) -> list[str]:
    """Each hand as the body it should have come from, sorted, to compare with the bodies."""
    return sorted(repr(sorted(sent_fields(hand, bodies[0]).items())) for hand in hands)


def sorted_bodies(bodies: list[dict[str, Any]]) -> list[str]:
    return sorted(repr(sorted(body.items())) for body in bodies)


def assert_check_clean(server: LiveServer) -> None:
    """`flask check` finds nothing wrong with what the server kept. The command runs in this
    process, on an app of its own on the server's database: a process of its own would spend
    most of its time starting."""
    config = {"SQLALCHEMY_DATABASE_URI": server.database, "SECRET_KEY": SECRET_KEY}
    with app_of(config) as app:
        check = app.test_cli_runner().invoke(args=["check"])
    assert check.exit_code == 0, check.output
