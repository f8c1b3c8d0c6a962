"""Spreadsheets of nights imported on a live server: one sheet sent many times at once keeps each
night once (without a key the others find its nights already here; with one key every answer is
the first), a retry after a restart answers as the first did, and imports among hand writes all
land."""

from __future__ import annotations

import uuid

from harness.hands import pick_bodies
from harness.live_server import LiveServer, at_once

from ..helpers.live import assert_check_clean
from ..helpers.nights import NIGHTS, league

URL = "/api/imports/nights"
SENDERS = 6
HISTORY = league()


def sheet(year: int) -> dict[str, str]:
    return {"csv": HISTORY.files[year], "zeros": "played"}


def totals(server: LiveServer) -> dict[str, int]:
    players = server.call("GET", "/api/players").json()["players"]
    return {p["name"]: p["total"] for p in players}


def test_one_sheet_sent_at_once_keeps_each_night_once(server: LiveServer) -> None:
    answers = at_once(SENDERS, lambda _: server.call("POST", URL, sheet(2010)))

    assert [answer.status for answer in answers] == [201] * SENDERS, answers[0].body
    kept = sorted((a.json()["nights"], a.json()["already_here"]) for a in answers)
    assert kept == [(0, NIGHTS[2010])] * (SENDERS - 1) + [(NIGHTS[2010], 0)]
    assert len(server.sessions()) == NIGHTS[2010]
    assert totals(server) == {name: t for name, t in HISTORY.totals(2010).items()}
    assert_check_clean(server)


def test_one_sheet_retried_with_its_key_is_imported_once(server: LiveServer) -> None:
    key = {"Idempotency-Key": f"nights-{uuid.uuid4()}"}

    concurrent = at_once(SENDERS, lambda _: server.call("POST", URL, sheet(2011), key))
    sequential = [server.call("POST", URL, sheet(2011), key) for _ in range(2)]

    answers = concurrent + sequential
    assert [answer.status for answer in answers] == [201] * (SENDERS + 2), answers[0].body
    assert len({answer.body for answer in answers}) == 1
    first = answers[0].json()
    assert (first["nights"], first["already_here"]) == (NIGHTS[2011], 0)
    assert server.call("POST", URL, sheet(2012), key).status == 409
    # As a script sends it, CSV with its answer in the query: another request, another key.
    raw = server.call(
        "POST",
        f"{URL}?zeros=played",
        headers={**key, "Content-Type": "text/csv"},
        raw=HISTORY.files[2011].encode(),
    )
    assert raw.status == 409
    server.restart()
    again = server.call("POST", URL, sheet(2011), key)
    assert (again.status, again.json()) == (201, first)
    assert len(server.sessions()) == NIGHTS[2011]
    assert_check_clean(server)


def test_imports_among_hand_writes_all_land(server: LiveServer) -> None:
    session_id = server.new_session()["id"]
    hands = pick_bodies(24)
    years = [2004, 2005, 2006]

    def work(worker: int) -> list[int]:
        if worker < len(years):
            return [server.call("POST", URL, sheet(years[worker])).status]
        mine = hands[(worker - len(years)) * 8 : (worker - len(years) + 1) * 8]
        path = f"/api/sessions/{session_id}/hands"
        return [server.call("POST", path, body).status for body in mine]

    done = at_once(len(years) + 3, work)

    assert [status for statuses in done for status in statuses] == [201] * (len(years) + 24)
    assert len(server.session(session_id)["hands"]) == 24
    assert len(server.sessions()) == 1 + sum(NIGHTS[year] for year in years)
    assert_check_clean(server)
