"""What the fault tests check of the sessions a live server kept."""

from __future__ import annotations

from typing import Any

from harness.live_server import LiveServer, flask


def sent_fields(hand: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    """The hand as served, cut to the keys a request body gave."""
    return {key: hand[key] for key in body}


def as_sent(hands: list[dict[str, Any]], bodies: list[dict[str, Any]]) -> list[str]:
    """Each hand as the body it should have come from, sorted, to compare with the bodies."""
    return sorted(repr(sorted(sent_fields(hand, bodies[0]).items())) for hand in hands)


def sorted_bodies(bodies: list[dict[str, Any]]) -> list[str]:
    return sorted(repr(sorted(body.items())) for body in bodies)


def assert_check_clean(server: LiveServer) -> None:
    check = flask(server.database, "check")
    assert check.returncode == 0, check.stdout + check.stderr
