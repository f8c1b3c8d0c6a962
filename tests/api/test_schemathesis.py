"""Schemathesis fuzzes the API from /api/openapi.json: no 5xx, every answer as the document says.

Each operation gets a database seeded with three sessions and their hands, and a club event
with its first round drawn, so that besides the ids the generator invents, a share of the
requests name real sessions, hands, changes, events and their players. The seeded rows are
written once a process and put back for each operation (`built_once`); the cases are made
on the first database and sent as they are to the others.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import Case, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.schemas import APIOperation
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from scorekeeper.api.openapi import document

from ..helpers.api import SEATS, pick
from ..helpers.database import EachApp, built_once

CHECKS = [
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
]
# SCHEMATHESIS_EXAMPLES=500 for a longer hunt than the suite's bounded run.
EXAMPLES_PER_OPERATION = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "40"))
OPERATIONS = [
    (method.upper(), path)
    for path, item in document()["paths"].items()
    for method in item
    if method in {"get", "post", "put", "patch", "delete"}
]
# Small pools of real path values; the generator's own values mostly miss and answer 404.
HAND_NUMBERS = range(1, 7)
HISTORY_INDEXES = range(4)


class Tally:
    def __init__(self) -> None:
        self.statuses: Counter[int] = Counter()
        self.seconds = 0.0


@pytest.fixture(scope="module")
def tally(request: pytest.FixtureRequest) -> Iterator[Tally]:
    tally = Tally()
    yield tally
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if capture is not None and reporter is not None:
        with capture.global_and_fixture_disabled():
            reporter.write_line(
                f"\nschemathesis: {tally.statuses.total()} requests in {tally.seconds:.1f} s, "
                f"answers {dict(sorted(tally.statuses.items()))}"
            )


def _post(client: FlaskClient, url: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(url, json=body)
    assert response.status_code == 201, response.json
    return response.json  # type: ignore[no-any-return]


def _seed(app: Flask) -> list[int]:
    """Three sessions: open-ended with six picks, one with leasters, one complete with passes."""
    client = app.test_client()
    first = _post(client, "/api/sessions", {"players": SEATS, "rounds": 0, "name": "Open"})
    for body in (
        pick("Ann", "Bob", 75, called_card="JD"),
        pick("Cat", None, 45, cracked_by="Dan", recracked=True),
        pick("Dan", "Eve", 90, blitzes=["black", "red"]),
        pick("Eve", "Ann", 60),
        pick("Ann", "Cat", 31),
        pick("Bob", "Dan", 120),
    ):
        _post(client, f"/api/sessions/{first['id']}/hands", body)
    rules = {"partner": "called_ace", "no_bid": "leaster"}
    second = _post(client, "/api/sessions", {"players": SEATS, "rounds": 0, "rules": rules})
    for body in (
        pick("Ann", "Bob", 75, called_card="AC"),
        {"kind": "leaster", "winner": "Cat",
         "points": {"Ann": 30, "Bob": 40, "Cat": 10, "Dan": 25, "Eve": 15}},
    ):  # fmt: skip
        _post(client, f"/api/sessions/{second['id']}/hands", body)
    third = _post(
        client, "/api/sessions", {"players": SEATS, "rounds": 1, "rules": {"no_bid": "redeal"}}
    )
    for body in ({"kind": "pass"}, pick("Bob", "Cat", 80), {"kind": "pass"}) + (
        pick("Dan", None, 100),
    ) * 2:
        _post(client, f"/api/sessions/{third['id']}/hands", body)
    return [first["id"], second["id"], third["id"]]


def _seed_event(app: Flask) -> int:
    """A club event with prizes whose hands the other side confirms, seven players checked in
    and its first round drawn."""
    client = app.test_client()
    body = {"name": "Club night", "rounds": 2, "entry": 500, "places": [50, 20], "seed": 7}
    body["confirm"] = True
    event = _post(client, "/api/events", body)
    for name in [*SEATS, "Fay", "Gus"]:
        _post(client, f"/api/events/{event['id']}/players", {"name": name})
    _post(client, f"/api/events/{event['id']}/rounds", {})
    return int(event["id"])


def _seed_practice_event(app: Flask) -> int:
    """A practice event, five players checked in and its first round drawn, to fill or delete."""
    client = app.test_client()
    event = _post(client, "/api/events", {"name": "Rehearsal", "practice": True, "hands": 3})
    for name in SEATS:
        _post(client, f"/api/events/{event['id']}/players", {"name": name})
    _post(client, f"/api/events/{event['id']}/rounds", {})
    return int(event["id"])


def _seed_season(app: Flask) -> int:
    """A season of every day, its sessions played with no house rule."""
    body = {"name": "Ever", "first_day": "2000-01-01", "last_day": "2099-12-31"}
    return int(_post(app.test_client(), "/api/seasons", body | {"house_rules": ["plain"]})["id"])


def _real_path_values(
    path: str, session_ids: list[int], event_ids: list[int], season_id: int = 1
) -> st.SearchStrategy[dict[str, Any]]:
    pools: dict[str, Any] = {
        "session_id": session_ids,
        "number": HAND_NUMBERS,
        "index": HISTORY_INDEXES,
        "event_id": event_ids,
        "round": [1, 2],
        "season_id": [season_id],
        "name": [*SEATS, "Fay", "Gus", "Zed"],
    }
    names = [name for name in pools if "{" + name + "}" in path]
    return st.fixed_dictionaries({name: st.sampled_from(list(pools[name])) for name in names})


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_fuzz_operation(each_app: EachApp, method: str, path: str, tally: Tally) -> None:
    """Hypothesis makes the cases on the first database (the same ones on every run); each
    other database is sent those cases again, which a generation of its own would make too."""
    made: list[Case] = []
    for backend, app in each_app():
        seeded = _seeded(app)
        operation = schemathesis.openapi.from_wsgi("/api/openapi.json", app)[path][method]
        if made:
            for case in made:
                _sent_again(operation, case, backend, tally)
        else:
            real = _real_path_values(path, seeded.sessions, seeded.events, seeded.season)
            made = _fuzzed(operation, real, tally)


@dataclass(frozen=True)
class Seeded:
    sessions: list[int]
    events: list[int]
    season: int


def _seeded(app: Flask) -> Seeded:
    return built_once(
        app,
        "seeded",
        lambda: Seeded(
            _seed(app), [_seed_event(app), _seed_practice_event(app)], _seed_season(app)
        ),
    )


def _fuzzed(
    operation: APIOperation, real: st.SearchStrategy[dict[str, Any]], tally: Tally
) -> list[Case]:
    """The cases Hypothesis makes for the operation, each sent as it is made: valid requests
    naming `real` rows, and invalid ones making up their own path values too."""
    made: list[Case] = []
    strategy = st.one_of(
        *operation.schema.get_strategies_from_examples(operation),
        operation.as_strategy(GenerationMode.NEGATIVE),
        *(
            real.flatmap(
                lambda values, mode=mode: operation.as_strategy(mode, path_parameters=values)
            )
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
        ),
    )

    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def call(case: Case) -> None:
        made.append(case)
        _sent(case, tally)

    call()
    return made


def _sent_again(operation: APIOperation, case: Case, backend: str, tally: Tally) -> None:
    again = operation.Case(
        method=case.method,
        path_parameters=case.path_parameters,
        headers=case.headers,
        cookies=case.cookies,
        query=case.query,
        body=case.body,
        media_type=case.media_type,
        _meta=case.meta,
    )
    try:
        _sent(again, tally)
    except AssertionError as failed:
        raise AssertionError(f"On {backend}: {case.as_curl_command()}\n{failed}") from failed


def _sent(case: Case, tally: Tally) -> None:
    started = time.perf_counter()
    response = case.call()
    tally.seconds += time.perf_counter() - started
    tally.statuses[response.status_code] += 1
    case.validate_response(response, checks=CHECKS)


@pytest.mark.parametrize(
    ("url", "body", "field"),
    [
        ("/api/sessions", {"players": [*SEATS[:4], "Z\x00e"], "rounds": 0}, "players"),
        ("/api/sessions", {"players": SEATS, "rounds": 0, "name": "Fri\x00day"}, "name"),
        ("/api/sessions/1", {"name": "\x00"}, "name"),
    ],
)
def test_found_by_fuzzing_a_nul_in_a_name_is_refused(
    client: FlaskClient, url: str, body: dict[str, Any], field: str
) -> None:
    """PostgreSQL can't store NUL and answered 500; both databases now refuse it the same way."""
    _post(client, "/api/sessions", {"players": SEATS, "rounds": 0, "name": "Friday"})
    send = client.post if url == "/api/sessions" else client.patch
    response = send(url, json=body)
    assert response.status_code == 400
    assert response.json["field"] == field
    assert "NUL" in response.json["error"]
    sessions = client.get("/api/sessions").json["sessions"]
    assert [(s["name"], s["players"]) for s in sessions] == [("Friday", SEATS)]
