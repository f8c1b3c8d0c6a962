"""A real league's paper history imported (API.md "Nights kept without hands"): ten yearly
spreadsheets, 1,435 nights of 42 players (tests/helpers/nights.py), through the API and through
`flask import-nights`; then every player's total and sessions, each year's season standings and
a year's settle-up are what the sheets add up to, counted here from the nights the sheets were
made from. Importing them again adds nothing."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper import rules

from ..helpers.nights import DRIFT_YEAR, DRIFTED, NIGHTS, PLAYERS, League, league

URL = "/api/imports/nights"


@pytest.fixture(scope="module")
def history() -> League:
    return league()


def test_the_made_up_league_is_as_the_story_says(history: League) -> None:
    assert len(history.nights) == 1435
    assert len(history.sessions()) == len(PLAYERS) == 42
    assert rules.look_alike_questions(PLAYERS, (), ()) == []
    assert rules.near_names(*DRIFTED)
    days = Counter(night.day for night in history.nights)
    assert (min(days).isoformat(), max(days).isoformat()) == ("2004-01-05", "2013-05-02")
    assert sorted(days.values())[-2:] == [1, 2]
    zeros = sum(net == 0 for night in history.nights for net in night.nets.values())
    assert zeros > 100
    assert "2005-1-" in history.files[2005] and "2004-01-" in history.files[2004]
    assert DRIFTED[0] in history.files[DRIFT_YEAR] and DRIFTED[1] not in history.files[DRIFT_YEAR]


def _import(client: FlaskClient, year: int, text: str) -> dict[str, Any]:
    """One year's file as a phone or a script sends it: asked, answered, imported."""
    asked = client.post(URL, json={"csv": text})
    assert asked.status_code == 409, asked.json
    assert "ask_zeros" in asked.json
    answers: dict[str, Any] = {"csv": text, "zeros": "played"}
    if year == DRIFT_YEAR:
        assert asked.json["ask"] == [{"name": DRIFTED[0], "like": [DRIFTED[1]]}]
        answers["same_as"] = {DRIFTED[0]: DRIFTED[1]}
    else:
        assert "ask" not in asked.json
    imported = client.post(URL, json=answers)
    assert imported.status_code == 201, imported.json
    return imported.json  # type: ignore[no-any-return]


def _check_totals(client: FlaskClient, history: League) -> None:
    players = client.get("/api/players").json["players"]
    assert {p["name"]: p["total"] for p in players} == history.totals()
    assert {p["name"]: (p["sessions"], p["nights"]) for p in players} == {
        name: (count, count) for name, count in history.sessions().items()
    }
    for year in NIGHTS:
        season = client.post(
            "/api/seasons",
            json={"name": str(year), "first_day": f"{year}-01-01", "last_day": f"{year}-12-31"},
        )
        assert season.status_code == 201, season.json
        standings = client.get(f"/api/seasons/{season.json['id']}").json["standings"]
        totals, sessions = history.totals(year), history.sessions(year)
        assert {s["player"]: s["total"] for s in standings} == totals
        assert {s["player"]: (s["sessions"], s["nights"]) for s in standings} == {
            name: (count, count) for name, count in sessions.items()
        }
        # By total, equal totals sharing a place (nights have no hands won to part them).
        assert [s["total"] for s in standings] == sorted(totals.values(), reverse=True)
        assert {s["player"]: s["place"] for s in standings} == {
            name: 1 + sum(other > total for other in totals.values())
            for name, total in totals.items()
        }
    settle = client.get("/api/settle-up?from=2010-01-01&to=2010-12-31").json
    year = {name: total for name, total in history.totals(2010).items() if total}
    assert settle["unit"] == "points"
    assert {name: b for name, b in settle["balances"].items() if b} == year
    paid: Counter[str] = Counter()
    for payment in settle["payments"]:
        paid[payment["from"]] -= payment["amount"]
        paid[payment["to"]] += payment["amount"]
    assert {name: amount for name, amount in paid.items() if amount} == year


def test_a_leagues_history_imported_through_the_api(client: FlaskClient, history: League) -> None:
    started = time.perf_counter()
    imported = {year: _import(client, year, text) for year, text in history.files.items()}
    seconds = time.perf_counter() - started
    assert sum(answer["nights"] for answer in imported.values()) == 1435
    assert sum(answer["skipped"] for answer in imported.values()) == 1
    new = [name for answer in imported.values() for name in answer["new_players"]]
    assert sorted(new) == sorted(PLAYERS)
    assert imported[2004]["from"] == "2004-01-05" and imported[2013]["to"] == "2013-05-02"
    assert len(client.get("/api/sessions?limit=1000").json["sessions"]) == 1000
    _check_totals(client, history)
    print(f"\n1,435 nights imported through the API in {seconds:.1f} s")

    for year, text in history.files.items():
        again = client.post(
            URL,
            json={"csv": text, "zeros": "played", "same_as": {DRIFTED[0]: DRIFTED[1]}},
        )
        assert again.status_code == 201, again.json
        assert (again.json["nights"], again.json["already_here"]) == (0, NIGHTS[year])
    players = client.get("/api/players").json["players"]
    assert {p["name"]: p["total"] for p in players} == history.totals()


def test_a_leagues_history_imported_by_the_command(
    client: FlaskClient, runner: FlaskCliRunner, history: League, tmp_path: Path
) -> None:
    files = []
    for year, text in history.files.items():
        path = tmp_path / f"{year}.csv"
        path.write_bytes(text.encode())
        files.append(str(path))
    started = time.perf_counter()
    # The drifted name asked at the terminal, answered there.
    done = runner.invoke(
        args=["import-nights", *files, "--zeros", "played"], input="Tom Kiebzack\n"
    )
    seconds = time.perf_counter() - started
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0] == f"{files[0]}: 150 nights from 2004-01-05 to 2004-12-31, 25 players, 25 new."
    assert lines[DRIFT_YEAR - 2004].startswith(
        f"{DRIFTED[0]}: a new player, or {DRIFTED[1]}? New, or the player's name"
    )
    assert lines[-1].startswith(f"{files[-1]}: 85 nights from 2013-01-01 to 2013-05-02")
    _check_totals(client, history)
    print(f"\n1,435 nights imported by flask import-nights in {seconds:.1f} s")

    again = runner.invoke(args=["import-nights", *files, "--zeros", "played",
                                "--same-as", "Tom Kiebzak=Tom Kiebzack"])  # fmt: skip
    assert again.exit_code == 0, again.output
    assert all("No night was added." in line for line in again.output.splitlines())
